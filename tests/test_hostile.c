/* suite hostile: what a hostile (or unlucky) user can hand readbench: files that are not
   files, files that change under a run, absurd sizes, signals. Nothing may hang, crash or
   eat the machine's memory; every such case ends with a clear status. */
#define _GNU_SOURCE
#include "readbench.h"
#include "rbtest.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

static char hout[1 << 16], herr[8192];

/* Runs the CLI with ARGS inside DIR under `timeout 10` (a hang fails the test as exit 124
   instead of hanging the suite); stdout into hout, stderr into herr; returns the exit status. */
static int hcli(const char *dir, const char *args)
{
    char cmd[4096], op[600], ep[600];
    FILE *f;
    size_t n;
    int st;
    snprintf(op, sizeof op, "%s/hostile-out.txt", rbt_tmpdir());
    snprintf(ep, sizeof ep, "%s/hostile-err.txt", rbt_tmpdir());
    snprintf(cmd, sizeof cmd, "cd '%s' && timeout -s KILL 10 '%s' %s >'%s' 2>'%s' </dev/null", dir, rbt_cli(),
             args, op, ep);
    st = system(cmd);
    f = fopen(op, "r");
    n = f ? fread(hout, 1, sizeof hout - 1, f) : 0;
    hout[n] = 0;
    if (f) fclose(f);
    f = fopen(ep, "r");
    n = f ? fread(herr, 1, sizeof herr - 1, f) : 0;
    herr[n] = 0;
    if (f) fclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
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
        bad |= (rb_prefetch_experiment(&pc, RB_PF_ALWAYS, 1, &px) != RB_ENOTREG) << 6;
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

void suite_hostile(void)
{
    RUN(non_regular_files_exit_2_without_hanging);
    RUN(library_refuses_non_regular_files);
}
