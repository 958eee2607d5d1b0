# What the trace of lab 10 watches and shows (pplab trace 10): read by
# pplab_read_lab_trace (harness/trace/lab_trace.cmake), which says what each setting means.
set(trace_expect "each thread's split (TODO 10.1) and 2 keys merged from it (TODO 10.2)"
    "T0: out[0] = 0" "out[1] = 1" "diagonal 0: split (0, 0)" "T2: out[4] = 4" "out[5] = 5"
    "diagonal 4: split (2, 2)" "T4: out[8] = 8" "out[9] = 9" "diagonal 8: split (3, 5)" "0 1 2 3 4 5 6 7 8 9 ‖ 0 1 2 3 3"
    "Merged by the five threads: 0 1 2 3 4 5 6 7 8 9 ✓"
    "merge_keys, the lab's merge pass (TODO 10.5): 0 1 2 3 4 5 6 7 8 9 ✓"
    "The whole sort (TODOs 10.3-10.6), untraced: `sort_keys` of 9704 keys (2 block-sort tiles of 8704, 1 merge pass)|`sort_pairs` of 18408 (3 tiles, 2 merge passes) ✓")
set(trace_page "diagonal 8: split (3, 5)")
