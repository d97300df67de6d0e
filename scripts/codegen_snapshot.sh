#!/usr/bin/env bash
# Snapshot of the code the compilers generate for the shipped configurations, to compare a
# refactoring's before and after ("behaviour unchanged" means the same instructions):
#
#   scripts/codegen_snapshot.sh /tmp/before          # on the old tree
#   scripts/codegen_snapshot.sh /tmp/after           # on the new tree
#   scripts/codegen_snapshot.sh --compare /tmp/before /tmp/after
#
# What it generates (nvcc and clang-22, the ISA tests' flags): the sm_90a PTX of the wgmma
# and FMA ISA translation units, of the wgmma example and of the wgmma GPU suite (every
# configuration and path the suite runs); the sm_100a PTX of the tcgen05 and FMA ISA units;
# the gfx942 and gfx950 assembly of the MFMA and FMA ISA units. --compare normalises what
# a refactoring may rename without changing code (mangled symbol names, the order in which
# kernels appear, comments and file/line markers) and diffs the rest per file; for a file that
# differs, scripts/codegen_counts.py then lists per kernel the instructions whose counts
# changed (a register renumbering or a moved parameter shows as no count change).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

normalise() {  # <file>: one kernel per block, names replaced, blocks sorted
  python3 - "$1" 2>/dev/null <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
text = re.sub(r"//[^\n]*", "", text)                       # PTX comments
text = re.sub(r"^\s*\.(loc|file)\b[^\n]*\n", "", text, flags=re.M)
text = re.sub(r"^\s*;[^\n]*\n", "", text, flags=re.M)      # AMD asm comments
text = re.sub(r"_Z[A-Za-z0-9_$]+", "SYM", text)             # mangled names
text = re.sub(r"__unnamed_\d+", "UNNAMED", text)
text = re.sub(r"__hip_cuid_[0-9a-f]+", "HIP_CUID", text)              # a hash of the source's path
# Split into top-level blocks (PTX entries/functions, AMD kernels) and sort them, so that a
# change in instantiation order is not a difference.
blocks = re.split(r"\n(?=(?:\.visible |\.weak |\.entry|\.func|\s*\.globl|\s*\.amdhsa_kernel))", text)
blocks = [re.sub(r"[ \t]+", " ", b).strip() for b in blocks if b.strip()]
print("\n\n".join(sorted(blocks)))
EOF
}

if [[ ${1:-} == --compare ]]; then
  before=$2 after=$3 status=0
  for f in "$before"/*; do
    name=$(basename "$f")
    if [[ ! -f $after/$name ]]; then echo "missing after: $name"; status=1; continue; fi
    if diff -q <(normalise "$f") <(normalise "$after/$name") >/dev/null; then
      echo "same:      $name"
    else
      echo "DIFFERENT: $name ($(diff <(normalise "$f") <(normalise "$after/$name") | grep -c '^[<>]') lines)"
      python3 "$root/scripts/codegen_counts.py" "$f" "$after/$name"
      status=1
    fi
  done
  exit $status
fi

out=${1:?usage: codegen_snapshot.sh OUTDIR | --compare BEFORE AFTER}
mkdir -p "$out"
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
clang=${CLANG:-clang++-22}
inc=(-I"$root/include" -I"$root/examples" -I"$root/test/support" -I"$root/test/gpu")
ptx() {  # <name> <arch> <source> [extra flags]
  local name=$1 arch=$2 src=$3
  shift 3
  "$nvcc" -std=c++17 -O3 "${inc[@]}" --expt-relaxed-constexpr "$@" \
    -gencode=arch=compute_${arch},code=sm_${arch} -ptx -x cu "$src" -o "$out/$name.sm_$arch.ptx" &
}
amd() {  # <name> <arch> <source>
  local name=$1 arch=$2 src=$3
  "$clang" -std=c++17 -O3 -x hip --offload-arch="$arch" -nogpulib -D__AMDGCN_WAVEFRONT_SIZE=64 \
    --cuda-device-only -S "${inc[@]}" "$src" -o "$out/$name.$arch.s" &
}
ptx wgmma_isa 90a "$root/test/isa/wgmma_gemm_kernel.cpp"
ptx fma_isa 90a "$root/test/isa/fma_gemm_kernel.cpp"
ptx umma_isa 100a "$root/test/isa/umma_gemm_kernel.cpp"
wait
ptx fma_isa 100a "$root/test/isa/fma_gemm_kernel.cpp" -DFMA_ISA_NV_ARCH=tessera::Sm100
ptx wgmma_example 90a "$root/examples/wgmma_gemm.cu"
wait
ptx wgmma_suite 90a "$root/test/gpu/test_wgmma_gemm.cu"
wait
ptx wgmma_fp8_suite 90a "$root/test/gpu/test_wgmma_fp8.cu"
ptx wgmma_fp8_schedules_suite 90a "$root/test/gpu/test_wgmma_fp8_schedules.cu"
wait
ptx many_suite 90a "$root/test/gpu/test_many_gemms.cu"
ptx stream_k_suite 90a "$root/test/gpu/test_stream_k_gemm.cu"
wait
ptx shapes_suite 90a "$root/test/gpu/test_wgmma_shapes.cu"
ptx fma_suite 90a "$root/test/gpu/test_fma_gemm.cu"
wait
ptx umma_suite 100a "$root/test/gpu/test_umma_gemm.cu"
ptx stream_k_isa 90a "$root/test/isa/stream_k_kernels.cpp"
wait
ptx stream_k_isa 100a "$root/test/isa/stream_k_kernels.cpp" -DSTREAM_K_ISA_UMMA
ptx numeric_types_suite 90a "$root/test/gpu/test_numeric_types.cu"
wait
for arch in gfx942 gfx950; do
  amd mfma_isa $arch "$root/test/isa/mfma_gemm_kernel.cpp"
  amd fma_isa $arch "$root/test/isa/fma_gemm_kernel.cpp"
  amd mfma_lowp_isa $arch "$root/test/isa/mfma_lowp_kernel.cpp"
done
wait
ls "$out"
