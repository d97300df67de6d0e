#!/usr/bin/env bash
# On a machine with a CUDA GPU: runs test_numeric_types, which compares the conversion
# instructions with Tessera's host functions bit for bit (Hopper or later:
# cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32 and back, the library's device path and its software
# path on the device; compute capability 10.0 only: the sm_100a fp6/fp4/ue8m0 instructions),
# then, if present, test_numeric_types_mutant, built against a copy of the headers whose
# rounding breaks ties away from zero: it must fail, or the comparison proves nothing.
# Summary last; full logs in $OUT (or build/gpu/logs/).
#
#   scripts/device/numeric_types.sh [DIR]     runs DIR/test_numeric_types (+ the mutant);
#       DIR defaults to $TESSERA_PREBUILT, else build/gpu/test/gpu.
#   scripts/device/numeric_types.sh --build-mutant DIR
#       builds DIR/test_numeric_types_mutant (sm_90a, nvcc; no GPU needed) and runs nothing.
# The test itself: cmake --build --preset default --target test_numeric_types
# (build/default/test/gpu/test_numeric_types, sm_90a + sm_100a code).
set -uo pipefail
cd "$(dirname "$0")/../.."

if [[ ${1:-} == --build-mutant ]]; then
  dir=${2:?--build-mutant needs a directory}
  mkdir -p "$dir"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  cp -r include "$work/include"
  header=$work/include/tessera/core/narrow_float.hpp
  sed -i 's/if (rest > halfway || (rest == halfway \&\& (kept \& 1u))) ++kept;/if (rest >= halfway) ++kept;/' "$header"
  if cmp -s "$header" include/tessera/core/narrow_float.hpp; then
    echo "numeric_types: the mutation of narrow_float.hpp did not apply"
    exit 2
  fi
  nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
  catch=/usr/include
  [[ -f .carry/catch2/catch.hpp ]] && catch=.carry
  exec "$nvcc" -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -I "$work/include" \
    -I test/support -I "$catch" test/gpu/test_numeric_types.cu test/gpu/gpu_main.cpp \
    -o "$dir/test_numeric_types_mutant"
fi

dir=${1:-${TESSERA_PREBUILT:-build/gpu/test/gpu}}
out=${OUT:-build/gpu/logs}
mkdir -p "$out"
if [[ ! -x $dir/test_numeric_types ]]; then
  echo "numeric_types: no executable $dir/test_numeric_types (build target test_numeric_types)"
  exit 2
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$out/numeric_types.device.txt" 2>&1
"$dir/test_numeric_types" >"$out/numeric_types.log" 2>&1
rc=$?
mutant=none
if [[ -x $dir/test_numeric_types_mutant && $rc != 77 ]]; then
  "$dir/test_numeric_types_mutant" >"$out/numeric_types_mutant.log" 2>&1
  case $? in
    0) mutant="NOT CAUGHT (the mutant passed)"; rc=1 ;;
    77) mutant="skipped (no usable device)" ;;
    *) mutant="caught: $(grep -cE '^numeric_types: .* [1-9][0-9]* mismatches' "$out/numeric_types_mutant.log") comparisons differ" ;;
  esac
fi

echo "== narrow float conversions on $(head -1 "$out/numeric_types.device.txt")"
grep -E "^(numeric_types:|  input|device:|SKIPPED)" "$out/numeric_types.log"
grep -E "^(test cases|All tests passed)" "$out/numeric_types.log"
echo "== mutant (rounding ties away from zero): $mutant"
case $rc in
  0) echo "== numeric_types: PASS (every device result equals the host's, bit for bit)" ;;
  77) echo "== numeric_types: SKIPPED (no usable CUDA device)" ;;
  *) echo "== numeric_types: FAIL (exit $rc; see above and $out/numeric_types*.log)" ;;
esac
exit $rc
