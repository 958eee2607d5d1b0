# What the reference solution's trace of each lab must print, in this order: the
# handout's worked example, step by step (the handout's numbers, set beside the steps
# the kernel ran). Read by harness/trace/CMakeLists.txt (a test per trace in a build
# whose traces run the reference) and docs/CMakeLists.txt (the handout page shows them).
# No ";" in a text (CMake's list separator); "|" inside one splits it into two pieces
# that must appear in order (docs/cmake/check_trace.cmake).
#   set(trace_expect_NN "<text>" "<text>" ...)   the trace program's text, in order
#   set(trace_page_NN "<on the page>|...")         what the handout page must show (docs)
set(trace_expect_01 "Step 1: block 0 ends: y[0…3] = a·x + y (TODO 01.1)"
    "T0: y[0] = 4·2 + 3 = 11  (i = 0·4 + 0) | T1: y[1] = 4·4 + 7 = 23  (i = 0·4 + 1)"
    "Step 2: block 1 ends: y[4…7]" "Step 3: block 2 ends: y[8…11]"
    "T3: y[11] = 4·1 + 0 = 4  (i = 2·4 + 3)"
    "y afterwards: 11 23 8 5 36 12 36 24 25 7 9 4 ✓")
set(trace_page_01 "y[0…3] = a·x + y|4·4 + 7 = 23")
set(trace_expect_04 "Two passes" "block 0: the grid-stride sums (TODO 04.1)"
    "T0: has 27, gets 33 | T1: has 30, gets 36 | T2: has 33, gets 33 | T3: has 36, gets 36"
    "thread 0 now holds 126" "block 1: the grid-stride sums (TODO 04.1)" "T0: has 18, gets 22"
    "thread 0 now holds 84" "second pass, block 0: reads the partials 126 84 (TODOs 04.2, 04.3)"
    "T0: has 126, gets 0 | T1: has 84, gets 0" "T0: *d_out = 210" "The sum: 210 ✓"
    "Atomics (TODO 04.4)" "block 0 ends: atomicAdd of the block's sum (TODO 04.4)" "T0: *d_out = 126"
    "block 1 ends: atomicAdd of the block's sum (TODO 04.4)" "T0: *d_out = 210" "The sum: 210 ✓")
set(trace_page_04 "reads the partials 126 84|has 27, gets 33")
set(trace_expect_08 "gather (TODO 08.1): out[i] = in[map[i]], map 1 3 4 2 0"
    "T0: out[0] = in[1] = 1 | T1: out[1] = in[3] = 2 | T2: out[2] = in[4] = 3 | T3: out[3] = in[2] = 4 | T4: out[4] = in[0] = 5"
    "out: 1 2 3 4 5 ✓" "scatter (TODO 08.2): out[map[i]] = in[i], map 4 0 3 1 2"
    "T0: out[4] = in[0] = 5 | T1: out[0] = in[1] = 1 | T2: out[3] = in[2] = 4" "out: 1 2 3 4 5 ✓"
    "inverse permutation (TODO 08.3)" "T0: inv[1] = 0 | T1: inv[3] = 1 | T2: inv[4] = 2 | T3: inv[2] = 3 | T4: inv[0] = 4"
    "out: 4 0 3 1 2 ✓")
set(trace_page_08 "out[4] = in[0] = 5|inv[1] = 0")
set(trace_expect_09 "Step 1: the window loaded (TODO 09.2)" "window afterwards: 5 1 4 2 3 · · ·"
    "Step 2: phase 0 (even)" "T0: window[0]: 5 → 1" "window[1]: 1 → 5 | T1: window[2]: 4 → 2" "window[3]: 2 → 4"
    "window afterwards: 1 5 2 4 3" "Step 3: phase 1 (odd)" "window afterwards: 1 2 5 3 4"
    "Step 4: phase 2 (even)" "window afterwards: 1 2 3 5 4" "Step 5: phase 3 (odd)" "window afterwards: 1 2 3 4 5"
    "Step 6: phase 4 (even): nothing to swap" "Sorted: 1 2 3 4 5 ✓"
    "Several windows (TODOs 09.1-09.5), untraced: `odd_even_sort` of 280 keys in blocks of 32 threads (windows of 64 keys, 9 rounds) ✓")
set(trace_page_09 "phase 1 (odd)|5 → 1")
set(trace_expect_10 "each thread's split (TODO 10.1) and 2 keys merged from it (TODO 10.2)"
    "T0: out[0] = 0" "out[1] = 1" "diagonal 0: split (0, 0)" "T2: out[4] = 4" "out[5] = 5"
    "diagonal 4: split (2, 2)" "T4: out[8] = 8" "out[9] = 9" "diagonal 8: split (3, 5)" "0 1 2 3 4 5 6 7 8 9 ‖ 0 1 2 3 3"
    "Merged by the five threads: 0 1 2 3 4 5 6 7 8 9 ✓"
    "merge_keys, the lab's merge pass (TODO 10.5): 0 1 2 3 4 5 6 7 8 9 ✓"
    "The whole sort (TODOs 10.3-10.6), untraced: `sort_keys` of 9704 keys (2 block-sort tiles of 8704, 1 merge pass)|`sort_pairs` of 18408 (3 tiles, 2 merge passes) ✓")
