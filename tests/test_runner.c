#define _GNU_SOURCE
#include "readbench.h"
#include "rbtest.h"
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

static rb_result res;

static rb_config quick(unsigned threads)
{
    rb_config c;
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.threads = threads;
    c.warmup_ns = RB_NONE;
    c.duration_ns = 40000000;
    c.iterations = 2;
    c.verify = 1;
    return c;
}

/* Every strategy reads exactly the bytes setup wrote, random and sequential, unaligned
   offsets and two threads; an optional one that cannot run here says why. */
static void every_strategy_reads_the_right_bytes(void)
{
    unsigned n, i, p;
    const rb_strategy *s = rb_strategies(&n);
    for (p = 0; p < 2; p++)
        for (i = 0; i < n; i++) {
            rb_config c = quick(2);
            c.pattern = p ? RB_SEQUENTIAL : RB_RANDOM;
            c.read_size = (s[i].flags & RB_S_DIRECT) ? 8192 : 5000;
            rb_run(&c, &s[i], &res);
            if (res.status == RB_UNSUPPORTED && (s[i].flags & (RB_S_OPTIONAL | RB_S_DIRECT))) {
                fprintf(stderr, "    %s unsupported here: %s\n", s[i].name, res.reason);
                CHECK(res.reason[0] != 0);
                continue;
            }
            CHECKF(res.status == RB_OK, "%s: %s", s[i].name, res.reason);
            /* an op that outlasts a 40 ms iteration on a loaded machine is not counted: then
               the result must say so */
            if (res.ops == 0) {
                fprintf(stderr, "    %s: no op fit in an iteration here\n", s[i].name);
                unsigned k;   /* which warning says so: under load "the machine moved" may come first */
                for (k = 0; k < res.nwarnings && !strstr(res.warnings[k], "completed no op") &&
                            !(res.rate_upper_bound && strstr(res.warnings[k], "upper bound")); k++) {}
                CHECKF(k < res.nwarnings, "%s: %u warnings, none says why: %s", s[i].name, res.nwarnings,
                       res.nwarnings ? res.warnings[0] : "");
                continue;
            }
            CHECK(res.verify_mismatches == 0 && res.io_errors == 0 && res.short_reads == 0);
            CHECK(res.iterations == 2 && res.ops_per_ms > 0 && res.lat.min <= res.lat.max);
            CHECK(rb_hist_total(&res.lat) == res.ops);
            /* each thread's op in flight at the stop of each iteration made its calls too */
            if (s[i].hint == RB_HINT_MADVISE && s[i].policy != RB_PREFETCH_ALWAYS)   /* through a policy */
                CHECK(res.prefetch.calls >= res.ops * res.reads_per_op &&
                      res.prefetch.calls <= (res.ops + 2 * 2) * res.reads_per_op && res.madvise_failed == 0);
            else if (s[i].hint == RB_HINT_MADVISE || s[i].hint == RB_HINT_POPULATE)   /* every read */
                CHECKF(res.madvise_calls >= res.ops * 16 && res.madvise_failed == 0,
                       "%s: %llu madvise calls, %llu failed", s[i].name,
                       (unsigned long long)res.madvise_calls, (unsigned long long)res.madvise_failed);
            else
                CHECK(res.madvise_calls == 0);
        }
}

/* --verify can fail: reading a file made with another seed is reported as a mismatch. */
static void verify_catches_wrong_data(void)
{
    rb_config c = quick(1);
    c.data_seed = 12345;
    rb_run(&c, rb_strategy_find("pread"), &res);
    CHECK(res.status == RB_EVERIFY && res.verify_mismatches > 0);
    rb_run(&c, rb_strategy_find("mmap"), &res);
    CHECK(res.status == RB_EVERIFY);
}

