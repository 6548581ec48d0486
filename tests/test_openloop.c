/* suite openloop: the load. Open-loop rates (ops on a schedule, latency from the intended
   start, service time beside it, a rate not kept up with said), the closed loop's think time,
   their parsing, and the touched-pages marking kept out of the measured window.
   The timing tests use a custom strategy whose op is a 1 ms sleep, and
   generous bounds: the project's machine has 2 CPUs shared with other work. Each bound is one
   a closed loop timed from the actual start cannot meet. */
#define _GNU_SOURCE
#include "readbench.h"
#include "rbtest.h"
#include <unistd.h>
#include <math.h>
#include <time.h>

static rb_result res;

/* 1 ms of waiting (a device's service time): a sleep, not a busy wait, so that the op lasts
   ~1 ms on a loaded machine too (a busy op that loses its CPU for a time slice lasts several). */
static int one_ms_op(rb_worker *w, const uint64_t *off, unsigned n)
{
    struct timespec ts = {0, 1000000};
    (void)w; (void)off; (void)n;
    while (nanosleep(&ts, &ts) != 0) {}
    return 0;
}

static rb_strategy one_ms(void)
{
    rb_strategy s = *rb_strategy_find("null");
    s.name = "one-ms";
    s.read_op = one_ms_op;
    return s;
}

static void config(rb_config *c, double rate, int64_t duration_ns, unsigned iterations)
{
    memset(c, 0, sizeof *c);
    c->path = rbt_small_file();
    c->threads = 1;
    c->reads_per_op = 1;
    c->warmup_ns = RB_NONE;
    c->duration_ns = duration_ns;
    c->iterations = iterations;
    c->rate = rate;
}

static const char *warning_with(const rb_result *x, const char *part)
{
    unsigned k;
    for (k = 0; k < x->nwarnings; k++)
        if (strstr(x->warnings[k], part)) return x->warnings[k];
    return NULL;
}

static double ms(uint64_t ns) { return (double)ns / 1e6; }

/* 500 ops/s of 1 ms ops: the thread is idle half the time, so every op starts on time. The
   achieved rate is the one asked (a closed loop would do ~1000/s), and the latency from the
   intended start is the service time (~1 ms). A loaded machine can delay a wake-up by
   milliseconds and make a backlog of its own: the best of three runs is judged. */
static int keeps_up(const rb_result *x)
{
    double achieved = x->ops_per_ms * 1000, svc = ms(rb_hist_percentile(&x->service, 50)),
           lat = ms(rb_hist_percentile(&x->lat, 50));
    return x->status == RB_OK && achieved >= 425 && achieved <= 505 && svc >= 0.99 && svc < 3 && lat >= 0.99 &&
           lat < 5 && !warning_with(x, "not sustained");
}

static void a_rate_it_keeps_up_with(void)
{
    rb_strategy s = one_ms();
    rb_config c;
    double achieved;
    unsigned tries;
    config(&c, 500, 500000000, 2);
    rbt_realtime(1);   /* beside busy loops the sleeper's wake-ups came late: a backlog, p50 8-68 ms */
    for (tries = 0; tries < 3; tries++)
        if (rb_run(&c, &s, &res) != RB_OK || keeps_up(&res)) break;
    rbt_realtime(0);
    CHECKF(res.status == RB_OK, "%s", res.reason);
    achieved = res.ops_per_ms * 1000;
    CHECKF(achieved >= 425 && achieved <= 505, "asked 500 ops/s, achieved %.1f", achieved);
    CHECKF(res.rate_asked == 500 && res.arrivals == RB_ARRIVALS_UNIFORM, "%g", res.rate_asked);
    CHECKF(res.arrivals_due >= 499 && res.arrivals_due <= 501, "%llu arrivals in 2 x 0.5 s at 500/s",
           (unsigned long long)res.arrivals_due);
    CHECKF(rb_hist_total(&res.service) == res.ops && rb_hist_total(&res.lat) == res.ops, "%llu ops",
           (unsigned long long)res.ops);
    CHECKF(ms(rb_hist_percentile(&res.service, 50)) >= 0.99 && ms(rb_hist_percentile(&res.service, 50)) < 3,
           "service p50 %.3f ms", ms(rb_hist_percentile(&res.service, 50)));
    CHECKF(ms(rb_hist_percentile(&res.lat, 50)) >= 0.99 && ms(rb_hist_percentile(&res.lat, 50)) < 5,
           "latency p50 %.3f ms", ms(rb_hist_percentile(&res.lat, 50)));
    CHECKF(!warning_with(&res, "not sustained"), "%s", res.warnings[0]);
}

