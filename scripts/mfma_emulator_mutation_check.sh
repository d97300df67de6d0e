#!/usr/bin/env bash
# Proves the emulated MFMA tests can fail, schedule by schedule: builds them against a copy
# of the headers with one synchronisation removed and expects the emulator to report it
# (an LDS race, a barrier that never completes, or a wrong result). Exit 0 when every
# mutant FAILS. Needs a build directory configured with -DTESSERA_BUILD_MFMA_EMULATED=ON
# (the wave emulator, issue 8): scripts/mfma_emulator_mutation_check.sh [cmake args]
#
#   cond-barrier   the asymmetric sync's conditional barrier before the loop is dropped:
#                  the two wave groups no longer run one cluster apart, so the second
#                  group's barriers pair with the wrong ones (two, four clusters, async)
#   store-barrier  the barrier after each LDS store cluster is dropped: the next reads
#                  race with other waves' stores (none, one cluster)
#   cluster-barrier  the barrier after the four-cluster schedule's memory cluster 3 (the
#                  stores) is dropped: dot 3's partner group reads while stores land
#   async-wait     the async schedule waits for one ticket group less than it needs: the
#                  direct-to-LDS loads of the next tile have not landed when it is read
set -euo pipefail
cd "$(dirname "$0")/.."
# Extra arguments go to cmake (e.g. -DCMAKE_CXX_COMPILER=clang++-22).
cmake_args=("-DTESSERA_BUILD_MFMA_EMULATED=ON" "-DTESSERA_ENABLE_CUDA=OFF" "-DTESSERA_ENABLE_HIP=OFF" "$@")
schedule=include/tessera/schedule/amd_pingpong.hpp
fail=0

mutate() {  # mutate <name> <test tag> <old text> <new text>
  local name=$1 tag=$2 old=$3 new=$4
  local work
  work=$(mktemp -d)
  # A copy of the sources (not of any build directory), one header patched.
  git ls-files -z | xargs -0 -I{} cp --parents {} "$work/"
  python3 - "$work/$schedule" "$old" "$new" <<'PY'
import sys
path, old, new = sys.argv[1:4]
s = open(path).read()
if old not in s:
    sys.exit("mutation pattern not found: " + old)
open(path, "w").write(s.replace(old, new, 1))
PY
  cmake -S "$work" -B "$work/build" -G Ninja "${cmake_args[@]}" >/dev/null
  cmake --build "$work/build" --target test_mfma_emulated >/dev/null
  if "$work/build/test/emulator/test_mfma_emulated" "[$tag]" >"$work/log" 2>&1; then
    echo "MUTATION SURVIVED ($name): the [$tag] cases passed"; fail=1
  else
    echo "mutation caught ($name): $(grep -E 'test cases' "$work/log" | tail -1)"
  fi
}

mutate cond-barrier-four four "    ops.cond_barrier(ops.second_group());" "    (void)ops;"
mutate cond-barrier-two two "    ops.cond_barrier(ops.second_group());" "    (void)ops;"
mutate cond-barrier-async async "    ops.cond_barrier(ops.second_group());" "    (void)ops;"
mutate store-barrier baseline "    ops.template lds_store<Operand::kB, 0>();             // ticket B: the newest group
    ops.lds_barrier();" "    ops.template lds_store<Operand::kB, 0>();             // ticket B: the newest group"
mutate cluster-barrier-four four "    ops.template lds_store<Operand::kB, 0>();
    ops.lds_barrier();
    priority_dot<3>(ops);" "    ops.template lds_store<Operand::kB, 0>();
    priority_dot<3>(ops);"
mutate cluster-barrier-two two "    ops.template lds_store<Operand::kB, 0>();
    ops.lds_barrier();
    priority_dot<1>(ops);" "    ops.template lds_store<Operand::kB, 0>();
    priority_dot<1>(ops);"
mutate store-barrier-one one "    ops.template lds_store<Operand::kB, 0>();
    ops.lds_barrier();
  }
};

// ---- two and four clusters" "    ops.template lds_store<Operand::kB, 0>();
  }
};

// ---- two and four clusters"
mutate async-wait async "ops.template async_wait<Ops::kDirectA>();" "ops.template async_wait<Ops::kDirectA + Ops::kDirectB>();"
exit $fail
