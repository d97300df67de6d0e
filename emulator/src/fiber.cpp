// Lane fibers. x86-64 (the CI machines): a hand-written switch that saves only what the
// SysV ABI says a callee must preserve. ucontext works everywhere but makes a signal-mask
// system call on every switch, which the emulator does hundreds of thousands of times per
// launch; it remains the fallback for other hosts.
#include "fiber.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#if !defined(__x86_64__) || defined(TESSERA_EMULATOR_UCONTEXT)
#include <ucontext.h>
#endif

namespace tessera::amd::emulation::detail {

Stack::Stack(std::size_t bytes) {
  const std::size_t page = std::size_t(sysconf(_SC_PAGESIZE));
  bytes_ = (bytes + page - 1) / page * page;
  mapping_bytes_ = bytes_ + page;
  mapping_ = mmap(nullptr, mapping_bytes_, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapping_ == MAP_FAILED) {
    std::fprintf(stderr, "tessera emulator: cannot map a %zu-byte lane stack\n", mapping_bytes_);
    std::abort();
  }
  // The guard page turns a kernel that overflows its lane stack into a fault, not into a
  // silent write over the neighbouring lane's stack.
  mprotect(mapping_, page, PROT_NONE);
  top_ = static_cast<char*>(mapping_) + mapping_bytes_;
}

Stack::~Stack() {
  if (mapping_ != nullptr) munmap(mapping_, mapping_bytes_);
}

Stack::Stack(Stack&& o) noexcept { *this = std::move(o); }

Stack& Stack::operator=(Stack&& o) noexcept {
  std::swap(mapping_, o.mapping_);
  std::swap(mapping_bytes_, o.mapping_bytes_);
  std::swap(top_, o.top_);
  std::swap(bytes_, o.bytes_);
  return *this;
}

#if defined(__x86_64__) && !defined(TESSERA_EMULATOR_UCONTEXT)

extern "C" void tessera_emu_fiber_switch(void** save_sp, void* new_sp);
extern "C" void tessera_emu_fiber_entry();

// Saves rbp, rbx, r12-r15, MXCSR and the x87 control word on the current stack, stores
// the stack pointer, and restores the same from the other stack. A new fiber's stack is
// laid out so that the first switch "returns" into tessera_emu_fiber_entry with the
// function in r13 and its argument in r12.
asm(R"(
  .text
  .globl tessera_emu_fiber_switch
  .type tessera_emu_fiber_switch,@function
tessera_emu_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size tessera_emu_fiber_switch, .-tessera_emu_fiber_switch

  .globl tessera_emu_fiber_entry
  .type tessera_emu_fiber_entry,@function
tessera_emu_fiber_entry:
  movq %r12, %rdi
  callq *%r13
  ud2
  .size tessera_emu_fiber_entry, .-tessera_emu_fiber_entry
  .section .note.GNU-stack,"",@progbits
  .text
)");

void fiber_prepare(Fiber* f, const Stack& stack, void (*fn)(void*), void* arg) {
  // From the new stack pointer up: [MXCSR | x87 CW], r15, r14, r13, r12, rbx, rbp, return
  // address. After the pops and the ret the stack pointer is 16-byte aligned, as a call
  // instruction in tessera_emu_fiber_entry needs.
  auto top = reinterpret_cast<std::uintptr_t>(stack.top()) & ~std::uintptr_t(15);
  auto* sp = reinterpret_cast<std::uint64_t*>(top - 16 - 8 * 8);
  const std::uint32_t mxcsr = 0x1f80;  // all exceptions masked, round to nearest
  const std::uint16_t fpucw = 0x037f;  // the x87 default
  std::memcpy(&sp[0], &mxcsr, 4);
  std::memcpy(reinterpret_cast<char*>(&sp[0]) + 4, &fpucw, 2);
  sp[1] = 0;                                          // r15
  sp[2] = 0;                                          // r14
  sp[3] = reinterpret_cast<std::uint64_t>(fn);        // r13
  sp[4] = reinterpret_cast<std::uint64_t>(arg);       // r12
  sp[5] = 0;                                          // rbx
  sp[6] = 0;                                          // rbp
  sp[7] = reinterpret_cast<std::uint64_t>(&tessera_emu_fiber_entry);
  f->sp = sp;
}

void fiber_switch(Fiber* from, Fiber* to) { tessera_emu_fiber_switch(&from->sp, to->sp); }

#else  // ucontext fallback

namespace {
void trampoline(unsigned hi, unsigned lo) {
  auto* f = reinterpret_cast<Fiber*>((std::uintptr_t(hi) << 32) | lo);
  f->fn(f->arg);
  std::abort();
}
}  // namespace

void fiber_prepare(Fiber* f, const Stack& stack, void (*fn)(void*), void* arg) {
  // The context lives at the top of the lane's own stack: nothing to allocate or free.
  constexpr std::size_t kContextBytes = (sizeof(ucontext_t) + 63) / 64 * 64;
  auto* uc = reinterpret_cast<ucontext_t*>(static_cast<char*>(stack.top()) - kContextBytes);
  f->ucontext = uc;
  getcontext(uc);
  uc->uc_stack.ss_sp = static_cast<char*>(stack.top()) - stack.bytes();
  uc->uc_stack.ss_size = stack.bytes() - kContextBytes;
  uc->uc_link = nullptr;
  f->fn = fn;
  f->arg = arg;
  const auto p = reinterpret_cast<std::uintptr_t>(f);
  makecontext(uc, reinterpret_cast<void (*)()>(&trampoline), 2, unsigned(p >> 32), unsigned(p));
}

void fiber_switch(Fiber* from, Fiber* to) {
  if (from->ucontext == nullptr) from->ucontext = new ucontext_t{};  // the scheduler's, once
  swapcontext(static_cast<ucontext_t*>(from->ucontext), static_cast<ucontext_t*>(to->ucontext));
}

#endif

}  // namespace tessera::amd::emulation::detail
