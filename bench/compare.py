#!/usr/bin/env python3
"""make compare: readbench's strategies next to fio's engines on the same file, read size,
threads, duration and cache state, in interleaved rounds (medians), with the ratio.

Same strategy, same numbers: pread/psync, read/sync, direct/psync+direct, io_uring/io_uring,
io_uring-direct/io_uring+direct, mmap-random/mmap (fio advises MADV_RANDOM for random jobs),
mmap/mmap with fadvise_hint=0. fio runs with --norandommap (uniform offsets with repeats, as
readbench draws them), --fadvise_hint=0 for read engines (readbench gives no fadvise) and
--invalidate=0 where the cache is kept. Rows that differ by design say why.

Where the device sets the pace (cold and O_DIRECT rows) IOPS must agree within 5%. Where the
page cache does (warm rows), the kernel's CPU time per read must: the same system call costs
the same in either harness, while the user time per read (each harness's own loop, fio's
bookkeeping per I/O) differs and moves IOPS with it; the table shows both.

usage: bench/compare.py [--file F] [--size 4g] [--rounds 3] [--duration 2] [--threads 1,2]
                        [--bs 4k] [--out FILE.md] [--keep]
"""
import argparse, gzip, json, os, shutil, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
RB = os.path.join(HERE, "..", "readbench")

# (label, cache, readbench strategy, readbench extra, fio extra, kind, note)
#   cache: warm (file loaded first, kept), cold (evicted before the cell / fio invalidate=1),
#          any (O_DIRECT: the cache does not matter)
#   kind:  same (must agree), design (differ by design; the note says why)
CASES = [
    ("null / null", "warm", "null", [], ["--ioengine=null"], "harness",
     "no I/O: each harness's own cost per read, subtracted from the warm rows' time per read"),
    ("fio psync / itself", "warm", None, [], ["--ioengine=psync", "--fadvise_hint=0"], "aa",
     "fio against itself, A/A: how far two runs of the same job differ here with the file in the page cache"),
    ("pread / psync", "warm", "pread", [], ["--ioengine=psync", "--fadvise_hint=0"], "same", ""),
    ("read / sync", "warm", "read", [], ["--ioengine=sync", "--fadvise_hint=0"], "same",
     "both lseek+read"),
    ("io_uring / io_uring", "warm", "io_uring", [], ["--ioengine=io_uring", "--iodepth=1", "--fadvise_hint=0"],
     "same", "depth 1"),
    ("mmap-random / mmap", "warm", "mmap-random", [], ["--ioengine=mmap"], "same",
     "fio advises MADV_RANDOM for a random job"),
    ("mmap / mmap hint=0", "warm", "mmap", [], ["--ioengine=mmap", "--fadvise_hint=0"], "same",
     "no advice on either mapping"),
    ("fio psync direct / itself", "any", None, [], ["--ioengine=psync", "--direct=1"], "aa",
     "fio against itself, A/A: how far two runs of the same job differ on this disk (the noise floor)"),
    ("direct / psync direct", "any", "direct", [], ["--ioengine=psync", "--direct=1"], "same", "O_DIRECT, depth 1"),
    ("io_uring-direct x16 / io_uring direct qd16", "any", "io_uring-direct", ["--reads-per-op", "16"],
     ["--ioengine=io_uring", "--direct=1", "--iodepth=16", "--iodepth_batch_submit=16",
      "--iodepth_batch_complete_min=16"], "same",
     "16 reads submitted together, all 16 awaited; readbench's latency is per batch of 16, fio's per read"),
    ("pread / psync, cold", "cold", "pread", [], ["--ioengine=psync", "--fadvise_hint=0"], "same",
     "evicted before the cell; fio invalidates at job start"),
    ("mmap-random / mmap, cold", "cold", "mmap-random", [], ["--ioengine=mmap"], "same",
     "evicted first; one page per fault"),
    ("mmap-random-willneed x16 / mmap, cold", "cold", "mmap-random-willneed", ["--reads-per-op", "16"],
     ["--ioengine=mmap"], "design",
     "fio's mmap engine issues no MADV_WILLNEED: it faults one read at a time, readbench hints 16 then reads"),
    ("pread warm / psync default", "warm", "pread", [], ["--ioengine=psync", "--fadvise_hint=0", "--invalidate=1"],
     "design", "fio drops the file from the cache before a job unless --invalidate=0: its reads are cold"),
]


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw).stdout


