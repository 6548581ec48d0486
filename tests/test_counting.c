/* suite counting: what the runner counts and what it says about it. Per-thread windows (an
   op in flight at the stop is not counted), the residency when measuring starts, alignment,
   exact percentile ranks, and the result's warnings in every output format. */
#define _GNU_SOURCE
#include "readbench.h"
#include "rbtest.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#if defined(READBENCH_LIBURING)
#include <liburing.h>
#endif

static rb_result res;

#ifndef RB_NO_REPORTS
/* The whole of what a writer printed, as one string (static, overwritten by the next call). */
static const char *slurp(FILE *f)
{
    static char buf[1 << 17];
    size_t n;
    rewind(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}
#endif

/* The text of the first warning of res that holds `part`, or NULL. */
static const char *warning_with(const rb_result *x, const char *part)
{
    unsigned k;
    for (k = 0; k < x->nwarnings; k++)
        if (strstr(x->warnings[k], part)) return x->warnings[k];
    return NULL;
}

#ifndef RB_NO_REPORTS   /* a result's report, and the test of the warnings in every format */
static rb_report one_cell_report(const rb_result *x, const char *const *names, unsigned *threads,
                                 uint64_t *sizes)
{
    rb_report r;
    memset(&r, 0, sizeof r);
    r.results = x;
    r.count = 1;
    r.strategies = names;
    r.nstrategies = 1;
    threads[0] = x->threads;
    r.threads = threads;
    r.nthreads = 1;
    sizes[0] = x->read_size;
    r.read_sizes = sizes;
    r.nread_sizes = 1;
    return r;
}

/* A result's warnings reach every output format: JSON as a list per row (escaped), CSV as
   one quoted column, table and markdown as a footnote whose number marks the cell; more
   than RB_MAX_WARNINGS are counted, not lost silently. */
static void warnings_reach_every_format(void)
{
    static const char *const names[] = {"null"};
    unsigned th[1], k;
    uint64_t sz[1];
    rb_report r;
    const char *out;
    memset(&res, 0, sizeof res);
    rb_hist_init(&res.lat);
    res.strategy = "null";
    res.threads = 2;
    res.read_size = 4096;
    res.iterations = 1;
    res.ops_per_ms = 1.5;
    rb_hist_record(&res.lat, 1000);
    snprintf(res.warnings[0], RB_REASON_LEN, "first \"quoted\" warning");
    snprintf(res.warnings[1], RB_REASON_LEN, "second warning");
    res.nwarnings = 2;
    r = one_cell_report(&res, names, th, sz);

    { FILE *f = tmpfile(); rb_report_json(f, &r); out = slurp(f); }
    CHECKF(strstr(out, "\"warnings\": [\"first \\\"quoted\\\" warning\", \"second warning\"]") != NULL, "%s", out);
    { FILE *f = tmpfile(); rb_report_csv(f, &r); out = slurp(f); }
    CHECKF(strstr(out, ",warnings\n") != NULL, "%s", out);
    CHECKF(strstr(out, ",\"first \"\"quoted\"\" warning | second warning\"\n") != NULL, "%s", out);
    { FILE *f = tmpfile(); rb_report_table(f, &r, 0); out = slurp(f); }
    CHECKF(strstr(out, "1.50 [1]") != NULL && strstr(out, "[1] null T02 4 KiB:") != NULL &&
           strstr(out, "second warning") != NULL, "%s", out);
    { FILE *f = tmpfile(); rb_report_table(f, &r, 1); out = slurp(f); }
    CHECKF(strstr(out, "**warnings**") != NULL && strstr(out, "  - first \"quoted\" warning") != NULL, "%s", out);

    for (k = 0; k < RB_MAX_WARNINGS; k++) snprintf(res.warnings[k], RB_REASON_LEN, "w%u", k);
    res.nwarnings = RB_MAX_WARNINGS;
    res.warnings_dropped = 3;
    { FILE *f = tmpfile(); rb_report_json(f, &r); out = slurp(f); }
    CHECKF(strstr(out, "\"3 more warnings were not kept\"]") != NULL, "%s", out);
}
#endif

/* A custom strategy whose op sleeps 300 ms: in a 1 s iteration each thread completes 3 ops
   (ending at 300, 600 and 900 ms) and has a fourth in flight at the stop. Per-thread
   windows: 3 ops / 900 ms = 0.00333 ops/ms per thread, the sum over threads for the cell.
   The old runner counted the op in flight and divided by the coordinator's 1 s: 0.004 and
   0.016 (+20%). */
static int sleep_300ms_op(rb_worker *w, const uint64_t *off, unsigned n)
{
    struct timespec ts = {0, 300000000};
    (void)w; (void)off; (void)n;
    while (nanosleep(&ts, &ts) != 0) {}
    return 0;
}

static void slow_ops_use_per_thread_windows(void)
{
    rb_strategy slow = *rb_strategy_find("null");
    unsigned t;
    slow.name = "sleep-300ms";
    slow.read_op = sleep_300ms_op;
    for (t = 1; t <= 4; t += 3) {
        rb_config c;
        double want = t / 300.0;
        unsigned tries;
        memset(&c, 0, sizeof c);
        c.path = rbt_small_file();
        c.threads = t;
        c.warmup_ns = RB_NONE;
        c.duration_ns = 1000000000;
        c.iterations = 1;
        /* Real-time, so that busy loops do not delay the wake-ups; and run again (3 runs at most)
           when the rate is off: this VM stalls the whole guest for 10-30 ms at times, and a
           stall before a thread's first op is in its window but in no op's latency (2% is 18 ms). */
        rbt_realtime(1);
        for (tries = 0; tries < 3; tries++) {
            int rc = rb_run(&c, &slow, &res);
            double lat = t / (rb_hist_mean(&res.lat) / 1e6);
            if (rc != RB_OK || (fabs(res.ops_per_ms - want) <= 0.05 * want && fabs(res.ops_per_ms - lat) <= 0.02 * lat))
                break;
            fprintf(stderr, "    %u threads: %.5f ops/ms, threads / mean latency %.5f: again\n", t, res.ops_per_ms, lat);
        }
        rbt_realtime(0);
        CHECKF(res.status == RB_OK, "%s", res.reason);
        /* 0.00333 x threads when a 300 ms sleep lasts 300 ms; on a loaded machine a sleep
           overshoots, so the exact reference is threads / mean op latency (the issue's own
           check of the cold mmap cell), within 2% */
        CHECKF(fabs(res.ops_per_ms - want) <= 0.05 * want, "%u threads: %.5f ops/ms, want %.5f", t, res.ops_per_ms, want);
        want = t / (rb_hist_mean(&res.lat) / 1e6);
        CHECKF(fabs(res.ops_per_ms - want) <= 0.02 * want, "%u threads: %.5f ops/ms, threads / mean latency %.5f", t,
               res.ops_per_ms, want);
        CHECKF(res.ops == 3u * t && res.min_thread_ops == 3, "%u threads: %llu ops, fewest %llu", t,
               (unsigned long long)res.ops, (unsigned long long)res.min_thread_ops);
        CHECK(rb_hist_total(&res.lat) == res.ops);
        /* fewer than 20 ops: said in the result, with no CLI flag in the library's words */
        CHECKF(warning_with(&res, "only 3 ops") && !strstr(warning_with(&res, "only 3 ops"), "--"), "%s",
               res.warnings[0]);
        /* one iteration: no spread to speak of (null, "-"), not 0 */
        CHECK(res.ops_per_ms_stddev != res.ops_per_ms_stddev);
#ifndef RB_NO_REPORTS
        {   /* and so say the reports */
            static const char *const names[] = {"sleep-300ms"};
            unsigned th[1];
            uint64_t sz[1];
            rb_report r = one_cell_report(&res, names, th, sz);
            const char *out;
            { FILE *f = tmpfile(); rb_report_json(f, &r); out = slurp(f); }
            CHECKF(strstr(out, "\"ops_per_ms_stddev\": null") != NULL && strstr(out, "\"min_thread_ops\": 3,") != NULL,
                   "%s", out);
            { FILE *f = tmpfile(); rb_report_table(f, &r, 0); out = slurp(f); }
            CHECKF(strstr(out, "only 3 ops") != NULL && strstr(out, "        -") != NULL, "%s", out);
        }
#endif
    }
}

/* An op longer than the iteration: no op of the thread fits, so it adds nothing to the
   rate (JMH). Still a measurement: each thread's op had been running w ms when its iteration
   ended, so it does under 1/w ops/ms, and the cell is that bound, said as one ("< X", a flag
   in every format), where "error" would hide the slowest strategy of all. An op that fails
   is still an error. */
static int sleep_150ms_op(rb_worker *w, const uint64_t *off, unsigned n)
{
    struct timespec ts = {0, 150000000};
    (void)w; (void)off; (void)n;
    while (nanosleep(&ts, &ts) != 0) {}
    return 0;
}

static int sleep_150ms_fail_op(rb_worker *w, const uint64_t *off, unsigned n)
{
    sleep_150ms_op(w, off, n);
    w->io_errors++;
    w->io_errno = EIO;
    return -1;
}

static void an_op_longer_than_the_iteration_is_an_upper_bound(void)
{
    rb_strategy slow = *rb_strategy_find("null");
    rb_config c;
    unsigned k;
    slow.name = "sleep-150ms";
    slow.flags = 0;
    slow.read_op = sleep_150ms_op;
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.threads = 2;
    c.warmup_ns = RB_NONE;
    c.duration_ns = 100000000;
    c.iterations = 2;
    CHECKF(rb_run(&c, &slow, &res) == RB_OK && res.status == RB_OK, "%d %s", res.status, res.reason);
    CHECKF(res.ops == 0 && res.rate_upper_bound == 1, "%llu ops, bound %d", (unsigned long long)res.ops,
           res.rate_upper_bound);
    /* each thread's op started at most 100 ms before its iteration ended: the bound is at least
       2 threads / 100 ms, and above the true rate, 2 ops per 150 ms */
    for (k = 0; k < 2; k++)
        CHECKF(res.iter_ops_per_ms[k] >= 2 / 100.0 * (1 - 1e-9) && res.iter_ops_per_ms[k] > 2 / 150.0,
               "iteration %u: under %g ops/ms", k, res.iter_ops_per_ms[k]);
    CHECK(res.ops_per_ms >= 0.02 * (1 - 1e-9) && res.ops_per_ms_stddev != res.ops_per_ms_stddev);
    CHECKF(warning_with(&res, "each rate here is an upper bound") != NULL, "%s", res.warnings[0]);
#ifndef RB_NO_REPORTS
    {   /* a flag in every format */
        static const char *const names[] = {"sleep-150ms"};
        unsigned th[1];
        uint64_t sz[1];
        rb_report r = one_cell_report(&res, names, th, sz);
        const char *out;
        { FILE *f = tmpfile(); rb_report_json(f, &r); out = slurp(f); }
        CHECKF(strstr(out, "\"ops_per_ms_upper_bound\": true") && strstr(out, "\"status\": \"ok\""), "%.400s", out);
        { FILE *f = tmpfile(); rb_report_csv(f, &r); out = slurp(f); }
        CHECKF(strstr(out, ",ops_per_ms,ops_per_ms_upper_bound,") && strstr(out, ",ok,\"\",0,"), "%.600s", out);
        { FILE *f = tmpfile(); rb_report_table(f, &r, 0); out = slurp(f); }
        CHECKF(strstr(out, " < 0.0") && strstr(out, "< X: no op completed inside an iteration"), "%s", out);
    }
#endif
    /* a slow op that fails: an error, not a bound */
    slow.read_op = sleep_150ms_fail_op;
    CHECKF(rb_run(&c, &slow, &res) != RB_OK && res.status == RB_EIO, "%d %s", res.status, res.reason);
}

/* A thread that ran a long op gets its CPU back late: the scheduler lets a thread that just
   ran for a long while wait (issue 21, 128 MiB x 8 reads per op in 1 ms iterations: "no op
   completed ... nothing was measured" one run in a few, "< 1.05" the others). Made certain
   here: the laggard's op (150 ms, in 20 ms iterations) starts a helper as it ends, which waits
   for the worker to sleep on the next iteration's start and then sends it a signal whose
   handler holds it 100 ms: it wakes past that iteration's end and starts no op in it. The op
   it was in when the iteration before ended had outlasted a whole iteration: the thread is
   still inside that op's time, so this iteration is bounded too, and the cell is "< X", not
   starved threads' error. */
#define LAG_MAX 16
static pthread_t lag_helper[LAG_MAX];
static unsigned lag_helpers;
static volatile int lag_signalled;   /* the handler ran: the worker was held while asleep */

static uint64_t lag_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void lag_hold(int sig)
{
    uint64_t end = lag_now() + 100000000u;
    (void)sig;
    while (lag_now() < end) {}
    lag_signalled = 1;
}

/* Waits for the worker to sleep (state 'S': on the next iteration's start barrier), then sends
   it the signal; the stat file is read again through one descriptor, a few us a look, for the
   window between its sleep and its wake is short. Gone (or 300 ms): nothing sent. */
static void *lag_watch(void *arg)
{
    long tid = (long)(intptr_t)arg;
    uint64_t end = lag_now() + 300000000u;
    char path[64], buf[512], *p, st = 0;
    ssize_t n;
    int fd;
    snprintf(path, sizeof path, "/proc/self/task/%ld/stat", tid);
    if ((fd = open(path, O_RDONLY)) < 0) return NULL;
    while ((n = pread(fd, buf, sizeof buf - 1, 0)) > 0 && lag_now() < end) {
        buf[n] = 0;
        if ((p = strrchr(buf, ')')) && p[1] == ' ' && (st = p[2]) == 'S') break;
    }
    close(fd);
    if (st == 'S') syscall(SYS_tgkill, (long)getpid(), tid, SIGUSR2);   /* gone meanwhile: ESRCH, nothing sent */
    return NULL;
}

static int lag_op(rb_worker *w, const uint64_t *off, unsigned n)
{
    sleep_150ms_op(w, off, n);
    if (lag_helpers < LAG_MAX &&
        pthread_create(&lag_helper[lag_helpers], NULL, lag_watch, (void *)(intptr_t)syscall(SYS_gettid)) == 0)
        lag_helpers++;
    return 0;
}

static void a_late_wake_after_a_long_op_is_still_bounded(void)
{
    rb_strategy lag = *rb_strategy_find("null");
    struct sigaction sa, old;
    rb_config c;
    unsigned try_, i, late = 0;
    if (access("/proc/self/task", R_OK) != 0) SKIP("no /proc/self/task: the worker's sleep cannot be seen");
    lag.name = "laggard";
    lag.flags = 0;
    lag.read_op = lag_op;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = lag_hold;
    sigemptyset(&sa.sa_mask);
    CHECK(sigaction(SIGUSR2, &sa, &old) == 0);
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.threads = 1;
    c.warmup_ns = RB_NONE;
    c.duration_ns = 20000000;
    c.iterations = 8;   /* 4 ops, each followed by a chance to hold the worker */
    for (try_ = 0; try_ < 3 && !late; try_++) {   /* a signal that came after the wake holds nothing: again */
        lag_helpers = 0;
        lag_signalled = 0;
        rb_run(&c, &lag, &res);
        for (i = 0; i < lag_helpers; i++) pthread_join(lag_helper[i], NULL);
        late = lag_signalled && res.reads_issued < (uint64_t)c.iterations * res.reads_per_op;   /* one started no op */
        if (late) {
            CHECKF(res.status == RB_OK && res.rate_upper_bound == 1 && res.ops == 0, "%s: %s (bound %d, %llu ops)",
                   rb_status_word(res.status), res.reason, res.rate_upper_bound, (unsigned long long)res.ops);
            /* each iteration under 1 / (at most 40 ms): a late one counts its op from the one before */
            for (i = 0; i < c.iterations; i++)
                CHECKF(res.iter_ops_per_ms[i] >= 1 / 40.0 * (1 - 1e-9), "iteration %u: under %g ops/ms", i + 1,
                       res.iter_ops_per_ms[i]);
        }
    }
    CHECK(sigaction(SIGUSR2, &old, NULL) == 0);
    if (!late) SKIP("the signal never found the worker asleep before its iteration started: no late iteration");
}

#ifndef RB_NO_TOOLS   /* the JSON reader is a tool */
/* The same end to end: `readbench run` with an op far longer than the iteration (65536
   reads of 16 KiB, at least ~100 ms, in 20 ms iterations) is "< X" in the table and
   ops_per_ms_upper_bound in the JSON, exit 0, where it was an error. A worker that got no CPU
   before its iteration ended (a loaded machine) started no op, which bounds nothing: tried
   again, up to 3 times. */
static void cli_run_says_an_upper_bound(void)
{
    static char out[1 << 17], err[1 << 14];
    char args[1024], why[200];
    const rb_json *x = NULL, *v;
    rb_json *j = NULL;
    unsigned attempt;
    int rc = -1;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    for (attempt = 0; attempt < 3; attempt++) {
        rb_json_free(j);
        snprintf(args, sizeof args, "run '%s' --strategies pread --threads 1 --read-size 16k --reads-per-op 65536 "
                 "--duration 50ms --iterations 2 --warmup 0 --quiet --format json", rbt_small_file());
        rc = rbt_cli_run(rbt_tmpdir(), args, "120", out, sizeof out, err, sizeof err);
        j = rb_json_parse(out, strlen(out), why, sizeof why);
        x = j && (v = rb_json_get(j, "results")) && v->n == 1 ? v->child : NULL;
        if (x && (v = rb_json_get(x, "ops_per_ms_upper_bound")) && v->type == RB_JSON_TRUE) break;
        fprintf(stderr, "    attempt %u: %.300s\n", attempt + 1, x && rb_json_get(x, "reason") &&
                rb_json_get(x, "reason")->type == RB_JSON_STRING ? rb_json_get(x, "reason")->str : err);
    }
    CHECKF(rc == 0 && x, "exit %d: %s", rc, err);
    CHECKF(x && (v = rb_json_get(x, "status")) && v->type == RB_JSON_STRING && !strcmp(v->str, "ok"), "%.500s", out);
    CHECKF(x && (v = rb_json_get(x, "ops_per_ms_upper_bound")) && v->type == RB_JSON_TRUE, "%.500s", out);
    CHECKF(x && (v = rb_json_get(x, "ops_per_ms")) && v->type == RB_JSON_NUMBER && v->num >= 1 / 50.0 * (1 - 1e-9),
           "%.500s", out);   /* one op's start was at most 50 ms before the end: under at least 1/50 ops/ms */
    rb_json_free(j);
    snprintf(args, sizeof args, "run '%s' --strategies pread --threads 1 --read-size 16k --reads-per-op 65536 "
             "--duration 50ms --iterations 2 --warmup 0 --quiet", rbt_small_file());
    for (attempt = 0; attempt < 3; attempt++) {
        rc = rbt_cli_run(rbt_tmpdir(), args, "120", out, sizeof out, err, sizeof err);
        if (strstr(out, "pread     < 0.")) break;
    }
    CHECKF(rc == 0 && strstr(out, "pread     < 0.") && strstr(out, "< X: no op completed inside an iteration"), "%s",
           out);
}
#endif

/* Many busy workers and a coordinator that gets no CPU while they run: the workers stop
   themselves at the deadline, so each iteration still measures its duration and the cell ends
   on time. The old runner waited for the coordinator to wake and move the epoch: its iteration
   lasted as long as that took. The workers are real-time (SCHED_FIFO from thread_init, taking
   turns after each op) on one CPU, and the coordinator, an ordinary thread, is held to that CPU:
   while an iteration runs it cannot get it, and between the iterations the workers are parked
   and it runs. This was a SCHED_IDLE coordinator among ordinary workers; beside busy loops a
   SCHED_IDLE thread gets no CPU between the iterations either (nor while it holds the barrier's
   mutex), so the cell took 2-9 s and its workers started late, whatever the runner did. */
static int spin_op(rb_worker *w, const uint64_t *off, unsigned n)
{
    volatile unsigned k;
    (void)off; (void)n;
    for (k = 0; k < 20000; k++) w->sink += k;
    sched_yield();   /* the next real-time worker's turn: the coordinator's never comes */
    return 0;
}

static int to_realtime(rb_worker *w, char *why, size_t wl)
{
    struct sched_param sp;
    (void)w;
    memset(&sp, 0, sizeof sp);
    sp.sched_priority = sched_get_priority_min(SCHED_FIFO);
    if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) != 0) {
        snprintf(why, wl, "SCHED_FIFO refused");
        return RB_EPERM;
    }
    return RB_OK;
}

