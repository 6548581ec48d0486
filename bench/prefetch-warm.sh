#!/usr/bin/env bash
# Hot-case overhead of the policies against plain mmap, more precisely than prefetch.sh's
# three rounds: ROUNDS (default 10) rounds of 1 s cells on a fully cached file (readbench
# --rounds: each round in its own shuffled order), medians. Identical strategies differ by
# 10-15% between single cells on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
FILE=${FILE:-/var/tmp/readbench-prefetch.dat}
ROUNDS=${ROUNDS:-10}
[ -f "$FILE" ] || { echo "needs FILE (a setup file)"; exit 2; }
RAW=$(mktemp -d)
./readbench run "$FILE" --prewarm 1 --strategies mmap,mmap-adaptive,mmap-random,mmap-random-adaptive,mmap-backoff \
  --threads 1,4 --warmup 200ms --duration 1s --iterations 1 --rounds "$ROUNDS" --format json --quiet --output "$RAW/w.json"
python3 - "$RAW" "$ROUNDS" <<'PY'
import json, sys, os
m = {(x["strategy"], x["threads"]): x["ops_per_ms_median"]
     for x in json.load(open(os.path.join(sys.argv[1], "w.json")))["results"]}
print("# fully warm, medians of %s interleaved rounds, ops/ms\n" % sys.argv[2])
print("| strategy | T01 | T04 |\n|---|---:|---:|")
for s in ["mmap", "mmap-adaptive", "mmap-random", "mmap-random-adaptive", "mmap-backoff"]:
    print("| %s | %.2f | %.2f |" % (s, m[(s, 1)], m[(s, 4)]))
print()
for t in (1, 4):
    print("- T%02d: mmap-adaptive / mmap = %.3f; mmap-random-adaptive / mmap-random = %.3f; mmap-backoff / mmap = %.3f" % (
        t, m[("mmap-adaptive", t)] / m[("mmap", t)], m[("mmap-random-adaptive", t)] / m[("mmap-random", t)],
        m[("mmap-backoff", t)] / m[("mmap", t)]))
PY
rm -rf "$RAW"