def resident(path):
    out = sh([RB, "residency", path])
    return float(out.split("(")[1].split("%")[0]), out


def load(path):
    """Make every page resident (if some are not), and check that it is."""
    if resident(path)[0] >= 99.9:
        return
    with open(path, "rb") as f:
        while f.read(1 << 24):
            pass
    pct, out = resident(path)
    if pct < 99.0:
        sys.exit("compare: could not make %s resident (%s)" % (path, out.strip()))


def cpus(threads):
    """Both tools' workers on the same CPUs, one each (readbench --cpus, fio cpus_allowed with
    the split policy): where the disk's interrupt lands decides a depth-1 reader's IOPS here
    (1.6x between the two CPUs of this VM), so the scheduler must not pick for either. Their
    main threads stay free, as they sleep."""
    n = os.cpu_count() or 1
    return ",".join(map(str, range(max(0, n - threads), n) if threads <= n else range(n)))


def run_rb(a, case, threads):
    label, cache, strat, extra, _, _, _ = case
    cmd = [RB, "run", a.file, "--strategies", strat, "--threads", str(threads), "--read-size", a.bs,
           "--reads-per-op", "1", "--align", a.bs, "--warmup", "%gs" % a.warmup, "--duration", "%gs" % a.duration,
           "--iterations", "1", "--quiet", "--format", "json"] + extra
    if cache == "cold":
        cmd += ["--cache", "evict"]
    d = json.loads(sh(cmd + ["--cpus", cpus(threads)]))
    r = d["results"][0]
    if r["status"] != "ok":
        sys.exit("compare: readbench %s: %s" % (strat, r["reason"]))
    cpu = r.get("cpu_ns_per_read") or {}
    return {"iops": r["iops"], "p50": r["lat_ns"]["p50"], "p99": r["lat_ns"]["p99"],
            "usr": cpu.get("user"), "sys": cpu.get("sys")}


