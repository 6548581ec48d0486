#define _GNU_SOURCE
/* The strategies of the strategies issue: pread-fadvise, mmap-populate, pread-dontcache,
   pread-nowait, io_uring-qd and io_uring-qd-direct. Each reads the right bytes, counts what it
   does, says why where the kernel or the filesystem refuses it, and shows its own figures in
   every output format. */
#include "readbench.h"
#include "rbtest.h"
#include <math.h>
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
    int try_;
    c.verify = 0;
    c.prewarm = 1;
    /* Another suite's drop_caches (or the host's reclaim) may take a page between the prewarm and
       a read: up to 3 tries, each loading the file again; one wholly served try is the claim. */
    for (try_ = 0; try_ < 3; try_++) {
        CHECK(rb_load(c.path, &e) == RB_OK);
        if (!ran("pread-nowait", &c)) return;
        CHECK(res.nowait_reads >= res.ops * res.reads_per_op);
        if (res.nowait_served == res.nowait_reads) break;
        fprintf(stderr, "    warm try %d: %llu of %llu served without blocking; again\n", try_ + 1,
                (unsigned long long)res.nowait_served, (unsigned long long)res.nowait_reads);
    }
    CHECKF(res.nowait_served == res.nowait_reads, "warm: %llu of %llu served without blocking, 3 tries",
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

/* Whether this build runs a strategy at all (on the suite's small file): a musl build has no
   preadv2 flags and a build without liburing no io_uring rows, and their reasons say that
   rather than what a filesystem refuses. */
static int runs_in_this_build(const char *name)
{
    rb_config c = quick(rbt_small_file(), 1);
    c.read_size = 4096;
    c.duration_ns = 10000000;
    c.iterations = 1;
    rb_run(&c, rb_strategy_find(name), &res);
    return res.status != RB_UNSUPPORTED;
}

/* A filesystem that refuses: tmpfs has no uncached reads, ramfs neither O_DIRECT nor (on some
   kernels) RWF_NOWAIT. Each refused row says why; the others run. */
static void refused_rows_say_why(void)
{
    static const char *const fs[] = {"tmpfs", "ramfs"};
    unsigned k, i, refused = 0, refusable = 0;
    if (!rbt_is_root()) SKIP("needs root to mount tmpfs and ramfs");
    for (i = 0; i < NNEW; i++)
        refusable += (strstr(news[i], "dontcache") || strstr(news[i], "nowait") || strstr(news[i], "direct")) &&
                     runs_in_this_build(news[i]);
    if (!refusable) SKIP("this build runs none of the rows a filesystem refuses (no preadv2 flags, no liburing)");
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
            if (!runs_in_this_build(news[i])) continue;   /* not the filesystem's refusal */
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
    int nowait, qd;
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
    /* the columns of a strategy appear when it runs: a build without liburing or preadv2's
       flags reports those rows unsupported (and list and JSON still carry them) */
    nowait = runs_in_this_build("pread-nowait");
    qd = runs_in_this_build("io_uring-qd");
    snprintf(args, sizeof args, "run '%s' %s --format table", rbt_small_file(), run);
    CHECK(cli(args) == 0);
    CHECKF((!qd || strstr(out, "latency per read")) && (!nowait || strstr(out, "no-wait")) && strstr(out, "(fadvise)"),
           "%s", out);
    snprintf(args, sizeof args, "run '%s' %s --format markdown", rbt_small_file(), run);
    CHECK(cli(args) == 0 && (!qd || strstr(out, "latency per read")) && (!nowait || strstr(out, "| no-wait")));
    snprintf(args, sizeof args, "run '%s' %s --format csv", rbt_small_file(), run);
    CHECK(cli(args) == 0);
    CHECKF(strstr(out, ",nowait_fraction,inflight_max,pa_hints,pa_sampled,pa_redundant,") != NULL, "%s", out);
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

/* ---- prefetch accounting ---- */

/* The fraction of the classified hints in one class. */
static double pa_frac(const rb_pa_accounting *a, uint64_t v)
{
    uint64_t n = a->sampled - a->failed;
    return n ? (double)v / (double)n : -1;
}

/* A warm file: every hint is redundant. A cold file with each read right after its hint (one
   read per op): every hint is useful or late, never wasted without pressure. A strategy that
   gives no hint has no accounting. */
static void accounting_warm_and_cold(void)
{
    static const char *const hinting[] = {"mmap-random-willneed", "pread-fadvise", "mmap-random-adaptive"};
    const char *big = rbt_path("pa-256m.dat");
    rb_config c = quick(rbt_small_file(), 1);
    rb_error e;
    unsigned i;
    c.verify = 0;
    c.prewarm = 1;
    for (i = 0; i < 3; i++) {
        const rb_pa_accounting *a = &res.prefetch_accounting;
        if (!ran(hinting[i], &c)) continue;
        if (!strstr(hinting[i], "adaptive")) CHECK(a->hints >= res.ops * res.reads_per_op);
        if (!a->hints) continue;   /* adaptive, warm: it stopped hinting, as it should */
        CHECKF(a->sampled > a->failed && pa_frac(a, a->redundant) >= 0.95, "%s warm: %llu of %llu redundant",
               hinting[i], (unsigned long long)a->redundant, (unsigned long long)a->sampled);
    }
    if (ran("pread", &c)) CHECK(res.prefetch_accounting.hints == 0);
    CHECK(rb_setup_file(big, (uint64_t)256 << 20, 0, 1, NULL, NULL, &e) == RB_OK);
    c.path = big;
    c.prewarm = 0;
    c.cache = RB_CACHE_EVICT_EACH;
    c.reads_per_op = 1;
    c.duration_ns = 150000000;
    for (i = 0; i < 2; i++) {
        const rb_pa_accounting *a = &res.prefetch_accounting;
        unsigned tries;
        /* A disk the other suites keep busy gave 16 sampled hints, 6 of them redundant: a few
           reads is too few to judge a fraction. Up to 3 runs (it was ~100 hints, none redundant). */
        int ok = ran(hinting[i], &c);
        for (tries = 1; ok && tries < 3 && !(a->sampled > a->failed && pa_frac(a, a->useful + a->late) >= 0.9); tries++) {
            fprintf(stderr, "    %s cold: %llu sampled, %llu redundant: again\n", hinting[i], (unsigned long long)a->sampled,
                    (unsigned long long)a->redundant);
            ok = ran(hinting[i], &c);
        }
        if (!ok) continue;
        if (res.resident_before < 0 || res.resident_before * 10 > (int64_t)res.file_pages) {
            fprintf(stderr, "    %s: the file could not be evicted here: no cold case\n", hinting[i]);
            continue;
        }
        CHECKF(a->sampled > a->failed && pa_frac(a, a->useful + a->late) >= 0.9,
               "%s cold: %llu sampled, %llu redundant, %llu useful, %llu late, %llu wasted", hinting[i],
               (unsigned long long)a->sampled, (unsigned long long)a->redundant, (unsigned long long)a->useful,
               (unsigned long long)a->late, (unsigned long long)a->wasted);
    }
    unlink(big);
}

/* Which hints are followed must not depend on where a hint sits in its op. The WILLNEED rows
   hint every read of the op, then read: followed as every 16th hint, 16 reads per op made it
   always read 0's (read right after the hints: 84-92% late, 2% useful) while 17 reads per op
   followed every position (85% useful). Cold, each fraction at 17 reads per op must agree with
   16's: the cells run 16, 17, 16, and the two 16s (an A/A) say how far a fraction drifts
   between two cells of one setting. The allowance is the widest of 20 points, 3 binomial sd
   and twice the A/A's difference. 20 points, because the aliased sampler missed by 60-80 and
   the test is of aliasing, not of the fractions' precision: on a disk other suites share the
   drift between cells is not an A/A's twice (CI's musl run, 2026-12-02: useful 10.6 points
   apart between 16 and 17 while the A/A moved it by 4.6; 591, 1444 and 2705 hints). A 256 MiB
   file and 100 ms iterations keep the file mostly cold; up to 3 tries, the cells doubling in
   length when too few hints were classified. */
static void accounting_is_not_aliased_with_reads_per_op(void)
{
    const char *big = rbt_path("pa-alias.dat");
    const char *names[4] = {"redundant", "useful", "late", "wasted"};
    rb_config c = quick(big, 1);
    rb_error e;
    unsigned try_, n, k, agreed = 0, compared = 0;
    double f[3][4], m[3] = {0, 0, 0}, worst = 0, allow[4] = {0, 0, 0, 0};
    c.verify = 0;
    c.cache = RB_CACHE_EVICT_EACH;
    c.duration_ns = 100000000;
    c.iterations = 8;
    CHECK(rb_setup_file(big, (uint64_t)256 << 20, 0, 1, NULL, NULL, &e) == RB_OK);
    for (try_ = 0; try_ < 3 && !agreed; try_++) {
        int skip = 0;
        for (n = 0; n < 3 && !skip; n++) {   /* 16, 17, 16 */
            const rb_pa_accounting *a = &res.prefetch_accounting;
            c.reads_per_op = n == 1 ? 17 : 16;
            if (!ran("mmap-random-willneed", &c)) { skip = 1; break; }
            if (res.resident_before < 0 || res.resident_before * 10 > (int64_t)res.file_pages) skip = 2;
            if (skip || a->sampled - a->failed < 200) { skip = skip ? skip : 3; break; }
            f[n][0] = pa_frac(a, a->redundant);
            f[n][1] = pa_frac(a, a->useful);
            f[n][2] = pa_frac(a, a->late);
            f[n][3] = pa_frac(a, a->wasted);
            m[n] = (double)(a->sampled - a->failed);
        }
        if (skip == 2) { unlink(big); SKIP("the file could not be evicted here (tmpfs, or residency unknown): no cold case"); }
        if (skip) {   /* no op measured, or too few hints classified to compare: again, for longer */
            c.duration_ns *= 2;
            continue;
        }
        compared++;
        for (worst = 0, agreed = 1, k = 0; k < 4; k++) {
            double m16 = m[0] + m[2], f16 = (f[0][k] * m[0] + f[2][k] * m[2]) / m16, p = (f16 + f[1][k]) / 2;
            double d = fabs(f16 - f[1][k]), aa = 2 * fabs(f[0][k] - f[2][k]);
            allow[k] = 3 * sqrt(p * (1 - p) * (1 / m16 + 1 / m[1]));
            if (allow[k] < 0.20) allow[k] = 0.20;
            if (allow[k] < aa) allow[k] = aa;
            if (d > worst) worst = d;
            if (d > allow[k]) agreed = 0;
        }
        if (!agreed)
            fprintf(stderr, "    try %u: r/u/l/w at 16 %.3f/%.3f/%.3f/%.3f, 17 %.3f/%.3f/%.3f/%.3f, 16 %.3f/%.3f/%.3f/%.3f\n",
                    try_ + 1, f[0][0], f[0][1], f[0][2], f[0][3], f[1][0], f[1][1], f[1][2], f[1][3], f[2][0], f[2][1],
                    f[2][2], f[2][3]);
    }
    if (!compared) { unlink(big); SKIP("a loaded machine: too few hints classified in 3 tries to compare"); }
    for (k = 0; k < 4 && !agreed; k++)
        fprintf(stderr, "    %s: %.3f and %.3f at 16, %.3f at 17 (allowed %.3f)\n", names[k], f[0][k], f[2][k], f[1][k],
                allow[k]);
    CHECKF(agreed, "16 and 17 reads per op disagree by %.1f points (%.0f, %.0f and %.0f hints classified)", 100 * worst,
           m[0], m[1], m[2]);
    unlink(big);
}

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    int ok = f && fputs(text, f) >= 0;
    if (f && fclose(f) != 0) ok = 0;
    return ok;
}

/* Pressure between hint and read: in a 64 MiB memory cgroup, an op hints 96 MiB (192 reads
   of 512 KiB) before it reads the first: what the first hints loaded is evicted before its
   read, and the accounting says wasted. The op re-reads its evicted pages a fault at a time
   (a RANDOM mapping): 24,576 faults, near the 6 s window on this project's VMs, so a cell in
   which no op ended inside its window (none, or one still in flight at its end) runs once more
   with 12 s (a skip if that does not do). 100: the cell's process failed. */
static int wasted_cell(const char *cg, const char *big, const char *j, unsigned seconds)
{
    char line[4096], py[1024];
    pid_t pid;
    int st;
    snprintf(line, sizeof line, "timeout -s KILL 120 '%s' run '%s' --strategies mmap-random-willneed --threads 1 "
             "--read-size 512k --reads-per-op 192 --scenario cold --duration %us --iterations 1 --format json "
             "--quiet > '%s' 2>/dev/null", rbt_cli(), big, seconds, j);
    unlink(j);   /* a JSON of an earlier try is never read as this one's */
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        if (!write_text(cg, "0\n")) _exit(126);
        execl("/bin/sh", "sh", "-c", line, (char *)NULL);
        _exit(127);
    }
    if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) > 1) {   /* 1: the cell failed */
        fprintf(stderr, "    the cell's process did not run to its end (status %d)\n", pid < 0 ? -1 : st);
        return 100;
    }
    snprintf(py, sizeof py, "python3 -c '\n"
             "import json, sys\n"
             "r=json.load(open(\"%s\"))[\"results\"][0]\n"
             "a=r[\"prefetch_accounting\"]\n"
             "if (r[\"status\"]!=\"ok\" and \"no op completed\" in r[\"reason\"]) or r[\"ops_per_ms_upper_bound\"]: sys.exit(3)\n"
             "if r[\"status\"]==\"ok\" and not a[\"wasted_known\"]: sys.exit(4)\n"
             "assert r[\"status\"]==\"ok\" and a[\"wasted_known\"] and a[\"wasted\"]>0, (r[\"reason\"], a)\n"
             "'", j);
    st = system(py);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void accounting_wasted_under_pressure(void)
{
    char own[1024], cg[1200], line[1300];
    const char *big = rbt_path("pa-wasted.dat"), *j = rbt_path("pa-wasted.json");
    rb_error e;
    int rc;
    if (!rbt_is_root()) SKIP("needs root to make a memory cgroup");
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    if (RBT_ASAN) SKIP("built with ASan: its shadow memory does not fit the 64 MiB cgroup");
    if (!rbt_have_python("json")) SKIP("python3 is not installed: no JSON parser to check with");
    if (!rbt_own_memcg(own, sizeof own)) SKIP("no writable cgroup v1 memory controller (/sys/fs/cgroup/memory)");
    snprintf(cg, sizeof cg, "%s/readbench-strat-%d", own, (int)getpid());
    if (mkdir(cg, 0755) != 0) SKIP("cannot create a child memory cgroup here");
    snprintf(line, sizeof line, "%s/memory.limit_in_bytes", cg);
    CHECK(write_text(line, "67108864\n"));
    CHECK(rb_setup_file(big, (uint64_t)256 << 20, 0, 1, NULL, NULL, &e) == RB_OK);
    snprintf(line, sizeof line, "%s/cgroup.procs", cg);
    rc = wasted_cell(line, big, j, 6);
    if (rc == 3) {
        fprintf(stderr, "    no op ended inside 6 s: once more with 12 s\n");
        rc = wasted_cell(line, big, j, 12);
    }
    if (rmdir(cg) != 0) fprintf(stderr, "    could not remove %s\n", cg);
    unlink(big);
    if (rc == 3) SKIP("the disk was too slow here for one op of 96 MiB in 6 s, then in 12 s (a loaded machine)");
    if (rc == 4) SKIP("this build cannot see evictions (no cachestat: the portable build)");
    CHECKF(rc == 0, "the JSON check exited %d", rc);
}

