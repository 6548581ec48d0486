/* suite stats: the matrix runner in the header (grid, rounds, shuffling, interrupts), the
   statistics (median, bootstrap interval, outliers), and `readbench diff`. */
#define _GNU_SOURCE
#include "readbench.h"
#include "rbtest.h"
#include <math.h>
#include <pthread.h>
#include <sched.h>
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

#ifndef RB_NO_REPORTS
/* Empties f for the next writer: rewound alone, a shorter text would leave the last one's tail. */
static void fresh(FILE *f)
{
    rewind(f);
    CHECK(ftruncate(fileno(f), 0) == 0);
}
#endif

static unsigned count(const char *hay, const char *needle)
{
    unsigned n = 0;
    size_t l = strlen(needle);
    for (; (hay = strstr(hay, needle)); hay += l) n++;
    return n;
}

/* The tick strategies below have no RB_S_NOIO flag although they read nothing: they stand in
   for reading strategies, and a no-I/O row is a reference that is never a column's best. */
/* A strategy whose ops end on whole ticks (1 ms, or 10 ms with a reads per op of 10) counted
   from the thread's first op of an iteration: one op per tick per thread whatever the machine
   does (a late wake-up shortens the next sleep; only a delay past a whole tick loses one), so
   two runs measure the same rate. The ticks start with the thread's window, not at a wall-clock
   tick: the rate is a thread's ops over its own window (from the iteration's start to its last
   op's end), and a first op cut short by a wall-clock tick would move it by up to a tick in
   ten. w->cursor (unused by random offsets) keeps where the last tick ended; an op that starts
   after the next tick (a new iteration) starts a new count. */
