#!/usr/bin/env bash
# The merged tree's second GPU check of 2026-11-25 (benchmark/results/logs/merged_2026-11-25/run2),
# after the grouped/epilogue merge: test_many_gemms and its mutant, the other suites again,
# sanitizers over test_many_gemms, the staged-C release A/B probe (benchmark/beta_probe.cu built
# against the headers as committed (A) and with the release-one-box-later variant (B)), the
# few-tile shapes with every split candidate (tessera_bench built with
# -DTESSERA_BENCH_TUNE_VARIANTS=1 as tessera_bench_tune), SASS, and tessera_bench --suite=many.
# Stage the binaries in .dev-b/bins.tar.xz (+ libbenchmark.so.1debian, this script as
# .dev-b/run.sh); run from the repository root.
set -u
D=.dev-b
[ -f $D/bins.tar.xz ] && tar xJf $D/bins.tar.xz -C $D
export LD_LIBRARY_PATH=$PWD/$D:${LD_LIBRARY_PATH:-}
O=${OUT:-/tmp/out}; L=$O/logs; mkdir -p "$L"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader > "$L/device.txt" 2>&1
S=$L/summary.txt; : > "$S"
T0=$(date +%s)
left() { echo $(( ${BUDGET:-540} - ($(date +%s) - T0) )); }
run() { local lim=$1 log=$2; shift 2; local l=$(left); [ "$l" -gt 20 ] || { echo "$log SKIPPED (time)" >> "$S"; return; }
  [ "$lim" -lt "$l" ] || lim=$l; local t=$(date +%s); timeout "$lim" "$@" > "$L/$log" 2>&1; local rc=$?
  echo "$log rc=$rc $(( $(date +%s) - t ))s :: $(grep -hE '^(All tests passed|test cases:)|ERROR SUMMARY|RACECHECK SUMMARY' "$L/$log" | tail -1)" >> "$S"; }
run 120 many.log $D/test_many_gemms
run 90 mut_grouped.log $D/test_many_gemms_mutant_offset "[grouped]"
run 60 wgmma.log $D/test_wgmma_gemm
run 60 fma.log $D/test_fma_gemm
run 30 fp8.log $D/test_wgmma_fp8
run 60 shapes_small_m.log $D/test_wgmma_shapes "[small_m]"
run 60 shapes_staged_auto.log $D/test_wgmma_shapes "[staged_c],[auto]"
run 90 streamk.log $D/test_stream_k_gemm
run 90 memcheck.many.log compute-sanitizer --tool memcheck --error-exitcode 99 $D/test_many_gemms "[sanitize]"
run 120 racecheck.many.log compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 99 $D/test_many_gemms "[sanitize]"
run 90 synccheck.many.log compute-sanitizer --tool synccheck --error-exitcode 99 $D/test_many_gemms "[sanitize]"
run 40 beta_probe_A.log $D/beta_probe_A
run 40 beta_probe_B.log $D/beta_probe_B
grep -h "x" "$L/beta_probe_A.log" | sed 's/^/A: /' >> "$S"; grep -h "x" "$L/beta_probe_B.log" | sed 's/^/B: /' >> "$S"
run 60 bench_tune.log $D/tessera_bench_tune --suite=llm --reps=3 --target-ms=20 \
  --benchmark_filter='^llm_bf16(_beta1)?/(tessera_auto|tessera_split_128x64|tessera_split_128x128|tessera_split_128x256|tessera_wgmma|tessera_wgmma_streamk|cublas|cublaslt)/(256x256x65536|512x512x16384|1024x1024x32768|1024x1024x1024|1000x1000x1000|4096x4096x4096)/' \
  --benchmark_out=$O/bench_tune.json --benchmark_out_format=json
for b in test_many_gemms test_wgmma_shapes test_stream_k_gemm; do
  python3 scripts/sass_check.py $D/$b > "$L/sass.$b.log" 2>&1; echo "sass $b: $(tail -1 "$L/sass.$b.log")" >> "$S"
done
run 200 bench_many.log $D/tessera_bench --suite=many --reps=3 --benchmark_out=$O/bench_many.json --benchmark_out_format=json
echo "total $(( $(date +%s) - T0 ))s" >> "$S"
tar czf "$O/logs.tgz" -C "$O" logs
cat "$S"
