/* suite stats: the matrix runner in the header (grid, rounds, shuffling, interrupts), the
   statistics (median, bootstrap interval, outliers), and `readbench diff`. */
#define _GNU_SOURCE
#include "readbench.h"
#include "rbtest.h"
#include <math.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char out[1 << 17], err[8192];

static int cli(const char *args)   /* the CLI in the test directory (rbt_cli_run) */
{
    return rbt_cli_run(rbt_tmpdir(), args, NULL, out, sizeof out, err, sizeof err);
}

static size_t slurp(FILE *f, char *buf, size_t len)
{
    size_t n;
    rewind(f);
    n = fread(buf, 1, len - 1, f);
    buf[n] = 0;
    return n;
}

static unsigned count(const char *hay, const char *needle)
{
    unsigned n = 0;
    size_t l = strlen(needle);
    for (; (hay = strstr(hay, needle)); hay += l) n++;
    return n;
}

/* A strategy whose ops end on whole ticks (1 ms, or 10 ms with a reads per op of 10) counted
   from the thread's first op of an iteration: one op per tick per thread whatever the machine
   does (a late wake-up shortens the next sleep; only a delay past a whole tick loses one), so
   two runs measure the same rate. The ticks start with the thread's window, not at a wall-clock
   tick: the rate is a thread's ops over its own window (from the iteration's start to its last
   op's end), and a first op cut short by a wall-clock tick would move it by up to a tick in
   ten. w->cursor (unused by random offsets) keeps where the last tick ended; an op that starts
   after the next tick (a new iteration) starts a new count. */
static int tick_op(rb_worker *w, const uint64_t *off, unsigned n)
{
    struct timespec ts;
    uint64_t tick = n == 10 ? 10000000 : 1000000, now, next;
    (void)off;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    next = w->cursor + tick;
    if (!w->cursor || now >= next) next = now + tick;
    w->cursor = next;
    ts.tv_sec = (time_t)(next / 1000000000u);
    ts.tv_nsec = (long)(next % 1000000000u);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0) {}
    w->sink++;
    return 0;
}
static int tick_open(rb_target *t, char *why, size_t wl) { return rb_strategy_find("null")->open(t, why, wl); }
static void tick_close(rb_target *t) { rb_strategy_find("null")->close(t); }
static const rb_strategy tick = {"tick", "one op per millisecond", RB_S_NOIO, 0, tick_open, NULL, tick_op, NULL,
                                 tick_close};
static const rb_strategy tock = {"tock", "the same, under another name", RB_S_NOIO, 0, tick_open, NULL, tick_op,
                                 NULL, tick_close};

static void quick(rb_config *c)
{
    memset(c, 0, sizeof *c);
    c->path = rbt_small_file();
    c->warmup_ns = RB_NONE;
    c->duration_ns = 20000000;
    c->iterations = 3;
    c->read_size = 4096;
}

/* issue 16 item 14: a duplicate cell would show the first one's value in every copy. */
static void duplicate_cells_are_refused(void)
{
    static const char *const cases[] = {"--strategies null,null", "--threads 1,1", "--read-size 4k,4096",
                                        "--percentiles 99.9,99.9", "--percentiles 50,50.0"};
    const rb_strategy *twice[2];
    unsigned i, th[2] = {2, 2};
    rb_matrix m;
    char why[200];
    memset(&m, 0, sizeof m);
    quick(&m.cfg);
    twice[0] = twice[1] = rb_strategy_find("null");
    m.strategies = twice;
    m.nstrategies = 2;
    CHECK(rb_matrix_check(&m, why, sizeof why) == RB_EINVAL && strstr(why, "'null' is listed twice"));
    twice[1] = rb_strategy_find("pread");
    CHECK(rb_matrix_check(&m, why, sizeof why) == RB_OK);
    m.threads = th;
    m.nthreads = 2;
    CHECK(rb_matrix_check(&m, why, sizeof why) == RB_EINVAL && strstr(why, "thread count 2 is listed twice"));
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char args[1024];
        int rc;
        snprintf(args, sizeof args, "run '%s' --strategies null --threads 1 --warmup 0 --duration 5ms "
                 "--iterations 1 --quiet %s", rbt_small_file(), cases[i]);
        rc = cli(args);
        CHECKF(rc == 2 && strstr(err, "twice") && !out[0], "'%s': exit %d: %s", cases[i], rc, err);
    }
}

/* issue 16 item 14: "p%g" gave 99.90000001 and 99.9 one key, and called 99.99999999 "p100". */
static void percentile_labels_are_exact(void)
{
    static char doc[1 << 16];
    double pct[] = {99.90000001, 99.9, 99.99999999, 50};
    rb_result r;
    rb_report rep;
    rb_config c;
    unsigned th = 1;
    uint64_t rs = 4096;
    const char *name = "null";
    FILE *f = tmpfile();
    char why[200];
    CHECK(f != NULL);
    if (!f) return;
    quick(&c);
    c.iterations = 1;
    CHECK(rb_run(&c, rb_strategy_find("null"), &r) == RB_OK);
    memset(&rep, 0, sizeof rep);
    rep.results = &r; rep.count = 1; rep.cfg = &c;
    rep.strategies = &name; rep.nstrategies = 1;
    rep.threads = &th; rep.nthreads = 1;
    rep.read_sizes = &rs; rep.nread_sizes = 1;
    rep.percentiles = pct; rep.npercentiles = 4;
    rb_report_json(f, &rep);
    slurp(f, doc, sizeof doc);
    CHECKF(count(doc, "\"p99.9\":") == 1 && count(doc, "\"p99.90000001\":") == 1, "%s", doc);
    CHECK(count(doc, "\"p99.99999999\":") == 1 && !strstr(doc, "p100") && count(doc, "\"p50\":") == 1);
    rewind(f);
    rb_report_csv(f, &rep);
    fflush(f);
    slurp(f, doc, sizeof doc);
    CHECK(strstr(doc, "lat_p99.90000001_ns") && strstr(doc, "lat_p99.9_ns") && strstr(doc, "lat_p99.99999999_ns"));
    fclose(f);
    CHECK(rb_percentiles_check(pct, 4, why, sizeof why) == RB_OK);
    pct[1] = pct[0];
    CHECK(rb_percentiles_check(pct, 4, why, sizeof why) == RB_EINVAL && strstr(why, "twice"));
}

