#!/usr/bin/env bash
# The selector's v4 rule (128 x 128 tiles for partial waves and short-K few-tile shapes,
# scheduler::StreamK entries for deep K with a workspace: gemm/select/auto_rule.hpp) on a Hopper
# machine, one call (benchmark/notes/small_m.md, v4). Binaries built elsewhere and staged in
# .carry/sel/bins.tar.xz: test_wgmma_shapes (cmake --preset gpu) and tessera_bench_tune
# (tessera_bench of a gpu-preset build configured with
# -DCMAKE_CUDA_FLAGS=-DTESSERA_BENCH_TUNE_VARIANTS=1), with libbenchmark.so.1* beside them.
# Steps: the selector's GPU tests ([auto]: every entry it chooses computes the right result,
# with and without a workspace), then tessera_bench over (1) the sweep shapes that set the
# rule, every candidate beside cuBLAS / cuBLASLt, (2) the llm suite's shapes, the selector
# beside the baselines, (3) shapes the rule was not tuned on (transformer layers of other
# widths), the selector, the default tile and the baselines. SEL_SWEEP / SEL_UNSEEN replace
# the shape lists (v5: SEL_SWEEP = the odd-pitch shapes of odd_pitch_probe.sh). Run from the
# repository root.
set -u
D=.carry/sel
[ -f $D/bins.tar.xz ] && tar xJf $D/bins.tar.xz -C $D
export LD_LIBRARY_PATH=$PWD/$D:${LD_LIBRARY_PATH:-}
O=${OUT:-/tmp/out}; L=$O/logs; mkdir -p "$L"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader > "$L/device.txt" 2>&1
S=$L/summary.txt; : > "$S"; cat "$L/device.txt" >> "$S"
T0=$(date +%s)
left() { echo $(( ${BUDGET:-560} - ($(date +%s) - T0) )); }
run() { local lim=$1 log=$2; shift 2; local l=$(left); [ "$l" -gt 20 ] || { echo "$log SKIPPED (time)" >> "$S"; return; }
  [ "$lim" -lt "$l" ] || lim=$l; local t=$(date +%s); timeout "$lim" "$@" > "$L/$log" 2>&1; local rc=$?
  echo "$log rc=$rc $(( $(date +%s) - t ))s :: $(grep -hE '^(All tests passed|test cases:)|ERROR SUMMARY' "$L/$log" | tail -1)" >> "$S"; }
SWEEP=${SEL_SWEEP:-2048x2304x4096,1536x4096x4096,3072x3072x4096,2048x5120x4096,4096x3072x4096,1024x8192x4096,2560x2560x2560,1536x1536x1536,1024x1024x1024,1280x1280x1280,768x768x768,1536x1024x2048,1024x1024x8192,128x4096x4096,1024x2048x16384,768x768x32768,1024x1024x32768,512x1024x32768,512x512x16384,256x256x65536,1536x1536x16384,2048x2048x16384}
UNSEEN=${SEL_UNSEEN:-3072x9216x3072,6144x3072x3072,2560x10240x2560,5120x2560x2560,1792x5120x5120,3584x13824x5120,896x4864x896,1152x3456x1152,3000x3000x3000,2304x768x3072,512x11008x4096,6144x1536x8192}
FAST=(--reps=3 --target-ms=20)
if [ "${SEL_SKIP_TESTS:-0}" != 1 ]; then run 150 auto_tests.log $D/test_wgmma_shapes "[auto]"; fi
run 240 sweep.log $D/tessera_bench_tune --suite=llm "${FAST[@]}" --shapes=$SWEEP \
  --benchmark_filter='^llm_bf16/(tessera_auto|tessera_wgmma|tessera_wgmma_2x1|tessera_wgmma_128x128|tessera_wgmma_128x128_pingpong|tessera_wgmma_128x128_streamk|tessera_wgmma_streamk|tessera_split_128x64|tessera_split_128x128|cublas|cublaslt)/' \
  --benchmark_out=$O/sweep.json --benchmark_out_format=json
run 150 llm.log $D/tessera_bench_tune --suite=llm "${FAST[@]}" \
  --benchmark_filter='^llm_bf16/(tessera_auto|cublas|cublaslt)/' --benchmark_out=$O/llm.json --benchmark_out_format=json
run 120 unseen.log $D/tessera_bench_tune --suite=llm "${FAST[@]}" --shapes=$UNSEEN \
  --benchmark_filter='^llm_bf16(_beta1)?/(tessera_auto|tessera_wgmma|cublas|cublaslt)/' \
  --benchmark_out=$O/unseen.json --benchmark_out_format=json
for j in sweep llm unseen; do [ -f $O/$j.json ] && python3 scripts/device/small_m_table.py $O/$j.json > $L/table.$j.txt 2>&1; done
echo "total $(( $(date +%s) - T0 ))s" >> "$S"
tar czf "$O/logs.tgz" -C "$O" logs
cat "$S"; cat $L/table.*.txt 2>/dev/null | cut -c1-150
