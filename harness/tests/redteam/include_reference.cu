// Red team: compile the reference solution in place of one's own.
#include "@ROOT@/solutions/01_saxpy/saxpy.cu"
