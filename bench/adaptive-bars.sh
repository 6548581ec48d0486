#!/usr/bin/env bash
# Issue 23's bars for mmap-adaptive (the bandit), paired by round (readbench --rounds: each cell
# against the best other strategy of its column, the ratio taken within each round, so that the
# machine's minute-to-minute drift cancels; interval over rounds, rb_paired_ratio). Four cases on
# FILE (a setup file), 16 KiB x 16 random reads, 1 and 4 threads, ROUNDS rounds (default 5) of
# ITER (default 3) x 1 s iterations:
#   prewarm 0.9, prewarm 0.5: mmap-adaptive against the best of mmap, mmap-backoff, mmap-willneed
#   hog: --hog auto:1.1 --prewarm 0.9, inside a child memory cgroup (of this shell's own, so the
#        limits above it still hold) of MEMCG_BYTES (default 9/8 of the file + 64 MiB; cgroup v1
#        or v2, root only): the hog pins inside it, the host keeps its memory (MemAvailable is
#        sampled while it runs and its minimum printed)
#   warm: --prewarm 1, mmap-random-adaptive against mmap-random (bar 0.97)
# The bar is 0.90 (warm 0.97) at 1 and 4 threads: pass when the whole interval is at or above
# it, miss when all of it is below. Each adaptive row also prints its arms' shares of the calls
# and measured prices (ns per call), its switches and what exploring cost.
# Every cell starts with the file's cached pages mapped (--map-resident), as a long-running
# reader's mapping is: from a fresh mapping each first touch is a minor fault in the timed loop
# (10-35 us a page on this project's VMs), which a warm cell's first iteration pays and which
# decided the warm ratio more than the policy did.
# RA=N: run with /sys/block/$DEV/queue/read_ahead_kb at N (a second "machine"), holding the
# exclusive lock /var/tmp/rb-readahead.lock, restored on exit and on a signal; otherwise the
# shared lock is held and read_ahead_kb is checked before and after.
# SLOW_BPS=N (and SLOW_IOPS=N): a slower disk, a third "machine": the whole run in a child blkio
# cgroup of this shell's own that throttles reads from DEV to N bytes (and N reads) a second
# (cgroup v1 blkio.throttle.*, v2 io.max; root only), the shell moved back and the cgroup
# removed on exit; the results' names carry "-slowN".
# Each case also runs an A/A row (NAME#2: NAME again, paired with NAME's cell in each round),
# of the fixed row that won the case before (mmap at prewarm 0.9 and 0.5, mmap-willneed under the
# hog, mmap-random warm; AA=NAME for another row, in the cases that have it, AA=none for none):
# its ratio is the run's own resolution, what a gap must exceed before it says anything about
# the policy.
# STRATEGIES=a,b,... and THREADS=n,m replace the rows (the bars' four; warm keeps its two; no A/A
# row unless listed) and the thread counts (1,4), for a probe of one case.
# JSON per case in OUT (default bench/results; gzipped at the end).
set -euo pipefail
SELF=$(readlink -f "$0")
cd "$(dirname "$SELF")/.."
FILE=${FILE:-/var/tmp/rb4g.dat}
ROUNDS=${ROUNDS:-5}
ITER=${ITER:-3}
OUT=${OUT:-bench/results}
STAMP=${STAMP:-$(date -u +%Y-%m-%d)}
CASES=${CASES:-"0.9 0.5 hog warm"}
DEV=${DEV:-vda}
RA=${RA:-}
LOCK=/var/tmp/rb-readahead.lock
RAF=/sys/block/$DEV/queue/read_ahead_kb
[ -f "$FILE" ] || { echo "needs FILE (e.g. ./readbench setup /var/tmp/rb1g.dat 1g)"; exit 2; }
SIZE=$(stat -c %s "$FILE")
MEMCG_BYTES=${MEMCG_BYTES:-$((SIZE / 8 * 9 + (64 << 20)))}
SLOW_BPS=${SLOW_BPS:-}
SLOW_IOPS=${SLOW_IOPS:-}
TAG=${RA:+-ra$RA}${SLOW_BPS:+-slow$SLOW_BPS}
THREE=${STRATEGIES:-mmap,mmap-backoff,mmap-willneed,mmap-adaptive}
AA=${AA:-}
# The rows of a case: the bars' (or STRATEGIES), and its A/A row ($1, unless AA or STRATEGIES says).
rows() {
    local base=$2 aa=${AA:-$1}
    if [ -n "${STRATEGIES:-}" ] || [ "$aa" = none ]; then echo "$base"; return; fi
    case ",$base," in
    *",$aa,"*) echo "$base,$aa#2" ;;
    *) echo "AA=$aa is not a row of this case ($base): no A/A row here" >&2; echo "$base" ;;
    esac
}
COMMON=(--threads "${THREADS:-1,4}" --read-size 16k --reads-per-op 16 --rounds "$ROUNDS" --iterations "$ITER" --duration 1s --map-resident
        --format json --quiet)