/* 2000 ops/s of 1 ms ops: arrivals come twice as fast as they are served, so the queue grows
   through each iteration: the latency from the intended start climbs to hundreds of ms while
   the service time stays ~1 ms, about 1000 ops/s are achieved, and the result says so. A
   closed loop timed from the actual start would report a ~1 ms latency. */
static void a_rate_it_cannot_sustain(void)
{
    rb_strategy s = one_ms();
    rb_config c;
    double achieved, svc, p25, p50, p90;
    const char *w;
    config(&c, 2000, 400000000, 2);
    CHECKF(rb_run(&c, &s, &res) == RB_OK, "%s", res.reason);
    achieved = res.ops_per_ms * 1000;
    svc = ms(rb_hist_percentile(&res.service, 50));
    p25 = ms(rb_hist_percentile(&res.lat, 25));
    p50 = ms(rb_hist_percentile(&res.lat, 50));
    p90 = ms(rb_hist_percentile(&res.lat, 90));
    CHECKF(achieved > 300 && achieved < 1300, "asked 2000 ops/s of 1 ms ops, achieved %.1f", achieved);
    CHECKF(res.arrivals_due >= 1599 && res.arrivals_due <= 1601, "%llu arrivals in 2 x 0.4 s at 2000/s",
           (unsigned long long)res.arrivals_due);
    CHECKF(svc >= 0.99 && svc < 3, "service p50 %.3f ms", svc);
    CHECKF(p50 > 20 * svc, "latency p50 %.3f ms, service p50 %.3f ms", p50, svc);
    /* the wait grows with each op behind: late in an iteration far above early in it */
    CHECKF(p90 > 2 * p25 && ms(res.lat.max) > 100, "latency p25 %.3f, p90 %.3f, max %.3f ms", p25, p90,
           ms(res.lat.max));
    w = warning_with(&res, "not sustained");
    CHECKF(w && !strstr(w, "--"), "%s", res.nwarnings ? res.warnings[0] : "(no warning)");
}

/* Poisson arrivals at half the capacity queue now and then (M/D/1 at 0.5: 0.5 ms of mean wait
   for a 1 ms op), where uniform ones never wait. */
static void poisson_arrivals_queue_at_random(void)
{
    rb_strategy s = one_ms();
    rb_config c;
    double wait, achieved;
    unsigned tries;
    config(&c, 500, 500000000, 2);
    c.arrivals = RB_ARRIVALS_POISSON;
    for (tries = 0; tries < 3; tries++) {   /* the best of three, as above */
        if (rb_run(&c, &s, &res) != RB_OK) break;
        achieved = res.ops_per_ms * 1000;
        wait = (rb_hist_mean(&res.lat) - rb_hist_mean(&res.service)) / 1e6;
        if (achieved > 300 && achieved < 600 && wait > 0.2) break;
    }
    CHECKF(res.status == RB_OK, "%s", res.reason);
    achieved = res.ops_per_ms * 1000;
    wait = (rb_hist_mean(&res.lat) - rb_hist_mean(&res.service)) / 1e6;
    /* a closed loop would do ~900/s and uniform arrivals would not wait; a loaded machine's late
       wake-ups lengthen the ops, so the rate achieved may fall short and is not judged closely */
    CHECKF(achieved > 300 && achieved < 600, "asked 500 ops/s (poisson), achieved %.1f", achieved);
    CHECKF(wait > 0.2, "mean wait %.3f ms", wait);
    CHECK(res.arrivals == RB_ARRIVALS_POISSON);
}

