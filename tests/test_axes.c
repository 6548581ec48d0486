/* test_axes.c - the axes that multiply a matrix's rows: read_ahead_kb and fault_around_bytes (kernel
   settings, rb_knob) and the queue strategies' depth. A test that changes read_ahead_kb changes it for
   the whole machine: it runs alone among the suites (rbt_alone), holds the exclusive lock every agent on
   this machine takes before changing it (/var/tmp/rb-readahead.lock) until it has checked the value is
   back, and skips where it is not root or the file has no block device. */
#define _GNU_SOURCE
#include "readbench.h"
#include "rbtest.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LOCK_PATH "/var/tmp/rb-readahead.lock"

static char out[1 << 16], err[1 << 14];

/* The read_ahead_kb file of path's device, found here by the test's own rule (the library's is
   what is tested): the device's queue, or for a partition its disk's. 0: none. */
static int ra_file(const char *path, char *file, size_t len)
{
    struct stat st;
    if (stat(path, &st) != 0) return 0;
    snprintf(file, len, "/sys/dev/block/%u:%u/queue/read_ahead_kb", major(st.st_dev), minor(st.st_dev));
    if (access(file, R_OK) == 0) return 1;
    snprintf(file, len, "/sys/dev/block/%u:%u/../queue/read_ahead_kb", major(st.st_dev), minor(st.st_dev));
    return access(file, R_OK) == 0;
}

static long read_num(const char *file)
{
    char b[64] = "";
    FILE *f = fopen(file, "r");
    long v = -1;
    if (f && fgets(b, sizeof b, f)) v = strtol(b, NULL, 10);
    if (f) fclose(f);
    return v;
}

/* The exclusive lock on read_ahead_kb (and alone among the suites): its descriptor, or -1 when
   others held it (measuring, shared) for 5 minutes: the test then skips rather than hang. */
static int ra_lock(void)
{
    struct timespec tenth = {0, 100000000};
    int fd, i;
    fd = open(LOCK_PATH, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    for (i = 0; fd >= 0 && i < 3000; i++) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) return fd;
        nanosleep(&tenth, NULL);
    }
    if (fd >= 0) close(fd);
    return -1;
}

#define RA_LOCK(fd)                                                                                          \
    do {                                                                                                     \
        ALONE();                                                                                             \
        if (((fd) = ra_lock()) < 0) SKIP("the read_ahead_kb lock (" LOCK_PATH ") was held by others for 5 minutes"); \
    } while (0)

static void ra_unlock(int fd)
{
    if (fd >= 0) { flock(fd, LOCK_UN); close(fd); }
}

/* The common preconditions of a test that writes read_ahead_kb: root, a file on a block device. */
static const char *ra_cannot(const char *path, char *file, size_t len)
{
    if (!rbt_is_root()) return "not root: read_ahead_kb cannot be written";
    if (!ra_file(path, file, len)) return "the test directory is on a filesystem with no block device";
    return NULL;
}

/* ---- what each cell ran with, read back during the cell ---- */

/* An observer that, as each cell's measuring starts, reads read_ahead_kb itself and keeps it
   beside what the runner recorded in the row. */
static struct { long sysfs[16], recorded[16]; unsigned n; char file[256]; } seen;

static int obs_cell(const rb_observer *o, const rb_config *c, void **state, char *why, size_t wl)
{
    (void)o; (void)c; (void)why; (void)wl;
    *state = &seen;
    return RB_OK;
}

static void obs_measuring(void *state, rb_result *const *rows, unsigned nrows)
{
    (void)state;
    if (!nrows || seen.n >= 16) return;
    seen.sysfs[seen.n] = read_num(seen.file);
    seen.recorded[seen.n++] = rows[0]->read_ahead_kb;
}

