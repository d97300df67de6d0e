// A field of a hardware descriptor as the vendor's table writes it (first bit, width), and the
// bits a value holds there: how the host tests read descriptors independently of the
// encoders they check.
#pragma once
#include <cstdint>

namespace tessera::test {

struct Field {
  int lsb, width;
};
inline std::uint64_t field(std::uint64_t v, Field f) { return (v >> f.lsb) & ((std::uint64_t(1) << f.width) - 1); }

}  // namespace tessera::test
