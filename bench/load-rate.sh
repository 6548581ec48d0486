#!/usr/bin/env bash
# While a half-cached file loads, how fast does the device read for each of two rows? Issue 23's
# prewarm 0.5 bar at one thread is decided by the second of three 1 s iterations, the one in
# which the ~1.1-1.4 s load of the holes ends, so its ratio moves with the moment the load ends
# (a round's ratio ran from 0.1 to 11 in one 15-round run). The device's rate during the first
# iteration is a steadier statistic of the same thing: paired by round, the ratio of row B's mean
# device bytes a second (the timeline's 100 ms points in iteration 1) to row A's; with it, the
# difference of the moments each row first read 10 ops/ms (the load's end, to 0.1 s), and the
# iteration-2 ratio the bars use. Geometric means over rounds.
#   FILE=/var/tmp/rb1g.dat bench/load-rate.sh        (mmap against mmap-adaptive, 8 rounds, T1)
# BIN (default ./readbench: another build to compare, alternated run by run by the caller),
# ROWS (default mmap,mmap-adaptive: A,B), THREADS (1), ROUNDS (8), PREWARM (0.5), TAG (names
# the timeline CSV and JSON kept in /var/tmp: rb-load-rate-TAG.{csv,json}).
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")/.."
FILE=${FILE:-/var/tmp/rb1g.dat}
BIN=${BIN:-./readbench}
ROWS=${ROWS:-mmap,mmap-adaptive}
THREADS=${THREADS:-1}
ROUNDS=${ROUNDS:-8}
PREWARM=${PREWARM:-0.5}
TAG=${TAG:-$$}
[ -f "$FILE" ] || { echo "needs FILE (e.g. ./readbench setup /var/tmp/rb1g.dat 1g)"; exit 2; }
CSV=/var/tmp/rb-load-rate-$TAG.csv
JSON=/var/tmp/rb-load-rate-$TAG.json
"$BIN" run "$FILE" --strategies "$ROWS" --prewarm "$PREWARM" --threads "$THREADS" --read-size 16k --reads-per-op 16 \
    --rounds "$ROUNDS" --iterations 3 --duration 1s --map-resident --timeline 100ms --timeline-csv "$CSV" \
    --format json --quiet --output "$JSON"
python3 - "$CSV" "$JSON" "$ROWS" <<'PY'
import csv, json, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
doc = json.load(open(sys.argv[2]))
a_name, b_name = sys.argv[3].split(",")[:2]
res = {x["strategy"]: x for x in doc["results"]}
ia, ib = res[a_name]["iterations"], res[b_name]["iterations"]
n = len(ia) // 3
dev, end, it2 = [], [], []
def load(name, rd):
    pts = [r for r in rows if r["strategy"] == name and r["round"] == str(rd)]
    first = [float(p["device_bytes_per_s"] or 0) for p in pts if p["phase"] == "1"]
    t_end = next((float(p["t_s"]) for p in pts if float(p["ops_per_ms"]) > 10), float("nan"))
    return sum(first) / len(first) if first else float("nan"), t_end
for rd in range(1, n + 1):
    (da, ea), (db, eb) = load(a_name, rd), load(b_name, rd)
    dev.append(db / da if da > 0 else float("nan"))
    end.append(eb - ea)
    it2.append(sorted(ib[3 * rd - 3:3 * rd])[1] / sorted(ia[3 * rd - 3:3 * rd])[1])
gm = lambda v: math.exp(sum(math.log(x) for x in v if x > 0) / max(1, len([x for x in v if x > 0])))
print("%s / %s, %d rounds, T%s, prewarm %s" % (b_name, a_name, n, doc["results"][0]["threads"], doc["config"].get("prewarm")))
print("  device rate in iteration 1: %.3f   (rounds: %s)" % (gm(dev), " ".join("%.2f" % x for x in dev)))
print("  load's end, B - A (s):      %+.3f  (rounds: %s)" % (sum(end) / n, " ".join("%+.1f" % x for x in end)))
print("  iteration 2's ops/ms:       %.3f   (median %.3f)" % (gm(it2), sorted(it2)[n // 2]))
ad = res[b_name].get("adaptive")
if ad: print("  %s's sweep windows: %s" % (b_name, res[b_name]["prefetch"]["sweeps"]))
PY
