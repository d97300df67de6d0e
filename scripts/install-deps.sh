#!/usr/bin/env bash
# Installs, from Debian's packages, what Tessera's build and tests need on Debian 12.
# Idempotent: when everything is present it only checks (a second run takes a second).
# The CUDA toolkit (/usr/local/cuda) is not a Debian package: where it is missing the
# CUDA parts are skipped by CMake, and say so.
set -euo pipefail
packages=(cmake ninja-build g++ python3 catch2 libbenchmark-dev
          clang-22 lld-22 llvm-22-tools libamdhip64-dev)
missing=()
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
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
