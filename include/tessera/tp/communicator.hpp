// tp::Communicator: a thin owner of one NCCL communicator (one rank on one GPU), the stream
// its transfers run on, the events that order them against the GEMMs, and a small device
// buffer for the handshake (arguments.hpp). Needs nccl.h (only this layer's headers include it).
//
//   One process per GPU:   rank 0 makes an ncclUniqueId (ncclGetUniqueId) and hands it to
//                          the others (a pipe, a file, MPI); each process calls
//                          Communicator::init_rank(&comm, ranks, id, rank, device).
//   One process, all GPUs: Communicator::init_all(&comms, {0, 1, ...}) (ncclCommInitAll);
//                          the operations then take one call per GPU at once (they group
//                          the NCCL calls of all of them, as NCCL requires of one thread
//                          driving several ranks).
//
// Every init sets NCCL_NVLS_ENABLE=0 first: NVLink SHARP / multicast is never used (it is not
// needed for point-to-point transfers, and its multicast objects outlive crashed processes).
#pragma once
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <cstdlib>
#include <utility>
#include <vector>

#include "tessera/core/status.hpp"
#include "tessera/runtime/cuda_status.hpp"
#include "tessera/tp/arguments.hpp"

namespace tessera::tp {

inline Status status_from_nccl(ncclResult_t r) {
  return r == ncclSuccess ? Status::kSuccess : Status::kErrorNccl;
}

// Before any ncclCommInit*: never NVLink SHARP / multicast.
inline void disable_nvlink_multicast() { setenv("NCCL_NVLS_ENABLE", "0", 1); }

// Sets the calling thread's device for a scope, and restores the previous one. Where the
// device is already current it sets nothing (setting a device creates its context: a process
// driving GPU 3 must not make one on GPU 0 on the way).
class DeviceScope {
 public:
  explicit DeviceScope(int device) {
    cudaGetDevice(&previous_);
    changed_ = device != previous_;
    if (changed_) cudaSetDevice(device);
  }
  ~DeviceScope() {
    if (changed_) cudaSetDevice(previous_);
  }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_ = 0;
  bool changed_ = false;
};

class Communicator {
 public:
  Communicator() = default;
  ~Communicator() { reset(); }
  Communicator(Communicator&& o) noexcept { *this = std::move(o); }
  Communicator& operator=(Communicator&& o) noexcept {
    if (this != &o) {
      reset();
      comm_ = std::exchange(o.comm_, nullptr);
      stream_ = std::exchange(o.stream_, nullptr);
      events_ = std::move(o.events_);
      handshake_ = std::exchange(o.handshake_, nullptr);
      rank_ = o.rank_;
      size_ = o.size_;
      device_ = o.device_;
    }
    return *this;
  }
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;

  // One rank of `ranks`, on `device`, in one process per GPU. Collective: every rank calls it.
  // Leaves `device` current on the calling thread.
  static Status init_rank(Communicator* out, int ranks, const ncclUniqueId& id, int rank, int device) {
    disable_nvlink_multicast();
    if (ranks <= 0 || rank < 0 || rank >= ranks) return Status::kErrorCommunicatorSize;
    Communicator c;
    c.device_ = device;
    if (const Status s = status_from_cuda(cudaSetDevice(device)); !ok(s)) return s;
    if (const Status s = status_from_nccl(ncclCommInitRank(&c.comm_, ranks, id, rank)); !ok(s)) return s;
    if (const Status s = c.finish_init(); !ok(s)) return s;
    *out = std::move(c);
    return Status::kSuccess;
  }

  // One rank per device in `devices`, all driven by this process (ncclCommInitAll).
  static Status init_all(std::vector<Communicator>* out, const std::vector<int>& devices) {
    disable_nvlink_multicast();
    if (devices.empty()) return Status::kErrorCommunicatorSize;
    std::vector<ncclComm_t> comms(devices.size(), nullptr);
    const Status s = status_from_nccl(ncclCommInitAll(comms.data(), int(devices.size()), devices.data()));
    if (!ok(s)) return s;
    std::vector<Communicator> made(devices.size());
    Status first = Status::kSuccess;
    for (std::size_t i = 0; i < devices.size(); ++i) {
      made[i].comm_ = comms[i];
      made[i].device_ = devices[i];
      DeviceScope scope(devices[i]);
      const Status f = made[i].finish_init();
      if (ok(first)) first = f;
    }
    if (!ok(first)) return first;
    *out = std::move(made);
    return Status::kSuccess;
  }

