// Catch2 prints a tessera::Status by name ("kErrorNoContext", not "27") in failed checks.
#pragma once
#include <catch2/catch.hpp>

#include <string>

#include "tessera/core/status.hpp"

namespace Catch {
template <>
struct StringMaker<tessera::Status> {
  static std::string convert(tessera::Status s) { return tessera::status_name(s); }
};
}  // namespace Catch