static void page_range_alignment_and_clamping(void)
{
    uint64_t st, len, page = 4096, map = 10 * 4096 + 100, off;
    /* first page, unaligned */
    CHECK(rb_page_range(1, 10, page, map, &st, &len) == 1 && st == 0 && len == 11);
    CHECK(rb_page_range(0, 4096, page, map, &st, &len) == 1 && st == 0 && len == 4096);
    /* spanning two pages */
    CHECK(rb_page_range(4000, 200, page, map, &st, &len) == 1 && st == 0 && len == 4200);
    /* the last, partial page: clamped to the mapping, never past it */
    CHECK(rb_page_range(map - 10, 16384, page, map, &st, &len) == 1 && st == 10 * 4096 && st + len == map);
    CHECK(rb_page_range(map - 1, 1, page, map, &st, &len) == 1 && st == 10 * 4096 && len == 100);
    /* beyond the mapping and empty: nothing to advise */
    CHECK(rb_page_range(map + 5000, 10, page, map, &st, &len) == 0 && len == 0);
    CHECK(rb_page_range(100, 0, page, map, &st, &len) == 0);
    for (off = 0; off < map; off += 997) {
        CHECK(rb_page_range(off, 16384, page, map, &st, &len) == 1);
        CHECK(st % page == 0 && st <= off && st + len <= map);
        CHECK(st + len == (off + 16384 < map ? off + 16384 : map));
    }
}

/* A custom strategy, added from outside the header: it records the offsets it is handed
   and advises the first and the last byte of the mapping through rb_worker_advise. */
static uint64_t seen[4][256];
static unsigned nseen[4];

static int rec_open(rb_target *t, char *why, size_t wl)
{
    const rb_strategy *m = rb_strategy_find("mmap-random");
    return m->open(t, why, wl);
}

static int rec_op(rb_worker *w, const uint64_t *off, unsigned n)
{
    unsigned i;
    for (i = 0; i < n && nseen[w->index] < 256; i++) seen[w->index][nseen[w->index]++] = off[i];
    rb_worker_advise(w, 0, 1, MADV_WILLNEED);
    rb_worker_advise(w, w->t->map_len - 1, 1, MADV_WILLNEED);
    rb_worker_advise(w, w->t->map_len - 3, 100, MADV_WILLNEED);
    rb_worker_advise(w, off[0], w->t->cfg->read_size, MADV_WILLNEED);
    return 0;
}

static void rec_close(rb_target *t) { rb_strategy_find("mmap-random")->close(t); }

static const rb_strategy recorder = {"recorder", "records offsets", RB_S_MMAP, RB_ADVICE_RANDOM, RB_HINT_NONE, 0, 0,
                                     0, rec_open, NULL,
                                     rec_op, NULL, rec_close};

static void record(rb_config *c, uint64_t out[4][256])
{
    memset(nseen, 0, sizeof nseen);
    memset(seen, 0, sizeof seen);
    rb_run(c, &recorder, &res);
    memcpy(out, seen, sizeof seen);
}

static uint64_t a[4][256], b[4][256];

/* --cpus: every op of worker i runs on cpus[i % n] (Linux; elsewhere the cell says unsupported) */
static volatile int cpu_seen[4][2];   /* [worker] = {lowest, highest} CPU an op ran on */

static int cpu_op(rb_worker *w, const uint64_t *off, unsigned n)
{
    int cpu = -1;
    (void)off;
    (void)n;
#if defined(__linux__) && !defined(RB_NO_LINUX)
    cpu = sched_getcpu();
#endif
    if (w->index < 4) {
        if (cpu < cpu_seen[w->index][0]) cpu_seen[w->index][0] = cpu;
        if (cpu > cpu_seen[w->index][1]) cpu_seen[w->index][1] = cpu;
    }
    return 0;
}

static int cpu_open(rb_target *t, char *why, size_t wl) { return rb_strategy_find("null")->open(t, why, wl); }
static void cpu_close(rb_target *t) { rb_strategy_find("null")->close(t); }
static const rb_strategy cpu_probe = {"cpu-probe", "records the CPU of each op", RB_S_NOIO, 0, RB_HINT_NONE, 0, 0, 0,
                                      cpu_open, NULL,
                                      cpu_op, NULL, cpu_close};

