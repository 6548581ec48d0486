/* suite hostile: what a hostile (or unlucky) user can hand readbench: files that are not
   files, files that change under a run, absurd sizes, signals. Nothing may hang, crash or
   eat the machine's memory; every such case ends with a clear status. */
#define _GNU_SOURCE
#include "readbench.h"
#include "rbtest.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

static char hout[1 << 16], herr[8192];

/* RBT_ASAN (rbtest.h): ASan (make check) reserves terabytes of address space, so `ulimit -v`
   kills it at start, and its shadow adds 1/8 to every byte the hog touches, which no sizing
   rule can know about. */

/* The CLI inside DIR under `timeout -s KILL 10`: a hang fails the test as exit 124 instead of
   hanging the suite (rbt_cli_run). */
static int hcli(const char *dir, const char *args)
{
    return rbt_cli_run(dir, args, "-s KILL 10", hout, sizeof hout, herr, sizeof herr);
}

static int dir_count(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    if (!d) return -1;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

/* Item 6: a FIFO blocks open() forever, a device reads forever, a directory has no pages.
   Every command that opens the user's file refuses them by type, quickly, with exit 2. */
static void non_regular_files_exit_2_without_hanging(void)
{
    const char *dir = rbt_path("nonreg");
    const char *cmds[] = {"run", "list", "residency", "drop", "prefetch", "probe"};
    const char *kinds[3][2] = {{"fifo", "a FIFO"}, {"dir", "a directory"}, {"zero", "a character device"}};
    char path[600], args[1024];
    unsigned c, k, nk = 2;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    CHECK(mkdir(dir, 0755) == 0);
    snprintf(path, sizeof path, "%s/fifo", dir);
    CHECK(mkfifo(path, 0644) == 0);
    snprintf(path, sizeof path, "%s/dir", dir);
    CHECK(mkdir(path, 0755) == 0);
    snprintf(path, sizeof path, "%s/zero", dir);
    if (rbt_is_root() && mknod(path, S_IFCHR | 0644, makedev(1, 5)) == 0) nk = 3;   /* /dev/zero's numbers */
    else fprintf(stderr, "    (not root: the character-device case is skipped)\n");
    for (k = 0; k < nk; k++)
        for (c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
            int rc;
            snprintf(args, sizeof args, "%s '%s/%s'", cmds[c], dir, kinds[k][0]);
            rc = hcli(dir, args);
            CHECKF(rc == 2, "%s on %s exited %d (124/-1: it hung): %s", cmds[c], kinds[k][1], rc, herr);
            CHECKF(strstr(herr, "not a regular file") && strstr(herr, kinds[k][1]), "%s on %s: %s", cmds[c],
                   kinds[k][1], herr);
        }
    /* the default job, with ./readbench.dat a link to a FIFO or a device */
    snprintf(path, sizeof path, "%s/readbench.dat", dir);
    CHECK(symlink(nk == 3 ? "zero" : "fifo", path) == 0);
    CHECKF(hcli(dir, "") == 2, "the default job on a link to %s: %s", nk == 3 ? "a device" : "a FIFO", herr);
    CHECKF(strstr(herr, "not a regular file") != NULL, "%s", herr);
}

/* The library refuses them too, each function that opens the file, with RB_ENOTREG; a FIFO
   with no writer would block any of them forever, so they run in a child under alarm(). */
static void library_refuses_non_regular_files(void)
{
    const char *fifo = rbt_path("lib-fifo");
    pid_t pid;
    int st;
    CHECK(mkfifo(fifo, 0644) == 0);
    pid = fork();
    if (pid == 0) {
        rb_error e;
        rb_file_info fi;
        rb_residency_info ri;
        rb_probe_result pr;
        rb_pfx_result px;
        rb_pfx_config pc;
        rb_config c;
        rb_result r;
        char why[256];
        int bad = 0;
        alarm(20);
        bad |= (rb_check_file(fifo, 0, &fi, &e) != RB_ENOTREG) << 0;
        bad |= (rb_residency(fifo, &ri, &e) != RB_ENOTREG) << 1;
        bad |= (rb_evict(fifo, &e) != RB_ENOTREG) << 2;
        bad |= (rb_load(fifo, &e) != RB_ENOTREG) << 3;
        bad |= (rb_prewarm(fifo, 0.5, 1, &e) != RB_ENOTREG) << 4;
        bad |= (rb_probe(fifo, 12, &pr) != RB_ENOTREG) << 5;
        memset(&pc, 0, sizeof pc);
        pc.path = fifo;
        pc.ops = 10;
        bad |= (rb_pfx_run(&pc, RB_PREFETCH_ALWAYS, 1, &px) != RB_ENOTREG) << 6;
        memset(&c, 0, sizeof c);
        c.path = fifo;
        c.warmup_ns = RB_NONE;
        c.duration_ns = 1000000;
        c.iterations = 1;
        bad |= (rb_strategy_probe(rb_strategy_find("pread"), &c, why, sizeof why) != RB_ENOTREG) << 7;
        bad |= (rb_run(&c, rb_strategy_find("mmap"), &r) != RB_ENOTREG) << 8;
        bad |= (rb_run(&c, rb_strategy_find("read"), &r) != RB_ENOTREG) << 9;
        bad |= (rb_check_file("/proc/self/maps", 0, &fi, &e) != RB_ENOTREG) << 10;
        _exit(bad);
    }
    CHECK(pid > 0);
    CHECK(waitpid(pid, &st, 0) == pid);
    CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s %d (bits: which call did not say RB_ENOTREG)",
           WIFEXITED(st) ? "exit" : "killed by signal (a hang: SIGALRM)",
           WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
}

/* Item 7: a cell's buffers are computed and refused before anything is allocated. */
static void absurd_cells_are_refused_before_allocating(void)
{
    rb_config c;
    rb_result r;
    char why[256];
    const char *sparse = rbt_path("sparse-2g.dat");
    int fd, rc;
    uint64_t room = (uint64_t)rb_mem_available();
    if (rb_mem_available() < 0) SKIP("the available memory is unknown here");
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.threads = 1024;
    c.read_size = (uint64_t)1 << 30;
    CHECK(rb_cell_memory(&c, rb_strategy_find("pread")) >= ((uint64_t)1024 << 30));
    CHECK(rb_cell_fits(&c, rb_strategy_find("pread"), why, sizeof why) == RB_ENOMEM && strstr(why, "need"));
    /* refused by rb_run itself, with the reason, before the file's size is even looked at */
    CHECK(rb_run(&c, rb_strategy_find("pread"), &r) == RB_ENOMEM);
    CHECKF(strstr(r.reason, "buffers need") != NULL, "%s", r.reason);
    /* batch strategies need a slot per read of the op: io_uring at 4096 reads of 16 MiB */
    c.threads = 1;
    c.read_size = (uint64_t)16 << 20;
    c.reads_per_op = 4096;
    CHECK(rb_cell_memory(&c, rb_strategy_find("io_uring")) >= ((uint64_t)64 << 30));
    CHECK(rb_cell_memory(&c, rb_strategy_find("pread")) < ((uint64_t)17 << 20));
    /* a small cell fits */
    c.reads_per_op = 16;
    CHECK(rb_cell_fits(&c, rb_strategy_find("pread"), why, sizeof why) == RB_OK);
    /* the CLI: exit 2 before anything runs */
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    if (RBT_ASAN) SKIP("built with ASan: `ulimit -v`, which guards this case, would kill the CLI at start");
    fd = open(sparse, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    CHECK(fd >= 0 && ftruncate(fd, (off_t)2 << 30) == 0);
    if (fd >= 0) close(fd);
    {   /* under ulimit -v: should it allocate after all, it fails, not the machine */
        char cmd[2048];
        int st;
        snprintf(cmd, sizeof cmd, "cd '%s' && ulimit -v 2097152 && timeout -s KILL 20 '%s' run '%s' --threads %llu "
                 "--read-size 1g --strategies pread >/dev/null 2>/dev/null", rbt_tmpdir(), rbt_cli(), sparse,
                 (unsigned long long)(room >> 30) + 2);
        st = system(cmd);
        rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    }
    CHECKF(rc == 2, "--threads N --read-size 1g beyond the memory exited %d", rc);
    unlink(sparse);
}

/* rb_hog_plan: ratios finite and positive; never past the room less the margin. */
static void hog_plan_is_capped_and_strict(void)
{
    uint64_t size;
    char why[256];
    int64_t room = rb_mem_available();
    const char *bad[] = {"auto:inf", "auto:nan", "auto:0", "auto:-1", "auto:1e999", "auto:", "auto:1x", "12q", "0"};
    unsigned i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECKF(rb_hog_plan(bad[i], 1 << 20, 0, &size, why, sizeof why) == RB_EINVAL && size == 0, "%s", bad[i]);
    if (room < 0) SKIP("the available memory is unknown here");
    /* pinning many times the file (the whole machine for a small file) is refused: a memory
       cgroup makes that pressure without taking everyone's memory */
    if (room > ((int64_t)2 << 30))
        CHECKF(rb_hog_plan("auto:1.2", (uint64_t)32 << 20, 0, &size, why, sizeof why) == RB_EINVAL && size == 0 &&
               strstr(why, "memory cgroup"), "%s", why);
    /* leaving 300 MiB asks for nearly all the room: it gets the room less the margin (and what
       the run allocates), and says it was capped */
    /* MemAvailable moves while the plan reads it (the other suites fill and drop the cache): the
       room is the largest of readings before and after, and a plan that still passes it (read
       at a moment between them) is asked again, up to 3 times */
    for (i = 0; i < 3; i++) {
        room = rb_mem_available();
        CHECK(rb_hog_plan("auto:1", (uint64_t)300 << 20, 0, &size, why, sizeof why) == RB_OK);
        if (rb_mem_available() > room) room = rb_mem_available();   /* it moves: another process freed some */
        if (size <= (uint64_t)room - rb_mem_margin((uint64_t)room)) break;
    }
    CHECKF(size <= (uint64_t)room - rb_mem_margin((uint64_t)room) && size > 0, "%llu of %lld", (unsigned long long)size,
           (long long)room);
    CHECKF(strstr(why, "capped") != NULL, "%s", why);
    /* what the run will allocate is left too */
    CHECK(rb_hog_plan("auto:1", (uint64_t)300 << 20, (uint64_t)256 << 20, &size, why, sizeof why) == RB_OK);
    if (rb_mem_available() > room) room = rb_mem_available();
    CHECK(size <= (uint64_t)room - rb_mem_margin((uint64_t)room) - ((uint64_t)256 << 20));
    /* a file already larger than the room: nothing to pin */
    CHECK(rb_hog_plan("auto:1", (uint64_t)room * 2, 0, &size, why, sizeof why) == RB_OK && size == 0);
    /* a fixed size past the cap is refused */
    CHECK(rb_hog_plan("1000t", 0, 0, &size, why, sizeof why) == RB_ENOMEM && size == 0);
    CHECK(rb_hog_plan("1m", 0, 0, &size, why, sizeof why) == RB_OK && size == (1u << 20));
}

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    int ok = f && fputs(text, f) >= 0;
    if (f && fclose(f) != 0) ok = 0;
    return ok;
}

/* Runs `sh -c LINE` in a child moved into the memory cgroup CG; returns its exit status,
   -1 if killed (the cgroup's OOM killer: only the child's cgroup, never the machine). */
static int run_in_cgroup(const char *cg, const char *line)
{
    char procs[1300];
    pid_t pid;
    int st;
    snprintf(procs, sizeof procs, "%s/cgroup.procs", cg);
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        if (!write_file(procs, "0\n")) _exit(126);   /* "0": the writer itself */
        execl("/bin/sh", "sh", "-c", line, (char *)NULL);
        _exit(127);
    }
    if (pid < 0 || waitpid(pid, &st, 0) != pid) return -2;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Item 7 in a 512 MiB memory cgroup: the host's MemAvailable (23 GiB here) is not what this
   process may take. 16 x 64 MiB buffers are refused (exit 2) instead of OOM-killed, and
   --hog auto:1.2 pins less than the limit and the run completes. */
static void memory_cgroup_limits_are_respected(void)
{
    char own[1024], cg[1200], line[4096 + 1200], num[64];
    const char *file = rbt_path("cg-64m.dat"), *err = rbt_path("cg-err.txt");
    rb_error e;
    FILE *f;
    double pinned = -1;
    int rc;
#if defined(RB_NO_LINUX)
    SKIP("the portable build reads no /proc or cgroup figures: available memory is unknown to it");
#endif
    if (!rbt_is_root()) SKIP("needs root to make a memory cgroup");
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    if (!rbt_own_memcg(own, sizeof own)) SKIP("no writable cgroup v1 memory controller (/sys/fs/cgroup/memory)");
    snprintf(cg, sizeof cg, "%s/readbench-hostile-%d", own, (int)getpid());
    if (mkdir(cg, 0755) != 0) SKIP("cannot create a child memory cgroup here");
    snprintf(line, sizeof line, "%s/memory.limit_in_bytes", cg);
    CHECK(write_file(line, "536870912\n"));
    CHECK(rb_setup_file(file, (uint64_t)64 << 20, 0, 1, NULL, NULL, &e) == RB_OK);
    snprintf(line, sizeof line, "timeout -s KILL 60 '%s' run '%s' --threads 16 --read-size 64m --strategies pread "
             "--warmup 0 --duration 10ms --iterations 1 >/dev/null 2>'%s'", rbt_cli(), file, err);
    rc = run_in_cgroup(cg, line);
    CHECKF(rc == 2, "16 x 64 MiB in a 512 MiB cgroup exited %d (-1: killed)", rc);
    if (RBT_ASAN) {
        unlink(file);
        if (rmdir(cg) != 0) fprintf(stderr, "    could not remove %s: %s\n", cg, strerror(errno));
        SKIP("built with ASan: its shadow adds 1/8 to every byte the hog touches");
    }
    snprintf(line, sizeof line, "timeout -s KILL 60 '%s' run '%s' --hog auto:1.2 --strategies pread --threads 1 "
             "--warmup 0 --duration 100ms --iterations 1 --quiet >/dev/null 2>'%s'", rbt_cli(), file, err);
    {   /* a 100 ms cell (was 10 ms), and again on exit 1 (3 runs at most): under load the cell
           measured nothing now and then, and the run exited 1 */
        unsigned tries;
        for (tries = 0; tries < 3 && (rc = run_in_cgroup(cg, line)) == 1; tries++)
            fprintf(stderr, "    --hog auto:1.2 exited 1: again\n");
    }
    CHECKF(rc == 0, "--hog auto:1.2 in a 512 MiB cgroup exited %d (-1: killed)", rc);
    f = fopen(err, "r");
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "readbench: pinned %63s", num) == 1) pinned = atof(num);
    if (f) fclose(f);
    CHECKF(pinned > 0 && pinned < 0.5, "pinned %.3f GiB in a 512 MiB cgroup", pinned);
    unlink(file);
    if (rmdir(cg) != 0) fprintf(stderr, "    could not remove %s: %s\n", cg, strerror(errno));
}

