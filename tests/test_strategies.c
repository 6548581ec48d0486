#define _GNU_SOURCE
/* The strategies of the strategies issue: pread-fadvise, mmap-populate, pread-dontcache,
   pread-nowait, io_uring-qd and io_uring-qd-direct. Each reads the right bytes, counts what it
   does, says why where the kernel or the filesystem refuses it, and shows its own figures in
   every output format. */
#include "readbench.h"
#include "rbtest.h"
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static rb_result res;

static const char *const news[] = {"pread-fadvise", "mmap-populate", "pread-dontcache", "pread-nowait",
                                   "io_uring-qd", "io_uring-qd-direct"};
#define NNEW (sizeof news / sizeof news[0])

static rb_config quick(const char *path, unsigned threads)
{
    rb_config c;
    memset(&c, 0, sizeof c);
    c.path = path;
    c.threads = threads;
    c.warmup_ns = RB_NONE;
    c.duration_ns = 40000000;
    c.iterations = 2;
    c.verify = 1;
    return c;
}

/* Runs s; 1 when it measured, 0 when it cannot run here (said with a reason) or no op fit. */
static int ran(const char *name, rb_config *c)
{
    const rb_strategy *s = rb_strategy_find(name);
    CHECKF(s != NULL, "no strategy %s in the table", name);
    if (!s) return 0;
    rb_run(c, s, &res);
    if (res.status == RB_UNSUPPORTED) {
        fprintf(stderr, "    %s unsupported here: %s\n", name, res.reason);
        CHECK(res.reason[0] != 0 && (s->flags & RB_S_OPTIONAL));
        return 0;
    }
    CHECKF(res.status == RB_OK, "%s: %s", name, res.reason);
    if (res.status != RB_OK) return 0;
    if (res.ops == 0) {   /* a loaded machine: an op outlasted the iteration, and the result says so */
        CHECK(res.nwarnings > 0);
        return 0;
    }
    return 1;
}

/* Every new row is in the table, reads exactly what setup wrote (random and sequential,
   unaligned, two threads), and --verify catches a file made with another seed. */
static void new_strategies_read_the_right_bytes(void)
{
    unsigned i, p;
    for (i = 0; i < NNEW; i++)
        for (p = 0; p < 2; p++) {
            rb_config c = quick(rbt_small_file(), 2);
            c.pattern = p ? RB_SEQUENTIAL : RB_RANDOM;
            c.read_size = strstr(news[i], "direct") ? 8192 : 5000;
            if (!ran(news[i], &c)) continue;
            CHECKF(res.verify_mismatches == 0 && res.io_errors == 0 && res.short_reads == 0, "%s: %s", news[i],
                   res.reason);
            CHECK(rb_hist_total(&res.lat) == res.ops && res.verified);
            c.data_seed = 12345;   /* not the file's seed: every read must mismatch */
            rb_run(&c, rb_strategy_find(news[i]), &res);
            CHECKF(res.status == RB_EVERIFY && res.verify_mismatches > 0, "%s: %d %s", news[i], res.status,
                   res.reason);
        }
}

/* The hints are counted where they belong: posix_fadvise calls apart from madvise calls, one
   per read (each thread's op in flight at the stop made its calls too), none failed. */
static void hints_are_counted(void)
{
    rb_config c = quick(rbt_small_file(), 1);
    c.verify = 0;
    if (ran("pread-fadvise", &c)) {
        CHECKF(res.fadvise_calls >= res.ops * res.reads_per_op &&
               res.fadvise_calls <= (res.ops + 2) * res.reads_per_op && res.fadvise_failed == 0,
               "%llu fadvise calls for %llu ops", (unsigned long long)res.fadvise_calls, (unsigned long long)res.ops);
        CHECK(res.madvise_calls == 0 && res.nowait_reads == 0 && rb_hist_total(&res.read_lat) == 0);
    }
    if (ran("mmap-populate", &c)) {
        CHECKF(res.madvise_calls >= res.ops * res.reads_per_op && res.madvise_failed == 0,
               "%llu madvise calls for %llu ops", (unsigned long long)res.madvise_calls, (unsigned long long)res.ops);
        CHECK(res.fadvise_calls == 0);
    }
}

/* pread-nowait: a warm file is served without blocking, every read; an evicted one is not.
   The fraction counts the measured iterations' reads only. */
