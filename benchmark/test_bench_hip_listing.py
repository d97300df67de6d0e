#!/usr/bin/env python3
"""tessera_bench_hip registers the low-precision suite: every fp8 / fp6 / MX MFMA configuration
Tessera ships (examples/mfma_lowp_configs.hpp) on every shape of the suite, under the group
its types name, and hipBLASLt beside each exactly when the build found hipBLASLt.

The expected names are written out here, not derived from the program, so that a
configuration dropped from the suite (or registered under the wrong group) fails the test.
Listing needs no GPU: registration happens before the device is looked for.

Usage: test_bench_hip_listing.py <tessera_bench_hip>
"""
import subprocess
import sys

# (group, Tessera implementation) per shipped configuration.
CONFIGS = [
    ("lowp942_e4m3fnuz_fp32", "tessera_baseline"),                       # Fp8Baseline942
    ("lowp942_e4m3fnuz_e5m2fnuz_tensor_bf16", "tessera_one_cluster"),    # Fp8OneCluster942
    ("lowp942_e5m2fnuz_e4m3fnuz_fp16_col", "tessera_one_cluster_16x16"),  # Fp8OneCluster16x942
    ("lowp942_e4m3fnuz_tensor_fp32_col", "tessera_two_clusters"),        # Fp8TwoClusters942
    ("lowp942_e5m2fnuz_fp32", "tessera_four_clusters"),                  # Fp8FourClusters942
    ("lowp950_mx_e4m3_fp32", "tessera_baseline"),                        # Mxfp8Baseline950
    ("lowp950_e5m2_e4m3_tensor_bf16", "tessera_one_cluster"),            # Fp8OneCluster950
    ("lowp950_mx_e4m3_e5m2_fp16_col", "tessera_one_cluster_16x16"),      # Mxfp8OneCluster16x950
    ("lowp950_mx_e4m3_fp32_col", "tessera_two_clusters"),                # Mxfp8TwoClusters950
    ("lowp950_mx_e2m1_bf16", "tessera_two_clusters"),                    # Mxfp4TwoClusters950
    ("lowp950_mx_e2m1_fp32", "tessera_one_cluster_16x16"),               # Mxfp4OneCluster16x950
    ("lowp950_mx_e2m3_fp32", "tessera_two_clusters"),                    # Mxfp6TwoClusters950
    ("lowp950_mx_e2m3_e4m3_fp16_col", "tessera_one_cluster_16x16"),      # Mxfp6Fp8OneCluster16x950
    ("lowp950_e5m2_e3m2_tensor_bf16", "tessera_baseline"),               # Fp8Bf6Baseline950
]
SHAPES = ["1024x1024x1024", "4096x4096x4096", "8192x8192x8192", "4096x14336x4096", "4096x7168x18432",
          "64x7168x2048", "4097x4095x4160"]


def listing(binary, *args):
    p = subprocess.run([binary, "--benchmark_list_tests", *args], capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        sys.exit(f"FAIL: {binary} {' '.join(args)} --benchmark_list_tests exited {p.returncode}\n{p.stderr}")
    names = {"/".join(line.split("/")[:3]) for line in p.stdout.splitlines() if line.strip()}
    return names, p.stderr


def main(binary):
    names, stderr = listing(binary, "--suite=lowp")
    with_hipblaslt = "hipBLASLt was not available at build time" not in stderr
    expected = set()
    for group, impl in CONFIGS:
        for shape in SHAPES:
            expected.add(f"{group}/{impl}/{shape}")
            if with_hipblaslt:
                expected.add(f"{group}/hipblaslt/{shape}")
    failures = [f"missing: {n}" for n in sorted(expected - names)]
    failures += [f"unexpected: {n}" for n in sorted(names - expected)]

    everything, _ = listing(binary, "--suite=all")
    if not expected <= everything:
        failures.append("--suite=all lacks some of the lowp entries")
    if not any(n.startswith(("fp32/", "fp16", "bf16")) for n in everything):
        failures.append("--suite=all lacks the classic suite")
    default, _ = listing(binary)
    if any(n.startswith("lowp") for n in default):
        failures.append("the default suites (classic) list lowp entries")

    if failures:
        print("\n".join(failures))
        return 1
    print(f"ok: {len(CONFIGS)} configurations x {len(SHAPES)} shapes listed"
          + (" with hipBLASLt beside each" if with_hipblaslt else " (no hipBLASLt in this build)"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
