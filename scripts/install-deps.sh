#!/usr/bin/env bash
# Installs, from Debian's packages, what Tessera's build and tests need on Debian 12.
# Idempotent: when everything is present it only checks (a second run takes a second).
# The CUDA toolkit (/usr/local/cuda) is not a Debian package: where it is missing the
# CUDA parts are skipped by CMake, and say so.
set -euo pipefail
packages=(cmake ninja-build g++ python3 catch2 libbenchmark-dev
          clang-22 lld-22 llvm-22-tools libamdhip64-dev)
missing=()
if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "install-deps: not a Debian system; install the equivalents of: ${packages[*]}" >&2
  exit 0
fi
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
export DEBIAN_FRONTEND=noninteractive
# Where apt cannot reach a registry (an offline GPU machine), carry on: CMake then says
# which part it cannot build, or stops with the name of what it needs.
if ! { $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends \
         "${missing[@]}" >/dev/null; }; then
  echo "install-deps: could not install ${missing[*]}; continuing with what is here" >&2
fi
