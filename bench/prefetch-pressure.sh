#!/usr/bin/env bash
# The mixed case under memory pressure: --hog auto:1.1 --prewarm 0.9 (the file 1.1x the memory
# left once the hog is pinned, 90% resident at the start), where read-around on a NORMAL mapping
# evicts what other reads need. One readbench run with --rounds (ROUNDS, default 2): its JSON
# in bench/results/prefetch-pressure.json.gz (gzipped at the end), the table beside it (.md).
# Needs root for the hog's mlock beyond RLIMIT_MEMLOCK.
set -euo pipefail
cd "$(dirname "$0")/.."
FILE=${FILE:-/var/tmp/readbench-prefetch.dat}
ROUNDS=${ROUNDS:-2}
R=bench/results
made=0
[ -f "$FILE" ] || { ./readbench setup "$FILE" 4g; made=1; }
[ "${KEEP:-0}" = 1 ] || [ $made = 0 ] || trap 'rm -f "$FILE"' EXIT
./readbench run "$FILE" --hog auto:1.1 --prewarm 0.9 \
  --strategies mmap-willneed,pread,mmap-backoff,mmap-random-backoff,mmap-backoff-shared,mmap-adaptive,mmap-random-adaptive \
  --threads 1,4 --warmup 0 --duration 2s --iterations 1 --rounds "$ROUNDS" --format json --quiet \
  --output "$R/prefetch-pressure.json"
python3 - "$R/prefetch-pressure.json" > "$R/prefetch-pressure.md" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("# --hog auto:1.1 --prewarm 0.9: medians of %d rounds (readbench --rounds), ops/ms with 95%% interval (random 16 KiB x 16 per op, 4 GiB file)\n" % d["rounds"])
print("| strategy | threads | ops/ms | residency before / after | amplification |\n|---|---:|---|---|---:|")
for x in d["results"]:
    if x["status"] != "ok":
        print("| %s | %d | %s: %s | | |" % (x["strategy"], x["threads"], x["status"], x["reason"]))
        continue
    print("| %s | %d | %.2f (%.2f-%.2f) | %.3f / %.3f | %.1f |" % (x["strategy"], x["threads"], x["ops_per_ms_median"], *x["ops_per_ms_ci"],
          x["residency_before"], x["residency_after"], x["read_amplification"] or 0))
PY
cat "$R/prefetch-pressure.md"
gzip -9nf "$R/prefetch-pressure.json"
