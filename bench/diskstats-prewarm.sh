#!/usr/bin/env bash
# Issue 23, prewarm 0.5 at one thread: what the device did in a cell of mmap and one of
# mmap-adaptive, from /proc/diskstats around each (reads completed, merged, bytes, the time
# with I/O in flight and the mean queue depth over it). Each cell is prepared by a null cell
# first, so its own preparation reads nothing (the cell's device bytes say so). One cell per
# strategy, ROUNDS alternations (default 3), mmap first. Run as the file's owner or root
# (mincore's counts are honest only then), on a quiet machine.
#   FILE=/var/tmp/rb1g.dat DEV=vda bash bench/diskstats-prewarm.sh
set -euo pipefail
cd "$(dirname "$0")/.."
F=${FILE:-/var/tmp/rb1g.dat}
DEV=${DEV:-vda}
[ -f "$F" ] || { echo "needs FILE (e.g. ./readbench setup /var/tmp/rb1g.dat 1g)"; exit 2; }
grep -q " $DEV " /proc/diskstats || { echo "no device $DEV in /proc/diskstats"; exit 2; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
snap() { awk -v d="$DEV" '$3==d{print $4, $5, $6, $7, $13, $14}' /proc/diskstats; }
for i in $(seq "${ROUNDS:-3}"); do
 for s in mmap mmap-adaptive; do
  ./readbench run "$F" --strategies null --prewarm 0.5 --duration 10ms --iterations 1 --warmup 0 --quiet >/dev/null 2>&1
  a=$(snap)
  ./readbench run "$F" --strategies "$s" --threads 1 --prewarm 0.5 --map-resident --iterations 3 --duration 1s --warmup 0 --format json --quiet > "$OUT/$s-$i.json" 2>/dev/null
  b=$(snap)
  python3 - "$s" "$a" "$b" "$OUT/$s-$i.json" <<'PY'
import sys,json
s=sys.argv[1]; a=list(map(int,sys.argv[2].split())); b=list(map(int,sys.argv[3].split()))
d=[y-x for x,y in zip(a,b)]
r=json.load(open(sys.argv[4]))['results'][0]
print("%-14s reads %6d merged %6d %5.0f MB, %5.1f KiB/req; busy %5d ms, depth %5.1f | cell device %4.0f MB, before %.3f, ops/ms %.2f" % (s, d[0], d[1], d[2]*512/1e6, d[2]*512/1024/max(d[0],1), d[4], d[5]/max(d[4],1), (r['device_read_bytes'] or 0)/1e6, r['residency_before'], r['ops_per_ms']))
if d[2] * 512 > 1.1 * (r['device_read_bytes'] or 0):
    print("    (the device read more than the cell's readers: its preparation reloaded the file, or another reader ran; not this cell's figures)")
PY
 done
done
