#!/bin/sh
# The seed dot product on the sim beside HIP-CPU (github.com/ROCm/HIP-CPU, built
# with Debian's libtbb-dev), in alternating runs, with the medians of each.
#
#   compare_hip_cpu.sh HIP_CPU_DIR SIM_BENCH [RUNS] [LOG2_THREADS]
#
# HIP_CPU_DIR: a HIP-CPU checkout (its include/ is used); SIM_BENCH: a built
# pplab_sim_dot_bench (run with PPLAB_SIM_CHECK=off, as for any speed run, and once
# more with checking on). RUNS defaults to 7, LOG2_THREADS to 24. Not part of the
# build or CI: it needs a HIP-CPU checkout and TBB.
set -eu
hip=${1:?HIP-CPU checkout}
sim=${2:?pplab_sim_dot_bench}
runs=${3:-7}
log2n=${4:-24}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
${CXX:-g++} -O2 -std=c++17 -I"$hip/include" "$here/dot_product_hip_cpu.cpp" -o "$work/dot_hip" -ltbb -pthread

# One run: "<M threads/s by the wall clock> <ns of CPU time per thread>".
one() {
  "$@" "$log2n" | awk '/threads in/ { for (i = 1; i <= NF; ++i) if ($i == "=") w = $(i + 1) }
                      /CPU time/ { c = $6 } END { if (w == "" || c == "") exit 1; print w, c }'
}
: >"$work/sim"; : >"$work/sim_on"; : >"$work/hip"
i=0
while [ "$i" -lt "$runs" ]; do
  PPLAB_SIM_CHECK=off one "$sim" >>"$work/sim"
  one "$work/dot_hip" >>"$work/hip"
  PPLAB_SIM_CHECK=on one "$sim" >>"$work/sim_on"
  i=$((i + 1))
done
median() {  # column $2 of file $1
  sort -n -k"$2" "$1" | awk -v k="$2" '{ v[NR] = $k } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
echo "2^$log2n threads, $runs alternating runs each, medians; load: $(cut -d' ' -f1-3 /proc/loadavg)"
for name in sim sim_on hip; do
  printf '%-28s %8s M threads/s (wall)  %6s ns CPU per thread\n' \
    "$(case $name in sim) echo "sim, PPLAB_SIM_CHECK=off";; sim_on) echo "sim, PPLAB_SIM_CHECK=on";; hip) echo "HIP-CPU";; esac)" \
    "$(median "$work/$name" 1)" "$(median "$work/$name" 2)"
done
echo "sim (off) / HIP-CPU: wall $(awk -v a="$(median "$work/sim" 1)" -v b="$(median "$work/hip" 1)" 'BEGIN { printf "%.2f", a / b }')x," \
  "CPU $(awk -v a="$(median "$work/sim" 2)" -v b="$(median "$work/hip" 2)" 'BEGIN { printf "%.2f", b / a }')x"