/* A strategy's facts are its fields, never its name (issue 22): a row of one's own, named
   nothing like the table's, reading through a RANDOM mapping and hinting each read through
   Lucene's backoff, gets the policy's hints and their accounting from the runner. And the
   docs' strategy table (list --format markdown) is made from the same fields. */
static void facts_are_fields_not_names(void)
{
    rb_strategy mine = *rb_strategy_find("mmap-random");
    rb_config c = quick(rbt_small_file(), 1);
    char out[16384], err[1024];
    unsigned n, i;
    const rb_strategy *all = rb_strategies(&n);
    mine.name = "my-own-reader";
    mine.hint = RB_HINT_MADVISE;
    mine.policy = RB_PREFETCH_BACKOFF;
    c.prewarm = 0.5;
    rbt_run_cell(&c, &mine, &res);
    CHECKF(res.status == RB_OK, "%s", res.reason);
    CHECKF(res.prefetch.calls >= res.ops * res.reads_per_op && res.prefetch_accounting.hints > 0 &&
           res.madvise_failed == 0, "%llu policy calls, %llu hints accounted", (unsigned long long)res.prefetch.calls,
           (unsigned long long)res.prefetch_accounting.hints);
    mine.policy = RB_PREFETCH_ALWAYS;   /* every read hinted, as madvise calls, no policy */
    rbt_run_cell(&c, &mine, &res);
    CHECKF(res.status == RB_OK && res.prefetch.calls == 0 && res.madvise_calls >= res.ops * res.reads_per_op,
           "%llu madvise calls for %llu ops", (unsigned long long)res.madvise_calls, (unsigned long long)res.ops);
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    CHECK(rbt_cli_run(rbt_tmpdir(), "list --format markdown", NULL, out, sizeof out, err, sizeof err) == 0);
    for (i = 0; i < n; i++) {
        char row[128];
        snprintf(row, sizeof row, "| `%s` | %s", all[i].name,
                 all[i].flags & RB_S_NOIO ? "none" : all[i].flags & RB_S_MMAP ? "mapping" : "descriptor");
        CHECKF(strstr(out, row) != NULL, "no row %s", row);
    }
    CHECK(strstr(out, "| `mmap-random-backoff` | mapping | RANDOM | MADV_WILLNEED | backoff |") != NULL);
}

