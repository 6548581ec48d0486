/* rbtest.h - the test harness: explicit RUN() lists, no constructors, no allocation.
   A test is a void function; CHECK records a failure and keeps going; SKIP ends the test
   with a reason. The runner prints "N passed, N failed, N skipped" last. */
#ifndef RBTEST_H
#define RBTEST_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The sanitizers, for the tests that cannot run under them: RBT_ASAN (AddressSanitizer: its
   shadow and quarantine are no part of a memory plan), RBT_TSAN (ThreadSanitizer). Neither's
   shadow memory fits a small memory cgroup: a reader process there is OOM-killed. */
#if defined(__SANITIZE_ADDRESS__)
#define RBT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RBT_ASAN 1
#endif
#endif
#ifndef RBT_ASAN
#define RBT_ASAN 0
#endif
#if defined(__SANITIZE_THREAD__)
#define RBT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RBT_TSAN 1
#endif
#endif
#ifndef RBT_TSAN
#define RBT_TSAN 0
#endif

typedef struct rbt_state {
    int passed, failed, skipped, checks;
    int cur_failed, cur_skipped, cur_deferred;
    const char *filter;
} rbt_state;
extern rbt_state rbt;

#define CHECK(cond)                                                                   \
    do {                                                                              \
        rbt.checks++;                                                                 \
        if (!(cond)) {                                                                \
            fprintf(stderr, "    FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);       \
            rbt.cur_failed = 1;                                                       \
        }                                                                             \
    } while (0)

#define CHECKF(cond, ...)                                                             \
    do {                                                                              \
        rbt.checks++;                                                                 \
        if (!(cond)) {                                                                \
            fprintf(stderr, "    FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);       \
            fprintf(stderr, __VA_ARGS__);                                             \
            fprintf(stderr, "\n");                                                    \
            rbt.cur_failed = 1;                                                       \
        }                                                                             \
    } while (0)

#define SKIP(why)                                                                     \
    do {                                                                              \
        fprintf(stderr, "    skip: %s\n", why);                                       \
        rbt.cur_skipped = 1;                                                          \
        return;                                                                       \
    } while (0)

#define RUN(fn) rbt_run(#fn, fn)

void rbt_run(const char *name, void (*fn)(void));

/* suites, one per test_*.c; tests/test_main.c lists them */
void suite_parse(void);
void suite_hist(void);
void suite_setup(void);
void suite_runner(void);
void suite_cli(void);
void suite_cache(void);
void suite_prefetch(void);
void suite_probe(void);
void suite_compile(void);
void suite_svg(void);
void suite_safety(void);   /* user files never destroyed: outputs, setup, signals */
void suite_hostile(void);  /* hangs, crashes, resource limits, non-regular files */
void suite_output(void);   /* well-formed, locale-free, complete output */
void suite_counting(void); /* the runner's counting: per-thread windows, residency timing */
void suite_stats(void);    /* rounds, medians, confidence intervals, diff */
void suite_patterns(void); /* access patterns: distributions, offsets, what they did to the cache */
void suite_advise(void);       /* the decision and rb_advise's plan and budget */
void suite_advise_cli(void);   /* advise's writers and readbench advise */
void suite_strategies(void);   /* pread-fadvise, mmap-populate, pread-dontcache, pread-nowait, io_uring-qd */
void suite_replay(void);   /* trace replay: reads of their own lengths, the trace parsers */
void suite_kernel(void);   /* memory cgroups, MGLRU, readbench warmup */
void suite_curve(void);        /* the cached-fraction axis and advise --curve */
void suite_group(void);        /* readers that run together (--group), the victim (--victim) */
void suite_openloop(void);     /* open-loop rates, think time, the touched pages outside the window */
void suite_files(void);   /* many files: a directory as FILE, setup --files */
void suite_procs(void);   /* reader processes (--processes), the memory limit (--memory-limit) */
void suite_axes(void);    /* row axes: read_ahead_kb, fault_around_bytes (rb_knob), the io_uring-qd depth */
void suite_timeline(void);   /* --timeline, --cpu-probe, --until-steady: points, steady state, formats */

/* shared helpers (test_main.c) */
uint64_t rbt_now_ns(void);          /* CLOCK_MONOTONIC, ns */
const char *rbt_tmpdir(void);       /* a fresh directory for this run's files */
const char *rbt_path(const char *name);  /* rbt_tmpdir()/name, in a static ring of buffers */
const char *rbt_small_file(void);   /* an 8 MiB setup file, made once */
int rbt_is_root(void);
int rbt_own_memcg(char *dir, size_t len);   /* this process's cgroup v1 memory directory, if writable */
const char *rbt_cli(void);          /* absolute path of ../readbench; NULL if it is not built */
/* Runs the CLI with ARGS (shell words; redirections and `&` allowed) inside DIR, under
   `timeout TIMEOUT` when not NULL ("120", "-s KILL 10": a hang is exit 124), stdin from /dev/null;
   its stdout (a pipe, drained) into out, its stderr into err, each cut to fit and terminated.
   Returns the exit status; -1: killed by a signal, or the CLI is not built. A run that exits 1
   because a cell measured nothing (rbt_unmeasured; or a cell failed and the report went to a
   file) runs again, 3 runs at most. */
int rbt_cli_run(const char *dir, const char *args, const char *timeout, char *out, size_t outlen, char *err,
                size_t errlen);
int rbt_have_python(const char *imports);  /* python3 -c 'import IMPORTS' works */
/* system(cmd), again while it does not exit 0 (3 runs at most): for a command made of a short
   CLI run and a check of what it wrote, where a cell the machine let measure nothing makes the
   run exit 1 (or an error row) and the check fail with it; a check that is wrong fails thrice.
   Returns system()'s status. */
int rbt_system_ok(const char *cmd);
/* For a test that changes the whole machine (drop_caches evicts every file's pages) or times
   what the others' load would move: in the parallel run's first phase it is put off (1: the
   test returns at once, counted in neither way; a test that cannot be put off fails, said)
   and run after every suite has ended, alone;
   run otherwise (RB_TESTS, or that second phase) it returns 0 and the test goes on. ALONE()
   does both; call it before the test makes anything. */
int rbt_alone(void);
#define ALONE()                                                                       \
    do {                                                                              \
        if (rbt_alone()) return;                                                      \
    } while (0)
#ifdef READBENCH_H
/* 1: the cell measured nothing because the machine did not let it: no op completed inside any
   measured iteration, its threads having got no CPU in time (busy loops; this VM stalls the
   whole guest for 10-30 ms while other suites churn the page cache) or its one op having
   outlasted the iteration (a disk the other suites share). Not the code under test: a test
   whose subject is something else runs such a cell again (rbt_run_cell). */
int rbt_unmeasured(const rb_result *x);
/* rb_run, run again while rbt_unmeasured (3 runs at most). A cell prepares its own cache state
   (rb_config.cache, prewarm), so a second run starts where the first did, and no test wants a
   cell that measured nothing: every test's rb_run is this one (the macro below; the call
   sites stay as they are, and (rb_run)(...) is the library's own). */
int rbt_run_cell(const rb_config *c, const rb_strategy *s, rb_result *res);
#define rb_run(c, s, res) rbt_run_cell(c, s, res)
#endif

/* The calling thread at SCHED_FIFO's lowest priority (on), or back to SCHED_OTHER (off); the
   threads and processes it then starts inherit it. For a test whose subject is what the runner
   computes from timed sleeps (tick strategies, a schedule of ops): a runnable real-time thread
   takes a CPU from busy loops at once, so another program's load cannot stretch its sleeps.
   Returns 0 where it is refused (not root): the test then runs as it is. Not for an op that
   spins: it would hold a CPU against the rest of the machine (the kernel keeps 5% back). */
int rbt_realtime(int on);
/* The calling thread at nice -10 (on), or back to 0; the threads it starts inherit it. For a
   test whose op spins (a busy think time): among the other suites' spinning threads it got a
   tenth of a CPU; -10 weighs 9 times an ordinary thread, and still lets them run. 0: refused. */
int rbt_boost(int on);
#endif