static void nowait_fraction_warm_and_cold(void)
{
    rb_config c = quick(rbt_small_file(), 1);
    rb_error e;
    c.verify = 0;
    CHECK(rb_load(c.path, &e) == RB_OK);
    c.prewarm = 1;
    if (!ran("pread-nowait", &c)) return;
    CHECK(res.nowait_reads >= res.ops * res.reads_per_op);
    CHECKF(res.nowait_served == res.nowait_reads, "warm: %llu of %llu served without blocking",
           (unsigned long long)res.nowait_served, (unsigned long long)res.nowait_reads);
    c.prewarm = 0;
    c.cache = RB_CACHE_EVICT_EACH;
    c.duration_ns = 300000000;   /* cold ops on a loaded disk: room for several in an iteration */
    if (!ran("pread-nowait", &c)) return;
    if (res.resident_before < 0 || res.resident_before * 10 > (int64_t)res.file_pages)
        SKIP("the file could not be evicted here (tmpfs, or residency unknown): no cold case");
    CHECKF(res.nowait_reads > 0 && res.nowait_served < res.nowait_reads, "cold: %llu of %llu served",
           (unsigned long long)res.nowait_served, (unsigned long long)res.nowait_reads);
    /* the helpers' device reads are the worker's: a cold run read from the device */
    if (res.device_read_bytes >= 0) CHECKF(res.device_read_bytes > 0, "%lld", (long long)res.device_read_bytes);
}

/* io_uring-qd keeps iodepth reads in flight, across op boundaries: with one read per op a
   batch ring would never have more than one in flight. */
static void io_uring_qd_keeps_n_in_flight(void)
{
    static const unsigned depth[] = {1, 8, 8}, per_op[] = {16, 16, 1};
    unsigned k;
    for (k = 0; k < 3; k++) {
        rb_config c = quick(rbt_small_file(), 1);
        c.verify = 0;
        c.iodepth = depth[k];
        c.reads_per_op = per_op[k];
        c.read_size = 4096;
        if (!ran("io_uring-qd-direct", &c)) {
            if (res.status == RB_UNSUPPORTED) SKIP(res.reason);
            continue;
        }
        CHECKF(res.inflight_max == depth[k], "iodepth %u, %u per op: at most %u in flight", depth[k], per_op[k],
               res.inflight_max);
        /* each read timed on its own, the measured ones only */
        /* at most the reads in flight at each iteration's end (2 iterations) go untimed */
        CHECK(rb_hist_total(&res.read_lat) + 2 * depth[k] >= res.ops * res.reads_per_op);
        CHECK(res.read_lat.min > 0 && res.read_lat.min <= res.read_lat.max);
    }
    {   /* the ring's size is checked, as every other setting */
        rb_config c = quick(rbt_small_file(), 1);
        c.iodepth = RB_MAX_IODEPTH + 1;
        CHECK(rb_run(&c, rb_strategy_find("io_uring-qd"), &res) == RB_EINVAL && strstr(res.reason, "iodepth"));
    }
}

/* A filesystem that refuses: tmpfs has no uncached reads, ramfs neither O_DIRECT nor (on some
   kernels) RWF_NOWAIT. Each refused row says why; the others run. */
static void refused_rows_say_why(void)
{
    static const char *const fs[] = {"tmpfs", "ramfs"};
    unsigned k, i, refused = 0;
    if (!rbt_is_root()) SKIP("needs root to mount tmpfs and ramfs");
    for (k = 0; k < 2; k++) {
        char dir[64], file[80];
        const char *d, *p;
        rb_error e;
        snprintf(dir, sizeof dir, "refuse-%s", fs[k]);
        snprintf(file, sizeof file, "refuse-%s/f.dat", fs[k]);
        d = rbt_path(dir);
        p = rbt_path(file);
        CHECK(mkdir(d, 0755) == 0);
        if (mount(fs[k], d, fs[k], 0, "size=8m") != 0) { fprintf(stderr, "    cannot mount %s\n", fs[k]); continue; }
        CHECK(rb_setup_file(p, 1 << 20, 0, 1, NULL, NULL, &e) == RB_OK);
        for (i = 0; i < NNEW; i++) {
            rb_config c = quick(p, 1);
            c.read_size = 4096;
            c.duration_ns = 10000000;
            c.iterations = 1;
            rb_run(&c, rb_strategy_find(news[i]), &res);
            if (res.status == RB_UNSUPPORTED) {
                fprintf(stderr, "    %s on %s: %s\n", news[i], fs[k], res.reason);
                CHECK(strcasestr(res.reason, strstr(news[i], "direct") ? "direct"   /* or "O_DIRECT" */
                                 : strstr(news[i], "dontcache") ? "RWF_DONTCACHE"
                                 : strstr(news[i], "nowait") ? "RWF_NOWAIT" : "") != NULL);
                refused++;
            } else {
                CHECKF(res.status == RB_OK, "%s on %s: %s", news[i], fs[k], res.reason);
            }
        }
        CHECK(umount(d) == 0);
    }
    /* tmpfs has no RWF_DONTCACHE on any kernel that has the flag */
    CHECKF(refused > 0, "no new strategy was refused by tmpfs or ramfs");
}

