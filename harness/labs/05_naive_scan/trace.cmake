# What the trace of lab 05 watches and shows (pplab trace 05): read by
# pplab_read_lab_trace (harness/trace/lab_trace.cmake), which says what each setting means.
set(trace_array buffer)
set(trace_expect "offset 1|offset 2|offset 4|Result (inclusive scan): 1 11 111 1111 11111 ✓"
    "Many tiles (TODOs 05.1-05.4), untraced: the inclusive and exclusive scans of 1100 elements in blocks of 32 threads (35 tiles|) ✓")
set(trace_page "11111")