/* A 1 x N grid (thread counts) or, with by_size, N read sizes at one thread count. */
static void synthetic_grid(rb_result *res, unsigned n, int by_size, unsigned *th, uint64_t *rs, rb_report *rep,
                           rb_config *cfg, const char **name)
{
    unsigned i;
    memset(rep, 0, sizeof *rep);
    memset(cfg, 0, sizeof *cfg);
    rb_config_defaults(cfg, cfg);
    *name = "s";
    for (i = 0; i < n; i++) {
        memset(&res[i], 0, sizeof res[i]);
        res[i].strategy = "s";
        res[i].threads = by_size ? 1 : i + 1;
        res[i].read_size = by_size ? 4096u * (i + 1) : 4096;
        res[i].reads_per_op = 16;
        res[i].status = RB_OK;
        res[i].iterations = 1;
        res[i].ops_per_ms = 1000 + i;
        res[i].iter_ops_per_ms[0] = 1000 + i;
        res[i].file_pages = 1;
        res[i].resident_before = res[i].resident_after = res[i].majflt = res[i].minflt = -1;
        res[i].device_read_bytes = -1;
        res[i].read_amplification = res[i].cpu_user_ns_per_read = res[i].cpu_sys_ns_per_read = -1;
        rb_hist_init(&res[i].lat);
        rb_hist_record(&res[i].lat, 1000);
        th[i] = i + 1;
        rs[i] = 4096u * (i + 1);
    }
    rep->results = res; rep->count = n; rep->cfg = cfg;
    rep->strategies = name; rep->nstrategies = 1;
    rep->threads = th; rep->nthreads = by_size ? 1 : n;
    rep->read_sizes = rs; rep->nread_sizes = by_size ? n : 1;
}

/* issue 16 item 14: the table and the SVG had 24 columns and dropped the rest silently. */
static void every_axis_value_is_drawn(void)
{
    static rb_result res[32];
    static char doc[1 << 17];
    unsigned th[32], by_size;
    uint64_t rs[32];
    rb_report rep;
    rb_config cfg;
    const char *name;
    for (by_size = 0; by_size < 2; by_size++) {
        FILE *f = tmpfile();
        CHECK(f != NULL);
        if (!f) return;
        synthetic_grid(res, 32, (int)by_size, th, rs, &rep, &cfg, &name);
        rb_report_table(f, &rep, 0);
        slurp(f, doc, sizeof doc);
        CHECKF(strstr(doc, "1031.00") != NULL, "the 32nd column's value is missing:\n%s", doc);
        CHECK(by_size ? strstr(doc, "128 KiB") != NULL : strstr(doc, "T32") != NULL);
        rewind(f);
        rb_report_svg(f, &rep, "t", 0);
        fflush(f);
        slurp(f, doc, sizeof doc);
        CHECKF(count(doc, "<rect class=\"bar\"") == 32, "%u bars", count(doc, "<rect class=\"bar\""));
        CHECK(strstr(doc, "data-value=\"1031\"") != NULL);
        fclose(f);
    }
}

static int stop_after_first;
static void stop_on_first_done(const rb_matrix_event *ev, void *user)
{
    if (ev->kind == RB_EVENT_DONE) *(volatile int *)user = 1;
}

/* issue 16 item 16: an interrupt between cells left no marker. The cells the run never
   reached are "not run" in every format. */
static void interrupted_matrix_marks_the_rest(void)
{
    static char doc[1 << 17];
    const rb_strategy *s[2];
    unsigned th[2] = {1, 2}, i, notrun = 0;
    volatile int stop = 0;
    rb_matrix m;
    rb_report rep;
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f) return;
    memset(&m, 0, sizeof m);
    quick(&m.cfg);
    m.cfg.iterations = 1;
    m.cfg.stop = &stop;
    s[0] = rb_strategy_find("null");
    s[1] = rb_strategy_find("pread");
    m.strategies = s; m.nstrategies = 2;
    m.threads = th; m.nthreads = 2;
    m.progress = stop_on_first_done;
    m.user = (void *)&stop;
    CHECK(rb_run_matrix(&m, &rep) == RB_EINTR);
    CHECK(rep.count == 4 && rep.results[0].status == RB_OK);
    for (i = 1; i < rep.count; i++) notrun += rep.results[i].status == RB_ENOTRUN;
    CHECK(notrun == 3);
    CHECK(rb_report_cell(&rep, 1, 1, 0) == &rep.results[3] && !strcmp(rep.results[3].strategy, "pread") &&
          rep.results[3].threads == 2);
    rb_report_table(f, &rep, 0);
    slurp(f, doc, sizeof doc);
    CHECKF(count(doc, "not run") >= 6, "%s", doc);   /* in the grid and in the notes */
    rewind(f);
    rb_report_csv(f, &rep);
    slurp(f, doc, sizeof doc);
    CHECK(count(doc, ",not run,") == 3);
    rewind(f);
    rb_report_json(f, &rep);
    slurp(f, doc, sizeof doc);
    CHECK(count(doc, "\"status\": \"not run\"") == 3 && count(doc, "\"status\": \"ok\"") == 1);
    fclose(f);
    rb_report_free(&rep);
    (void)stop_after_first;
}

