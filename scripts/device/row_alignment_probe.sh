#!/usr/bin/env bash
# Probe (benchmark/notes/small_m.md, v5): does a leading dimension that is a multiple of 16
# bytes but not of 128 (rows TMA can describe, none starting on a 128-byte line) slow the TMA
# path? The same problem with ld = 3000 and ld = 3008 (128-byte rows), A and B misaligned alone,
# D alone; 5000 vs 5120. The second table of small_m.md v5 is PROBE_SHAPES=3000x3000x3000,
# 3000x3000x3008,5000x5000x5000,4000x4000x4000,7000x7000x7000,1500x1500x1500,6000x6000x3000,
# 3000x9000x3000,2000x2000x2000 with PROBE_FILTER adding tessera_wgmma_2x1 and
# tessera_wgmma_streamk_2x1. Uses the binaries of scripts/device/selector_v4.sh (.carry/sel).
set -u
D=.carry/sel
[ -f $D/bins.tar.xz ] && tar xJf $D/bins.tar.xz -C $D
export LD_LIBRARY_PATH=$PWD/$D:${LD_LIBRARY_PATH:-}
O=${OUT:-/tmp/out}; mkdir -p $O
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/device.txt
SH=${PROBE_SHAPES:-3000x3000x3000,3008x3008x3008,3000x3000x3008,3008x3008x3000,3072x3072x3000,5000x5000x5000,5120x5120x5120,5000x5000x5120,1000x1000x1000,1024x1024x1024,2000x2000x2000,2048x2048x2048}
timeout 400 $D/tessera_bench_tune --suite=llm --reps=3 --target-ms=20 --shapes=$SH \
  --benchmark_filter="${PROBE_FILTER:-^llm_bf16/(tessera_auto|tessera_wgmma|tessera_wgmma_128x128|cublas|cublaslt)/}" \
  --benchmark_out=$O/probe.json --benchmark_out_format=json > $O/probe.log 2>&1; echo "rc=$?"
python3 scripts/device/small_m_table.py $O/probe.json | cut -c1-150
