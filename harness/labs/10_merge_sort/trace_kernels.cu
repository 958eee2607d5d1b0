// The lab 10 trace's own kernel: the handout's merge of A = 0 3 5 8 9 with B = 1 2 4 6 7
// by five threads of 2 outputs each, built from the student's merge_path (TODO 10.1) and
// serial_merge (TODO 10.2). Compiled in one unit after merge_sort.cu, whose templates it
// calls. The lab's own merge pass gives each thread kItemsPerThread = 17 outputs, so
// there one thread would write all ten keys.
namespace pplab::lab10 {

/// shown[0, 10): the merged keys; shown[11 + t]: thread t's split i (keys it skips of A).
__global__ void trace_merge_kernel(const int* list, int a_count, int b_count, int* shown) {
  constexpr int kOutputs = 2;  // per thread, as in the handout's table
  const int t = threadIdx.x, diag = kOutputs * t;
  if (diag >= a_count + b_count) return;
  const int a = merge_path(list, a_count, b_count, diag);
  shown[11 + t] = a;
  int keys[ITEMS];
  int source[ITEMS];
  for (int k = 0; k < ITEMS; ++k) source[k] = -1;  // a key serial_merge did not write stays unshown
  serial_merge(list, a, a_count, a_count + diag - a, a_count + b_count, keys, source);
  for (int k = 0; k < kOutputs && diag + k < a_count + b_count; ++k)
    if (source[k] >= 0) shown[diag + k] = keys[k];
}

void trace_merge(const int* d_list, int a_count, int b_count, int* d_shown) {
  const int threads = (a_count + b_count + 1) / 2;
  trace_merge_kernel<<<1, threads>>>(d_list, a_count, b_count, d_shown);
}

}  // namespace pplab::lab10
