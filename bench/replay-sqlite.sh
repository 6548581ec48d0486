#!/usr/bin/env bash
# Issue 13's worked replay example with a real program: sqlite3 answering 30,000 random point
# lookups on a 600,000-row table (261 MiB, 4 KiB pages), recorded cold with strace, then
# replayed from an evicted file with the strategies that matter for random reads. So many
# lookups that one pass of the trace outlasts an iteration for every strategy that reads only
# what it asks (it stays cold); a NORMAL mapping's read-around loads the whole database within
# the first faults and then replays the trace from memory, many passes per iteration.
# The database and the trace are made under DIR (default /var/tmp/rb-sqlite, removed at the
# end unless KEEP=1); the JSON goes to OUT (default bench/results/replay-sqlite.json), gzipped at
# the end (OUT.gz), as bench/results keeps its JSON.
# Needs sqlite3, strace and python3; root for the drop_caches before recording (without it the
# trace is recorded warm, which changes only sqlite3's timing, not which reads it makes).
set -euo pipefail
cd "$(dirname "$0")/.."
for t in sqlite3 strace python3; do command -v $t >/dev/null || { echo "$t is not installed" >&2; exit 1; }; done
D=${DIR:-/var/tmp/rb-sqlite}
OUT=${OUT:-bench/results/replay-sqlite.json}
mkdir -p "$D"
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$D"' EXIT
if [ ! -f "$D/lookups.db" ]; then
  sqlite3 "$D/lookups.db" "pragma page_size=4096; create table t(k integer primary key, v blob);
    with recursive c(x) as (select 1 union all select x + 1 from c where x < 600000)
    insert into t select x, randomblob(400) from c;"
fi
python3 -c "
import random
random.seed(1)
print('.output /dev/null')
for i in range(30000): print('select length(v) from t where k=%d;' % random.randint(1, 600000))" > "$D/q.sql"
sync
[ "$(id -u)" = 0 ] && echo 3 > /proc/sys/vm/drop_caches
strace -f -e trace=pread64,preadv,read,lseek,openat,open,close,dup,dup2,dup3,fcntl \
  -o "$D/lookups.strace" sqlite3 "$D/lookups.db" < "$D/q.sql"
echo "trace: $(grep -c 'pread64(' "$D/lookups.strace") pread64 calls, $(stat -c %s "$D/lookups.db") bytes of database" >&2
./readbench replay "$D/lookups.strace" "$D/lookups.db" --threads 1 --cache evict-each --warmup 0 \
  --strategies mmap,mmap-random,mmap-random-willneed,pread,io_uring --iterations 3 --duration 1s --rounds 2 \
  --format json --quiet --output "$OUT"
python3 - "$OUT" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["config"]
print("replayed %s reads of the trace (%s skipped, %s of other files)" % (c["trace_reads"], c["trace_skipped"], c["trace_other_reads"]))
for r in d["results"]:
    print("%-22s %8.3f ops/ms [%s]  p50 %s ns  p99 %s ns  loops %s  amplification %s" % (
        r["strategy"], r["ops_per_ms_median"], ", ".join("%.3f" % x for x in (r["ops_per_ms_ci"] or [])),
        r["lat_ns"]["p50"], r["lat_ns"]["p99"], r.get("trace_loops"), r.get("read_amplification")))
PY
gzip -9nf "$OUT"
