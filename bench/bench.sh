#!/usr/bin/env bash
# make bench: readbench against the tools people already trust, side by side, in one run
# on the same files. Each comparison alternates the two sides for ROUNDS rounds and reports
# medians, because a shared virtual disk drifts by tens of percent from minute to minute:
# only ratios measured together mean anything.
#   RB_BENCH_DIR (default /var/tmp)  where the benchmark files go (deleted at the end)
#   ROUNDS (default 5)               rounds per comparison
#   COLD_SIZE (default 8g)           file for the cold case: big enough to stay cold for a run
set -euo pipefail
cd "$(dirname "$0")/.."
RB=./readbench
DIR=${RB_BENCH_DIR:-/var/tmp}
ROUNDS=${ROUNDS:-5}
COLD_SIZE=${COLD_SIZE:-8g}
WARM=$DIR/readbench-bench-warm.dat
COLD=$DIR/readbench-bench-cold.dat
SETUPF=$DIR/readbench-bench-setup.dat
DDF=$DIR/readbench-bench-dd.dat
trap 'rm -f "$WARM" "$COLD" "$SETUPF" "$DDF"' EXIT

command -v python3 >/dev/null || { echo "bench: needs python3 to read JSON"; exit 1; }
HAVE_FIO=1
command -v fio >/dev/null || { HAVE_FIO=0; echo "bench: fio is not installed (apt-get install -y fio): fio columns skipped"; }

med() { python3 -c 'import sys,statistics; v=[float(x) for x in sys.argv[1:]]; print("%.1f"%statistics.median(v))' "$@"; }
ratio() { python3 -c 'import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); print("%.3f"%(a/b) if b else "n/a")' "$1" "$2"; }
# readbench: IOPS of the one result (field), from --format json
rbjson() { python3 -c 'import json,sys; r=json.load(sys.stdin)["results"][0]; assert r["status"]=="ok", r["reason"]; print(r[sys.argv[1]])' "$1"; }
fioiops() { python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["read"]["iops"])'; }

echo "# readbench bench, $(date -u +%Y-%m-%dT%H:%MZ), $(uname -sr), $(nproc) cpus, files in $DIR"
echo "# $ROUNDS alternating rounds per comparison; medians"
echo

# 1. setup speed against dd with O_DIRECT and fsync, 2 GiB each: dd of zeros (the
# reference the issue names) and dd copying a cached file of random data (the same work
# as setup: a virtual disk's host may store zeros more cheaply than data).
$RB setup "$WARM" 1g --force 2>/dev/null
cat "$WARM" "$WARM" > "$DDF.src"; trap 'rm -f "$WARM" "$COLD" "$SETUPF" "$DDF" "$DDF.src"' EXIT
rb_s=(); dd_s=(); dr_s=()
secs() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N); python3 -c "print(2048/($t1-$t0))"; }
for i in $(seq "$ROUNDS"); do
  rb_s+=("$(secs $RB setup "$SETUPF" 2g --force)"); rm -f "$SETUPF"
  dd_s+=("$(secs dd if=/dev/zero of="$DDF" bs=1M count=2048 oflag=direct conv=fsync)"); rm -f "$DDF"
  dr_s+=("$(secs dd if="$DDF.src" of="$DDF" bs=1M oflag=direct conv=fsync)"); rm -f "$DDF"
done
rm -f "$DDF.src"
a=$(med "${rb_s[@]}"); b=$(med "${dd_s[@]}"); c=$(med "${dr_s[@]}")
echo "setup 2 GiB:      readbench setup $a MiB/s   dd zeros oflag=direct conv=fsync $b MiB/s (ratio $(ratio "$a" "$b"))   dd random data $c MiB/s (ratio $(ratio "$a" "$c"))"

