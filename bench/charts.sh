#!/bin/bash
# make charts: the sample SVG charts in bench/results, from measurements made now on this
# machine, and a PNG of each as headless chromium renders it (the check that a real browser
# draws them right) in bench/out/, which git ignores: bench/results keeps the SVGs only.
# A 1 GiB file under /var/tmp, removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
F=${F:-/var/tmp/readbench-charts.dat}
OUT=bench/results
PNG=bench/out
made=0
if [ ! -e "$F" ]; then ./readbench setup "$F" 1g; made=1; fi
trap '[ $made = 1 ] && rm -f "$F"' EXIT

# Every strategy, warm, threads 1 and 2 (this machine has 2 cores), log scale: null is 1000x
# the others and would flatten them on a linear axis.
./readbench run "$F" --scenario warm --threads 1,2 --warmup 500ms --duration 500ms --iterations 3 --quiet \
    --svg $OUT/chart-warm.svg --log --output $OUT/chart-warm.txt
# Half the pages resident: where prefetch policies part ways.
./readbench run "$F" --scenario half-cold --threads 1,2 --warmup 500ms --duration 1s --iterations 3 --quiet \
    --strategies mmap,mmap-random,mmap-willneed,mmap-random-willneed,mmap-backoff,mmap-random-backoff,mmap-adaptive,mmap-random-adaptive,pread,io_uring \
    --svg $OUT/chart-half-cold.svg --output $OUT/chart-half-cold.txt
./readbench prefetch "$F" --svg $OUT/chart-prefetch.svg --output $OUT/chart-prefetch.txt

if command -v chromium >/dev/null; then
    mkdir -p "$PNG"
    for s in warm half-cold prefetch; do
        svg=$OUT/chart-$s.svg
        w=$(sed -n 's/.*<svg [^>]*width="\([0-9]*\)" height="\([0-9]*\)".*/\1,\2/p' "$svg")
        chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="$w" \
            --screenshot="$PWD/$PNG/chart-$s.png" "file://$PWD/$svg" 2>/dev/null
    done
    ls -l $PNG/chart-*.png
else
    echo "charts: chromium is not installed; SVGs written, no PNG check" >&2
fi
ls -l $OUT/chart-*
