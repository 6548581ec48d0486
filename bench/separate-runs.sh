#!/usr/bin/env bash
# Two rows compared over many separate runs of one round each, instead of rounds inside one run:
# each run is its own process, its cells prepared afresh, so the runs are independent replicates
# (README: an A/A test runs twice, not a file against itself), and a rare round (a collapse
# seen once in 15 rounds of issue 23's prewarm 0.5 cell) has N chances to show. A single round
# runs its cells in the order given, so the order alternates run by run (ORDER=given keeps A
# first). Per run: the ratio B/A of each iteration's ops/ms and of the whole cell's ops (all
# iterations); over the runs: the geometric mean with a t interval on the logarithms, how many
# runs B was below A, the same split by which row ran first, and every run where B's best
# iteration read under a fifth of A's (a collapse). Every run's figures go to OUT/runs.tsv.
#   FILE=/var/tmp/rb1g.dat bench/separate-runs.sh           (mmap against mmap-adaptive, T1, 30 runs)
# BIN (./readbench), ROWS (mmap,mmap-adaptive: A,B; an A/A test: ROWS='mmap,mmap#2'), THREADS (1:
# one count), RUNS (30), PREWARM (0.5), SEED0 (0: run i uses offsets seed SEED0 + i), ORDER
# (alternate), OUT (/var/tmp/rb-separate-runs-$$: its run*.json replaced; delete it after).
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")/.."
FILE=${FILE:-/var/tmp/rb1g.dat}
BIN=${BIN:-./readbench}
ROWS=${ROWS:-mmap,mmap-adaptive}
THREADS=${THREADS:-1}
RUNS=${RUNS:-30}
PREWARM=${PREWARM:-0.5}
SEED0=${SEED0:-0}
ORDER=${ORDER:-alternate}
OUT=${OUT:-/var/tmp/rb-separate-runs-$$}
[ -f "$FILE" ] || { echo "needs FILE (e.g. ./readbench setup /var/tmp/rb1g.dat 1g)"; exit 2; }
A=${ROWS%%,*}
B=${ROWS#*,}
case "$B" in *,*|"$A"|"") echo "ROWS must name two different rows, A,B (not '$ROWS')"; exit 2 ;; esac
case "$THREADS" in *[!0-9]*|"") echo "THREADS must be one thread count (not '$THREADS')"; exit 2 ;; esac
case "$ORDER" in alternate|given) ;; *) echo "ORDER must be alternate or given (not '$ORDER')"; exit 2 ;; esac
mkdir -p "$OUT"
rm -f "$OUT"/run*.json "$OUT"/run*.err
RA=$(for d in /sys/block/*; do case ${d##*/} in loop*|ram*|zram*) ;; *) printf '%s ' "${d##*/}=$(cat "$d/queue/read_ahead_kb")" ;; esac; done)
echo "# $(date -u +%FT%TZ) $(uname -r) read_ahead_kb ${RA:-unknown}" \
     "FILE=$FILE ROWS=$ROWS THREADS=$THREADS RUNS=$RUNS PREWARM=$PREWARM SEED0=$SEED0 ORDER=$ORDER"
for i in $(seq 1 "$RUNS"); do
    if [ "$ORDER" = given ] || [ $((i % 2)) = 1 ]; then order="$A,$B"; else order="$B,$A"; fi
    "$BIN" run "$FILE" --strategies "$order" --prewarm "$PREWARM" --threads "$THREADS" --read-size 16k \
        --reads-per-op 16 --rounds 1 --iterations 3 --duration 1s --map-resident --seed $((SEED0 + i)) \
        --format json --quiet --output "$OUT/run$i.json" 2> "$OUT/run$i.err" ||
        echo "run $i: exit $? ($(tail -1 "$OUT/run$i.err"))"
done
python3 - "$OUT" "$A" "$B" "$RUNS" <<'PY'
import json, math, os, statistics, sys
out, a_name, b_name, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
# t(0.975, df) for df 1-30, 40, 60, 120; between them the largest tabulated df below: wider, never narrower
T = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
     2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]
def t975(df):
    if df <= 30: return T[df - 1]
    return 2.042 if df < 40 else 2.021 if df < 60 else 2.000 if df < 120 else 1.980
def summary(x):
    if len(x) < 2: return "%d run%s: too few" % (len(x), "" if len(x) == 1 else "s")
    lg = [math.log(v) for v in x]
    mu, h = statistics.mean(lg), t975(len(lg) - 1) * statistics.stdev(lg) / math.sqrt(len(lg))
    return "%.3f [%.3f, %.3f], below 1 in %d of %d" % (math.exp(mu), math.exp(mu - h), math.exp(mu + h),
                                                        sum(v < 1 for v in x), len(x))
its, whole, first, collapses, dropped = [[], [], []], [], {a_name: [[], []], b_name: [[], []]}, [], 0
tsv = open(os.path.join(out, "runs.tsv"), "w")
tsv.write("run\tfirst\t%s it1\tit2\tit3\t%s it1\tit2\tit3\tA user ns/read\tA sys\tB user\tB sys\tA minflt\tB minflt"
          "\tA prewarm s\tB prewarm s\n" % (a_name, b_name))
for i in range(1, runs + 1):
    path = os.path.join(out, "run%d.json" % i)
    if not os.path.exists(path):
        print("run %d: no JSON" % i); continue
    doc = json.load(open(path))
    cells = {c["strategy"]: c for c in doc["results"]}
    a, b = cells[a_name], cells[b_name]
    if a["status"] != "ok" or b["status"] != "ok":
        print("run %d: a cell did not run (%s, %s)" % (i, a["status"], b["status"])); continue
    sa, sb, lead = a["samples"], b["samples"], doc["results"][0]["strategy"]
    cpu = [(c.get("cpu_ns_per_read") or {}) for c in (a, b)]
    tsv.write("\t".join([str(i), lead] + ["%.6g" % v for v in sa + sb] +
                        ["%.6g" % (x.get(k) or 0) for x in cpu for k in ("user", "sys")] +
                        [str(a["minflt"]), str(b["minflt"]), "%.3f" % a["prewarm_seconds"], "%.3f" % b["prewarm_seconds"]]) + "\n")
    if max(sb) < 0.2 * max(sa): collapses.append("run %d: %s %s, %s %s" % (i, a_name, sa, b_name, sb))
    for k in range(min(3, len(sa))):
        if sa[k] > 0 and sb[k] > 0: its[k].append(sb[k] / sa[k])
        else: dropped += 1
    if sum(sa) > 0 and sum(sb) > 0:
        whole.append(sum(sb) / sum(sa))
        first[lead][0].append(sb[1] / sa[1] if sa[1] > 0 and sb[1] > 0 else None)
        first[lead][1].append(sum(sb) / sum(sa))
for k, x in enumerate(its):
    if x: print("iteration %d: %s/%s %s" % (k + 1, b_name, a_name, summary(x)))
print("whole cell:  %s/%s %s" % (b_name, a_name, summary(whole)))
for lead in (a_name, b_name):
    it2 = [v for v in first[lead][0] if v]
    if first[lead][1]:
        print("  %s first: iteration 2 %s; whole cell %s" % (lead, summary(it2), summary(first[lead][1])))
if dropped: print("iterations left out (a row read nothing in them): %d" % dropped)
print("collapses (%s's best iteration under a fifth of %s's): %d" % (b_name, a_name, len(collapses)))
for c in collapses: print("  " + c)
PY
