# What the trace of lab 02 watches and shows (pplab trace 02): read by
# pplab_read_lab_trace (harness/trace/lab_trace.cmake), which says what each setting means.
set(trace_expect "Step 1: products into shared memory" "shared afterwards: 2 2 6 4 10 6 14 8"
    "Step 2: the tree, stride 4" "T0: 2 + 10 = 12" "Step 4: the tree, stride 1" "T0: 32 + 20 = 52"
    "result = 52" "= 52 ✓")
set(trace_page "32 + 20 = 52")
