// explain() of the tensor-parallel operations in words: which path runs (overlapped or
// serial) and why, and for a Gemm<Auto<...>> configuration which kernel each GEMM uses.
#pragma once
#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>

#include "tessera/core/status.hpp"
#include "tessera/gemm/select/auto.hpp"
#include "tessera/tp/communicator.hpp"
#include "tessera/tp/plan.hpp"

namespace tessera::tp {

// what: the operation's name; valid: its check() of the call; note: said after the path;
// gemm_of_rows(rows): the arguments of the GEMM of the first `rows` rows.
template <class Config, class GemmOfRows>
std::string explain_operation(const char* what, std::int64_t M, std::int64_t N, std::int64_t K, Status valid,
                              const Communicator* comm, Options o, const char* note, GemmOfRows gemm_of_rows) {
  std::ostringstream s;
  s << what << ", M=" << M << " N=" << N << " K=" << K;
  if (!ok(valid)) {
    s << ": not run, " << status_name(valid) << " (" << status_message(valid) << ")";
    return s.str();
  }
  const int P = comm->size();
  const ModeChoice m = ModeRule::choose(M, P, o.mode);
  s << ", rank " << comm->rank() << " of " << P << ": " << explain_mode(M, P, m) << note;
  if constexpr (std::is_same_v<typename Config::Family, gemm::AutoFamily>) {
#if defined(TESSERA_CUDA)
    const std::int64_t rows = m.mode == Mode::kSerial ? M : shard_rows(M, P, 0);
    s << "; each GEMM (" << rows << " rows): " << gemm::explain<Config>(gemm_of_rows(rows));
#endif
  }
  return s.str();
}

}  // namespace tessera::tp
