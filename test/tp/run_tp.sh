#!/usr/bin/env bash
# Runs a tensor-parallel program (the GPU test, the benchmark) with NVLink multicast off for
# every library that could use it: NCCL's NVLink SHARP (NVLS), PyTorch's symmetric memory,
# NVSHMEM. The program itself starts its ranks (one process per GPU, or one driving all).
#   test/tp/run_tp.sh <program> [args...]
set -euo pipefail
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
exec "$@"
