#define _GNU_SOURCE
/* Reader processes (rb_config.processes, --processes) and the memory limit (--memory-limit):
   the children's counts merged exactly, a child that dies fails its cell with how it died and
   never hangs it, page tables per process, the processes axis of a matrix and the CLI; a
   cell's memory cgroup made and removed (after a SIGINT too), its peak under its limit, and
   the refusals (not root, bad values). */
#include "readbench.h"
#include "rbtest.h"
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static rb_result res;
static char out[1 << 16], err[8192];

/* What the counting strategy's read_op saw, in memory every reader process shares (mapped
   before rb_run forks them): ops per process, by pid. */
#define RBT_PIDS 16
typedef struct rbt_seen {
    int pid[RBT_PIDS];
    unsigned long long ops[RBT_PIDS];
    int victim;                /* the pid the killing strategy chose; 0: none yet */
    unsigned long long victim_ops;
} rbt_seen;
static rbt_seen *seen;

static unsigned long long *rbt_slot(void)
{
    int me = (int)getpid();
    unsigned i;
    for (i = 0; i < RBT_PIDS; i++) {
        int was = __atomic_load_n(&seen->pid[i], __ATOMIC_ACQUIRE);
        if (was == me) return &seen->ops[i];
        if (was == 0 && __atomic_compare_exchange_n(&seen->pid[i], &was, me, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            return &seen->ops[i];
        if (was == me) return &seen->ops[i];
    }
    return NULL;
}

static int counting_op(rb_worker *w, const uint64_t *off, unsigned n)
{
    unsigned long long *slot = rbt_slot();
    unsigned i;
    for (i = 0; i < n; i++) w->sink += off[i];
    if (slot) __atomic_add_fetch(slot, 1, __ATOMIC_RELAXED);
    return 0;
}

/* The first process to get here kills itself (SIGKILL, as the OOM killer would) 200 ops on. */
static int killing_op(rb_worker *w, const uint64_t *off, unsigned n)
{
    int none = 0;
    counting_op(w, off, n);
    __atomic_compare_exchange_n(&seen->victim, &none, (int)getpid(), 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    if (__atomic_load_n(&seen->victim, __ATOMIC_ACQUIRE) == (int)getpid() &&
        __atomic_add_fetch(&seen->victim_ops, 1, __ATOMIC_RELAXED) == 200)
        kill(getpid(), SIGKILL);
    return 0;
}

/* The null strategy's row with a read_op of the test's (its open and close: the table's). */
static rb_strategy test_strategy(const char *name, int (*op)(rb_worker *, const uint64_t *, unsigned))
{
    rb_strategy s = *rb_strategy_find("null");
    s.name = name;
    s.read_op = op;
    return s;
}

static int seen_map(void)
{
    seen = (rbt_seen *)mmap(NULL, sizeof *seen, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (seen == (rbt_seen *)MAP_FAILED) { seen = NULL; return 0; }
    memset(seen, 0, sizeof *seen);
    return 1;
}

static void cfg_small(rb_config *c, unsigned processes, unsigned threads)
{
    memset(c, 0, sizeof *c);
    c->path = rbt_small_file();
    c->processes = processes;
    c->threads = threads;
    c->warmup_ns = RB_NONE;   /* every op the strategy sees is a measured one */
    c->duration_ns = 150000000;
    c->iterations = 2;
    rb_processes_attach(c);
}

/* Every op each process started, counted by the strategy itself in shared memory, is in the
   merged result: reads issued = (the sum over the processes of their ops) x reads per op,
   and three processes did the reading, each with page tables of its own. */
static void processes_merge_counts_exactly(void)
{
#if defined(RB_NO_LINUX)
    SKIP("page tables (VmPTE) are read from /proc: not in the portable build (RB_NO_LINUX)");
#endif
    rb_config c;
    rb_strategy s;
    unsigned i, pids = 0;
    unsigned long long ops = 0, pte = 0;
    if (!seen_map()) SKIP("mmap of a shared counter failed");
    s = test_strategy("counting", counting_op);
    cfg_small(&c, 3, 2);
    CHECK((rb_run)(&c, &s, &res) == RB_OK);
    CHECKF(res.status == RB_OK, "%s", res.reason);
    for (i = 0; i < RBT_PIDS; i++) {
        pids += seen->pid[i] != 0;
        ops += seen->ops[i];
    }
    CHECKF(pids == 3, "%u processes read", pids);
    CHECK(res.processes == 3 && res.threads == 2);
    CHECKF(res.reads_issued == ops * res.reads_per_op, "reads issued %llu, the processes' ops %llu x %u",
           (unsigned long long)res.reads_issued, ops, res.reads_per_op);
    CHECK(res.ops > 0 && res.ops <= ops);
    CHECK(res.iterations == 2 && res.iter_ops_per_ms[0] > 0 && res.iter_ops_per_ms[1] > 0);
    CHECK(fabs(res.ops_per_ms - (res.iter_ops_per_ms[0] + res.iter_ops_per_ms[1]) / 2) < 1e-9 * res.ops_per_ms + 1e-12);
    CHECK(rb_hist_total(&res.lat) == res.ops);   /* every counted op of every process's histogram */
    CHECKF(res.npte == 3, "%u page-table figures", res.npte);
    for (i = 0; i < res.npte; i++) {
        CHECKF(res.pte_each[i] > 0, "process %u: %lld bytes of page tables", i, (long long)res.pte_each[i]);
        pte += (unsigned long long)res.pte_each[i];
    }
    CHECK(res.page_table_bytes == (int64_t)pte);
    CHECK(res.pages_touched < 0 && res.hit_rate < 0);   /* not mergeable over processes: unknown, not wrong */
    munmap(seen, sizeof *seen);
}

/* A cell of threads says its own process's page tables too. */
static void threads_report_their_page_tables(void)
{
#if defined(RB_NO_LINUX)
    SKIP("page tables (VmPTE) are read from /proc: not in the portable build (RB_NO_LINUX)");
#endif
    rb_config c;
    cfg_small(&c, 0, 2);
    CHECK(rb_run(&c, rb_strategy_find("mmap-random"), &res) == RB_OK);
    CHECKF(res.status == RB_OK, "%s", res.reason);
    CHECK(res.processes == 1 && res.npte == 1 && res.page_table_bytes > 0 && res.pte_each[0] == res.page_table_bytes);
}

/* A reader process killed in the middle (SIGKILL: what the OOM killer sends) fails the cell
   with how it died, the others are stopped, and nothing hangs: the cell ends well within its
   own time plus the grace, and no child is left. */
static void killed_process_fails_the_cell(void)
{
    rb_config c;
    rb_strategy s;
    struct timespec a, b;
    double took;
    int st;
    if (!seen_map()) SKIP("mmap of a shared counter failed");
    s = test_strategy("killing", killing_op);
    cfg_small(&c, 3, 1);
    c.duration_ns = 2000000000;   /* the kill comes long before the end */
    clock_gettime(CLOCK_MONOTONIC, &a);
    CHECK((rb_run)(&c, &s, &res) == RB_ESYS);
    clock_gettime(CLOCK_MONOTONIC, &b);
    took = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
    CHECKF(res.status == RB_ESYS && strstr(res.reason, "killed by signal 9") != NULL, "%s", res.reason);
    CHECKF(took < 30, "the cell took %.1f s", took);
    CHECK(seen->victim != 0 && kill(seen->victim, 0) != 0);   /* reaped */
    CHECK(waitpid(-1, &st, WNOHANG) == -1 && errno == ECHILD);   /* every child reaped */
    munmap(seen, sizeof *seen);
}

/* The caller's stop flag reaches the children: the cell ends "interrupted", soon. */
static void stop_flag_stops_the_processes(void)
{
    rb_config c;
    volatile int stop = 1;
    int st;
    cfg_small(&c, 2, 1);
    c.duration_ns = 5000000000LL;
    c.stop = &stop;
    CHECK((rb_run)(&c, rb_strategy_find("pread"), &res) == RB_EINTR);
    CHECK(res.status == RB_EINTR);
    CHECK(waitpid(-1, &st, WNOHANG) == -1 && errno == ECHILD);
}

/* What cannot run in processes says why, and bad counts are refused. */
static void what_processes_refuse(void)
{
    rb_config c;
    rb_matrix m;
    unsigned procs[] = {1, 0}, two[] = {2, 2};
    char why[256];
    cfg_small(&c, 2, 1);
    c.cache = RB_CACHE_EVICT_EACH;
    CHECK((rb_run)(&c, rb_strategy_find("pread"), &res) == RB_UNSUPPORTED);
    CHECKF(strstr(res.reason, "evict-each") != NULL, "%s", res.reason);
    cfg_small(&c, RB_MAX_PROCESSES + 1, 1);
    CHECK((rb_run)(&c, rb_strategy_find("pread"), &res) == RB_EINVAL);
    memset(&m, 0, sizeof m);
    cfg_small(&m.cfg, 0, 1);
    m.processes = procs;
    m.nprocesses = 2;
    CHECK(rb_matrix_check(&m, why, sizeof why) == RB_EINVAL);
    m.processes = two;
    CHECK(rb_matrix_check(&m, why, sizeof why) == RB_EINVAL && strstr(why, "twice"));
}

/* The processes axis: each thread count with each process count, in one report. */
static void matrix_has_a_processes_axis(void)
{
    rb_matrix m;
    rb_report rep;
    unsigned threads[] = {1, 2}, procs[] = {1, 2}, i;
    const rb_strategy *s = rb_strategy_find("pread");
    char why[256];
    memset(&m, 0, sizeof m);
    cfg_small(&m.cfg, 0, 1);
    m.cfg.iterations = 1;
    m.cfg.duration_ns = 100000000;
    m.strategies = &s;
    m.nstrategies = 1;
    m.threads = threads;
    m.nthreads = 2;
    m.processes = procs;
    m.nprocesses = 2;
    CHECKF(rb_matrix_check(&m, why, sizeof why) == RB_OK, "%s", why);
    CHECK(rb_run_matrix(&m, &rep) == RB_OK);
    CHECK(rep.count == 4 && rep.nthreads == 4 && rep.processes != NULL);
    for (i = 0; i < rep.count && rep.processes; i++) {
        const rb_result *x = &rep.results[i];
        CHECK(x->threads == threads[i % 2] && x->processes == procs[i / 2] && rep.processes[i] == procs[i / 2]);
        CHECKF(x->status == RB_OK, "%s", x->reason);
        CHECK(x->npte == x->processes);
    }
    rb_report_free(&rep);
}

/* ---- the memory limit ---- */

/* How many cells' cgroups this process made (readbench-cell-PID-N) are in DIR, and in NAME the
   last one found ("" if none). Only its own: other suites' cells, run at the same time, make
   theirs in the same directory (a count of every readbench-cell- there was off by one beside
   them, make test beside two busy loops, 2026-12-02). */
static int rbt_cgroups(const char *dir, char *name, size_t len)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char mine[64];
    int n = 0;
    snprintf(mine, sizeof mine, "readbench-cell-%ld-", (long)getpid());
    if (len) name[0] = 0;
    while (d && (e = readdir(d)) != NULL)
        if (!strncmp(e->d_name, mine, strlen(mine))) {   /* not test_group.c's readbench-group-* */
            snprintf(name, len, "%s", e->d_name);
            n++;
        }
    if (d) closedir(d);
    return n;
}

static int limit_usable(char *why, size_t wl)
{
    rb_memcg_cell base;
    if (RBT_ASAN || RBT_TSAN) { snprintf(why, wl, "a sanitizer's shadow memory does not fit a small memory cgroup"); return 0; }
    return rb_memcg_usable(&base, why, wl) == RB_OK;
}

/* An observer that looks for the cell's cgroup while the cell runs (its cell callback runs in
   the parent once every reader process is in it). */
static char own_dir[1100];
static int cgroups_during;
static int see_cgroup(const rb_observer *o, const rb_config *c, void **state, char *why, size_t wl)
{
    char name[256];
    (void)o; (void)c; (void)state; (void)why; (void)wl;
    cgroups_during = rbt_cgroups(own_dir, name, sizeof name);
    return 0;
}

/* A 64 MiB file read at random under a 32 MiB limit: the cgroup exists during the cell and is
   gone after, the peak charge is under the limit, the cell started evicted, and the file's
   pages resident after it fit the limit (its pages were charged to the cell's cgroup). */
static void memory_limit_cgroup_lives_for_the_cell(void)
{
    char why[512], name[256];
    rb_config c;
    rb_observer o;
    rb_error e;
    const char *p = rbt_path("limited.dat");
    rb_memcg_cell base;
    int before;
    if (!limit_usable(why, sizeof why)) SKIP(why);
    CHECK(rb_memcg_usable(&base, why, sizeof why) == RB_OK);
    snprintf(own_dir, sizeof own_dir, "%s", base.dir);
    if (rb_setup_file(p, 64u << 20, 0, 1, NULL, NULL, &e) != RB_OK) SKIP(e.msg);
    CHECK(rb_load(p, &e) == RB_OK);   /* cached before, charged elsewhere: the cell must evict it */
    before = rbt_cgroups(own_dir, name, sizeof name);
    memset(&o, 0, sizeof o);
    o.cell = see_cgroup;
    cfg_small(&c, 2, 2);
    c.path = p;
    c.memory_limit = 32u << 20;
    c.duration_ns = 400000000;
    c.observer = &o;
    cgroups_during = -1;
    CHECK((rb_run)(&c, rb_strategy_find("mmap-random"), &res) == RB_OK);
    CHECKF(res.status == RB_OK, "%s", res.reason);
    CHECKF(cgroups_during == before + 1, "%d cgroups of readbench's during the cell, %d before", cgroups_during, before);
    CHECKF(rbt_cgroups(own_dir, name, sizeof name) == before, "left behind: %s", name);
    CHECK(res.memory_limit == (32u << 20));
    CHECKF(res.memory_peak > 0 && res.memory_peak <= (int64_t)(32u << 20), "peak %lld", (long long)res.memory_peak);
    CHECKF(res.resident_prepared >= 0 && res.resident_prepared < 64, "prepared %lld pages", (long long)res.resident_prepared);
    CHECKF(res.resident_after >= 0 && res.resident_after * 4096 <= (int64_t)(32u << 20), "after: %lld pages",
           (long long)res.resident_after);
    CHECK(res.majflt > 0);
    /* a cell of threads runs in one child inside its cgroup as well */
    cfg_small(&c, 1, 2);
    c.path = p;
    c.memory_limit = 32u << 20;
    c.prewarm = 0.25;   /* loaded inside the limit: 16 MiB of 32 */
    CHECK((rb_run)(&c, rb_strategy_find("pread"), &res) == RB_OK);
    CHECKF(res.status == RB_OK, "%s", res.reason);
    CHECK(res.processes == 1 && res.npte == 1 && res.memory_peak > 0 && res.memory_peak <= (int64_t)(32u << 20));
    CHECK(res.prewarm_seconds > 0);
    CHECK(rbt_cgroups(own_dir, name, sizeof name) == before);
    unlink(p);
}

/* Not root: one clear refusal, nothing made. In a child that gives up root (setuid 65534). */
static void memory_limit_refused_to_non_root(void)
{
    pid_t pid;
    int st = 0;
    char why[512];
    rb_memcg_cell base;
    if (!rbt_is_root()) {
        CHECK(rb_memcg_usable(&base, why, sizeof why) != RB_OK && why[0]);
        return;
    }
    if (rb_memcg_usable(&base, why, sizeof why) != RB_OK) SKIP(why);
    pid = fork();
    if (pid == 0) {
        rb_matrix m;
        if (setgid(65534) != 0 || setuid(65534) != 0) _exit(3);
        memset(&m, 0, sizeof m);
        m.cfg.path = rbt_small_file();
        m.cfg.memory_limit = 64u << 20;
        rb_processes_attach(&m.cfg);
        why[0] = 0;
        if (rb_matrix_check(&m, why, sizeof why) == RB_OK) _exit(1);
        _exit(strstr(why, "root") && strstr(why, "cannot") ? 0 : 2);
    }
    CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
    CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child said %d", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

/* A tool's rows say themselves whether they run in processes: reader groups run in one process
   (refused with reader processes or a memory limit, by name), the cached-fraction axis runs
   each cell through rb_run and so takes one process count (it was refused with the groups'
   message: the core refused every tool's rows). */
static void tools_rows_and_processes(void)
{
    static const unsigned two[1] = {2};
    static const double fractions[2] = {0, 1};
    rb_groups_matrix gm;
    rb_prewarm_axis ax;
    rb_group g[2];
    rb_matrix m;
    char why[256];
    unsigned k;
    CHECK(rb_parse_group("strategy=pread", 1, "--group", &g[0], why, sizeof why) == RB_OK);
    CHECK(rb_parse_group("strategy=mmap", 2, "--group", &g[1], why, sizeof why) == RB_OK);
    for (k = 0; k < 2; k++) {
        memset(&m, 0, sizeof m);
        cfg_small(&m.cfg, 1, 1);
        if (k) m.cfg.memory_limit = 64u << 20;
        else { m.processes = two; m.nprocesses = 1; }
        rb_groups_attach(&m, &gm, g, 2, RB_ALONE_FIRST);
        CHECK(rb_matrix_check(&m, why, sizeof why) == RB_EINVAL);
        CHECKF(strstr(why, "reader groups run in one process") && strstr(why, k ? "memory limit" : "reader processes"), "%s",
               why);
    }
    memset(&m, 0, sizeof m);
    cfg_small(&m.cfg, 1, 1);
    m.processes = two;
    m.nprocesses = 1;
    rb_prewarm_axis_attach(&m, &ax, fractions, 2);
    CHECKF(rb_matrix_check(&m, why, sizeof why) == RB_OK, "%s", why);
}

/* The CLI: bad values exit 2 with one line, before anything runs; a process run in JSON. */
static void cli_refuses_bad_values(void)
{
    static const char *const bad[] = {"--memory-limit 0", "--memory-limit abc", "--memory-limit 1m", "--memory-limit -1g",
                                      "--processes 0", "--processes 257", "--processes 1,1", "--processes x",
                                      "--processes 2 --group strategy=pread"};
    char args[1024];
    unsigned i;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc;
        snprintf(args, sizeof args, "run '%s' --strategies pread --threads 1 %s", rbt_small_file(), bad[i]);
        rc = rbt_cli_run(rbt_tmpdir(), args, "60", out, sizeof out, err, sizeof err);
        CHECKF(rc == 2, "%s: exit %d: %s", bad[i], rc, err);
        CHECKF(!strncmp(err, "readbench: ", 11) && strchr(err, '\n') == err + strlen(err) - 1, "%s: not one line: %s",
               bad[i], err);
        CHECKF(!strstr(err, "ops/ms"), "%s: it ran: %s", bad[i], err);
    }
}

static void cli_processes_in_json(void)
{
#if defined(RB_NO_LINUX)
    SKIP("page tables (VmPTE) are read from /proc: not in the portable build (RB_NO_LINUX)");
#endif
    char args[1024];
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    if (!rbt_have_python("json")) SKIP("no python3");
    snprintf(args, sizeof args, "run '%s' --strategies mmap-random --threads 1 --processes 1,2 --warmup 0 "
             "--duration 100ms --iterations 1 --format json --quiet > pj.json && python3 -c '"
             "import json; d=json.load(open(\"pj.json\")); r=d[\"results\"]; "
             "assert [x[\"processes\"] for x in r]==[1,2], r; "
             "assert [len(x[\"page_table_bytes_each\"]) for x in r]==[1,2]; "
             "assert all(x[\"page_table_bytes\"]==sum(x[\"page_table_bytes_each\"]) for x in r); "
             "assert d[\"config\"][\"processes\"]==[1,2] and d[\"config\"][\"memory_limit\"] is None'",
             rbt_small_file());
    CHECKF(rbt_cli_run(rbt_tmpdir(), args, "120", out, sizeof out, err, sizeof err) == 0, "%s", err);
}

/* SIGINT in the middle of a cell under a limit: exit 130, and neither the cgroup nor a
   reader process is left. */
static void cli_sigint_removes_the_cgroup(void)
{
    char args[8192], why[512];
    rb_memcg_cell base;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    if (!limit_usable(why, sizeof why)) SKIP(why);
    CHECK(rb_memcg_usable(&base, why, sizeof why) == RB_OK);
    /* The CLI's own cgroups (readbench-cell-PID-N, PID its pid: other suites make theirs beside).
       The command runs under timeout(1), so the CLI is $p's child, $r; its children are the
       reader processes. */
    snprintf(args, sizeof args, "run '%s' --strategies pread --threads 1 --processes 2 --memory-limit 64m "
             "--duration 10s --iterations 1 --quiet >/dev/null 2>sig.err & p=$!; r=x; "
             "for i in $(seq 100); do r=$(pgrep -P $p | head -n 1); r=${r:-x}; "
             "ls '%s' | grep -q \"^readbench-cell-$r-\" && break; sleep 0.1; done; "
             "ls '%s' | grep -c \"^readbench-cell-$r-\"; sleep 0.5; kids=$(pgrep -P $r | tr '\\n' ' '); kill -INT $r; "
             "wait $p; echo rc=$?; sleep 0.2; for k in $kids; do kill -0 $k 2>/dev/null && echo alive=$k; done; "
             "ls '%s' | grep -c \"^readbench-cell-$r-\"",
             rbt_small_file(), base.dir, base.dir, base.dir);
    rbt_cli_run(rbt_tmpdir(), args, "60", out, sizeof out, err, sizeof err);
    CHECKF(strstr(out, "rc=130") != NULL, "%s", out);
    CHECKF(!strstr(out, "alive="), "%s", out);
    {
        int during = -1, after = -1;
        CHECKF(sscanf(out, "%d\nrc=130\n%d", &during, &after) == 2 && during == 1 && after == 0, "%s", out);
    }
}

/* rb_advise attaches the reader processes itself (it is layer 3, as they are): a caller's
   config with a memory limit and no spawner is run inside the limit, not refused. */
static void advise_attaches_the_spawner_itself(void)
{
    static const unsigned th[1] = {1};
    static const int st[1] = {RB_STATE_COLD};   /* a cell under a limit starts evicted */
    const rb_strategy *list[1];
    rb_advise_config ac;
    rb_advise_run *run = (rb_advise_run *)calloc(1, sizeof *run);
    rb_error e;
    char why[512];
    int rc, usable = limit_usable(why, sizeof why);
    if (!run) return;
    if (!usable) {
        free(run);
        SKIP(why);
    }
    list[0] = rb_strategy_find("pread");
    memset(&ac, 0, sizeof ac);
    ac.cfg.path = rbt_small_file();
    ac.cfg.memory_limit = 64u << 20;
    ac.cfg.duration_ns = 50000000;
    ac.cfg.iterations = 1;
    ac.strategies = list;
    ac.nstrategies = 1;
    ac.threads = th;
    ac.nthreads = 1;
    ac.states = st;
    ac.nstates = 1;
    ac.budget_ns = 5000000000LL;
    ac.max_rounds = 1;
    rc = rb_advise(&ac, run, &e);
    CHECKF(rc == RB_OK, "%d: %s", rc, e.msg);
    if (rc == RB_OK) {
        CHECKF(run->cells[0].status == RB_OK && run->cells[0].memory_limit == (64u << 20) && run->cells[0].memory_peak > 0,
               "%s", run->cells[0].reason);
        rb_advise_free(run);
    }
    free(run);
}

void suite_procs(void)
{
    RUN(processes_merge_counts_exactly);
    RUN(threads_report_their_page_tables);
    RUN(killed_process_fails_the_cell);
    RUN(stop_flag_stops_the_processes);
    RUN(what_processes_refuse);
    RUN(matrix_has_a_processes_axis);
    RUN(tools_rows_and_processes);
    RUN(memory_limit_cgroup_lives_for_the_cell);
    RUN(memory_limit_refused_to_non_root);
    RUN(advise_attaches_the_spawner_itself);
    RUN(cli_refuses_bad_values);
    RUN(cli_processes_in_json);
    RUN(cli_sigint_removes_the_cgroup);
}