/* The CLI's count on stderr is the count of cells the report shows as measured. */
static void interrupted_cli_count_matches_the_report(void)
{
    char args[2048];
    const char *j = rbt_path("stats-int.json"), *e = rbt_path("stats-int.err");
    FILE *f;
    static char doc[1 << 16];
    unsigned done, total, shown;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    snprintf(args, sizeof args, "run '%s' --strategies null,pread,mmap,read,mmap-random,mmap-sequential "
             "--threads 1 --warmup 0 --duration 300ms --iterations 1 --format json --quiet --output '%s' 2>'%s' & "
             "p=$!; sleep 1.2; kill -INT $p; wait $p; echo rc=$?", rbt_small_file(), j, e);
    cli(args);
    f = fopen(e, "r");
    if (f) { slurp(f, err, sizeof err); fclose(f); }
    CHECKF(strstr(out, "rc=130") != NULL, "%s", out);
    CHECKF(sscanf(strstr(err, "interrupted: ") ? strstr(err, "interrupted: ") : "", "interrupted: %u of %u", &done,
                  &total) == 2, "%s", err);
    f = fopen(j, "r");
    CHECK(f != NULL);
    if (!f) return;
    slurp(f, doc, sizeof doc);
    fclose(f);
    shown = count(doc, "\"status\": \"ok\"");
    CHECKF(total == 6 && done == shown, "stderr says %u of %u, the report shows %u measured", done, total, shown);
    CHECK(count(doc, "\"status\": \"not run\"") + count(doc, "\"status\": \"interrupted\"") == 6 - shown);
}

/* The median, its interval and the outliers on numbers worked out by hand. */
static void median_interval_and_outliers(void)
{
    double x[] = {10, 11, 9, 10, 100, 10, 11, 9}, same[] = {5, 5, 5, 5};
    rb_stats s, t;
    rb_stats_of(x, 8, 1, &s);
    CHECK(s.n == 8 && s.median == 10);
    /* MAD: deviations 0,1,1,0,90,0,1,1 -> median 0.5; 0.6745 * 90 / 0.5 = 121 > 3.5; 0.6745 * 1 / 0.5 = 1.35 */
    CHECKF(s.outliers == 1, "%u outliers", s.outliers);
    CHECKF(s.ci_lo >= 9 && s.ci_lo <= 10 && s.ci_hi >= 10 && s.ci_hi <= 11, "[%g, %g]", s.ci_lo, s.ci_hi);
    rb_stats_of(x, 8, 1, &t);
    CHECK(t.ci_lo == s.ci_lo && t.ci_hi == s.ci_hi);   /* seeded: the same report twice */
    rb_stats_of(same, 4, 7, &s);
    CHECK(s.median == 5 && s.ci_lo == 5 && s.ci_hi == 5 && s.outliers == 0);
    rb_stats_of(x, 1, 7, &s);
    CHECK(s.median == 10 && isnan(s.ci_lo) && isnan(s.ci_hi));   /* one sample: no interval */
    rb_stats_of(x, 0, 7, &s);
    CHECK(s.n == 0 && isnan(s.median));
    x[4] = 10;   /* {10, 11, 9, 10, 10, 10, 11, 9}: MAD 0.5, nothing more than 1 away */
    rb_stats_of(x, 8, 1, &s);
    CHECK(s.outliers == 0);
}

static unsigned cell_events, round_events;
static unsigned orders[3][4];
static void count_events(const rb_matrix_event *ev, void *user)
{
    (void)user;
    if (ev->kind == RB_EVENT_ROUND) {
        if (ev->round < 3 && ev->ncells == 4) memcpy(orders[ev->round], ev->order, sizeof orders[0]);
        round_events++;
    }
    cell_events += ev->kind == RB_EVENT_CELL;
}

/* --rounds: every cell runs once per round, in a shuffled order per round that the report
   keeps; a cell's samples are every iteration of every round. */
static void rounds_shuffle_and_pool_the_samples(void)
{
    const rb_strategy *s[2] = {&tick, &tock};
    unsigned th[2] = {1, 2}, i, k, shuffled = 0;
    rb_matrix m;
    rb_report rep;
    memset(&m, 0, sizeof m);
    quick(&m.cfg);
    m.cfg.iterations = 2;
    m.strategies = s; m.nstrategies = 2;
    m.threads = th; m.nthreads = 2;
    m.rounds = 3;
    m.round_seed = 42;
    m.progress = count_events;
    cell_events = round_events = 0;
    CHECK(rb_run_matrix(&m, &rep) == RB_OK);
    CHECK(round_events == 3 && cell_events == 12 && rep.rounds == 3 && rep.round_seed == 42);
    for (k = 0; k < 3; k++) {
        unsigned seen = 0;
        for (i = 0; i < 4; i++) {
            seen |= 1u << rep.order[k * 4 + i];
            shuffled |= rep.order[k * 4 + i] != i;
            CHECK(rep.order[k * 4 + i] == orders[k][i]);
        }
        CHECK(seen == 15);   /* a permutation of the grid */
    }
    CHECK(shuffled);
    for (i = 0; i < 4; i++) {
        const rb_result *x = &rep.results[i];
        double per_ms = x->threads;   /* one op per ms per thread */
        CHECK(x->status == RB_OK && x->rounds == 3 && x->nsamples == 6);
        /* a loaded machine delays a sleeper's wake-up: it can only lose ticks, never gain many */
        CHECKF(x->ops_per_ms_median > 0.5 * per_ms && x->ops_per_ms_median < 1.2 * per_ms, "%s T%u: %g ops/ms",
               x->strategy, x->threads, x->ops_per_ms_median);
        CHECK(x->ci_lo <= x->ops_per_ms_median && x->ops_per_ms_median <= x->ci_hi);
        /* paired with the column's other strategy (same threads), over the 3 rounds */
        CHECKF(x->paired_rounds == 3 && x->paired_with && strcmp(x->paired_with, x->strategy) &&
               x->paired_ratio > 0.5 && x->paired_ratio < 2 && x->paired_lo <= x->paired_ratio &&
               x->paired_ratio <= x->paired_hi, "%s T%u: %u rounds, %g of %s", x->strategy, x->threads,
               x->paired_rounds, x->paired_ratio, x->paired_with ? x->paired_with : "-");
        CHECK(rep.results[(i + 2) % 4].threads == x->threads &&
              !strcmp(x->paired_with ? x->paired_with : "", rep.results[(i + 2) % 4].strategy));
    }
    {   /* every format carries the pairing */
        static char doc[1 << 17];
        FILE *f = tmpfile();
        CHECK(f != NULL);
        if (f) {
            rb_report_table(f, &rep, 0);
            slurp(f, doc, sizeof doc);
            CHECKF(count(doc, "paired by round") == 1 && count(doc, ", 3 rounds\n") == 4, "%s", doc);
            rewind(f);
            rb_report_json(f, &rep);
            slurp(f, doc, sizeof doc);
            CHECK(count(doc, "\"paired\": {\"with\": \"t") == 4 && count(doc, "\"rounds\": 3, \"ratio\": ") == 4);
            rewind(f);
            rb_report_csv(f, &rep);
            slurp(f, doc, sizeof doc);
            CHECK(count(doc, ",paired_with,paired_rounds,paired_ratio,") == 1 && count(doc, "ock,3,") >= 2);
            fclose(f);
        }
    }
    rb_report_free(&rep);
}

