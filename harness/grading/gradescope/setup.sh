#!/usr/bin/env bash
# Gradescope autograder setup (runs once when the autograder image is built).
# The autograder zip holds this file, run_autograder, and the workbook as workbook.tar.gz
# (make it with: git archive --format=tar.gz -o workbook.tar.gz HEAD, from the instructor
# repository, solutions included). See docs/instructor_guide.md, "Gradescope".
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends cmake ninja-build g++ git doctest-dev libcli11-dev \
  nlohmann-json3-dev libboost-context-dev binutils bubblewrap
mkdir -p /autograder/workbook
tar -xzf /autograder/source/workbook.tar.gz -C /autograder/workbook
cd /autograder/workbook
# Gradescope machines have no GPU: the sim backend, correctness only.
cmake --preset grading -DPPLAB_BACKEND=sim
cmake --build --preset grading --target pplab
# Build the references once so every submission's grade reuses them.
cmake --build --preset grading