static void cpus_pin_each_worker(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned cpus[2], i;
    rb_config c = quick(4);
    c.verify = 0;
    cpus[0] = 0;
    cpus[1] = n > 1 ? (unsigned)n - 1 : 0;
    if (rb_cpu_allowed(cpus[0]) != 1 || rb_cpu_allowed(cpus[1]) != 1) {
        c.cpus = cpus;
        c.ncpus = 2;
        rb_run(&c, &cpu_probe, &res);
        CHECK(res.status != RB_OK);   /* unsupported here, or a CPU we may not use: never silently unpinned */
        SKIP("this process may not run on CPU 0 and the last CPU, or pinning is unsupported here");
    }
    for (i = 0; i < 4; i++) { cpu_seen[i][0] = 1 << 20; cpu_seen[i][1] = -1; }
    c.cpus = cpus;
    c.ncpus = 2;
    rb_run(&c, &cpu_probe, &res);
    CHECKF(res.status == RB_OK, "%s", res.reason);
    for (i = 0; i < 4; i++)   /* workers 0 and 2 on cpus[0], 1 and 3 on cpus[1], every op */
        CHECKF(cpu_seen[i][0] == (int)cpus[i % 2] && cpu_seen[i][1] == (int)cpus[i % 2],
               "worker %u ran on CPUs %d..%d, pinned to %u", i, cpu_seen[i][0], cpu_seen[i][1], cpus[i % 2]);
    cpus[0] = 1u << 30;   /* no such CPU: the cell fails and says why */
    c.ncpus = 1;
    rb_run(&c, &cpu_probe, &res);
    CHECK(res.status == RB_EINVAL && strstr(res.reason, "CPU") != NULL);
}

static void offsets_in_range_reproducible_per_seed(void)
{
    rb_config c = quick(2);
    unsigned i, unaligned = 0;
    c.verify = 0;
    c.read_size = 5000;
    c.seed = 7;
    record(&c, a);
    CHECKF(res.status == RB_OK && res.madvise_failed == 0, "%s", res.reason);
    CHECK(res.madvise_calls > 0);
    CHECK(nseen[0] == 256 && nseen[1] == 256);
    for (i = 0; i < 256; i++) {
        CHECK(a[0][i] + 5000 <= (8u << 20) && a[1][i] + 5000 <= (8u << 20));
        unaligned += a[0][i] % 4096 != 0;
    }
    CHECK(unaligned > 200);                       /* random offsets are not page-aligned */
    CHECK(memcmp(a[0], a[1], sizeof a[0]) != 0);  /* threads draw different offsets */
    record(&c, b);
    CHECK(memcmp(a, b, sizeof a) == 0);           /* same seed, same offsets */
    c.seed = 8;
    record(&c, b);
    CHECK(memcmp(a[0], b[0], sizeof a[0]) != 0); /* another seed, other offsets */
    /* --size limits the range */
    c.seed = 7;
    c.size = 1 << 20;
    record(&c, b);
    for (i = 0; i < 256; i++) CHECK(b[0][i] + 5000 <= (1u << 20));
}

static void sequential_offsets_advance_and_wrap(void)
{
    rb_config c = quick(2);
    unsigned i;
    c.verify = 0;
    c.pattern = RB_SEQUENTIAL;
    c.read_size = 65536;
    c.size = 1 << 20;   /* 16 positions: each thread wraps many times in 256 reads */
    record(&c, a);
    CHECK(a[0][0] == 0 && a[1][0] == 8 * 65536);   /* threads start half a file apart */
    for (i = 1; i < 256; i++) {
        CHECK(a[0][i] == (a[0][i - 1] + 65536) % (1u << 20));
        CHECK(a[1][i] % 65536 == 0);
    }
}

