#!/usr/bin/env bash
# The four Lucene cases (and sequential-cold) on this machine, one markdown report each,
# into bench/results/. FILE defaults to a 4 GiB file under /var/tmp, made if missing and
# removed at the end unless KEEP=1.
set -euo pipefail
cd "$(dirname "$0")/.."
FILE=${FILE:-/var/tmp/readbench-scenarios.dat}
made=0
[ -f "$FILE" ] || { ./readbench setup "$FILE" 4g; made=1; }
[ "${KEEP:-0}" = 1 ] || [ $made = 0 ] || trap 'rm -f "$FILE"' EXIT
S=${STRATEGIES:-mmap,mmap-random,mmap-random-willneed,pread,io_uring}
for sc in warm pressure half-cold cold; do
  echo "== $sc" >&2
  ./readbench run "$FILE" --scenario $sc --strategies "$S" --threads 1,4 --warmup 0 --duration 1s \
    --iterations 3 --format markdown --output "bench/results/scenario-$sc.md"
done
echo "== sequential-cold" >&2
./readbench run "$FILE" --scenario sequential-cold --strategies mmap,mmap-sequential,pread,io_uring --threads 1 \
  --read-size 16k,64k,256k,1m --reads-per-op 16 --warmup 0 --duration 1s --iterations 3 --format markdown \
  --output bench/results/scenario-sequential-cold.md