set(trace_page_10 "diagonal 8: split (3, 5)")
set(trace_expect_03 "T0: max(5, 6) = 6|T5: max(1, 20) = 20|warp finish, offset 4"
    "T0: max(6, 12) = 12 | T1: max(17, 20) = 20 | T2: max(14, 9) = 14 | T3: max(11, 10) = 11"
    "12 20 14 11 · · · ·|T0: max(12, 14) = 14 | T1: max(20, 11) = 20|T0: max(14, 20) = 20"
    "max = 20 ✓|with `Min` gives 0, with `Sum` 129 ✓"
    "The tree in shared memory (TODO 03.2), on a block of 128 threads and 256 values: max 50, min -50, sum -51 ✓")
set(trace_page_03 "max(14, 20) = 20|__shfl_down_sync()")
set(trace_expect_05 "offset 1|offset 2|offset 4|Result (inclusive scan): 1 11 111 1111 11111 ✓"
    "Many tiles (TODOs 05.1-05.4), untraced: the inclusive and exclusive scans of 1100 elements in blocks of 32 threads (35 tiles|) ✓")
set(trace_page_05 "11111")
set(trace_expect_06 "tile afterwards: 3 1 7 0 4 1 6 3|tile afterwards: 3 4 7 7 4 5 6 9"
    "tile afterwards: 3 4 7 11 4 5 6 14|x7 = 14 + 11 = 25 (the total), then the root x7 = 0"
    "tile afterwards: 3 4 7 0 4 5 6 11|tile afterwards: 3 0 7 4 4 11 6 16"
    "tile afterwards: 0 3 4 11 11 15 16 22|3 4 11 11 15 16 22 25 ✓"
    "Many tiles (TODOs 06.1-06.5), untraced: the exclusive and inclusive scans of 4500 elements in blocks of 32 threads (71 padded tiles of 64|) ✓")
set(trace_page_06 "x7 = 14 + 11 = 25|down-sweep, stride 1")
set(trace_expect_07 "flags: 0 1 1 0 0|exclusive scan: 0 0 1 2 2|out[0] = 60 out[1] = 51"
    "T1: 60 > 50: 1|shared afterwards: 0 1 2 1 0|shared afterwards: 0 1 2 2 2|out = 60 51, k = 2 ✓")
set(trace_page_07 "60 &gt; 50: 1|out[1] = 51")
set(trace_expect_11 "ones = 2, zeros = 4 − 2 = 2"
    "T0: 7 (bit 1) → 2 + 0 = 2 | T1: 14 (bit 0) → 0 + 0 = 0 | T2: 4 (bit 0) → 0 + 1 = 1 | T3: 1 (bit 1) → 2 + 1 = 3"
    "7 14 4 1 ‖ 14 4 7 1|4 1 14 7 ‖|‖ 1 4 14 7|1 4 7 14 ‖|output 14 4 7 1, `positions` 2 0 1 3 ✓"
    "The device-wide sort (TODOs 11.2-11.6), untraced, by the three kernels on 9192 keys (3 tiles)|(stable) ✓")
set(trace_page_11 "__syncthreads_count()|7 (bit 1) → 2 + 0 = 2")
set(trace_expect_12 "ones = 0xFFFFFFF9, zeros = ~ones = 0x00000006, __popc(zeros) = 2"
    "T0: 7: ones & below 0000 = 0000 → 2 + 0 = 2 | T1: 14: zeros & below 0001 = 0000 → 0"
    "T2: 4: zeros & below 0011 = 0010 → 1 | T3: 1: ones & below 0111 = 0001 → 2 + 1 = 3"
    "7 14 4 1 ‖ 14 4 7 1|4 1 14 7 ‖|‖ 1 4 14 7|1 4 7 14 ‖|Sorted by bits 0–3: 1 4 7 14 ✓")
set(trace_page_12 "0xFFFFFFF9|__ballot_sync()")
set(trace_expect_02 "Step 1: products into shared memory" "shared afterwards: 2 2 6 4 10 6 14 8"
    "Step 2: the tree, stride 4" "T0: 2 + 10 = 12" "Step 4: the tree, stride 1" "T0: 32 + 20 = 52"
    "result = 52" "= 52 ✓")
set(trace_page_02 "32 + 20 = 52")
