# What the trace of lab 08 watches and shows (pplab trace 08): read by
# pplab_read_lab_trace (harness/trace/lab_trace.cmake), which says what each setting means.
set(trace_expect "gather (TODO 08.1): out[i] = in[map[i]], map 1 3 4 2 0"
    "T0: out[0] = in[1] = 1 | T1: out[1] = in[3] = 2 | T2: out[2] = in[4] = 3 | T3: out[3] = in[2] = 4 | T4: out[4] = in[0] = 5"
    "out: 1 2 3 4 5 ✓" "scatter (TODO 08.2): out[map[i]] = in[i], map 4 0 3 1 2"
    "T0: out[4] = in[0] = 5 | T1: out[0] = in[1] = 1 | T2: out[3] = in[2] = 4" "out: 1 2 3 4 5 ✓"
    "inverse permutation (TODO 08.3)" "T0: inv[1] = 0 | T1: inv[3] = 1 | T2: inv[4] = 2 | T3: inv[2] = 3 | T4: inv[0] = 4"
    "out: 4 0 3 1 2 ✓")
set(trace_page "out[4] = in[0] = 5|inv[1] = 0")