static void iterations_end_without_the_coordinator(void)
{
    rb_strategy busy = *rb_strategy_find("null");
    struct timespec t0, t1;
    cpu_set_t was, one;
    rb_config c;
    double wall;
    unsigned cpu;
    int rc;
    if (!rbt_is_root()) SKIP("real-time workers need root (RLIMIT_RTPRIO)");
    for (cpu = 0; cpu < 1024 && rb_cpu_allowed(cpu) != 1; cpu++) {}
    if (cpu == 1024 || pthread_getaffinity_np(pthread_self(), sizeof was, &was) != 0)
        SKIP("this build cannot hold threads to a CPU");
    busy.name = "spin";
    busy.read_op = spin_op;
    busy.thread_init = to_realtime;
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.threads = 8;
    c.warmup_ns = RB_NONE;
    c.duration_ns = 100000000;
    c.iterations = 2;
    c.cpus = &cpu;
    c.ncpus = 1;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (pthread_setaffinity_np(pthread_self(), sizeof one, &one) != 0) SKIP("cannot hold this thread to a CPU");
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rc = rb_run(&c, &busy, &res);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    CHECK(pthread_setaffinity_np(pthread_self(), sizeof was, &was) == 0);
    wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    CHECKF(rc == RB_OK, "%s", res.reason);
    /* a window ends with the thread's last op before the deadline: never after it */
    CHECKF(res.seconds <= 0.2 && res.seconds > 0.1, "measured %.3f s for 2 x 100 ms", res.seconds);
    CHECKF(wall < 0.6, "2 x 100 ms took %.3f s of wall time", wall);
}

