# Finds the compilers and tools the non-header parts need, and defines helpers that
# compile HIP sources with clang directly (CMake's HIP language wants a ROCm install;
# Debian ships only the HIP headers and runtime, and clang-22 for gfx942/gfx950).

# ---- CUDA (nvcc) ----------------------------------------------------------------------
set(TESSERA_CUDA_FOUND OFF)
if(TESSERA_ENABLE_CUDA)
  include(CheckLanguage)
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    set(CMAKE_CUDA_ARCHITECTURES ${TESSERA_CUDA_ARCHS})
    enable_language(CUDA)
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    set(TESSERA_CUDA_FOUND ON)
    # Every requested target must be one this nvcc knows (90a is checked as sm_90).
    execute_process(COMMAND ${CMAKE_CUDA_COMPILER} --list-gpu-code OUTPUT_VARIABLE nvcc_codes
                    RESULT_VARIABLE nvcc_rc ERROR_QUIET)
    set(known_archs)
    foreach(arch ${TESSERA_CUDA_ARCHS})
      string(REGEX REPLACE "[af]$" "" base ${arch})
      if(nvcc_rc EQUAL 0 AND NOT nvcc_codes MATCHES "sm_${base}")
        message(STATUS "Tessera: CUDA target ${arch} dropped: ${CMAKE_CUDA_COMPILER} does not "
                       "know sm_${base} (a newer CUDA toolkit does)")
      else()
        list(APPEND known_archs ${arch})
      endif()
    endforeach()
    set(TESSERA_CUDA_ARCHS ${known_archs})
    # Executables that carry code for several targets (a target property does not name one)
    # carry TESSERA_CUDA_EXECUTABLE_ARCHS, those of them this build has; the ISA checks and
    # the single-target executables follow TESSERA_CUDA_ARCHS.
    set(exe_archs)
    foreach(arch ${TESSERA_CUDA_EXECUTABLE_ARCHS})
      if(arch IN_LIST TESSERA_CUDA_ARCHS)
        list(APPEND exe_archs ${arch})
      endif()
    endforeach()
    if(NOT exe_archs)
      set(exe_archs ${TESSERA_CUDA_ARCHS})
    endif()
    set(CMAKE_CUDA_ARCHITECTURES ${exe_archs})
    # ptxas alone, for resource reports of PTX the build generates anyway.
    get_filename_component(nvcc_dir ${CMAKE_CUDA_COMPILER} DIRECTORY)
    find_program(TESSERA_PTXAS ptxas HINTS ${nvcc_dir} ${CUDAToolkit_BIN_DIR} NO_DEFAULT_PATH)
    # cuBLAS is needed only by what compares against it (examples, benchmark).
    set(TESSERA_CUBLAS_FOUND OFF)
    if(TARGET CUDA::cublas)
      set(TESSERA_CUBLAS_FOUND ON)
    else()
      message(STATUS "Tessera: cuBLAS not found in the CUDA toolkit (libcublas): the CUDA "
                     "example and tessera_bench are not built")
    endif()
  else()
    message(STATUS "Tessera: no CUDA compiler found; CUDA parts are not built")
  endif()
endif()

# ---- HIP (clang) ----------------------------------------------------------------------
set(TESSERA_HIP_FOUND OFF)
if(TESSERA_ENABLE_HIP)
  if(NOT TESSERA_HIP_CLANG)
    find_program(TESSERA_HIP_CLANG_FOUND NAMES clang++-22)
    if(TESSERA_HIP_CLANG_FOUND)
      set(TESSERA_HIP_CLANG ${TESSERA_HIP_CLANG_FOUND} CACHE FILEPATH "" FORCE)
    endif()
  endif()
  find_path(TESSERA_HIP_INCLUDE_DIR hip/hip_runtime.h PATHS /usr/include /opt/rocm/include)
  find_library(TESSERA_HIP_RUNTIME amdhip64 PATHS /usr/lib/x86_64-linux-gnu /opt/rocm/lib)
  if(TESSERA_HIP_CLANG AND TESSERA_HIP_INCLUDE_DIR)
    set(TESSERA_HIP_FOUND ON)
  else()
    message(STATUS "Tessera: clang++-22 or the HIP headers not found (Debian: clang-22, "
                   "libamdhip64-dev); HIP parts are not built")
  endif()
