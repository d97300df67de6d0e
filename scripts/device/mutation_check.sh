#!/usr/bin/env bash
# Proves the GPU suites can fail: builds each against a copy of the headers with one
# deliberate bug and expects the suite to fail. Exit 0 when every mutant is caught.
#   FMA family:   the K-edge check drops the last column of K; a split-K slice's partial
#                 written one tile line off its slot (a wrong result, or a write into the
#                 workspace's guard); the small-M kernel's in-block sum leaves out group 1's
#                 share of K (with groups 3, 5 and 7 it carries);
#   wgmma family: the consumers read B from the next stage of the ring (a stage index off
#                 by one: the data of another K tile);
#   packed path:  B is not copied (the kernel reads the workspace's poison); D's copy is
#                 not copied out (the caller's D keeps its poison); without a workspace, a D
#                 that TMA cannot describe is sent to the TMA store anyway;
#   shapes:       the cluster split-K sum leaves out the last CTA's partial tile; the
#                 staged-C loader loads C from 8 columns to the right; the epilogue reads
#                 each pair's two staged C values swapped (in the general loop, and in the
#                 row-major box loop); the transposed (small-M) epilogue hands the user's
#                 epilogue D^T's coordinates; the split and small-M kernels read B's place
#                 in the workspace without copying B there (the workspace's poison);
#   fp8:          B's block scale of each K tile is taken from the next K block (a scale
#                 block offset by one, inside the scale tensor); each row's staged A scale
#                 is the previous row's (wgmma/scale_stages.hpp); the transposed small-M
#                 path keeps A's and B's scales in place (select/transposed.hpp);
#   stream-K:     the fix-up skips one peer's partial tile; it adds one peer's partial twice;
#   grouped GEMM: every group's rows start one tile late (the grouped scheduler's row offset
#                 off by one tile), test_many_gemms;
#   fp8 grouped:  an expert reads the previous expert's B scales (the scale stride per
#                 problem); each group's last row is not stored (test_wgmma_fp8_many);
#   dependent launch: the kernels do not wait for the previous grid (griddepcontrol.wait
#                 gone), test_dependent_launch.
# Run on a CUDA machine (nvcc, sm_90a), usually through scripts/device/check.sh --mutants.
#   mutation_check.sh [NAME...]               build and check every mutant (or those named)
#   mutation_check.sh --build-only DIR [NAME...]  build them into DIR (on a machine without a
#                                             GPU, to carry as TESSERA_PREBUILT) and run nothing
# TESSERA_MUTANTS=<dir> uses mutant binaries built beforehand (test_*_mutant*) instead of
# building them. Names are the binaries', e.g. test_wgmma_fp8_mutant.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
mutants=${TESSERA_MUTANTS:-}
build_only=""
only=()
if [[ ${1:-} == --build-only ]]; then
  build_only=$(mkdir -p "$2" && cd "$2" && pwd)
  only=("${@:3}")
else
  only=("$@")
fi

