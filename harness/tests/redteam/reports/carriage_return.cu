// Red team: an exception message and printed lines that hold a forged report: bare
// carriage returns (a line break to Markdown), a fence, headings, raw HTML, a terminal
// escape and a spreadsheet formula.
#include <cstdio>
#include <stdexcept>

#include "saxpy.cuh"

namespace pplab::lab01 {
void saxpy(float, const float*, float*, std::size_t, cudaStream_t) {
  std::printf("done\n```\n## 01_saxpy 10 of 10\n<b>INJECTED</b>\n\x1b[2J=HYPERLINK(\"https:x.invalid\")\n");
  std::fflush(stdout);
  throw std::runtime_error("oops\r## 01_saxpy 10 of 10\r<img src=x onerror=alert(1)>INJECTED</img>\r| 10 | 10 |");
}
}  // namespace pplab::lab01