# 2. warm pread, 4 KiB, 1 read per op, 1 thread, page-aligned offsets like fio's
cat "$WARM" >/dev/null
rb_i=(); fr_i=(); fd_i=(); nu=()
for i in $(seq "$ROUNDS"); do
  rb_i+=("$($RB run "$WARM" --strategies pread --threads 1 --read-size 4k --reads-per-op 1 --align 4k \
            --warmup 500ms --duration 3s --iterations 1 --quiet --format json | rbjson iops)")
  if [ $HAVE_FIO = 1 ]; then
    fr_i+=("$(fio --name=w --filename="$WARM" --ioengine=psync --rw=randread --bs=4k --invalidate=0 \
              --gtod_reduce=1 --runtime=3 --ramp_time=0.5 --time_based --size=1g --output-format=json | fioiops)")
    fd_i+=("$(fio --name=w --filename="$WARM" --ioengine=psync --rw=randread --bs=4k --invalidate=0 \
              --runtime=3 --ramp_time=0.5 --time_based --size=1g --output-format=json | fioiops)")
  fi
  nu+=("$($RB run "$WARM" --strategies null --threads 1 --read-size 4k --reads-per-op 1 --warmup 200ms \
          --duration 1s --iterations 1 --quiet --format json | rbjson ops_per_ms)")
done
a=$(med "${rb_i[@]}")
echo "warm pread 4k:    readbench (latency recorded) $a IOPS"
if [ $HAVE_FIO = 1 ]; then
  b=$(med "${fr_i[@]}"); c=$(med "${fd_i[@]}")
  echo "                  fio psync gtod_reduce=1 $b IOPS (ratio $(ratio "$a" "$b"))   fio psync default stats $c IOPS (ratio $(ratio "$a" "$c"))"
fi
n=$(med "${nu[@]}")
echo "null strategy:    $n ops/ms = $(python3 -c "print('%.1f' % (1e6/$n))") ns per op of harness cost (offset, clock read, histogram)"

# 3. cold: mmap-random-willneed and pread, 16 KiB x 16 per op, 1 thread, evicted before each run
$RB setup "$COLD" "$COLD_SIZE" --force 2>/dev/null
mw=(); pr=(); fu=(); f1=()
for i in $(seq "$ROUNDS"); do
  $RB drop "$COLD" >/dev/null
  mw+=("$($RB run "$COLD" --strategies mmap-random-willneed --threads 1 --warmup 0 --duration 2s --iterations 1 --quiet --format json | rbjson iops)")
  $RB drop "$COLD" >/dev/null
  pr+=("$($RB run "$COLD" --strategies pread --threads 1 --warmup 0 --duration 2s --iterations 1 --quiet --format json | rbjson iops)")
  if [ $HAVE_FIO = 1 ]; then
    $RB drop "$COLD" >/dev/null
    fu+=("$(fio --name=c --filename="$COLD" --ioengine=io_uring --iodepth=16 --direct=1 --bs=16k --rw=randread \
            --runtime=2 --time_based --size="$COLD_SIZE" --output-format=json | fioiops)")
    # the device's own gain from queue depth: the ceiling of any batched strategy's ratio
    $RB drop "$COLD" >/dev/null
    f1+=("$(fio --name=c --filename="$COLD" --ioengine=psync --direct=1 --bs=16k --rw=randread \
            --runtime=2 --time_based --size="$COLD_SIZE" --output-format=json | fioiops)")
  fi
done
a=$(med "${mw[@]}"); b=$(med "${pr[@]}")
echo "cold 16k x 16:    mmap-random-willneed $a IOPS   pread $b IOPS   ratio $(ratio "$a" "$b")"
if [ $HAVE_FIO = 1 ]; then
  c=$(med "${fu[@]}")
  d=$(med "${f1[@]}")
  echo "                  fio io_uring iodepth=16 direct=1 $c IOPS   mmap-random-willneed / fio $(ratio "$a" "$c")"
  echo "                  fio psync direct=1 (depth 1) $d IOPS: this disk's own depth-16 / depth-1 gain is $(ratio "$c" "$d")"
fi
