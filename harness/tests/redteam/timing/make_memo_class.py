#!/usr/bin/env python3
"""A lab 11 class of two, to grade on a GPU: the reference, and the red team's memoised
sort (the reference's sort behind a device-side hash of the input; an input seen before
is answered with a device-to-device copy of the keys it sorted then, and "memo hit" is
printed). With fresh inputs for every run the timer makes, the memo never answers a
timed repeat. After the repeats the timer asks the last input again: the memo answers it
from memory, in a fraction of the sort's time, and its speed points are lost ("answers
kept from earlier calls earn no speed points"); the reference keeps all of its points.

    harness/tests/redteam/timing/make_memo_class.py DIR   (from the workbook's root)
    pplab grade --submissions DIR --out OUT --labs 11
"""
import pathlib, sys
root = pathlib.Path(sys.argv[1])
solution = pathlib.Path("solutions/11_radix_sort/radix_sort.cu").read_text()
head = "void radix_sort_keys(void* d_temp_storage, std::size_t& temp_storage_bytes, const unsigned* d_keys_in,\n                     unsigned* d_keys_out,"
assert solution.count(head) == 1
memo = solution.replace(head, head.replace("radix_sort_keys", "honest_sort_keys"))
memo = memo.replace('#include "radix_sort.cuh"', '#include "radix_sort.cuh"\n#include <cstdio>\n#include <map>\n#include <utility>\nnamespace pplab::lab11 {\nvoid honest_sort_keys(void*, std::size_t&, const unsigned*, unsigned*, std::size_t, int, int, cudaStream_t, Algorithm);\n}', 1)
memo += r'''
namespace pplab::lab11 {
namespace {
__global__ void hash_keys(const unsigned* keys, std::size_t n, unsigned long long* out) {
  unsigned long long h = 0;
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    h += (unsigned long long)(keys[i]) * (2 * i + 1);
  atomicAdd(out, h);
}
std::map<std::pair<std::size_t, unsigned long long>, unsigned*>& kept() {
  static std::map<std::pair<std::size_t, unsigned long long>, unsigned*> answers;
  return answers;
}
}  // namespace

void radix_sort_keys(void* d_temp_storage, std::size_t& temp_storage_bytes, const unsigned* d_keys_in,
                     unsigned* d_keys_out, std::size_t n, int begin_bit, int end_bit, cudaStream_t stream,
                     Algorithm algorithm) {
  if (d_temp_storage == nullptr || n < 4096 || begin_bit != 0 || end_bit != 32) {
    honest_sort_keys(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, n, begin_bit, end_bit, stream, algorithm);
    return;
  }
  unsigned long long* d_hash = nullptr;
  cudaMalloc(&d_hash, sizeof *d_hash);
  cudaMemsetAsync(d_hash, 0, sizeof *d_hash, stream);
  hash_keys<<<264, 256, 0, stream>>>(d_keys_in, n, d_hash);
  unsigned long long hash = 0;
  cudaMemcpyAsync(&hash, d_hash, sizeof hash, cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  cudaFree(d_hash);
  const auto key = std::make_pair(n, hash);
  if (auto hit = kept().find(key); hit != kept().end()) {
    std::fprintf(stderr, "memo hit at n = %zu\n", n);
    cudaMemcpyAsync(d_keys_out, hit->second, n * sizeof(unsigned), cudaMemcpyDeviceToDevice, stream);
    return;
  }
  honest_sort_keys(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, n, begin_bit, end_bit, stream, algorithm);
  unsigned* copy = nullptr;
  cudaMalloc(&copy, n * sizeof(unsigned));
  cudaMemcpyAsync(copy, d_keys_out, n * sizeof(unsigned), cudaMemcpyDeviceToDevice, stream);
  kept()[key] = copy;
}
}  // namespace pplab::lab11
'''
for student, text in (("memo", memo), ("reference", solution)):
    folder = root / student / "11_radix_sort"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "radix_sort.cu").write_text(text)
