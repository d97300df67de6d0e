// Which shipped MFMA configurations each schedule or kernel mutant runs (one
// EMU_TEST_MUTANT_MFMA_* define per build): the shipped configurations whose schedule the mutation breaks, on
// gfx942 (the schedules' code is the same on gfx950, which test_mfma_emulated runs
// unmutated; the async schedule exists on gfx950 only);
// and how the emulator must catch it (mutation_mfma_gemm.cpp): kRace, a race report,
// kReadNotWaited, a direct-to-LDS load over LDS reads no lgkmcnt wait covered, or kOrder, a
// broken ping-pong order. Without the conditional barrier the two wave groups of
// the two- and four-cluster schedules run in step instead of one cluster apart: still
// race-free (every barrier still pairs with one of the other group), so only the order
// shows it; the async schedule also races (see docs/emulator.md, the MFMA section).
#pragma once
#include "mfma_gemm_configs.hpp"

#if defined(EMU_TEST_MUTANT_MFMA_COND_BARRIER)
#define EMU_TEST_MUTANT_WHAT "the asymmetric sync's conditional barrier before the loop removed"
#define EMU_TEST_MUTANT_EXPECT kOrder
#define EMU_TEST_MUTANT_MFMA_CONFIGS(X) X((mfma::TwoClusters<Gfx942>)) X((mfma::FourClusters<Gfx942>)) X((mfma::Async))
#elif defined(EMU_TEST_MUTANT_MFMA_BARRIER_NONE)
#define EMU_TEST_MUTANT_WHAT "no ping-pong: the barrier after the LDS stores removed"
#define EMU_TEST_MUTANT_EXPECT kRace
#define EMU_TEST_MUTANT_MFMA_CONFIGS(X) X((mfma::Baseline<Gfx942>))
#elif defined(EMU_TEST_MUTANT_MFMA_BARRIER_ONE)
#define EMU_TEST_MUTANT_WHAT "one cluster: the barrier after the LDS stores removed"
#define EMU_TEST_MUTANT_EXPECT kRace
#define EMU_TEST_MUTANT_MFMA_CONFIGS(X) X((mfma::OneCluster<Gfx942>)) X((mfma::OneCluster16<Gfx942>))
#elif defined(EMU_TEST_MUTANT_MFMA_BARRIER_TWO)
#define EMU_TEST_MUTANT_WHAT "two clusters: the barrier between the stores and dot 1 removed"
#define EMU_TEST_MUTANT_EXPECT kRace
#define EMU_TEST_MUTANT_MFMA_CONFIGS(X) X((mfma::TwoClusters<Gfx942>))
#elif defined(EMU_TEST_MUTANT_MFMA_BARRIER_FOUR)
#define EMU_TEST_MUTANT_WHAT "four clusters: the barrier between the stores and dot 3 removed"
#define EMU_TEST_MUTANT_EXPECT kRace
#define EMU_TEST_MUTANT_MFMA_CONFIGS(X) X((mfma::FourClusters<Gfx942>))
#elif defined(EMU_TEST_MUTANT_MFMA_BARRIER_ASYNC)
#define EMU_TEST_MUTANT_WHAT "async: the barrier between the memory and the dot cluster removed"
#define EMU_TEST_MUTANT_EXPECT kRace
#define EMU_TEST_MUTANT_MFMA_CONFIGS(X) X((mfma::Async))
#elif defined(EMU_TEST_MUTANT_MFMA_ASYNC_WAIT)
#define EMU_TEST_MUTANT_WHAT "async: the wait for tile i+1 one ticket group (B's loads) too weak"
#define EMU_TEST_MUTANT_EXPECT kRace
#define EMU_TEST_MUTANT_MFMA_CONFIGS(X) X((mfma::Async))
#elif defined(EMU_TEST_MUTANT_MFMA_ASYNC_LGKM)
#define EMU_TEST_MUTANT_WHAT "async: no lgkmcnt(0) wait before the barrier after the reads"
#define EMU_TEST_MUTANT_EXPECT kReadNotWaited
#define EMU_TEST_MUTANT_MFMA_CONFIGS(X) X((mfma::Async))
#elif defined(EMU_TEST_MUTANT_MFMA_ASYNC_EPILOGUE_WAIT)
#define EMU_TEST_MUTANT_WHAT "async: no vmcnt(0) wait for the last direct-to-LDS loads before the epilogue"
#define EMU_TEST_MUTANT_EXPECT kRace
#define EMU_TEST_MUTANT_MFMA_CONFIGS(X) X((mfma::Async))
// A release fence that does not wait for direct-to-LDS loads (with clang-22's, which does,
// the mutant is not caught: the kernel would rely on the compiler for its wait).
#define EMU_TEST_MUTANT_FENCE_WAITS_FOR_DMA false
#else
#error "mutation_mfma_configs.hpp: build with one EMU_TEST_MUTANT_MFMA_* define"
#endif
