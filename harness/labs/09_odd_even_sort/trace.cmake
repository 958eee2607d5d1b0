# What the trace of lab 09 watches and shows (pplab trace 09): read by
# pplab_read_lab_trace (harness/trace/lab_trace.cmake), which says what each setting means.
set(trace_array window)
set(trace_expect "Step 1: the window loaded (TODO 09.2)" "window afterwards: 5 1 4 2 3 · · ·"
    "Step 2: phase 0 (even)" "T0: window[0]: 5 → 1" "window[1]: 1 → 5 | T1: window[2]: 4 → 2" "window[3]: 2 → 4"
    "window afterwards: 1 5 2 4 3" "Step 3: phase 1 (odd)" "window afterwards: 1 2 5 3 4"
    "Step 4: phase 2 (even)" "window afterwards: 1 2 3 5 4" "Step 5: phase 3 (odd)" "window afterwards: 1 2 3 4 5"
    "Step 6: phase 4 (even): nothing to swap" "Sorted: 1 2 3 4 5 ✓"
    "Several windows (TODOs 09.1-09.5), untraced: `odd_even_sort` of 280 keys in blocks of 32 threads (windows of 64 keys, 9 rounds) ✓")
set(trace_page "phase 1 (odd)|5 → 1")
