#!/usr/bin/env bash
# Issue 14's bar: readbench's io_uring-qd-direct at --iodepth 16 against fio's io_uring engine at
# iodepth 16, direct, 16 KiB random reads aligned to 4 KiB, one thread, on the same file. The two
# alternate (readbench, fio, readbench, ...) so the machine's drift hits both alike; each
# readbench turn is one --rounds 1 run of 3 x 1 s iterations (its median), each fio turn 5 s.
# Usage: bench/uring-vs-fio.sh FILE [ROUNDS]   (prints one line per turn, then the medians)
set -euo pipefail
f=${1:?usage: bench/uring-vs-fio.sh FILE [ROUNDS]}; n=${2:-5}
rb=$(dirname "$0")/../readbench
command -v fio >/dev/null || { echo "fio is not installed" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for i in $(seq 1 "$n"); do
  "$rb" run "$f" --strategies io_uring-qd-direct --iodepth 16 --reads-per-op 16 --threads 1 --read-size 16k \
    --align 4k --cache evict --iterations 3 --duration 1s --warmup 0 --seed "$i" --quiet --format json > "$tmp/rb$i.json"
  fio --name=qd16 --filename="$f" --ioengine=io_uring --iodepth=16 --direct=1 --bs=16k --blockalign=4k \
    --rw=randread --norandommap --time_based --runtime=5 --output-format=json > "$tmp/fio$i.json"
  python3 - "$tmp/rb$i.json" "$tmp/fio$i.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
f = json.load(open(sys.argv[2]))["jobs"][0]["read"]
print("turn: readbench %.0f reads/s (median %.3f ops/ms x %d)   fio %.0f reads/s" %
      (r["ops_per_ms_median"] * 1000 * r["reads_per_op"], r["ops_per_ms_median"], r["reads_per_op"], f["iops"]))
PY
done | tee "$tmp/turns"
python3 - "$tmp/turns" <<'PY'
import re, statistics, sys
rb, fio = [], []
for line in open(sys.argv[1]):
    a, b = re.findall(r"([0-9.]+) reads/s", line)
    rb.append(float(a)); fio.append(float(b))
print("median: readbench %.0f reads/s, fio %.0f reads/s, readbench/fio %.3f (turn ratios %s)" % (
    statistics.median(rb), statistics.median(fio), statistics.median(rb) / statistics.median(fio),
    ", ".join("%.2f" % (a / b) for a, b in zip(rb, fio))))
PY
