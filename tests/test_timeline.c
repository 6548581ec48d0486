#define _GNU_SOURCE
/* The timeline (--timeline, --cpu-probe, --until-steady): the steady-state rule on synthetic
   series, the points a run records and their fields, a run extended until its rate settled
   (and to its cap when it never does), the formats (JSON, the long CSV, the chart), and the
   refusals. */
#include "readbench.h"
#include "rbtest.h"
#include <math.h>
#include <time.h>
#include <unistd.h>

static char out[1 << 18], err[8192];

static int cli(const char *dir, const char *args)
{
    return rbt_cli_run(dir, args, "-s KILL 180", out, sizeof out, err, sizeof err);
}

static unsigned lines(const char *s)
{
    unsigned n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

/* A fixed pseudo-random noise in [-1, 1] (the series must be the same in every run). */
static double noise(unsigned i)
{
    uint64_t x = (uint64_t)(i + 1) * 0x9e3779b97f4a7c15ULL;
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 29;
    return (double)(x % 2001) / 1000.0 - 1.0;
}

/* fio's iops_slope idea over a sliding window: flat settles at once; a ramp never does; a ramp
   then a plateau settles where the plateau starts (a window may hold the ramp's last few
   points); noise about a level settles, noise on a ramp does not; an unknown point or a zero
   rate breaks the windows that hold it. */
static void steady_state_on_synthetic_series(void)
{
    double v[200];
    unsigned i, at = 999;
    CHECK(rb_steady_window(0.1) == 20 && rb_steady_window(1.0) == RB_STEADY_MIN_POINTS && rb_steady_window(0.5) == 5);
    for (i = 0; i < 60; i++) v[i] = 10.0;   /* settled */
    CHECK(rb_steady_find(v, 60, 10, RB_STEADY_DRIFT, &at) == 1 && at == 0);
    CHECK(rb_steady_find(v, 9, 10, RB_STEADY_DRIFT, &at) == 0);   /* shorter than a window */
    for (i = 0; i < 60; i++) v[i] = 5.0 + 0.2 * i;   /* never: +2 over a window of 10 on a mean of 6 to 16 */
    CHECK(rb_steady_find(v, 60, 10, RB_STEADY_DRIFT, &at) == 0);
    for (i = 0; i < 100; i++) v[i] = i < 60 ? 2.0 + 8.0 * i / 60 : 10.0;   /* late: a ramp to 10 at 60 */
    CHECKF(rb_steady_find(v, 100, 10, RB_STEADY_DRIFT, &at) == 1 && at >= 50 && at <= 60, "settled at %u", at);
    for (i = 0; i < 100; i++) v[i] = 10.0 * (1 + 0.15 * noise(i));   /* noisy about a level */
    CHECK(rb_steady_find(v, 100, 20, RB_STEADY_DRIFT, &at) == 1 && at < 20);
    for (i = 0; i < 100; i++) v[i] = (2.0 + 0.3 * i) * (1 + 0.1 * noise(i));   /* noisy ramp: never */
    CHECK(rb_steady_find(v, 100, 20, RB_STEADY_DRIFT, &at) == 0);
    for (i = 0; i < 60; i++) v[i] = 10.0;
    for (i = 0; i < 60; i += 8) v[i] = NAN;   /* a point unknown every 8: no window of 10 is whole */
    CHECK(rb_steady_find(v, 60, 10, RB_STEADY_DRIFT, &at) == 0);
    for (i = 0; i < 60; i++) v[i] = 0.0;   /* nothing read is no steady rate */
    CHECK(rb_steady_find(v, 60, 10, RB_STEADY_DRIFT, &at) == 0);
}

/* A strategy of the test's: each op sleeps, for a fixed time (steady) or for longer and
   longer since the run's first op (a rate that falls all along: it never settles). */
static int64_t sleep_growth;   /* 0: fixed; else ns added per 100 ms since the first op */
static uint64_t first_op;
static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
static int sleepy_op(rb_worker *w, const uint64_t *off, unsigned n)
{
    uint64_t zero = 0, now = mono_ns(), ns = 200000;
    struct timespec ts;
    (void)w; (void)off; (void)n;
    __atomic_compare_exchange_n(&first_op, &zero, now, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    if (sleep_growth) ns += (uint64_t)sleep_growth * ((now - __atomic_load_n(&first_op, __ATOMIC_RELAXED)) / 100000000u);
    ts.tv_sec = 0;
    ts.tv_nsec = (long)ns;
    nanosleep(&ts, NULL);
    return 0;
}

static rb_config quick(void)
{
    rb_config c;
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.threads = 1;
    c.warmup_ns = RB_NONE;
    c.duration_ns = 300000000;
    c.iterations = 2;
    return c;
}

static int has_tlb_row(void)
{
    char buf[1 << 16];
    FILE *f = fopen("/proc/interrupts", "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f) fclose(f);
    buf[n] = 0;
    return strstr(buf, "TLB:") != NULL;
}

/* A point per interval (about duration / interval of them), times rising to the cell's end,
   each figure there or NaN where this machine has none (no TLB row; no probe asked); the
   points' ops add up to what the live counters saw, the result's measured ops and at most an
   op in flight per iteration. With the probe: its rate alone and beside the readers. */
static void points_and_their_fields(void)
{
#if defined(RB_NO_LINUX)
    SKIP("a point's VmPTE, faults and TLB rows come from /proc: not in the portable build (RB_NO_LINUX)");
#endif
    rb_config c = quick();
    rb_timeline_tool tl;
    rb_result *res = (rb_result *)calloc(1, sizeof *res);
    const rb_timeline *t;
    double sum = 0;
    unsigned i;
    int tlb = has_tlb_row(), probe;
    for (probe = 0; probe < 2 && res; probe++) {
        memset(&tl, 0, sizeof tl);
        tl.interval_ns = 100000000;
        tl.cpu_probe = probe;
        rb_timeline_attach(&c, &tl);
        CHECK(rb_run(&c, rb_strategy_find("pread"), res) == RB_OK);
        t = res->timeline;
        CHECK(t != NULL && tl.nall >= 1 && t == tl.all[tl.nall - 1] && t->round == 1 && t->interval_s == 0.1);
        if (!t) break;
        CHECKF(t->n >= 5 && t->n <= 30 && fabs(t->n - t->points[t->n - 1].t_s / 0.1) <= 1.5,
               "%u points for 600 ms at 100 ms, the last at %.3f s", t->n, t->points[t->n - 1].t_s);
        for (i = 0, sum = 0; i < t->n; i++) {
            const rb_timeline_point *p = &t->points[i];
            double dt = p->t_s - (i ? t->points[i - 1].t_s : 0);
            CHECKF(dt > 0.02 && dt < 0.3 && p->phase >= 1 && p->phase <= 2, "point %u: %.3f s, phase %u", i, dt, p->phase);
            CHECKF(p->ops_per_ms == p->ops_per_ms && p->reads_per_s == p->reads_per_s && p->minflt_per_s >= 0 &&
                   p->majflt_per_s >= 0 && p->device_bytes_per_s >= 0 && p->pte_bytes > 0,
                   "point %u: %g ops/ms, %g reads/s, %g minflt/s, %g majflt/s, %g B/s, %g B of page tables", i,
                   p->ops_per_ms, p->reads_per_s, p->minflt_per_s, p->majflt_per_s, p->device_bytes_per_s, p->pte_bytes);
            CHECK((p->tlb_per_s == p->tlb_per_s) == tlb);
            CHECK((p->probe_per_s == p->probe_per_s) == probe);
            CHECK(p->resident != p->resident || (p->resident >= 0 && p->resident <= 1));
            sum += p->ops_per_ms * dt * 1000;
        }
        CHECK(t->points[0].resident == t->points[0].resident);   /* the first is always counted */
        /* the cell's end: its two iterations and the work between them (slow under a sanitizer) */
        CHECKF(t->points[t->n - 1].t_s > 0.55 && t->points[t->n - 1].t_s < 3, "last point at %.3f s",
               t->points[t->n - 1].t_s);
        CHECKF(sum + 0.5 >= (double)res->ops && sum <= (double)res->ops + 2.5, "points %.1f ops, result %llu", sum,
               (unsigned long long)res->ops);
        CHECK((t->probe_alone_per_s > 0) == probe && t->sampler_cpu_s >= 0 && t->residency_every >= 1);
        rb_timeline_free(&tl);
        c.observer = NULL;
    }
    free(res);
}

/* Reader processes (two of two threads) and a memory limit (one child): the points come from
   the children's published counts and their /proc figures, summed; they add up to the cell's
   ops (at most an op in flight per thread per iteration more), page tables of both processes,
   and under a limit the cgroup's charge at each point and the file's resident fraction never
   above it (a small file: its residency walk is quick beside the churn). */
static void points_of_reader_processes_and_a_memory_limit(void)
{
#if defined(RB_NO_LINUX)
    SKIP("reader processes' faults and VmPTE come from /proc: not in the portable build (RB_NO_LINUX)");
#endif
    rb_config c = quick();
    rb_timeline_tool tl;
    rb_result *res = (rb_result *)calloc(1, sizeof *res);
    rb_memcg_cell base;
    rb_error e;
    char why[256];
    unsigned i, pass;
    if (!res) return;
    for (pass = 0; pass < 2; pass++) {
        const rb_timeline *t;
        double sum = 0, pte = 0, maj = 0, dev = 0;
        const char *skip = NULL;
        c = quick();
        c.threads = 2;
        rb_processes_attach(&c);
        if (pass == 0) c.processes = 2;
        else {
            if (RBT_ASAN || RBT_TSAN) skip = "a sanitizer's shadow memory does not fit a small memory cgroup";
            else if (rb_memcg_usable(&base, why, sizeof why) != RB_OK) skip = why;
            else if (rb_setup_file(rbt_path("tl-limited.dat"), 64u << 20, 0, 1, NULL, NULL, &e) != RB_OK) skip = e.msg;
            if (skip) {
                free(res);
                SKIP(skip);
            }
            c.path = rbt_path("tl-limited.dat");
            c.memory_limit = 32u << 20;   /* half the file: it cannot all stay */
            c.duration_ns = 400000000;
        }
        memset(&tl, 0, sizeof tl);
        tl.interval_ns = 100000000;
        rb_timeline_attach(&c, &tl);
        CHECKF(rb_run(&c, rb_strategy_find(pass ? "mmap-random" : "pread"), res) == RB_OK, "%s", res->reason);
        t = res->timeline;
        CHECK(t != NULL && t->processes == (pass ? 1u : 2u));
        if (!t) break;
        CHECKF(t->n >= 4 && t->n <= 100, "%u points", t->n);   /* ~9: 100 ms points of 2 x 300-400 ms, slower when loaded */
        for (i = 0; i < t->n; i++) {
            const rb_timeline_point *p = &t->points[i];
            double dt = p->t_s - (i ? t->points[i - 1].t_s : 0);
            CHECKF(p->ops_per_ms == p->ops_per_ms && p->majflt_per_s >= 0 && p->minflt_per_s >= 0 &&
                   p->device_bytes_per_s >= 0 && p->cpu_ns_per_read != 0, "point %u: %g ops/ms, %g majflt/s, %g B/s",
                   i, p->ops_per_ms, p->majflt_per_s, p->device_bytes_per_s);
            if (p->pte_bytes == p->pte_bytes) pte = p->pte_bytes > pte ? p->pte_bytes : pte;
            CHECKF(pass ? p->charged_bytes > 0 && p->charged_bytes <= 32.0 * (1 << 20) : p->charged_bytes != p->charged_bytes,
                   "point %u: %g bytes charged", i, p->charged_bytes);
            /* the walk over the file's pages is no snapshot: what churn moves during it, a little over */
            if (pass && p->resident == p->resident)
                CHECKF(p->resident * (double)res->file_pages * (double)sysconf(_SC_PAGESIZE) <= 33.0 * (1 << 20),
                       "resident %.3f of the file under a 32 MiB limit", p->resident);
            sum += p->ops_per_ms * dt * 1000;
            maj += p->majflt_per_s * dt;
            dev += p->device_bytes_per_s * dt;
        }
        CHECKF(sum + 0.5 >= (double)res->ops && sum <= (double)res->ops + 8.5, "points %.1f ops, result %llu", sum,
               (unsigned long long)res->ops);
        CHECKF(pte > 0, "%g bytes of page tables", pte);
        if (pass) {   /* cold, under the limit: the children's /proc figures add up to the workers' own counts */
            CHECKF(res->majflt > 0 && maj >= 0.5 * (double)res->majflt && maj <= 1.5 * (double)res->majflt + 64,
                   "points %.0f major faults, the workers %lld", maj, (long long)res->majflt);
            if (res->device_read_bytes >= 0)
                CHECKF(dev >= 0.5 * (double)res->device_read_bytes && dev <= 1.5 * (double)res->device_read_bytes + (1 << 20),
                       "points %.0f device bytes, the workers %lld", dev, (long long)res->device_read_bytes);
        }
        rb_timeline_free(&tl);
    }
    unlink(rbt_path("tl-limited.dat"));
    free(res);
}

/* A cell stopped because its rate had settled keeps that verdict when the sampler redoes its
   last point at the cell's end (part of an interval) and so breaks the one steady window (make
   test, 2026-12-02: "8 iterations, settled at nan": a 20-point window at 0.1 s is 2 s, 8
   iterations of 250 ms); without the decision the same points say it never settled. */
static void steady_keeps_the_decision_that_stopped_the_cell(void)
{
    rb_timeline t;
    rb_timeline_point p[20];
    rb_result *res = (rb_result *)calloc(1, sizeof *res);
    rb_result *rows[1];
    double v[20];
    unsigned i, decided = 99;
    if (!res) return;
    rows[0] = res;
    memset(&t, 0, sizeof t);
    memset(p, 0, sizeof p);
    for (i = 0; i < 20; i++) {
        p[i].t_s = 0.1 * (i + 1);
        v[i] = p[i].ops_per_ms = 2.7;
    }
    CHECK(rb_steady_window(0.1) == 20 && rb_steady_find(v, 20, 20, RB_STEADY_DRIFT, &decided) == 1 && decided == 0);
    p[19].ops_per_ms = 0.4;   /* redone at the cell's end */
    t.points = p;
    t.n = 20;
    t.interval_s = 0.1;
    t.steady_at_s = t.steady_ops_per_ms = NAN;
    rb_timeline_steady(&t, rows, 1, NULL);
    CHECKF(t.steady_at_s != t.steady_at_s, "no decision: settled at %g", t.steady_at_s);
    rb_timeline_steady(&t, rows, 1, &decided);
    CHECKF(t.steady_at_s == 0 && t.steady_ops_per_ms > 2.5, "decided at %u: settled at %g s, %g ops/ms", decided,
           t.steady_at_s, t.steady_ops_per_ms);
    free(res);
}

/* --until-steady: a rate that holds settles and stops the cell long before the cap; a rate
   that falls all along runs to the cap and says it never settled. */
static void until_steady_stops_when_settled_and_at_the_cap(void)
{
    rb_strategy s = *rb_strategy_find("pread");
    rb_config c = quick();
    rb_timeline_tool tl;
    rb_result *res = (rb_result *)calloc(1, sizeof *res);
    if (!res) return;
    s.name = "sleepy";
    s.read_op = sleepy_op;
    s.hint = 0;
    c.duration_ns = 250000000;
    c.iterations = 1;
    memset(&tl, 0, sizeof tl);
    tl.interval_ns = 100000000;
    tl.until_ns = 20000000000LL;
    rb_timeline_attach(&c, &tl);
    sleep_growth = 0;
    CHECK(rb_run(&c, &s, res) == RB_OK);
    CHECKF(res->iterations >= 8 && res->iterations < 40 && res->steady_at_s == res->steady_at_s,
           "%u iterations, settled at %g s", res->iterations, res->steady_at_s);
    CHECKF(fabs(res->steady_ops_per_ms / res->ops_per_ms - 1) < 0.3, "steady %g, all %g ops/ms",
           res->steady_ops_per_ms, res->ops_per_ms);
    rb_timeline_free(&tl);
    c.observer = NULL;
    memset(&tl, 0, sizeof tl);
    tl.interval_ns = 100000000;
    tl.until_ns = 2000000000;
    rb_timeline_attach(&c, &tl);
    sleep_growth = 400000;   /* +0.4 ms per 100 ms: the rate falls by half within the first half second */
    first_op = 0;
    CHECK(rb_run(&c, &s, res) == RB_OK);
    CHECKF(res->iterations == 8 && res->steady_at_s != res->steady_at_s, "%u iterations, settled at %g s",
           res->iterations, res->steady_at_s);
    rb_timeline_free(&tl);
    free(res);
}

/* The CLI: the timeline in every format, the one-row-per-cell CSV kept, its columns only with
   a timeline, and the chart XML that parses; bad values and settings without a timeline are
   one line and exit 2. */
static void cli_formats_and_refusals(void)
{
    const char *dir = rbt_tmpdir();
    char args[1024];
    static const char *const bad[] = {"--timeline abc", "--timeline 5ms", "--timeline 0", "--timeline 2h",
                                      "--cpu-probe", "--until-steady 10s", "--timeline-csv t.csv",
                                      "--timeline 1s --until-steady 1s", "--timeline 1s --until-steady 0",
                                      "--timeline 100ms --group strategy=pread --group strategy=mmap",
                                      "--timeline 100ms --until-steady 10s --processes 1,2",
                                      "--timeline 100ms --until-steady 10s --memory-limit 1g"};
    unsigned i;
    if (!rbt_cli()) SKIP("the CLI is not built");
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(args, sizeof args, "run %s --strategies pread --threads 1 --iterations 5 --duration 1s %s --quiet",
                 rbt_small_file(), bad[i]);
        CHECKF(cli(dir, args) == 2 && lines(err) == 1, "%s: %s", bad[i], err);
        CHECKF(access(rbt_path("t.csv"), F_OK) != 0, "%s created its output", bad[i]);
    }
    snprintf(args, sizeof args, "run %s --strategies pread,mmap --threads 1 --duration 300ms --iterations 1 --warmup 0 "
             "--timeline 100ms --cpu-probe --format csv --timeline-csv tl.csv --timeline-svg tl.svg --quiet",
             rbt_small_file());
    CHECKF(cli(dir, args) == 0, "%s", err);
    CHECKF(lines(out) == 3 && strstr(out, "steady_at_s") && strstr(out, "steady_ops_per_ms"), "%s", out);
    snprintf(args, sizeof args, "python3 -c \"import xml.etree.ElementTree as E; r=E.parse('%s').getroot(); "
             "assert len([e for e in r.iter() if e.tag.endswith('polyline')]) >= 2\"", rbt_path("tl.svg"));
    if (rbt_have_python("xml.etree.ElementTree")) CHECK(system(args) == 0);
    snprintf(args, sizeof args, "test $(grep -c '^mmap,1,16384,1,' '%s') -ge 2 && test $(grep -c '^pread,1,' '%s') -ge 2 "
             "&& head -1 '%s' | grep -q '^strategy,threads,read_size,round,t_s,phase,processes,variant,cached_fraction,ops_per_ms,'", rbt_path("tl.csv"),
             rbt_path("tl.csv"), rbt_path("tl.csv"));
    CHECK(system(args) == 0);
    snprintf(args, sizeof args, "run %s --strategies pread --threads 1 --duration 300ms --iterations 1 --warmup 0 "
             "--timeline 100ms --format json --quiet", rbt_small_file());
    CHECKF(cli(dir, args) == 0 && strstr(out, "\"timeline\": {\"interval_s\": 0.10000000000000001, \"rounds\": [{\"round\": 1")
           && strstr(out, "\"tlb_per_s\"") && strstr(out, "\"pte_bytes\""), "%.300s", out);
    snprintf(args, sizeof args, "run %s --strategies pread,mmap --threads 1 --duration 100ms --iterations 1 --warmup 0 "
             "--timeline 50ms --rounds 2 --format json --quiet", rbt_small_file());   /* each cell's rounds chained */
    CHECKF(cli(dir, args) == 0 && strstr(out, "\"round\": 1") && strstr(out, "\"round\": 2") &&
           !strstr(out, "\"round\": 3"), "%.300s", out);
    snprintf(args, sizeof args, "run %s --strategies pread --threads 1 --duration 100ms --iterations 1 --warmup 0 "
             "--timeline 100ms --quiet", rbt_small_file());
    CHECK(cli(dir, args) == 0 && strstr(out, "Timeline, round 1") && strstr(out, "first 1 s"));
    snprintf(args, sizeof args, "run %s --strategies pread --threads 1 --duration 100ms --iterations 1 --warmup 0 "
             "--format csv --quiet", rbt_small_file());
    CHECK(cli(dir, args) == 0 && !strstr(out, "steady_at_s"));   /* no timeline: the CSV as it was */
}

void suite_timeline(void)
{
    RUN(steady_state_on_synthetic_series);
    RUN(points_and_their_fields);
    RUN(points_of_reader_processes_and_a_memory_limit);
    RUN(steady_keeps_the_decision_that_stopped_the_cell);
    RUN(until_steady_stops_when_settled_and_at_the_cap);
    RUN(cli_formats_and_refusals);
}
