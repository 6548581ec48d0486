#!/usr/bin/env bash
# Issue 14's bars for mmap-adaptive, paired by round (readbench --rounds: each cell against the
# best other strategy of its column, the ratio taken within each round, so that the machine's
# minute-to-minute drift cancels). Four cases on FILE (a setup file, 4 GiB in the issue), 16 KiB
# x 16 random reads, 1 and 4 threads, ROUNDS rounds (default 5) of 3 x 1 s iterations:
#   prewarm 0.9, prewarm 0.5: mmap-adaptive against the best of mmap, mmap-backoff, mmap-willneed
#   hog: --hog auto:1.1 --prewarm 0.9, inside a child memory cgroup of MEMCG_BYTES (default
#        4.5 GiB; cgroup v1 or v2, root only) so that the hog pins a little, not most of the host
#   warm: --prewarm 1, mmap-adaptive against mmap (bar 0.97)
# JSON per case in OUT (default bench/results; gzipped at the end, .json.gz, as bench/results
# keeps its JSON), then one line per case and thread count; the bar
# is judged at one thread (pass: the whole interval at or above it, miss: below), T04 reported.
set -euo pipefail
cd "$(dirname "$0")/.."
FILE=${FILE:-/var/tmp/rb4g.dat}
ROUNDS=${ROUNDS:-5}
OUT=${OUT:-bench/results}
STAMP=${STAMP:-$(date -u +%Y-%m-%d)}
MEMCG_BYTES=${MEMCG_BYTES:-4831838208}
CASES=${CASES:-"0.9 0.5 hog warm"}
[ -f "$FILE" ] || { echo "needs FILE (e.g. ./readbench setup /var/tmp/rb4g.dat 4g)"; exit 2; }
THREE=mmap,mmap-backoff,mmap-willneed,mmap-adaptive
COMMON=(--threads 1,4 --read-size 16k --reads-per-op 16 --rounds "$ROUNDS" --iterations 3 --duration 1s
        --format json --quiet)

# A child memory cgroup for the hog case; its path on stdout, nothing when none can be made.
memcg() {
    local d
    if [ -w /sys/fs/cgroup/memory ]; then
        d=/sys/fs/cgroup/memory/readbench-bars
        mkdir -p "$d" && echo "$MEMCG_BYTES" > "$d/memory.limit_in_bytes" && echo "$d"
    elif [ -w /sys/fs/cgroup/cgroup.subtree_control ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers; then
        d=/sys/fs/cgroup/readbench-bars
        mkdir -p "$d" && echo "$MEMCG_BYTES" > "$d/memory.max" && echo "$d"
    fi
}

for c in $CASES; do
    case $c in
    warm) ./readbench run "$FILE" --strategies mmap,mmap-adaptive --prewarm 1 "${COMMON[@]}" \
              --output "$OUT/adaptive-bars-warm-$STAMP.json" ;;
    hog)  d=$(memcg)
          [ -n "$d" ] || { echo "hog: no memory cgroup can be made here (root, cgroup v1 or v2 memory)"; continue; }
          (echo $BASHPID > "$d/cgroup.procs" && exec ./readbench run "$FILE" --strategies "$THREE" --hog auto:1.1 \
              --prewarm 0.9 "${COMMON[@]}" --output "$OUT/adaptive-bars-hog-$STAMP.json")
          rmdir "$d" 2>/dev/null || echo "hog: $d left behind (busy)" ;;
    *)    ./readbench run "$FILE" --strategies "$THREE" --prewarm "$c" "${COMMON[@]}" \
              --output "$OUT/adaptive-bars-prewarm$c-$STAMP.json" ;;
    esac
done

python3 - "$OUT" "$STAMP" $CASES <<'PY'
import json, sys, os
out, stamp = sys.argv[1], sys.argv[2]
for c in sys.argv[3:]:
    name = {"warm": "warm", "hog": "hog"}.get(c, "prewarm" + c)
    p = os.path.join(out, "adaptive-bars-%s-%s.json" % (name, stamp))
    if not os.path.exists(p):
        continue
    d = json.load(open(p))
    bar = 0.97 if c == "warm" else 0.95
    for x in d["results"]:
        if x["strategy"] != "mmap-adaptive":
            continue
        q = x.get("paired")
        if not q:
            print("%-12s T%02d: not paired (%s)" % (name, x["threads"], x["status"]))
            continue
        lo, hi = q["ci"]
        verdict = "pass" if lo >= bar else "miss" if hi < bar else "inside the interval"
        if x["threads"] != 1:
            verdict = "reported: the bar is for one thread"
        print("%-12s T%02d: %.3f [%.3f, %.3f] of %s over %d rounds (bar %.2f: %s); medians %.3f vs %s" % (
            name, x["threads"], q["ratio"], lo, hi, q["with"], q["rounds"], bar, verdict, x["ops_per_ms_median"],
            ", ".join("%s %.3f" % (y["strategy"], y["ops_per_ms_median"]) for y in d["results"]
                      if y["threads"] == x["threads"] and y["strategy"] != "mmap-adaptive")))
PY
for c in $CASES; do
    case $c in warm | hog) n=$c ;; *) n=prewarm$c ;; esac
    if [ -f "$OUT/adaptive-bars-$n-$STAMP.json" ]; then gzip -9nf "$OUT/adaptive-bars-$n-$STAMP.json"; fi
done
