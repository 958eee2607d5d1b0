# What the trace of lab 07 watches and shows (pplab trace 07): read by
# pplab_read_lab_trace (harness/trace/lab_trace.cmake), which says what each setting means.
set(trace_expect "flags: 0 1 1 0 0|exclusive scan: 0 0 1 2 2|out[0] = 60 out[1] = 51"
    "T1: 60 > 50: 1|shared afterwards: 0 1 2 1 0|shared afterwards: 0 1 2 2 2|out = 60 51, k = 2 ✓")
set(trace_page "60 &gt; 50: 1|out[1] = 51")