static void each_cell_runs_with_the_value_set_and_it_is_put_back(void)
{
#if defined(RB_NO_LINUX)
    SKIP("read_ahead_kb is a Linux sysfs setting: not in the portable build (RB_NO_LINUX)");
#endif
    static const long ra[] = {128, 1024, 4};   /* 4 KiB: one page */
    static const rb_observer obs = {NULL, obs_cell, obs_measuring, NULL, NULL, NULL, NULL, NULL};
    const rb_strategy *s[2];
    rb_matrix m;
    rb_report rep;
    char why[256];
    const char *no;
    long before;
    unsigned i, k;
    int fd;
    if ((no = ra_cannot(rbt_small_file(), seen.file, sizeof seen.file)) != NULL) SKIP(no);
    RA_LOCK(fd);
    before = read_num(seen.file);
    seen.n = 0;
    s[0] = rb_strategy_find("mmap");
    s[1] = rb_strategy_find("pread");
    memset(&m, 0, sizeof m);
    m.cfg.path = rbt_small_file();
    m.cfg.threads = 1;
    m.cfg.warmup_ns = RB_NONE;
    m.cfg.duration_ns = 30000000;
    m.cfg.iterations = 1;
    m.cfg.cache = RB_CACHE_EVICT;
    m.cfg.observer = &obs;
    m.strategies = s;
    m.nstrategies = 2;
    m.read_ahead_kb = ra;
    m.nread_ahead = 3;
    CHECKF(rb_matrix_check(&m, why, sizeof why) == RB_OK, "%s", why);
    CHECK(rb_run_matrix(&m, &rep) == RB_OK);
    CHECKF(read_num(seen.file) == before, "read_ahead_kb %ld after the run, %ld before", read_num(seen.file), before);
    CHECK(rep.count == 6 && rep.nstrategies == 6);
    CHECK(rep.nread_ahead == 3 && rep.read_ahead_kb && rep.read_ahead_kb[2] == 4 && !rep.fault_around && !rep.iodepths);
    CHECK(seen.n == 6);
    for (i = 0; i < seen.n; i++)
        CHECKF(seen.sysfs[i] == seen.recorded[i], "cell %u: /sys read %ld, the row holds %ld", i, seen.sysfs[i],
               seen.recorded[i]);
    for (i = 0; i < rep.count; i++) {   /* rows: mmap ra=128k, ra=1m, ra=4k, then pread likewise */
        const rb_result *x = &rep.results[i];
        char want[32];
        k = i % 3;
        snprintf(want, sizeof want, "ra=%s", k == 0 ? "128k" : k == 1 ? "1m" : "4k");
        CHECKF(x->status == RB_OK, "%s %s: %s", x->strategy, x->variant, x->reason);
        CHECKF(x->read_ahead_kb == ra[k], "%s %s ran with read_ahead_kb %ld", x->strategy, x->variant, x->read_ahead_kb);
        CHECKF(!strcmp(x->variant, want), "row %u: variant '%s', not '%s'", i, x->variant, want);
        CHECK(!strcmp(x->strategy, i < 3 ? "mmap" : "pread"));   /* the strategy's own name, the row's label apart */
        CHECK(strstr(rep.strategies[i], want) != NULL);
    }
    rb_report_free(&rep);
    ra_unlock(fd);
}

/* Every cell fails (a config rb_run refuses): the value was written before each, and is back. */
static void read_ahead_is_put_back_after_failed_cells(void)
{
#if defined(RB_NO_LINUX)
    SKIP("read_ahead_kb is a Linux sysfs setting: not in the portable build (RB_NO_LINUX)");
#endif
    static const long ra[] = {256, 512};
    const rb_strategy *s[1];
    rb_matrix m;
    rb_report rep;
    char file[256];
    const char *no;
    long before;
    unsigned i;
    int fd;
    if ((no = ra_cannot(rbt_small_file(), file, sizeof file)) != NULL) SKIP(no);
    RA_LOCK(fd);
    before = read_num(file);
    s[0] = rb_strategy_find("pread");
    memset(&m, 0, sizeof m);
    m.cfg.path = rbt_small_file();
    m.cfg.duration_ns = -5;   /* rb_run refuses it: every cell an error */
    m.strategies = s;
    m.nstrategies = 1;
    m.read_ahead_kb = ra;
    m.nread_ahead = 2;
    CHECK(rb_run_matrix(&m, &rep) == RB_OK);
    CHECK(rep.count == 2);
    for (i = 0; i < rep.count; i++) CHECKF(rep.results[i].status == RB_EINVAL, "%d", rep.results[i].status);
    CHECKF(read_num(file) == before, "read_ahead_kb %ld after the failed cells, %ld before", read_num(file), before);
    rb_report_free(&rep);
    ra_unlock(fd);
}

/* ---- the CLI: put back after a run, an error and a signal in the middle ---- */

