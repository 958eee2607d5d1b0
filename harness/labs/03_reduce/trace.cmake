# What the trace of lab 03 watches and shows (pplab trace 03): read by
# pplab_read_lab_trace (harness/trace/lab_trace.cmake), which says what each setting means.
set(trace_expect "T0: max(5, 6) = 6|T5: max(1, 20) = 20|warp finish, offset 4"
    "T0: max(6, 12) = 12 | T1: max(17, 20) = 20 | T2: max(14, 9) = 14 | T3: max(11, 10) = 11"
    "12 20 14 11 · · · ·|T0: max(12, 14) = 14 | T1: max(20, 11) = 20|T0: max(14, 20) = 20"
    "max = 20 ✓|with `Min` gives 0, with `Sum` 129 ✓"
    "The tree in shared memory (TODO 03.2), on a block of 128 threads and 256 values: max 50, min -50, sum -51 ✓")
set(trace_page "max(14, 20) = 20|__shfl_down_sync()")
