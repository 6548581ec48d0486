#define _GNU_SOURCE
/* The test runner. `./run_tests` runs every suite, each in its own process (this program again,
   with RB_TESTS=suite), several at a time: most suites wait on sleeps, timed windows and the disk,
   not on a CPU. Each suite's log goes to a file; the runner prints a line per suite as it ends,
   the whole story of every test that failed or skipped, and last the sum on stdout:
   "N passed, N failed, N skipped". RB_TESTS=name[,name...] runs those suites here, in this
   process, one after the other (make check runs the threaded runner under TSan that way);
   RB_ONLY=test[,test...] runs only the tests of those names; RB_JOBS=n sets how many suites
   run at once; RB_KEEP_LOGS=1 keeps the suites' logs (they are
   kept anyway when a suite failed); RB_CLI_COST=s logs each CLI run that took s seconds of CPU
   or more. The tests that need the machine to themselves (ALONE)
   are put off in the parallel phase and run after it, one at a time. Run from tests/ so that
   ../readbench is the CLI. */
#include "readbench.h"
#include "rbtest.h"
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

rbt_state rbt;

static char tmpdir[256];

uint64_t rbt_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static double now_s(void) { return (double)rbt_now_ns() / 1e9; }

/* CPU seconds of this process and of the children it waited for (the CLI runs). */
static double cpu_s(void)
{
    struct rusage a, b;
    getrusage(RUSAGE_SELF, &a);
    getrusage(RUSAGE_CHILDREN, &b);
    return (double)(a.ru_utime.tv_sec + a.ru_stime.tv_sec + b.ru_utime.tv_sec + b.ru_stime.tv_sec) +
           (double)(a.ru_utime.tv_usec + a.ru_stime.tv_usec + b.ru_utime.tv_usec + b.ru_stime.tv_usec) / 1e6;
}

/* Tests that need the machine to themselves (rbt_alone). In the parallel phase such a test is
   put off: its name goes to RBT_DIR/deferred and it returns at once; the runner runs those
   after every suite has ended, one at a time (run_deferred). Before, each took an exclusive
   lock in the middle of the run and waited for the tests running then to end, with new ones
   held off: 8 such waits, and tests that needed no CPU took 15 s of the run's 90. Anywhere
   else (RB_TESTS, the deferred phase) the test runs where it is. */
static const char *cur_test;

int rbt_alone(void)
{
    const char *dir = getenv("RBT_DIR"), *suite = getenv("RB_TESTS");
    char p[600];
    FILE *f;
    int ok;
    if (!getenv("RBT_DEFER_ALONE") || !dir || !suite || !cur_test) return 0;
    snprintf(p, sizeof p, "%s/deferred", dir);
    f = fopen(p, "a");
    ok = f && fprintf(f, "%s %s\n", suite, cur_test) > 0;
    if (f && fclose(f) != 0) ok = 0;
    if (ok) rbt.cur_deferred = 1;
    else {   /* it cannot run alone: a failure said, not a run beside the others */
        fprintf(stderr, "    FAIL could not put the test off to run alone (%s)\n", p);
        rbt.cur_failed = 1;
    }
    return 1;
}

/* A test's name first; after it ends, how long it took when that was a second or more, of
   wall time or of CPU (the place to look when make test gets slow: the suites share the CPUs). */
void rbt_run(const char *name, void (*fn)(void))
{
    double t0 = now_s(), c0 = cpu_s(), dt, dc;
    const char *only = getenv("RB_ONLY");
    if (only && *only) {   /* RB_ONLY=a,b: only those tests (by whole name) */
        size_t l = strlen(name);
        const char *p = only;
        while ((p = strstr(p, name)) && !((p == only || p[-1] == ',') && (p[l] == ',' || !p[l]))) p += l;
        if (!p) return;
    }
    rbt.cur_failed = rbt.cur_skipped = rbt.cur_deferred = 0;
    fprintf(stderr, "  %s\n", name);
    cur_test = name;
    fn();
    cur_test = NULL;
    if (rbt.cur_deferred && !rbt.cur_failed) {
        fprintf(stderr, "    put off: it runs alone after the suites\n");
        return;
    }
    dt = now_s() - t0;
    dc = cpu_s() - c0;
    if (dt >= 1 || dc >= 1) fprintf(stderr, "    took %.1f s, %.1f s of CPU\n", dt, dc);
    if (rbt.cur_failed) { rbt.failed++; fprintf(stderr, "  FAILED %s\n", name); }
    else if (rbt.cur_skipped) rbt.skipped++;
    else rbt.passed++;
}