static pid_t cli_start(const char *file, const char *extra)
{
    pid_t pid = fork();
    if (pid == 0) {
        char cmd[2048];
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) { dup2(fd, 1); dup2(fd, 2); }
        snprintf(cmd, sizeof cmd, "exec '%s' run '%s' --read-ahead 128k,1m --threads 1 --warmup 0 --duration 300ms "
                 "--iterations 3 --quiet %s", rbt_cli(), file, extra);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* Until read_ahead_kb is other than before (the run is in its cells), 20 s at most. */
static int wait_changed(const char *file, long before)
{
    struct timespec ms = {0, 1000000};
    int i;
    for (i = 0; i < 20000; i++) {
        long v = read_num(file);
        if (v >= 0 && v != before) return 1;
        nanosleep(&ms, NULL);
    }
    return 0;
}

static void read_ahead_is_put_back_after_a_signal_mid_run(void)
{
#if defined(RB_NO_LINUX)
    SKIP("read_ahead_kb is a Linux sysfs setting: not in the portable build (RB_NO_LINUX)");
#endif
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    char file[256];
    const char *no;
    long before;
    unsigned k;
    int fd;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    if ((no = ra_cannot(rbt_small_file(), file, sizeof file)) != NULL) SKIP(no);
    RA_LOCK(fd);
    before = read_num(file);
    for (k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
        struct timespec ms50 = {0, 50000000};
        int st = 0;
        pid_t pid = cli_start(rbt_small_file(), "--strategies pread,mmap");
        CHECK(pid > 0);
        if (pid <= 0) break;
        CHECKF(wait_changed(file, before), "signal %d: read_ahead_kb never changed", sigs[k]);
        nanosleep(&ms50, NULL);   /* inside a cell */
        kill(pid, sigs[k]);
        CHECK(waitpid(pid, &st, 0) == pid);
        CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 128 + sigs[k], "signal %d: %s %d", sigs[k],
               WIFEXITED(st) ? "exit" : "killed by", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
        CHECKF(read_num(file) == before, "signal %d: read_ahead_kb %ld, %ld before", sigs[k], read_num(file), before);
    }
    ra_unlock(fd);
}

/* A whole run, and a run whose file is replaced in the middle (its later cells fail: exit 1). */
static void read_ahead_is_put_back_after_a_run_and_an_error(void)
{
#if defined(RB_NO_LINUX)
    SKIP("read_ahead_kb is a Linux sysfs setting: not in the portable build (RB_NO_LINUX)");
#endif
    char file[256], cmd[3000], copy[600], other[600];
    const char *no;
    long before;
    int fd, st = 0;
    pid_t pid;
    rb_error e;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    if ((no = ra_cannot(rbt_small_file(), file, sizeof file)) != NULL) SKIP(no);
    RA_LOCK(fd);   /* before anything is made: put off in the parallel phase, it makes nothing twice */
    snprintf(copy, sizeof copy, "%s", rbt_path("axes-copy.dat"));
    snprintf(other, sizeof other, "%s", rbt_path("axes-other.dat"));
    CHECK(rb_setup_file(copy, 4u << 20, 0, 1, NULL, NULL, &e) == RB_OK);
    CHECK(rb_setup_file(other, 2u << 20, 0, 1, NULL, NULL, &e) == RB_OK);
    before = read_num(file);
    snprintf(cmd, sizeof cmd, "run '%s' --strategies pread --read-ahead 64k,2m --threads 1 --warmup 0 --duration 50ms "
             "--iterations 1 --format csv --quiet", copy);
    CHECK(rbt_cli_run(rbt_tmpdir(), cmd, "120", out, sizeof out, err, sizeof err) == 0);
    CHECKF(strstr(out, "ra=64k") && strstr(out, "ra=2m"), "%.300s", out);
    CHECKF(read_num(file) == before, "after a run: read_ahead_kb %ld, %ld before", read_num(file), before);
    pid = cli_start(copy, "--strategies pread,read,mmap");
    CHECK(pid > 0);
    if (pid > 0) {
        CHECK(wait_changed(file, before));
        CHECK(rename(other, copy) == 0);   /* another file: the cells after this one fail (RB_ECHANGED) */
        CHECK(waitpid(pid, &st, 0) == pid);
        CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 1, "%s %d", WIFEXITED(st) ? "exit" : "killed by",
               WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
        CHECKF(read_num(file) == before, "after an error: read_ahead_kb %ld, %ld before", read_num(file), before);
    }
    ra_unlock(fd);
    unlink(copy);
}

/* ---- refusals: one line, exit 2, nothing run ---- */

static unsigned lines(const char *s)
{
    unsigned n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

/* Not root: the CLI run as nobody (fork, setuid 65534), on a file nobody may read. */
static void read_ahead_refused_when_not_root(void)
{
#if defined(RB_NO_LINUX)
    SKIP("read_ahead_kb is a Linux sysfs setting: not in the portable build (RB_NO_LINUX)");
#endif
    char dir[] = "/tmp/rbaxes-XXXXXX", path[64], cmd[1024];
    rb_error e;
    int rc;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    if (!mkdtemp(dir)) SKIP("cannot make a directory in /tmp");
    snprintf(path, sizeof path, "%s/f.dat", dir);
    CHECK(chmod(dir, 0755) == 0);
    CHECK(rb_setup_file(path, 1u << 20, 0, 1, NULL, NULL, &e) == RB_OK);
    CHECK(chmod(path, 0644) == 0);
    if (!ra_file(path, cmd, sizeof cmd)) {
        unlink(path);
        rmdir(dir);
        SKIP("/tmp is on a filesystem with no block device: the refusal would be another");
    }
    snprintf(cmd, sizeof cmd, "run '%s' --read-ahead 128k --strategies pread --threads 1", path);
    if (rbt_is_root()) {   /* as nobody: the same command in a child that gave up root */
        int p[2], st = 0;
        pid_t pid;
        size_t n = 0;
        ssize_t r;
        CHECK(pipe(p) == 0);
        pid = fork();
        if (pid == 0) {
            char line[1200];
            dup2(p[1], 2);
            dup2(p[1], 1);
            close(p[0]);
            if (setgid(65534) != 0 || setuid(65534) != 0) _exit(99);
            snprintf(line, sizeof line, "exec '%s' %s", rbt_cli(), cmd);
            execl("/bin/sh", "sh", "-c", line, (char *)NULL);
            _exit(127);
        }
        close(p[1]);
        while (n < sizeof err - 1 && (r = read(p[0], err + n, sizeof err - 1 - n)) > 0) n += (size_t)r;
        err[n] = 0;
        close(p[0]);
        CHECK(waitpid(pid, &st, 0) == pid);
        rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        out[0] = 0;
    } else {
        rc = rbt_cli_run(rbt_tmpdir(), cmd, "60", out, sizeof out, err, sizeof err);
    }
    CHECKF(rc == 2, "exit %d: %s", rc, err);
    CHECKF(strstr(err, "read_ahead_kb") && strstr(err, "root"), "%s", err);
    CHECKF(lines(err) == 1 && !out[0], "more than the refusal: %s", err);
    unlink(path);
    rmdir(dir);
}

static void read_ahead_refused_on_tmpfs(void)
{
#if defined(RB_NO_LINUX)
    SKIP("read_ahead_kb is a Linux sysfs setting: not in the portable build (RB_NO_LINUX)");
#endif
    char path[] = "/dev/shm/rbaxes-XXXXXX", cmd[512];
    struct statfs sf;
    rb_knob k;
    rb_error e;
    int fd;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    if (statfs("/dev/shm", &sf) != 0 || sf.f_type != 0x01021994 /* TMPFS_MAGIC */) SKIP("no tmpfs at /dev/shm");
    if ((fd = mkstemp(path)) < 0) SKIP("cannot make a file in /dev/shm");
    close(fd);
    CHECK(rb_setup_file(path, 1u << 20, 0, 1, NULL, NULL, &e) == RB_OK);
    CHECK(rb_knob_take(&k, RB_KNOB_READ_AHEAD, path, &e) == RB_UNSUPPORTED);
    CHECKF(strstr(e.msg, "tmpfs") && strstr(e.msg, "no block device"), "%s", e.msg);
    CHECK(rb_knob_read(RB_KNOB_READ_AHEAD, path) == -1);
    snprintf(cmd, sizeof cmd, "run '%s' --read-ahead 128k,1m --strategies pread --threads 1", path);
    CHECK(rbt_cli_run(rbt_tmpdir(), cmd, "60", out, sizeof out, err, sizeof err) == 2);
    CHECKF(strstr(err, "no block device") && !out[0], "%s", err);
    unlink(path);
}

static void fault_around_refused_where_unavailable(void)
{
    char cmd[512];
    rb_knob k;
    rb_error e;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    if (access("/sys/kernel/debug/fault_around_bytes", R_OK) == 0)
        SKIP("fault_around_bytes is reachable here (debugfs mounted): the refusal cannot be seen");
    CHECK(rb_knob_take(&k, RB_KNOB_FAULT_AROUND, NULL, &e) == RB_UNSUPPORTED);
    snprintf(cmd, sizeof cmd, "run '%s' --fault-around 4k,64k --strategies mmap --threads 1", rbt_small_file());
    CHECK(rbt_cli_run(rbt_tmpdir(), cmd, "60", out, sizeof out, err, sizeof err) == 2);
    CHECKF(strstr(err, "fault_around_bytes is unavailable") && !out[0], "%s", err);
    CHECKF(lines(err) == 1, "one line: %s", err);
}

/* Values the kernel would not keep as written, and axes that make no sense: exit 2, no output. */
static void bad_axis_values_exit_2(void)
{
    static const char *const bad[] = {
        "--read-ahead 5k", "--read-ahead 100", "--read-ahead abc", "--read-ahead 2g", "--read-ahead ''",
        "--read-ahead 128k,128k", "--fault-around 12k", "--fault-around 4m", "--fault-around 0",
        "--iodepth 0", "--iodepth 5000", "--iodepth 4,x", "--iodepth 4,4 --strategies io_uring-qd",
        "--iodepth 1,16 --strategies mmap,pread", "--read-ahead 128k --group strategy=pread",
        "--group strategy=io_uring-qd,iodepth=1:4",
    };
    char cmd[1024];
    unsigned i;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc;
        snprintf(cmd, sizeof cmd, "run '%s' --threads 1 %s", rbt_small_file(), bad[i]);
        rc = rbt_cli_run(rbt_tmpdir(), cmd, "60", out, sizeof out, err, sizeof err);
        CHECKF(rc == 2 && !out[0], "%s: exit %d, %s", bad[i], rc, err);
    }
}

/* ---- the depth axis ---- */

static void iodepth_axis_makes_a_row_per_depth(void)
{
    char cmd[2048], path[600];
    const char *p;
    unsigned rows = 0, k;
    int rc;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    snprintf(path, sizeof path, "%s", rbt_path("depths.json"));
    snprintf(cmd, sizeof cmd, "run '%s' --strategies io_uring-qd,pread --iodepth 1,4,16 --threads 1 --warmup 0 "
             "--duration 50ms --iterations 1 --format json --quiet --output '%s'", rbt_small_file(), path);
    rc = rbt_cli_run(rbt_tmpdir(), cmd, "120", out, sizeof out, err, sizeof err);
    CHECKF(rc == 0 || rc == 1, "exit %d: %s", rc, err);
    {
        FILE *f = fopen(path, "r");
        size_t n = f ? fread(out, 1, sizeof out - 1, f) : 0;
        out[n] = 0;
        if (f) fclose(f);
    }
    for (p = out; (p = strstr(p, "\"strategy\": ")) != NULL; p++) rows++;
    CHECKF(rows == 4, "%u results: %.400s", rows, out);   /* 3 depths of io_uring-qd, pread once */
    CHECK(strstr(out, "\"iodepths\": [1, 4, 16]") && strstr(out, "\"read_ahead_kb\": null, \"fault_around_bytes\": null"));
    for (k = 0; k < 3; k++) {
        char want[96];
        static const unsigned d[] = {1, 4, 16};
        snprintf(want, sizeof want, "\"strategy\": \"io_uring-qd\", \"threads\": 1");
        CHECK(strstr(out, want) != NULL);
        snprintf(want, sizeof want, "\"variant\": \"qd=%u\", \"iodepth\": %u,", d[k], d[k]);
        CHECKF(strstr(out, want) != NULL, "no %s", want);
    }
    CHECKF(strstr(out, "\"strategy\": \"pread\"") && strstr(out, "\"variant\": null, \"iodepth\": null"), "%.600s", out);
    /* the same run's JSON diffs against itself: rows told apart by their variant */
    snprintf(cmd, sizeof cmd, "diff '%s' '%s'", path, path);
    rc = rbt_cli_run(rbt_tmpdir(), cmd, "60", out, sizeof out, err, sizeof err);
    CHECKF(rc == 0 && strstr(out, "qd=16"), "exit %d: %s %.300s", rc, err, out);
    /* CSV and the table name the depth too */
    snprintf(cmd, sizeof cmd, "run '%s' --strategies io_uring-qd --iodepth 2,8 --threads 1 --warmup 0 --duration 30ms "
             "--iterations 1 --format csv --quiet", rbt_small_file());
    rc = rbt_cli_run(rbt_tmpdir(), cmd, "120", out, sizeof out, err, sizeof err);
    CHECKF((rc == 0 || rc == 1) && strstr(out, ",iodepth,") && strstr(out, "\"qd=8\",8,"), "exit %d: %.600s", rc, out);
    snprintf(cmd, sizeof cmd, "run '%s' --strategies io_uring-qd --iodepth 2,8 --threads 1 --warmup 0 --duration 30ms "
             "--iterations 1 --quiet", rbt_small_file());
    rc = rbt_cli_run(rbt_tmpdir(), cmd, "120", out, sizeof out, err, sizeof err);
    CHECKF((rc == 0 || rc == 1) && strstr(out, "io_uring-qd qd=2") && strstr(out, "io_uring-qd qd=8"), "%.600s", out);
}

/* The depth reached is the depth asked, where io_uring runs. */
static void iodepth_axis_depth_is_the_one_run(void)
{
    static const unsigned d[] = {1, 8};
    const rb_strategy *s[1];
    rb_matrix m;
    rb_report rep;
    unsigned i;
    s[0] = rb_strategy_find("io_uring-qd");
    memset(&m, 0, sizeof m);
    m.cfg.path = rbt_small_file();
    m.cfg.threads = 1;
    m.cfg.warmup_ns = RB_NONE;
    m.cfg.duration_ns = 50000000;
    m.cfg.iterations = 1;
    m.cfg.cache = RB_CACHE_EVICT;
    m.strategies = s;
    m.nstrategies = 1;
    m.iodepths = d;
    m.niodepths = 2;
    CHECK(rb_run_matrix(&m, &rep) == RB_OK);
    CHECK(rep.count == 2);
    if (rep.count == 2 && rep.results[0].status == RB_UNSUPPORTED) {
        rb_report_free(&rep);
        SKIP("io_uring-qd cannot run here");
    }
    for (i = 0; i < rep.count && i < 2; i++) {
        const rb_result *x = &rep.results[i];
        CHECKF(x->status == RB_OK, "%s", x->reason);
        CHECK(x->iodepth == d[i]);
        CHECKF(x->inflight_max == d[i], "depth %u: %u in flight at most", d[i], x->inflight_max);
    }
    rb_report_free(&rep);
}

/* The probe says which read_ahead_kb each case ran with, in its result and its JSON. */
static void probe_reports_read_ahead_per_case(void)
{
#if defined(RB_NO_LINUX)
    SKIP("read_ahead_kb is a Linux sysfs setting: not in the portable build (RB_NO_LINUX)");
#endif
    char path[600];
    rb_probe_result r;
    rb_error e;
    char *buf = NULL;
    size_t len = 0;
    FILE *f;
    snprintf(path, sizeof path, "%s", rbt_path("axes-probe.dat"));
    CHECK(rb_setup_file(path, 64u << 20, 0, 1, NULL, NULL, &e) == RB_OK);
    if (rb_probe(path, 1, &r) == RB_UNSUPPORTED) { unlink(path); SKIP(r.reason); }
    CHECKF(r.status == RB_OK, "%s", r.reason);
    CHECKF(r.read_ahead_kb == rb_knob_read(RB_KNOB_READ_AHEAD, path), "the case ran with %ld, /sys says %ld",
           r.read_ahead_kb, rb_knob_read(RB_KNOB_READ_AHEAD, path));
    f = open_memstream(&buf, &len);
    CHECK(f != NULL);
    if (f) {
        char want[64];
        rb_report_probe(f, &r, 1, RB_FORMAT_JSON, NULL);
        fclose(f);
        snprintf(want, sizeof want, "\"read_ahead_kb\": %ld, \"status\": \"ok\"", r.read_ahead_kb);
        CHECKF(buf && strstr(buf, want), "no %s in %.400s", want, buf ? buf : "");
    }
    free(buf);
    unlink(path);
}

void suite_axes(void)
{
    RUN(each_cell_runs_with_the_value_set_and_it_is_put_back);
    RUN(read_ahead_is_put_back_after_failed_cells);
    RUN(read_ahead_is_put_back_after_a_signal_mid_run);
    RUN(read_ahead_is_put_back_after_a_run_and_an_error);
    RUN(read_ahead_refused_when_not_root);
    RUN(read_ahead_refused_on_tmpfs);
    RUN(fault_around_refused_where_unavailable);
    RUN(bad_axis_values_exit_2);
    RUN(iodepth_axis_makes_a_row_per_depth);
    RUN(iodepth_axis_depth_is_the_one_run);
    RUN(probe_reports_read_ahead_per_case);
}
