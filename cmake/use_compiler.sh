#!/bin/sh
# use_compiler.sh <compiler> <the compiler CMake chose> <arguments...>
# A CMake compiler/linker launcher that swaps the compiler: the AMD wave emulator's
# targets need clang (ext_vector_type operands, the ThreadSanitizer instrumentation the
# emulator hooks into) even where the project's C++ compiler is g++.
compiler=$1
shift 2
exec "$compiler" "$@"