/* This process's directory for its files: in RBT_DIR (the parallel runner's directory, so that
   nothing outlives the run), else in TMPDIR, else in /var/tmp (a disk: tmpfs has no readahead).
   Short: some messages that tests read name a path and are cut at a fixed length. */
const char *rbt_tmpdir(void)
{
    if (!tmpdir[0]) {
        const char *dir = getenv("RBT_DIR"), *base = getenv("TMPDIR");
        if (dir && *dir) snprintf(tmpdir, sizeof tmpdir, "%s/XXXXXX", dir);
        else snprintf(tmpdir, sizeof tmpdir, "%s/readbench-test-XXXXXX", base && *base ? base : "/var/tmp");
        if (!mkdtemp(tmpdir)) { perror("mkdtemp"); exit(1); }
    }
    return tmpdir;
}

const char *rbt_path(const char *name)
{
    static char ring[64][512];   /* a pointer stays valid for the next 63 calls */
    static unsigned k;
    char *p = ring[k++ % 64];
    snprintf(p, 512, "%s/%s", rbt_tmpdir(), name);
    return p;
}

const char *rbt_small_file(void)
{
    static int made;
    static char p[512];
    snprintf(p, sizeof p, "%s", rbt_path("small.dat"));
    if (!made) {
        rb_error e;
        if (rb_setup_file(p, 8u << 20, 0, 1, NULL, NULL, &e) != RB_OK) {
            fprintf(stderr, "setup of %s failed: %s\n", p, e.msg);
            exit(1);
        }
        made = 1;
    }
    return p;
}

int rbt_is_root(void) { return geteuid() == 0; }

const char *rbt_cli(void)
{
    static char bin[600];
    char cwd[512];
    if (!bin[0] && getcwd(cwd, sizeof cwd)) snprintf(bin, sizeof bin, "%s/../readbench", cwd);
    return bin[0] && access(bin, X_OK) == 0 ? bin : NULL;
}

/* ARGS split into words as sh would, when nothing in it needs a shell: spaces, '...' and "..."
   only (no $, `, \, redirection, glob or list). 0: it needs one (cli_once then uses popen). */
static int cli_words(const char *args, char *buf, size_t buflen, char **argv, unsigned max)
{
    unsigned n = 0;
    size_t k = 0;
    const char *s = args;
    while (*s) {
        int word = 0;
        while (*s == ' ') s++;
        while (*s && *s != ' ') {
            char q = *s == '\'' || *s == '"' ? *s++ : 0;
            if (!word) {
                if (n + 1 >= max) return 0;
                argv[n++] = buf + k;
                word = 1;
            }
            for (; *s && (q ? *s != q : *s != ' ' && *s != '\'' && *s != '"'); s++) {
                if ((q != '\'' && strchr("$`\\|&;<>(){}*?[]~#!\n", *s)) || k + 2 >= buflen) return 0;
                buf[k++] = *s;
            }
            if (q && *s++ != q) return 0;   /* an unclosed quote */
        }
        if (word) buf[k++] = 0;
    }
    argv[n] = NULL;
    return 1;
}

/* The CLI run directly: fork, chdir, exec, with stdin /dev/null, stdout a pipe and stderr the
   file EP. TIMEOUT as timeout(1) takes it, "N" or "-s KILL N": an alarm the exec keeps, 124 when
   it fired. Each CLI run through sh and timeout cost 13.8 ms of CPU here, 3.5 ms direct; the
   suites run the CLI some thousands of times. -2: not this way (popen then). */