/* A file renamed over the benchmark file in the middle of a cell: the rest of the cell
   would measure another (warm) file. It is found at the next iteration boundary and the
   cell ends with RB_ECHANGED. The op renames the file itself, after 20 ops of thread 0. */
static const char *rename_from, *rename_to;
static int renamed, write_in_place;   /* write_in_place: one byte of rename_to rewritten instead */

static int renaming_op(rb_worker *w, const uint64_t *off, unsigned n)
{
    if (w->index == 0 && ++w->cursor == 20 && !renamed) {
        if (write_in_place) {
            int fd = open(rename_to, O_WRONLY);
            renamed = fd >= 0 && pwrite(fd, "x", 1, 4096) == 1 && close(fd) == 0 ? 1 : -1;
        } else renamed = rename(rename_from, rename_to) == 0 ? 1 : -1;
    }
    return rb_strategy_find("pread")->read_op(w, off, n);
}

static void a_file_replaced_mid_cell_ends_it(void)
{
    rb_strategy s = *rb_strategy_find("pread");
    rb_config c;
    rb_error e;
    const char *p = rbt_path("replaced.dat"), *other = rbt_path("replacement.dat");
    CHECK(rb_setup_file(p, 1u << 20, 0, 1, NULL, NULL, &e) == RB_OK);
    CHECK(rb_setup_file(other, 1u << 20, 0, 1, NULL, NULL, &e) == RB_OK);
    rename_from = other;
    rename_to = p;
    s.name = "renaming-pread";
    s.read_op = renaming_op;
    memset(&c, 0, sizeof c);
    c.path = p;
    c.threads = 1;
    c.pattern = RB_RANDOM;
    c.warmup_ns = RB_NONE;
    c.duration_ns = 50000000;
    c.iterations = 4;
    for (write_in_place = 0; write_in_place < 2; write_in_place++) {   /* renamed over; written in place */
        renamed = 0;
        if (write_in_place) CHECK(rb_setup_file(p, 1u << 20, 0, 1, NULL, NULL, &e) == RB_OK);
        rb_run(&c, &s, &res);
        CHECK(renamed == 1);
        CHECKF(res.status == RB_ECHANGED && strstr(res.reason, "file changed during the run") != NULL &&
               strstr(res.reason, write_in_place ? "was written to" : "another file") != NULL, "status %d: %s",
               res.status, res.reason);
    }
    write_in_place = 0;
    unlink(p);
}

