#!/usr/bin/env bash
# Two rows compared over many separate runs of one round each, instead of rounds inside one run:
# each run is its own process, its cells prepared afresh, so the runs are independent replicates
# (what DESIGN.md asks of an A/A test), and a rare round (a collapse seen once in 15 rounds of
# issue 23's prewarm 0.5 cell) has N chances to show. The rows' order alternates run by run (a
# single round runs its cells in the order given). Per run: the ratio B/A of each iteration's
# ops/ms and of the whole cell's ops (all iterations); over the runs: the geometric mean with a
# t interval on the logarithms, how many runs B was below A, and every run where B's best
# iteration read under a fifth of A's (a collapse), listed with its iterations.
#   FILE=/var/tmp/rb1g.dat bench/separate-runs.sh           (mmap against mmap-adaptive, T1, 30 runs)
# BIN (./readbench), ROWS (mmap,mmap-adaptive: A,B), THREADS (1), RUNS (30), PREWARM (0.5),
# OUT (/var/tmp/rb-separate-runs-$$: one JSON per run, kept; delete it after).
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")/.."
FILE=${FILE:-/var/tmp/rb1g.dat}
BIN=${BIN:-./readbench}
ROWS=${ROWS:-mmap,mmap-adaptive}
THREADS=${THREADS:-1}
RUNS=${RUNS:-30}
PREWARM=${PREWARM:-0.5}
OUT=${OUT:-/var/tmp/rb-separate-runs-$$}
[ -f "$FILE" ] || { echo "needs FILE (e.g. ./readbench setup /var/tmp/rb1g.dat 1g)"; exit 2; }
A=${ROWS%%,*}
B=${ROWS#*,}
mkdir -p "$OUT"
for i in $(seq 1 "$RUNS"); do
    if [ $((i % 2)) = 1 ]; then order="$A,$B"; else order="$B,$A"; fi
    "$BIN" run "$FILE" --strategies "$order" --prewarm "$PREWARM" --threads "$THREADS" --read-size 16k \
        --reads-per-op 16 --rounds 1 --iterations 3 --duration 1s --map-resident --seed "$i" --format json --quiet \
        --output "$OUT/run$i.json" 2> "$OUT/run$i.err" || echo "run $i: exit $? ($(tail -1 "$OUT/run$i.err"))"
done
python3 - "$OUT" "$A" "$B" <<'PY'
import glob, json, math, statistics, sys
out, a_name, b_name = sys.argv[1:4]
T975 = {n: t for n, t in [(1, 12.71), (2, 4.303), (3, 3.182), (4, 2.776), (5, 2.571), (9, 2.262), (19, 2.093),
                          (29, 2.045), (39, 2.023), (59, 2.001)]}
def t975(df):
    return T975.get(df) or T975[min((k for k in T975 if k >= df), default=59)]
def summary(x):
    lg = [math.log(v) for v in x]
    mu = statistics.mean(lg)
    h = t975(len(lg) - 1) * statistics.stdev(lg) / math.sqrt(len(lg)) if len(lg) > 1 else float("nan")
    return "%.3f [%.3f, %.3f], below 1 in %d of %d" % (math.exp(mu), math.exp(mu - h), math.exp(mu + h),
                                                        sum(v < 1 for v in x), len(x))
its, whole, collapses = None, [], []
for f in sorted(glob.glob(out + "/run*.json"), key=lambda s: int(s.rsplit("run", 1)[1].split(".")[0])):
    cells = {c["strategy"]: c for c in json.load(open(f))["results"]}
    a, b = cells[a_name], cells[b_name]
    if a["status"] != "ok" or b["status"] != "ok":
        print("%s: a cell did not run (%s, %s)" % (f, a["status"], b["status"]))
        continue
    sa, sb = a["samples"], b["samples"]
    its = its or [[] for _ in sa]
    for k in range(len(sa)):
        if sa[k] > 0 and sb[k] > 0: its[k].append(sb[k] / sa[k])
    whole.append(sum(sb) / sum(sa))
    if max(sb) < 0.2 * max(sa): collapses.append("%s: %s %s, %s %s" % (f, a_name, sa, b_name, sb))
for k, x in enumerate(its or []):
    print("iteration %d: %s/%s %s" % (k + 1, b_name, a_name, summary(x)))
print("whole cell:  %s/%s %s" % (b_name, a_name, summary(whole)))
print("collapses (%s's best iteration under a fifth of %s's): %d" % (b_name, a_name, len(collapses)))
for c in collapses: print("  " + c)
PY