static int cli_direct(const char *dir, const char *args, const char *timeout, const char *ep, char *out, size_t outlen)
{
    char buf[8192], *argv[128], junk[4096];
    unsigned secs = 0;
    int fd[2], st, e;
    size_t n = 0;
    ssize_t got;
    pid_t pid;
    if (timeout) {
        const char *t = strncmp(timeout, "-s KILL ", 8) ? timeout : timeout + 8;
        if (!*t || strspn(t, "0123456789") != strlen(t) || strlen(t) > 5) return -2;   /* another option */
        secs = (unsigned)atoi(t);
    }
    argv[0] = (char *)rbt_cli();
    if (!cli_words(args, buf, sizeof buf, argv + 1, 127) || pipe(fd) != 0) return -2;
    pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -2;
    }
    if (pid == 0) {
        int in = open("/dev/null", O_RDONLY), er = open(ep, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in < 0 || er < 0 || chdir(dir) != 0 || dup2(in, 0) < 0 || dup2(fd[1], 1) < 0 || dup2(er, 2) < 0) _exit(126);
        close(fd[0]);   /* the CLI gets 0, 1 and 2 only, as from the shell */
        if (fd[1] > 2) close(fd[1]);
        if (in > 2) close(in);
        if (er > 2) close(er);
        if (secs) alarm(secs);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fd[1]);
    while ((got = read(fd[0], n + 1 < outlen ? out + n : junk, n + 1 < outlen ? outlen - 1 - n : sizeof junk)) != 0) {
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) break;
        if (n + 1 < outlen) n += (size_t)got;   /* past OUTLEN: drained, so that the writer never blocks */
    }
    out[n] = 0;
    close(fd[0]);
    while ((e = waitpid(pid, &st, 0)) < 0 && errno == EINTR) {}
    if (e < 0) return -1;
    if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM) return 124;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int cli_once(const char *dir, const char *args, const char *timeout, char *out, size_t outlen, char *err,
                    size_t errlen)
{
    char cmd[8192], ep[600];
    FILE *p, *ef;
    size_t n;
    int st;
    const char *cost = getenv("RB_CLI_COST");   /* where a suite's CPU goes */
    double c0 = cost ? cpu_s() : 0, t0 = cost ? now_s() : 0;
    out[0] = err[0] = 0;
    snprintf(ep, sizeof ep, "%s/cli-stderr.txt", rbt_tmpdir());
    if (!rbt_cli()) return -1;
    if ((st = cli_direct(dir, args, timeout, ep, out, outlen)) == -2) {
        snprintf(cmd, sizeof cmd, "cd '%s' && %s%s%s'%s' %s </dev/null 2>'%s'", dir, timeout ? "timeout " : "",
                 timeout ? timeout : "", timeout ? " " : "", rbt_cli(), args, ep);
        if (!(p = popen(cmd, "r"))) return -1;
        n = fread(out, 1, outlen - 1, p);
        out[n] = 0;
        while (fread(err, 1, errlen, p) > 0) {}   /* drain: a writer must not block */
        st = pclose(p);
        st = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    }
    ef = fopen(ep, "r");
    n = ef ? fread(err, 1, errlen - 1, ef) : 0;
    err[n] = 0;
    if (ef) fclose(ef);
    if (cost && cpu_s() - c0 >= atof(cost))
        fprintf(stderr, "    the CLI took %.2f s, %.2f s of CPU: %.150s\n", now_s() - t0, cpu_s() - c0, args);
    return st;
}

/* A run whose cell measured nothing because the machine did not let it (rbt_unmeasured's
   words in its report or on stderr, exit 1; or exit 1 with "N cells failed" while the report
   went to a file, so that the reason cannot be seen) runs again, 3 runs at most: a test that
   wants that failure still gets it, a test that wants a measurement gets one. */
int rbt_cli_run(const char *dir, const char *args, const char *timeout, char *out, size_t outlen, char *err,
                size_t errlen)
{
    static const char unmeasured[] = "no op completed inside any measured iteration";
    unsigned k;
    int rc = -1;
    for (k = 0; k < 3; k++) {
        rc = cli_once(dir, args, timeout, out, outlen, err, errlen);
        if (rc != 1 || (!strstr(out, unmeasured) && !strstr(err, unmeasured) && (out[0] || !strstr(err, "failed (see above)"))))
            break;
        fprintf(stderr, "    a cell measured nothing: the command again\n");
    }
    return rc;
}

int rbt_system_ok(const char *cmd)
{
    unsigned k;
    int st = -1;
    for (k = 0; k < 3; k++) {
        if ((st = system(cmd)) == 0) break;
        fprintf(stderr, "    a command of a short run and its check failed (status %d): again\n", st);
    }
    return st;
}

