#!/usr/bin/env bash
# The tests: install what is missing, configure, build, run ctest.
#   host unit tests (label unit), compile-fail tests (compile_fail), ISA / portability
#   checks with FileCheck (isa), package tests (install), GPU tests (gpu: run where a
#   CUDA GPU is present, reported as skipped where none is).
# Extra arguments go to ctest, e.g. scripts/test.sh -L unit
#
# Preset: `ci` (build/ci; what CI runs): every test and check of the `default` preset, but
# the GPU executables built for several targets carry sm_90a only (sm_100a code is checked
# by the ISA tests, and no GPU runs them here). TESSERA_PRESET=default scripts/test.sh
# builds and tests everything (build/default).
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${TESSERA_PRESET:-ci}
scripts/install-deps.sh
scripts/configure.sh "$preset"
cmake --build --preset "$preset"
# One test per core; the slowest are started first (their COST properties).
ctest --preset "$preset" --parallel "$(nproc 2>/dev/null || echo 2)" "$@"
