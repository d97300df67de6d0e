#!/bin/sh
# capture.sh <output-file> <command...>: runs the command, writes its stdout+stderr to
# the file, and keeps its exit status (custom commands need a portable redirection).
out=$1
shift
"$@" >"$out" 2>&1
status=$?
[ $status -eq 0 ] || cat "$out" >&2
exit $status