/* "Resident before" is the residency when the first measured iteration starts: after an
   eviction and an explicit warmup that read the file, it is what the warmup left, while the
   figure after the eviction is kept as resident_prepared; and the result warns that the
   warmup undid the prepared state. The old runner read it before the warmup (about 0%). */
/* The backoff counter every thread of a cell writes has a cache line of its own. */
static void shared_counter_has_its_own_line(void)
{
    rb_target t;
    uintptr_t c = (uintptr_t)&t.prefetch_counter;
    CHECK(c - ((uintptr_t)&t.mincore_trusted + sizeof t.mincore_trusted) >= 56);
    CHECK((uintptr_t)&t.res - c >= 64);
}

#ifndef RB_NO_TOOLS   /* the prefetch experiment is a tool */
/* The prefetch experiment says what state it measured: "not cached" starts near 0% resident
   and caps its ops so that under 5% of the reads hit (or warns); "fits" hits about 100%. The
   old result had no residency or hit figures, and ran the asked ops on any file size. */
static void prefetch_experiment_reports_residency_and_hits(void)
{
    rb_pfx_config c;
    rb_pfx_result r;
    rb_residency_info ri;
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.ops = 20000;
    c.threads = 2;
    c.slice = 1 << 20;
    if (rb_residency(c.path, &ri, NULL) != RB_OK || !ri.trusted) SKIP("residency cannot be counted here");
    CHECKF(rb_pfx_run(&c, RB_PREFETCH_ALWAYS, 0, &r) == RB_OK, "%s", r.reason);
    CHECKF(r.resident_before >= 0 && r.resident_before < 0.02, "not cached: %.3f resident before", r.resident_before);
    CHECK(r.resident_after >= r.resident_before && r.resident_after <= 1);
    CHECK(r.ops_asked == 20000 && r.ops < r.ops_asked);   /* 20000 ops would warm an 8 MiB file */
    CHECK(r.reads_checked == (uint64_t)r.ops * 3 * 2);
    CHECKF(r.reads_hit * 20 < r.reads_checked || strstr(r.warning, "hit") != NULL,
           "not cached: %llu of %llu hit, warning '%s'", (unsigned long long)r.reads_hit,
           (unsigned long long)r.reads_checked, r.warning);
    CHECKF(rb_pfx_run(&c, RB_PREFETCH_BACKOFF, 1, &r) == RB_OK, "%s", r.reason);
    CHECK(r.ops == 20000 && r.reads_checked == 20000ull * 3 * 2);
    CHECKF(r.reads_hit * 100 >= r.reads_checked * 99 && r.resident_before > 0.99 && r.resident_after > 0.99,
           "fits: %llu of %llu hit, %.3f -> %.3f resident", (unsigned long long)r.reads_hit,
           (unsigned long long)r.reads_checked, r.resident_before, r.resident_after);
    CHECK(r.warning[0] == 0);
}

/* A file too small to stay cold: the result says the hits were not under 5%. */
static void prefetch_experiment_warns_when_not_cold(void)
{
    rb_pfx_config c;
    rb_pfx_result r;
    rb_residency_info ri;
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.ops = 20000;
    c.normal_mapping = 1;   /* read-around loads far more than a page per read */
    if (rb_residency(c.path, &ri, NULL) != RB_OK || !ri.trusted) SKIP("residency cannot be counted here");
    CHECKF(rb_pfx_run(&c, RB_PREFETCH_BACKOFF_NOMINCORE, 0, &r) == RB_OK, "%s", r.reason);
    if (r.reads_hit * 20 < r.reads_checked) SKIP("read-around loaded little here (read_ahead_kb small)");
    CHECKF(strstr(r.warning, "not cached, yet") != NULL, "%llu of %llu hit, warning '%s'",
           (unsigned long long)r.reads_hit, (unsigned long long)r.reads_checked, r.warning);
}
#endif

static void resident_before_is_read_when_measuring_starts(void)
{
    rb_config c;
    rb_residency_info ri;
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.threads = 1;
    c.cache = RB_CACHE_EVICT;
    c.warmup_ns = 300000000;
    c.duration_ns = 20000000;
    c.iterations = 1;
    if (rb_residency(c.path, &ri, NULL) != RB_OK || !ri.trusted) SKIP("residency cannot be counted here");
    CHECKF(rbt_run_cell(&c, rb_strategy_find("pread"), &res) == RB_OK, "%s", res.reason);
    CHECKF(res.resident_prepared >= 0 && res.resident_prepared < (int64_t)res.file_pages / 10,
           "prepared %lld of %llu pages", (long long)res.resident_prepared, (unsigned long long)res.file_pages);
    CHECKF(res.resident_before > res.resident_prepared + 32 && res.resident_before == res.iter_resident_before[0],
           "before %lld of %llu pages", (long long)res.resident_before, (unsigned long long)res.file_pages);
    CHECK(warning_with(&res, "a warmup ran after the eviction") != NULL);
    /* the default for an evicted cell is no warmup: then no such warning */
    c.warmup_ns = 0;
    CHECKF(rbt_run_cell(&c, rb_strategy_find("pread"), &res) == RB_OK, "%s", res.reason);
    CHECK(warning_with(&res, "a warmup ran") == NULL && res.resident_before < (int64_t)res.file_pages / 10);
}

