# cmake -DMODE=find_package|add_subdirectory -DTESSERA_SOURCE_DIR=... -DTESSERA_BINARY_DIR=...
#       -DWORK_DIR=... -DCXX_COMPILER=... -DGENERATOR=... [-DMAKE_PROGRAM=...] -P run_consumer.cmake
# Builds and runs the consumer in WORK_DIR (wiped first, so every run starts clean) and
# fails with the step's output when any step fails or the program prints the wrong thing.
cmake_minimum_required(VERSION 3.24)

foreach(var MODE TESSERA_SOURCE_DIR TESSERA_BINARY_DIR WORK_DIR CXX_COMPILER GENERATOR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_consumer.cmake: -D${var}=... is required")
  endif()
endforeach()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

# step(<name> <command...>): run it, keep its stdout in step_output, stop on failure.
function(step name)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install test ${MODE}: ${name} failed (${rc})\n"
                        "command: ${ARGN}\n--- stdout\n${out}\n--- stderr\n${err}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

set(configure_args -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
                   -DCMAKE_BUILD_TYPE=Release)
if(MAKE_PROGRAM)
  list(APPEND configure_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()

if(MODE STREQUAL "find_package")
  set(prefix "${WORK_DIR}/prefix")
  step("cmake --install" ${CMAKE_COMMAND} --install "${TESSERA_BINARY_DIR}" --prefix "${prefix}")
  set(source_dir "${CMAKE_CURRENT_LIST_DIR}/consumer")
  # Only the fresh prefix may provide the package: no user or system package registry.
  list(APPEND configure_args "-DCMAKE_PREFIX_PATH=${prefix}"
       -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF)
elseif(MODE STREQUAL "add_subdirectory")
  set(source_dir "${CMAKE_CURRENT_LIST_DIR}/subdir_consumer")
  list(APPEND configure_args "-DTESSERA_SOURCE_DIR=${TESSERA_SOURCE_DIR}")
else()
  message(FATAL_ERROR "run_consumer.cmake: unknown MODE '${MODE}'")
endif()

set(build_dir "${WORK_DIR}/build")
step("configure" ${CMAKE_COMMAND} -S "${source_dir}" -B "${build_dir}" ${configure_args})

if(MODE STREQUAL "find_package")
  # The package must come from the prefix just installed, not from anywhere else.
  file(STRINGS "${build_dir}/CMakeCache.txt" tessera_dir REGEX "^tessera_DIR:")
  string(FIND "${tessera_dir}" "=${prefix}/" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "install test: tessera was not found in ${prefix}: ${tessera_dir}")
  endif()
endif()

step("build" ${CMAKE_COMMAND} --build "${build_dir}")
step("run" "${build_dir}/tessera_consumer")
message(STATUS "tessera_consumer printed:\n${step_output}")

foreach(expected "status_name(kErrorLeadingDimA) = kErrorLeadingDimA" "tessera consumer: OK")
  string(FIND "${step_output}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "install test ${MODE}: expected '${expected}' in the output")
  endif()
endforeach()
