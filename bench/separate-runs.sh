#!/usr/bin/env bash
# Two rows compared over many separate runs of one round each, instead of rounds inside one run:
# each run is its own process, its cells prepared afresh, so the runs are independent replicates
# (README: an A/A test runs twice, not a file against itself), and a rare round (a collapse
# seen once in 15 rounds of issue 23's prewarm 0.5 cell) has N chances to show. A single round
# runs its cells in the order given, so the order alternates run by run (ORDER=given keeps A
# first). Per run: the ratio B/A of each iteration's ops/ms, of the median of the iterations
# (what a rounds run pairs in each round: rb_paired_ratio's statistic) and of the whole cell's
# ops (all iterations); over the runs: the geometric mean with a t interval on the logarithms,
# how many runs B was below A, the median's and the whole cell's split by which row ran first
# (a position effect shows there; the alternation averages it out), and every run where B's
# best iteration read under a fifth of A's (a collapse). Every run's figures go to OUT/runs.tsv.
#   FILE=/var/tmp/rb1g.dat bench/separate-runs.sh           (mmap against mmap-adaptive, T1, 30 runs)
# BIN (./readbench), ROWS (mmap,mmap-adaptive: A,B; an A/A test: ROWS='mmap,mmap#2'), THREADS (1:
# one count), RUNS (30), PREWARM (0.5), SEED0 (0: run i uses offsets seed SEED0 + i), ORDER
# (alternate), OUT (/var/tmp/rb-separate-runs-$$: its run*.json replaced; delete it after).
# HOG=auto:1.1 (issue 23's hog case, with PREWARM=0.9): each run evicts FILE, then runs with
# --hog HOG inside a child memory cgroup of this shell's own (MEMCG_BYTES: 9/8 of the file + 64 MiB;
# cgroup v1 or v2, root only), so that the hog pins inside it and the host keeps its memory; the
# cgroup is removed after each run (and on exit); MemAvailable's minimum over the set is printed.
# RA=N: the set runs with /sys/block/$DEV/queue/read_ahead_kb (DEV: vda) at N, holding the
# exclusive lock /var/tmp/rb-readahead.lock (as bench/adaptive-bars.sh does), set back on exit
# and on a signal; without RA the shared lock is held, so that no other script changes it.
set -euo pipefail
SELF=$(readlink -f "$0")
cd "$(dirname "$SELF")/.."
FILE=${FILE:-/var/tmp/rb1g.dat}
BIN=${BIN:-./readbench}
ROWS=${ROWS:-mmap,mmap-adaptive}
THREADS=${THREADS:-1}
RUNS=${RUNS:-30}
PREWARM=${PREWARM:-0.5}
SEED0=${SEED0:-0}
ORDER=${ORDER:-alternate}
OUT=${OUT:-/var/tmp/rb-separate-runs-$$}
HOG=${HOG:-}
RA=${RA:-}
DEV=${DEV:-vda}
RAF=/sys/block/$DEV/queue/read_ahead_kb
LOCK=/var/tmp/rb-readahead.lock
[ -f "$FILE" ] || { echo "needs FILE (e.g. ./readbench setup /var/tmp/rb1g.dat 1g)"; exit 2; }
A=${ROWS%%,*}
B=${ROWS#*,}
case "$B" in *,*|"$A"|"") echo "ROWS must name two different rows, A,B (not '$ROWS')"; exit 2 ;; esac
case "$THREADS" in *[!0-9]*|"") echo "THREADS must be one thread count (not '$THREADS')"; exit 2 ;; esac
case "$ORDER" in alternate|given) ;; *) echo "ORDER must be alternate or given (not '$ORDER')"; exit 2 ;; esac
case "$RA" in *[!0-9]*) echo "RA must be a read_ahead_kb value (not '$RA')"; exit 2 ;; esac
if [ -z "${RB_SR_LOCKED:-}" ]; then
    export RB_SR_LOCKED=1
    if [ -n "$RA" ]; then exec flock -x "$LOCK" "$SELF" "$@"; else exec flock -s "$LOCK" "$SELF" "$@"; fi
