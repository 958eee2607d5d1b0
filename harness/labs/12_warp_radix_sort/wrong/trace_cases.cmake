# Traces of lab 12's known-wrong kernels (the workbook's own tests, label trace): included
# by harness/trace/CMakeLists.txt, which says what pplab_trace_wrong_case and
# pplab_trace_fault_case check.
# The passes never flip buffers: every pass writes buffers[1], which the trace says.
pplab_trace_wrong_case(12_no_flip 1
  "bit 0: each key to its new position, in buffers[1]|bit 1: each key to its new position, in buffers[1]"
  "bit 1: each key to its new position, in buffers.0")
