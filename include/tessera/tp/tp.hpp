// The tensor-parallel layer: GEMMs whose operands are split over the GPUs of a host, on NCCL
// (docs/tensor-parallel.md). Needs nccl.h and nvcc (sm_90a for Gemm<Auto<...>>).
//   tp/plan.hpp                 row split, exchange steps, overlapped-or-serial rule (host only)
//   tp/arguments.hpp            the operations' arguments, checks and handshake (host only)
//   tp/communicator.hpp         Communicator: one NCCL rank, its stream and events
//   tp/all_gather_gemm.hpp      D = allgather_rows(A_shard) @ W
//   tp/gemm_reduce_scatter.hpp  D_shard = reduce_scatter_rows(A @ W)
//   tp/sum_partials.hpp         the rank-order sum of reduce-scatter's partials (a kernel)
//   tp/explain.hpp              which path an operation takes, and why, in words
#pragma once
#include "tessera/tp/all_gather_gemm.hpp"
#include "tessera/tp/gemm_reduce_scatter.hpp"
