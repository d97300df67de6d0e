#!/usr/bin/env bash
# Probe (benchmark/notes/small_m.md, v5): on shapes whose A and B rows are an odd multiple of 16
# bytes apart (K = 8 mod 16 in bf16: TMA describes them, but every other row starts mid-sector),
# every candidate of the selector's table that applies, beside cuBLAS/cuBLASLt, beta 0 and 1;
# controls with the same tile counts and rows on 32-byte multiples (K + 8). The run of
# row_alignment_probe.sh with these shapes and candidates (its output: $OUT/probe.json).
export PROBE_SHAPES=${PROBE_SHAPES:-2200x2200x2200,2200x2200x2208,2600x2600x2600,2600x2600x2608,1800x1800x1800,1800x1800x1808,2000x3000x3000,2000x3000x3008,1200x4000x5000,1200x4000x5008,3400x3400x3400,1000x1000x1000,1000x1000x1008,3000x3000x3000}
export PROBE_FILTER=${PROBE_FILTER:-'^llm_bf16(_beta1)?/(tessera_auto|tessera_wgmma|tessera_wgmma_2x1|tessera_wgmma_128x128|tessera_wgmma_128x128_streamk|tessera_wgmma_streamk_2x1|tessera_split_128x64|tessera_split_128x128|cublas|cublaslt)/'}
exec bash "$(dirname "$0")/row_alignment_probe.sh"
