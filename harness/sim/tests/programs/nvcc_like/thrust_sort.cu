// thrust::device_vector, sort_by_key and copy, as cuda-samples' radixSortThrust uses them.
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <cstdio>

int main() {
  thrust::host_vector<unsigned> keys(1000), values(1000);
  for (unsigned i = 0; i < 1000; ++i) {
    keys[i] = (i * 7919u) % 1000u;
    values[i] = i;
  }
  thrust::device_vector<unsigned> d_keys = keys, d_values = values;
  thrust::sort_by_key(d_keys.begin(), d_keys.end(), d_values.begin());
  thrust::copy(d_keys.begin(), d_keys.end(), keys.begin());
  thrust::copy(d_values.begin(), d_values.end(), values.begin());
  bool ok = true;
  for (unsigned i = 0; i < 1000; ++i) ok = ok && keys[i] == i && (values[i] * 7919u) % 1000u == i;
  std::printf("thrust sort_by_key: %s\n", ok ? "sorted, values follow" : "WRONG");
  return ok ? 0 : 1;
}
