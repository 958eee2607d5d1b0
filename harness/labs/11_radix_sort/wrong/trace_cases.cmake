# Traces of lab 11's known-wrong kernels (the workbook's own tests, label trace): included
# by harness/trace/CMakeLists.txt, which says what pplab_trace_wrong_case and
# pplab_trace_fault_case check.
# The scatter's tile read back before every thread has placed its keys there: the
# trace's device-wide sort runs it (the worked example's split never does) and ends in
# the race's report.
pplab_trace_fault_case(11_scatter_missing_barrier "data race on shared memory in kernel 'scatter_kernel"
  "at [^\n]*radix_sort[.]cu:358")
