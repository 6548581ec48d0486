#!/usr/bin/env bash
# How the file got into the page cache changes what a warm mmap read costs. The same fully
# resident 1 GiB file, read through a fresh mapping (mmap) and with pread, 1 thread, after:
#   A  setup (written: the cache holds it in large folios),
#   B  --prewarm 0.99 (loaded with readahead off, so in 4 KiB folios, then 1% evicted),
#   C  B, then cat (the holes filled; the small folios stay small),
#   D  evicted, then cat (readahead: large folios again).
# FileHugePages (/proc/meminfo, system-wide) shows the folio sizes. Needs root for the evict.
set -euo pipefail
cd "$(dirname "$0")/.."
F=${FILE:-/var/tmp/readbench-folios.dat}
trap 'rm -f "$F"' EXIT
./readbench setup "$F" 1g --force >/dev/null
q() {
  ./readbench run "$F" "$@" --strategies mmap,pread --threads 1 --duration 1s --iterations 3 --warmup 0 \
    --format json --quiet | python3 -c '
import json, sys
for x in json.load(sys.stdin)["results"]:
    c = x["cpu_ns_per_read"]
    print("   %-6s %7.2f ops/ms  cpu/read user %6.0f ns sys %6.0f ns  minor faults %6d  resident %.3f" % (
        x["strategy"], x["ops_per_ms"], c["user"], c["sys"], x["minflt"], x["residency_before"]))'
  grep FileHugePages /proc/meminfo | sed 's/^/   /'
}
echo "A after setup, --prewarm 1"; q --prewarm 1
echo "B --prewarm 0.99"; q --prewarm 0.99
echo "C B, then cat"; cat "$F" > /dev/null; q --cache keep
echo "D evict, then cat"; ./readbench drop "$F"
cat "$F" > /dev/null; q --cache keep