/* A CSV trace of n reads of one byte, lines of 4 bytes. */
static int write_trace(const char *path, unsigned n)
{
    FILE *f = fopen(path, "w");
    unsigned i;
    int ok = f != NULL;
    for (i = 0; ok && i < n; i++) ok = fprintf(f, "%u,1\n", i % 10) == 4;
    if (f && fclose(f) != 0) ok = 0;
    return ok;
}

/* Issue 21, item 6 (OOM): a trace was read whole, then a record per read, then a copy per
   stream: 10^7 reads peaked at 851 MB and a 512 MiB cgroup OOM-killed the replay. Now the
   records (32 bytes a read, the only copy) must fit in what the process may take, a memory
   cgroup's limit included: in an 80 MiB cgroup (about 10 MiB left past the margin), 1.5 10^6
   reads are refused after the first MiB from what it held, 480,000 when the records pass the
   room, both exit 2 with the reason (it was an OOM kill); 50,000 replay. */
static void a_trace_too_large_for_the_memory_is_refused(void)
{
    char own[1024], cg[1200], line[4096 + 1200];
    const char *big = rbt_path("oom-big.csv"), *mid = rbt_path("oom-mid.csv"), *small = rbt_path("oom-small.csv");
    const char *err = rbt_path("oom-err.txt"), *f = rbt_small_file();
    static const char *const which[3] = {"big", "mid", "small"};
    const char *traces[3];
    unsigned k;
    int rc;
#if defined(RB_NO_LINUX)
    SKIP("the portable build reads no cgroup figures: available memory is unknown to it");
#endif
    if (!rbt_is_root()) SKIP("needs root to make a memory cgroup");
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    if (!rbt_own_memcg(own, sizeof own)) SKIP("no writable cgroup v1 memory controller (/sys/fs/cgroup/memory)");
    traces[0] = big;
    traces[1] = mid;
    traces[2] = small;
    CHECK(write_trace(big, 1500000) && write_trace(mid, 480000) && write_trace(small, 50000));
    snprintf(cg, sizeof cg, "%s/readbench-trace-%d", own, (int)getpid());
    if (mkdir(cg, 0755) != 0) SKIP("cannot create a child memory cgroup here");
    snprintf(line, sizeof line, "%s/memory.limit_in_bytes", cg);
    CHECK(write_file(line, "83886080\n"));
    for (k = 0; k < (RBT_ASAN ? 1u : 3u); k++) {   /* ASan's shadow and quarantine are no part of the plan */
        FILE *ef;
        char msg[1024] = "";
        size_t n;
        snprintf(line, sizeof line, "timeout -s KILL 120 '%s' replay '%s' '%s' --strategies null --threads 1 --warmup 0 "
                 "--duration 10ms --iterations 1 --quiet >/dev/null 2>'%s'", rbt_cli(), traces[k], f, err);
        rc = run_in_cgroup(cg, line);
        ef = fopen(err, "r");
        n = ef ? fread(msg, 1, sizeof msg - 1, ef) : 0;
        msg[n] = 0;
        if (ef) fclose(ef);
        if (k == 2) {
            CHECKF(rc == 0 || rc == 1, "the %s trace in an 80 MiB cgroup exited %d (-1: killed): %s", which[k], rc, msg);
            continue;
        }
        /* which check stops it depends on the room: from the first MiB ("in its first 1 MiB") when
           that shows twice too many reads, else as the records pass the room ("reads by line") */
        CHECKF(rc == 2 && strstr(msg, "too large to load") && (strstr(msg, "reads by line") || strstr(msg, "in its first 1 MiB"))
               && strstr(msg, "cgroup limit included"), "the %s trace in an 80 MiB cgroup exited %d (-1: killed): %s",
               which[k], rc, msg);
    }
    if (rmdir(cg) != 0) fprintf(stderr, "    could not remove %s: %s\n", cg, strerror(errno));
    unlink(big);
    unlink(mid);
    unlink(small);
}

