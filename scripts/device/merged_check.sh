#!/usr/bin/env bash
# The merged tree's first GPU check of 2026-11-25 (benchmark/results/logs/merged_2026-11-25/run1):
# the GPU suites, test_threads and its no-context mutant, three mutants, memcheck, SASS and the
# llm/fp8 benchmark groups, in one device call under one time budget (BUDGET seconds).
# Stage, on the build machine, in .dev-final/: bins.tar.xz holding test_fma_gemm test_wgmma_gemm
# test_wgmma_shapes test_wgmma_fp8 test_stream_k_gemm test_threads tessera_bench (CMake targets,
# stripped) and mut/ (scripts/gpu_mutation_check.sh --build-only mut test_wgmma_shapes_mutant_staged_c
# test_stream_k_gemm_mutant_skip test_wgmma_fp8_mutant; scripts/device/threads.sh --build-only mut),
# plus libbenchmark.so.1debian and this script as .dev-final/run.sh; run from the repository root.
set -u
D=.dev-final
[ -f $D/bins.tar.xz ] && tar xJf $D/bins.tar.xz -C $D
export LD_LIBRARY_PATH=$PWD/$D:${LD_LIBRARY_PATH:-}
O=${OUT:-/tmp/out}; L=$O/logs; mkdir -p "$L"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader > "$L/device.txt" 2>&1
S=$L/summary.txt; : > "$S"
T0=$(date +%s)
run() { local lim=$1 log=$2; shift 2; local t=$(date +%s); timeout "$lim" "$@" > "$L/$log" 2>&1; local rc=$?
  echo "$log rc=$rc $(( $(date +%s) - t ))s :: $(grep -hE '^(All tests passed|test cases:)' "$L/$log" | tail -1)" >> "$S"; }
left() { echo $(( ${BUDGET:-520} - ($(date +%s) - T0) )); }
step=${STEPS:-"suites threads mutants sanitize sass bench"}
for s in $step; do
case $s in
suites)
  run 120 fma.log $D/test_fma_gemm
  run 150 wgmma.log $D/test_wgmma_gemm
  run 150 shapes.log $D/test_wgmma_shapes
  run 120 fp8.log $D/test_wgmma_fp8
  run 120 streamk.log $D/test_stream_k_gemm ;;
threads)
  run 90 threads.log $D/test_threads
  run 60 threads_nocontext_mutant.log $D/mut/test_threads_no_context_step "[cold]" ;;
mutants)
  run 90 mut_staged_c.log $D/mut/test_wgmma_shapes_mutant_staged_c "[staged_c]"
  run 90 mut_streamk_skip.log $D/mut/test_stream_k_gemm_mutant_skip "[stream_k][layout]"
  run 90 mut_fp8.log $D/mut/test_wgmma_fp8_mutant "[modes]" ;;
sanitize)
  for b in test_wgmma_shapes test_stream_k_gemm test_wgmma_fp8; do
    [ "$(left)" -gt 200 ] || { echo "sanitize $b skipped (time)" >> "$S"; continue; }
    run 90 memcheck.$b.log compute-sanitizer --tool memcheck --error-exitcode 99 $D/$b "[sanitize]"
    grep -h "ERROR SUMMARY" "$L/memcheck.$b.log" >> "$S"
  done ;;
sass)
  python3 scripts/sass_check.py $D/test_wgmma_shapes $D/test_stream_k_gemm $D/test_wgmma_fp8 > "$L/sass.log" 2>&1
  tail -3 "$L/sass.log" >> "$S" ;;
bench)
  for g in ${BENCH_GROUPS:-llm_bf16 fp8_tensor fp8_block llm_bf16_beta1}; do
    lim=$(( $(left) - 15 )); [ $lim -gt 40 ] || { echo "bench $g skipped (time)" >> "$S"; continue; }
    run $lim bench_$g.log $D/tessera_bench --suite=llm,fp8 --reps=3 --target-ms=20 \
       --benchmark_filter="^$g/" --benchmark_out=$O/bench_$g.json --benchmark_out_format=json
  done ;;
esac
done
echo "total $(( $(date +%s) - T0 ))s" >> "$S"
tar czf "$O/logs.tgz" -C "$O" logs
cat "$S"