# The lock first: exclusive while read_ahead_kb is changed (and set back on any exit), shared else.
if [ -z "${RB_BARS_LOCKED:-}" ]; then
    export RB_BARS_LOCKED=1
    if [ -n "$RA" ]; then exec flock -x "$LOCK" "$SELF" "$@"; else exec flock -s "$LOCK" "$SELF" "$@"; fi
fi
WAS=$(cat "$RAF")
if [ -n "$RA" ]; then
    trap 'echo "$WAS" > "$RAF"; echo "read_ahead_kb back to $(cat "$RAF")"' EXIT
    trap 'exit 130' INT TERM HUP
    echo "$RA" > "$RAF"
    echo "read_ahead_kb $WAS -> $(cat "$RAF") for this run"
else
    echo "read_ahead_kb $WAS"
fi

# The slower disk: this shell (and so every readbench it starts) into a child blkio cgroup
# throttled on DEV. The exit trap is set before the cgroup is made: read_ahead_kb back first
# (when RA is set too), the hog's MemAvailable sampler stopped, every process still in the
# cgroup moved back to the parent, then the cgroup removed, or said when it could not be.
# own_cg (this shell's own cgroup directory for a controller) and memcg_where.
. bench/cgroup.sh

W=
if [ -n "$SLOW_BPS" ]; then
    MAJMIN=$(cat "/sys/block/$DEV/dev")
    PARENT=$(own_cg blkio)
    SLOWCG=$PARENT/rb-slow-$$
    slow_cleanup() {
        set +e
        if [ -n "$RA" ]; then echo "$WAS" > "$RAF"; echo "read_ahead_kb back to $(cat "$RAF")"; fi
        [ -z "$W" ] || kill "$W" 2>/dev/null
        if [ -d "$SLOWCG" ]; then
            for pid in $(cat "$SLOWCG/cgroup.procs" 2>/dev/null); do echo "$pid" 2>/dev/null > "$PARENT/cgroup.procs"; done
            rmdir "$SLOWCG" && echo "slow disk: $SLOWCG removed" || echo "slow disk: $SLOWCG left behind (busy)"
        fi
    }
    trap slow_cleanup EXIT
    trap 'exit 130' INT TERM HUP
    mkdir "$SLOWCG"
    if [ -d /sys/fs/cgroup/blkio ]; then
        echo "$MAJMIN $SLOW_BPS" > "$SLOWCG/blkio.throttle.read_bps_device"
        [ -z "$SLOW_IOPS" ] || echo "$MAJMIN $SLOW_IOPS" > "$SLOWCG/blkio.throttle.read_iops_device"
    else
        echo "$MAJMIN rbps=$SLOW_BPS${SLOW_IOPS:+ riops=$SLOW_IOPS}" > "$SLOWCG/io.max"
    fi
    echo $$ > "$SLOWCG/cgroup.procs"
    echo "slow disk: reads from $DEV ($MAJMIN) throttled to $SLOW_BPS bytes/s${SLOW_IOPS:+ and $SLOW_IOPS reads/s} in $SLOWCG"
elif [ -n "$SLOW_IOPS" ]; then
    echo "SLOW_IOPS needs SLOW_BPS"; exit 2
fi

# A child memory cgroup of this shell's own for the hog case; its path on stdout, nothing when
# none can be made (memcg_where says why).
memcg() {
    local w
    w=$(memcg_where "rb-bars-$$") || return 0
    mkdir -p "${w% *}" && echo "$MEMCG_BYTES" > "${w% *}/${w##* }" && echo "${w% *}"
}

