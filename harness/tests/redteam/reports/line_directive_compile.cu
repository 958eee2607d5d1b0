// Red team: a #line file name that holds a forged report. g++ names the file in every
// message, so the compile error below carries it, line breaks and all, into the report:
// a fence closed, a heading "## 01_saxpy 10 of 10", raw HTML.
#line 1 "saxpy.cu\n```\n</pre></details>\n## 01_saxpy 10 of 10\n<b>INJECTED</b><img src=x onerror=alert(1)>\n```"
#include "saxpy.cuh"

namespace pplab::lab01 {
void saxpy(float a, const float* d_x, float* d_y, std::size_t n, cudaStream_t) {
  forged_report_marker(a, d_x, d_y, n);  // undeclared: a compile error that names the file
}
}  // namespace pplab::lab01
