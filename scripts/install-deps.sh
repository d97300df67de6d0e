#!/usr/bin/env bash
# Installs, from Debian's packages, everything Tessera's build and tests run on Debian 12.
#
#   scripts/install-deps.sh           check, and install (or reinstall) what is missing
#   scripts/install-deps.sh --check   only check: list what is missing, exit 1 if anything is
#
# It checks the programs and files themselves, not only package names, so a machine where
# a package is installed but one of its programs is gone is repaired too (the package is
# reinstalled). Each requirement names the package that provides it. Idempotent: when
# everything is present it only checks (about a second).
# The CUDA toolkit (/usr/local/cuda) is not a Debian package: where it is missing the
# CUDA parts are skipped by CMake, and it says so.
set -euo pipefail

check_only=0
case "${1:-}" in
  --check) check_only=1 ;;
  "") ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

# program-on-PATH  package
programs=(
  "cmake            cmake"
  "ninja            ninja-build"
  "g++              g++"
  "python3          python3"
  "c++filt          binutils"
  "clang++-22       clang-22"
  "FileCheck-22     llvm-22-tools"
)
# Programs clang++-22 itself spawns to link HIP executables: looked up where clang looks.
clang_tools=(
  "ld.lld                 lld-22"
  "clang-offload-bundler  clang-tools-22"
)
# file  package
files=(
  "/usr/include/catch2/catch.hpp                 catch2"
  "/usr/include/benchmark/benchmark.h            libbenchmark-dev"
  "/usr/include/hip/hip_runtime.h                libamdhip64-dev"
  "/usr/lib/x86_64-linux-gnu/libamdhip64.so      libamdhip64-dev"
)

missing_packages=()
missing_what=()
need() {  # need <what is missing> <package>
  missing_what+=("$1 ($2)")
  case " ${missing_packages[*]} " in *" $2 "*) ;; *) missing_packages+=("$2") ;; esac
}

# Where clang++-22 finds a tool it spawns: its own directory first, then PATH
# (-print-prog-name answers the bare name when it finds neither).
clang_tool_path() {
  local where
  where=$(clang++-22 -print-prog-name="$1" 2>/dev/null) || return 1
  [[ $where == /* ]] || where=$(command -v "$where" 2>/dev/null) || return 1
  [[ -x $where ]] && echo "$where"
}

check_all() {
  missing_packages=()
  missing_what=()
  local entry name package
  for entry in "${programs[@]}"; do
    read -r name package <<<"$entry"
    command -v "$name" >/dev/null 2>&1 || need "$name" "$package"
  done
  if command -v clang++-22 >/dev/null 2>&1; then
    for entry in "${clang_tools[@]}"; do
      read -r name package <<<"$entry"
      clang_tool_path "$name" >/dev/null || need "$name, which clang++-22 runs to link HIP programs" "$package"
    done
  else
    for entry in "${clang_tools[@]}"; do
      read -r name package <<<"$entry"
      need "$name" "$package"
    done
  fi
  for entry in "${files[@]}"; do
    read -r name package <<<"$entry"
    [[ -e $name ]] || need "$name" "$package"
  done
  # Modules the scripts import beyond the standard library: none (bench_plot.py's
  # matplotlib is optional and only used on the GPU machine).
  python3 -c "import argparse, json, re, shutil, statistics, subprocess" >/dev/null 2>&1 ||
    need "python3's standard library" python3
}

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "install-deps: not a Debian system; provide the equivalents of the packages listed in $0" >&2
  exit 0
fi

check_all
if ((${#missing_what[@]} == 0)); then
  exit 0
fi
echo "install-deps: missing: ${missing_what[*]}"
if ((check_only)); then
  echo "install-deps: packages to install: ${missing_packages[*]}"
  exit 1
fi

# A package that is installed but lacks one of its files is reinstalled; the others are
# installed.
fresh=() reinstall=()
for p in "${missing_packages[@]}"; do
  if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    reinstall+=("$p")
  else
    fresh+=("$p")
  fi
done
echo "install-deps: installing ${fresh[*]:-nothing new}; reinstalling ${reinstall[*]:-nothing}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
export DEBIAN_FRONTEND=noninteractive
# Where apt cannot reach a registry (an offline GPU machine), carry on: CMake then says in
# one line which part it cannot build, or stops with the name of what it needs.
apt() { $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null; }
if ! { $sudo apt-get update -qq &&
       { ((${#fresh[@]} == 0)) || apt "${fresh[@]}"; } &&
       { ((${#reinstall[@]} == 0)) || apt --reinstall "${reinstall[@]}"; }; }; then
  echo "install-deps: could not install ${missing_packages[*]}; continuing with what is here" >&2
  exit 0
fi
check_all
if ((${#missing_what[@]} > 0)); then
  echo "install-deps: still missing after installing: ${missing_what[*]}" >&2
fi
exit 0