/* --think: a busy wait between ops. The CPU is used (a sleep would use none), the rate is
   one op per think time, and the op's latency leaves it out. */
static void think_time_is_busy_and_outside_the_latency(void)
{
    rb_config c;
    double cpu_per_op;
    config(&c, 0, 300000000, 2);
    c.think_ns = 2000000;
    rbt_boost(1);   /* among the other suites' spinning threads it got 0.04 ops/ms (rbt_boost) */
    CHECKF(rb_run(&c, rb_strategy_find("null"), &res) == RB_OK, "%s", res.reason);
    rbt_boost(0);
    /* at most one op per think time; fewer when the machine is loaded (a busy thread that loses its
       CPU for a time slice resumes after its think time has passed) */
    CHECKF(res.ops_per_ms > 0.05 && res.ops_per_ms <= 0.51, "%.3f ops/ms with 2 ms of think time", res.ops_per_ms);
    CHECKF(ms(rb_hist_percentile(&res.lat, 50)) < 0.1, "latency p50 %.3f ms", ms(rb_hist_percentile(&res.lat, 50)));
    CHECK(res.think_ns == 2000000 && res.rate_asked == 0 && rb_hist_total(&res.service) == 0);
    if (res.cpu_user_ns_per_read < 0) SKIP("no per-thread CPU time here");
    cpu_per_op = (res.cpu_user_ns_per_read + res.cpu_sys_ns_per_read) / 1e6;   /* one read per op */
    /* ~2 ms when the thread has a CPU to itself; a loaded machine takes some of it away (and a
       sleep would take almost none) */
    CHECKF(cpu_per_op > 0.4 && cpu_per_op < 1.1 / res.ops_per_ms + 0.1, "CPU %.3f ms per op for 2 ms of think time",
           cpu_per_op);
}

static void rates_and_think_times_that_are_refused(void)
{
    char args[512], *nl;
    unsigned i;
    rb_config c;
#ifndef RB_NO_TOOLS   /* the parsers and the settings are tools */
    {
        static const char *const bad[] = {"0", "-5", "abc", "500:gaussian", "", "500:", ":poisson", "inf", "nan",
                                          "2e9", "500:poisson:x", "5 00"};
        static rb_settings st;
        char why[RB_REASON_LEN];
        memset(&c, 0, sizeof c);
        for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            why[0] = 0;
            CHECKF(rb_parse_rate(bad[i], &c, why, sizeof why) == RB_EINVAL && why[0] && !strchr(why, '\n') &&
                   c.rate == 0, "'%s': %s", bad[i], why);
        }
        CHECK(rb_parse_rate("500", &c, why, sizeof why) == RB_OK && c.rate == 500 && c.arrivals == RB_ARRIVALS_UNIFORM);
        CHECK(rb_parse_rate("2.5:poisson", &c, why, sizeof why) == RB_OK && c.rate == 2.5 && c.arrivals == RB_ARRIVALS_POISSON);
        CHECK(rb_parse_rate("1e3:uniform", &c, why, sizeof why) == RB_OK && c.rate == 1000 && c.arrivals == RB_ARRIVALS_UNIFORM);
        memset(&st, 0, sizeof st);
        CHECK(rb_settings_set(&st, "rate", "x", "--rate", why, sizeof why) == RB_EINVAL && !strncmp(why, "--rate: ", 8));
        CHECK(rb_settings_set(&st, "think", "5ms", "--think", why, sizeof why) == RB_OK && st.cfg.think_ns == 5000000);
    }
