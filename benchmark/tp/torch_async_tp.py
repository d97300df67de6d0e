#!/usr/bin/env python3
"""PyTorch's AsyncTP operations on the shapes of tp_bench, for comparison.

  torch.ops.symm_mem.fused_all_gather_matmul     (all-gather + GEMM, gather dim 0)
  torch.ops.symm_mem.fused_matmul_reduce_scatter (GEMM + reduce-scatter, scatter dim 0)

Run one process per GPU, with NVLink multicast off:
  test/tp/run_tp.sh torchrun --nproc-per-node=<GPUs> benchmark/tp/torch_async_tp.py
Prints one line per shape and operation from rank 0: the median time of 20 calls after 5
warm-up calls, and the whole layer's TFLOP/s (2 * M * N * K over that time), as tp_bench
counts them. Exits 77 where PyTorch or its symmetric memory is missing. Not yet run.
"""
import os
import sys

os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
os.environ.setdefault("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1")
os.environ.setdefault("NVSHMEM_DISABLE_NVLS", "1")

try:
    import torch
    import torch.distributed as dist
    import torch.distributed._symmetric_memory as symm_mem
except ImportError as e:  # no PyTorch, or one without symmetric memory
    print(f"SKIPPED: {e}")
    sys.exit(77)

# (name, M, N, K) as tp_bench's kShapes (all-gather: N split over ranks) and kRsShapes
# (reduce-scatter: K split over ranks).
AG_SHAPES = [("mlp_up_T2048", 2048, 28672, 8192), ("mlp_up_T8192", 8192, 28672, 8192),
             ("mlp_up_T16384", 16384, 28672, 8192), ("qkv_T8192", 8192, 10240, 8192),
             ("mlp_up_T256", 256, 28672, 8192)]
RS_SHAPES = [("mlp_down_T2048", 2048, 8192, 28672), ("mlp_down_T8192", 8192, 8192, 28672),
             ("mlp_down_T16384", 16384, 8192, 28672), ("attn_out_T8192", 8192, 8192, 8192),
             ("mlp_down_T256", 256, 8192, 28672)]


def median_ms(fn, warmup=5, iters=20):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(iters):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        dist.barrier()
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


def main():
    dist.init_process_group("nccl")
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.cuda.set_device(rank % torch.cuda.device_count())
    group = dist.group.WORLD
    symm_mem.enable_symm_mem_for_group(group.group_name)
    bf16 = torch.bfloat16
    for name, M, N, K in AG_SHAPES:
        # AsyncTP's all-gather needs M a multiple of the world size: rows per rank are equal.
        a = torch.randn(M // world, K, device="cuda", dtype=bf16)
        w = torch.randn(K, N // world, device="cuda", dtype=bf16)
        ms = median_ms(lambda: torch.ops.symm_mem.fused_all_gather_matmul(a, [w], 0, group.group_name))
        if rank == 0:
            print(f"ag/{name}/P{world}/torch_async_tp {ms * 1e3:.1f} us "
                  f"{2 * M * N * K / (ms * 1e-3) * 1e-12:.1f} TFLOP/s")
    for name, M, N, K in RS_SHAPES:
        a = torch.randn(M, K // world, device="cuda", dtype=bf16)
        w = torch.randn(K // world, N, device="cuda", dtype=bf16)
        ms = median_ms(lambda: torch.ops.symm_mem.fused_matmul_reduce_scatter(a, w, "sum", 0, group.group_name))
        if rank == 0:
            print(f"rs/{name}/P{world}/torch_async_tp {ms * 1e3:.1f} us "
                  f"{2 * M * N * K / (ms * 1e-3) * 1e-12:.1f} TFLOP/s")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