fi
mkdir -p "$OUT"
rm -f "$OUT"/run*.json "$OUT"/run*.err
CG= W= WAS=
[ -z "$RA" ] || WAS=$(cat "$RAF")   # only a set that changes it needs the device (DEV)
cleanup() {
    set +e
    [ -z "$W" ] || kill "$W" 2>/dev/null
    [ -z "$CG" ] || [ ! -d "$CG" ] || rmdir "$CG" || echo "HOG: $CG left behind (busy)"
    if [ -n "$RA" ]; then echo "$WAS" > "$RAF"; echo "read_ahead_kb back to $(cat "$RAF")"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
if [ -n "$RA" ]; then echo "$RA" > "$RAF"; echo "read_ahead_kb $WAS -> $(cat "$RAF") for this set"; fi
if [ -n "$HOG" ]; then
    [ "$(id -u)" = 0 ] || { echo "HOG needs root (a child memory cgroup)"; exit 2; }
    SIZE=$(stat -c %s "$FILE")
    MEMCG_BYTES=${MEMCG_BYTES:-$((SIZE / 8 * 9 + (64 << 20)))}
    . "$(dirname "$SELF")/cgroup.sh"
    where=$(memcg_where "rb-separate-$$") || { echo "HOG: no child memory cgroup (above: why)"; exit 2; }
    CG=${where% *} LIMIT=${where##* }
    (while sleep 2; do awk '/MemAvailable/ {print $2}' /proc/meminfo; done) > "$OUT/memavail" &
    W=$!
fi
RAS=$(for d in /sys/block/*; do case ${d##*/} in loop*|ram*|zram*) ;; *) printf '%s ' "${d##*/}=$(cat "$d/queue/read_ahead_kb")" ;; esac; done)
echo "# $(date -u +%FT%TZ) $(uname -r) read_ahead_kb ${RAS:-unknown}" \
     "FILE=$FILE ROWS=$ROWS THREADS=$THREADS RUNS=$RUNS PREWARM=$PREWARM SEED0=$SEED0 ORDER=$ORDER${HOG:+ HOG=$HOG MEMCG_BYTES=$MEMCG_BYTES} OUT=$OUT"
for i in $(seq 1 "$RUNS"); do
    if [ "$ORDER" = given ] || [ $((i % 2)) = 1 ]; then order="$A,$B"; else order="$B,$A"; fi
    args=(run "$FILE" --strategies "$order" --prewarm "$PREWARM" --threads "$THREADS" --read-size 16k
          --reads-per-op 16 --rounds 1 --iterations 3 --duration 1s --map-resident --seed $((SEED0 + i))
          --format json --quiet --output "$OUT/run$i.json")
    if [ -n "$HOG" ]; then
        # evicted first: the pages the cells' prewarms load are then charged inside the cgroup
        "$BIN" drop "$FILE" > /dev/null 2> "$OUT/run$i.err" || { echo "run $i: FILE not evicted ($(tail -1 "$OUT/run$i.err"))"; continue; }
        mkdir "$CG" && echo "$MEMCG_BYTES" > "$CG/$LIMIT" || { echo "run $i: the memory cgroup $CG not made"; exit 1; }
        (echo "$BASHPID" > "$CG/cgroup.procs" && exec "$BIN" "${args[@]}" --hog "$HOG") 2> "$OUT/run$i.err" ||
            echo "run $i: exit $? ($(tail -1 "$OUT/run$i.err"))"
        rmdir "$CG" || { echo "run $i: $CG left behind (busy)"; exit 1; }
    else
        "$BIN" "${args[@]}" 2> "$OUT/run$i.err" || echo "run $i: exit $? ($(tail -1 "$OUT/run$i.err"))"
    fi
done
[ -z "$HOG" ] || echo "host MemAvailable at least $(sort -n "$OUT/memavail" | head -1) kB during the set"
[ -z "$RA" ] || [ "$(cat "$RAF")" = "$RA" ] || echo "warning: read_ahead_kb is $(cat "$RAF") at the set's end, not $RA"
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
its, med, whole, first, collapses, dropped = [[], [], []], [], [], {a_name: [[], []], b_name: [[], []]}, [], 0
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
    ma, mb = statistics.median(sa), statistics.median(sb)
    if ma > 0 and mb > 0: med.append(mb / ma)
    if sum(sa) > 0 and sum(sb) > 0:
        whole.append(sum(sb) / sum(sa))
        first[lead][0].append(mb / ma if ma > 0 and mb > 0 else None)
        first[lead][1].append(sum(sb) / sum(sa))
for k, x in enumerate(its):
    if x: print("iteration %d: %s/%s %s" % (k + 1, b_name, a_name, summary(x)))
print("median of the iterations (the bars' statistic): %s/%s %s" % (b_name, a_name, summary(med)))
print("whole cell:  %s/%s %s" % (b_name, a_name, summary(whole)))
for lead in (a_name, b_name):
    m = [v for v in first[lead][0] if v]
    if first[lead][1]:
        print("  %s first: median %s; whole cell %s" % (lead, summary(m), summary(first[lead][1])))
if dropped: print("iterations left out (a row read nothing in them): %d" % dropped)
print("collapses (%s's best iteration under a fifth of %s's): %d" % (b_name, a_name, len(collapses)))
for c in collapses: print("  " + c)
PY
