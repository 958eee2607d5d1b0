# What the trace of lab 04 watches and shows (pplab trace 04): read by
# pplab_read_lab_trace (harness/trace/lab_trace.cmake), which says what each setting means.
set(trace_expect "Two passes" "block 0: the grid-stride sums (TODO 04.1)"
    "T0: has 27, gets 33 | T1: has 30, gets 36 | T2: has 33, gets 33 | T3: has 36, gets 36"
    "thread 0 now holds 126" "block 1: the grid-stride sums (TODO 04.1)" "T0: has 18, gets 22"
    "thread 0 now holds 84" "second pass, block 0: reads the partials 126 84 (TODOs 04.2, 04.3)"
    "T0: has 126, gets 0 | T1: has 84, gets 0" "T0: *d_out = 210" "The sum: 210 ✓"
    "Atomics (TODO 04.4)" "block 0 ends: atomicAdd of the block's sum (TODO 04.4)" "T0: *d_out = 126"
    "block 1 ends: atomicAdd of the block's sum (TODO 04.4)" "T0: *d_out = 210" "The sum: 210 ✓")
set(trace_page "reads the partials 126 84|has 27, gets 33")
