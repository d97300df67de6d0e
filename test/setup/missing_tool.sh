#!/usr/bin/env bash
# The README's commands on a machine where a program the build needs is absent.
#
# clang-offload-bundler (Debian: clang-tools-22) is hidden: inside a private mount
# namespace /dev/null is bound over it, so clang++-22 can no longer run it, which is what
# a fresh Debian 12 without clang-tools-22 looks like to the build. Then:
#  1. `scripts/install-deps.sh --check` must see it missing and name the package;
#  2. configuring the project must say so in one line, and the build must succeed
#     without the HIP executables (device code and ISA outputs still build).
# Where the tool is not installed at all, nothing needs hiding: the same checks apply.
#
# usage: missing_tool.sh <source dir> <scratch dir>
# Needs root and unshare(1) for the namespace; exits 77 (skipped) without them.
set -euo pipefail
src=$1
scratch=$2

if [[ ${TESSERA_INSIDE_NAMESPACE:-0} != 1 ]]; then
  if [[ $(id -u) != 0 ]] || ! command -v unshare >/dev/null || ! unshare -m true 2>/dev/null; then
    echo "missing_tool: needs root and unshare -m to hide a program; skipped"
    exit 77
  fi
  exec env TESSERA_INSIDE_NAMESPACE=1 unshare -m "$0" "$@"
fi

fail() { echo "missing_tool: FAIL: $*"; exit 1; }

# Hide every copy clang could find: its own directory's and the versioned name on PATH.
hidden=0
for candidate in "$(clang++-22 -print-prog-name=clang-offload-bundler)" \
                 "$(command -v clang-offload-bundler-22 || true)" \
                 "$(command -v clang-offload-bundler || true)"; do
  if [[ $candidate == /* && -e $candidate ]]; then
    mount --bind /dev/null "$(readlink -f "$candidate")"
    hidden=$((hidden + 1))
  fi
done
echo "missing_tool: hid $hidden copies of clang-offload-bundler"

# 1. The install step must notice, and name the package.
set +e
check=$("$src/scripts/install-deps.sh" --check 2>&1)
rc=$?
set -e
echo "$check"
((rc == 1)) || fail "install-deps.sh --check exited $rc, expected 1 (something is missing)"
grep -q "clang-offload-bundler" <<<"$check" || fail "install-deps.sh --check did not name clang-offload-bundler"
grep -q "clang-tools-22" <<<"$check" || fail "install-deps.sh --check did not name the package clang-tools-22"

# 2. Configure says it in one line; the build succeeds without the HIP executables. (CUDA
# and the tests are off: they do not need the tool, and this keeps the test quick.)
rm -rf "$scratch"
configure=$(cmake -S "$src" -B "$scratch" -G Ninja -DTESSERA_ENABLE_CUDA=OFF -DTESSERA_BUILD_TESTS=OFF \
            -DTESSERA_BUILD_EXAMPLES=ON -DTESSERA_BUILD_BENCHMARKS=ON 2>&1) ||
  { echo "$configure"; fail "configure failed"; }
line=$(grep -E "HIP executables are not built:.*clang-offload-bundler not found \(Debian package clang-tools-22\)" \
       <<<"$configure") || { echo "$configure"; fail "configure did not say in one line what is missing"; }
echo "configure said: $line"
cmake --build "$scratch" >"$scratch/build.log" 2>&1 || { tail -30 "$scratch/build.log"; fail "the build failed"; }
[[ ! -e $scratch/examples/fma_gemm_hip ]] || fail "a HIP executable was built although it cannot link"
ls "$scratch"/examples/*.gfx942.s >/dev/null || fail "the gfx942 device code was not built"
echo "missing_tool: PASS"