/* A synthetic cell of 6 rounds x 3 iterations: per round a drift factor, per iteration the
   given jitter. */
static void drifting_cell(rb_result *x, double *store, double scale, const double *jitter)
{
    static const double drift[6] = {1.0, 0.5, 1.6, 0.8, 1.3, 0.6};
    unsigned r, k;
    memset(x, 0, sizeof *x);
    x->status = RB_OK;
    x->rounds = 6;
    x->nsamples = 18;
    x->samples = store;
    for (r = 0; r < 6; r++)
        for (k = 0; k < 3; k++) store[r * 3 + k] = 10.0 * scale * drift[r] * jitter[r * 3 + k];
}

/* Paired by round: B drifts by 3x between rounds and A is 0.9 of B in each; over all samples
   the two intervals cannot tell them apart, paired they can. Fewer rounds on one side pair
   the common ones; a cell that did not measure, or a round of B at zero, pairs nothing. */
static void paired_ratio_cancels_drift(void)
{
    static const double jb[18] = {1, 1.02, 0.98, 1.01, 0.99, 1, 0.97, 1.03, 1, 1, 1.02, 0.99, 1.01, 1, 0.98, 1, 0.99, 1.02};
    static const double ja[18] = {1.01, 0.99, 1, 1, 1.02, 0.98, 1, 0.99, 1.01, 0.98, 1, 1.02, 1, 1.01, 0.99, 1.02, 1, 0.98};
    double sa[18], sb[18], ratio, lo, hi;
    rb_result a, b;
    rb_stats p;
    drifting_cell(&a, sa, 0.9, ja);
    drifting_cell(&b, sb, 1.0, jb);
    CHECKF(rb_ratio_ci(sb, 18, sa, 18, 1, &ratio, &lo, &hi) == 0 && lo < 0.9 && hi > 1, "unpaired %g [%g, %g]", ratio, lo, hi);   /* a tie */
    CHECK(rb_paired_ratio(&a, &b, 1, &p) == 6);
    CHECKF(fabs(p.median - 0.9) < 0.02 && p.ci_lo > 0.86 && p.ci_hi < 0.94 && p.ci_lo <= p.median && p.median <= p.ci_hi,
           "%g [%g, %g]", p.median, p.ci_lo, p.ci_hi);
    b.rounds = 4;   /* an interrupted run: the first 4 rounds of B */
    b.nsamples = 12;
    CHECK(rb_paired_ratio(&a, &b, 1, &p) == 4 && p.n == 4 && fabs(p.median - 0.9) < 0.02);
    b.status = RB_ESYS;
    CHECK(rb_paired_ratio(&a, &b, 1, &p) == 0 && isnan(p.median));
    b.status = RB_OK;
    b.nsamples = 0;   /* rounds without samples (an embedder's result): nothing, no crash */
    CHECK(rb_paired_ratio(&a, &b, 1, &p) == 0);
    b.nsamples = 12;
    b.status = RB_OK;
    sb[3] = sb[4] = sb[5] = 0;   /* round 2 of B measured nothing */
    CHECK(rb_paired_ratio(&a, &b, 1, &p) == 0);
}

/* The reader behind diff: what readbench writes parses back; anything else is NULL with a
   reason (the fuzz target tests/fuzz/fuzz_diff.c goes further). */