#endif
    /* the library refuses what an embedder sets directly */
    config(&c, -1, 100000000, 1);
    CHECK(rb_run(&c, rb_strategy_find("null"), &res) == RB_EINVAL && strstr(res.reason, "rate"));
    config(&c, 100, 100000000, 1);
    c.think_ns = 1000;
    CHECK(rb_run(&c, rb_strategy_find("null"), &res) == RB_EINVAL && strstr(res.reason, "think time and a rate"));
    config(&c, 5, 100000000, 1);   /* 0.5 arrivals per iteration */
    CHECK(rb_run(&c, rb_strategy_find("null"), &res) == RB_EINVAL && strstr(res.reason, "no arrival"));
    config(&c, 0, 100000000, 1);
    c.think_ns = -1;
    CHECK(rb_run(&c, rb_strategy_find("null"), &res) == RB_EINVAL && strstr(res.reason, "think time"));

    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    {
        static const char *const cli_bad[] = {"--rate 0", "--rate -5", "--rate junk", "--rate 500:gaussian",
                                              "--think junk", "--think -1ms", "--rate 500 --think 1ms",
                                              "--rate 0.5 --duration 1s"};
        static char out[4096], err[4096];
        for (i = 0; i < sizeof cli_bad / sizeof cli_bad[0]; i++) {
            int rc;
            snprintf(args, sizeof args, "run '%s' --strategies null --threads 1 %s", rbt_small_file(), cli_bad[i]);
            rc = rbt_cli_run(rbt_tmpdir(), args, "60", out, sizeof out, err, sizeof err);
            nl = strchr(err, '\n');
            CHECKF(rc == 2 && nl && !nl[1] && !out[0], "%s: exit %d, stderr '%s', stdout '%.80s'", cli_bad[i], rc, err,
                   out);
        }
    }
}

#ifndef RB_NO_TOOLS   /* the reports, and the JSON reader (a tool) */
/* Every output format carries the load: the rate asked and achieved, the arrivals, the
   service time, the think time; a closed loop's rows have them null (CSV: empty). */