static void direct_offsets_are_page_aligned(void)
{
    rb_config c = quick(1);
    const rb_strategy *d = rb_strategy_find("direct");
    char why[256];
    c.read_size = 4096;
    if (rb_strategy_probe(d, &c, why, sizeof why) != RB_OK) SKIP(why);
    c.verify = 1;
    rb_run(&c, d, &res);
    CHECKF(res.status == RB_OK, "%s", res.reason);   /* O_DIRECT refuses unaligned offsets */
    c.read_size = 5000;
    CHECK(rb_strategy_probe(d, &c, why, sizeof why) == RB_UNSUPPORTED && strstr(why, "multiple of the page"));
}

static void cells_report_errors_instead_of_numbers(void)
{
    rb_config c = quick(1);
    c.path = rbt_path("nope.dat");
    CHECK(rb_run(&c, rb_strategy_find("pread"), &res) == RB_ENOFILE && res.reason[0]);
    c.path = rbt_small_file();
    c.size = 1ull << 30;   /* more than the file has */
    CHECK(rb_run(&c, rb_strategy_find("mmap"), &res) == RB_ETOOSMALL);
    CHECK(strstr(res.reason, "fewer than the") != NULL);
    c.size = 0;
    c.read_size = 16u << 20;   /* larger than the file */
    CHECK(rb_run(&c, rb_strategy_find("pread"), &res) == RB_EINVAL);
}

/* Reader processes and memory limits are layer 3's, reached through rb_config.spawner: without
   one the core refuses such a cell, saying what to attach, and reads nothing. */
static void processes_without_a_spawner_are_refused(void)
{
    rb_config c = quick(1);
    unsigned k;
    for (k = 0; k < 2; k++) {
        c.processes = k ? 1 : 2;
        c.memory_limit = k ? 64u << 20 : 0;
        CHECK(rb_run(&c, rb_strategy_find("pread"), &res) == RB_UNSUPPORTED);
        CHECKF(strstr(res.reason, "rb_processes_attach") != NULL && res.ops == 0, "%s", res.reason);
    }
    {   /* a matrix's processes axis is refused before anything runs, not cell by cell */
        static const unsigned procs[2] = {1, 2};
        rb_matrix m;
        char why[256];
        memset(&m, 0, sizeof m);
        m.cfg = quick(1);
        m.processes = procs;
        m.nprocesses = 2;
        CHECK(rb_matrix_check(&m, why, sizeof why) == RB_UNSUPPORTED && strstr(why, "rb_processes_attach"));
    }
}

static void threads_many_and_warmup(void)
{
    rb_config c = quick(16);   /* 16 threads on 2 cores: every iteration still sees ops */
    c.warmup_ns = 20000000;
    c.iterations = 3;
    c.duration_ns = 100000000;
    rb_run(&c, rb_strategy_find("mmap"), &res);
    CHECKF(res.status == RB_OK, "%s", res.reason);
    CHECK(res.threads == 16 && res.iterations == 3);
    /* under a sanitizer an op can outlast a 100 ms slice of 2 cores: then the result says so */
    CHECK((res.iter_ops_per_ms[0] > 0 && res.iter_ops_per_ms[2] > 0) || res.nwarnings > 0);
    /* each iteration's longest thread window ends by its deadline (per-thread windows) */
    CHECKF(res.seconds > 0.05 && res.seconds <= 0.3, "%.3f s", res.seconds);
    CHECK(res.ops_per_ms_stddev >= 0);
}

/* Someone truncates the file while an mmap strategy reads it: SIGBUS must not end the
   process; the cell ends with RB_ECHANGED and says why. */
#include <fcntl.h>
#include <pthread.h>

typedef struct bus_arg { rb_config c; const char *name; rb_result r; } bus_arg;

static void *bus_runner(void *p)
{
    bus_arg *a = (bus_arg *)p;
    rb_run(&a->c, rb_strategy_find(a->name), &a->r);
    return NULL;
}

