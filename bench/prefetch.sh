#!/usr/bin/env bash
# The prefetch-policy proof, measured in one go on one 4 GiB file (issue: prefetch policies):
# 1. the prefetch-overhead experiment (hot overhead of each policy, and the cold benefit);
# 2. mixed cases --prewarm 0.9 and 0.5, random 16 KiB x 16, threads 1 and 4;
# 3. fully warm: adaptive against plain mmap.
# Markdown/JSON go to bench/results/prefetch-*.
set -euo pipefail
cd "$(dirname "$0")/.."
FILE=${FILE:-/var/tmp/readbench-prefetch.dat}
made=0
[ -f "$FILE" ] || { ./readbench setup "$FILE" 4g; made=1; }
[ "${KEEP:-0}" = 1 ] || [ $made = 0 ] || trap 'rm -f "$FILE"' EXIT
R=bench/results
./readbench prefetch "$FILE" --ops "${OPS:-100000}" --output $R/prefetch-experiment.txt
MIXED=mmap-willneed,mmap-random-willneed,pread,mmap-backoff,mmap-random-backoff,mmap-adaptive,mmap-random-adaptive
for pw in 0.9 0.5; do
  ./readbench run "$FILE" --prewarm $pw --strategies $MIXED --threads 1,4 --warmup 0 --duration 1s \
    --iterations 3 --format markdown --output $R/prefetch-prewarm-$pw.md
done
./readbench run "$FILE" --prewarm 1 --strategies mmap,mmap-random,mmap-backoff,mmap-adaptive,mmap-random-adaptive \
  --threads 1,4 --warmup 500ms --duration 1s --iterations 5 --format markdown --output $R/prefetch-warm.md
