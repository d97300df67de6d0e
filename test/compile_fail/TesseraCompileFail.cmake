# tessera_add_compile_fail(NAME <name> SOURCE <file.cpp> MATCH <regex>... [FLAGS <flag>...])
#
# Registers two ctest tests, both labelled compile_fail:
#   compile_fail.<name>          compiles SOURCE with -DTESSERA_EXPECT_FAIL; passes only if
#                                the compiler fails AND its output matches every MATCH regex
#   compile_fail.<name>.control  compiles SOURCE without the define; passes only if it compiles
# The control proves the failure comes from the line under #ifdef TESSERA_EXPECT_FAIL and not
# from a typo elsewhere. Compiles with ${CMAKE_CXX_COMPILER} -std=c++17 -fsyntax-only and the
# project's include directory; FLAGS adds more. A relative SOURCE is relative to the calling
# CMakeLists.txt. Regexes are CMake regexes matched against stdout+stderr together (run
# under LC_ALL=C, so the compiler quotes with ASCII); avoid ';' in them.
include_guard(GLOBAL)
set(TESSERA_COMPILE_FAIL_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/check_compile_fail.cmake)

function(tessera_add_compile_fail)
  cmake_parse_arguments(PARSE_ARGV 0 CF "" "NAME;SOURCE" "MATCH;FLAGS")
  if(NOT CF_NAME OR NOT CF_SOURCE OR NOT CF_MATCH)
    message(FATAL_ERROR "tessera_add_compile_fail: NAME, SOURCE and MATCH are required")
  endif()
  if(CF_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tessera_add_compile_fail(${CF_NAME}): unexpected arguments ${CF_UNPARSED_ARGUMENTS}")
  endif()
  get_filename_component(source ${CF_SOURCE} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  if(NOT EXISTS ${source})
    message(FATAL_ERROR "tessera_add_compile_fail(${CF_NAME}): ${source} does not exist")
  endif()

  # The arguments travel in a file of bracket-quoted set() calls: regexes survive intact,
  # with none of the escaping that command lines and ctest would each apply.
  string(CONCAT settings
    "set(COMPILER [==[${CMAKE_CXX_COMPILER}]==])\n"
    "set(SOURCE [==[${source}]==])\n"
    "set(INCLUDE_DIR [==[${PROJECT_SOURCE_DIR}/include]==])\n"
    "set(FLAGS)\nset(MATCH)\n")
  foreach(flag IN LISTS CF_FLAGS)
    string(APPEND settings "list(APPEND FLAGS [==[${flag}]==])\n")
  endforeach()
  foreach(regex IN LISTS CF_MATCH)
    string(APPEND settings "list(APPEND MATCH [==[${regex}]==])\n")
  endforeach()
  set(settings_file ${CMAKE_CURRENT_BINARY_DIR}/compile_fail_${CF_NAME}.cmake)
  file(WRITE ${settings_file} "${settings}")

  foreach(expect fail control)
    set(test_name compile_fail.${CF_NAME})
    if(expect STREQUAL "control")
      set(test_name ${test_name}.control)
    endif()
    add_test(NAME ${test_name}
             COMMAND ${CMAKE_COMMAND} -DSETTINGS=${settings_file} -DEXPECT=${expect}
                     -P ${TESSERA_COMPILE_FAIL_SCRIPT})
    set_tests_properties(${test_name} PROPERTIES LABELS compile_fail ENVIRONMENT "LC_ALL=C")
  endforeach()
endfunction()
