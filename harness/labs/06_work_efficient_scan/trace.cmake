# What the trace of lab 06 watches and shows (pplab trace 06): read by
# pplab_read_lab_trace (harness/trace/lab_trace.cmake), which says what each setting means.
set(trace_array tile)
set(trace_expect "tile afterwards: 3 1 7 0 4 1 6 3|tile afterwards: 3 4 7 7 4 5 6 9"
    "tile afterwards: 3 4 7 11 4 5 6 14|x7 = 14 + 11 = 25 (the total), then the root x7 = 0"
    "tile afterwards: 3 4 7 0 4 5 6 11|tile afterwards: 3 0 7 4 4 11 6 16"
    "tile afterwards: 0 3 4 11 11 15 16 22|3 4 11 11 15 16 22 25 ✓"
    "Many tiles (TODOs 06.1-06.5), untraced: the exclusive and inclusive scans of 4500 elements in blocks of 32 threads (71 padded tiles of 64|) ✓")
set(trace_page "x7 = 14 + 11 = 25|down-sweep, stride 1")
