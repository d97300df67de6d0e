#!/usr/bin/env bash
# Configures a preset (default: `default`) quietly, but shows the lines where Tessera says
# what it cannot build on this machine and why (a missing tool and the package that
# provides it). The whole configure output is in build/<preset>/configure.log.
#   scripts/configure.sh [preset]
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-default}
mkdir -p "build/$preset"
if ! cmake --preset "$preset" >"build/$preset/configure.log" 2>&1; then
  cat "build/$preset/configure.log"
  exit 1
fi
grep -E "^-- Tessera: .*(not built|skipped|dropped|not found)" "build/$preset/configure.log" || true
