#!/usr/bin/env bash
# Issue 21's A/A protocol on separate runs of the real strategies: RUNS (default 6) runs of one
# configuration with --rounds 5, every pair through `readbench diff`, and the share of cell
# verdicts that say faster or slower (the bar: at most 1 in 20). Then a real 25% slowdown: for
# each strategy, runs with --think sized to a third of its mean op latency in the first A/A
# run (ops/ms falls to 1/(1 + 1/3) = 0.75), each diffed against one of the A/A runs; the bar
# is slower in at least 4 of 5 pairs. JSON and the tallies go to OUT (default /var/tmp/rb-aa).
#   FILE (default /var/tmp/rb-aa.dat, 1 GiB, made and removed when missing)
#   ARGS: the configuration (default: pread,mmap, one thread, warm, 3 x 300 ms per round)
set -euo pipefail
cd "$(dirname "$0")/.."
FILE=${FILE:-/var/tmp/rb-aa.dat}
OUT=${OUT:-/var/tmp/rb-aa}
RUNS=${RUNS:-6}
ARGS=${ARGS:-"--strategies pread,mmap --threads 1 --prewarm 1 --iterations 3 --duration 300ms --warmup 200ms"}
mkdir -p "$OUT"
made=0
[ -f "$FILE" ] || { ./readbench setup "$FILE" 1g >/dev/null 2>&1; made=1; }
trap '[ $made = 1 ] && rm -f "$FILE"' EXIT
echo "# A/A on separate runs: $(date -u +%FT%TZ), $(uname -r), $(nproc) cpus, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
echo "# readbench run $FILE $ARGS --rounds 5"
for i in $(seq 1 "$RUNS"); do
    # shellcheck disable=SC2086
    ./readbench run "$FILE" $ARGS --rounds 5 --quiet --format json --output "$OUT/aa-$i.json"
done
tally() {   # base new: the verdict words of a diff, one per line
    ./readbench diff "$1" "$2" --format json | python3 -c 'import json,sys; [print(c["strategy"], c["verdict"], c["ratio"], c["ratio_ci"]) for c in json.load(sys.stdin)["cells"]]'
}
n=0; moved=0
for i in $(seq 1 "$RUNS"); do for j in $(seq $((i + 1)) "$RUNS"); do
    while read -r s v rest; do
        n=$((n + 1)); case $v in faster|slower) moved=$((moved + 1)); echo "  A/A aa-$i aa-$j: $s $v $rest";; esac
    done < <(tally "$OUT/aa-$i.json" "$OUT/aa-$j.json")
done; done
echo "A/A: $moved of $n cell verdicts said faster or slower"
strategies=$(python3 -c 'import json,sys; print(" ".join(r["strategy"] for r in json.load(open(sys.argv[1]))["results"]))' "$OUT/aa-1.json")
for s in $strategies; do
    lat=$(python3 -c 'import json,sys; r=[r for r in json.load(open(sys.argv[1]))["results"] if r["strategy"]==sys.argv[2]][0]; print(int(r["lat_ns"]["mean"]))' "$OUT/aa-1.json" "$s")
    think=$((lat / 3))
    slower=0
    for i in 1 2 3 4 5; do
        # shellcheck disable=SC2086
        ./readbench run "$FILE" $(echo $ARGS | sed "s/--strategies [^ ]*/--strategies $s/") --think "${think}ns" --rounds 5 \
            --quiet --format json --output "$OUT/slow-$s-$i.json"
        v=$(tally "$OUT/aa-$i.json" "$OUT/slow-$s-$i.json" | awk -v s="$s" '$1 == s {print $2, $3, $4, $5}')
        echo "  25% slower $s (think ${think} ns) vs aa-$i: $v"
        case $v in slower*) slower=$((slower + 1));; esac
    done
    echo "25% slowdown, $s: called slower in $slower of 5 pairs"
done
