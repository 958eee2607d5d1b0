#!/bin/sh
# Builds with the CUDA toolkit's headers out of reach: /usr/local (where these machines
# link CUDA's include/ into /usr/local/include, a default include directory, and keep
# /usr/local/cuda*) is replaced by an empty directory under bubblewrap.
#   no_toolkit.sh SIMCC REPO_ROOT WORK_DIR
# Every lab's .cu compiles (solutions differ only inside TODO regions), a cooperative-groups program builds and runs, and a
# toolkit header the sim lacks stops the build with an error naming it.
set -eu
simcc=$1 root=$2 work=$3
command -v bwrap >/dev/null 2>&1 || { echo "bubblewrap (bwrap) is not installed"; exit 77; }
hidden() { bwrap --bind / / --tmpfs /usr/local --dev /dev --proc /proc "$@"; }
mkdir -p "$work"
hidden test ! -e /usr/local/include/cuda_runtime.h
for cu in "$root"/labs/*/*.cu; do
  hidden "$simcc" -c -I "$root/harness/include" "$cu" -o "$work/$(basename "$cu").o"
done
echo "every lab's .cu compiles with /usr/local hidden"
hidden "$simcc" "$root/harness/sim/tests/programs/nvcc_like/groups.cu" -o "$work/groups"
hidden "$work/groups" | grep "cooperative launch: cudaSuccess, total 10"
printf '#include <cuda_fp16.h>\nint main() { return 0; }\n' > "$work/fp16.cu"
if hidden "$simcc" "$work/fp16.cu" -o "$work/fp16" 2> "$work/fp16.err"; then
  echo "a program including <cuda_fp16.h> built: a toolkit header was not shadowed"; exit 1
fi
grep "<cuda_fp16.h> is part of the CUDA toolkit and the pplab CPU emulator does not provide it" "$work/fp16.err"
# With the toolkit visible, the same stub wins over /usr/local/include's real header.
if "$simcc" "$work/fp16.cu" -o "$work/fp16" 2> "$work/fp16.err"; then
  echo "with /usr/local visible, <cuda_fp16.h> came from the real toolkit"; exit 1
fi
grep "<cuda_fp16.h> is part of the CUDA toolkit" "$work/fp16.err"
