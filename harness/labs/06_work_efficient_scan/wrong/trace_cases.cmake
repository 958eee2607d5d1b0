# Traces of lab 06's known-wrong kernels (the workbook's own tests, label trace): included
# by harness/trace/CMakeLists.txt, which says what pplab_trace_wrong_case and
# pplab_trace_fault_case check.
# The root never cleared: the up-sweep's steps are the handout's, nothing after them is.
pplab_trace_wrong_case(06_root_not_cleared 1
  "Step 3: up-sweep, stride 2|Step 4: not a step of the handout|never reached: up-sweep, stride 4"
  "then the root x7 = 0|Step [0-9]+: (up|down)-sweep, stride 4")
pplab_trace_fault_case(06_downsweep_off_by_one "shared memory out of bounds in kernel 'scan_tile_kernel"
  "reads 4 bytes at tile.8. at [^\n]*work_efficient_scan[.]cu:(9[2-9]|10[01])")
# The same in lab 06: the trace's scan of 71 tiles runs it.
pplab_trace_fault_case(06_add_back_unguarded "out-of-bounds [^\n]*in kernel 'add_tile_offsets_kernel"
  "source line: [^\n]*work_efficient_scan[.]cu:12[78]")
