# Runs FileCheck for one ISA test (cmake -P, so ctest needs no shell):
#   cmake -DFILECHECK=<exe> -DINPUT=<.s or ptxas report> -DCHECKS=<source with the
#         CHECK lines> -DPREFIXES=<A,B> [-DPLAN_TOOL=<exe> [-DPLAN_ARGS=<a,b>]]
#         -P run_filecheck.cmake
# With PLAN_TOOL, the tool's output (the planner's total, in bytes) becomes the numeric
# FileCheck variable PLAN_TOTAL, so checks compare the code object with the plan
# rather than with a number copied into the test; a tool that prints NAME=value lines
# defines one numeric variable per line instead. PLAN_ARGS (comma-separated) are passed
# to the tool, for tools that print several configurations' plans.
foreach(var FILECHECK INPUT CHECKS PREFIXES)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_filecheck.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT EXISTS "${INPUT}")
  message(FATAL_ERROR "run_filecheck.cmake: ${INPUT} does not exist; build first (cmake --build)")
endif()

set(defines)
if(PLAN_TOOL)
  set(plan_args)
  if(PLAN_ARGS)
    string(REPLACE "," ";" plan_args "${PLAN_ARGS}")
  endif()
  execute_process(COMMAND "${PLAN_TOOL}" ${plan_args} OUTPUT_VARIABLE total RESULT_VARIABLE rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  # A tool may instead print several numbers, one NAME=value line each: each becomes the
  # numeric FileCheck variable NAME.
  if(rc EQUAL 0 AND total MATCHES "^[A-Z_][A-Z0-9_]*=[0-9]+(\n[A-Z_][A-Z0-9_]*=[0-9]+)*$")
    string(REPLACE "\n" ";" lines "${total}")
    foreach(line IN LISTS lines)
      list(APPEND defines "-D#${line}")
    endforeach()
    message(STATUS "numbers from ${PLAN_TOOL}: ${lines}")
  else()
    if(NOT rc EQUAL 0 OR NOT total MATCHES "^[0-9]+$")
      message(FATAL_ERROR "run_filecheck.cmake: ${PLAN_TOOL} failed (${rc}) or printed '${total}', "
                          "not a byte count (nor NAME=value lines)")
    endif()
    message(STATUS "plan total from ${PLAN_TOOL}: ${total} bytes")
    list(APPEND defines "-D#PLAN_TOTAL=${total}")
  endif()
endif()

execute_process(COMMAND "${FILECHECK}" "--input-file=${INPUT}" "${CHECKS}"
                        "--check-prefixes=${PREFIXES}" ${defines}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "FileCheck (${PREFIXES}) failed on ${INPUT}")
endif()
