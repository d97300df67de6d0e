#!/usr/bin/env bash
# Configures the default preset quietly, but shows the lines where Tessera says what it
# cannot build on this machine and why (a missing tool and the package that provides it).
# The whole configure output is in build/default/configure.log.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build/default
if ! cmake --preset default >build/default/configure.log 2>&1; then
  cat build/default/configure.log
  exit 1
fi
grep -E "^-- Tessera: .*(not built|skipped|dropped|not found)" build/default/configure.log || true
