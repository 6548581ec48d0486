#!/usr/bin/env bash
# The prefetch-policy proof, measured in one go on one 4 GiB file:
# 1. the prefetch-overhead experiment (a hint's cost when cached, its benefit when not);
# 2. the mixed cases --prewarm 0.9 and 0.5, random 16 KiB x 16, threads 1 and 4;
# 3. fully warm: the policies against plain mmap.
# The disk here drifts by tens of percent from minute to minute and a mixed run warms the
# file as it goes, so every case runs ROUNDS times, the strategies interleaved within a
# round, each cell from a fresh prewarm; medians are compared. Results: bench/results/prefetch-*.
set -euo pipefail
cd "$(dirname "$0")/.."
FILE=${FILE:-/var/tmp/readbench-prefetch.dat}
ROUNDS=${ROUNDS:-3}
made=0
[ -f "$FILE" ] || { ./readbench setup "$FILE" 4g; made=1; }
[ "${KEEP:-0}" = 1 ] || [ $made = 0 ] || trap 'rm -f "$FILE"' EXIT
R=bench/results
RAW=$(mktemp -d)
./readbench prefetch "$FILE" --ops "${OPS:-100000}" --output $R/prefetch-experiment.txt
MIXED=mmap-willneed,mmap-random-willneed,pread,mmap-backoff,mmap-random-backoff,mmap-adaptive,mmap-random-adaptive
WARM=mmap,mmap-random,mmap-backoff,mmap-random-backoff,mmap-adaptive,mmap-random-adaptive
for r in $(seq "$ROUNDS"); do
  for pw in 0.9 0.5; do
    ./readbench run "$FILE" --prewarm $pw --strategies $MIXED --threads 1,4 --warmup 0 --duration 2s \
      --iterations 1 --format json --quiet --output "$RAW/mixed-$pw-$r.json"
  done
  ./readbench run "$FILE" --prewarm 1 --strategies $WARM --threads 1,4 --warmup 500ms --duration 2s \
    --iterations 1 --format json --quiet --output "$RAW/warm-$r.json"
done
python3 - "$RAW" "$ROUNDS" > $R/prefetch-proof.md <<'PY'
import json, statistics, sys, glob, os
raw, rounds = sys.argv[1], int(sys.argv[2])
def med(case):
    v = {}
    for f in sorted(glob.glob(os.path.join(raw, case + "-*.json"))):
        for x in json.load(open(f))["results"]:
            assert x["status"] == "ok", x
            v.setdefault((x["strategy"], x["threads"]), []).append(x["ops_per_ms"])
    return {k: statistics.median(a) for k, a in v.items()}, {k: a for k, a in v.items()}
print("# prefetch policies: medians of %d interleaved rounds, ops/ms (random 16 KiB x 16 per op, 4 GiB file)\n" % rounds)
for pw in ("0.9", "0.5"):
    m, all_ = med("mixed-" + pw)
    print("## --prewarm %s\n" % pw)
    print("| strategy | T01 | T04 | T01 rounds | T04 rounds |\n|---|---:|---:|---|---|")
    for s in ["mmap-willneed", "mmap-random-willneed", "pread", "mmap-backoff", "mmap-random-backoff", "mmap-adaptive", "mmap-random-adaptive"]:
        print("| %s | %.2f | %.2f | %s | %s |" % (s, m[(s, 1)], m[(s, 4)], " ".join("%.2f" % v for v in all_[(s, 1)]), " ".join("%.2f" % v for v in all_[(s, 4)])))
    print()
    for t in (1, 4):
        best = max(m[("mmap-willneed", t)], m[("pread", t)])
        bestr = max(m[("mmap-random-willneed", t)], m[("pread", t)])
        a, ar = m[("mmap-adaptive", t)], m[("mmap-random-adaptive", t)]
        print("- T%02d: mmap-adaptive / max(mmap-willneed, pread) = %.2f (bar 0.90); mmap-random-adaptive / max(mmap-random-willneed, pread) = %.2f (bar 0.90)" % (t, a / best, ar / bestr))
        print("  mmap-adaptive / mmap-backoff = %.2f; mmap-random-adaptive / mmap-random-backoff = %.2f (bar at 0.9: 1.5)" % (a / m[("mmap-backoff", t)], ar / m[("mmap-random-backoff", t)]))
    print()
m, all_ = med("warm")
print("## fully warm (--prewarm 1)\n")
print("| strategy | T01 | T04 |\n|---|---:|---:|")
for s in ["mmap", "mmap-random", "mmap-backoff", "mmap-random-backoff", "mmap-adaptive", "mmap-random-adaptive"]:
    print("| %s | %.2f | %.2f |" % (s, m[(s, 1)], m[(s, 4)]))
print()
for t in (1, 4):
    print("- T%02d: mmap-adaptive / mmap = %.3f, mmap-random-adaptive / mmap-random = %.3f (bar: within 5%%)" % (t, m[("mmap-adaptive", t)] / m[("mmap", t)], m[("mmap-random-adaptive", t)] / m[("mmap-random", t)]))
PY
rm -rf "$RAW"
cat $R/prefetch-proof.md