static int tick_wait(rb_worker *w, uint64_t tick)
{
    struct timespec ts;
    uint64_t now, next;
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
static int tick_op(rb_worker *w, const uint64_t *off, unsigned n)
{
    (void)off;
    return tick_wait(w, n == 10 ? 10000000 : 1000000);
}
#ifndef RB_NO_TOOLS   /* for diff's A/A runs */
/* 6 and 8 ms ticks: the A/A runs and a real 25% slowdown between separate runs. These keep one
   schedule per phase, from the phase's first op: an op that wakes late is followed by ops that
   end at once until the schedule is caught up, so a late wake-up inside a window moves nothing;
   only a late first or last op does. The guest of this project's VM stalls whole (every thread,
   real-time ones too) for 10-30 ms at a time while other suites churn the page cache, which
   lost the tick schedule above a tick or two per stall. phase_end, called after each phase's
   last op, starts the next phase's schedule afresh. */
static void tick_phase_end(rb_worker *w) { w->cursor = 0; }
static int tick_catch_up(rb_worker *w, char *why, size_t wl)
{
    (void)why; (void)wl;
    w->phase_end = tick_phase_end;
    return 0;
}
static int tick_sched(rb_worker *w, uint64_t tick)
{
    struct timespec ts;
    uint64_t next;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    next = (w->cursor ? w->cursor : (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) + tick;
    w->cursor = next;
    ts.tv_sec = (time_t)(next / 1000000000u);
    ts.tv_nsec = (long)(next % 1000000000u);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0) {}
    w->sink++;
    return 0;
}
static int tick12_op(rb_worker *w, const uint64_t *off, unsigned n) { (void)off; (void)n; return tick_sched(w, 6000000); }
static int tick16_op(rb_worker *w, const uint64_t *off, unsigned n) { (void)off; (void)n; return tick_sched(w, 8000000); }
#endif
static int tick_open(rb_target *t, char *why, size_t wl) { return rb_strategy_find("null")->open(t, why, wl); }
static void tick_close(rb_target *t) { rb_strategy_find("null")->close(t); }
static const rb_strategy tick = {"tick", "one op per millisecond", 0, 0, RB_HINT_NONE, 0, 0, 0, tick_open, NULL,
                                 tick_op, NULL,
                                 tick_close};
static const rb_strategy tock = {"tock", "the same, under another name", 0, 0, RB_HINT_NONE, 0, 0, 0, tick_open,
                                 NULL, tick_op,
                                 NULL, tick_close};
#ifndef RB_NO_TOOLS
static const rb_strategy tick12 = {"tick", "one op per 6 ms", 0, 0, RB_HINT_NONE, 0, 0, 0, tick_open, tick_catch_up,
                                   tick12_op, NULL, tick_close};
static const rb_strategy tock12 = {"tock", "one op per 6 ms", 0, 0, RB_HINT_NONE, 0, 0, 0, tick_open, tick_catch_up,
                                   tick12_op, NULL, tick_close};
static const rb_strategy tick16 = {"tick", "one op per 8 ms", 0, 0, RB_HINT_NONE, 0, 0, 0, tick_open, tick_catch_up,
                                   tick16_op, NULL, tick_close};
static const rb_strategy tock16 = {"tock", "one op per 8 ms", 0, 0, RB_HINT_NONE, 0, 0, 0, tick_open, tick_catch_up,
                                   tick16_op, NULL, tick_close};
#endif

/* The machine kernel of the test build (tests/tu_impl.c): the header's loop, 4 times over while
   machine_slow is set, which the slowdown strategy's op does: the machine "slows" mid-cell. */
static volatile int machine_slow;
volatile unsigned long long rbt_machine_window_ns = 2000000;   /* tests/tu_impl.c */
uint64_t rbt_machine_spin(uint64_t n, uint64_t x);
uint64_t rbt_machine_spin(uint64_t n, uint64_t x)
{
    uint64_t i, k;
    for (k = 0; k < (machine_slow ? 4u : 1u); k++)
        for (i = 0; i < n; i++) x = (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9ULL + i;
    return x;
}
static int slowdown_op(rb_worker *w, const uint64_t *off, unsigned n)
{
    (void)off; (void)n;
    machine_slow = 1;
    w->sink++;
    return 0;
}
static const rb_strategy slowdown = {"slowdown", "slows the machine kernel", RB_S_NOIO, 0, RB_HINT_NONE, 0, 0, 0,
                                     tick_open, NULL, slowdown_op,
                                     NULL, tick_close};

/* The kernel 4 times as long in the first cell that opens it only (from its op to its close,
   which comes after the kernel timed after the cell): a matrix of two rounds moves in round 1. */
static unsigned first_opens;
static int first_open(rb_target *t, char *why, size_t wl)
{
    first_opens++;
    return tick_open(t, why, wl);
}
static int first_op(rb_worker *w, const uint64_t *off, unsigned n)
{
    if (first_opens == 1) machine_slow = 1;
    return tick_op(w, off, n);
}
static void first_close(rb_target *t)
{
    machine_slow = 0;
    tick_close(t);
}
static const rb_strategy slow_first = {"slowfirst", "slows the machine kernel in its first cell", 0, 0, RB_HINT_NONE, 0,
                                       0, 0, first_open, NULL, first_op, NULL, first_close};

/* A real slowdown, no hook: the crowd strategy's op (a 1 ms tick), once its cell has run
   CROWD_AFTER_NS, starts CROWD busy threads, which inherit the affinity of the process (the
   test pins its child to one CPU) and spin until crowd_stop: from then on the cell's CPU is
   time-shared, as with a `taskset -c 0 sh -c 'while :; do :; done'` started beside a run. */
#define CROWD 3u
#define CROWD_AFTER_NS 60000000u
static pthread_t crowd_tid[CROWD];
static unsigned crowd_started;
static volatile int crowd_stop;
static uint64_t crowd_first;
static void *crowd_spin(void *arg)
{
    volatile uint64_t n = 0;
    (void)arg;
    while (!__atomic_load_n(&crowd_stop, __ATOMIC_RELAXED)) n++;
    return NULL;
}
static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
static int crowd_op(rb_worker *w, const uint64_t *off, unsigned n)
{
    uint64_t now = mono_ns();
    if (!crowd_first) crowd_first = now;
    if (!crowd_started && now - crowd_first >= CROWD_AFTER_NS) {
        unsigned i;
        for (i = 0; i < CROWD && pthread_create(&crowd_tid[i], NULL, crowd_spin, NULL) == 0; i++) {}
        crowd_started = i ? i : CROWD + 1;   /* none could start: never try again (the test fails) */
    }
    return tick_op(w, off, n);
}
static const rb_strategy crowd = {"crowd", "1 ms ticks; a crowd of busy threads on its CPU mid-cell", 0, 0,
                                  RB_HINT_NONE, 0, 0, 0, tick_open, NULL, crowd_op, NULL, tick_close};
static void crowd_end(void)
{
    unsigned i;
    __atomic_store_n(&crowd_stop, 1, __ATOMIC_RELAXED);
    for (i = 0; i < crowd_started && i < CROWD; i++) pthread_join(crowd_tid[i], NULL);
}

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

/* An A/A row (1.9): NAME#2 is NAME again under a name of its own, every fact the same; its
   paired ratio is against NAME's cell whatever the column's best, it is no other row's best
   (mmap's best other is pread whatever pread#2..#4 measured: three draws of pread beside it),
   and a list without NAME refuses it; so does a group. The cached-fraction axis pairs the same
   way, at each fraction. */
static void a_a_rows_pair_with_their_original(void)
{
    const rb_strategy *p = rb_strategy_find("pread"), *p2 = rb_strategy_find("pread#2"), *s[5], *all;
    unsigned th[1] = {1}, i, n;
    rb_matrix m;
    rb_report rep;
    char why[200];
    CHECK(p && p2 && p2 != p && !strcmp(p2->name, "pread#2"));
    if (!p || !p2) return;
    CHECK(p2->open == p->open && p2->read_op == p->read_op && p2->flags == p->flags && p2->hint == p->hint &&
          p2->advice == p->advice && p2->policy == p->policy);
    CHECK(rb_strategy_find("pread#2") == p2 && rb_strategy_find("pread#4") && rb_strategy_find("pread#3") != p2);
    CHECK(!rb_strategy_find("pread#1") && !rb_strategy_find("pread#5") && !rb_strategy_find("pread#") &&
          !rb_strategy_find("pread#22") && !rb_strategy_find("nope#2") && !rb_strategy_find("#2"));
    all = rb_strategies(&n);
    for (i = 0; i < n; i++) CHECKF(!strchr(all[i].name, '#'), "%s is listed", all[i].name);   /* list: the table's only */
    memset(&m, 0, sizeof m);
    quick(&m.cfg);
    m.cfg.iterations = 2;
    s[0] = rb_strategy_find("mmap"); s[1] = p2; s[2] = p; s[3] = rb_strategy_find("pread#3"); s[4] = rb_strategy_find("pread#4");
    m.strategies = s; m.nstrategies = 5;
    m.threads = th; m.nthreads = 1;
    m.rounds = 3;
    CHECK(rb_run_matrix(&m, &rep) == RB_OK && rep.count == 5);
    for (i = 0; i < rep.count; i++) {
        const rb_result *x = &rep.results[i];
        const char *with = x->paired_with ? x->paired_with : "-";
        CHECKF(x->status == RB_OK && x->paired_rounds == 3, "%s: %s, %u rounds", x->strategy, rb_status_string(x->status),
               x->paired_rounds);
        CHECKF(!strchr(with, '#'), "%s paired with the A/A row %s", x->strategy, with);
        if (strchr(x->strategy, '#')) CHECKF(!strcmp(with, "pread"), "%s paired with %s", x->strategy, with);
        if (!strcmp(x->strategy, "pread")) CHECKF(!strcmp(with, "mmap"), "pread paired with %s", with);
        if (!strcmp(x->strategy, "mmap")) CHECKF(!strcmp(with, "pread"), "mmap paired with %s", with);
    }
#ifndef RB_NO_REPORTS
    {
        static char doc[1 << 16];
        FILE *f = tmpfile();
        CHECK(f != NULL);
        if (f) {
            rb_report_table(f, &rep, 0);
            slurp(f, doc, sizeof doc);
            CHECKF(count(doc, "(A/A: this run's own resolution)") == 3, "%s", doc);
            fclose(f);
        }
    }
#endif
    rb_report_free(&rep);
    m.nstrategies = 3;
    s[2] = rb_strategy_find("mmap-random");   /* pread#2 without pread */
    CHECKF(rb_matrix_check(&m, why, sizeof why) == RB_EINVAL && strstr(why, "'pread#2' repeats pread"), "%s", why);
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    {
        char args[1024];
        int rc;
        snprintf(args, sizeof args, "run '%s' --strategies pread,pread#2 --threads 1 --warmup 0 --duration 10ms "
                 "--iterations 1 --rounds 2 --quiet", rbt_small_file());
        rc = cli(args);
        CHECKF(rc == 0 && strstr(out, "of pread, 2 rounds (A/A"), "exit %d: %s%s", rc, out, err);
        snprintf(args, sizeof args, "advise '%s' --strategies pread,pread#2 --quiet", rbt_small_file());
        rc = cli(args);
        CHECKF(rc == 2 && strstr(err, "pread#2 is an A/A row") && !out[0], "exit %d: %s", rc, err);
        snprintf(args, sizeof args, "run '%s' --strategies pread,pread#5 --quiet", rbt_small_file());
        rc = cli(args);
        CHECKF(rc == 2 && strstr(err, "unknown strategy 'pread#5'"), "exit %d: %s", rc, err);
        snprintf(args, sizeof args, "run '%s' --group strategy=pread#2 --group strategy=pread --quiet", rbt_small_file());
        rc = cli(args);
        CHECKF(rc == 2 && strstr(err, "pread#2 is an A/A row"), "exit %d: %s", rc, err);
        snprintf(args, sizeof args, "run '%s' --strategies mmap,pread,pread#2 --prewarm 0,1 --threads 1 --warmup 0 "
                 "--duration 100ms --iterations 1 --rounds 2 --quiet --format json", rbt_small_file());
        rc = cli(args);   /* at each fraction: pread#2 and mmap with pread, pread with mmap, none with pread#2 */
        CHECKF(rc == 0 && count(out, "\"with\": \"pread\"") == 4 && count(out, "\"with\": \"mmap\"") == 2 &&
               !strstr(out, "\"with\": \"pread#2\""), "exit %d: %s", rc, err);
    }
}

/* Rounds in fold-over pairs: each odd round runs the round before it backwards, so over 4
   rounds each of two cells runs first twice, and of three cells each sits in each position
   (first, middle, last) equally over a pair; shuffled independently, one of two cells ran
   first in 4 of 5 rounds, in every run of that seed. */
static void rounds_balance_the_order(void)
{
    const rb_strategy *s[3];
    unsigned th[1] = {1}, n, r, i, first[3];
    rb_matrix m;
    rb_report rep;
    s[0] = rb_strategy_find("null");
    s[1] = rb_strategy_find("pread");
    s[2] = rb_strategy_find("read");
    for (n = 2; n <= 3; n++) {
        memset(&m, 0, sizeof m);
        quick(&m.cfg);
        m.cfg.duration_ns = 2000000;
        m.cfg.iterations = 1;
        m.rounds = 4;
        m.strategies = s;
        m.nstrategies = n;
        m.threads = th;
        m.nthreads = 1;
        if (rb_run_matrix(&m, &rep) != RB_OK) { CHECK(0); continue; }
        memset(first, 0, sizeof first);
        for (r = 0; r < 4; r++) {
            const unsigned *o = rep.order + (size_t)r * n;
            first[o[0]]++;
            if (r & 1)
                for (i = 0; i < n; i++) CHECKF(o[i] == rep.order[(size_t)(r - 1) * n + n - 1 - i], "round %u, place %u", r, i);
        }
        if (n == 2) CHECKF(first[0] == 2 && first[1] == 2, "first %u and %u times of 4", first[0], first[1]);
        rb_report_free(&rep);
    }
}

#ifndef RB_NO_REPORTS   /* the reports: percentile labels, the grid */
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

/* A grid cell with an interval shows its two ends. "79.10 ± 1318.03" of 2 rounds implied a
   negative lower end where the t interval on the logarithms was about [4.7, 1397]; a cold
   cell's small numbers and a narrow interval of 5 rounds read the same way, in the table and
   the markdown, and the legend says what the brackets are. */
static void grid_shows_the_intervals_ends(void)
{
    static rb_result res[3];
    static char doc[1 << 17];
    double two[6] = {9, 10, 11, 400, 420, 440}, cold[2] = {0.0041, 0.0043}, five[5] = {10.1, 10.3, 9.9, 10.2, 10};
    unsigned th[3], md;
    uint64_t rs[3];
    rb_report rep;
    rb_config cfg;
    rb_stats st;
    const char *name;
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f) return;
    synthetic_grid(res, 3, 0, th, rs, &rep, &cfg, &name);
    rep.rounds = 5;
    res[0].samples = two; res[0].nsamples = 6; res[0].rounds = 2;   /* round medians 10 and 420 */
    res[1].samples = cold; res[1].nsamples = 2; res[1].rounds = 2;
    res[2].samples = five; res[2].nsamples = 5; res[2].rounds = 5;
    for (md = 0; md < 3; md++) {
        rb_stats_of(res[md].samples, res[md].nsamples, res[md].rounds, &st);
        res[md].ops_per_ms_median = st.median;
        res[md].ci_lo = st.ci_lo;
        res[md].ci_hi = st.ci_hi;
    }
    CHECKF(res[0].ci_lo > 0 && res[0].ci_hi - res[0].ops_per_ms_median > res[0].ops_per_ms_median,
           "the premise: a wider half that reaches below zero (%g [%g, %g])", res[0].ops_per_ms_median, res[0].ci_lo,
           res[0].ci_hi);
    for (md = 0; md < 2; md++) {
        unsigned k;
        fresh(f);
        rb_report_table(f, &rep, (int)md);
        slurp(f, doc, sizeof doc);
        for (k = 0; k < 3; k++) {   /* "median [lo, hi]", each end to about 3 digits */
            char head[64];
            const char *p;
            double lo = 0, hi = 0;
            snprintf(head, sizeof head, res[k].ops_per_ms_median < 1 ? "%.3g [" : "%.2f [", res[k].ops_per_ms_median);
            p = strstr(doc, head);
            CHECKF(p && sscanf(p + strlen(head) - 1, "[%lf, %lf]", &lo, &hi) == 2 &&
                   fabs(lo / res[k].ci_lo - 1) < 0.01 && fabs(hi / res[k].ci_hi - 1) < 0.01,
                   "cell %u: %g [%g, %g] not shown as such (%g, %g) in:\n%s", k, res[k].ops_per_ms_median,
                   res[k].ci_lo, res[k].ci_hi, lo, hi, doc);
        }
        CHECKF(!strstr(doc, "\xc2\xb1") && strstr(doc, "[lo, hi]: the 95% interval of the cell's rate over its 5 rounds"),
               "%s", doc);
    }
    fclose(f);
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
#endif

static int stop_after_first;
static void stop_on_first_done(const rb_matrix_event *ev, void *user)
{
    if (ev->kind == RB_EVENT_DONE) *(volatile int *)user = 1;
}

/* issue 16 item 16: an interrupt between cells left no marker. The cells the run never
   reached are "not run" in every format. */
static void interrupted_matrix_marks_the_rest(void)
{
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
#ifndef RB_NO_REPORTS
    {   /* in every format */
        static char doc[1 << 17];
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
    }
#endif
    fclose(f);
    rb_report_free(&rep);
    (void)stop_after_first;
}

#ifndef RB_NO_REPORTS   /* the reports say the interrupt */
/* Stops the run once the first cell of round 2 is done. */
static void stop_in_round_two(const rb_matrix_event *ev, void *user)
{
    if (ev->kind == RB_EVENT_DONE && ev->round == 1) *(volatile int *)user = 1;
}

/* An interrupt in round 2 or later wrote a report with no mark: every cell "ok", three of four
   with 1 round, no "interrupted" in the JSON, "over its 2 rounds" under the table, "4 of 4
   cells finished" on stderr. The report says it was interrupted, in which round, and which
   cells have fewer rounds than asked, in every place that spoke of the rounds. */
static void interrupted_in_round_two_is_said(void)
{
    static char doc[1 << 17];
    const rb_strategy *s[2] = {&tick, &tock};
    unsigned th[2] = {1, 2}, i, one = 0, two = 0, try_;
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
    m.rounds = 2;
    m.strategies = s; m.nstrategies = 2;
    m.threads = th; m.nthreads = 2;
    m.progress = stop_in_round_two;
    m.user = (void *)&stop;
    for (try_ = 0;; try_++) {   /* a cell the machine let measure nothing (rbt_unmeasured): again, 3 runs at most */
        unsigned bad = 0;
        stop = 0;
        CHECK(rb_run_matrix(&m, &rep) == RB_EINTR);
        for (i = 0; i < rep.count; i++) bad += rbt_unmeasured(&rep.results[i]);
        if (!bad || try_ == 2) break;
        rb_report_free(&rep);
    }
    CHECKF(rep.interrupted && rep.rounds == 2 && rep.rounds_asked == 2, "interrupted %d, rounds %u of %u",
           rep.interrupted, rep.rounds, rep.rounds_asked);
    for (i = 0; i < rep.count; i++) {
        CHECK(rep.results[i].status == RB_OK);
        one += rep.results[i].rounds == 1;
        two += rep.results[i].rounds == 2;
    }
    CHECKF(one == 3 && two == 1, "%u cells with 1 round, %u with 2", one, two);
    rb_report_json(f, &rep);
    slurp(f, doc, sizeof doc);
    CHECKF(strstr(doc, "\"rounds\": 2, \"rounds_asked\": 2,") && strstr(doc, "\"interrupted\": true"), "%.300s", doc);
    fresh(f);
    rb_report_table(f, &rep, 0);
    slurp(f, doc, sizeof doc);
    CHECKF(strstr(doc, "interrupted in round 2 of 2: 3 of 4 cells have fewer rounds than the 2 asked:") &&
           !strstr(doc, "over its 2 rounds") && strstr(doc, "over the rounds each cell measured, of the 2 rounds asked"), "%s", doc);
    fresh(f);
    rb_report_table(f, &rep, 1);
    slurp(f, doc, sizeof doc);
    CHECKF(strstr(doc, "interrupted in round 2 of 2: 3 of 4 cells have fewer rounds") != NULL, "%s", doc);
    fresh(f);
    rb_report_summary(f, &rep, 1, NULL);
    fflush(f);
    slurp(f, doc, sizeof doc);
    CHECKF(strstr(doc, "interrupted: 4 of 4 cells finished") && strstr(doc, "3 of them in fewer rounds than the 2 asked"),
           "%s", doc);
    rb_report_free(&rep);
    stop = 0;   /* not interrupted: said too, as false */
    m.progress = NULL;
    CHECK(rb_run_matrix(&m, &rep) == RB_OK && !rep.interrupted);
    fresh(f);
    rb_report_json(f, &rep);
    fflush(f);
    slurp(f, doc, sizeof doc);
    CHECK(strstr(doc, "\"interrupted\": false") != NULL);
    fclose(f);
    rb_report_free(&rep);
}
#endif

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

/* The median, its interval and the outliers on numbers worked out by hand. The interval is
   Student t on the logarithms of the round medians: 2 rounds (t 12.706) and 4 (t 3.182). */
static void median_interval_and_outliers(void)
{
    double x[] = {10, 11, 9, 10, 100, 10, 11, 9}, same[] = {5, 5, 5, 5};
    double two[] = {9, 10, 11, 19, 20, 21}, l1 = log(10), l2 = log(20), m, sd, h;
    rb_stats s;
    rb_stats_of(x, 8, 1, &s);
    CHECK(s.n == 8 && s.rounds == 1 && s.median == 10);
    /* MAD: deviations 0,1,1,0,90,0,1,1 -> median 0.5; 0.6745 * 90 / 0.5 = 121 > 3.5; 0.6745 * 1 / 0.5 = 1.35 */
    CHECKF(s.outliers == 1, "%u outliers", s.outliers);
    CHECK(isnan(s.ci_lo) && isnan(s.ci_hi) && isnan(s.center));   /* one round: iterations are not replicates */
    rb_stats_of(two, 6, 2, &s);   /* rounds {9,10,11} and {19,20,21}: medians 10 and 20 */
    m = (l1 + l2) / 2;
    h = 12.706 * fabs(l2 - l1) / sqrt(2) / sqrt(2);
    CHECKF(fabs(s.center - exp(m)) < 1e-9 && fabs(s.ci_lo / exp(m - h) - 1) < 1e-3 && fabs(s.ci_hi / exp(m + h) - 1) < 1e-3,
           "%g [%g, %g], want %g [%g, %g]", s.center, s.ci_lo, s.ci_hi, exp(m), exp(m - h), exp(m + h));
    rb_stats_of(x, 4, 4, &s);   /* {10, 11, 9, 10} as four rounds of one */
    m = (log(10) * 2 + log(11) + log(9)) / 4;
    sd = sqrt((2 * (log(10) - m) * (log(10) - m) + (log(11) - m) * (log(11) - m) + (log(9) - m) * (log(9) - m)) / 3);
    h = 3.182 * sd / 2;
    CHECKF(fabs(s.ci_lo / exp(m - h) - 1) < 1e-3 && fabs(s.ci_hi / exp(m + h) - 1) < 1e-3, "[%g, %g]", s.ci_lo, s.ci_hi);
    rb_stats_of(same, 4, 2, &s);
    CHECK(s.median == 5 && fabs(s.ci_lo - 5) < 1e-9 && fabs(s.ci_hi - 5) < 1e-9 && s.outliers == 0);
    rb_stats_of(x, 7, 2, &s);   /* uneven rounds: no interval rather than a wrong one */
    CHECK(s.median == 10 && isnan(s.ci_lo));
    same[2] = 0;                /* a round at zero has no logarithm: no interval */
    rb_stats_of(same, 4, 4, &s);
    CHECK(isnan(s.ci_lo));
    rb_stats_of(x, 0, 0, &s);
    CHECK(s.n == 0 && isnan(s.median));
    x[4] = 10;   /* {10, 11, 9, 10, 10, 10, 11, 9}: MAD 0.5, nothing more than 1 away */
    rb_stats_of(x, 8, 1, &s);
    CHECK(s.outliers == 0);
}

/* A seeded normal deviate for the simulations (Box-Muller over splitmix64). */
static double sim_normal(uint64_t *st)
{
    uint64_t a, b;
    double u, v;
    *st += 0x9e3779b97f4a7c15ULL; a = *st; a = (a ^ (a >> 30)) * 0xbf58476d1ce4e5b9ULL; a = (a ^ (a >> 27)) * 0x94d049bb133111ebULL;
    *st += 0x9e3779b97f4a7c15ULL; b = *st; b = (b ^ (b >> 30)) * 0xbf58476d1ce4e5b9ULL; b = (b ^ (b >> 27)) * 0x94d049bb133111ebULL;
    u = ((double)((a ^ (a >> 31)) >> 11) + 0.5) / 9007199254740992.0;
    v = ((double)((b ^ (b >> 31)) >> 11) + 0.5) / 9007199254740992.0;
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* A synthetic cell of R rounds x 3 iterations around rate `truth`: per round a drift shared
   with any cell of the same round (drift[r], lognormal), per round a preparation of its own
   (sd 0.05), per iteration noise (sd 0.05). */
static void sim_cell(double *x, unsigned R, double truth, const double *drift, uint64_t *st)
{
    unsigned r, k;
    for (r = 0; r < R; r++) {
        double own = 0.05 * sim_normal(st);
        for (k = 0; k < 3; k++) x[r * 3 + k] = truth * exp(drift[r] + own + 0.05 * sim_normal(st));
    }
}

/* Issue 21: the nominal 95% interval covers the true value in at least 90% of 1,000 seeded
   trials, at 2 and at 5 rounds of 3 iterations with round-to-round drift (sd 0.2 in log: tens
   of percent, as this project's VM drifts): a cell's rate (rb_stats_of), two cells of one run
   paired by round (rb_paired_ratio: the drift cancels), and two separate runs (rb_ratio_ci:
   each run its own drift). Resampling the pooled iterations covered 0.50-0.77 here. */
static void interval_coverage_by_simulation(void)
{
    static const unsigned rounds[2] = {2, 5};
    uint64_t st = 21;
    unsigned k, t;
    for (k = 0; k < 2; k++) {
        unsigned R = rounds[k], cell = 0, paired = 0, welch = 0;
        for (t = 0; t < 1000; t++) {
            double a[15], b[15], d1[5], d2[5], ratio, lo, hi;
            rb_result ra, rbb;
            rb_stats s;
            unsigned r;
            for (r = 0; r < R; r++) { d1[r] = 0.2 * sim_normal(&st); d2[r] = 0.2 * sim_normal(&st); }
            sim_cell(a, R, 10, d1, &st);
            rb_stats_of(a, R * 3, R, &s);
            cell += s.ci_lo <= 10 && 10 <= s.ci_hi;
            sim_cell(b, R, 9, d1, &st);   /* same rounds as a: B is 0.9 of A */
            memset(&ra, 0, sizeof ra); memset(&rbb, 0, sizeof rbb);
            ra.status = rbb.status = RB_OK;
            ra.rounds = rbb.rounds = R;
            ra.nsamples = rbb.nsamples = R * 3;
            ra.samples = a; rbb.samples = b;
            CHECK(rb_paired_ratio(&rbb, &ra, &s) == R);
            paired += s.ci_lo <= 0.9 && 0.9 <= s.ci_hi;
            sim_cell(b, R, 10, d2, &st);   /* a separate run of A: A/A, true ratio 1 */
            CHECK(rb_ratio_ci(a, R * 3, R, b, R * 3, R, &ratio, &lo, &hi) == 0);
            welch += lo <= 1 && 1 <= hi;
        }
        CHECKF(cell >= 900 && paired >= 900 && welch >= 900, "%u rounds: covered %u (cell), %u (paired), %u (separate runs) "
               "of 1000", R, cell, paired, welch);
        fprintf(stderr, "    %u rounds x 3: coverage %.3f cell, %.3f paired, %.3f separate runs\n", R, cell / 1000.0,
                paired / 1000.0, welch / 1000.0);
    }
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
    rbt_realtime(1);   /* 1 ms ticks: beside busy loops, late wake-ups lost 60% of them (rbt_realtime) */
    CHECK(rb_run_matrix(&m, &rep) == RB_OK);
    rbt_realtime(0);
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
#ifndef RB_NO_REPORTS
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
#endif
    rb_report_free(&rep);
    s[1] = rb_strategy_find("null");   /* no I/O: a reference, neither paired nor anyone's best */
    m.progress = NULL;
    CHECK(rb_run_matrix(&m, &rep) == RB_OK);
    for (i = 0; i < rep.count; i++)
        CHECKF(rep.results[i].paired_rounds == 0 && !rep.results[i].paired_with, "%s T%u paired with %s",
               rep.results[i].strategy, rep.results[i].threads, rep.results[i].paired_with);
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
    CHECKF(rb_ratio_ci(sb, 18, 6, sa, 18, 6, &ratio, &lo, &hi) == 0 && lo < 0.9 && hi > 1, "unpaired %g [%g, %g]", ratio, lo, hi);   /* a tie */
    CHECK(rb_paired_ratio(&a, &b, &p) == 6);
    CHECKF(fabs(p.center - 0.9) < 0.02 && p.ci_lo > 0.86 && p.ci_hi < 0.94 && p.ci_lo <= p.center && p.center <= p.ci_hi,
           "%g [%g, %g]", p.center, p.ci_lo, p.ci_hi);
    b.rounds = 4;   /* an interrupted run: the first 4 rounds of B */
    b.nsamples = 12;
    CHECK(rb_paired_ratio(&a, &b, &p) == 4 && p.n == 4 && fabs(p.center - 0.9) < 0.02);
    b.status = RB_ESYS;
    CHECK(rb_paired_ratio(&a, &b, &p) == 0 && isnan(p.center));
    b.status = RB_OK;
    b.nsamples = 0;   /* rounds without samples (an embedder's result): nothing, no crash */
    CHECK(rb_paired_ratio(&a, &b, &p) == 0);
    b.nsamples = 12;
    b.status = RB_OK;
    sb[3] = sb[4] = sb[5] = 0;   /* round 2 of B measured nothing */
    CHECK(rb_paired_ratio(&a, &b, &p) == 0);
}

#ifndef RB_NO_TOOLS   /* the JSON reader and diff are tools */
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

#define CELL(name, status, rounds, samples) "{\"strategy\": \"" name "\", \"threads\": 1, \"read_size\": 4096, " \
                                    "\"pattern\": \"random\", \"status\": \"" status "\", \"rounds\": " #rounds ", " \
                                    "\"samples\": [" samples "]}"

/* The verdicts on made-up numbers: twice as fast, half, the same, not comparable, one side only. */
static void diff_verdicts(void)
{
    const char *b = rbt_path("stats-b.json"), *n = rbt_path("stats-n.json");
    char why[RB_REASON_LEN];
    rb_json *db, *dn;
    rb_diff d;
    unsigned i, seen = 0;
    write_doc(b, CELL("up", "ok", 5, "1, 1.01, 0.99, 1, 1.02") "," CELL("down", "ok", 5, "2, 2.02, 1.98, 2, 2") ","
                 CELL("same", "ok", 5, "5, 5.1, 4.9, 5, 5.05") "," CELL("gone", "ok", 2, "1, 1") ","
                 CELL("broken", "ok", 2, "1, 1") "," CELL("one", "ok", 1, "3, 3.1, 2.9, 3, 3"));
    write_doc(n, CELL("same", "ok", 5, "5.02, 4.95, 5.1, 4.9, 5") "," CELL("down", "ok", 5, "1, 1.01, 0.99, 1, 1") ","
                 CELL("up", "ok", 5, "2, 2.02, 1.98, 2, 2.01") "," CELL("new", "ok", 2, "1, 1") ","
                 CELL("broken", "unsupported", 1, "") "," CELL("one", "ok", 1, "3, 3.1, 2.9, 3, 3"));
    db = rb_json_load(b, why, sizeof why);
    dn = rb_json_load(n, why, sizeof why);
    CHECKF(db && dn, "%s", why);
    if (!db || !dn) { rb_json_free(db); rb_json_free(dn); return; }
    CHECK(rb_diff_make(db, dn, NULL, &d, why, sizeof why) == RB_OK && d.n == 7);
    for (i = 0; i < d.n; i++) {
        const rb_diff_row *x = &d.rows[i];
        if (!strcmp(x->strategy, "up")) { seen |= 1; CHECKF(x->verdict == RB_DIFF_FASTER && x->lo > 1.9 && x->hi < 2.1, "%g [%g %g]", x->ratio, x->lo, x->hi); }
        if (!strcmp(x->strategy, "down")) { seen |= 2; CHECK(x->verdict == RB_DIFF_SLOWER && fabs(x->ratio - 0.5) < 0.01); }
        if (!strcmp(x->strategy, "same")) { seen |= 4; CHECKF(x->verdict == RB_DIFF_SAME && x->lo < 1 && x->hi > 1 &&
                                                              x->lo > 0.9 && x->hi < 1.1, "%g [%g %g]", x->ratio, x->lo, x->hi); }
        if (!strcmp(x->strategy, "gone")) { seen |= 8; CHECK(x->verdict == RB_DIFF_BASE_ONLY); }
        if (!strcmp(x->strategy, "new")) { seen |= 16; CHECK(x->verdict == RB_DIFF_NEW_ONLY); }
        if (!strcmp(x->strategy, "broken")) { seen |= 32; CHECK(x->verdict == RB_DIFF_NOT_COMPARABLE && strstr(x->note, "unsupported")); }
        /* five iterations of one round are not five replicates: no interval, no verdict, and why */
        if (!strcmp(x->strategy, "one")) { seen |= 64; CHECKF(x->verdict == RB_DIFF_NOT_COMPARABLE && isnan(x->lo) &&
                                                              strstr(x->note, "1 round: too few"), "%s", x->note); }
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
    write_doc(n, CELL("pread", "ok", 3, "4, 5, 6") "," CELL("mmap", "ok", 3, "4, 5, 6"));
    for (i = 0; i < sizeof confused / sizeof confused[0]; i++) {
        snprintf(cells, sizeof cells, "{\"strategy\": \"pread\", \"threads\": 1, \"read_size\": 4096, \"pattern\": "
                 "\"random\", \"status\": \"ok\", \"samples\": %s, \"iterations\": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, "
                 "12, 13, 14, 15, 16, 17, 18, 19, 20]}", confused[i]);
        write_doc(b, cells);
        db = rb_json_load(b, why, sizeof why);
        CHECKF(db && rb_diff_make(db, NULL, NULL, NULL, why, sizeof why) == RB_EINVAL &&
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
        snprintf(cells, sizeof cells, CELL("mmap", "ok", 3, "1, 2, 3") ",{\"strategy\": \"pread\", \"threads\": 1, "
                 "\"read_size\": 4096, \"pattern\": \"random\", \"status\": \"ok\", \"samples\": [%s]}", bad[i]);
        write_doc(b, cells);
        db = rb_json_load(b, why, sizeof why);
        CHECKF(db && rb_diff_make(db, NULL, NULL, NULL, why, sizeof why) == RB_EINVAL &&
               strstr(why, "not a readbench run report: result 2 (pread): samples value "), "[%s]: %s", bad[i], why);
        rb_json_free(db);
    }
    /* the same cell twice: refused, both named (it used to pair the first copies and list the
       second as "only in base") */
    write_doc(b, CELL("pread", "ok", 3, "1, 2, 3") "," CELL("mmap", "ok", 3, "4, 5, 6") "," CELL("pread", "ok", 3, "1, 2, 3") ","
                 CELL("mmap", "ok", 3, "4, 5, 6"));
    db = rb_json_load(b, why, sizeof why);
    CHECKF(db && rb_diff_make(db, NULL, NULL, NULL, why, sizeof why) == RB_EINVAL && strstr(why, "the same cell") &&
           (strstr(why, "results 1 and 3") || strstr(why, "results 2 and 4")), "%s", why);
    rb_json_free(db);
    /* a group's rows of one strategy are different cells, and so are other patterns and sizes */
    write_doc(b, CELL("pread", "ok", 3, "1, 2, 3") ",{\"strategy\": \"pread\", \"threads\": 1, \"read_size\": 4096, "
                 "\"pattern\": \"zipf:0.99\", \"status\": \"ok\", \"samples\": [1, 2, 3]},{\"strategy\": \"pread\", "
                 "\"threads\": 1, \"read_size\": 8192, \"pattern\": \"random\", \"status\": \"ok\", \"samples\": [1]}");
    db = rb_json_load(b, why, sizeof why);
    CHECKF(db && rb_diff_make(db, NULL, NULL, NULL, why, sizeof why) == RB_OK, "%s", why);
    rb_json_free(db);
    /* all zeros: no ratio, no verdict, a note saying why */
    write_doc(b, CELL("pread", "ok", 3, "0, 0, 0") "," CELL("mmap", "ok", 3, "4, 5, 6"));
    db = rb_json_load(b, why, sizeof why);
    dn = rb_json_load(n, why, sizeof why);
    CHECKF(db && dn && rb_diff_make(db, dn, NULL, &d, why, sizeof why) == RB_OK && d.n == 2, "%s", why);
    for (i = 0; db && dn && i < d.n; i++)
        if (!strcmp(d.rows[i].strategy, "pread"))
            CHECKF(d.rows[i].verdict == RB_DIFF_NOT_COMPARABLE && isnan(d.rows[i].ratio) && strstr(d.rows[i].note, "0 ops/ms"),
                   "verdict %d, ratio %g, note %s", d.rows[i].verdict, d.rows[i].ratio, d.rows[i].note);
        else CHECK(d.rows[i].ratio == 1 && d.rows[i].verdict != RB_DIFF_FASTER && d.rows[i].verdict != RB_DIFF_SLOWER);
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

/* A collapse to an upper bound ("< X": no op completed inside an iteration) is still called
   slower; two bounds are not comparable; and when the machine kernel says the machine itself
   was 1.30x slower in new, the row says so and claims no verdict (a 20% slowdown on a machine
   30% slower is the machine's as much as the configuration's). */
static void diff_bounds_and_machine(void)
{
    const char *b = rbt_path("stats-bb.json"), *n = rbt_path("stats-bn.json");
    char why[RB_REASON_LEN];
    rb_diff d;
    unsigned i, seen = 0;
#define MCELL(name, extra, samples) "{\"strategy\": \"" name "\", \"threads\": 1, \"read_size\": 4096, " \
    "\"pattern\": \"random\", \"status\": \"ok\", \"rounds\": 5, " extra "\"samples\": [" samples "]}"
    write_doc(b, MCELL("collapse", "", "10, 10.2, 9.9, 10.1, 10") "," MCELL("bounds", "\"ops_per_ms_upper_bound\": true, ", "1, 1, 1, 1, 1") ","
                 MCELL("moved", "\"machine_drift\": {\"before_ns\": 1000000, \"after_ns\": 1000000}, ", "10, 10.1, 9.9, 10, 10") ","
                 MCELL("above", "", "10, 10.2, 9.9, 10.1, 10") "," MCELL("wide", "", "10, 5, 20, 8, 12"));
    write_doc(n, MCELL("collapse", "\"ops_per_ms_upper_bound\": true, ", "0.1, 0.1, 0.1, 0.1, 0.1") ","
                 MCELL("bounds", "\"ops_per_ms_upper_bound\": true, ", "0.5, 0.5, 0.5, 0.5, 0.5") ","
                 MCELL("moved", "\"machine_drift\": {\"before_ns\": 1300000, \"after_ns\": 1300000}, ", "8, 8.1, 7.9, 8, 8") ","
                 MCELL("above", "\"ops_per_ms_upper_bound\": true, ", "50, 50, 50, 50, 50") ","
                 MCELL("wide", "", "9, 14, 6, 11, 10"));
#undef MCELL
    CHECK(rb_diff_files(b, n, &d, why, sizeof why) == RB_OK && d.n == 5);
    for (i = 0; i < d.n; i++) {
        const rb_diff_row *x = &d.rows[i];
        if (!strcmp(x->strategy, "collapse")) { seen |= 1; CHECKF(x->verdict == RB_DIFF_SLOWER && strstr(x->note, "new is an upper bound"), "%d %s", x->verdict, x->note); }
        if (!strcmp(x->strategy, "bounds")) { seen |= 2; CHECKF(x->verdict == RB_DIFF_NOT_COMPARABLE && strstr(x->note, "both sides"), "%d %s", x->verdict, x->note); }
        if (!strcmp(x->strategy, "moved")) {
            seen |= 4;
            CHECKF(x->verdict == RB_DIFF_INCONCLUSIVE && fabs(x->machine_ratio - 1.3) < 1e-9 && fabs(x->band - 0.1) < 1e-9 &&
                   x->hi < 0.85 && strstr(x->note, "the machine itself was 1.30x slower") &&
                   strstr(x->note, "no verdict between two machines"), "%d [%g, %g] %g %s", x->verdict,
                   x->lo, x->hi, x->band, x->note);
        }
        /* a bound above what base measured says nothing: under 50 may be 1 (it was called a tie) */
        if (!strcmp(x->strategy, "above")) { seen |= 8; CHECKF(x->verdict == RB_DIFF_NOT_COMPARABLE, "%d %s", x->verdict, x->note); }
        /* an interval reaching past the band on either side: inconclusive, not "no difference" */
        if (!strcmp(x->strategy, "wide")) {
            seen |= 16;
            CHECKF(x->verdict == RB_DIFF_INCONCLUSIVE && x->lo < 0.9 && x->hi > 1.1 &&
                   fabs(x->ratio - x->new_rate / x->base_rate) < 1e-9, "%d %g [%g %g] %g/%g", x->verdict, x->ratio, x->lo,
                   x->hi, x->new_rate, x->base_rate);
        }
    }
    CHECK(seen == 31);
    rb_diff_free(&d);
}

/* Writes a matrix run of two strategies with 5 rounds as JSON: a separate run of the A/A and
   slowdown protocol of issue 21. */
static int tick_rounds_run(const char *path, const rb_strategy *a, const rb_strategy *b)
{
    const rb_strategy *s[2];
    unsigned th[1] = {1};
    rb_matrix m;
    rb_report rep;
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    s[0] = a; s[1] = b;
    memset(&m, 0, sizeof m);
    quick(&m.cfg);
    m.cfg.iterations = 3;           /* a round's median: one iteration a stall spoilt does not move it */
    m.cfg.duration_ns = 22000000;   /* three 6 ms ticks, two 8 ms ones, each before the end by 4 ms or more */
    m.strategies = s; m.nstrategies = 2;
    m.threads = th; m.nthreads = 1;
    m.rounds = 5;
    if (rb_run_matrix(&m, &rep) != RB_OK) { fclose(f); return -1; }
    rb_report_json(f, &rep);
    rb_report_free(&rep);
    return fclose(f);
}

/* The verdicts of diff(base, cur) counted: [0] faster, [1] slower, [2] the rest. */
static void diff_count(const char *base, const char *cur, unsigned v[3])
{
    char why[RB_REASON_LEN];
    rb_diff d;
    unsigned i;
    CHECKF(rb_diff_files(base, cur, &d, why, sizeof why) == RB_OK && d.n == 2, "%s", why);
    for (i = 0; i < d.n; i++) v[d.rows[i].verdict == RB_DIFF_FASTER ? 0 : d.rows[i].verdict == RB_DIFF_SLOWER ? 1 : 2]++;
    rb_diff_free(&d);
}

/* Issue 21's protocol on separate runs: six runs of one configuration (5 rounds each), all
   15 pairs through diff: at most 1 cell verdict in 20 says faster or slower; and a real 25%
   slowdown (8 ms ops against 6 ms) is called slower in at least 4 of 5 pairs. The strategy
   is deterministic (ticks) so that what is tested is the diff, not this machine's minute. One
   round of iterations is too few for any verdict. */
static void diff_a_a_separate_runs(void)
{
    char aa[6][64], slow[5][64];
    unsigned i, j, k, v[3], w[3];
    /* In the sanitizer build every suite beside it is 2-5x heavier, and the ticks' wake-ups
       came late in all 3 attempts (make check, 2026-12-02: a 25% slowdown called slower in 6,
       6 and 4 of 10 pairs; the A/A side held, 0 of 30): there it runs alone, after them. */
    if (RBT_ASAN) ALONE();
    /* The ticks are deterministic on an idle machine; on a loaded one a late wake-up can lose
       ticks for a whole run, which is the between-run drift diff cannot see: a bounded retry
       (3 attempts of the whole protocol) keeps a busy CI from failing a correct diff. And the
       runs are real-time (rbt_realtime): a window of 2 or 3 ticks is stretched by each wake-up
       that comes late, by 10% and more beside two busy loops (25% slowdowns called slower in 5
       of 10 pairs; the ticks' threads sleep, so they take almost no CPU from anyone). */
    rbt_realtime(1);
    for (k = 0; k < 3; k++) {
        memset(v, 0, sizeof v);
        memset(w, 0, sizeof w);
        for (i = 0; i < 6; i++) {
            snprintf(aa[i], sizeof aa[i], "%s", rbt_path("aa-x.json"));
            aa[i][strlen(aa[i]) - 6] = (char)('0' + i);
            CHECK(tick_rounds_run(aa[i], &tick12, &tock12) == 0);
        }
        for (i = 0; i < 6; i++)
            for (j = i + 1; j < 6; j++) diff_count(aa[i], aa[j], v);
        for (i = 0; i < 5; i++) {
            snprintf(slow[i], sizeof slow[i], "%s", rbt_path("slow-x.json"));
            slow[i][strlen(slow[i]) - 6] = (char)('0' + i);
            CHECK(tick_rounds_run(slow[i], &tick16, &tock16) == 0);
            diff_count(aa[i], slow[i], w);
        }
        fprintf(stderr, "    attempt %u: A/A %u of 30 verdicts faster or slower; 25%% slowdown: %u of 10 called slower\n",
                k + 1, v[0] + v[1], w[1]);
        if (v[0] + v[1] <= 30 / 20 && w[1] >= 2 * 4 && w[0] == 0) break;
        /* Beside the other suites a stretch of the guest's stalls spoilt all 3 attempts in a row
           (make test, 2026-12-02: 4, 6 and 4 of 10 slowdowns called, the A/A side 0 of 30; alone
           10 of 10): attempts back to back share the stretch. A failed first attempt puts the
           test off to run alone after the suites (rbt_alone), where it tries again from scratch. */
        if (k == 0 && rbt_alone()) {
            rbt_realtime(0);
            return;
        }
    }
    rbt_realtime(0);
    CHECKF(v[0] + v[1] <= 30 / 20, "A/A: %u faster, %u slower of 30 verdicts", v[0], v[1]);
    CHECKF(w[1] >= 2 * 4 && w[0] == 0, "25%% slower: %u slower, %u faster of 10 verdicts (5 pairs x 2 cells)", w[1], w[0]);
}

/* A/A in one run of a live strategy: two processes side by side, each with 3 rounds. */
static void diff_a_a(void)
{
    const char *a = rbt_path("stats-aa1.json"), *b = rbt_path("stats-aa2.json");
    char args[2048];
    unsigned same, tries, cpu;
    CHECK(tick_run(a) == 0 && tick_run(b) == 0);
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    snprintf(args, sizeof args, "diff '%s' '%s'", a, b);
    CHECK(cli(args) == 0);
    CHECKF(count(out, "1 round: too few for an interval or a verdict") == 2, "%s", out);
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
                 "--warmup 0 --duration 20ms --iterations 3 --rounds 3 --cpus %u --quiet --format json --output '%s' & "
                 "'%s' run '%s' --strategies pread,read --threads 1 --read-size 4k,16k --prewarm 1 "
                 "--warmup 0 --duration 20ms --iterations 3 --rounds 3 --cpus %u --quiet --format json --output '%s'; wait",
                 rbt_small_file(), cpu, a, rbt_cli(), rbt_small_file(), cpu, b);
        CHECK(cli(args) == 0);
        snprintf(args, sizeof args, "diff '%s' '%s' --format json", a, b);
        CHECK(cli(args) == 0);
        same = 4 - count(out, "\"verdict\": \"faster\"") - count(out, "\"verdict\": \"slower\"");
        if (same < 3) fprintf(stderr, "    A/A pair %u: %u of 4 cells not called faster or slower\n", tries + 1, same);
    }
    CHECKF(same >= 3, "%u of 4 cells not called faster or slower in the last of %u pairs:\n%s", same, tries, out);
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
#endif

#ifndef RB_NO_TOOLS   /* the reports' lines, and the prefetch experiment's (a tool) */
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
#endif

/* Issue 21 item 7: a CPU kernel timed before and after each cell says when the machine moved;
   a slowdown injected mid-cell (the kernel 4 times as long) is flagged in the result, the JSON,
   the CSV and under the table; a cell where nothing was injected carries its figures too. */
static void machine_drift_is_flagged(void)
{
    const rb_strategy *s[2] = {&slowdown, &tick};
    unsigned th[1] = {1};
    rb_matrix m;
    rb_report rep;
    unsigned i;
    memset(&m, 0, sizeof m);
    quick(&m.cfg);
    m.cfg.iterations = 1;
    m.strategies = s; m.nstrategies = 1;
    m.threads = th; m.nthreads = 1;
    ALONE();   /* the other suites' load, coming and going, moves the kernel before the slowdown too */
    /* Up to 3 tries: a cell the machine let measure nothing (rbt_unmeasured), or one whose
       kernel before it was itself slowed by a busy machine (28 ms before, 17 after a 4x
       slowdown, beside two busy loops), runs again. */
    for (i = 0;; i++) {
        const rb_result *y;
        machine_slow = 0;
        CHECK(rb_run_matrix(&m, &rep) == RB_OK);
        machine_slow = 0;
        y = &rep.results[0];
        if ((!rbt_unmeasured(y) && y->machine_after_ns > 1.5 * y->machine_before_ns) || i == 2) break;
        rb_report_free(&rep);
    }
    {
        const rb_result *x = &rep.results[0];
        CHECKF(x->status == RB_OK && x->machine_before_ns > 0 && x->machine_after_ns > 1.5 * x->machine_before_ns &&
               x->machine_drift > 0.5 && x->machine_moved == 1, "%g -> %g ns, drift %g, moved %u", x->machine_before_ns,
               x->machine_after_ns, x->machine_drift, x->machine_moved);
        for (i = 0; i < x->nwarnings && !strstr(x->warnings[i], "the machine moved during this cell"); i++) {}
        CHECK(i < x->nwarnings);
    }
#ifndef RB_NO_REPORTS
    {   /* the table, the JSON and the CSV say so */
        static char doc[1 << 17];
        FILE *f = tmpfile();
        if (f) {
            rb_report_table(f, &rep, 0);
            slurp(f, doc, sizeof doc);
            CHECKF(strstr(doc, "the machine moved during 1 of 1 cells") && strstr(doc, "slowdown T01 (+"), "%s", doc);
            rewind(f);
            rb_report_json(f, &rep);
            slurp(f, doc, sizeof doc);
            CHECK(strstr(doc, "\"machine_drift\": {\"before_ns\": ") && strstr(doc, "\"moved_rounds\": 1}"));
            rewind(f);
            rb_report_csv(f, &rep);
            slurp(f, doc, sizeof doc);
            CHECK(strstr(doc, ",machine_before_ns,machine_after_ns,machine_drift,machine_moved_rounds,") != NULL);
            fclose(f);
        }
    }
#endif
    rb_report_free(&rep);
    m.strategies = s + 1;   /* nothing injected: the figures are there, whatever this machine did */
    CHECK(rb_run_matrix(&m, &rep) == RB_OK);
    CHECK(rep.results[0].machine_before_ns > 0 && rep.results[0].machine_after_ns > 0 &&
          rep.results[0].machine_drift == rep.results[0].machine_drift);
    rb_report_free(&rep);
}

/* Over rounds, machine_drift's before, after and change are one round's, the round that moved
   most: they were the first round's before, the last round's after and the largest change,
   three numbers no round measured together (change +300% beside after / before of 1.0). */
static void machine_drift_is_one_rounds(void)
{
    const rb_strategy *s[1] = {&slow_first};
    unsigned th[1] = {1}, try_;
    rb_matrix m;
    rb_report rep;
    const rb_result *x;
    memset(&m, 0, sizeof m);
    quick(&m.cfg);
    m.cfg.iterations = 1;
    m.rounds = 2;
    m.strategies = s; m.nstrategies = 1;
    m.threads = th; m.nthreads = 1;
    ALONE();   /* as machine_drift_is_flagged: the others' load moves the kernel too */
    for (try_ = 0;; try_++) {   /* up to 3 tries where the busy machine hid the injected 4x */
        first_opens = 0;
        machine_slow = 0;
        CHECK(rb_run_matrix(&m, &rep) == RB_OK);
        machine_slow = 0;
        x = &rep.results[0];
        if ((x->status == RB_OK && x->machine_moved >= 1 && x->machine_drift > 0.5) || try_ == 2) break;
        rb_report_free(&rep);
    }
    CHECKF(x->status == RB_OK && x->rounds == 2 && x->machine_moved >= 1 && x->machine_drift > 0.5,
           "%u rounds, drift %g, moved %u", x->rounds, x->machine_drift, x->machine_moved);
    CHECKF(x->machine_before_ns > 0 && fabs(x->machine_after_ns / x->machine_before_ns - 1 - x->machine_drift) < 1e-9,
           "before %g, after %g, change %g", x->machine_before_ns, x->machine_after_ns, x->machine_drift);
#ifndef RB_NO_REPORTS
    {   /* and so says the JSON */
        static char doc[1 << 17];
        double b = 0, a = 0, ch = 0;
        const char *p;
        FILE *f = tmpfile();
        if (f) {
            rb_report_json(f, &rep);
            slurp(f, doc, sizeof doc);
            fclose(f);
            p = strstr(doc, "\"machine_drift\": {");
            CHECKF(p && sscanf(p, "\"machine_drift\": {\"before_ns\": %lf, \"after_ns\": %lf, \"change\": %lf", &b, &a, &ch) == 3 &&
                   b > 0 && fabs(a / b - 1 - ch) < 1e-3, "%.120s", p ? p : doc);
        }
    }
#endif
    rb_report_free(&rep);
}

/* The child of machine_drift_sees_time_sharing: pinned to one CPU it may use, one crowd cell.
   Exit 0: flagged, the kernel slower after; 1: not flagged; 2: no CPU to pin to, the cell
   failed, or no crowd started. */
static void crowd_child(void)
{
    cpu_set_t set;
    rb_result *r = (rb_result *)calloc(1, sizeof *r);
    rb_config c;
    int cpu, code;
    if (!r || sched_getaffinity(0, sizeof set, &set) != 0) _exit(2);
    for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &set); cpu++) {}
    if (cpu == CPU_SETSIZE) _exit(2);
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) _exit(2);
    rbt_machine_window_ns = 10000000;   /* the header's window: the subject is time-sharing */
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.warmup_ns = RB_NONE;
    c.duration_ns = 30000000;
    c.iterations = 5;
    c.read_size = 4096;
    code = rb_run(&c, &crowd, r) != RB_OK || crowd_started == 0 || crowd_started > CROWD ? 2
         : r->machine_moved && r->machine_drift > RB_MACHINE_MOVED ? 0 : 1;
    crowd_end();
    fprintf(stderr, "    CPU %d, %u busy threads from %.0f ms: kernel %.3g -> %.3g ms per 2^20, change %+.0f%%%s\n", cpu,
            crowd_started, CROWD_AFTER_NS / 1e6, r->machine_before_ns / 1e6, r->machine_after_ns / 1e6,
            100 * r->machine_drift, r->machine_moved ? ", flagged" : "");
    _exit(code);
}

/* The machine kernel must see what a program beside the cell gets, time-sharing included
   (issue 21 item 7, a reviewer's reproducer: a busy loop started on the cell's CPU 2 s in
   halved the cell's rates, and the kernel, the fastest of 3 runs of ~1 ms, each inside one
   scheduler slice, moved by under 4%). In a child pinned to one CPU the crowd strategy starts
   three busy threads there mid-cell and stops them after the cell: the kernel timed after the
   cell shares the CPU with them, and the cell is flagged. Up to 3 tries: a loaded machine also
   slows the kernel before the cell now and then, which can hide a slowdown in one try. */
static void machine_drift_sees_time_sharing(void)
{
    unsigned try_;
    int code = -1;
    ALONE();   /* the other suites' load, coming and going, moves the kernel before the crowd too */
    for (try_ = 0; try_ < 3 && code != 0; try_++) {
        pid_t pid;
        int st;
        fflush(NULL);
        if ((pid = fork()) == 0) crowd_child();
        CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
        code = pid > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        if (code == 2) SKIP("no CPU to pin the child to, or its cell could not run");
    }
    CHECKF(code == 0, "a crowd of busy threads on the cell's CPU was not flagged in 3 tries (exit %d)", code);
}

void suite_stats(void)
{
    RUN(rounds_balance_the_order);
    RUN(machine_drift_is_flagged);
    RUN(machine_drift_sees_time_sharing);
    RUN(machine_drift_is_one_rounds);
#ifndef RB_NO_TOOLS
    RUN(prefetch_progress_line);
    RUN(progress_lines);
    RUN(list_lines);
    RUN(residency_lines);
    RUN(json_reader_parses_and_refuses);
    RUN(diff_verdicts);
    RUN(diff_refuses_what_is_no_rate);
    RUN(diff_a_a);
    RUN(diff_a_a_separate_runs);
    RUN(diff_bounds_and_machine);
    RUN(run_with_baseline);
#endif
    RUN(median_interval_and_outliers);
    RUN(interval_coverage_by_simulation);
    RUN(rounds_shuffle_and_pool_the_samples);
    RUN(paired_ratio_cancels_drift);
    RUN(duplicate_cells_are_refused);
    RUN(a_a_rows_pair_with_their_original);
#ifndef RB_NO_REPORTS
    RUN(percentile_labels_are_exact);
    RUN(every_axis_value_is_drawn);
#endif
    RUN(interrupted_matrix_marks_the_rest);
    RUN(interrupted_cli_count_matches_the_report);
#ifndef RB_NO_REPORTS
    RUN(interrupted_in_round_two_is_said);
    RUN(grid_shows_the_intervals_ends);
#endif
}