/* A warmup after a partial prewarm reads pages in: when the prewarm then did not hold, the
   warmup is named, not memory pressure or another process. */
static void a_warmup_is_blamed_for_the_prewarm_it_undid(void)
{
    rb_config c;
    rb_residency_info ri;
    const char *w;
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.threads = 1;
    c.prewarm = 0.25;
    c.warmup_ns = 300000000;   /* cached reads of an 8 MiB file: it is whole long before */
    c.duration_ns = 20000000;
    c.iterations = 1;
    if (rb_residency(c.path, &ri, NULL) != RB_OK || !ri.trusted) SKIP("residency cannot be counted here");
    CHECKF(rb_run(&c, rb_strategy_find("mmap"), &res) == RB_OK, "%s", res.reason);
    if (res.resident_before * 100 <= (int64_t)res.file_pages * 27) SKIP("the warmup loaded too little to move the prewarm");
    w = warning_with(&res, "did not hold");
    CHECKF(w && strstr(w, "the warmup ran after the prewarm") && !strstr(w, "memory pressure"), "%s", w ? w : "no warning");
}

/* evict-each: every iteration starts from an empty cache (evicting again while readahead
   is still in flight), and the residency before each one is recorded. */
static void evict_each_records_every_iteration(void)
{
    rb_config c;
    unsigned k;
    rb_residency_info ri;
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.threads = 2;
    c.cache = RB_CACHE_EVICT_EACH;
    c.warmup_ns = RB_NONE;
    c.duration_ns = 30000000;
    c.iterations = 4;
    if (rb_residency(c.path, &ri, NULL) != RB_OK || !ri.trusted) SKIP("residency cannot be counted here");
    CHECKF(rb_run(&c, rb_strategy_find("mmap"), &res) == RB_OK, "%s", res.reason);
    for (k = 0; k < 4; k++)
        CHECKF(res.iter_resident_before[k] == 0, "iteration %u started with %lld pages cached", k + 1,
               (long long)res.iter_resident_before[k]);
    CHECK(res.iter_resident_before[4] == -1 && res.resident_before == 0);
#ifndef RB_NO_REPORTS
    {
        static const char *const names[] = {"mmap"};
        unsigned th[1];
        uint64_t sz[1];
        rb_report r = one_cell_report(&res, names, th, sz);
        FILE *f = tmpfile();
        const char *out;
        rb_report_json(f, &r);
        out = slurp(f);
        CHECKF(strstr(out, "\"resident_pages_before_each\": [0, 0, 0, 0]") != NULL, "%s", out);
    }
#endif
}

/* Runs s on c; an iteration that held no whole op is tried again twice as long (at most 4
   times: a loaded machine). 1 when it measured; 0 when s cannot run here (said). */
static int run_whole_ops(rb_config *c, const char *s)
{
    unsigned tries;
    for (tries = 0; tries < 4; tries++, c->duration_ns *= 2) {
        rb_run(c, rb_strategy_find(s), &res);
        if (res.status == RB_UNSUPPORTED) { fprintf(stderr, "    %s: %s\n", s, res.reason); return 0; }
        if (res.status == RB_OK && res.min_thread_ops > 0) return 1;
        if (res.status != RB_OK && !strstr(res.reason, "no op completed")) break;
    }
    CHECKF(res.status == RB_OK, "%s: %s", s, res.reason);
    return res.status == RB_OK;
}

/* The op in flight at an iteration's end runs to completion: its faults, device bytes and CPU
   land in the counters and its pages in the bitmap, while ops leaves it out. With 1024 reads
   per op and a few ops per iteration it is a big share: per read counted, cold pread's
   amplification read 1.45 against a true 1.28, and cold mmap had more cold pages than page
   reads. Per read issued, the figures are exact: O_DIRECT makes the device read exactly the
   aligned pages asked for (amplification 1), and on a cold file read through MADV_RANDOM
   every cold page is one major fault, neither more than the page reads, so the hit rate and
   the fault hit rate agree. */
static void per_read_figures_count_the_op_in_flight(void)
{
    const char *big = rbt_path("inflight.dat");
    rb_config c;
    rb_error e;
    rb_residency_info ri;
    memset(&c, 0, sizeof c);
    c.path = big;
    c.threads = 1;
    c.read_size = 4096;
    c.align = 4096;
    c.reads_per_op = 1024;
    c.cache = RB_CACHE_EVICT_EACH;
    c.warmup_ns = RB_NONE;
    c.iterations = 3;
    CHECK(rb_setup_file(big, (uint64_t)256 << 20, 0, 1, NULL, NULL, &e) == RB_OK);
    if (rb_residency(big, &ri, NULL) != RB_OK || !ri.trusted) { unlink(big); SKIP("residency cannot be counted here"); }
    c.duration_ns = 150000000;
    if (run_whole_ops(&c, "direct") && res.device_read_bytes >= 0) {
        CHECKF(res.reads_issued > res.ops * 1024 && res.bytes_issued == res.reads_issued * 4096,
               "%llu reads issued, %llu bytes, %llu ops", (unsigned long long)res.reads_issued,
               (unsigned long long)res.bytes_issued, (unsigned long long)res.ops);
        CHECKF(fabs(res.read_amplification - 1) < 0.001, "direct: amplification %.4f (%lld device bytes, %llu reads "
               "issued, %llu counted)", res.read_amplification, (long long)res.device_read_bytes,
               (unsigned long long)res.reads_issued, (unsigned long long)res.ops * 1024);
    }
    c.duration_ns = 150000000;
    if (run_whole_ops(&c, "mmap-random") && res.majflt >= 0 && !res.per_process_faults) {
        CHECKF(res.cold_pages <= res.page_reads && (uint64_t)res.majflt <= res.page_reads &&
               res.cold_pages * 10 >= res.page_reads * 9 && fabs(res.hit_rate - res.fault_hit_rate) < 0.05,
               "mmap-random cold: %llu page reads, %llu cold pages, %lld major faults: hit %.3f, fault hit %.3f",
               (unsigned long long)res.page_reads, (unsigned long long)res.cold_pages, (long long)res.majflt,
               res.hit_rate, res.fault_hit_rate);
#ifndef RB_NO_REPORTS
        {   /* what they divide by is in the JSON */
            static const char *const names[] = {"mmap-random"};
            unsigned th[1];
            uint64_t sz[1];
            char want[64];
            rb_report r = one_cell_report(&res, names, th, sz);
            FILE *f = tmpfile();
            rb_report_json(f, &r);
            snprintf(want, sizeof want, "\"reads_issued\": %llu,", (unsigned long long)res.reads_issued);
            CHECKF(strstr(slurp(f), want) != NULL, "no %s in the JSON", want);
        }
#endif
    }
    unlink(big);
}

/* With the cache kept, a cell that starts below 100% resident is warned about: every cell
   reads the same seeded offsets, so a later cell reads what an earlier one loaded. */
