// Fibers: every lane of a workgroup runs the kernel body on its own stack, and the
// emulator switches between lanes only where a lane asks to (a wave-level instruction) or
// ends. That makes the interleaving a fixed function of the kernel and the launch: the
// same run every time, with no threads and no locks.
#pragma once
#include <cstddef>

namespace tessera::amd::emulation::detail {

// A suspended context. On x86-64 it is the saved stack pointer (the callee-saved
// registers, MXCSR and the x87 control word sit on that stack); elsewhere a ucontext.
struct Fiber {
  void* sp = nullptr;
  // The non-x86-64 fallback only: the ucontext and what the first switch runs.
  void* ucontext = nullptr;
  void (*fn)(void*) = nullptr;
  void* arg = nullptr;
};

// A lane's stack: mapped once, with a guard page below it, reused by later workgroups.
class Stack {
 public:
  Stack() = default;
  explicit Stack(std::size_t bytes);
  ~Stack();
  Stack(Stack&& o) noexcept;
  Stack& operator=(Stack&& o) noexcept;
  Stack(const Stack&) = delete;
  Stack& operator=(const Stack&) = delete;
  void* top() const { return top_; }
  std::size_t bytes() const { return bytes_; }

 private:
  void* mapping_ = nullptr;
  std::size_t mapping_bytes_ = 0;
  void* top_ = nullptr;
  std::size_t bytes_ = 0;
};

// Prepares `f` to run fn(arg) on `stack` the first time it is switched to. fn must never
// return: it ends by switching away for good.
void fiber_prepare(Fiber* f, const Stack& stack, void (*fn)(void*), void* arg);
// Saves the running context into `from` and resumes `to`.
void fiber_switch(Fiber* from, Fiber* to);

}  // namespace tessera::amd::emulation::detail
