// The tensor-parallel GPU test: all-gather + GEMM and GEMM + reduce-scatter on every visible
// GPU (tp_all_gather_gemm_cases.cu, tp_gemm_reduce_scatter_cases.cu), in one of two arrangements:
//   test_tp_gpu --processes       (default) forks one process per GPU; rank 0 makes the NCCL
//                                 id and sends it to the others through pipes; each process
//                                 drives one rank (Communicator::init_rank);
//   test_tp_gpu --single-process  one process drives every GPU (Communicator::init_all).
// Exit 0: every rank passed; 1: a rank failed, died or hung (each process is killed after
// kTimeoutSeconds, so a hang is a failure, never a hung ctest); 77: fewer than two GPUs
// (ctest: skipped). The parent never touches CUDA (a child probes the GPU count), so the
// forked ranks start from a clean process. NVLink multicast is off (NCCL_NVLS_ENABLE=0).
#include <cuda_runtime_api.h>
#include <nccl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "tessera/tp/communicator.hpp"
#include "tp_case.hpp"

namespace {

constexpr int kTimeoutSeconds = 600;

using tessera::Status;
using namespace tessera::test::tp_case;

void on_alarm(int) {
  const char msg[] = "FAILED: timed out (a rank hung)\n";
  (void)!write(1, msg, sizeof msg - 1);
  _exit(1);
}

void no_multicast() {
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  setenv("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1", 1);
  setenv("NVSHMEM_DISABLE_NVLS", "1", 1);
}

// The number of GPUs, asked in a child so that this process stays free of CUDA (fork after
// CUDA's initialisation is not supported).
int probe_devices() {
  int fd[2];
  if (pipe(fd) != 0) return 0;
  const pid_t pid = fork();
  if (pid == 0) {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) n = 0;
    // The local GEMMs are Hopper's (sm_90a): other GPUs count as none.
    cudaDeviceProp prop{};
    if (n > 0 && (cudaGetDeviceProperties(&prop, 0) != cudaSuccess || prop.major * 10 + prop.minor != 90)) n = 0;
    (void)!write(fd[1], &n, sizeof n);
    _exit(0);
  }
  close(fd[1]);
  int n = 0;
  if (read(fd[0], &n, sizeof n) != sizeof n) n = 0;
  close(fd[0]);
  waitpid(pid, nullptr, 0);
  return n;
}

int run_cases(Ranks& R) {
  for (std::size_t i = 0; i < R.comms.size(); ++i) {
    tessera::tp::DeviceScope scope(R.comms[i]->device());
    cudaStream_t s = nullptr;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    R.streams.push_back(s);
  }
  all_gather_gemm_cases(R);
  gemm_reduce_scatter_cases(R);
  for (std::size_t i = 0; i < R.comms.size(); ++i) {
    tessera::tp::DeviceScope scope(R.comms[i]->device());
    cudaStreamDestroy(R.streams[i]);
  }
  return failures();
}

int one_rank(int rank, int ranks, int id_in, const std::vector<int>& id_out) {
  ncclUniqueId id;
  if (rank == 0) {
    if (ncclGetUniqueId(&id) != ncclSuccess) {
      std::printf("FAILED: ncclGetUniqueId\n");
      return 1;
    }
    for (int fd : id_out) (void)!write(fd, &id, sizeof id);
  } else if (read(id_in, &id, sizeof id) != sizeof id) {
    std::printf("FAILED: rank %d got no NCCL id\n", rank);
    return 1;
  }
  tessera::tp::Communicator comm;
  const Status s = tessera::tp::Communicator::init_rank(&comm, ranks, id, rank, rank);
  if (!tessera::ok(s)) {
    std::printf("FAILED: rank %d: init_rank: %s\n", rank, tessera::status_name(s));
    return 1;
  }
  Ranks R;
  R.comms.push_back(&comm);
  const int failed = run_cases(R);
  std::printf("rank %d: %s (%d failed checks)\n", rank, failed == 0 ? "passed" : "FAILED", failed);
  return failed == 0 ? 0 : 1;
}

int processes(int ranks) {
  std::vector<int> read_end(std::size_t(ranks), -1), write_end(std::size_t(ranks), -1);
  for (int r = 1; r < ranks; ++r) {
    int fd[2];
    if (pipe(fd) != 0) return 1;
    read_end[std::size_t(r)] = fd[0];
    write_end[std::size_t(r)] = fd[1];
  }
  std::vector<pid_t> pids;
  for (int r = 0; r < ranks; ++r) {
    const pid_t pid = fork();
    if (pid == 0) {
      alarm(kTimeoutSeconds);
      std::vector<int> out(write_end.begin() + 1, write_end.end());
      std::fflush(stdout);
      _exit(one_rank(r, ranks, read_end[std::size_t(r)], r == 0 ? out : std::vector<int>{}));
    }
    pids.push_back(pid);
  }
  int failed = 0;
  for (int r = 0; r < ranks; ++r) {
    int status = 0;
    waitpid(pids[std::size_t(r)], &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::printf("rank %d (pid %d) failed: %s %d\n", r, int(pids[std::size_t(r)]),
                  WIFEXITED(status) ? "exit" : "signal", WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
      ++failed;
    }
  }
  return failed == 0 ? 0 : 1;
}

int single_process(int ranks) {
  alarm(kTimeoutSeconds);
  std::vector<int> devices;
  for (int d = 0; d < ranks; ++d) devices.push_back(d);
  std::vector<tessera::tp::Communicator> comms;
  const Status s = tessera::tp::Communicator::init_all(&comms, devices);
  if (!tessera::ok(s)) {
    std::printf("FAILED: init_all: %s\n", tessera::status_name(s));
    return 1;
  }
  Ranks R;
  for (auto& c : comms) R.comms.push_back(&c);
  const int failed = run_cases(R);
  std::printf("%d ranks in one process: %s (%d failed checks)\n", ranks, failed == 0 ? "passed" : "FAILED", failed);
  return failed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  no_multicast();
  signal(SIGALRM, on_alarm);
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const bool single = argc > 1 && std::strcmp(argv[1], "--single-process") == 0;
  const int devices = probe_devices();
  if (devices < 2) {
    std::printf("SKIPPED: the tensor-parallel test needs two sm_90 GPUs or more (%d usable)\n", devices);
    return 77;
  }
  std::printf("%d GPUs, %s\n", devices, single ? "one process driving all" : "one process per GPU");
  return single ? single_process(devices) : processes(devices);
}
