#!/usr/bin/env bash
# A real single-node Slurm cluster for tests, from Debian's slurm-wlm and munge,
# living entirely in one folder (no system files touched, no cgroups needed):
#
#   harness/grading/tests/slurm_cluster/test_cluster.sh start DIR   # munged, slurmctld, slurmd; waits until idle
#   harness/grading/tests/slurm_cluster/test_cluster.sh stop DIR
#
# Afterwards `export SLURM_CONF=DIR/slurm.conf` points sbatch/squeue/scancel at it.
set -euo pipefail
action=${1:?usage: test_cluster.sh start|stop DIR}
dir=$(realpath -m "${2:?usage: test_cluster.sh start|stop DIR}")
here=$(dirname "$(realpath "$0")")

stop() {
  for pidfile in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munge/pid"; do
    [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
  done
  sleep 1
}

case $action in
  start)
    command -v slurmctld > /dev/null || { echo "slurm-wlm is not installed (apt-get install slurm-wlm munge)" >&2; exit 1; }
    stop
    mkdir -p "$dir"/{spool,state,log,munge}
    chmod 700 "$dir/munge"
    [ -f "$dir/munge/munge.key" ] || { head -c 1024 /dev/urandom > "$dir/munge/munge.key"; chmod 400 "$dir/munge/munge.key"; }
    port=$((16000 + RANDOM % 2000))  # a random pair, so two test clusters don't collide
    sed -e "s|@DIR@|$dir|g" -e "s|@HOST@|$(hostname)|g" -e "s|@CPUS@|$(nproc)|g" \
        -e "s|@PORT@|$port|g" -e "s|@DPORT@|$((port + 1))|g" "$here/test_cluster.conf.in" > "$dir/slurm.conf"
    munged --key-file="$dir/munge/munge.key" --socket="$dir/munge/sock" --pid-file="$dir/munge/pid" \
           --log-file="$dir/munge/log" --seed-file="$dir/munge/seed" --force
    slurmctld -f "$dir/slurm.conf"
    slurmd -f "$dir/slurm.conf"
    for _ in $(seq 60); do
      if SLURM_CONF="$dir/slurm.conf" sinfo -h -o %T 2>/dev/null | grep -q idle; then
        echo "slurm test cluster up: export SLURM_CONF=$dir/slurm.conf"
        exit 0
      fi
      sleep 1
    done
    echo "slurm test cluster did not come up; logs in $dir/log" >&2
    tail -n 20 "$dir"/log/*.log >&2 || true
    stop
    exit 1
    ;;
  stop) stop ;;
  *) echo "usage: test_cluster.sh start|stop DIR" >&2; exit 2 ;;
esac
