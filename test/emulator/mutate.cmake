# cmake -DSRC=<file> -DDST=<file> -DFIND=<text> -DREPLACE=<text> -P mutate.cmake
# Writes SRC to DST with the one line containing FIND replaced by REPLACE, for the
# mutation checks; fails when FIND is not in SRC exactly once (the code it breaks has
# changed: update the check, do not let it pass vacuously).
# CMake splits arguments at ';', so FIND and REPLACE spell it @SEMI@.
string(REPLACE "@SEMI@" ";" FIND "${FIND}")
string(REPLACE "@SEMI@" ";" REPLACE "${REPLACE}")
file(READ ${SRC} text)
string(FIND "${text}" "${FIND}" first)
string(FIND "${text}" "${FIND}" last REVERSE)
if(first EQUAL -1 OR NOT first EQUAL last)
  message(FATAL_ERROR "mutation check: '${FIND}' is not in ${SRC} exactly once; the mutation "
                      "did not apply (update test/emulator/CMakeLists.txt)")
endif()
string(REPLACE "${FIND}" "${REPLACE}" mutated "${text}")
file(WRITE ${DST} "${mutated}")