endif()

# ---- FileCheck (for the ISA tests) ----------------------------------------------------
find_program(TESSERA_FILECHECK NAMES FileCheck-22 FileCheck PATHS /usr/lib/llvm-22/bin)

# Every header, so that custom compile commands rebuild when any header changes.
file(GLOB_RECURSE TESSERA_HEADERS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/*.hpp)

set(TESSERA_HIP_FLAGS -x hip -std=c++17 -O3 -nogpulib -D__AMDGCN_WAVEFRONT_SIZE=64
    -I${PROJECT_SOURCE_DIR}/include -Wall -Wno-unused-result)

# ---- HIP probe: does clang compile device code, and link a HIP executable? ------------
# Device code objects (assembly for the ISA tests) need clang alone; a HIP executable also
# needs ld.lld (lld-22), clang-offload-bundler (clang-tools-22) and libamdhip64
# (libamdhip64-dev). A half-installed toolchain turns the executables off with one line
# saying what is missing, instead of failing the build.
set(TESSERA_HIP_LINK_OK OFF)
if(TESSERA_HIP_FOUND)
  set(probe_dir ${CMAKE_BINARY_DIR}/tessera_hip_probe)
  file(WRITE ${probe_dir}/probe.hip
       "#include <hip/hip_runtime.h>\n"
       "__global__ void tessera_probe(int* p) { p[__builtin_amdgcn_workitem_id_x()] = 1; }\n"
       "int main() { return 0; }\n")
  list(GET TESSERA_HIP_ARCHS 0 probe_arch)
  execute_process(COMMAND ${TESSERA_HIP_CLANG} ${TESSERA_HIP_FLAGS} -O1 --offload-arch=${probe_arch}
                          --cuda-device-only -S probe.hip -o probe.s
                  WORKING_DIRECTORY ${probe_dir} RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    string(REGEX MATCH "error: [^\n]*" first_error "${err}")
    message(STATUS "Tessera: HIP parts are not built: ${TESSERA_HIP_CLANG} cannot compile device "
                   "code for ${probe_arch} (${first_error})")
    set(TESSERA_HIP_FOUND OFF)
  elseif(NOT TESSERA_HIP_RUNTIME)
    message(STATUS "Tessera: HIP executables are not built: libamdhip64 not found (Debian: "
                   "libamdhip64-dev); device code and ISA checks still are")
  else()
    get_filename_component(hip_lib_dir ${TESSERA_HIP_RUNTIME} DIRECTORY)
    execute_process(COMMAND ${TESSERA_HIP_CLANG} ${TESSERA_HIP_FLAGS} -O1 --offload-arch=${probe_arch}
                            probe.hip -o probe -L${hip_lib_dir} -lamdhip64
                    WORKING_DIRECTORY ${probe_dir} RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
    if(rc EQUAL 0)
      set(TESSERA_HIP_LINK_OK ON)
    else()
      # Name the missing program where clang itself would look for it.
      set(missing "")
      foreach(tool_package clang-offload-bundler:clang-tools-22 ld.lld:lld-22)
        string(REPLACE ":" ";" pair ${tool_package})
        list(GET pair 0 tool)
        list(GET pair 1 package)
        execute_process(COMMAND ${TESSERA_HIP_CLANG} -print-prog-name=${tool}
                        OUTPUT_VARIABLE where OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
        if(NOT IS_ABSOLUTE "${where}")
          find_program(TESSERA_PROBE_${tool} ${tool} NO_CACHE)
          set(where "${TESSERA_PROBE_${tool}}")
        endif()
        if(NOT where OR NOT EXISTS "${where}")
          set(missing "${tool} not found (Debian package ${package})")
          break()
        endif()
      endforeach()
      if(NOT missing)
        string(REGEX MATCH "error: [^\n]*" missing "${err}")
      endif()
      message(STATUS "Tessera: HIP executables are not built: linking a HIP program failed: "
                     "${missing}; device code and ISA checks still are")
    endif()
  endif()
endif()

# tessera_hip_asm(<out.s> SOURCE <file> ARCH <gfx...> [DEFINES ...])
# Device-only assembly for one target, built as part of ALL.
function(tessera_hip_asm out)
  cmake_parse_arguments(P "" "SOURCE;ARCH" "DEFINES;INCLUDES" ${ARGN})
  list(TRANSFORM P_DEFINES PREPEND -D OUTPUT_VARIABLE defs)
  list(TRANSFORM P_INCLUDES PREPEND -I OUTPUT_VARIABLE incs)
  add_custom_command(OUTPUT ${out}
    COMMAND ${TESSERA_HIP_CLANG} ${TESSERA_HIP_FLAGS} ${defs} ${incs} --offload-arch=${P_ARCH}
            --cuda-device-only -S ${P_SOURCE} -o ${out}
    DEPENDS ${P_SOURCE} ${TESSERA_HEADERS}
    COMMENT "HIP ${P_ARCH} assembly: ${P_SOURCE}"
    VERBATIM)
endfunction()

# tessera_hip_executable(<name> SOURCES <files> [DEFINES ...] [INCLUDES ...] [LIBS ...]
#                        [DEPENDS ...])
# A host executable with device code for every TESSERA_HIP_ARCHS target, linked
# against the HIP runtime. It builds here; it runs only where an AMD GPU is present.
# LIBS: more link inputs (library files, -l/-L/-Wl,... flags), placed after `-x none`:
# with `-x hip` in force clang would read a library file as HIP source. DEPENDS: files
# outside include/ (local headers) whose change must rebuild the executable.
# Without a working HIP link (see the probe above) it defines nothing.
function(tessera_hip_executable name)
  if(NOT TESSERA_HIP_LINK_OK)
    return()
  endif()
  cmake_parse_arguments(P "" "" "SOURCES;DEFINES;INCLUDES;LIBS;DEPENDS" ${ARGN})
  set(archs)
  foreach(a ${TESSERA_HIP_ARCHS})
    list(APPEND archs --offload-arch=${a})
  endforeach()
  list(TRANSFORM P_DEFINES PREPEND -D OUTPUT_VARIABLE defs)
  list(TRANSFORM P_INCLUDES PREPEND -I OUTPUT_VARIABLE incs)
  set(libs)
  if(P_LIBS)
    set(libs -x none ${P_LIBS})
  endif()
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${name})
  add_custom_command(OUTPUT ${out}
    COMMAND ${TESSERA_HIP_CLANG} ${TESSERA_HIP_FLAGS} ${defs} ${incs} ${archs} ${P_SOURCES}
            -o ${out} -L$<PATH:GET_PARENT_PATH,${TESSERA_HIP_RUNTIME}> -lamdhip64 ${libs}
    DEPENDS ${P_SOURCES} ${P_DEPENDS} ${TESSERA_HEADERS}
    COMMENT "HIP executable ${name} (${TESSERA_HIP_ARCHS})"
    VERBATIM)
  add_custom_target(${name}_target ALL DEPENDS ${out})  # a target may not share the file's name
endfunction()

# tessera_cuda_ptxas_report(<out.txt> SOURCE <file> ARCH <90a|100a> [PTX <file.ptx>])
# ptxas's resource report (registers, shared memory, stack, spills) for one target. PTX: the
# same source's PTX for that target (tessera_cuda_ptx, same DEFINES and INCLUDES): ptxas
# then assembles it instead of nvcc compiling the source a second time.
function(tessera_cuda_ptxas_report out)
  cmake_parse_arguments(P "" "SOURCE;ARCH;PTX" "DEFINES;INCLUDES" ${ARGN})
  list(TRANSFORM P_DEFINES PREPEND -D OUTPUT_VARIABLE defs)
  list(TRANSFORM P_INCLUDES PREPEND -I OUTPUT_VARIABLE incs)
  # NAME_WLE: out names like k.sm_90a.txt and k.sm_100a.txt must give distinct cubins.
  get_filename_component(stem ${out} NAME_WLE)
  set(cubin ${CMAKE_CURRENT_BINARY_DIR}/${stem}.cubin)
  if(P_PTX AND TESSERA_PTXAS)
    add_custom_command(OUTPUT ${out} ${cubin}
      COMMAND ${PROJECT_SOURCE_DIR}/cmake/capture.sh ${out} ${TESSERA_PTXAS} -arch=sm_${P_ARCH} -v
              ${P_PTX} -o ${cubin}
      DEPENDS ${P_PTX}
      COMMENT "ptxas report sm_${P_ARCH}: ${P_PTX}"
      VERBATIM)
    return()
  endif()
  # -x cu: sources shared with the HIP build are named .cpp, which nvcc would otherwise
  # treat as host-only C++.
  add_custom_command(OUTPUT ${out} ${cubin}
    COMMAND ${PROJECT_SOURCE_DIR}/cmake/capture.sh ${out} ${CMAKE_CUDA_COMPILER} -std=c++17 -O3 -I${PROJECT_SOURCE_DIR}/include ${defs} ${incs}
            -gencode=arch=compute_${P_ARCH},code=sm_${P_ARCH} -cubin -Xptxas -v
            -x cu ${P_SOURCE} -o ${cubin}
    DEPENDS ${P_SOURCE} ${TESSERA_HEADERS}
    COMMENT "ptxas report sm_${P_ARCH}: ${P_SOURCE}"
    VERBATIM)
endfunction()

# tessera_cuda_ptx(<out.ptx> SOURCE <file> ARCH <90a|100a>)
# The PTX nvcc generates for one target (what the ISA tests FileCheck).
function(tessera_cuda_ptx out)
  cmake_parse_arguments(P "" "SOURCE;ARCH" "DEFINES;INCLUDES" ${ARGN})
  list(TRANSFORM P_DEFINES PREPEND -D OUTPUT_VARIABLE defs)
  list(TRANSFORM P_INCLUDES PREPEND -I OUTPUT_VARIABLE incs)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_CUDA_COMPILER} -std=c++17 -O3 -I${PROJECT_SOURCE_DIR}/include ${defs} ${incs}
            -gencode=arch=compute_${P_ARCH},code=sm_${P_ARCH} -ptx -x cu ${P_SOURCE} -o ${out}
    DEPENDS ${P_SOURCE} ${TESSERA_HEADERS}
    COMMENT "PTX sm_${P_ARCH}: ${P_SOURCE}"
    VERBATIM)
endfunction()

# tessera_cuda_ptx_only(<dir>): every target under <dir> (recursively) embeds PTX only for
# its CUDA targets (CMake's <arch>-virtual): nvcc stops before ptxas. For a build that only
# checks that the GPU programs compile, where no GPU runs them (CI). ptxas still assembles
# the ISA tests' kernels (custom commands, not targets).
function(tessera_cuda_ptx_only dir)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target ${targets})
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "INTERFACE_LIBRARY" OR type STREQUAL "UTILITY")
      continue()
    endif()
    get_target_property(archs ${target} CUDA_ARCHITECTURES)
    if(NOT archs)
      continue()
    endif()
    list(TRANSFORM archs REPLACE "-(real|virtual)$" "")
    list(TRANSFORM archs APPEND "-virtual")
    set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES "${archs}")
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(subdir ${subdirs})
    tessera_cuda_ptx_only(${subdir})
  endforeach()
endfunction()