/* map_resident: a warm file's mmap cell starts with its cached pages mapped, so the timed loop
   takes no minor fault where a fresh mapping takes one per first touch; a row that maps
   nothing is untouched by it and says nothing. Up to 3 tries: another suite's drop_caches
   between the prewarm and the reads turns touches into faults. */
static int warned_mapping(void)
{
    unsigned k;
    for (k = 0; k < res.nwarnings; k++)
        if (strstr(res.warnings[k], "mapping")) return 1;
    return 0;
}

static void map_resident_maps_the_cached_pages(void)
{
    rb_config c = quick(rbt_small_file(), 1);
    int64_t fresh = -1, mapped = -1;
    int try_;
    c.verify = 0;
    c.prewarm = 1;
    c.duration_ns = 100000000;
    for (try_ = 0; try_ < 3; try_++) {
        c.map_resident = 0;
        if (!ran("mmap-random", &c)) return;
        fresh = res.minflt;
        c.map_resident = 1;
        if (!ran("mmap-random", &c)) return;
        mapped = res.minflt;
        CHECKF(!warned_mapping(), "%s", res.warnings[0]);
        if (fresh > 0 && mapped >= 0 && mapped * 4 <= fresh) break;
        fprintf(stderr, "    try %d: %lld minor faults from a fresh mapping, %lld mapped ahead; again\n", try_ + 1,
                (long long)fresh, (long long)mapped);
    }
    if (fresh < 0) SKIP("no fault counts here");
    CHECKF(fresh > 0 && mapped * 4 <= fresh, "%lld minor faults from a fresh mapping, %lld with the cached pages mapped",
           (long long)fresh, (long long)mapped);
    if (ran("pread", &c)) CHECKF(!warned_mapping(), "pread with map_resident: %s", res.warnings[0]);
}

void suite_strategies(void)
{
    RUN(facts_are_fields_not_names);
    RUN(new_strategies_read_the_right_bytes);
    RUN(hints_are_counted);
    RUN(nowait_fraction_warm_and_cold);
    RUN(io_uring_qd_keeps_n_in_flight);
    RUN(refused_rows_say_why);
    RUN(io_uring_qd_disabled);
    RUN(every_format_has_the_new_figures);
    RUN(accounting_warm_and_cold);
    RUN(accounting_is_not_aliased_with_reads_per_op);
    RUN(accounting_wasted_under_pressure);
    RUN(map_resident_maps_the_cached_pages);
}
