# Traces of lab 09's known-wrong kernels (the workbook's own tests, label trace): included
# by harness/trace/CMakeLists.txt, which says what pplab_trace_wrong_case and
# pplab_trace_fault_case check.
# One phase too few for 5 keys (a power of two): phases 0-3 happen (and sort these keys), phase 4 never does.
pplab_trace_wrong_case(09_powers_of_two 0
  "Step 5: phase 3 (odd)|never reached: phase 4 (even): nothing to swap|Sorted: 1 2 3 4 5 ✓"
  "Step 6")
# A round's window past the end: the trace's odd_even_sort of 280 keys runs the rounds
# (odd_even_phases, the worked example's launch, has none).
pplab_trace_fault_case(09_window_past_the_end "out-of-bounds [^\n]*in kernel 'odd_even_window_kernel"
  "source line: [^\n]*odd_even_sort[.]cu:49")