int rbt_unmeasured(const rb_result *x)
{
    return x->status != RB_OK && strstr(x->reason, "no op completed inside any measured iteration") != NULL;
}

int rbt_run_cell(const rb_config *c, const rb_strategy *s, rb_result *res)
{
    int rc = RB_OK;
    unsigned k;
    for (k = 0; k < 3; k++) {
        rc = (rb_run)(c, s, res);
        if (!rbt_unmeasured(res)) break;
        fprintf(stderr, "    %s measured nothing (%.80s): again\n", s->name, res->reason);
    }
    return rc;
}

int rbt_realtime(int on)
{
    struct sched_param sp;
    memset(&sp, 0, sizeof sp);
    sp.sched_priority = on ? sched_get_priority_min(SCHED_FIFO) : 0;
    return pthread_setschedparam(pthread_self(), on ? SCHED_FIFO : SCHED_OTHER, &sp) == 0;
}

int rbt_boost(int on)
{
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), on ? -10 : 0) == 0;
}

int rbt_have_python(const char *imports)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "python3 -c 'import %s' >/dev/null 2>&1", imports);
    return system(cmd) == 0;
}

/* The memory cgroup (v1) this process is in, for the tests that run a child under a limit. */
int rbt_own_memcg(char *dir, size_t len)
{
    char line[1024];
    FILE *f = fopen("/proc/self/cgroup", "r");
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f)) {
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2 || !strstr(c1, "memory")) continue;
        c2[1 + strcspn(c2 + 1, "\n")] = 0;
        snprintf(dir, len, "/sys/fs/cgroup/memory%s", strcmp(c2 + 1, "/") ? c2 + 1 : "");
        found = 1;
    }
    if (f) fclose(f);
    return found && access(dir, W_OK) == 0;
}

/* ---- the suites ---- */

/* Every suite, in the order of the sections they cover. seconds: how long the suite took in a
   parallel run (make test on the project's 2-CPU VM, AMD EPYC, 2026-12-02); the parallel runner
   starts the longest first, so that the run ends when its longest suite does. A guess that is
   wrong only costs time: the older guesses, each suite alone, started strategies and counting,
   the longest in parallel, ninth and tenth. The suites
   above the #ifndef need the core alone: built with RB_NO_TOOLS (or RB_NO_REPORTS, which
   implies it), as make test-core does, the runner has only those, and their few tests of the
   reports or the tools are left out where they stand (#ifndef in the suite). */
static const struct rbt_suite {
    const char *name;
    void (*fn)(void);
    double seconds;
} suites[] = {
    {"hist", suite_hist, 0.3},
    {"setup", suite_setup, 0.6},
    {"runner", suite_runner, 11.4},
    {"cache", suite_cache, 15.8},
    {"safety", suite_safety, 11.2},
    {"counting", suite_counting, 31.7},
    {"stats", suite_stats, 20.8},
    {"strategies", suite_strategies, 33.8},
    {"openloop", suite_openloop, 7.2},
    {"files", suite_files, 19},
    {"compile", suite_compile, 1.2},
#ifndef RB_NO_TOOLS
    {"parse", suite_parse, 0.1},
    {"prefetch", suite_prefetch, 6.5},
    {"probe", suite_probe, 5.5},
    {"cli", suite_cli, 19},
    {"svg", suite_svg, 6.3},
    {"hostile", suite_hostile, 11.8},
    {"output", suite_output, 8.6},
    {"patterns", suite_patterns, 7.9},
    {"advise", suite_advise, 22.4},
    {"advise_cli", suite_advise_cli, 26.8},
    {"replay", suite_replay, 6.1},
    {"kernel", suite_kernel, 5.9},
    {"group", suite_group, 30.9},
    {"procs", suite_procs, 7.3},
    {"axes", suite_axes, 2.5},
    {"timeline", suite_timeline, 11.1},
    {"curve", suite_curve, 11.7},
#endif
};
#define NSUITES (sizeof suites / sizeof suites[0])

static void remove_tree(const char *dir)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