/* Item 5: truncates the file as soon as the experiment has read some of it (its pages show
   up in the page cache), so the truncation lands while the experiment runs, however fast. */
static void *truncate_when_read(void *arg)
{
    const char *path = (const char *)arg;
    int i;
    for (i = 0; i < 30000; i++) {
        rb_residency_info ri;
        if (rb_residency(path, &ri, NULL) == RB_OK && ri.resident > 0) {
            if (truncate(path, 0) != 0) perror("truncate");
            return NULL;
        }
        usleep(1000);
    }
    return NULL;
}

/* Runs the prefetch experiment (which = 0) or probe case 9 (1) on path while another thread
   truncates it, in a child (a SIGBUS not caught kills the child, not the suite). The child's
   exit: 0 RB_ECHANGED with "file changed", 1 another status, 2 no such reason. */
static int truncated_under(const char *path, int which)
{
    pid_t pid;
    int st;
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        pthread_t t;
        int status;
        const char *reason;
        rb_pfx_result px;
        rb_probe_result pr;
        alarm(120);
        if (pthread_create(&t, NULL, truncate_when_read, (void *)path) != 0) _exit(3);
        if (which == 0) {
            rb_pfx_config pc;
            memset(&pc, 0, sizeof pc);
            pc.path = path;
            pc.threads = 2;
            pc.ops = 100000000;   /* minutes of cached reads, unless the truncation ends it */
            /* "fits" (the slice read in, then cached reads): a "not cached" case caps its ops
               to stay cold (273 per thread on 64 MiB), and once finished in the 1 ms between two
               of the truncating thread's looks (CI's portable suite: status 0, not "changed") */
            status = rb_pfx_run(&pc, RB_PREFETCH_ALWAYS, 1, &px);
            reason = px.reason;
        } else {
            status = rb_probe(path, 9, &pr);
            reason = pr.reason;
        }
        pthread_join(t, NULL);
        if (status != RB_ECHANGED) { fprintf(stderr, "    status %d: %s\n", status, reason); _exit(1); }
        _exit(strstr(reason, "file changed") ? 0 : 2);
    }
    if (pid < 0 || waitpid(pid, &st, 0) != pid) return -2;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
}