static void kept_cache_below_full_is_warned(void)
{
    rb_config c;
    rb_error e;
    rb_residency_info ri;
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.threads = 1;
    c.warmup_ns = RB_NONE;
    c.duration_ns = 10000000;
    c.iterations = 1;
    if (rb_residency(c.path, &ri, NULL) != RB_OK || !ri.trusted) SKIP("residency cannot be counted here");
    CHECK(rb_evict(c.path, &e) == RB_OK);
    CHECKF(rb_run(&c, rb_strategy_find("pread"), &res) == RB_OK, "%s", res.reason);
    CHECK(warning_with(&res, "later cells read what earlier cells loaded") != NULL);
    CHECK(rb_load(c.path, &e) == RB_OK);
    CHECKF(rb_run(&c, rb_strategy_find("pread"), &res) == RB_OK, "%s", res.reason);
    CHECK(warning_with(&res, "later cells") == NULL);
}

/* A --verify run's numbers include the comparison: the result and every format say so. */
static void verified_runs_are_flagged(void)
{
    rb_config c;
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.warmup_ns = RB_NONE;
    c.duration_ns = 10000000;
    c.iterations = 1;
    c.verify = 1;
    CHECKF(rbt_run_cell(&c, rb_strategy_find("pread"), &res) == RB_OK, "%s", res.reason);
    CHECK(res.verified == 1);
#ifndef RB_NO_REPORTS
    {   /* every format says so */
        static const char *const names[] = {"pread"};
        unsigned th[1];
        uint64_t sz[1];
        rb_report r = one_cell_report(&res, names, th, sz);
        const char *out;
        { FILE *f = tmpfile(); rb_report_json(f, &r); out = slurp(f); }
        CHECK(strstr(out, "\"verified\": true") != NULL);
        { FILE *f = tmpfile(); rb_report_table(f, &r, 0); out = slurp(f); }
        CHECK(strstr(out, "not comparable for speed") != NULL);
        { FILE *f = tmpfile(); rb_report_csv(f, &r); out = slurp(f); }
        CHECK(strstr(out, ",verified,warnings\n") != NULL && strstr(out, ",1,\"") != NULL);
    }
#endif
    c.verify = 0;
    CHECKF(rb_run(&c, rb_strategy_find("pread"), &res) == RB_OK, "%s", res.reason);
    CHECK(res.verified == 0);
}

/* The CLI: a preset sets no warmup (it would undo the state the preset made) and says so;
   the hint for few ops is the CLI's, naming --duration; a slow cell's table shows its ops. */
static void cli_presets_and_the_duration_hint(void)
{
    static char out[1 << 16], err[1 << 14];
    char cmd[2048];
    const char *bin = rbt_cli(), *ep = rbt_path("counting-stderr.txt");
    FILE *p;
    size_t n;
    if (!bin) SKIP("../readbench is not built (run make test)");
    snprintf(cmd, sizeof cmd, "'%s' run '%s' --scenario half-cold --strategies pread --threads 1 --duration 100ms "
             "--rate 100 --reads-per-op 64 --iterations 1 --format json 2>'%s'", bin, rbt_small_file(), ep);
    p = popen(cmd, "r");
    if (!p) SKIP("popen failed");
    n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    CHECK(pclose(p) == 0);
    p = fopen(ep, "r");
    n = p ? fread(err, 1, sizeof err - 1, p) : 0;
    err[n] = 0;
    if (p) fclose(p);
    CHECKF(strstr(out, "\"warmup_ns\": 0") != NULL, "%s", out);
    CHECKF(strstr(err, "--warmup 0") != NULL, "%s", err);
    /* 100 ops a second for 100 ms: about 10 ops, each of 64 reads of 16 KiB (half of them misses:
       milliseconds), so the cell is ok with few ops however loaded the machine (a closed loop of
       20 ms iterations completed no op at all under load, and the cell was an error) */
    CHECKF(strstr(out, "\"status\": \"ok\"") != NULL, "%s", out);
    CHECKF(strstr(err, "--duration") != NULL, "%s", err);
}

/* Percentile ranks are ceil(p/100 * n) exactly: checked in integers against every n up to
   5000 for the usual percentiles; on a histogram of exact values (below 128 ns every value
   is its own bucket) the percentile is the sorted array's element at that rank; p99.9 of
   1000 values is the 999th, not the max (in floating point 99.9/100*1000 = 999.0000000000001). */
static rb_hist ph;

static void percentile_ranks_are_exact(void)
{
    static const double pct[] = {1, 12.5, 50, 75, 90, 99, 99.9, 99.99, 99.999, 33.3};
    static const uint64_t num[] = {1, 125, 50, 75, 90, 99, 999, 9999, 99999, 333};
    static const uint64_t den[] = {100, 1000, 100, 100, 100, 100, 1000, 10000, 100000, 1000};
    uint64_t n, bad = 0;
    unsigned k, i;
    for (n = 1; n <= 5000; n++)
        for (k = 0; k < sizeof pct / sizeof pct[0]; k++) {
            uint64_t want = (num[k] * n + den[k] - 1) / den[k];
            if (rb_percentile_rank(pct[k], n) != want && bad++ < 5)
                fprintf(stderr, "    p%g of %llu: rank %llu, exact %llu\n", pct[k], (unsigned long long)n,
                        (unsigned long long)rb_percentile_rank(pct[k], n), (unsigned long long)want);
        }
    CHECKF(bad == 0, "%llu wrong ranks", (unsigned long long)bad);
    /* no overflow for huge counts: 99.9% of 10^18 is 999 x 10^15, 50% of 2^63 + 1 is 2^62 + 1 */
    CHECK(rb_percentile_rank(99.9, 1000000000000000000ULL) == 999000000000000000ULL);
    CHECK(rb_percentile_rank(50, ((uint64_t)1 << 63) + 1) == ((uint64_t)1 << 62) + 1);
    for (n = 1; n <= 127; n++) {   /* values 0..n-1, each exact */
        rb_hist_init(&ph);
        for (i = 0; i < n; i++) rb_hist_record(&ph, i);
        for (k = 0; k < sizeof pct / sizeof pct[0]; k++) {
            uint64_t want = (num[k] * n + den[k] - 1) / den[k] - 1;   /* the value at that rank */
            CHECKF(rb_hist_percentile(&ph, pct[k]) == want, "p%g of %llu values: %llu, exact %llu", pct[k],
                   (unsigned long long)n, (unsigned long long)rb_hist_percentile(&ph, pct[k]), (unsigned long long)want);
        }
    }
    /* more than 6 decimals: still ceil(p/100 * n) (99.90000001% of 10^9 is 999000000.1) */
    CHECK(rb_percentile_rank(99.90000001, 1000000000) == 999000001);
    CHECK(rb_percentile_rank(99.99999999, 1000) == 1000);
    rb_hist_init(&ph);
    for (i = 1; i < 1000; i++) rb_hist_record(&ph, 100);
    rb_hist_record(&ph, 1000000000);
    CHECKF(rb_hist_percentile(&ph, 99.9) == 100, "p99.9 of 1000 values: %llu", (unsigned long long)rb_hist_percentile(&ph, 99.9));
}

/* A percentile needs n >= 100 / (100 - p) values to mean anything: p99.9 of 999 values is
   null (the max under another name), of 1000 it is known; p50 needs 2. */
static void percentiles_of_too_few_values_are_null(void)
{
    unsigned i;
    rb_hist_init(&ph);
    CHECK(!rb_hist_percentile_known(&ph, 50));
    for (i = 0; i < 999; i++) rb_hist_record(&ph, 1000 + i);
    CHECK(rb_hist_percentile_known(&ph, 99) && !rb_hist_percentile_known(&ph, 99.9));
    rb_hist_record(&ph, 5000);
    CHECK(rb_hist_percentile_known(&ph, 99.9) && !rb_hist_percentile_known(&ph, 99.99));
    rb_hist_init(&ph);
    rb_hist_record(&ph, 7);
    CHECK(!rb_hist_percentile_known(&ph, 50) && rb_hist_percentile_known(&ph, 100) && rb_hist_percentile_known(&ph, 0));
    rb_hist_record(&ph, 9);
    CHECK(rb_hist_percentile_known(&ph, 50) && !rb_hist_percentile_known(&ph, 90));
}

