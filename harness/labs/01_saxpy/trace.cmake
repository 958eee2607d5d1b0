# What the trace of lab 01 watches and shows (pplab trace 01): read by
# pplab_read_lab_trace (harness/trace/lab_trace.cmake), which says what each setting means.
set(trace_expect "Step 1: block 0 ends: y[0…3] = a·x + y (TODO 01.1)"
    "T0: y[0] = 4·2 + 3 = 11  (i = 0·4 + 0) | T1: y[1] = 4·4 + 7 = 23  (i = 0·4 + 1)"
    "Step 2: block 1 ends: y[4…7]" "Step 3: block 2 ends: y[8…11]"
    "T3: y[11] = 4·1 + 0 = 4  (i = 2·4 + 3)"
    "y afterwards: 11 23 8 5 36 12 36 24 25 7 9 4 ✓")
set(trace_page "y[0…3] = a·x + y|4·4 + 7 = 23")