static void json_reader_parses_and_refuses(void)
{
    static const char *const bad[] = {"", "{", "[1,]", "{\"a\" 1}", "{\"a\":1,}", "01", "1.", "-", "1e", ".5",
                                      "\"abc", "\"a\\q\"", "\"\\u12\"", "tru", "nul", "[1] 2", "{\"a\":}",
                                      "\"tab\there\"", "[\"\\", "{1: 2}", "NaN", "[1 2]"};
    char why[RB_REASON_LEN], deep[300];
    const char *good = "{\"a\": [1, -2.5e3, true, false, null], \"s\": \"q\\\"\\u00e9\\ud83d\\ude00\\n\", \"o\": {}}";
    rb_json *v = rb_json_parse(good, strlen(good), why, sizeof why);
    const rb_json *a, *x;
    unsigned i;
    CHECKF(v != NULL, "%s", why);
    if (!v) return;
    a = rb_json_get(v, "a");
    CHECK(a && a->type == RB_JSON_ARRAY && a->n == 5 && a->child->type == RB_JSON_NUMBER && a->child->num == 1);
    CHECK(a && a->child->next->num == -2500 && a->child->next->next->type == RB_JSON_TRUE);
    x = rb_json_get(v, "s");
    CHECKF(x && x->type == RB_JSON_STRING && !strcmp(x->str, "q\"\xc3\xa9\xf0\x9f\x98\x80\n"), "%s", x ? x->str : "");
    CHECK(rb_json_get(v, "o") && rb_json_get(v, "o")->n == 0 && !rb_json_get(v, "missing"));
    rb_json_free(v);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why[0] = 0;
        v = rb_json_parse(bad[i], strlen(bad[i]), why, sizeof why);
        CHECKF(v == NULL && strstr(why, "malformed JSON at byte"), "'%s' parsed (%s)", bad[i], why);
        rb_json_free(v);
    }
    memset(deep, '[', sizeof deep);   /* nesting deeper than 64 is refused, not a stack overflow */
    v = rb_json_parse(deep, sizeof deep, why, sizeof why);
    CHECK(v == NULL && strstr(why, "nesting"));
    v = rb_json_parse(good, 10, why, sizeof why);   /* the length is the end, not the NUL */
    CHECK(v == NULL);
}

/* A report with one cell per (strategy, samples) entry, as `run --format json` writes it. */
static void write_doc(const char *path, const char *cells)
{
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "{\"readbench\": \"0.1.0\", \"config\": {\"cache\": \"keep\", \"prewarm\": 0}, \"scenario\": null, "
               "\"results\": [%s]}\n", cells);
    fclose(f);
}

#define CELL(name, status, samples) "{\"strategy\": \"" name "\", \"threads\": 1, \"read_size\": 4096, " \
                                    "\"pattern\": \"random\", \"status\": \"" status "\", \"samples\": [" samples "]}"

/* The verdicts on made-up numbers: twice as fast, half, the same, not comparable, one side only. */
static void diff_verdicts(void)
{
    const char *b = rbt_path("stats-b.json"), *n = rbt_path("stats-n.json");
    char why[RB_REASON_LEN];
    rb_json *db, *dn;
    rb_diff d;
    unsigned i, seen = 0;
    write_doc(b, CELL("up", "ok", "1, 1.01, 0.99, 1, 1.02") "," CELL("down", "ok", "2, 2.02, 1.98, 2, 2") ","
                 CELL("same", "ok", "5, 5.1, 4.9, 5, 5.05") "," CELL("gone", "ok", "1, 1") ","
                 CELL("broken", "ok", "1, 1") "," CELL("one", "ok", "3"));
    write_doc(n, CELL("same", "ok", "5.02, 4.95, 5.1, 4.9, 5") "," CELL("down", "ok", "1, 1.01, 0.99, 1, 1") ","
                 CELL("up", "ok", "2, 2.02, 1.98, 2, 2.01") "," CELL("new", "ok", "1, 1") ","
                 CELL("broken", "unsupported", "") "," CELL("one", "ok", "3"));
    db = rb_json_load(b, why, sizeof why);
    dn = rb_json_load(n, why, sizeof why);
    CHECKF(db && dn, "%s", why);
    if (!db || !dn) { rb_json_free(db); rb_json_free(dn); return; }
    CHECK(rb_diff_make(db, dn, NULL, 0, &d, why, sizeof why) == RB_OK && d.n == 7);
    for (i = 0; i < d.n; i++) {
        const rb_diff_row *x = &d.rows[i];
        if (!strcmp(x->strategy, "up")) { seen |= 1; CHECKF(x->verdict == RB_DIFF_FASTER && x->lo > 1.9 && x->hi < 2.1, "%g [%g %g]", x->ratio, x->lo, x->hi); }
        if (!strcmp(x->strategy, "down")) { seen |= 2; CHECK(x->verdict == RB_DIFF_SLOWER && fabs(x->ratio - 0.5) < 0.01); }
        if (!strcmp(x->strategy, "same")) { seen |= 4; CHECK(x->verdict == RB_DIFF_SAME && x->lo < 1 && x->hi > 1); }
        if (!strcmp(x->strategy, "gone")) { seen |= 8; CHECK(x->verdict == RB_DIFF_BASE_ONLY); }
        if (!strcmp(x->strategy, "new")) { seen |= 16; CHECK(x->verdict == RB_DIFF_NEW_ONLY); }
        if (!strcmp(x->strategy, "broken")) { seen |= 32; CHECK(x->verdict == RB_DIFF_NOT_COMPARABLE && strstr(x->note, "unsupported")); }
        if (!strcmp(x->strategy, "one")) { seen |= 64; CHECK(x->verdict == RB_DIFF_NOT_COMPARABLE && isnan(x->lo)); }
    }
    CHECK(seen == 127);
    rb_diff_free(&d);
    rb_json_free(db);
    rb_json_free(dn);
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    {
        char args[2048];
        snprintf(args, sizeof args, "diff '%s' '%s' --format markdown", b, n);
        CHECK(cli(args) == 0);
        CHECKF(strstr(out, "| up | 1 | 4 KiB | random | keep |") && strstr(out, "| faster |") &&
               strstr(out, "| slower |") && strstr(out, "only in base") && strstr(out, "only in new"), "%s", out);
        snprintf(args, sizeof args, "diff '%s' '%s' --format json", b, n);
        CHECK(cli(args) == 0 && count(out, "\"verdict\": \"faster\"") == 1 && count(out, "\"strategy\"") == 7);
        write_doc(n, "{\"strategy\": 3}");
        snprintf(args, sizeof args, "diff '%s' '%s'", b, n);
        CHECKF(cli(args) == 2 && strstr(err, "\"strategy\" is of the wrong type") && !out[0], "%s", err);
        snprintf(args, sizeof args, "diff '%s' missing.json", b);
        CHECK(cli(args) == 2 && strstr(err, "missing.json"));
        snprintf(args, sizeof args, "diff '%s' '%s' --format csv", b, b);
        CHECK(cli(args) == 2);
        snprintf(args, sizeof args, "diff '%s'", b);
        CHECK(cli(args) == 2);
    }
}