out() { echo "$OUT/adaptive-bars-$1$TAG-$STAMP.json"; }
for c in $CASES; do
    case $c in
    warm) ./readbench run "$FILE" --strategies "$(rows mmap-random mmap-random,mmap-random-adaptive)" --prewarm 1 "${COMMON[@]}" \
              --output "$(out warm)" || true ;;
    hog)  # The file's cached pages stay charged to the cgroup that read them in: evicted first, so
          # that the cells' prewarms load them inside the child (before 2026-12-02 they were still
          # charged to this shell's cgroup, and the limit held only the hog and the holes).
          ./readbench drop "$FILE" > /dev/null || { echo "hog: the file could not be evicted first: skipped"; continue; }
          d=$(memcg)
          [ -n "$d" ] || { echo "hog: no memory cgroup can be made here (root, cgroup v1 or v2 memory)"; continue; }
          echo "hog: in $d, limit $MEMCG_BYTES bytes; host MemAvailable $(awk '/MemAvailable/ {print $2}' /proc/meminfo) kB"
          (while sleep 2; do awk '/MemAvailable/ {print $2}' /proc/meminfo; done) > "$OUT/.memavail.$$" &
          w=$!
          W=$w
          (echo $BASHPID > "$d/cgroup.procs" && exec ./readbench run "$FILE" --strategies "$(rows mmap-willneed "$THREE")" --hog auto:1.1 \
              --prewarm 0.9 "${COMMON[@]}" --output "$(out hog)") || true
          kill "$w" 2>/dev/null || true
          W=
          echo "hog: host MemAvailable at least $(sort -n "$OUT/.memavail.$$" | head -1) kB while it ran"
          rm -f "$OUT/.memavail.$$"
          rmdir "$d" 2>/dev/null || echo "hog: $d left behind (busy)" ;;
    *)    ./readbench run "$FILE" --strategies "$(rows mmap "$THREE")" --prewarm "$c" "${COMMON[@]}" \
              --output "$(out "prewarm$c")" || true ;;
    esac
done
[ "$(cat "$RAF")" = "${RA:-$WAS}" ] || echo "warning: read_ahead_kb is $(cat "$RAF") after the run, not ${RA:-$WAS}"

python3 - "$OUT" "$STAMP" "$TAG" $CASES <<'PY'
import json, sys, os
out, stamp, tag = sys.argv[1], sys.argv[2], sys.argv[3]
for c in sys.argv[4:]:
    name = {"warm": "warm", "hog": "hog"}.get(c, "prewarm" + c)
    p = os.path.join(out, "adaptive-bars-%s%s-%s.json" % (name, tag, stamp))
    if not os.path.exists(p):
        continue
    d = json.load(open(p))
    bar = 0.97 if c == "warm" else 0.90
    for x in d["results"]:
        q = x.get("paired")
        if "#" in x["strategy"]:   # the A/A row: this case's resolution
            if q:
                print("%-12s T%02d: A/A %s %.3f [%.3f, %.3f] of %s over %d rounds: the run's own resolution" % (
                    name + tag, x["threads"], x["strategy"], q["ratio"], q["ci"][0], q["ci"][1], q["with"], q["rounds"]))
            continue
        if not x["strategy"].endswith("adaptive"):
            continue
        others = ", ".join("%s %.3f" % (y["strategy"], y.get("ops_per_ms_median") or 0) for y in d["results"]
                           if y["threads"] == x["threads"] and y["strategy"] != x["strategy"])
        if not q:
            print("%-12s T%02d: not paired (%s: %s)" % (name + tag, x["threads"], x["status"], x.get("reason")))
            continue
        lo, hi = q["ci"]
        verdict = "pass" if lo >= bar else "miss" if hi < bar else "inside the interval"
        print("%-12s T%02d: %.3f [%.3f, %.3f] of %s over %d rounds (bar %.2f: %s); medians %.3f vs %s" % (
            name + tag, x["threads"], q["ratio"], lo, hi, q["with"], q["rounds"], bar, verdict,
            x["ops_per_ms_median"], others))
        a = x.get("adaptive")
        if a:
            print("    arms (share of calls @ ns per call): " + ", ".join(
                "%s %.3f @ %s" % (k, v["share"], "-" if v["ns_per_call"] is None else "%.0f" % v["ns_per_call"])
                for k, v in a["arms"].items()) + "; %d switches, %d explorations costing %.2f%% of the time" % (
                a["switches"], a["explorations"], 100 * a["exploration_share"]) +
                ("; sweep depth %d" % a["sweep_depth"] if "sweep_depth" in a else ""))
PY
for c in $CASES; do
    case $c in warm | hog) n=$c ;; *) n=prewarm$c ;; esac
    if [ -f "$(out "$n")" ]; then gzip -9nf "$(out "$n")"; fi
done
