# Traces of lab 05's known-wrong kernels (the workbook's own tests, label trace): included
# by harness/trace/CMakeLists.txt, which says what pplab_trace_wrong_case and
# pplab_trace_fault_case check.
# The add-back past the array's end: the trace's scan of 35 tiles runs it (one tile never adds back).
pplab_trace_fault_case(05_add_back_unguarded "out-of-bounds [^\n]*in kernel 'add_tile_offsets_kernel"
  "source line: [^\n]*naive_scan[.]cu:81")