/* Issue 21, item 6: what diff reads must be rates. "samples" of another type beside an
   "iterations" array (the buffer was sized from one and filled from the other: a heap
   overflow), negative, absurd or non-number samples, the same cell twice: each refused as no
   run report (exit 2, naming the result), nothing written. Samples that are all 0: no ratio
   and no verdict, a note. */
static void diff_refuses_what_is_no_rate(void)
{
    static const char *const confused[] = {"{\"a\": 1}", "\"fast\"", "5", "null", "true"};
    static const char *const bad[] = {"-1, -2, -3", "1e308, 1e308, 1e308", "1, null, 3", "1, \"2\", 3", "2, [1], 3",
                                      "1, 2, 1e10"};
    const char *b = rbt_path("stats-rate-b.json"), *n = rbt_path("stats-rate-n.json"), *o = rbt_path("stats-rate-o.json");
    char cells[1024], why[RB_REASON_LEN], args[4096];
    rb_json *db, *dn;
    rb_diff d;
    unsigned i;
    write_doc(n, CELL("pread", "ok", "4, 5, 6") "," CELL("mmap", "ok", "4, 5, 6"));
    for (i = 0; i < sizeof confused / sizeof confused[0]; i++) {
        snprintf(cells, sizeof cells, "{\"strategy\": \"pread\", \"threads\": 1, \"read_size\": 4096, \"pattern\": "
                 "\"random\", \"status\": \"ok\", \"samples\": %s, \"iterations\": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, "
                 "12, 13, 14, 15, 16, 17, 18, 19, 20]}", confused[i]);
        write_doc(b, cells);
        db = rb_json_load(b, why, sizeof why);
        CHECKF(db && rb_diff_make(db, NULL, NULL, 0, NULL, why, sizeof why) == RB_EINVAL &&
               strstr(why, "not a readbench run report") && strstr(why, "\"samples\""), "samples %s: %s", confused[i], why);
        rb_json_free(db);
        if (!rbt_cli()) continue;
        snprintf(args, sizeof args, "diff '%s' '%s'", b, n);   /* in a child: the old reader overflowed its buffer */
        CHECKF(cli(args) == 2 && strstr(err, "not a readbench run report") && !out[0], "samples %s: %s", confused[i], err);
        snprintf(args, sizeof args, "run '%s' --strategies null --threads 1 --warmup 0 --duration 5ms --iterations 1 "
                 "--quiet --format json --baseline '%s' --output '%s'", rbt_small_file(), b, o);
        CHECKF(cli(args) == 2 && strstr(err, "not a readbench run report") && access(o, F_OK) != 0,
               "samples %s: %s", confused[i], err);
    }
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(cells, sizeof cells, CELL("mmap", "ok", "1, 2, 3") ",{\"strategy\": \"pread\", \"threads\": 1, "
                 "\"read_size\": 4096, \"pattern\": \"random\", \"status\": \"ok\", \"samples\": [%s]}", bad[i]);
        write_doc(b, cells);
        db = rb_json_load(b, why, sizeof why);
        CHECKF(db && rb_diff_make(db, NULL, NULL, 0, NULL, why, sizeof why) == RB_EINVAL &&
               strstr(why, "not a readbench run report: result 2 (pread): samples value "), "[%s]: %s", bad[i], why);
        rb_json_free(db);
    }
    /* the same cell twice: refused, both named (it used to pair the first copies and list the
       second as "only in base") */
    write_doc(b, CELL("pread", "ok", "1, 2, 3") "," CELL("mmap", "ok", "4, 5, 6") "," CELL("pread", "ok", "1, 2, 3") ","
                 CELL("mmap", "ok", "4, 5, 6"));
    db = rb_json_load(b, why, sizeof why);
    CHECKF(db && rb_diff_make(db, NULL, NULL, 0, NULL, why, sizeof why) == RB_EINVAL && strstr(why, "the same cell") &&
           (strstr(why, "results 1 and 3") || strstr(why, "results 2 and 4")), "%s", why);
    rb_json_free(db);
    /* a group's rows of one strategy are different cells, and so are other patterns and sizes */
    write_doc(b, CELL("pread", "ok", "1, 2, 3") ",{\"strategy\": \"pread\", \"threads\": 1, \"read_size\": 4096, "
                 "\"pattern\": \"zipf:0.99\", \"status\": \"ok\", \"samples\": [1, 2, 3]},{\"strategy\": \"pread\", "
                 "\"threads\": 1, \"read_size\": 8192, \"pattern\": \"random\", \"status\": \"ok\", \"samples\": [1]}");
    db = rb_json_load(b, why, sizeof why);
    CHECKF(db && rb_diff_make(db, NULL, NULL, 0, NULL, why, sizeof why) == RB_OK, "%s", why);
    rb_json_free(db);
    /* all zeros: no ratio, no verdict, a note saying why */
    write_doc(b, CELL("pread", "ok", "0, 0, 0") "," CELL("mmap", "ok", "4, 5, 6"));
    db = rb_json_load(b, why, sizeof why);
    dn = rb_json_load(n, why, sizeof why);
    CHECKF(db && dn && rb_diff_make(db, dn, NULL, 0, &d, why, sizeof why) == RB_OK && d.n == 2, "%s", why);
    for (i = 0; db && dn && i < d.n; i++)
        if (!strcmp(d.rows[i].strategy, "pread"))
            CHECKF(d.rows[i].verdict == RB_DIFF_NOT_COMPARABLE && isnan(d.rows[i].ratio) && strstr(d.rows[i].note, "0 ops/ms"),
                   "verdict %d, ratio %g, note %s", d.rows[i].verdict, d.rows[i].ratio, d.rows[i].note);
        else CHECK(d.rows[i].verdict == RB_DIFF_SAME);
    if (db && dn) rb_diff_free(&d);
    rb_json_free(db);
    rb_json_free(dn);
}