/* RB_TESTS=a,b: those suites, here, in the order given. */
static int run_here(const char *list)
{
    char names[1024], *name, *save = NULL;
    unsigned i;
    snprintf(names, sizeof names, "%s", list);
    for (name = strtok_r(names, ", ", &save); name; name = strtok_r(NULL, ", ", &save)) {
        for (i = 0; i < NSUITES && strcmp(suites[i].name, name) != 0; i++) {}
        if (i == NSUITES) {
            fprintf(stderr, "RB_TESTS: no suite named '%s'; the suites:", name);
            for (i = 0; i < NSUITES; i++) fprintf(stderr, " %s", suites[i].name);
            fprintf(stderr, "\n");
            return 2;
        }
        fprintf(stderr, "%s\n", suites[i].name);
        suites[i].fn();
    }
    if (tmpdir[0]) remove_tree(tmpdir);
    fprintf(stderr, "%d checks\n", rbt.checks);
    fflush(stderr);
    printf("%d passed, %d failed, %d skipped\n", rbt.passed, rbt.failed, rbt.skipped);
    return rbt.failed ? 1 : 0;
}

/* ---- the parallel runner ---- */

typedef struct child {
    pid_t pid;          /* 0: not started or ended */
    double start, end;
    int status, done;
    char log[600];
} child;

static volatile sig_atomic_t interrupted;
static void on_interrupt(int sig) { interrupted = sig; }

/* How many suites at once. Most of a suite's time is sleeps, timed windows and the disk, so
   more suites than CPUs; not many more, since the timed tests then share the CPUs with more
   neighbours than the machine's own load. */
static unsigned jobs(void)
{
    const char *j = getenv("RB_JOBS");
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (j && atoi(j) > 0) return (unsigned)atoi(j);
    return n > 0 ? (unsigned)(2 * n + 2) : 4;
}

/* A suite in a child of its own, its output to its log; only: one test of it, alone (the
   deferred phase), else all of them with the alone ones put off. */
static pid_t start_suite(const char *self, const char *dir, const char *suite, const char *only, child *c)
{
    pid_t pid;
    if (only) snprintf(c->log, sizeof c->log, "%s/%s.%s.log", dir, suite, only);
    else snprintf(c->log, sizeof c->log, "%s/%s.log", dir, suite);
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        int fd = open(c->log, O_WRONLY | O_CREAT | O_TRUNC, 0644), in = open("/dev/null", O_RDONLY);
        if (fd < 0 || in < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0 || dup2(in, 0) < 0) _exit(127);
        close(fd);
        close(in);
        setpgid(0, 0);   /* the suite and what it starts: one group, so a timeout ends them all */
        setenv("RB_TESTS", suite, 1);
        setenv("RBT_DIR", dir, 1);
        if (only) setenv("RB_ONLY", only, 1);
        else setenv("RBT_DEFER_ALONE", "1", 1);
        execl(self, self, (char *)NULL);
        _exit(127);
    }
    if (pid > 0) setpgid(pid, pid);
    c->pid = pid;
    c->start = now_s();
    return pid;
}

/* A suite's log, shortened: the tests that failed or skipped, each with all it printed. */
static void print_story(const char *log, int whole)
{
    static char block[1 << 16];
    char line[4096];
    size_t used = 0;
    int keep = 0, lines = 0, n;
    char nl;
    FILE *f = fopen(log, "r");
    if (!f) { fprintf(stderr, "  (no log: %s)\n", log); return; }
    block[0] = 0;
    for (;;) {
        int eof = !fgets(line, sizeof line, f);
        int head = !eof && line[0] == ' ' && line[1] == ' ' && line[2] != ' ' && strncmp(line, "  FAILED ", 9) != 0;
        if (eof || head) {   /* a block ends: the test before, with what it printed */
            if (keep || whole) fprintf(stderr, "%s", block);
            block[0] = 0;
            used = 0;
            keep = lines = 0;
            if (eof) break;
        }
        if (!whole && (sscanf(line, "%d checks%c", &n, &nl) == 2 || sscanf(line, "%d passed, %d", &n, &n) == 2)) continue;
        if (strstr(line, "    FAIL ") || strstr(line, "  FAILED ") || strstr(line, "    skip: ")) keep = 1;
        if (++lines > 200) continue;   /* a test that prints pages: its first 200 lines */
        if (used + strlen(line) + 1 < sizeof block) {
            memcpy(block + used, line, strlen(line) + 1);
            used += strlen(line);
        }
    }
    fclose(f);
}

