#define _GNU_SOURCE
/* The test runner: every suite, in order; RB_TESTS=name runs one (make check uses it to run
   the threaded runner under TSan). Run from tests/ so that ../readbench is the CLI. */
#include "readbench.h"
#include "rbtest.h"
#include <sys/wait.h>
#include <unistd.h>

rbt_state rbt;

static char tmpdir[256];

void rbt_run(const char *name, void (*fn)(void))
{
    rbt.cur_failed = rbt.cur_skipped = 0;
    fprintf(stderr, "  %s\n", name);
    fn();
    if (rbt.cur_failed) { rbt.failed++; fprintf(stderr, "  FAILED %s\n", name); }
    else if (rbt.cur_skipped) rbt.skipped++;
    else rbt.passed++;
}

const char *rbt_tmpdir(void)
{
    if (!tmpdir[0]) {
        const char *base = getenv("TMPDIR");
        snprintf(tmpdir, sizeof tmpdir, "%s/readbench-test-XXXXXX", base && *base ? base : "/var/tmp");
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

int rbt_cli_run(const char *dir, const char *args, const char *timeout, char *out, size_t outlen, char *err,
                size_t errlen)
{
    char cmd[8192], ep[600];
    FILE *p, *ef;
    size_t n;
    int st;
    out[0] = err[0] = 0;
    snprintf(ep, sizeof ep, "%s/cli-stderr.txt", rbt_tmpdir());
    snprintf(cmd, sizeof cmd, "cd '%s' && %s%s%s'%s' %s </dev/null 2>'%s'", dir, timeout ? "timeout " : "",
             timeout ? timeout : "", timeout ? " " : "", rbt_cli() ? rbt_cli() : "", args, ep);
    if (!rbt_cli() || !(p = popen(cmd, "r"))) return -1;
    n = fread(out, 1, outlen - 1, p);
    out[n] = 0;
    while (fread(err, 1, errlen, p) > 0) {}   /* drain: a writer must not block */
    st = pclose(p);
    ef = fopen(ep, "r");
    n = ef ? fread(err, 1, errlen - 1, ef) : 0;
    err[n] = 0;
    if (ef) fclose(ef);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int rbt_have_python(const char *imports)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "python3 -c 'import %s' >/dev/null 2>&1", imports);
    return system(cmd) == 0;
}

static void suite(const char *name, void (*fn)(void))
{
    if (rbt.filter && strcmp(rbt.filter, name) != 0) return;
    fprintf(stderr, "%s\n", name);
    fn();
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

int main(void)
{
    char cmd[600];
    rbt.filter = getenv("RB_TESTS");
    suite("parse", suite_parse);
    suite("hist", suite_hist);
    suite("setup", suite_setup);
    suite("runner", suite_runner);
    suite("cache", suite_cache);
    suite("prefetch", suite_prefetch);
    suite("probe", suite_probe);
    suite("cli", suite_cli);
    suite("svg", suite_svg);
    suite("safety", suite_safety);
    suite("hostile", suite_hostile);
    suite("output", suite_output);
    suite("counting", suite_counting);
    suite("stats", suite_stats);
    suite("patterns", suite_patterns);
    suite("advise", suite_advise);
    suite("strategies", suite_strategies);
    suite("replay", suite_replay);
    suite("kernel", suite_kernel);
    suite("group", suite_group);
    suite("openloop", suite_openloop);
    suite("files", suite_files);
    suite("compile", suite_compile);
    if (tmpdir[0]) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
        if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
    }
    fprintf(stderr, "%d checks\n", rbt.checks);
    fflush(stderr);
    printf("%d passed, %d failed, %d skipped\n", rbt.passed, rbt.failed, rbt.skipped);
    return rbt.failed ? 1 : 0;
}