/* Writes a matrix run of the tick strategies as JSON: the A/A test's two runs. */
static int tick_run(const char *path)
{
    const rb_strategy *s[2] = {&tick, &tock};
    unsigned th[1] = {1};
    rb_matrix m;
    rb_report rep;
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    memset(&m, 0, sizeof m);
    quick(&m.cfg);
    m.cfg.iterations = 5;
    m.cfg.reads_per_op = 10;        /* 10 ms ticks */
    m.cfg.duration_ns = 100000000;
    m.strategies = s; m.nstrategies = 2;
    m.threads = th; m.nthreads = 1;
    if (rb_run_matrix(&m, &rep) != RB_OK) { fclose(f); return -1; }
    rb_report_json(f, &rep);
    rb_report_free(&rep);
    return fclose(f);
}

/* A/A: the same configuration twice says "no significant difference" for every cell (a
   deterministic strategy), and for most cells of real ones (pread on a warm small file, null). */
static void diff_a_a(void)
{
    const char *a = rbt_path("stats-aa1.json"), *b = rbt_path("stats-aa2.json");
    char args[2048];
    unsigned same, tries, cpu;
    CHECK(tick_run(a) == 0 && tick_run(b) == 0);
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    snprintf(args, sizeof args, "diff '%s' '%s'", a, b);
    CHECK(cli(args) == 0);
    CHECKF(count(out, "no significant difference\n") == 2, "%s", out);
    /* The two runs at the same time: this machine's background load moves by 2x within
       seconds, so two runs one after the other measure two machines; side by side, both
       measure the same one. And on the same CPU: the two vCPUs of the project's VM are not
       alike (warm 4 KiB preads: 23 ops/ms on one, 35 on the other, the two processes trading
       places between rounds), so two unpinned processes disagreed in 0-2 of 4 cells in CI's
       make test; pinned to one CPU, 23 of 24 cells in 6 pairs agreed. */
    for (cpu = 0; cpu < 1024 && rb_cpu_allowed(cpu) != 1; cpu++) {}
    if (cpu == 1024) SKIP("this build cannot pin a thread to a CPU, and unpinned the pair measures two different CPUs");
    /* "The large majority of cases": a pair that disagrees is run again, up to three pairs; a
       diff that calls a real A/A different in every pair fails. */
    for (tries = 0, same = 0; tries < 3 && same < 3; tries++) {
        snprintf(args, sizeof args, "run '%s' --strategies pread,read --threads 1 --read-size 4k,16k --prewarm 1 "
                 "--warmup 0 --duration 20ms --iterations 5 --rounds 2 --cpus %u --quiet --format json --output '%s' & "
                 "'%s' run '%s' --strategies pread,read --threads 1 --read-size 4k,16k --prewarm 1 "
                 "--warmup 0 --duration 20ms --iterations 5 --rounds 2 --cpus %u --quiet --format json --output '%s'; wait",
                 rbt_small_file(), cpu, a, rbt_cli(), rbt_small_file(), cpu, b);
        CHECK(cli(args) == 0);
        snprintf(args, sizeof args, "diff '%s' '%s'", a, b);
        CHECK(cli(args) == 0);
        same = count(out, "no significant difference\n");
        if (same < 3) fprintf(stderr, "    A/A pair %u: %u of 4 cells the same\n", tries + 1, same);
    }
    CHECKF(same >= 3, "%u of 4 cells the same in the last of %u pairs:\n%s", same, tries, out);
}

/* run --baseline: the comparison follows the table on stdout; with json, stdout stays one
   document and the comparison goes to stderr; a bad baseline is bad input (nothing created). */
static void run_with_baseline(void)
{
    const char *a = rbt_path("stats-base.json"), *o = rbt_path("stats-never.json");
    char args[2048];
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    CHECK(tick_run(a) == 0);
    snprintf(args, sizeof args, "run '%s' --strategies null --threads 1 --warmup 0 --duration 5ms --iterations 3 "
             "--quiet --format json --output '%s'", rbt_small_file(), a);
    CHECK(cli(args) == 0);
    snprintf(args, sizeof args, "run '%s' --strategies null --threads 1 --warmup 0 --duration 5ms --iterations 3 "
             "--quiet --baseline '%s'", rbt_small_file(), a);
    CHECK(cli(args) == 0);
    CHECKF(strstr(out, "ops/ms, higher is better") && strstr(out, "readbench diff:") &&
           strstr(out, "ops/ms, higher is better") < strstr(out, "readbench diff:"), "%s", out);
    snprintf(args, sizeof args, "run '%s' --strategies null --threads 1 --warmup 0 --duration 5ms --iterations 3 "
             "--quiet --format json --baseline '%s'", rbt_small_file(), a);
    CHECK(cli(args) == 0);
    CHECK(out[0] == '{' && !strstr(out, "readbench diff:") && strstr(err, "readbench diff:"));
    write_doc(a, "{\"strategy\": ");
    snprintf(args, sizeof args, "run '%s' --strategies null --threads 1 --warmup 0 --duration 5ms --iterations 3 "
             "--quiet --output '%s' --baseline '%s'", rbt_small_file(), o, a);
    CHECKF(cli(args) == 2 && strstr(err, "--baseline") && strstr(err, "malformed JSON"), "%s", err);
    CHECK(access(o, F_OK) != 0);
}

