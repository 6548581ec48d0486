#!/usr/bin/env bash
# Issue 24's timeline (--timeline, --cpu-probe): two measurements.
#  1. What sampling costs: PAIRS (default 6) pairs of the same run without and with --timeline
#     100ms, alternating which goes first; each cell's ops/ms with over without, per pair.
#  2. The cliff: a cold run of mmap, mmap-random and pread on a 2 GiB file inside a child memory
#     cgroup (v1) limited to 1 GiB (the page cache the run loads is charged there and bounded:
#     the host's memory is not pinned), a point per second: when the cache reaches the limit,
#     eviction unmaps pages and the TLB shootdowns rise (needs root and a writable memory cgroup).
# Holds the shared read-ahead lock and checks read_ahead_kb before and after (common brief).
# OUT (default /var/tmp/rb-timeline): JSON, the long CSV and the chart of the cliff.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/var/tmp/rb-timeline}; PAIRS=${PAIRS:-6}
SMALL=$OUT/f256; BIG=$OUT/f2g
mkdir -p "$OUT"
[ -f "$SMALL" ] || ./readbench setup "$SMALL" 256m >/dev/null 2>&1
[ -f "$BIG" ] || ./readbench setup "$BIG" 2g >/dev/null 2>&1
exec 9>/var/tmp/rb-readahead.lock; flock -s 9
echo "# $(date -u +%FT%TZ) $(uname -r) $(nproc) cpus $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2); load $(cut -d' ' -f1-3 /proc/loadavg); read_ahead_kb $(cat /sys/block/vda/queue/read_ahead_kb)"
cat "$SMALL" >/dev/null   # warm
ARGS="--strategies mmap-random,pread --threads 2 --duration 1s --iterations 3 --warmup 1s --format json --quiet"
for i in $(seq 1 "$PAIRS"); do
    for k in 0 1; do
        if [ $(( (i + k) % 2 )) = 0 ]; then tag=off; tl=""; else tag=on; tl="--timeline 100ms"; fi
        # shellcheck disable=SC2086
        ./readbench run "$SMALL" $ARGS $tl > "$OUT/pair$i-$tag.json"
    done
done
python3 - "$OUT" "$PAIRS" <<'PY'
import json, statistics, sys
out, pairs = sys.argv[1], int(sys.argv[2])
ratios, cpu = {}, {}
for i in range(1, pairs + 1):
    a = json.load(open(f"{out}/pair{i}-off.json")); b = json.load(open(f"{out}/pair{i}-on.json"))
    for x, y in zip(a["results"], b["results"]):
        ratios.setdefault(x["strategy"], []).append(y["ops_per_ms"] / x["ops_per_ms"])
        r = y["timeline"]["rounds"][0]
        cpu.setdefault(x["strategy"], []).append((r["sampler_cpu_s"], r["residency_s"], r["points"][-1]["t_s"]))
for s, v in ratios.items():
    c = cpu[s]
    print(f"{s}: with/without --timeline 100ms per pair {' '.join('%.3f' % r for r in v)}; median {statistics.median(v):.3f}; "
          f"sampler CPU {statistics.median([a / t for a, _, t in c]) * 100:.1f}% of one CPU "
          f"(residency {statistics.median([b / t for _, b, t in c]) * 100:.1f}%)")
PY
CG=$(awk -F: '$2 == "memory" {print $3}' /proc/self/cgroup); CG=/sys/fs/cgroup/memory$CG/rb-timeline
if mkdir -p "$CG" 2>/dev/null && echo 1G > "$CG/memory.limit_in_bytes"; then
    sh -c "echo \$\$ > $CG/cgroup.procs; exec ./readbench run $BIG --strategies mmap,mmap-random,pread --threads 8 \
        --duration 20s --iterations 1 --warmup 0 --cache evict --timeline 1s --cpu-probe --format json \
        --output $OUT/cliff.json --timeline-csv $OUT/cliff.csv --timeline-svg $OUT/cliff.svg \
        --title 'readbench --timeline 1s: 2 GiB file, 1 GiB memory cgroup, 8 threads, cold'" 2>"$OUT/cliff.err"
    rmdir "$CG" 2>/dev/null || true
else
    echo "# the cliff needs a writable memory cgroup (v1) here: skipped"
fi
echo "# read_ahead_kb after: $(cat /sys/block/vda/queue/read_ahead_kb); load $(cut -d' ' -f1-3 /proc/loadavg)"
