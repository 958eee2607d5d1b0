# Traces of lab 10's known-wrong kernels (the workbook's own tests, label trace): included
# by harness/trace/CMakeLists.txt, which says what pplab_trace_wrong_case and
# pplab_trace_fault_case check.
# The block sort's merge without its barrier: the trace's sorts of two and three tiles run
# it (the worked example's merge never does).
pplab_trace_fault_case(10_block_merge_missing_barrier "data race on shared memory in kernel 'sort_kernel"
  "at [^\n]*merge_sort[.]cu:(59|181)")