build_mutant() {  # <name> <header> <sed expression> <test source>
  local name=$1 header=$2 expr=$3 source=$4
  if [[ ${#only[@]} -gt 0 && " ${only[*]} " != *" $name "* ]]; then return; fi
  rm -rf "$work/include" && cp -r include "$work/include"
  sed -i "$expr" "$work/include/$header"
  if cmp -s "$work/include/$header" "include/$header"; then
    echo "mutation of $header did not apply"; exit 2
  fi
  nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a --expt-relaxed-constexpr -DTESSERA_GPU_TEST_REQUIRES_CC=90 \
    -I "$work/include" -I test/support -I test/gpu -I .carry -I /usr/include \
    "$source" test/gpu/gpu_main.cpp test/gpu/gpu_required_cc.cpp -o "$work/$name"
}

if [[ -z $mutants ]]; then
  build_mutant test_fma_gemm_mutant tessera/memory/operand_tile_loader.hpp \
    's/depth\[j\] + i < k_left/depth[j] + i < k_left - 1/' test/gpu/test_fma_gemm.cu
  build_mutant test_fma_gemm_mutant_split_k tessera/gemm/fma/kernel.hpp \
    's/RunWriter writer{partial, m0, n0}/RunWriter writer{partial + kBN, m0, n0}/' test/gpu/test_fma_gemm.cu
  build_mutant test_fma_gemm_mutant_small_m tessera/gemm/fma/small_m_kernel.hpp \
    's/      if (g < half) {/      if (g < half \&\& half != 1) {/' test/gpu/test_fma_gemm.cu
  build_mutant test_wgmma_gemm_mutant tessera/gemm/wgmma/mainloop.hpp \
    's/advance_smem_descriptor(first_stage_b, pos.stage \* TileB::kBytes)/advance_smem_descriptor(first_stage_b, ((pos.stage + 1) % kStages) * TileB::kBytes)/' \
    test/gpu/test_wgmma_gemm.cu
  build_mutant test_wgmma_gemm_mutant_store_d tessera/gemm/tma/launch.hpp \
    's/    if (store_direct) return/    if (false) return/' test/gpu/test_wgmma_gemm.cu
  build_mutant test_wgmma_gemm_mutant_copy_out tessera/gemm/tma/launch.hpp \
    's/    if (ok(s) \&\& plan.d.packed) {/    if (false) {/' test/gpu/test_wgmma_gemm.cu
  build_mutant test_stream_k_gemm_mutant_skip tessera/gemm/scheduler/fixup.hpp \
    's/if (live\[q\] \&\& p0 + b < r.peers) acc\[q\]\[e\] += v\[q\]\[b\]\[e\];/if (live[q] \&\& p0 + b < r.peers \&\& p0 + b != 1) acc[q][e] += v[q][b][e];/' test/gpu/test_stream_k_gemm.cu
  build_mutant test_stream_k_gemm_mutant_twice tessera/gemm/scheduler/fixup.hpp \
    's/if (live\[q\] \&\& p0 + b < r.peers) acc\[q\]\[e\] += v\[q\]\[b\]\[e\];/if (live[q] \&\& p0 + b < r.peers) acc[q][e] += (p0 + b == 1 ? 2.0f : 1.0f) * v[q][b][e];/' \
    test/gpu/test_stream_k_gemm.cu
  build_mutant test_wgmma_gemm_mutant_copy_b tessera/gemm/tma/launch.hpp \
    's/    if (ok(s)) s = copy_operand(a.B, .*$/    if (plan.b.packed) tma.B = reinterpret_cast<decltype(tma.B)>(workspace + plan.b.offset), tma.ldb = plan.b.ld;/' \
    test/gpu/test_wgmma_gemm.cu
  build_mutant test_wgmma_shapes_mutant_split_copy tessera/gemm/wgmma/cluster_split.hpp \
    's/    if (ok(s)) s = tma_launch::copy_operand(given.B, .*$/    if (plan.b.packed) a.B = reinterpret_cast<decltype(a.B)>(space + plan.b.offset), a.ldb = plan.b.ld;/' \
    test/gpu/test_wgmma_shapes.cu
  build_mutant test_wgmma_shapes_mutant_sum tessera/gemm/wgmma/cluster_partial_sum.hpp \
    's/      for (int from = 0; from < splits; ++from) {/      for (int from = 0; from < splits - 1; ++from) {/' test/gpu/test_wgmma_shapes.cu
  build_mutant test_wgmma_shapes_mutant_staged_c tessera/gemm/wgmma/staged_c_loader.hpp \
    's/const int col = tile.n \* Config::kBlockN + origin.col;/const int col = tile.n * Config::kBlockN + origin.col + 8;/' \
    test/gpu/test_wgmma_shapes.cu
  build_mutant test_wgmma_shapes_mutant_staged_pair tessera/gemm/wgmma/epilogue.hpp \
    's/^                if (staged) staged_c_pair(at0, at1, c0, c1);/                if (staged) staged_c_pair(at0, at1, c1, c0);/' \
    test/gpu/test_wgmma_shapes.cu
  build_mutant test_wgmma_shapes_mutant_staged_box tessera/gemm/wgmma/epilogue.hpp \
    's/staged_c_pair(at0, at0 + sizeof(ED), c0, c1);/staged_c_pair(at0, at0 + sizeof(ED), c1, c0);/' \
    test/gpu/test_wgmma_shapes.cu
  build_mutant test_wgmma_shapes_mutant_transposed tessera/gemm/select/transposed.hpp \
    's/TransposedElement<Element>{e.n, e.m, e}/TransposedElement<Element>{e.m, e.n, e}/' test/gpu/test_wgmma_shapes.cu
  build_mutant test_wgmma_fp8_mutant tessera/gemm/wgmma/scale_stages.hpp \
    's/b + kt, true);/b + (kt + 1 < unit.k_end ? kt + 1 : kt), true);/' \
    test/gpu/test_wgmma_fp8.cu
  build_mutant test_wgmma_fp8_mutant_scale_row tessera/gemm/wgmma/scale_stages.hpp \
    's/read ? row + 32 \* i : at.a/read ? row + 32 * i - (lane > 0 ? 1 : 0) : at.a/' \
    test/gpu/test_wgmma_fp8.cu
  build_mutant test_wgmma_fp8_mutant_transposed_scales tessera/gemm/select/transposed.hpp \
    's/t.epilogue.a = a.epilogue.b;/t.epilogue.a = a.epilogue.a;/; s/t.epilogue.b = a.epilogue.a;/t.epilogue.b = a.epilogue.b;/' \
    test/gpu/test_wgmma_fp8_schedules.cu
  build_mutant test_wgmma_fp8_many_mutant_expert_scale tessera/gemm/wgmma/scale_stages.hpp \
    's/e.scale_b + unit.problem \* e.stride_b/e.scale_b + (unit.problem > 0 ? unit.problem - 1 : 0) * e.stride_b/' \
    test/gpu/test_wgmma_fp8_many.cu
  build_mutant test_wgmma_fp8_many_mutant_last_row tessera/gemm/tma/problem_place.hpp \
    's/return {u.problem, u.row_begin + u.rows};/return {u.problem, u.row_begin + u.rows - 1};/' \
    test/gpu/test_wgmma_fp8_many.cu
  build_mutant test_many_gemms_mutant_offset tessera/gemm/scheduler/grouped.hpp \
    's/        u.row_begin = r.begin;/        u.row_begin = r.begin + cluster_rows;/' test/gpu/test_many_gemms.cu
  build_mutant test_dependent_launch_mutant_no_wait tessera/arch/nvidia/grid_dependency.hpp \
    's/  asm volatile("griddepcontrol.wait;" ::: "memory");//' test/gpu/test_dependent_launch.cu
  mutants=$work
fi
if [[ -n $build_only ]]; then
  cp "$work"/test_*_mutant* "$build_only/"
  echo "mutants built in $build_only"; exit 0
fi

status=0
check() {  # <binary> <filter> <what>
  if [[ ${#only[@]} -gt 0 && " ${only[*]} " != *" $1 "* ]]; then return; fi
  if [[ ! -x $mutants/$1 ]]; then
    echo "MUTANT MISSING: $mutants/$1 ($3)"; status=1; return
  fi
  if timeout 300 "$mutants/$1" "$2" >"$work/$1.log" 2>&1; then
    echo "MUTATION SURVIVED: $3"; tail -3 "$work/$1.log"; status=1
  else
    echo "mutation caught ($3):"; grep -E "test cases|assertions" "$work/$1.log" | tail -2
  fi
}
check test_fma_gemm_mutant "[fp32]" "FMA suite with a broken K edge"
check test_fma_gemm_mutant_split_k "[splitk]" "FMA split-K with the slice offset's M and N swapped"
check test_fma_gemm_mutant_small_m "[small_m]" "FMA small-M kernel's in-block sum without group 1's share of K"
check test_wgmma_gemm_mutant "[layout]" "wgmma suite reading B from the wrong stage"
check test_wgmma_gemm_mutant_copy_b "[packed]" "packed path without the copy of B"
check test_wgmma_gemm_mutant_store_d "[packed]" "packed path with TMA stores to a D TMA cannot describe"
check test_wgmma_gemm_mutant_copy_out "[packed]" "packed path without the copy of D out"
check test_wgmma_shapes_mutant_split_copy "[packed]" "split and small M reading B's place in the workspace without the copy"
check test_wgmma_shapes_mutant_sum "[split]" "cluster split-K without the last CTA's partial tile"
check test_wgmma_shapes_mutant_staged_c "[staged_c]" "staged C loaded from the wrong columns"
check test_wgmma_shapes_mutant_staged_pair "[staged_c]" "the epilogue reading each pair's two staged C values swapped"
check test_wgmma_shapes_mutant_staged_box "[staged_c]" "the staged-C box loop (row-major D) reading each pair's two C values swapped"
check test_wgmma_shapes_mutant_transposed "[small_m]" "small M with the user's epilogue at D^T's coordinates"
check test_wgmma_fp8_mutant "[modes]" "fp8 suite with B's block scale from the next K block"
check test_wgmma_fp8_mutant_scale_row "[modes]" "fp8 suite with each row's staged block scale taken from the previous row"
check test_wgmma_fp8_mutant_transposed_scales "[split]" "fp8 small M (transposed) keeping A's and B's scales in place"
check test_stream_k_gemm_mutant_skip "[stream_k][layout]" "stream-K fix-up skipping a peer's partial tile"
check test_stream_k_gemm_mutant_twice "[stream_k][layout]" "stream-K fix-up adding a peer's partial tile twice"
check test_many_gemms_mutant_offset "[grouped]" "grouped GEMM with every group's rows one tile late"
check test_wgmma_fp8_many_mutant_expert_scale "[grouped]" "fp8 grouped GEMM reading the previous expert's B scales"
check test_wgmma_fp8_many_mutant_last_row "[grouped]" "fp8 grouped GEMM dropping each group's last row"
check test_dependent_launch_mutant_no_wait "[dependent]" "dependent launch without the wait for the previous grid"
exit $status