static void truncated_file_is_reported_not_fatal(void)
{
    static bus_arg a;
    const char *names[] = {"mmap", "mmap-random-willneed", "pread"};
    const char *p = rbt_path("shrinks.dat");
    unsigned i;
    for (i = 0; i < 3; i++) {
        rb_error e;
        pthread_t tid;
        int fd;
        CHECK(rb_setup_file(p, 16u << 20, 0, 1, NULL, NULL, &e) == RB_OK);
        memset(&a, 0, sizeof a);
        a.c.path = p;
        a.c.threads = 2;
        a.c.warmup_ns = RB_NONE;
        a.c.duration_ns = 2000000000;
        a.c.iterations = 1;
        a.name = names[i];
        CHECK(pthread_create(&tid, NULL, bus_runner, &a) == 0);
        usleep(200000);
        fd = open(p, O_WRONLY);
        CHECK(fd >= 0 && ftruncate(fd, 4096) == 0);
        close(fd);
        pthread_join(tid, NULL);
        if (i == 2)   /* pread past the new end: short reads, counted, and the size change named */
            CHECKF(a.r.short_reads > 0 && strstr(a.r.reason, "size went from") != NULL, "pread: %s", a.r.reason);
        CHECKF(a.r.status == RB_ECHANGED, "%s: status %d (%s)", names[i], a.r.status, a.r.reason);
        CHECK(strstr(a.r.reason, "file changed during the run") != NULL);
    }
}

/* The caller's stop flag (what the CLI's SIGINT handler sets) ends a cell early. */
static void stop_flag_ends_the_cell(void)
{
    static bus_arg a;
    static volatile int stop;
    pthread_t tid;
    memset(&a, 0, sizeof a);
    a.c.path = rbt_small_file();
    a.c.warmup_ns = RB_NONE;
    a.c.duration_ns = 3000000000LL;
    a.c.iterations = 2;
    a.c.stop = &stop;
    a.name = "pread";
    stop = 0;
    CHECK(pthread_create(&tid, NULL, bus_runner, &a) == 0);
    usleep(100000);
    __atomic_store_n(&stop, 2, __ATOMIC_RELAXED);   /* what the CLI's signal handler does */
    pthread_join(tid, NULL);
    CHECK(a.r.status == RB_EINTR && strcmp(a.r.reason, "interrupted") == 0);
}

/* A madvise that fails makes the cell an error, never a number. */
static int bad_advice_op(rb_worker *w, const uint64_t *off, unsigned n)
{
    rb_worker_advise(w, off[0], 100, 12345);   /* no such advice: EINVAL */
    return rb_strategy_find("mmap")->read_op(w, off, n);
}

static void failed_madvise_fails_the_cell(void)
{
    rb_strategy bad = *rb_strategy_find("mmap");
    rb_config c = quick(1);
    bad.name = "bad-advice";
    bad.read_op = bad_advice_op;
    c.verify = 0;
    CHECK(rb_run(&c, &bad, &res) == RB_ESYS);
    CHECKF(strstr(res.reason, "madvise calls failed") != NULL, "%s", res.reason);
    CHECK(res.madvise_failed > 0 && res.madvise_failed == res.madvise_calls);
}

/* A cell observer of the caller's own (rb_config.observer, the hook the victim uses): called
   once per cell in order, its state kept, its rows the cell's; a refusal from cell fails the
   cell with the reason; its check refuses the run up front. */
static unsigned obs_calls[5];
static int obs_refuse;
static int obs_check(const rb_observer *o, const rb_config *c, char *why, size_t wl)
{
    (void)o; (void)c;
    obs_calls[0]++;
    if (obs_refuse == 2) { snprintf(why, wl, "observer says no"); return RB_EINVAL; }
    return RB_OK;
}
static int obs_cell(const rb_observer *o, const rb_config *c, void **state, char *why, size_t wl)
{
    (void)c;
    *state = o->user;
    obs_calls[1]++;
    if (obs_refuse == 1) { snprintf(why, wl, "observer refused the cell"); return RB_ESYS; }
    return RB_OK;
}
static void obs_measuring(void *state, rb_result *const *rows, unsigned n)
{
    obs_calls[2] += state == (void *)obs_calls && n == 1 && rows[0]->ops == 0;
}
static const rb_cell *obs_cell_live;
static rb_live obs_seen;
static unsigned obs_more;   /* iterations more() still asks for */
static void obs_live(void *state, const rb_cell *cell)
{
    (void)state;
    obs_cell_live = cell;
    rb_cell_live(cell, &obs_seen);   /* before the threads start: nothing done yet */
    CHECK(obs_seen.ops == 0 && obs_seen.started_ns == 0 && obs_seen.threads == 1);
}
static int obs_more_fn(void *state, rb_result *const *rows, unsigned n)
{
    (void)state; (void)rows; (void)n;
    if (!obs_more) return 0;
    obs_more--;
    return 1;
}
static void obs_measured(void *state, rb_result *const *rows, unsigned n)
{
    (void)state;
    obs_calls[3]++;
    if (n == 1) rows[0]->victim_pages = 7;   /* anything it fills is in the row */
    if (obs_cell_live) rb_cell_live(obs_cell_live, &obs_seen);   /* every phase done: the cell's whole count */
}
static void obs_close(void *state, rb_result *const *rows, unsigned n)
{
    (void)state; (void)rows; (void)n;
    obs_calls[4]++;
}

