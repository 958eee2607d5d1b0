// The lab 01 trace's own launch: the student's saxpy_kernel on the handout's grid of
// 3 blocks of 4 threads (the lab's launcher uses blocks of 256, which would put the
// worked example's 12 elements in one block). Compiled in one unit after saxpy.cu.
namespace pplab::lab01 {

void trace_saxpy_blocks_of_4(float a, const float* d_x, float* d_y, std::size_t n) {
  const unsigned blocks = static_cast<unsigned>((n + 3) / 4);
  saxpy_kernel<<<blocks, 4>>>(a, d_x, d_y, n);
}

}  // namespace pplab::lab01
