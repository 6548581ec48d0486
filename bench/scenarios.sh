#!/usr/bin/env bash
# The four Lucene cases (and sequential-cold) on this machine. Each scenario is one readbench
# run with --rounds (ROUNDS, default 2): every round runs the whole matrix in its own shuffled
# order and prepares each cell afresh, so the medians and 95% intervals absorb the disk's
# minute-to-minute drift. JSON per scenario in bench/results/scenario-<name>-rounds.json.gz
# (gzipped at the end, as bench/results keeps its JSON) and a summary table (median and
# interval, T01 / T04) in bench/results/scenario-rounds.md; a scenario not run this time is
# summarised from the JSON already there.
# FILE defaults to a 4 GiB file under /var/tmp, made if missing and removed at the end unless
# KEEP=1. SCENARIOS picks a subset (default: all five).
set -euo pipefail
cd "$(dirname "$0")/.."
FILE=${FILE:-/var/tmp/readbench-scenarios.dat}
ROUNDS=${ROUNDS:-2}
R=bench/results
made=0
[ -f "$FILE" ] || { ./readbench setup "$FILE" 4g; made=1; }
[ "${KEEP:-0}" = 1 ] || [ $made = 0 ] || trap 'rm -f "$FILE"' EXIT
S=${STRATEGIES:-mmap,mmap-random,mmap-random-willneed,pread,io_uring}
SC=${SCENARIOS:-warm pressure half-cold cold sequential-cold}
for sc in $SC; do
  echo "== $sc $(date -u +%H:%M)" >&2
  if [ "$sc" = sequential-cold ]; then
    ./readbench run "$FILE" --scenario $sc --strategies mmap,mmap-sequential,pread,io_uring --threads 1 \
      --read-size 16k,64k,256k,1m --reads-per-op 16 --duration 1s --iterations 3 --rounds "$ROUNDS" \
      --format json --quiet --output "$R/scenario-$sc-rounds.json"
  else
    ./readbench run "$FILE" --scenario $sc --strategies "$S" --threads 1,4 --duration 1s \
      --iterations 3 --rounds "$ROUNDS" --format json --quiet --output "$R/scenario-$sc-rounds.json"
  fi
done
for sc in $SC; do gzip -9nf "$R/scenario-$sc-rounds.json"; done
python3 bench/summarize.py $R/scenario-{warm,pressure,half-cold,cold}-rounds.json.gz > $R/scenario-rounds.md
cat $R/scenario-rounds.md
