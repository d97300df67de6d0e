#!/usr/bin/env bash
# The tests: install what is missing, configure, build, run ctest.
#   host unit tests (label unit), compile-fail tests (compile_fail), ISA / portability
#   checks with FileCheck (isa), package tests (install), GPU tests (gpu: run where a
#   CUDA GPU is present, reported as skipped where none is).
# Extra arguments go to ctest, e.g. scripts/test.sh -L unit
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/configure.sh
cmake --build --preset default
ctest --preset default "$@"
