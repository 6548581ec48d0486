#!/usr/bin/env bash
# The prefetch-policy proof, measured in one go on one 4 GiB file:
# 1. the prefetch-overhead experiment (a hint's cost when cached, its benefit when not);
# 2. the mixed cases --prewarm 0.9 and 0.5, random 16 KiB x 16, threads 1 and 4;
# 3. fully warm: the policies against plain mmap.
# The disk here drifts by tens of percent from minute to minute and a mixed run warms the
# file as it goes, so each case is one readbench run with --rounds (ROUNDS, default 3): every
# round in its own shuffled order, each cell from a fresh prewarm; medians are compared.
# EXPERIMENT=0 skips part 1. Results: bench/results/prefetch-* (the JSON of each case beside the summary,
# gzipped at the end as bench/results keeps its JSON: prefetch-*.json.gz).
set -euo pipefail
cd "$(dirname "$0")/.."
FILE=${FILE:-/var/tmp/readbench-prefetch.dat}
ROUNDS=${ROUNDS:-3}
made=0
[ -f "$FILE" ] || { ./readbench setup "$FILE" 4g; made=1; }
[ "${KEEP:-0}" = 1 ] || [ $made = 0 ] || trap 'rm -f "$FILE"' EXIT
R=bench/results
[ "${EXPERIMENT:-1}" = 0 ] || ./readbench prefetch "$FILE" --ops "${OPS:-100000}" --policies always,backoff,backoff-shared,backoff-nomincore,adaptive \
  --output $R/prefetch-experiment.txt
MIXED=mmap-willneed,mmap-random-willneed,pread,mmap-backoff,mmap-random-backoff,mmap-backoff-shared,mmap-random-backoff-shared,mmap-adaptive,mmap-random-adaptive
WARM=mmap,mmap-random,mmap-backoff,mmap-random-backoff,mmap-backoff-shared,mmap-adaptive,mmap-random-adaptive
for pw in 0.9 0.5; do
  echo "== prewarm $pw $(date -u +%H:%M)" >&2
  ./readbench run "$FILE" --prewarm $pw --strategies $MIXED --threads 1,4 --warmup 0 --duration 2s \
    --iterations 1 --rounds "$ROUNDS" --format json --quiet --output "$R/prefetch-mixed-$pw.json"
done
echo "== warm $(date -u +%H:%M)" >&2
./readbench run "$FILE" --prewarm 1 --strategies $WARM --threads 1,4 --warmup 500ms --duration 2s \
  --iterations 1 --rounds "$ROUNDS" --format json --quiet --output "$R/prefetch-warm-rounds.json"
python3 - "$R" > $R/prefetch-proof.md <<'PY'
import json, sys, os
R = sys.argv[1]
def load(name):
    d = json.load(open(os.path.join(R, name)))
    m = {}
    for x in d["results"]:
        assert x["status"] == "ok", x
        m[(x["strategy"], x["threads"])] = x
    return d["rounds"], m
def cell(x):
    lo, hi = x["ops_per_ms_ci"]
    return "%.2f (%.2f-%.2f)" % (x["ops_per_ms_median"], lo, hi)
rounds, _ = load("prefetch-mixed-0.9.json")
print("# prefetch policies: medians of %d rounds (readbench --rounds), ops/ms with 95%% interval (random 16 KiB x 16 per op, 4 GiB file)\n" % rounds)
for pw in ("0.9", "0.5"):
    _, m = load("prefetch-mixed-%s.json" % pw)
    med = {k: v["ops_per_ms_median"] for k, v in m.items()}
    print("## --prewarm %s\n" % pw)
    print("| strategy | T01 | T04 | residency after T01 / T04 |\n|---|---:|---:|---|")
    for s in ["mmap-willneed", "mmap-random-willneed", "pread", "mmap-backoff", "mmap-random-backoff",
              "mmap-backoff-shared", "mmap-random-backoff-shared", "mmap-adaptive", "mmap-random-adaptive"]:
        print("| %s | %s | %s | %.2f / %.2f |" % (s, cell(m[(s, 1)]), cell(m[(s, 4)]),
              m[(s, 1)]["residency_after"], m[(s, 4)]["residency_after"]))
    print()
    for t in (1, 4):
        best = max(med[("mmap-willneed", t)], med[("pread", t)])
        bestr = max(med[("mmap-random-willneed", t)], med[("pread", t)])
        a, ar = med[("mmap-adaptive", t)], med[("mmap-random-adaptive", t)]
        print("- T%02d: mmap-adaptive / max(mmap-willneed, pread) = %.2f (bar 0.90); mmap-random-adaptive / max(mmap-random-willneed, pread) = %.2f (bar 0.90)" % (t, a / best, ar / bestr))
        print("  mmap-adaptive / mmap-backoff = %.2f, / mmap-backoff-shared = %.2f; mmap-random-adaptive / mmap-random-backoff = %.2f, / mmap-random-backoff-shared = %.2f (bar at 0.9: 1.5)" % (
            a / med[("mmap-backoff", t)], a / med[("mmap-backoff-shared", t)], ar / med[("mmap-random-backoff", t)], ar / med[("mmap-random-backoff-shared", t)]))
    print()
_, m = load("prefetch-warm-rounds.json")
med = {k: v["ops_per_ms_median"] for k, v in m.items()}
print("## fully warm (--prewarm 1)\n")
print("| strategy | T01 | T04 |\n|---|---:|---:|")
for s in ["mmap", "mmap-random", "mmap-backoff", "mmap-random-backoff", "mmap-backoff-shared", "mmap-adaptive", "mmap-random-adaptive"]:
    print("| %s | %s | %s |" % (s, cell(m[(s, 1)]), cell(m[(s, 4)])))
print()
for t in (1, 4):
    print("- T%02d: mmap-adaptive / mmap = %.3f, mmap-random-adaptive / mmap-random = %.3f, mmap-backoff / mmap = %.3f, mmap-backoff-shared / mmap = %.3f (bar: within 5%%)" % (t,
          med[("mmap-adaptive", t)] / med[("mmap", t)], med[("mmap-random-adaptive", t)] / med[("mmap-random", t)],
          med[("mmap-backoff", t)] / med[("mmap", t)], med[("mmap-backoff-shared", t)] / med[("mmap", t)]))
PY
cat $R/prefetch-proof.md
gzip -9nf "$R/prefetch-mixed-0.9.json" "$R/prefetch-mixed-0.5.json" "$R/prefetch-warm-rounds.json"
