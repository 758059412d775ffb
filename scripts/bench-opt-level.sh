#!/usr/bin/env bash
# What opt-level costs or saves (issue 15): the Lambda benchmark of some functions and of
# the floor, built with opt-level "z" (what `make package` ships; profile bench-local) and
# with opt-level 3 (profile bench-o3), one build after the other and both measured in this
# one run; prints cold and warm p50, peak memory and binary size side by side, and writes
# them to docs/bench/opt-level.md (OUT=<file> elsewhere).
#
#   scripts/bench-opt-level.sh [fn,fn]     (default: transactions,wallet,categories,auth)
#
# Neither profile uses cross-crate LTO (the shipped release profile adds fat LTO); both
# inherit Cargo.toml's package overrides (auth and users are built at 3 in every optimised
# profile, so compare them with those lines removed). The first run builds every function
# twice, about 10 minutes per profile on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
ONLY=${1:-transactions,wallet,categories,auth}
for profile in bench-local bench-o3; do
  echo "opt-level: building and measuring with profile $profile ..." >&2
  BENCH_LAMBDA_PROFILE=$profile scripts/bench-lambda.sh \
    --json "target/bench-report/opt-$profile.json" --only "$ONLY" > /dev/null
done
OUT=${OUT:-docs/bench/opt-level.md}
{
echo "# Opt-level: \"z\" against 3"
echo
echo "Written by \`scripts/bench-opt-level.sh $ONLY\` on $(date -u +%Y-%m-%d) at commit \`$(git rev-parse --short HEAD)\`" \
  "($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores): the Lambda benchmark" \
  "(20 cold starts, 300 warm invocations each, interleaved with the floor) of these functions built with profile" \
  "\`bench-local\` (opt-level \"z\") and \`bench-o3\` (opt-level 3), both without cross-crate LTO and with the" \
  "package overrides of \`Cargo.toml\`, measured one after the other in this run. Sizes unstripped."
echo
python3 - <<'PY'
import json, os
runs = {p: json.load(open(f"target/bench-report/opt-{p}.json")) for p in ("bench-local", "bench-o3")}
def size(profile, binary):
    path = f"{os.environ.get('CARGO_TARGET_DIR', 'target')}/{profile}/{binary}"
    return os.path.getsize(path) / 1048576 if os.path.exists(path) else float("nan")
print('| request | binary | cold p50 "z" | cold p50 3 | warm p50 "z" | warm p50 3 | VmHWM "z" | VmHWM 3 | size "z" | size 3 |')
print("|---|---|---|---|---|---|---|---|---|---|")
z, o3 = runs["bench-local"]["rows"], runs["bench-o3"]["rows"]
for a, b in zip(z, o3):
    assert (a["function"], a.get("request")) == (b["function"], b.get("request"))
    binary = a["function"]
    print(f"| {a.get('request') or 'floor: one GetItem'} | `{a['function']}` "
          f"| {a['cold_p50_ms']:.2f} ms | {b['cold_p50_ms']:.2f} ms "
          f"| {a['warm_p50_ms']:.2f} ms | {b['warm_p50_ms']:.2f} ms "
          f"| {a['vmhwm_kib'] / 1024:.1f} MiB | {b['vmhwm_kib'] / 1024:.1f} MiB "
          f"| {size('bench-local', binary):.2f} MiB | {size('bench-o3', binary):.2f} MiB |")
PY
} | tee "$OUT"