static void observer_hook_runs_beside_each_cell(void)
{
    rb_observer o = {obs_check, obs_cell, obs_measuring, obs_measured, obs_close, obs_calls, obs_live, obs_more_fn};
    rb_config c = quick(1);
    c.observer = &o;
    memset(obs_calls, 0, sizeof obs_calls);
    obs_refuse = 0;
    CHECK(rb_run(&c, rb_strategy_find("pread"), &res) == RB_OK);
    CHECKF(obs_calls[0] == 1 && obs_calls[1] == 1 && obs_calls[2] == 1 && obs_calls[3] == 1 && obs_calls[4] == 1,
           "%u %u %u %u %u", obs_calls[0], obs_calls[1], obs_calls[2], obs_calls[3], obs_calls[4]);
    CHECK(res.victim_pages == 7);
    /* the live counters: the ops every worker started (the measured ones, and one in flight at
       each iteration's end at most), their reads, the last phase */
    CHECKF(obs_seen.ops >= res.ops && obs_seen.ops <= res.ops + 2 && obs_seen.reads == obs_seen.ops * res.reads_per_op &&
           obs_seen.started_ns > 0 && obs_seen.phase == 2, "live %llu ops (result %llu), phase %u",
           (unsigned long long)obs_seen.ops, (unsigned long long)res.ops, obs_seen.phase);
    obs_more = 3;   /* more(): three iterations past the two planned, each measured and counted */
    CHECK(rb_run(&c, rb_strategy_find("pread"), &res) == RB_OK);
    CHECKF(res.iterations == 5 && obs_more == 0 && obs_seen.phase == 5, "%u iterations", res.iterations);
    obs_cell_live = NULL;
    obs_refuse = 1;
    memset(obs_calls, 0, sizeof obs_calls);
    CHECK(rb_run(&c, rb_strategy_find("pread"), &res) == RB_ESYS && strstr(res.reason, "observer refused the cell"));
    CHECK(obs_calls[1] == 1 && obs_calls[3] == 0 && obs_calls[4] == 1);   /* closed all the same */
    obs_refuse = 2;
    CHECK(rb_run(&c, rb_strategy_find("pread"), &res) == RB_EINVAL && strstr(res.reason, "observer says no"));
}

void suite_runner(void)
{
    RUN(observer_hook_runs_beside_each_cell);
    RUN(failed_madvise_fails_the_cell);
    RUN(truncated_file_is_reported_not_fatal);
    RUN(stop_flag_ends_the_cell);
    RUN(every_strategy_reads_the_right_bytes);
    RUN(verify_catches_wrong_data);
    RUN(page_range_alignment_and_clamping);
    RUN(offsets_in_range_reproducible_per_seed);
    RUN(sequential_offsets_advance_and_wrap);
    RUN(direct_offsets_are_page_aligned);
    RUN(cells_report_errors_instead_of_numbers);
    RUN(processes_without_a_spawner_are_refused);
    RUN(threads_many_and_warmup);
    RUN(cpus_pin_each_worker);
}
