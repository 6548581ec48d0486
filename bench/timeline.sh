#!/usr/bin/env bash
# Issue 24's timeline (--timeline, --cpu-probe): two measurements.
#  1. What sampling costs: PAIRS (default 6) pairs of the same run without and with --timeline
#     100ms, alternating which goes first; each cell's ops/ms with over without, per pair.
#  2. The cliff, issue 24's bar command: mmap, mmap-random and io_uring-qd-direct on a 4 GiB
#     file, 8 threads, --memory-limit 1g (a cgroup per cell, readers in a child inside it: the
#     host's memory is not pinned), --timeline 1s for 20 s: when the cache reaches the limit,
#     eviction unmaps pages and the TLB shootdowns rise (needs root and a memory controller).
# Holds the shared read-ahead lock and checks read_ahead_kb before and after (common brief).
# OUT (default /var/tmp/rb-timeline): JSON, the long CSV and the chart of the cliff.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/var/tmp/rb-timeline}; PAIRS=${PAIRS:-6}
SMALL=$OUT/f256
mkdir -p "$OUT"
[ -f "$SMALL" ] || ./readbench setup "$SMALL" 256m >/dev/null 2>&1
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
# 2. Issue 24's bar command as it stands: readbench makes a memory cgroup per cell itself
#    (--memory-limit), the readers run in a child inside it, and the timeline follows them.
#    The host's MemAvailable is logged every second beside it (no pinning: it should not move).
BIG=${BIG:-$OUT/f4g}
[ -f "$BIG" ] || ./readbench setup "$BIG" 4g >/dev/null 2>&1
( while :; do echo "$(date +%s.%N) $(awk '/MemAvailable/ {print $2}' /proc/meminfo)"; sleep 1; done ) > "$OUT/memavail.log" &
MON=$!
./readbench run "$BIG" --strategies mmap,mmap-random,io_uring-qd-direct --threads 8 --memory-limit 1g \
    --timeline 1s --duration 20s --format json --output "$OUT/limit.json" --timeline-csv "$OUT/limit.csv" \
    --timeline-svg "$OUT/limit.svg" --title 'readbench --timeline 1s: 4 GiB file, --memory-limit 1g, 8 threads' \
    2>"$OUT/limit.err" || echo "# the run failed: $(tail -1 "$OUT/limit.err")"
kill $MON
python3 - "$OUT" "$BIG" <<'PY'
import json, os, sys
out, big = sys.argv[1], sys.argv[2]
d = json.load(open(f"{out}/limit.json")); size = os.path.getsize(big)
mem = [int(l.split()[1]) * 1024 for l in open(f"{out}/memavail.log") if len(l.split()) == 2]
print(f"host MemAvailable during the run: {min(mem) / 2**30:.2f}-{max(mem) / 2**30:.2f} GiB ({len(mem)} samples)")
f = lambda v, k=1, fmt="%.0f": "-" if v is None else fmt % (v / k)
for r in d["results"]:
    lim = r.get("memory_limit") or {}
    for rd in r["timeline"]["rounds"]:
        p = rd["points"]
        res = [x["resident"] * size / 2**20 for x in p if x["resident"] is not None]
        ch = [x["charged_bytes"] / 2**20 for x in p if x.get("charged_bytes") is not None]
        print(f"{r['strategy']} round {rd['round']}: {len(p)} points; limit {f(lim.get('bytes'), 2**20)} MiB, peak charge "
              f"{f(lim.get('peak'), 2**20)} MiB, charged max {max(ch) if ch else float('nan'):.0f} MiB; resident max "
              f"{max(res) if res else float('nan'):.0f} MiB ({len(res)} counts, {rd['residency_s'] / max(len(res), 1) * 1e3:.0f} ms "
              f"of CPU each); steady {f(rd['steady_ops_per_ms'], 1, '%.4g')} ops/ms from {f(rd['steady_at_s'], 1, '%.1f')} s")
        for x in p:
            print("   t %5.1f  ops/ms %7.3f  majflt/s %7.0f  minflt/s %6.0f  dev MB/s %6.1f  resident %6s  charged MiB %5s  "
                  "TLB/s %5s  VmPTE KiB %5s  CPU us/read %6s" % (x["t_s"], x["ops_per_ms"], x["majflt_per_s"],
                  x["minflt_per_s"], x["device_bytes_per_s"] / 1e6, f(x["resident"], 0.01, "%.1f%%"),
                  f(x.get("charged_bytes"), 2**20), f(x["tlb_per_s"]), f(x["pte_bytes"], 1024), f(x["cpu_ns_per_read"], 1e3, "%.1f")))
PY
echo "# read_ahead_kb after: $(cat /sys/block/vda/queue/read_ahead_kb); load $(cut -d' ' -f1-3 /proc/loadavg)"
