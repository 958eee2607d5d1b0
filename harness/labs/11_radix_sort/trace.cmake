# What the trace of lab 11 watches and shows (pplab trace 11): read by
# pplab_read_lab_trace (harness/trace/lab_trace.cmake), which says what each setting means.
set(trace_array keys)
set(trace_expect "ones = 2, zeros = 4 − 2 = 2"
    "T0: 7 (bit 1) → 2 + 0 = 2 | T1: 14 (bit 0) → 0 + 0 = 0 | T2: 4 (bit 0) → 0 + 1 = 1 | T3: 1 (bit 1) → 2 + 1 = 3"
    "7 14 4 1 ‖ 14 4 7 1|4 1 14 7 ‖|‖ 1 4 14 7|1 4 7 14 ‖|output 14 4 7 1, `positions` 2 0 1 3 ✓"
    "The device-wide sort (TODOs 11.2-11.6), untraced, by the three kernels on 9192 keys (3 tiles)|(stable) ✓")
set(trace_page "__syncthreads_count()|7 (bit 1) → 2 + 0 = 2")