/* The suite's counts, from the last line of its log; 0 when there is none (it died). */
static int read_counts(const char *log, int n[3])
{
    char line[4096], last[4096] = "";
    FILE *f = fopen(log, "r");
    if (!f) return 0;
    while (fgets(line, sizeof line, f))
        if (strstr(line, " passed, ")) snprintf(last, sizeof last, "%s", line);
    fclose(f);
    return sscanf(last, "%d passed, %d failed, %d skipped", &n[0], &n[1], &n[2]) == 3;
}

/* A suite (or a put-off test) that ended: its line, the story of what failed or skipped, and
   its counts into total. One that crashed, hung or could not start counts one failure. */
static void report_child(const char *label, const child *c, double timeout, int total[3], int *failed_suites)
{
    int n[3] = {0, 0, 0}, ok = read_counts(c->log, n), st = c->status, j;
    int died = !ok || !WIFEXITED(st) || (WEXITSTATUS(st) != 0 && n[1] == 0);
    if (died) n[1]++;
    fprintf(stderr, "%-12s %3d passed, %d failed, %d skipped  %5.1f s%s\n", label, n[0], n[1], n[2], c->end - c->start,
            died ? "  (died)" : "");
    if (died && WIFSIGNALED(st))
        fprintf(stderr, "  the suite ended on signal %d%s\n", WTERMSIG(st),
                c->end - c->start > timeout ? " (over RB_SUITE_TIMEOUT)" : "");
    print_story(c->log, died);
    if (n[1]) (*failed_suites)++;
    for (j = 0; j < 3; j++) total[j] += n[j];
}

/* The tests put off in the parallel phase (RBT_DIR/deferred, "suite test" lines), one at a
   time with nothing else running, each in a child of its own; their counts join the totals. */
static void run_deferred(const char *self, const char *dir, double timeout, int total[3], int *failed_suites)
{
    char p[600], line[512], suite[128], test[256], label[400];
    FILE *f;
    snprintf(p, sizeof p, "%s/deferred", dir);
    if (!(f = fopen(p, "r"))) return;   /* none was put off */
    while (!interrupted && fgets(line, sizeof line, f)) {
        child c;
        pid_t pid = 0;
        if (sscanf(line, "%127s %255s", suite, test) != 2) continue;
        memset(&c, 0, sizeof c);
        snprintf(label, sizeof label, "%s/%s (alone)", suite, test);
        if (start_suite(self, dir, suite, test, &c) > 0) {
            struct timespec ts = {0, 20000000};
            double term = 0;
            /* SIGTERM first, SIGKILL 5 s later: these tests change read_ahead_kb and put it back
               on a signal (the CLI does; a killed one cannot) */
            while ((pid = waitpid(c.pid, &c.status, WNOHANG)) == 0) {
                if (!term && (interrupted || now_s() - c.start > timeout)) {
                    kill(-c.pid, SIGTERM);
                    term = now_s();
                }
                if (term && now_s() - term > 5) kill(-c.pid, SIGKILL);
                nanosleep(&ts, NULL);
            }
            kill(-c.pid, SIGKILL);   /* anything it left running in its group */
        }
        if (pid != c.pid || c.pid <= 0) c.status = -1;
        c.end = now_s();
        report_child(label, &c, timeout, total, failed_suites);
    }
    while (interrupted && fgets(line, sizeof line, f))   /* never started: each a failure, as a suite's */
        if (sscanf(line, "%127s %255s", suite, test) == 2) {
            total[1]++;
            fprintf(stderr, "%s/%s not run\n", suite, test);
        }
    fclose(f);
}

/* python3 found once: where it is a version manager's shim (pyenv: a bash script that runs
   pyenv, which runs bash again), each of the suites' python3 checks cost 400 ms of CPU here, the
   interpreter itself 110, of which the site packages 75 (the checks import the standard library
   only: json, xml). DIR/bin/python3 runs the interpreter with -S, and DIR/bin goes first in PATH
   for the suites the runner starts: 35 ms a check. Nothing happens where python3 is missing. */
