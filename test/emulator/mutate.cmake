# cmake -DSRC=<file> -DDST=<file> -DFIND=<text> -DREPLACE=<text> -P mutate.cmake
# Writes SRC to DST with the text FIND replaced by REPLACE, for the mutation checks; fails
# when FIND is not in SRC exactly once (the code it breaks has changed: update the check,
# do not let it pass vacuously).
# CMake splits arguments at ';', so FIND and REPLACE spell it @SEMI@, and a line break
# (FIND may span lines, to name one of several identical lines by its neighbours) @NL@.
foreach(var FIND REPLACE)
  string(REPLACE "@SEMI@" ";" ${var} "${${var}}")
  string(REPLACE "@NL@" "\n" ${var} "${${var}}")
endforeach()
file(READ ${SRC} text)
string(FIND "${text}" "${FIND}" first)
string(FIND "${text}" "${FIND}" last REVERSE)
if(first EQUAL -1 OR NOT first EQUAL last)
  message(FATAL_ERROR "mutation check: '${FIND}' is not in ${SRC} exactly once; the mutation "
                      "did not apply (update test/emulator/CMakeLists.txt)")
endif()
string(REPLACE "${FIND}" "${REPLACE}" mutated "${text}")
file(WRITE ${DST} "${mutated}")