static void the_load_reaches_every_format(void)
{
    static const char *const names[] = {"one-ms"};
    unsigned th[1] = {1};
    uint64_t sz[1] = {16384};
    rb_report r;
    rb_config c;
    rb_strategy s = one_ms();
    static char buf[1 << 17];
    char why[256];
    size_t n;
    FILE *f;
    rb_json *doc;
    config(&c, 2000, 100000000, 1);
    CHECKF(rb_run(&c, &s, &res) == RB_OK, "%s", res.reason);
    memset(&r, 0, sizeof r);
    r.results = &res;
    r.count = 1;
    r.strategies = names;
    r.nstrategies = 1;
    r.threads = th;
    r.nthreads = 1;
    r.read_sizes = sz;
    r.nread_sizes = 1;
    r.cfg = &c;

    f = tmpfile();
    rb_report_json(f, &r);
    rewind(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    CHECKF(strstr(buf, "\"rate\": {\"asked\": 2000, \"per_thread\": 2000, \"arrivals\": \"uniform\", \"achieved\": ") &&
           strstr(buf, "\"service_ns\": {\"min\": ") && strstr(buf, "\"think_ns\": 0") &&
           strstr(buf, "\"rate\": 2000, \"arrivals\": \"uniform\", \"think_ns\": 0"), "%s", buf);
    doc = rb_json_parse(buf, n, why, sizeof why);
    CHECKF(doc != NULL, "%s", why);
    rb_json_free(doc);

    f = tmpfile();
    rb_report_csv(f, &r);
    rewind(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    CHECKF(strstr(buf, ",rate_asked,arrivals,rate_achieved,arrivals_due,think_ns,service_mean_ns,service_p50_ns,") &&
           strstr(buf, ",service_max_ns,pages_touched,") && strstr(buf, ",2000.000000,uniform,"), "%s", buf);

    f = tmpfile();
    rb_report_table(f, &r, 0);
    rewind(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    CHECKF(strstr(buf, "from each op's intended start") && strstr(buf, "open loop: rate asked and achieved") &&
           strstr(buf, "  uniform  ") && strstr(buf, "not sustained"), "%s", buf);
    f = tmpfile();
    rb_report_table(f, &r, 1);
    rewind(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    CHECKF(strstr(buf, "**open loop: rate asked and achieved") && strstr(buf, "| uniform | 2000 |"), "%s", buf);

    /* a closed loop with a think time: no rate, no service, the think time said */
    config(&c, 0, 50000000, 1);
    c.think_ns = 100000;
    CHECKF(rb_run(&c, rb_strategy_find("null"), &res) == RB_OK, "%s", res.reason);
    f = tmpfile();
    rb_report_json(f, &r);
    rewind(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    CHECKF(strstr(buf, "\"rate\": null, \"service_ns\": null, \"think_ns\": 100000") &&
           strstr(buf, "\"rate\": null, \"arrivals\": null, \"think_ns\": 100000"), "%s", buf);
    f = tmpfile();
    rb_report_table(f, &r, 0);
    rewind(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    CHECKF(strstr(buf, "closed loop with 100 us of busy think time") && !strstr(buf, "open loop:"), "%s", buf);
}
#endif

/* The touched-pages bitmap is marked after an iteration, not inside its timed loop: an op of
   256 reads of 64 KiB (17 pages each) costs the harness about what drawing its offsets costs,
   where marking in the loop added a division and 17 bitmap tests per read (4352 per op). Both
   figures are minimums over many tries, which a loaded machine does not raise. */
static void marking_the_pages_is_outside_the_window(void)
{
    static rb_worker w;
    rb_sampler smp;
    rb_config c;
    char why[256];
    static uint64_t off[256];
    uint64_t draw_min = UINT64_MAX, k;
    config(&c, 0, 100000000, 2);
    c.reads_per_op = 256;
    c.read_size = 65536;
    CHECKF(rb_run(&c, rb_strategy_find("null"), &res) == RB_OK, "%s", res.reason);
    CHECKF(res.pages_touched > 0 && res.page_reads >= res.ops * 256 * 16, "%.0f pages, %llu page reads",
           res.pages_touched, (unsigned long long)res.page_reads);
    rb_config_defaults(&c, &c);
    CHECKF(rb_sampler_init(&smp, &c, 8u << 20, 4096, 0, why, sizeof why) == RB_OK, "%s", why);
    rb_sampler_seed(&smp, &w, 0, 0, 1);
    for (k = 0; k < 2000; k++) {
        uint64_t t0 = rbt_now_ns(), t1;
        rb_sampler_offsets(&smp, &w, off, 256);
        t1 = rbt_now_ns();
        if (t1 - t0 < draw_min) draw_min = t1 - t0;
    }
    /* here: about 770 ns for an op whose offsets take 710 to draw; marked in the loop, 3500 */
    CHECKF(res.lat.min <= draw_min * 3 / 2 + 500, "an op of the null strategy: %llu ns at least; drawing its 256 "
           "offsets: %llu ns at least", (unsigned long long)res.lat.min, (unsigned long long)draw_min);
}

#ifndef RB_NO_TOOLS   /* replay and the JSON reader are tools */
/* A timed replay (--timed): each op starts when its first read was recorded, so a trace of one
   4 KiB read every 2 ms replays at ~500 ops/s however fast the reads are (back to back the same
   trace runs at hundreds of thousands), the arrivals are the trace's, and a trace without
   times, a timed run without a trace, or a timed run with a rate, is refused in one line. */
static double json_field(const char *text, const char *key)
{
    char why[RB_REASON_LEN];
    rb_json *j = rb_json_parse(text, strlen(text), why, sizeof why);
    const rb_json *r = j ? rb_json_get(j, "results") : NULL, *v;
    double x = -1;
    if (r && r->child && (v = rb_json_get(r->child, key)) != NULL && v->type == RB_JSON_NUMBER) x = v->num;
    if (r && r->child && !strcmp(key, "trace") && (v = rb_json_get(r->child, "rate")) != NULL && v->type == RB_JSON_OBJECT)
        x = (v = rb_json_get(v, "arrivals")) != NULL && v->type == RB_JSON_STRING && !strcmp(v->str, "trace");
    rb_json_free(j);
    return x;
}

static void a_timed_replay_keeps_the_traces_times(void)
{
    static char out[1 << 16], err[4096];
    static const char *const bad[] = {"--timed", "--trace '%s' --timed", "--trace '%s' --timed --rate 100"};
    char args[1024], flags[700], *nl;
    const char *timed = rbt_path("timed.csv"), *untimed = rbt_path("untimed.csv");
    double fast, slow, best = 0;
    unsigned k, i;
    FILE *f = fopen(timed, "w"), *g = fopen(untimed, "w");
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    CHECK(f && g);
    if (!f || !g) return;
    for (k = 0; k < 100; k++) {
        fprintf(f, "%u,4096,0,%u\n", (k * 37 % 2000) * 4096, k * 2000000);
        fprintf(g, "%u,4096\n", (k * 37 % 2000) * 4096);
    }
    fclose(f);
    fclose(g);
    for (k = 0; k < 3 && !(best > 400 && best < 560); k++) {   /* the best of three: a loaded machine wakes late */
        snprintf(args, sizeof args, "replay '%s' '%s' --strategies pread --timed --duration 400ms --iterations 2 "
                 "--warmup 0 --format json --quiet", timed, rbt_small_file());
        CHECK(rbt_cli_run(rbt_tmpdir(), args, "60", out, sizeof out, err, sizeof err) == 0);
        slow = json_field(out, "ops_per_ms") * 1000;
        CHECKF(json_field(out, "trace") == 1, "%.300s", out);
        if (slow > best) best = slow;
    }
    CHECKF(best > 400 && best < 560, "a timed replay of one read per 2 ms made %.0f ops/s", best);
    snprintf(args, sizeof args, "replay '%s' '%s' --strategies pread --duration 400ms --iterations 2 --warmup 0 "
             "--format json --quiet", timed, rbt_small_file());
    CHECK(rbt_cli_run(rbt_tmpdir(), args, "60", out, sizeof out, err, sizeof err) == 0);
    fast = json_field(out, "ops_per_ms") * 1000;
    CHECKF(fast > 4 * best, "back to back %.0f ops/s, timed %.0f", fast, best);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc;
        snprintf(flags, sizeof flags, bad[i], i == 1 ? untimed : timed);
        snprintf(args, sizeof args, "run '%s' --strategies pread --threads 1 %s", rbt_small_file(), flags);
        rc = rbt_cli_run(rbt_tmpdir(), args, "60", out, sizeof out, err, sizeof err);
        nl = strchr(err, '\n');
        CHECKF(rc == 2 && nl && !nl[1] && !out[0] && (i != 1 || strstr(err, "no times")), "%s: exit %d, stderr '%s'",
               flags, rc, err);
    }
    unlink(timed);
    unlink(untimed);
}
#endif

void suite_openloop(void)
{
    RUN(a_rate_it_keeps_up_with);
    RUN(a_rate_it_cannot_sustain);
    RUN(poisson_arrivals_queue_at_random);
    RUN(think_time_is_busy_and_outside_the_latency);
    RUN(rates_and_think_times_that_are_refused);
#ifndef RB_NO_TOOLS
    RUN(the_load_reaches_every_format);
#endif
    RUN(marking_the_pages_is_outside_the_window);
#ifndef RB_NO_TOOLS
    RUN(a_timed_replay_keeps_the_traces_times);
#endif
}