def run_fio(a, case, threads):
    label, cache, _, _, fio_extra, _, _ = case
    cmd = ["fio", "--name=compare", "--filename=" + a.file, "--rw=randread", "--bs=" + a.bs,
           "--numjobs=%d" % threads, "--thread", "--group_reporting", "--time_based",
           # milliseconds: fio reads "1.5" as garbage (runs of 2 I/Os reported as the job)
           "--runtime=%dms" % round(a.duration * 1000), "--ramp_time=%dms" % round(a.warmup * 1000), "--norandommap", "--size=%d" % a.size_bytes,
           "--output-format=json"]
    if cache == "warm" and not any(x.startswith("--invalidate") for x in fio_extra):
        cmd.append("--invalidate=0")
    if cache == "cold":
        cmd.append("--invalidate=1")
    d = json.loads(sh(cmd + fio_extra + ["--cpus_allowed=" + cpus(threads), "--cpus_allowed_policy=split"]))
    j = d["jobs"][0]
    rd = j["read"]
    if j.get("error"):
        sys.exit("compare: fio %s: error %s" % (label, j["error"]))
    pct = rd["clat_ns"].get("percentile", {})
    ios = rd["total_ios"] or 1
    runtime_ns = rd["runtime"] * 1e6
    return {"iops": rd["iops"], "p50": pct.get("50.000000"), "p99": pct.get("99.000000"),
            "usr": j["usr_cpu"] / 100 * runtime_ns / ios, "sys": j["sys_cpu"] / 100 * runtime_ns / ios}


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--file", default="/var/tmp/readbench-compare.dat")
    ap.add_argument("--size", default="4g")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--duration", type=float, default=2)
    ap.add_argument("--warmup", type=float, default=1)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--bs", default="4k")
    ap.add_argument("--cases", default="", help="comma-separated case numbers (1-based), default all")
    ap.add_argument("--out", default="")
    ap.add_argument("--keep", action="store_true", help="keep a file this script created")
    a = ap.parse_args()
    if not shutil.which("fio"):
        print("compare: fio is not installed (apt-get install -y fio)", file=sys.stderr)
        return 2
    if not os.access(RB, os.X_OK):
        print("compare: build readbench first (make)", file=sys.stderr)
        return 2
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    a.size_bytes = int(a.size[:-1]) * units[a.size[-1].lower()] if a.size[-1].lower() in units else int(a.size)
    threads = [int(t) for t in a.threads.split(",")]
    cases = CASES if not a.cases else [CASES[int(i) - 1] for i in a.cases.split(",")]
    created = False
    if not os.path.exists(a.file):
        print("compare: creating %s (%s)" % (a.file, a.size), file=sys.stderr)
        sh([RB, "setup", a.file, a.size])
        created = True
    res = {}   # (case index, threads) -> {"rb": [..], "fio": [..]}
    t0 = time.time()
    try:
        for rnd in range(a.rounds):
            for cache in ("warm", "any", "cold"):
                for ci, case in enumerate(cases):
                    if case[1] != cache:
                        continue
                    for t in threads:
                        slot = res.setdefault((ci, t), {"rb": [], "fio": []})
                        # alternate who goes first, so that drift of the disk favours neither
                        order = ("rb", "fio") if (rnd + ci + t) % 2 == 0 else ("fio", "rb")
                        for who in order:
                            if cache == "warm":   # before every run: a design row with invalidate=1 evicts it
                                load(a.file)
                            slot[who].append(run_rb(a, case, t) if who == "rb" and case[2] else run_fio(a, case, t))
                        r, f = slot["rb"][-1], slot["fio"][-1]
                        a_, b_ = ("fio A", "fio B") if case[5] == "aa" else ("readbench", "fio")
                        print("round %d  %-42s T%d  %s %9.0f  %s %9.0f  (%.3f)" % (
                            rnd + 1, case[0], t, a_, r["iops"], b_, f["iops"], r["iops"] / f["iops"]), file=sys.stderr)
    finally:
        if created and not a.keep:
            os.unlink(a.file)
    uname = os.uname()
    lines = []
    lines.append("readbench vs fio %s, %s, random %s reads, %d x %g s per cell after %g s warmup, median of %d "
                 "interleaved rounds; %s %s, %d CPUs; run took %.0f s" % (
                     sh(["fio", "--version"]).strip(), a.size, a.bs, 1, a.duration, a.warmup, a.rounds,
                     uname.sysname, uname.release, os.cpu_count(), time.time() - t0))
    lines.append("")
    lines.append("| case | T | readbench IOPS | fio IOPS | ratio | rounds | less harness | p50 us rb / fio "
                 "| p99 us rb / fio | sys us/read rb / fio | usr us/read rb / fio | verdict |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    # the noise floor: the widest A/A ratio of any round, per thread count, with the file in
    # the cache (the CPU's noise) and with the disk setting the pace
    def measured(kind):
        for ci, case in enumerate(cases):
            for t in threads:
                if case[5] == kind and (ci, t) in res:
                    yield case, t, res[(ci, t)]
    noise = {(t, case[1] == "warm"): max(abs(r["iops"] / f["iops"] - 1) for r, f in zip(s["rb"], s["fio"]))
             for case, t, s in measured("aa")}
    # each harness's cost per read, per thread, from its null row
    harness = {t: {w: med([t * 1e9 / x["iops"] for x in s[w]]) for w in ("rb", "fio")}
               for case, t, s in measured("harness")}
    notes = []
    bad = 0
    for ci, case in enumerate(cases):
        label, cache, _, _, _, kind, note = case
        for t in threads:
            s = res.get((ci, t))
            if not s:
                continue
            m = {w: {k: med([x[k] for x in s[w]]) for k in ("iops", "p50", "p99", "usr", "sys")} for w in ("rb", "fio")}
            # the ratio of each round's pair, then the median: drift between rounds cancels
            ratios = [r["iops"] / f["iops"] for r, f in zip(s["rb"], s["fio"])]
            ratio = med(ratios)
            # IOPS with each harness's own time per read taken out: fio's time per read over
            # readbench's, so that > 1 still means readbench measured more reads per second
            net = None
            if t in harness and kind not in ("harness", "aa"):
                h = harness[t]
                net = med([(t * 1e9 / f["iops"] - h["fio"]) / (t * 1e9 / r["iops"] - h["rb"])
                           for r, f in zip(s["rb"], s["fio"])])
            nz = noise.get((t, cache == "warm"))

            def judge(x):
                if abs(x - 1) <= 0.05:
                    return "agree", 0
                # a warm row is excused only by warm noise, a device row only by the disk's
                if nz is not None and abs(x - 1) <= nz:
                    return "within the A/A noise (%.0f%%)" % (100 * nz), 0
                return "DIFFER", 1
            if kind == "aa":
                verdict = "noise floor: rounds differ by up to %.0f%%" % (100 * nz)
            elif kind == "harness":
                h = harness[t]
                verdict = "harness cost per read: readbench %.0f ns, fio %.0f ns" % (h["rb"], h["fio"])
            elif kind == "design":
                verdict = "differs by design (see note)"
            elif cache == "warm":
                word, b = judge(net) if net is not None else ("?", 1)
                verdict = "less harness: " + word
                bad += b
            else:
                word, b = judge(ratio)
                verdict = "IOPS: " + word
                bad += b

            def us(v):
                return "?" if v is None else "%.2f" % (v / 1e3)
            lines.append("| %s%s | %d | %.0f | %.0f | %.3f | %.2f-%.2f | %s | %s / %s | %s / %s | %s / %s | %s / %s | %s |" % (
                label, " (%s)" % cache if cache not in ("any",) and "cold" not in label else "", t,
                m["rb"]["iops"], m["fio"]["iops"], ratio, min(ratios), max(ratios), "-" if net is None else "%.3f" % net,
                us(m["rb"]["p50"]), us(m["fio"]["p50"]), us(m["rb"]["p99"]), us(m["fio"]["p99"]),
                us(m["rb"]["sys"]), us(m["fio"]["sys"]), us(m["rb"]["usr"]), us(m["fio"]["usr"]), verdict))
        if note:
            notes.append("- %s: %s" % (label, note))
    lines.append("")
    lines.append("Notes:")
    lines += notes
    lines.append("- latency: readbench's is per op (one read, or a batch where the row says x16), clock read "
                 "at op boundaries; fio's is clat, per I/O")
    lines.append("- ratio: readbench IOPS / fio IOPS, the median of each round's pair (rounds: their range). less harness: the same "
                 "with each tool's null-row time per read subtracted from its time per read (warm rows, where "
                 "a read costs about as much as fio's own bookkeeping per I/O); warm rows are judged on it, "
                 "cold and O_DIRECT rows (device-bound, harness < 1%) on the ratio")
    lines.append("- workers pinned one per CPU, the same CPUs for both (readbench --cpus, fio --cpus_allowed "
                 "--cpus_allowed_policy=split): on this VM the disk's interrupt goes to one CPU, and a depth-1 "
                 "reader on the other makes 1.6x fewer reads per second")
    lines.append("- sys/usr us per read: getrusage of the workers while measured (fio: usr_cpu/sys_cpu); "
                 "tick-sampled, so the split is rough")
    text = "\n".join(lines) + "\n"
    if a.out:   # every round's numbers, to re-read without re-measuring (gzipped, as bench/results keeps its JSON)
        with gzip.open(os.path.splitext(a.out)[0] + ".json.gz", "wt") as f:
            json.dump([{"case": cases[ci][0], "threads": t, "rounds": v} for (ci, t), v in sorted(res.items())], f)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