/* The page-cache lines of `residency` and `drop` come from the header, each case its own text. */
static void residency_lines(void)
{
    rb_residency_info ri;
    char buf[1024];
    FILE *f = tmpfile();
    if (!f) SKIP("tmpfile() failed");
    memset(&ri, 0, sizeof ri);
    ri.pages = 8; ri.resident = 2; ri.trusted = 1; ri.method = "mincore";
    rb_report_residency(f, "x", &ri, 0);
    slurp(f, buf, sizeof buf);
    CHECKF(!strcmp(buf, "x: 2 of 8 pages cached (25.0%) [mincore]\n"), "%s", buf);
    rewind(f); if (ftruncate(fileno(f), 0)) {}
    ri.method = "cachestat"; ri.dirty = 1; ri.writeback = 1;
    rb_report_residency(f, "x", &ri, 0);
    slurp(f, buf, sizeof buf);
    CHECKF(!strcmp(buf, "x: 2 of 8 pages cached (25.0%), 1 dirty, 1 under writeback [cachestat]\n"), "%s", buf);
    rewind(f); if (ftruncate(fileno(f), 0)) {}
    rb_report_residency(f, "x", &ri, 1);
    slurp(f, buf, sizeof buf);
    CHECKF(strstr(buf, "x: evicted; 2 of 8 pages still cached: 1 dirty and 1 under writeback") == buf, "%s", buf);
    rewind(f); if (ftruncate(fileno(f), 0)) {}
    ri.dirty = ri.writeback = 0;
    rb_report_residency(f, "x", &ri, 1);
    slurp(f, buf, sizeof buf);
    CHECKF(strstr(buf, "process maps are never evicted"), "%s", buf);
    rewind(f); if (ftruncate(fileno(f), 0)) {}
    ri.trusted = 0;
    rb_report_residency(f, "x", &ri, 0);
    slurp(f, buf, sizeof buf);
    CHECKF(strstr(buf, "x: residency cannot be trusted") == buf, "%s", buf);
    fclose(f);
}

/* `list` is the header's writer: a line per strategy, and none after a stop. */
static void list_lines(void)
{
    rb_config c;
    unsigned n, lines = 0;
    volatile int stop = 0;
    char buf[16384], *p;
    FILE *f = tmpfile();
    if (!f) SKIP("tmpfile() failed");
    rb_strategies(&n);
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.read_size = 4096;
    c.stop = &stop;
    rb_report_list(f, &c);
    slurp(f, buf, sizeof buf);
    for (p = buf; (p = strchr(p, '\n')); p++) lines++;
    CHECKF(lines == n + 1 && strstr(buf, "strategy               here") == buf && strstr(buf, "\npread "), "%s", buf);
    rewind(f); if (ftruncate(fileno(f), 0)) {}
    stop = 1;
    rb_report_list(f, &c);
    slurp(f, buf, sizeof buf);
    CHECKF(!strchr(buf, '\n') || !strchr(strchr(buf, '\n') + 1, '\n'), "%s", buf);
    fclose(f);
}

/* The matrix's progress text is the header's: a cell's name, then the rest of its line. */
static void progress_lines(void)
{
    rb_matrix_event ev;
    rb_config c;
    rb_result r;
    unsigned order[3] = {2, 0, 1};
    char buf[1024];
    FILE *f = tmpfile();
    if (!f) SKIP("tmpfile() failed");
    memset(&ev, 0, sizeof ev);
    memset(&c, 0, sizeof c);
    memset(&r, 0, sizeof r);
    ev.kind = RB_EVENT_ROUND; ev.round = 0; ev.rounds = 1; ev.order = order; ev.ncells = 3;
    rb_report_progress(f, &ev);
    ev.rounds = 2;
    rb_report_progress(f, &ev);
    c.threads = 4; c.read_size = 16384;
    ev.kind = RB_EVENT_CELL; ev.cfg = &c; ev.strategy = "pread";
    rb_report_progress(f, &ev);
    r.status = RB_OK; r.ops_per_ms = 12.5; r.resident_before = -1; r.read_amplification = -1;
    ev.kind = RB_EVENT_DONE; ev.result = &r;
    rb_report_progress(f, &ev);
    slurp(f, buf, sizeof buf);
    CHECKF(!strcmp(buf, "readbench: round 1 of 2, cells in this order: 2,0,1\n"
                        "pread                  T04  16384 B ...      12.50 ops/ms\n"), "%s", buf);
    fclose(f);
}

/* The prefetch experiment's progress line is the header's: the case, then its p50s or why not. */
static void prefetch_progress_line(void)
{
    rb_pfx_result x;
    char buf[1024];
    FILE *f = tmpfile();
    if (!f) SKIP("tmpfile() failed");
    memset(&x, 0, sizeof x);
    x.status = RB_ESYS;
    snprintf(x.reason, sizeof x.reason, "boom");
    rb_report_prefetch_progress(f, 0, 1, NULL);
    rb_report_prefetch_progress(f, 0, 1, &x);
    slurp(f, buf, sizeof buf);
    CHECKF(!strcmp(buf, "always             fits        ... ERROR: boom\n"), "%s", buf);
    fclose(f);
}

void suite_stats(void)
{
    RUN(prefetch_progress_line);
    RUN(progress_lines);
    RUN(list_lines);
    RUN(residency_lines);
    RUN(json_reader_parses_and_refuses);
    RUN(diff_verdicts);
    RUN(diff_refuses_what_is_no_rate);
    RUN(diff_a_a);
    RUN(run_with_baseline);
    RUN(median_interval_and_outliers);
    RUN(rounds_shuffle_and_pool_the_samples);
    RUN(paired_ratio_cancels_drift);
    RUN(duplicate_cells_are_refused);
    RUN(percentile_labels_are_exact);
    RUN(every_axis_value_is_drawn);
    RUN(interrupted_matrix_marks_the_rest);
    RUN(interrupted_cli_count_matches_the_report);
}
