# What the trace of lab 12 watches and shows (pplab trace 12): read by
# pplab_read_lab_trace (harness/trace/lab_trace.cmake), which says what each setting means.
set(trace_array buffers)
set(trace_expect "ones = 0xFFFFFFF9, zeros = ~ones = 0x00000006, __popc(zeros) = 2"
    "T0: 7: ones & below 0000 = 0000 → 2 + 0 = 2 | T1: 14: zeros & below 0001 = 0000 → 0"
    "T2: 4: zeros & below 0011 = 0010 → 1 | T3: 1: ones & below 0111 = 0001 → 2 + 1 = 3"
    "7 14 4 1 ‖ 14 4 7 1|4 1 14 7 ‖|‖ 1 4 14 7|1 4 7 14 ‖|Sorted by bits 0–3: 1 4 7 14 ✓")
set(trace_page "0xFFFFFFF9|__ballot_sync()")