  bool valid() const { return comm_ != nullptr; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  int device() const { return device_; }
  ncclComm_t nccl() const { return comm_; }
  cudaStream_t stream() const { return stream_; }  // where this rank's transfers run
  // Event i of this rank's pool (2 * size + 2 of them: enough for one operation).
  cudaEvent_t event(int i) const { return events_[std::size_t(i)]; }
  Handshake* handshake_buffer() const { return handshake_; }  // size() + 1 records on the device

 private:
  Status finish_init() {
    if (const Status s = status_from_nccl(ncclCommUserRank(comm_, &rank_)); !ok(s)) return s;
    if (const Status s = status_from_nccl(ncclCommCount(comm_, &size_)); !ok(s)) return s;
    if (const Status s = status_from_cuda(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); !ok(s)) return s;
    events_.assign(std::size_t(2 * size_ + 2), nullptr);
    for (auto& e : events_) {
      if (const Status s = status_from_cuda(cudaEventCreateWithFlags(&e, cudaEventDisableTiming)); !ok(s)) return s;
    }
    void* p = nullptr;
    if (const Status s = status_from_cuda(cudaMalloc(&p, sizeof(Handshake) * std::size_t(size_ + 1))); !ok(s)) return s;
    handshake_ = static_cast<Handshake*>(p);
    return Status::kSuccess;
  }

  void reset() {
    if (comm_ == nullptr && stream_ == nullptr && events_.empty() && handshake_ == nullptr) return;
    DeviceScope scope(device_);
    if (stream_ != nullptr) cudaStreamSynchronize(stream_);
    for (auto e : events_) {
      if (e != nullptr) cudaEventDestroy(e);
    }
    events_.clear();
    if (handshake_ != nullptr) cudaFree(handshake_);
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
    if (comm_ != nullptr) ncclCommDestroy(comm_);
    comm_ = nullptr;
    stream_ = nullptr;
    handshake_ = nullptr;
  }

  ncclComm_t comm_ = nullptr;
  cudaStream_t stream_ = nullptr;
  std::vector<cudaEvent_t> events_;
  Handshake* handshake_ = nullptr;
  int rank_ = 0, size_ = 0, device_ = 0;
};

// ---- ordering the rank's transfer stream against the caller's stream -----------------------

// `waiter` runs nothing enqueued after this until what `signaller` has enqueued so far is
// done (through this rank's event `event`).
inline Status order_after(const Communicator& c, cudaStream_t waiter, cudaStream_t signaller, int event) {
  Status s = status_from_cuda(cudaEventRecord(c.event(event), signaller));
  if (ok(s)) s = status_from_cuda(cudaStreamWaitEvent(waiter, c.event(event), 0));
  return s;
}

// ---- the handshake over the communicators of one call ------------------------------------

// Every rank's record to every rank (one ncclAllGather per communicator, grouped so that one
// thread may drive several), then each rank's verdict (evaluate_handshake) in statuses[i].
// Returns kErrorNccl (every verdict too) if the exchange itself failed.
inline Status exchange_handshakes(Communicator* const* comms, const Handshake* mine, int count, Status* verdicts) {
  Status failed = Status::kSuccess;
  for (int i = 0; i < count; ++i) {
    DeviceScope scope(comms[i]->device());
    Handshake* buf = comms[i]->handshake_buffer();
    const Status s = status_from_cuda(
        cudaMemcpyAsync(buf + comms[i]->size(), &mine[i], sizeof(Handshake), cudaMemcpyHostToDevice, comms[i]->stream()));
    if (ok(failed)) failed = s;
  }
  if (ok(failed)) {
    Status s = status_from_nccl(ncclGroupStart());
    for (int i = 0; i < count && ok(s); ++i) {
      Handshake* buf = comms[i]->handshake_buffer();
      s = status_from_nccl(ncclAllGather(buf + comms[i]->size(), buf, Handshake::kWords, ncclInt64, comms[i]->nccl(),
                                         comms[i]->stream()));
    }
    const Status end = status_from_nccl(ncclGroupEnd());
    failed = ok(s) ? end : s;
  }
  for (int i = 0; i < count; ++i) {
    DeviceScope scope(comms[i]->device());
    std::vector<Handshake> records(std::size_t(comms[i]->size()));
    Status s = failed;
    if (ok(s)) s = status_from_cuda(cudaStreamSynchronize(comms[i]->stream()));
    if (ok(s)) {
      s = status_from_cuda(cudaMemcpy(records.data(), comms[i]->handshake_buffer(),
                                      sizeof(Handshake) * records.size(), cudaMemcpyDeviceToHost));
    }
    verdicts[i] = ok(s) ? evaluate_handshake(records.data(), comms[i]->size(), comms[i]->rank()) : Status::kErrorNccl;
  }
  return failed;
}

// The start of every operation: each call's own checks (check(call) -> Status), then the
// handshake, so that every rank goes ahead or none does. Call: an operation's Call (comm,
// args, status). A null communicator returns at once (there is nobody to tell).
template <class Call, class Check>
Status agree(Call* calls, int count, Check check) {
  if (count <= 0) return Status::kErrorCommunicatorSize;
  std::vector<Communicator*> comms(static_cast<std::size_t>(count));
  std::vector<Handshake> mine(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    calls[i].status = check(calls[i]);
    if (calls[i].status == Status::kErrorCommunicatorNull) return Status::kErrorCommunicatorNull;
    // One thread drives ranks of one communicator clique: all of the same size.
    if (calls[i].comm->size() != calls[0].comm->size()) return Status::kErrorCommunicatorSize;
    comms[std::size_t(i)] = calls[i].comm;
    mine[std::size_t(i)] = handshake_of(calls[i].args, calls[i].status);
  }
  std::vector<Status> verdicts(static_cast<std::size_t>(count));
  exchange_handshakes(comms.data(), mine.data(), count, verdicts.data());
  Status first = Status::kSuccess;
  for (int i = 0; i < count; ++i) {
    calls[i].status = verdicts[std::size_t(i)];
    if (ok(first)) first = calls[i].status;
  }
  return first;
}

}  // namespace tessera::tp