/* io_uring switched off (io_uring_disabled = 2): both queue-depth rows say so. */
static void io_uring_qd_disabled(void)
{
    FILE *f = fopen("/proc/sys/kernel/io_uring_disabled", "r");
    int old = -1;
    char cmd[128], why[256];
    rb_config c = quick(rbt_small_file(), 1);
    if (!f) SKIP("no /proc/sys/kernel/io_uring_disabled (kernel before 6.6, or not Linux)");
    if (fscanf(f, "%d", &old) != 1 || !rbt_is_root()) { fclose(f); SKIP("needs root to disable io_uring"); }
    fclose(f);
    if (rb_strategy_probe(rb_strategy_find("io_uring-qd"), &c, why, sizeof why) != RB_OK) SKIP(why);
    CHECK(system("echo 2 > /proc/sys/kernel/io_uring_disabled") == 0);
    rb_run(&c, rb_strategy_find("io_uring-qd"), &res);
    CHECKF(res.status == RB_UNSUPPORTED && strstr(res.reason, "io_uring"), "%d %s", res.status, res.reason);
    snprintf(cmd, sizeof cmd, "echo %d > /proc/sys/kernel/io_uring_disabled", old);
    CHECK(system(cmd) == 0);
}

/* Every output format carries the new figures: JSON fields (null for the other strategies),
   CSV columns, the table's per-read latency and no-wait columns; --iodepth is checked. */
static char out[1 << 17], err[4096];

static int cli(const char *args)
{
    return rbt_cli_run(rbt_tmpdir(), args, "60", out, sizeof out, err, sizeof err);
}

static void every_format_has_the_new_figures(void)
{
    char args[2048], py[2048];
    const char *j = rbt_path("strat.json");
    const char *run = "--strategies pread,pread-fadvise,pread-nowait,io_uring-qd --threads 1 --iodepth 4 "
                      "--duration 20ms --warmup 0 --iterations 1 --quiet";
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    CHECK(cli("run x --iodepth 0") == 2 && cli("run x --iodepth 4097") == 2 && cli("run x --iodepth q") == 2);
    CHECK(cli("list") == 0);
    {
        unsigned i;
        for (i = 0; i < NNEW; i++) CHECKF(strstr(out, news[i]) != NULL, "list has no %s", news[i]);
    }
    snprintf(args, sizeof args, "run '%s' %s --format table", rbt_small_file(), run);
    CHECK(cli(args) == 0);
    CHECKF(strstr(out, "latency per read") && strstr(out, "no-wait") && strstr(out, "(fadvise)"), "%s", out);
    snprintf(args, sizeof args, "run '%s' %s --format markdown", rbt_small_file(), run);
    CHECK(cli(args) == 0 && strstr(out, "latency per read") && strstr(out, "| no-wait"));
    snprintf(args, sizeof args, "run '%s' %s --format csv", rbt_small_file(), run);
    CHECK(cli(args) == 0);
    CHECKF(strstr(out, ",nowait_fraction,inflight_max,read_lat_mean_ns,read_lat_p50_ns,") != NULL, "%s", out);
    if (!rbt_have_python("json")) SKIP("python3 is not installed: no JSON parser to check with");
    snprintf(args, sizeof args, "run '%s' %s --format json > '%s'", rbt_small_file(), run, j);
    CHECK(cli(args) == 0);
    snprintf(py, sizeof py,
             "python3 -c '\n"
             "import json\n"
             "d=json.load(open(\"%s\"))\n"
             "assert d[\"config\"][\"iodepth\"]==4\n"
             "r={x[\"strategy\"]:x for x in d[\"results\"]}\n"
             "assert r[\"pread\"][\"nowait_fraction\"] is None and r[\"pread\"][\"lat_per_read_ns\"] is None\n"
             "assert r[\"pread\"][\"fadvise\"][\"calls\"]==0 and r[\"pread\"][\"inflight_max\"] is None\n"
             "assert r[\"pread-fadvise\"][\"fadvise\"][\"calls\"]>0\n"
             "nw=r[\"pread-nowait\"]\n"
             "assert nw[\"status\"]!=\"ok\" or 0<=nw[\"nowait_fraction\"]<=1, nw\n"
             "q=r[\"io_uring-qd\"]\n"
             "assert q[\"status\"]!=\"ok\" or (q[\"inflight_max\"]==4 and q[\"lat_per_read_ns\"][\"p50\"]>0), q\n"
             "assert all(list(x)==list(d[\"results\"][0]) for x in d[\"results\"])\n"
             "'", j);
    CHECK(system(py) == 0);
}

void suite_strategies(void)
{
    RUN(new_strategies_read_the_right_bytes);
    RUN(hints_are_counted);
    RUN(nowait_fraction_warm_and_cold);
    RUN(io_uring_qd_keeps_n_in_flight);
    RUN(refused_rows_say_why);
    RUN(io_uring_qd_disabled);
    RUN(every_format_has_the_new_figures);
}
