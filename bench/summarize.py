#!/usr/bin/env python3
"""Summarise readbench --rounds JSON reports: one markdown table, a row per strategy and a
column per (report, thread count), each cell 'median (ci_lo-ci_hi)' in ops/ms. The column
title is the report's scenario (or the file name). Used by bench/scenarios.sh and
bench/prefetch.sh; reads only what readbench wrote, gzipped or not (bench/results keeps its
JSON as .json.gz)."""
import gzip, json, os, sys

def fmt(v):
    if v is None:
        return "-"
    return "%.3g" % v if v < 10 else "%.1f" % v

def main(paths):
    cols, rows, cells = [], [], {}
    for p in paths:
        with (gzip.open(p, "rt") if p.endswith(".gz") else open(p)) as f:
            d = json.load(f)
        name = d.get("scenario") or os.path.basename(p).replace(".json", "").replace(".gz", "")
        for x in d["results"]:
            col = "%s T%02d" % (name, x["threads"])
            if len(d["config"].get("read_sizes", [])) > 1:
                col += " %dk" % (x["read_size"] // 1024)
            if col not in cols:
                cols.append(col)
            if x["strategy"] not in rows:
                rows.append(x["strategy"])
            if x["status"] != "ok":
                cells[(x["strategy"], col)] = x["status"]
                continue
            lo, hi = (x.get("ops_per_ms_ci") or [None, None])
            med = x.get("ops_per_ms_median", x["ops_per_ms"])
            cells[(x["strategy"], col)] = "%s (%s-%s)" % (fmt(med), fmt(lo), fmt(hi))
        rounds = d.get("rounds")
    print("ops/ms, median of every iteration of %s rounds (95%% bootstrap interval)\n" % rounds)
    print("| strategy | " + " | ".join(cols) + " |")
    print("|---|" + "---|" * len(cols))
    for s in rows:
        print("| %s | " % s + " | ".join(cells.get((s, c), "") for c in cols) + " |")

if __name__ == "__main__":
    main(sys.argv[1:])