/* --align below the page with a direct strategy: offsets are multiples of lcm(align, page),
   not of align x page. The strategy is a direct row that records its offsets (no O_DIRECT
   needed). Old code: align 512 gave 2 MiB steps, 4 distinct offsets in an 8 MiB file. */
static uint64_t seen[1 << 16];
static unsigned nseen;

static int record_op(rb_worker *w, const uint64_t *off, unsigned n)
{
    unsigned i;
    (void)w;
    for (i = 0; i < n && nseen < sizeof seen / sizeof seen[0]; i++) seen[nseen++] = off[i];
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void direct_alignment_is_the_lcm(void)
{
    static const uint64_t aligns[] = {512, 2048, 6144};
    rb_strategy rec = *rb_strategy_find("null");
    long page = sysconf(_SC_PAGESIZE);
    unsigned k, i, distinct;
    rec.name = "record-direct";
    rec.flags = RB_S_DIRECT;
    rec.read_op = record_op;
    for (k = 0; k < 3; k++) {
        rb_config c;
        uint64_t a = aligns[k], g = a, p = (uint64_t)page, l;
        while (p) { uint64_t t = g % p; g = p; p = t; }
        l = a / g * (uint64_t)page;   /* lcm */
        memset(&c, 0, sizeof c);
        c.path = rbt_small_file();
        c.align = a;
        c.read_size = (uint64_t)page;
        c.warmup_ns = RB_NONE;
        c.duration_ns = 20000000;
        c.iterations = 1;
        for (i = 0; i < 4; i++) {   /* a sanitizer on a busy machine drew 200 in 20 ms: longer, 4 tries at most */
            nseen = 0;
            CHECKF(rb_run(&c, &rec, &res) == RB_OK, "%s", res.reason);
            if (nseen > 1000) break;
            c.duration_ns *= 4;
        }
        CHECKF(nseen > 1000, "%u offsets drawn", nseen);
        qsort(seen, nseen, sizeof seen[0], cmp_u64);
        for (i = 0, distinct = 0; i < nseen; i++) {
            CHECKF(seen[i] % l == 0 && seen[i] + c.read_size <= (8u << 20), "align %llu: offset %llu",
                   (unsigned long long)a, (unsigned long long)seen[i]);
            distinct += i == 0 || seen[i] != seen[i - 1];
        }
        /* positions: (8 MiB - page) / lcm + 1; most of them are drawn */
        CHECKF(distinct > ((8u << 20) - (uint64_t)page) / l / 2, "align %llu: %u distinct offsets",
               (unsigned long long)a, distinct);
    }
}

/* A residency check that fails is counted as such, apart from the advice that failed. */
static int resident_fails(void *ctx, const unsigned char *addr, size_t len)
{
    (void)ctx; (void)addr; (void)len;
    errno = ENOMEM;
    return -1;
}

static void mincore_failures_are_counted_apart(void)
{
    static unsigned char page[1 << 16];
    rb_prefetcher p;
    unsigned i;
    rb_prefetcher_init(&p, RB_PREFETCH_BACKOFF, page, sizeof page, NULL);
    p.resident = resident_fails;
    for (i = 0; i < 8; i++) rb_prefetch(&p, 0, 100);
    CHECKF(p.st.mincore_failed == p.st.mincore_calls && p.st.mincore_calls > 0 && p.st.failed == 0,
           "%llu of %llu mincore failed, %llu madvise failed", (unsigned long long)p.st.mincore_failed,
           (unsigned long long)p.st.mincore_calls, (unsigned long long)p.st.failed);
    rb_prefetcher_init(&p, RB_PREFETCH_ADAPTIVE, page, sizeof page, NULL);
    p.resident = resident_fails;
    for (i = 0; i < 8; i++) rb_prefetch(&p, 0, 100);
    CHECK(p.st.mincore_failed > 0 && p.st.mincore_failed == p.st.mincore_calls);
}

/* One list gives every status its word (the output formats' status field) and its text: a
   status cannot have one and lack the other, and no two statuses read the same. */
static void every_status_has_a_word_and_a_text(void)
{
#define RBT_STATUS_ROW(name, value, word, text) {value, word, text},
    static const struct { int value; const char *word, *text; } row[] = { RB_STATUS_LIST(RBT_STATUS_ROW) };
#undef RBT_STATUS_ROW
    unsigned i, j, n = (unsigned)(sizeof row / sizeof row[0]);
    CHECK(n >= 16);
    for (i = 0; i < n; i++) {
        const char *w = rb_status_word(row[i].value), *t = rb_status_string(row[i].value);
        CHECKF(w && *w && !strcmp(w, row[i].word), "status %d: word '%s'", row[i].value, w ? w : "(null)");
        CHECKF(t && *t && !strcmp(t, row[i].text), "status %d: text '%s'", row[i].value, t ? t : "(null)");
        CHECKF(strcmp(t, "unknown status") != 0, "status %d has no text", row[i].value);
        CHECKF(!strcmp(w, "ok") || !strcmp(w, "unsupported") || !strcmp(w, "interrupted") ||
               !strcmp(w, "not run") || !strcmp(w, "error"), "status %d: '%s' is not an output word", row[i].value, w);
        CHECKF((row[i].value == RB_OK) == !strcmp(w, "ok"), "status %d: word '%s'", row[i].value, w);
        for (j = 0; j < i; j++) {
            CHECKF(row[i].value != row[j].value, "statuses %u and %u share the value %d", i, j, row[i].value);
            CHECKF(strcmp(t, rb_status_string(row[j].value)) != 0, "statuses %d and %d both read '%s'",
                   row[i].value, row[j].value, t);
        }
    }
    CHECK(!strcmp(rb_status_word(RB_EIO), "error") && !strcmp(rb_status_word(RB_ENOTRUN), "not run"));
    CHECK(!strcmp(rb_status_word(12345), "error") && !strcmp(rb_status_string(12345), "unknown status"));
}

#ifndef RB_NO_TOOLS   /* the prefetch experiment is a tool */
/* The prefetch experiment starts its threads through the runner's launcher: a thread that
   cannot be made (address space for its stack refused) ends the run with the launcher's
   "thread k of n" reason, the started ones are let through the barrier and joined, no hang. */
static void prefetch_threads_go_through_the_pool(void)
{
    const char *path = rbt_path("pfx-pool");
    int fd[2], st = 0;
    char reason[RB_REASON_LEN] = "";
    ssize_t got;
    pid_t pid;
    rb_error e;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    SKIP("a sanitizer reserves more address space than the limit this test sets");
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
    SKIP("a sanitizer reserves more address space than the limit this test sets");
#endif
#endif
    if (rb_setup_file(path, 1 << 20, 1, 0, NULL, NULL, &e) != RB_OK) { CHECKF(0, "%s", e.msg); return; }
    if (pipe(fd) != 0) { CHECKF(0, "pipe: %s", strerror(errno)); return; }
    fflush(NULL);
    if ((pid = fork()) == 0) {
        rb_pfx_config c;
        rb_pfx_result r;
        struct rlimit rl;
        unsigned long vm_pages = 0;
        FILE *sf = fopen("/proc/self/statm", "r");
        if (!sf || fscanf(sf, "%lu", &vm_pages) != 1) _exit(5);
        fclose(sf);
        /* what this process maps now plus 256 MiB: ~30 stacks of 8 MiB, far from 1000 */
        rl.rlim_cur = rl.rlim_max = (rlim_t)vm_pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)256 << 20);
        close(fd[0]);
        memset(&c, 0, sizeof c);
        c.path = path;
        c.threads = 1000;
        c.ops = 100;
        if (setrlimit(RLIMIT_AS, &rl) != 0) _exit(3);
        rb_pfx_run(&c, RB_PREFETCH_ALWAYS, 1, &r);
        if (write(fd[1], r.reason, strlen(r.reason)) < 0) _exit(4);
        _exit(r.status == RB_ESYS ? 0 : 1);
    }
    close(fd[1]);
    if (pid < 0) { close(fd[0]); CHECKF(0, "fork: %s", strerror(errno)); return; }
    got = read(fd[0], reason, sizeof reason - 1);
    close(fd[0]);
    if (got > 0) reason[got] = 0;
    waitpid(pid, &st, 0);
    unlink(path);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 1 && got <= 0)   /* status ok: every thread was made */
        SKIP("all 1000 threads fitted under the limit (this libc's thread stacks are small, e.g. musl's 128 KiB)");
    CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 0, "exit %d: %s", WIFEXITED(st) ? WEXITSTATUS(st) : -1, reason);
    CHECKF(strstr(reason, "pthread_create (thread ") && strstr(reason, " of 1000)"), "reason: %s", reason);
}
#endif

