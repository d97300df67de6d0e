# NCCL for the tensor-parallel layer (include/tessera/tp/, test/tp/, benchmark/tp/). The
# library stays header-only: the tp/ headers need nccl.h only where they are included, and
# only the tensor-parallel GPU test and benchmark link libnccl. Looked for, in order: the
# CUDA toolkit (NCCL ships with it here), a system install, a Python environment's
# nvidia-nccl wheel (site-packages/nvidia/nccl). Where none is found, one line says what is
# skipped. Included once from the top CMakeLists.txt, after test/ and benchmark/.

set(TESSERA_NCCL_FOUND OFF)
if(TESSERA_CUDA_FOUND)
  set(tessera_py_nccl "")
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(Python3_Interpreter_FOUND)
    execute_process(
      COMMAND ${Python3_EXECUTABLE} -c
              "import importlib.util as u; s = u.find_spec('nvidia.nccl'); print(list(s.submodule_search_locations)[0] if s else '')"
      OUTPUT_VARIABLE tessera_py_nccl OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  endif()
  find_path(TESSERA_NCCL_INCLUDE_DIR nccl.h
            HINTS ${CUDAToolkit_INCLUDE_DIRS} PATHS /usr/include /usr/local/include ${tessera_py_nccl}/include)
  find_library(TESSERA_NCCL_LIBRARY NAMES nccl libnccl.so.2
               HINTS ${CUDAToolkit_LIBRARY_DIR} PATHS /usr/lib/x86_64-linux-gnu /usr/local/lib ${tessera_py_nccl}/lib)
  if(TESSERA_NCCL_INCLUDE_DIR AND TESSERA_NCCL_LIBRARY)
    set(TESSERA_NCCL_FOUND ON)
    add_library(tessera_nccl INTERFACE)
    target_include_directories(tessera_nccl SYSTEM INTERFACE ${TESSERA_NCCL_INCLUDE_DIR})
    target_link_libraries(tessera_nccl INTERFACE ${TESSERA_NCCL_LIBRARY})
    message(STATUS "Tessera: NCCL ${TESSERA_NCCL_LIBRARY}: tensor-parallel GPU test and benchmark built")
  else()
    message(STATUS "Tessera: NCCL not found (nccl.h and libnccl in the CUDA toolkit, /usr, or Python's "
                   "nvidia.nccl): the tensor-parallel GPU test and benchmark are not built")
  endif()
else()
  message(STATUS "Tessera: no CUDA toolchain: the tensor-parallel GPU test and benchmark are not built")
endif()

# The host test of the tensor-parallel planning needs neither NCCL nor CUDA.
if(TESSERA_BUILD_TESTS)
  add_subdirectory(${PROJECT_SOURCE_DIR}/test/tp ${PROJECT_BINARY_DIR}/test/tp)
endif()
if(TESSERA_BUILD_BENCHMARKS AND TESSERA_NCCL_FOUND)
  add_subdirectory(${PROJECT_SOURCE_DIR}/benchmark/tp ${PROJECT_BINARY_DIR}/benchmark/tp)
endif()
