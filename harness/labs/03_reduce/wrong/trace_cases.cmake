# Traces of lab 03's known-wrong kernels (the workbook's own tests, label trace): included
# by harness/trace/CMakeLists.txt, which says what pplab_trace_wrong_case and
# pplab_trace_fault_case check.
# The shared-memory tree run down to stride 1: its barriers are the handout's levels, the
# warp finish's shuffles after them none of its steps.
pplab_trace_wrong_case(03_tree_to_stride_one 1
  "Step 1: first add during load|Step 2: the tree in shared memory, stride 4|Step 3: the tree in shared memory, stride 2|Step 4: the tree in shared memory, stride 1|Step 5: not a step of the handout|Step 7: not a step of the handout|with `Sum` 324 ✗"
  "warp finish, offset|never reached|Step 8")
pplab_trace_fault_case(03_throws_unaligned
  "an exception escaped the lab's code: std::invalid_argument: reduce: the input must be 16-byte aligned"
  "where: host code, outside any kernel")
# The tree in shared memory without its barrier: the trace's block of 128 threads runs
# it (the worked example's 8 threads never do) and ends in the race's report.
pplab_trace_fault_case(03_tree_missing_barrier "data race on shared memory in kernel 'reduce_kernel"
  "at [^\n]*reduce[.]cu:49")
pplab_trace_fault_case(03_warp_mask "warp operation cannot complete in kernel 'reduce_kernel"
  "waits at __shfl_down_sync[(]mask 0x000000ff[)] at [^\n]*reduce[.]cu:63")
pplab_trace_fault_case(03_exit_zero "the lab's code called exit[(][)] before the trace's end"
  "where: host code, outside any kernel")