static void direct_python(const char *dir)
{
    char bin[600], sh[700], exe[512], *path = getenv("PATH"), *np;
    FILE *p = popen("python3 -c 'import sys; print(sys.executable)' 2>/dev/null", "r"), *f;
    size_t n = p ? fread(exe, 1, sizeof exe - 1, p) : 0;
    if (!p) return;
    if (pclose(p) != 0 || n == 0 || exe[0] != '/') return;
    exe[n] = 0;
    exe[strcspn(exe, "\n")] = 0;
    if (strchr(exe, '\'')) return;
    snprintf(bin, sizeof bin, "%s/bin", dir);
    snprintf(sh, sizeof sh, "%s/python3", bin);
    if (mkdir(bin, 0755) != 0 || !(f = fopen(sh, "w"))) return;
    fprintf(f, "#!/bin/sh\nexec '%s' -S \"$@\"\n", exe);
    if (fclose(f) != 0 || chmod(sh, 0755) != 0 || !path) return;
    np = malloc(strlen(bin) + strlen(path) + 2);
    if (!np) return;
    sprintf(np, "%s:%s", bin, path);
    setenv("PATH", np, 1);
    free(np);
}

static int run_parallel(const char *self)
{
    const double timeout = getenv("RB_SUITE_TIMEOUT") ? atof(getenv("RB_SUITE_TIMEOUT")) : 600;
    unsigned order[NSUITES], i, j, running = 0, next = 0, ended = 0, njobs = jobs();
    child c[NSUITES];
    char dir[512];
    const char *base = getenv("TMPDIR");
    int total[3] = {0, 0, 0}, failed_suites = 0;
    double t0 = now_s();
    struct sigaction sa;

    snprintf(dir, sizeof dir, "%s/rbt-XXXXXX", base && *base ? base : "/var/tmp");
    if (!mkdtemp(dir) || chmod(dir, 0755) != 0) { perror(dir); return 1; }   /* tests run the CLI as nobody too */
    direct_python(dir);
    memset(c, 0, sizeof c);
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    for (i = 0; i < NSUITES; i++) order[i] = i;   /* the longest first */
    for (i = 1; i < NSUITES; i++)
        for (j = i; j > 0 && suites[order[j]].seconds > suites[order[j - 1]].seconds; j--) {
            unsigned t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    fprintf(stderr, "%u suites, %u at a time; logs in %s\n", (unsigned)NSUITES, njobs, dir);
    while (ended < NSUITES) {
        pid_t pid;
        int st;
        while (!interrupted && running < njobs && next < NSUITES) {
            unsigned k = order[next++];
            if (start_suite(self, dir, suites[k].name, NULL, &c[k]) > 0) running++;
            else { c[k].done = 1; c[k].status = -1; ended++; }
        }
        pid = waitpid(-1, &st, WNOHANG);
        if (pid <= 0) {
            struct timespec ts = {0, 20000000};
            double t = now_s();
            if (pid < 0 && errno == ECHILD && running == 0) break;
            for (i = 0; i < NSUITES; i++)
                if (c[i].pid > 0 && !c[i].done && (interrupted || t - c[i].start > timeout)) kill(-c[i].pid, SIGKILL);
            nanosleep(&ts, NULL);
            continue;
        }
        for (i = 0; i < NSUITES && c[i].pid != pid; i++) {}
        if (i == NSUITES) continue;
        kill(-pid, SIGKILL);   /* anything the suite left running in its group */
        c[i].done = 1;
        c[i].status = st;
        c[i].end = now_s();
        running--;
        ended++;
        report_child(suites[i].name, &c[i], timeout, total, &failed_suites);
    }
    run_deferred(self, dir, timeout, total, &failed_suites);   /* interrupted: each listed as not run */
    for (i = 0; i < NSUITES; i++)
        if (!c[i].done) {   /* never started (an interrupt) */
            total[1]++;
            fprintf(stderr, "%-12s not run\n", suites[i].name);
        }
    fprintf(stderr, "%u suites in %.1f s%s\n", (unsigned)NSUITES, now_s() - t0, interrupted ? ", interrupted" : "");
    if (failed_suites || interrupted || getenv("RB_KEEP_LOGS")) fprintf(stderr, "the logs are kept in %s\n", dir);
    else remove_tree(dir);
    fflush(stderr);
    printf("%d passed, %d failed, %d skipped\n", total[0], total[1], total[2]);
    return total[1] ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *filter = getenv("RB_TESTS");
    (void)argc;
    if (filter && *filter) return run_here(filter);
    return run_parallel(argv[0]);
}
