// Gemm<Config>: the one host API of every kernel family.
//
//   Status   Gemm<Config>::can_implement(args)              every precondition, no device needed
//   bool     Gemm<Config>::accepts(args, device)            runs on that device and takes these args
//   size_t   Gemm<Config>::workspace_size(args)             bytes run() may use (0: none)
//   Status   Gemm<Config>::run(args, workspace, stream)     checks, then launches
//   Status   Gemm<Config>::run(args, workspace, bytes, stream)  the same; a workspace smaller
//                                                           than workspace_size(args) is not used
//
// Args is Arguments<A, B, C, D, the epilogue's arguments> of the configuration's element types
// and epilogue (gemm/arguments.hpp, gemm/epilogue/epilogue.hpp).
//
// What is common lives here: the argument checks every family shares (can_implement.hpp),
// the device check (a configuration built for one architecture is refused on another with
// kErrorWrongArchitecture, before anything is launched), the empty-problem and workspace
// rules. What differs per family is a KernelLauncher<Family, Config> specialisation, found
// through Config::Family:
//
//   template <class Config> struct KernelLauncher<MyFamily, Config> {
//     static OperandRequirements requirements();           // alignment, 32-bit offsets
//     static Status check(const Args&);                    // the family's own refusals
//     static std::size_t workspace_size(const Args&, const DeviceInfo&);
//     static Status launch(const Args&, void* workspace, Stream, const DeviceInfo&);
//   };
//
// launch() is called only for a valid, non-empty problem on a device of Config::Arch,
// with a 16-byte aligned workspace (or nullptr); it returns the launch's Status.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "tessera/arch/arch.hpp"
#include "tessera/core/status.hpp"
#include "tessera/gemm/arguments.hpp"
#include "tessera/gemm/can_implement.hpp"
#include "tessera/gemm/epilogue/epilogue.hpp"
#include "tessera/gemm/problem_set_checks.hpp"
#include "tessera/runtime/device.hpp"
#include "tessera/runtime/stream.hpp"
#include "tessera/runtime/zero_bytes.hpp"

namespace tessera::gemm {

template <class Family, class Config>
struct KernelLauncher {
  static_assert(sizeof(Config) == 0,
                "Tessera: no kernel family launches this Config: include the family's header "
                "(tessera/gemm/fma/fma.hpp, ...) and check Config::Family");
};

// True when code built for Arch runs on the device `d`.
template <class Arch>
bool runs_on(const DeviceInfo& d) {
  if constexpr (is_amd<Arch>) {
    return d.amd && std::strcmp(d.arch_name, Arch::kName) == 0;
  } else {
    if (d.amd) return false;
    return Arch::kForwardCompatible ? d.compute_capability >= Arch::kComputeCapability
                                    : d.compute_capability == Arch::kComputeCapability;
  }
}

// The arguments a configuration takes: its element types and its epilogue's arguments.
template <class Config>
using ConfigArguments = Arguments<typename Config::ElementA, typename Config::ElementB, typename Config::ElementC,
                                  typename Config::ElementD, typename Config::Epilogue::Arguments>;

template <class Config>
struct Gemm {
  using Arch = typename Config::Arch;
  using LayoutA = typename Config::LayoutA;
  using LayoutB = typename Config::LayoutB;
  using LayoutC = typename Config::LayoutC;
  using Epilogue = typename Config::Epilogue;
  using Args = ConfigArguments<Config>;
  using Launcher = KernelLauncher<typename Config::Family, Config>;

  // Every precondition of the arguments: a Status that names the first problem found.
  // Needs no device (nothing is dereferenced).
  static Status can_implement(const Args& a) {
    Status s = gemm::can_implement<LayoutA, LayoutB, LayoutC>(a, Launcher::requirements());
    if (ok(s)) s = Epilogue::can_implement(a.epilogue, epilogue_problem(a));
    if (ok(s)) s = check_problem_set<typename SchedulerOf<Config>::type, LayoutC>(a);
    if (ok(s)) s = Launcher::check(a);
    return s;
  }

  // True when this configuration's code runs on the device `d`.
  static bool supports(const DeviceInfo& d) { return runs_on<Arch>(d); }

  // True when run(a) would launch on the device `d` (or succeed with nothing to do): the
  // configuration runs there and takes these arguments. What a candidate of Dispatch says.
  static bool accepts(const Args& a, const DeviceInfo& d) { return supports(d) && ok(can_implement(a)); }

  // Bytes of workspace run() can use on the current device for these arguments (0 when
  // it would use none, when the arguments are invalid or the device does not match).
  static std::size_t workspace_size(const Args& a) {
    DeviceInfo d;
    if (!ok(current_device(&d)) || !supports(d)) return 0;
    if (!ok(can_implement(a)) || a.M == 0 || a.N == 0 || a.problems.count == 0) return 0;
    return Launcher::workspace_size(a, d);
  }

  // workspace: nullptr, or at least workspace_size(a) bytes, 16-byte aligned, untouched
  // by anything else until the work on `stream` is done.
  static Status run(const Args& a, void* workspace = nullptr, Stream stream = nullptr) {
    const Status s = can_implement(a);
    if (!ok(s)) return s;
    DeviceInfo d;
    const Status found = current_device(&d);
    if (!ok(found)) return found;
    if (!supports(d)) return Status::kErrorWrongArchitecture;
    // A grouped kernel writes problems.status only when it clamps a size: the flag is set to
    // kSuccess first, on the stream, so that it says what this call found (problem_set.hpp).
    if (a.problems.status != nullptr) {
      static_assert(int(Status::kSuccess) == 0, "Tessera: problems.status is cleared to kSuccess by zeroing it");
      const Status cleared = zero_bytes_async(a.problems.status, sizeof(*a.problems.status), stream);
      if (!ok(cleared)) return cleared;
    }
    if (a.M == 0 || a.N == 0 || a.problems.count == 0) return Status::kSuccess;  // nothing to write
    if (reinterpret_cast<std::uintptr_t>(workspace) % 16 != 0) {
      return Status::kErrorWorkspaceMisaligned;
    }
    return Launcher::launch(a, workspace, stream, d);
  }

  // The same, told the workspace's size: one smaller than workspace_size(a) is not used (the
  // call runs as without a workspace: unsplit, unpacked, the same result).
  static Status run(const Args& a, void* workspace, std::size_t workspace_bytes, Stream stream) {
    if (workspace != nullptr && workspace_bytes < workspace_size(a)) workspace = nullptr;
    return run(a, workspace, stream);
  }
};

}  // namespace tessera::gemm