/* A kernel may take fewer io_uring entries than were queued (short of memory, or -EAGAIN
   with completions to reap). The io_uring strategies submit through RB_TEST_URING_SUBMIT,
   which tu_impl.c points here: while short_submits is above 0, a submit flushes one entry
   of the ring to the kernel and leaves the rest queued (liburing flushes [sqe_head, sqe_tail)),
   then waits as asked. Outside this test it is liburing's own. */
#if defined(READBENCH_LIBURING)
static int short_submits;             /* submits left that take one entry only */
static unsigned short_submits_made;   /* how many did: the test fails if the hook never ran */

int rbt_uring_submit(struct io_uring *ring, unsigned wait_nr);
int rbt_uring_submit(struct io_uring *ring, unsigned wait_nr)
{
    unsigned tail = ring->sq.sqe_tail;
    int r;
    if (__atomic_load_n(&short_submits, __ATOMIC_RELAXED) <= 0 || tail - ring->sq.sqe_head < 2)
        return io_uring_submit_and_wait(ring, wait_nr);
    __atomic_fetch_sub(&short_submits, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&short_submits_made, 1u, __ATOMIC_RELAXED);
    ring->sq.sqe_tail = ring->sq.sqe_head + 1;
    r = io_uring_submit_and_wait(ring, wait_nr);
    ring->sq.sqe_tail = tail;
    return r;
}
#endif

/* Every submit takes one entry of an op's 8: each op still completes, with the right bytes,
   instead of waiting for 8 completions of which 1 was ever asked for. Run in a child under
   alarm(): the old code waits forever there. */
static void uring_short_submit_does_not_wait_forever(void)
{
#if !defined(READBENCH_LIBURING)
    SKIP("built without liburing (the Makefile found no liburing.h or -luring)");
#else
    const rb_strategy *s = rb_strategy_find("io_uring");
    char why[RB_REASON_LEN] = "", line[512] = "";
    int fd[2], st = 0;
    ssize_t got;
    pid_t pid;
    rb_config c;
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.read_size = 4096;
    c.reads_per_op = 8;
    c.warmup_ns = RB_NONE;
    c.duration_ns = 200000000;   /* 50 ms: under load the first op (8 submits) did not end in it */
    c.iterations = 1;
    c.verify = 1;
    if (rb_strategy_probe(s, &c, why, sizeof why) != RB_OK) SKIP(why);
    if (pipe(fd) != 0) { CHECKF(0, "pipe: %s", strerror(errno)); return; }
    fflush(NULL);
    if ((pid = fork()) == 0) {
        int rc;
        close(fd[0]);
        alarm(15);
        short_submits = 1000;
        rc = rb_run(&c, s, &res);
        snprintf(line, sizeof line, "%d %llu %llu %llu %llu %u %s", rc, (unsigned long long)res.ops,
                 (unsigned long long)res.io_errors, (unsigned long long)res.short_reads,
                 (unsigned long long)res.verify_mismatches, short_submits_made, res.reason);
        if (write(fd[1], line, strlen(line)) < 0) _exit(4);
        _exit(0);
    }
    close(fd[1]);
    if (pid < 0) { close(fd[0]); CHECKF(0, "fork: %s", strerror(errno)); return; }
    got = read(fd[0], line, sizeof line - 1);
    close(fd[0]);
    line[got > 0 ? got : 0] = 0;
    waitpid(pid, &st, 0);
    CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the run %s", WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM
           ? "waited forever after a short submit (killed after 15 s)" : "ended abnormally");
    if (got > 0) {
        int rc = -1;
        unsigned long long ops = 0, ioerr = 1, shortr = 1, bad = 1;
        unsigned made = 0;
        CHECKF(sscanf(line, "%d %llu %llu %llu %llu %u", &rc, &ops, &ioerr, &shortr, &bad, &made) == 6, "%s", line);
        CHECKF(rc == RB_OK && ops > 0, "status %d, %llu ops: %s", rc, ops, line);
        CHECKF(ioerr == 0 && shortr == 0 && bad == 0, "%llu errors, %llu short reads, %llu wrong bytes", ioerr,
               shortr, bad);
        CHECKF(made > 0, "no submit was made short: the hook did not run (%s)", line);
    }
#endif
}

void suite_counting(void)
{
    RUN(uring_short_submit_does_not_wait_forever);
#ifndef RB_NO_TOOLS
    RUN(prefetch_threads_go_through_the_pool);
#endif
    RUN(every_status_has_a_word_and_a_text);
    RUN(mincore_failures_are_counted_apart);
    RUN(direct_alignment_is_the_lcm);
    RUN(shared_counter_has_its_own_line);
    RUN(percentile_ranks_are_exact);
    RUN(percentiles_of_too_few_values_are_null);
    RUN(cli_presets_and_the_duration_hint);
    RUN(resident_before_is_read_when_measuring_starts);
    RUN(a_warmup_is_blamed_for_the_prewarm_it_undid);
    RUN(evict_each_records_every_iteration);
    RUN(kept_cache_below_full_is_warned);
    RUN(per_read_figures_count_the_op_in_flight);
    RUN(verified_runs_are_flagged);
#ifndef RB_NO_REPORTS
    RUN(warnings_reach_every_format);
#endif
    RUN(slow_ops_use_per_thread_windows);
    RUN(an_op_longer_than_the_iteration_is_an_upper_bound);
    RUN(a_late_wake_after_a_long_op_is_still_bounded);
#ifndef RB_NO_TOOLS
    RUN(cli_run_says_an_upper_bound);
#endif
    RUN(iterations_end_without_the_coordinator);
    RUN(a_file_replaced_mid_cell_ends_it);
#ifndef RB_NO_TOOLS
    RUN(prefetch_experiment_reports_residency_and_hits);
    RUN(prefetch_experiment_warns_when_not_cold);
#endif
}