static void truncation_during_prefetch_and_probe_is_file_changed(void)
{
    const char *f = rbt_path("trunc.dat");
    rb_error e;
    int rc, fd;
    CHECK(rb_setup_file(f, (uint64_t)64 << 20, 0, 1, NULL, NULL, &e) == RB_OK);
    CHECK(rb_evict(f, &e) == RB_OK);   /* the truncating thread waits for the experiment's own reads */
    rc = truncated_under(f, 0);
    CHECKF(rc == 0, "prefetch experiment on a file truncated under it: %d (1: another status, 2: another reason, -7: killed by SIGBUS)", rc);
    /* the probe's cases 9-11 need 2 GiB: a sparse one (holes read as zero pages, no disk) */
    unlink(f);
    fd = open(f, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    CHECK(fd >= 0 && ftruncate(fd, (off_t)2 << 30) == 0);
    if (fd >= 0) close(fd);
    rc = truncated_under(f, 1);
    CHECKF(rc == 0, "probe case 9 on a file truncated under it: %d (-7: killed by SIGBUS)", rc);
    unlink(f);
}

/* Item 9: `list` probes with a file of its own. It made it in the current directory: a
   read-only one failed the command, and a signal left .readbench-probe-* files there. */
static void list_probes_in_tmpdir_and_cleans_up(void)
{
    const char *ro = rbt_path("ro-cwd"), *cwd = rbt_path("list-cwd"), *td = rbt_path("list-tmp");
    char cmd[4096], line[64];
    int rc, immutable = 0, interrupted = 0;
    FILE *f;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    CHECK(mkdir(ro, 0555) == 0);
    /* root writes into a 0555 directory all the same: make it immutable (ext4, xfs) instead */
    if (rbt_is_root()) {
        snprintf(cmd, sizeof cmd, "chattr +i '%s' 2>/dev/null", ro);
        immutable = system(cmd) == 0;
    }
    if (!rbt_is_root() || immutable) {
        rc = hcli(ro, "list");
        CHECKF(rc == 0 && strstr(hout, "pread"), "list in a read-only directory exited %d: %s", rc, herr);
    } else {
        fprintf(stderr, "    (chattr +i refused here: the read-only directory case is skipped)\n");
    }
    if (immutable) {
        snprintf(cmd, sizeof cmd, "chattr -i '%s'", ro);
        CHECK(system(cmd) == 0);
    }
    /* 40 runs, each signalled 0-9 ms after it starts, while it probes */
    CHECK(mkdir(cwd, 0755) == 0 && mkdir(td, 0755) == 0);
    snprintf(cmd, sizeof cmd, "cd '%s' && for i in $(seq 40); do TMPDIR='%s' '%s' list >/dev/null 2>&1 & p=$!; "
             "sleep 0.00$((i %% 10)); kill -$([ $((i %% 2)) = 0 ] && echo INT || echo TERM) $p 2>/dev/null; "
             "wait $p; echo $?; done > '%s/codes.txt'", cwd, td, rbt_cli(), rbt_tmpdir());
    CHECK(system(cmd) == 0);
    snprintf(cmd, sizeof cmd, "%s/codes.txt", rbt_tmpdir());
    f = fopen(cmd, "r");
    while (f && fgets(line, sizeof line, f)) {
        rc = atoi(line);
        CHECKF(rc == 0 || rc == 130 || rc == 143, "an interrupted list exited %d", rc);
        interrupted += rc != 0;
    }
    if (f) fclose(f);
    fprintf(stderr, "    %d of 40 runs were interrupted\n", interrupted);
    CHECKF(dir_count(cwd) == 0, "%d files left in the current directory", dir_count(cwd));
    CHECKF(dir_count(td) == 0, "%d files left in TMPDIR", dir_count(td));
}

/* Item 18: inputs that were accepted and made a run that measures nothing. */
static void pointless_inputs_exit_2(void)
{
    const char *f = rbt_small_file();   /* 8 MiB */
    char args[1024];
    rb_config c;
    rb_result r;
    const char *pol[] = {"always,,backoff", ",always", "always,", "always,backoff,adaptive,backoff-nomincore,always",
                         "always,always"};
    unsigned i;
    int rc;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    /* --align at or past the readable size: every read at offset 0 */
    snprintf(args, sizeof args, "run '%s' --align 8m --strategies pread --threads 1", f);
    CHECKF(hcli(rbt_tmpdir(), args) == 2 && strstr(herr, "alignment"), "%s", herr);
    snprintf(args, sizeof args, "run '%s' --align 4m --size 4m --strategies pread --threads 1", f);
    CHECKF(hcli(rbt_tmpdir(), args) == 2 && strstr(herr, "alignment"), "%s", herr);
    memset(&c, 0, sizeof c);
    c.path = f;
    c.align = (uint64_t)8 << 20;
    c.warmup_ns = RB_NONE;
    c.duration_ns = 200000000;   /* room for a cold op: 1 ms held none on a cold file */
    c.iterations = 1;
    CHECK(rb_run(&c, rb_strategy_find("pread"), &r) == RB_EINVAL && strstr(r.reason, "alignment"));
    c.align = (uint64_t)1 << 20;   /* 8 offsets: fine */
    CHECKF(rb_run(&c, rb_strategy_find("pread"), &r) == RB_OK, "%s", r.reason);
    /* probe on a file too small for it, list of a missing file */
    snprintf(args, sizeof args, "probe '%s'", f);
    CHECKF((rc = hcli(rbt_tmpdir(), args)) == 2 && strstr(herr, "64 MiB"), "probe of 8 MiB exited %d: %s", rc, herr);
    CHECKF((rc = hcli(rbt_tmpdir(), "list missing.dat")) == 2, "list missing.dat exited %d", rc);
    /* prefetch --policies: empty items, more than there are, duplicates */
    for (i = 0; i < sizeof pol / sizeof pol[0]; i++) {
        snprintf(args, sizeof args, "prefetch '%s' --policies '%s'", f, pol[i]);
        CHECKF((rc = hcli(rbt_tmpdir(), args)) == 2, "--policies '%s' exited %d", pol[i], rc);
    }
}

/* Item 20: the messages say what is true. */
static void messages_say_what_is_true(void)
{
    const char *f = rbt_small_file(), *mine = rbt_path("users-notes.txt"), *shm;
    char args[1024], shmf[256];
    struct statfs sf;
    FILE *w;
    int i, rc;
    rb_error e;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    /* a pseudo file: not a regular file, and never "setup /proc/self/maps --force" */
    rc = hcli(rbt_tmpdir(), "run /proc/self/maps");
    CHECKF(rc == 2 && strstr(herr, "not a regular file") && !strstr(herr, "setup"), "%d: %s", rc, herr);
    /* too small: --force only over a file readbench made; the user's own gets a new path */
    w = fopen(mine, "w");
    for (i = 0; w && i < 10000; i++) fprintf(w, "line %d of the user's notes\n", i);
    if (w) fclose(w);
    snprintf(args, sizeof args, "run '%s' --size 1g", mine);
    rc = hcli(rbt_tmpdir(), args);
    snprintf(args, sizeof args, "setup %s", mine);
    CHECKF(rc == 2 && !strstr(herr, "--force") && !strstr(herr, args), "%d: %s", rc, herr);
    snprintf(args, sizeof args, "run '%s' --size 1g", f);
    rc = hcli(rbt_tmpdir(), args);
    CHECKF(rc == 2 && strstr(herr, "--force") && strstr(herr, f), "%d: %s", rc, herr);
    /* tmpfs: nothing can be evicted, and there is no block device to have a read_ahead_kb */
    shm = "/dev/shm";
    if (statfs(shm, &sf) != 0 || (unsigned long)sf.f_type != 0x01021994UL) SKIP("no tmpfs at /dev/shm");
    snprintf(shmf, sizeof shmf, "%s/readbench-hostile-%d.dat", shm, (int)getpid());
    CHECK(rb_setup_file(shmf, (uint64_t)1 << 20, 0, 1, NULL, NULL, &e) == RB_OK);
    snprintf(args, sizeof args, "drop '%s'", shmf);
    rc = hcli(rbt_tmpdir(), args);
    CHECKF(rc == 0 && strstr(hout, "tmpfs/ramfs") && !strstr(hout, "process maps"), "%d: %s", rc, hout);
    snprintf(args, sizeof args, "run '%s' --strategies null --threads 1 --warmup 0 --duration 10ms --iterations 1", shmf);
    rc = hcli(rbt_tmpdir(), args);
    CHECKF(rc == 0 && strstr(herr, "read_ahead_kb n/a (no block device)") && !strstr(herr, "read_ahead_kb -1"), "%d: %s",
           rc, herr);
    unlink(shmf);
}

/* Issue 21, item 6: the file changed *between* cells. Each cell took the file's identity at
   its own start, so after a replacement or truncation the later cells measured the new file,
   "ok", beside the first cell's figures of the old one (and env.file_size of the old); in
   advise, a verdict was made of them, exit 0. Now the identity taken when the run began is
   every cell's reference: the cells after a change fail with the reason, and advise stops
   with no verdict. The change is made from the progress callback, when the first cell is done. */
typedef struct changer {
    const char *path;
    int how;          /* 0: truncate to half, 1: replace by a rename, 2: add a file (a directory) */
    unsigned done;    /* DONE events seen */
} changer;

static void change_after_first(const rb_matrix_event *ev, void *user)
{
    changer *ch = (changer *)user;
    char tmp[700];
    rb_error e;
    if (ev->kind != RB_EVENT_DONE || ch->done++ != 0) return;
    if (ch->how == 0 && truncate(ch->path, (off_t)4 << 20) != 0) perror("truncate");
    if (ch->how == 1) {
        snprintf(tmp, sizeof tmp, "%s.new", ch->path);
        if (rb_setup_file(tmp, (uint64_t)8 << 20, 7, RB_OUT_REPLACE, NULL, NULL, &e) != RB_OK || rename(tmp, ch->path) != 0)
            perror("replace");
    }
    if (ch->how == 2) {
        snprintf(tmp, sizeof tmp, "%s/part-0009", ch->path);
        if (rb_setup_file(tmp, (uint64_t)1 << 20, 0, RB_OUT_REPLACE, NULL, NULL, &e) != RB_OK) perror("add");
    }
    if (ch->how == 3) {   /* a write in place: the same file, the same size, other data */
        int fd = open(ch->path, O_WRONLY);
        if (fd < 0 || pwrite(fd, "x", 1, 4096) != 1 || close(fd) != 0) perror("write in place");
    }
}

static void a_file_changed_between_cells_fails_the_rest(void)
{
    const rb_strategy *s[3] = {rb_strategy_find("pread"), rb_strategy_find("read"), rb_strategy_find("null")};
    const char *f = rbt_path("between.dat"), *d = rbt_path("between-dir"), *t = rbt_path("between.csv");
    static const char *const what[] = {"its size went from 8388608 to 4194304 bytes", "is another file now",
                                       "part-0009 is a new file in it", "was written to"};
    unsigned th[1] = {1}, how, i;
    rb_matrix m;
    rb_report rep;
    rb_trace trace;
    rb_trace_options o;
    rb_advise_config ac;
    rb_advise_run ar;
    rb_error e;
    changer ch;
    FILE *w;
    for (how = 0; how < 4; how++) {
        const char *path = how == 2 ? d : f;
        if (how != 2) CHECK(rb_setup_file(f, (uint64_t)8 << 20, 0, RB_OUT_REPLACE, NULL, NULL, &e) == RB_OK);
        else CHECK(rb_setup_files(d, (uint64_t)8 << 20, 4, 0, RB_OUT_REPLACE, NULL, NULL, NULL, &e) == RB_OK);
        memset(&m, 0, sizeof m);
        memset(&ch, 0, sizeof ch);
        ch.path = path;
        ch.how = (int)how;
        m.cfg.path = path;
        m.cfg.prewarm = 1;          /* cached: an op within the iteration, whatever the disk */
        m.cfg.reads_per_op = 1;
        m.cfg.warmup_ns = RB_NONE;
        m.cfg.duration_ns = 100000000;   /* 20 ms: under load the first cell sometimes measured nothing */
        m.cfg.iterations = 1;
        m.strategies = s;
        m.nstrategies = 3;
        m.threads = th;
        m.nthreads = 1;
        m.progress = change_after_first;
        m.user = &ch;
        CHECK(rb_run_matrix(&m, &rep) == RB_OK && rep.count == 3);
        CHECKF(rep.count == 3 && rep.results[0].status == RB_OK, "%s", rep.count ? rep.results[0].reason : "");
        for (i = 1; i < rep.count; i++)
            CHECKF(rep.results[i].status == RB_ECHANGED && strstr(rep.results[i].reason, "file changed since the run started") &&
                   strstr(rep.results[i].reason, what[how]), "change %u, cell %u: %s", how, i, rep.results[i].reason);
        rb_report_free(&rep);
    }
    /* a replay: the same (its trace was loaded for the file as it was) */
    CHECK(rb_setup_file(f, (uint64_t)8 << 20, 0, RB_OUT_REPLACE, NULL, NULL, &e) == RB_OK);
    w = fopen(t, "w");
    CHECK(w && fputs("0,4096\n65536,4096\n4096,8192\n", w) >= 0 && fclose(w) == 0);
    memset(&o, 0, sizeof o);
    o.file = f;
    CHECK(rb_trace_load(&trace, t, &o) == RB_OK);
    memset(&m, 0, sizeof m);
    memset(&ch, 0, sizeof ch);
    ch.path = f;
    m.cfg.path = f;
    m.cfg.trace = &trace;
    m.cfg.prewarm = 1;
    m.cfg.warmup_ns = RB_NONE;
    m.cfg.duration_ns = 100000000;
    m.cfg.iterations = 1;
    m.strategies = s;
    m.nstrategies = 2;
    m.progress = change_after_first;
    m.user = &ch;
    CHECK(rb_run_matrix(&m, &rep) == RB_OK && rep.count == 2);
    CHECKF(rep.count == 2 && rep.results[0].status == RB_OK && rep.results[1].status == RB_ECHANGED,
           "%s / %s", rep.results[0].reason, rep.results[1].reason);
    rb_report_free(&rep);
    rb_trace_free(&trace);
    /* advise: no verdict from cells of two files */
    CHECK(rb_setup_file(f, (uint64_t)8 << 20, 0, RB_OUT_REPLACE, NULL, NULL, &e) == RB_OK);
    {
        static const int warm[1] = {RB_STATE_WARM};
        memset(&ac, 0, sizeof ac);
        memset(&ch, 0, sizeof ch);
        ch.path = f;
        ac.cfg.path = f;
        ac.cfg.duration_ns = 100000000;
        ac.cfg.iterations = 1;
        ac.strategies = s;
        ac.nstrategies = 2;
        ac.threads = th;
        ac.nthreads = 1;
        ac.states = warm;
        ac.nstates = 1;
        ac.budget_ns = 5000000000LL;
        ac.max_rounds = 1;
        ac.progress = change_after_first;
        ac.user = &ch;
        CHECKF(rb_advise(&ac, &ar, &e) == RB_ECHANGED && strstr(e.msg, "file changed since the run started") &&
               strstr(e.msg, "no verdict"), "%s", e.msg);
        CHECK(ar.cfg.ident == NULL);   /* the advise's own identity ended with it */
        rb_advise_free(&ar);
    }
    unlink(f);
    unlink(t);
}

/* ---- the third sweep's leftovers: what the user typed, said back plainly ---- */

/* Exit 2, one line on stderr that holds want (and no raw control character), nothing on stdout. */
static int one_line_refusal(const char *args, const char *want)
{
    const char *c;
    int rc = hcli(rbt_tmpdir(), args);
    for (c = herr; *c && (*c == '\n' || (unsigned char)*c >= 0x20) && *c != 0x7f; c++) {}
    CHECKF(rc == 2 && !hout[0] && strchr(herr, '\n') == herr + strlen(herr) - 1 && strstr(herr, want) && !*c,
           "'%s': exit %d, '%s' (want '%s')", args, rc, herr, want);
    return rc == 2 && strstr(herr, want) != NULL;
}

/* Items 1-5: one rule for every number (whole where it must be: 1e2 iterations are 100, 2.5
   are none); a zero size says what is allowed; a switch given a value, an option
   given twice and a seed or file pick a replay has no use for are refused, each in one line. */
static void options_are_read_one_way(void)
{
    static rb_settings s;
    static const struct { const char *key, *value; uint64_t want; } whole[] = {
        {"iterations", "1e2", 100}, {"seed", "1e3", 1000}, {"size", "1.5k", 1536}, {"reads-per-op", "1.6e1", 16},
        {"seed", "18446744073709551615", UINT64_MAX}, {"seed", "1.8446744073709551615e19", UINT64_MAX},
    };
    static const struct { const char *key, *value; } refused[] = {
        {"iterations", "2.5"}, {"size", "0.1k"}, {"seed", "18446744073709551616"}, {"seed", "1e20"}, {"threads", "1e-1"},
        {"size", "0x10"}, {"seed", " 1"}, {"duration", "1e"}, {"size", "1e"},
    };
    char why[RB_REASON_LEN], args[1024];
    const char *f = rbt_small_file();
    unsigned i;
    int64_t ns;
    for (i = 0; i < sizeof whole / sizeof whole[0]; i++) {
        uint64_t got;
        memset(&s, 0, sizeof s);
        CHECKF(rb_settings_set(&s, whole[i].key, whole[i].value, NULL, why, sizeof why) == RB_OK, "--%s %s: %s",
               whole[i].key, whole[i].value, why);
        got = !strcmp(whole[i].key, "iterations") ? s.cfg.iterations : !strcmp(whole[i].key, "seed") ? s.cfg.seed
            : !strcmp(whole[i].key, "size") ? s.cfg.size : s.cfg.reads_per_op;
        CHECKF(got == whole[i].want, "--%s %s: %llu", whole[i].key, whole[i].value, (unsigned long long)got);
    }
    for (i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        memset(&s, 0, sizeof s);
        CHECKF(rb_settings_set(&s, refused[i].key, refused[i].value, NULL, why, sizeof why) == RB_EINVAL, "--%s '%s' taken",
               refused[i].key, refused[i].value);
    }
    CHECK(rb_parse_duration("1e3ms", &ns) == RB_OK && ns == 1000000000);
    CHECK(rb_parse_duration("1e400s", &ns) == RB_ERANGE);
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    CHECK(hcli(rbt_tmpdir(), "--help") == 0 && strstr(hout, "a count, a seed or a size is whole") &&
          strstr(hout, "each at most once") && strstr(hout, "takes no value"));
    snprintf(args, sizeof args, "run '%s' --size 0", f);
    one_line_refusal(args, "--size must be a size of 1 byte or more");
    snprintf(args, sizeof args, "run '%s' --hog 0", f);
    one_line_refusal(args, "--hog: a size of 1 byte or more (e.g. 512m) or auto:R, not '0'");
    one_line_refusal("setup x.dat 0", "SIZE must be a size of 1 byte or more");
    snprintf(args, sizeof args, "run '%s' --quiet=1", f);
    one_line_refusal(args, "--quiet is a switch and takes no value: '--quiet=1'");
    snprintf(args, sizeof args, "run '%s' --verify=", f);
    one_line_refusal(args, "--verify is a switch and takes no value");
    snprintf(args, sizeof args, "run '%s' --strategies null --strategies pread", f);
    one_line_refusal(args, "--strategies is given twice");
    snprintf(args, sizeof args, "run '%s' --quiet --quiet", f);
    one_line_refusal(args, "--quiet is given twice");
    snprintf(args, sizeof args, "advise '%s' --budget 10s --budget=20s", f);
    one_line_refusal(args, "--budget is given twice");
    snprintf(args, sizeof args, "run '%s' --group strategy=null --group strategy=null,threads=2 --alone no --duration 10ms "
             "--iterations 1 --warmup 0 --quiet --format csv", f);   /* --group: one per group (a loaded machine may fail a cell: 1) */
    CHECKF(hcli(rbt_tmpdir(), args) != 2 && strstr(hout, "strategy=null,threads=2"), "%s", herr);
    CHECK(write_file(rbt_path("leftover.csv"), "0,4096\n8192,4096\n"));
    snprintf(args, sizeof args, "replay '%s' '%s' --strategies null --seed 5", rbt_path("leftover.csv"), f);
    one_line_refusal(args, "--seed draws none of them");
    snprintf(args, sizeof args, "run '%s' --trace '%s' --strategies null --file-pick uniform", f, rbt_path("leftover.csv"));
    one_line_refusal(args, "--file-pick, which picks among a directory's files, does not apply");
    snprintf(args, sizeof args, "replay '%s' '%s' --strategies null --seed 5 --rounds 2 --threads 1 --duration 10ms "
             "--iterations 1 --warmup 0 --quiet --format csv", rbt_path("leftover.csv"), f);   /* it orders the rounds */
    CHECKF(hcli(rbt_tmpdir(), args) != 2 && strstr(hout, "null"), "%s", herr);
    unlink(rbt_path("leftover.csv"));
}

/* Item 7: a file name, an option value or a trace field holding an escape sequence is shown
   escaped in the message, never sent to the terminal. */
static void control_characters_are_shown_escaped(void)
{
    char args[1024], buf[64];
    CHECK(!strcmp(rb_escape_controls("a\x1b[2Jb\x07\xc2\x9b\xc3\xa9", buf, sizeof buf), "a\\x1b[2Jb\\x07\\xc2\\x9b\xc3\xa9"));
    CHECK(!strcmp(rb_escape_controls("ab\x1b", buf, 5), "ab"));   /* an escape cut whole, never half */
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    one_line_refusal("run \"$(printf 'no\\033[31mfile')\"", "no\\x1b[31mfile");
    snprintf(args, sizeof args, "run '%s' --strategies \"$(printf 'x\\033[2J')\"", rbt_small_file());
    one_line_refusal(args, "unknown strategy 'x\\x1b[2J'");
    one_line_refusal("\"$(printf -- '--x\\007')\"", "unknown option '--x\\x07'");
    CHECK(write_file(rbt_path("esc.csv"), "0,4096\n1\x1b[31m,4096\n"));
    snprintf(args, sizeof args, "replay '%s' '%s' --strategies null", rbt_path("esc.csv"), rbt_small_file());
    one_line_refusal(args, "a malformed offset '1\\x1b[31m'");
    unlink(rbt_path("esc.csv"));
}

/* Items 6, 8-10: a CSV time below 0 is named as the time it is; a report behind a UTF-8 BOM
   is read, as a CSV trace behind one is; an ok result of 0 rounds is no run's; a machine 4.65x
   slower is said as that, not as "365% slower". */
static void reports_and_traces_say_what_is_wrong(void)
{
    static rb_trace t;
    rb_trace_options o;
    rb_json *doc;
    rb_diff d;
    unsigned i;
    char why[RB_REASON_LEN], text[2048];
    const char *b = rbt_path("left-b.json"), *n = rbt_path("left-n.json");
#define LCELL(rounds, extra, samples) "{\"strategy\": \"pread\", \"threads\": 1, \"read_size\": 4096, \"pattern\": " \
    "\"random\", \"status\": \"ok\", \"rounds\": " rounds ", " extra "\"samples\": [" samples "]}"
#define LDOC(cell) "{\"config\": {\"cache\": \"keep\"}, \"results\": [" cell "]}\n"
    memset(&o, 0, sizeof o);
    o.format = RB_TRACE_CSV;
    CHECK(write_file(rbt_path("negt.csv"), "0,4096,0,5\n8192,4096,0,-3\n"));
    rb_trace_load(&t, rbt_path("negt.csv"), &o);
    CHECKF(t.status == RB_EINVAL && strstr(t.why, ":2: a negative time_ns '-3' (field 4: a time in nanoseconds") &&
           !strstr(t.why, "bytes"), "%s", t.why);
    rb_trace_free(&t);
    unlink(rbt_path("negt.csv"));
    CHECK(write_file(b, "\xef\xbb\xbf" LDOC(LCELL("5", "", "10, 10.1, 9.9, 10, 10"))));
    CHECKF((doc = rb_json_load_report(b, why, sizeof why)) != NULL, "%s", why);
    rb_json_free(doc);
    CHECK(write_file(b, LDOC(LCELL("0", "", "10, 10.1, 9.9, 10, 10"))));
    CHECKF(!(doc = rb_json_load_report(b, why, sizeof why)) && strstr(why, "\"rounds\" is 0"), "%s", why);
    rb_json_free(doc);
    /* a table report (run --output x.json without --format json) says what to do, not only "malformed" */
    CHECK(write_file(b, "ops/ms, higher is better: random 4 KiB reads\n"));
    CHECKF(!(doc = rb_json_load_report(b, why, sizeof why)) && strstr(why, "write it with --format json"), "%s", why);
    rb_json_free(doc);
    CHECK(write_file(b, LDOC(LCELL("5", "\"machine_drift\": {\"before_ns\": 1000000, \"after_ns\": 1000000}, ",
                                   "10, 10.1, 9.9, 10, 10"))));
    CHECK(write_file(n, LDOC(LCELL("5", "\"machine_drift\": {\"before_ns\": 4650000, \"after_ns\": 4650000}, ",
                                   "2, 2.1, 1.9, 2, 2"))));
    CHECKF(rb_diff_files(b, n, &d, why, sizeof why) == RB_OK && d.n == 1, "%s", why);
    for (i = 0; i < d.n; i++)
        CHECKF(strstr(d.rows[i].note, "4.65x slower") && !strstr(d.rows[i].note, "%"), "%s", d.rows[i].note);
    if (d.n) rb_diff_free(&d);
    if (rbt_cli()) {   /* and the CLI: the BOM report diffs, the 0-round one is exit 2 */
        CHECK(write_file(b, "\xef\xbb\xbf" LDOC(LCELL("5", "", "10, 10.1, 9.9, 10, 10"))));
        snprintf(text, sizeof text, "diff '%s' '%s'", b, n);
        CHECKF(hcli(rbt_tmpdir(), text) == 0 && strstr(hout, "pread"), "%s", herr);
        CHECK(write_file(b, LDOC(LCELL("0", "", "10, 10.1, 9.9, 10, 10"))));
        one_line_refusal(text, "not a readbench run report");
    }
#undef LDOC
#undef LCELL
    unlink(b);
    unlink(n);
}

/* Items 11, 12: setup says what it wrote (10 bytes as 3 files are 9 on disk); an output named
   inside a file of the input directory (a trailing slash) is bad input: exit 2, nothing made. */
static void setup_and_outputs_say_what_is_on_disk(void)
{
    const char *dir = rbt_path("left-set"), *d = rbt_path("left-set/d10");
    char args[1024], p[600];
    struct stat st, st2;
    unsigned i;
    off_t sum = 0;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    CHECK(mkdir(dir, 0755) == 0);
    CHECK(hcli(dir, "setup d10 10 --files 3") == 0);
    for (i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/part-%04u", d, i);
        if (stat(p, &st) == 0) sum += st.st_size;
    }
    CHECKF(sum == 9 && strstr(herr, "wrote 9 B to d10 as 3 files of 3 B (10 B does not divide into 3 equal files: 1 "
                                    "byte less)") && !strstr(herr, "0 MiB/s"), "%lld: %s", (long long)sum, herr);
    CHECK(hcli(dir, "setup d4 1m --files 4") == 0 && strstr(herr, "wrote 1 MiB to d4 as 4 files of 256 KiB in"));
    snprintf(p, sizeof p, "%s/d4/part-0000", dir);
    CHECK(stat(p, &st) == 0);
    snprintf(args, sizeof args, "run d4 --strategies null --threads 1 --duration 10ms --iterations 1 --warmup 0 --quiet "
             "--output d4/part-0000/");
    CHECKF(hcli(dir, args) == 2 && strstr(herr, "a name before a '/' in it is a file, not a directory") &&
           strchr(herr, '\n') == herr + strlen(herr) - 1, "%s", herr);
    CHECK(stat(p, &st2) == 0 && st2.st_size == st.st_size && st2.st_mtime == st.st_mtime && dir_count(rbt_path("left-set/d4")) == 4);
    CHECK(hcli(dir, "run d4 --strategies null --quiet --svg d4/part-0001/x.svg") == 2 && strstr(herr, "not a directory"));
    CHECK(hcli(dir, "run d4 --strategies null --quiet --output no-such-dir/o.json") == 2 && strstr(herr, "does not exist"));
    CHECK(dir_count(dir) == 2 && dir_count(rbt_path("left-set/d4")) == 4);
    snprintf(args, sizeof args, "rm -rf '%s'", dir);
    CHECK(system(args) == 0);
}

/* Items 13, 14: residency and warmup as a user who may not count FILE's pages (neither its owner
   nor allowed to write it; /etc/passwd for nobody): residency says so on stderr, nothing on stdout;
   warmup, whose every method needs that count, refuses in one line before anything runs. */
static void a_non_owner_gets_one_error_on_stderr(void)
{
    static const struct { const char *cmd, *want; int rc; } cases[] = {
        {"residency /etc/passwd", "readbench: /etc/passwd: residency cannot be trusted", 1},
        {"warmup /etc/passwd", "readbench: warmup measures what each method makes resident, and this user cannot count", 2},
    };
    char cmd[2048], ep[600], out[4096];
    const char *as = rbt_is_root() ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
    struct stat st;
    unsigned i;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    if (stat("/etc/passwd", &st) != 0 || (!rbt_is_root() && (st.st_uid == geteuid() || access("/etc/passwd", W_OK) == 0)))
        SKIP("no file this user neither owns nor may write (/etc/passwd)");
    if (rbt_is_root() && system("setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null") != 0)
        SKIP("root, and setpriv cannot become nobody here");
    snprintf(ep, sizeof ep, "%s/nonowner-stderr.txt", rbt_tmpdir());
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        FILE *pp, *ef;
        size_t n;
        int stt;
        snprintf(cmd, sizeof cmd, "cd / && %s'%s' %s </dev/null 2>'%s'", as, rbt_cli(), cases[i].cmd, ep);
        CHECK((pp = popen(cmd, "r")) != NULL);
        if (!pp) continue;
        n = fread(out, 1, sizeof out - 1, pp);
        out[n] = 0;
        stt = pclose(pp);
        herr[0] = 0;
        if ((ef = fopen(ep, "r")) != NULL) {
            herr[fread(herr, 1, sizeof herr - 1, ef)] = 0;
            fclose(ef);
        }
        CHECKF(WIFEXITED(stt) && WEXITSTATUS(stt) == cases[i].rc && !out[0] && strstr(herr, cases[i].want) &&
               strchr(herr, '\n') == herr + strlen(herr) - 1, "%s: exit %d, stdout '%s', stderr '%s'", cases[i].cmd,
               WIFEXITED(stt) ? WEXITSTATUS(stt) : -1, out, herr);
    }
    unlink(ep);
}

void suite_hostile(void)
{
    RUN(non_regular_files_exit_2_without_hanging);
    RUN(library_refuses_non_regular_files);
    RUN(absurd_cells_are_refused_before_allocating);
    RUN(hog_plan_is_capped_and_strict);
    RUN(memory_cgroup_limits_are_respected);
    RUN(a_trace_too_large_for_the_memory_is_refused);
    RUN(truncation_during_prefetch_and_probe_is_file_changed);
    RUN(list_probes_in_tmpdir_and_cleans_up);
    RUN(pointless_inputs_exit_2);
    RUN(messages_say_what_is_true);
    RUN(a_file_changed_between_cells_fails_the_rest);
    RUN(options_are_read_one_way);
    RUN(control_characters_are_shown_escaped);
    RUN(reports_and_traces_say_what_is_wrong);
    RUN(setup_and_outputs_say_what_is_on_disk);
    RUN(a_non_owner_gets_one_error_on_stderr);
}
