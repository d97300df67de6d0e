#!/usr/bin/env python3
"""Compact table of a tessera_bench JSON (scripts/device/small_m.sh prints it last): per group and
shape, the faster baseline's TFLOP/s, the floor's weights GB/s on decode shapes, and each Tessera
variant's ratio to the baseline (f = its fraction of the floor). Usage: small_m_table.py RESULTS.json"""
import json, sys, collections
d = json.load(open(sys.argv[1]))
med = collections.defaultdict(dict)
err = {}
for b in d["benchmarks"]:
    name = b.get("run_name", b["name"])
    if b.get("error_occurred"):
        err[name] = b.get("error_message", "")[:60]
        continue
    if b.get("aggregate_name") != "median":
        continue
    g, impl, shape = name.split("/")[:3]
    med[(g, shape)][impl] = b
impls = sorted({i for v in med.values() for i in v if "tessera" in i})
short = {i: i.replace("tessera_", "") for i in impls}
print("impls:", " ".join(f"{k}={n}" for k, n in enumerate(short.values())))
for (g, shape), v in med.items():
    base = max((b.get("TFLOP/s", 0) for i, b in v.items() if "tessera" not in i and i != "floor"), default=0)
    row = f"{g[4:]:>12} {shape:>16} base {base:7.1f}"
    if "floor" in v:
        row += f" floorGB/s {v['floor'].get('weights_GB/s', 0):6.0f}"
    for k, i in enumerate(impls):
        if i in v and base > 0:
            t = v[i].get("TFLOP/s", 0)
            row += f" {k}:{t / base:.2f}"
            if "floor_fraction" in v[i]:
                row += f"(f{v[i]['floor_fraction']:.2f})"
        elif f"{g}/{i}/{shape}" in err:
            row += f" {k}:-"
    print(row)
bad = {k: m for k, m in err.items() if "kErrorUnsupported" not in m}
print(f"errors: {len(err)} ({len(err) - len(bad)} unsupported-by-rule)")
for k, m in list(bad.items())[:20]:
    print("  ERR", k, m)
