# cmake -DSETTINGS=<file written by tessera_add_compile_fail> -DEXPECT=fail|control -P this
# Exit status 0 means the test passed. A fail test needs BOTH a failed compile and matching
# output: a regex alone would pass on a compile that printed a warning and succeeded.
include(${SETTINGS})
set(command ${COMPILER} -std=c++17 -fsyntax-only -I${INCLUDE_DIR} ${FLAGS})
if(EXPECT STREQUAL "fail")
  list(APPEND command -DTESSERA_EXPECT_FAIL)
endif()
list(APPEND command ${SOURCE})
execute_process(COMMAND ${command} RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
string(REPLACE ";" " " shown "${command}")

if(EXPECT STREQUAL "control")
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "control compile failed, so the expected failure may have another cause:\n"
                        "${shown}\n${output}")
  endif()
  message(STATUS "control compiles: ${shown}")
  return()
endif()

if(status EQUAL 0)
  message(FATAL_ERROR "compiled, but was expected to fail:\n${shown}\n${output}")
endif()
foreach(regex IN LISTS MATCH)
  if(NOT output MATCHES "${regex}")
    message(FATAL_ERROR "failed as expected, but the output does not match '${regex}':\n${shown}\n${output}")
  endif()
endforeach()
message(STATUS "failed as expected and matched ${MATCH}")
