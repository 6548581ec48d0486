#define _GNU_SOURCE
/* Readers that run together (--group, rb_run_groups) and the victim (--victim): each group's
   own row and counts, alone and together, the working set the others evicted, what a scan
   costs a file kept warm beside it, and the refusals. */
#include "readbench.h"
#include "rbtest.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char out[1 << 17], err[8192];

static int cli(const char *dir, const char *args)
{
    return rbt_cli_run(dir, args, "-s KILL 120", out, sizeof out, err, sizeof err);
}

static unsigned lines(const char *s)
{
    unsigned n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

static rb_group group_of(const char *spec, unsigned index)
{
    rb_group g;
    char why[RB_REASON_LEN];
    int rc = rb_parse_group(spec, index, "--group", &g, why, sizeof why);
    CHECKF(rc == RB_OK, "%s: %s", spec, why);
    return g;
}

/* A SPEC's values go through the run settings' own rules; a bad one is one line naming the
   group and the key. */
static void group_spec_parses_with_the_run_rules(void)
{
    static const struct { const char *spec, *says; } bad[] = {
        {"threads=4", "names no strategy"},
        {"strategy=pread,threads=0", "threads"},
        {"strategy=pread,threads=x", "threads"},
        {"strategy=nope", "strategy"},
        {"strategy=all", "strategy"},
        {"strategy=pread,duration=1s", "'duration' is the cell's"},
        {"strategy=pread,bogus=1", "no key 'bogus'"},
        {"strategy=pread,threads=1,threads=2", "threads is given twice"},
        {"strategy=pread,", "is not key=value"},
        {"strategy=pread,,threads=1", "is not key=value"},
        {"pread", "is not key=value"},
        {"", "is not key=value"},
        {"strategy=pread,pattern=zipf:0", "pattern"},
        {"strategy=pread,read-size=0", "read-size"},
    };
    rb_group g = group_of("strategy=mmap-random-willneed,threads=4,pattern=zipf:1.2,read-size=4k,reads-per-op=8", 1);
    char why[RB_REASON_LEN];
    unsigned i;
    CHECK(g.s && !strcmp(g.s->name, "mmap-random-willneed"));
    CHECK(g.threads == 4 && g.read_size == 4096 && g.reads_per_op == 8);
    CHECK(g.has_pattern && g.pattern == RB_ZIPF && g.pattern_arg[0] == 1.2);
    CHECK(!strcmp(g.spec, "strategy=mmap-random-willneed,threads=4,pattern=zipf:1.2,read-size=4k,reads-per-op=8"));
    g = group_of("strategies=pread", 2);
    CHECK(g.s && !strcmp(g.s->name, "pread") && g.threads == 0 && !g.has_pattern);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = rb_parse_group(bad[i].spec, 2, "--group", &g, why, sizeof why);
        CHECKF(rc == RB_EINVAL, "'%s' taken", bad[i].spec);
        CHECKF(!strncmp(why, "--group 2", 9) && strstr(why, bad[i].says) && !strchr(why, '\n'), "'%s': %s", bad[i].spec,
               why);
    }
}

/* Two groups in one cell: each row its own counts, alone and together, the ratio between. */
static void two_groups_run_together_each_counted(void)
{
    rb_config c;
    rb_group g[2];
    rb_result *r = (rb_result *)calloc(4, sizeof *r);
    unsigned i;
    int rc;
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.warmup_ns = RB_NONE;
    c.duration_ns = 100000000;
    c.iterations = 3;
    g[0] = group_of("strategy=null,threads=2", 1);
    g[1] = group_of("strategy=pread,threads=1,pattern=sequential,read-size=64k,reads-per-op=4", 2);
    CHECK(rb_group_rows(2, RB_ALONE_FIRST) == 4 && rb_group_rows(2, RB_ALONE_NO) == 2);
    rc = rb_run_groups(&c, g, 2, RB_ALONE_FIRST, r);
    CHECKF(rc == RB_OK, "%s", r[0].reason);
    for (i = 0; i < 4; i++) {
        CHECKF(r[i].status == RB_OK && r[i].ops > 0, "row %u: %s", i, r[i].reason);
        CHECK(r[i].group == i / 2 + 1 && r[i].ngroups == 2);
        CHECK(r[i].group_run == (i % 2 ? RB_RUN_TOGETHER : RB_RUN_ALONE));
        CHECK(!strcmp(r[i].group_spec, g[i / 2].spec));
        CHECK(r[i].iterations == 3);
    }
    CHECK(!strcmp(r[0].strategy, "null") && r[0].threads == 2 && r[1].threads == 2);
    CHECK(!strcmp(r[3].strategy, "pread") && r[3].threads == 1 && r[3].read_size == 65536 && r[3].reads_per_op == 4);
    CHECK(!strcmp(r[3].pattern_spec, "sequential") && !strcmp(r[1].pattern_spec, "random"));
    /* each group's counts are its own: the null group's ops are not the pread group's */
    CHECK(r[1].ops != r[3].ops && r[1].page_reads != r[3].page_reads && r[1].madvise_calls == 0);
    CHECK(r[1].together_ratio > 0 && r[3].together_ratio > 0);
    CHECK(r[0].together_ratio != r[0].together_ratio);   /* NaN on an alone row */
    CHECK(r[3].ws_pages >= 0 && r[3].ws_evicted >= 0);   /* we own the file: residency is trusted */
    CHECK(r[2].ws_pages == r[3].ws_pages && r[3].ws_evicted <= r[3].ws_pages);
    /* together only: no alone row, no ratio, no working set */
    rc = rb_run_groups(&c, g, 2, RB_ALONE_NO, r);
    CHECK(rc == RB_OK && r[0].group_run == RB_RUN_TOGETHER && r[1].group == 2 && r[1].ops > 0);
    CHECK(r[0].together_ratio != r[0].together_ratio && r[0].ws_evicted == -1);
    free(r);
}

/* The CLI: every format carries the groups' rows and fields. */
static void every_format_carries_the_groups(void)
{
    const char *dir = rbt_path("group-cli");
    char args[2048];
    static const char *const formats[] = {"json", "csv", "table", "markdown"};
    unsigned k;
    rb_json *j;
    char why[256];
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    CHECK(mkdir(dir, 0755) == 0);
    for (k = 0; k < 4; k++) {
        int rc;
        snprintf(args, sizeof args, "run '%s' --group strategy=null,threads=2 --group strategy=pread,pattern=sequential,"
                 "read-size=64k --duration 50ms --iterations 2 --warmup 0 --quiet --format %s", rbt_small_file(), formats[k]);
        rc = cli(dir, args);
        CHECKF(rc == 0, "%s: exit %d: %s", formats[k], rc, err);
        if (k == 0) {
            const rb_json *res, *x, *gr;
            unsigned n = 0;
            j = rb_json_parse(out, strlen(out), why, sizeof why);
            CHECKF(j != NULL, "%s", why);
            res = j ? rb_json_get(j, "results") : NULL;
            CHECK(res && res->n == 4);
            for (x = res ? res->child : NULL; x; x = x->next, n++) {
                gr = rb_json_get(x, "group");
                CHECK(gr && gr->type == RB_JSON_OBJECT && rb_json_get(gr, "index")->num == n / 2 + 1);
                CHECK(gr && !strcmp(rb_json_get(gr, "run")->str, n % 2 ? "together" : "alone"));
                CHECK(gr && rb_json_get(gr, "spec")->type == RB_JSON_STRING);
                CHECK(rb_json_get(x, "ops")->num > 0);
            }
            CHECK(j && rb_json_get(rb_json_get(j, "config"), "groups")->n == 2);
            rb_json_free(j);
        } else if (k == 1) {
            CHECK(strstr(out, ",group,group_spec,group_run,together_ratio,") != NULL);
            CHECK(strstr(out, ",\"strategy=null,threads=2\",alone,") && strstr(out, ",together,"));
        } else {
            CHECK(strstr(out, "readers that run together") && strstr(out, "together/alone"));
            CHECK(strstr(out, "g2: strategy=pread,pattern=sequential,read-size=64k") != NULL);
            CHECK(strstr(out, "g1 null (alone)") && strstr(out, "g2 pread (together)"));
        }
    }
    /* diff pairs a group's rows by group and run (alone with alone), each named as in the tables */
    for (k = 0; k < 2; k++) {
        snprintf(args, sizeof args, "run '%s' --group strategy=null --group strategy=pread,read-size=64k --duration 50ms "
                 "--iterations 2 --warmup 0 --quiet --format json --output %c.json", rbt_small_file(), 'a' + k);
        CHECK(cli(dir, args) == 0);
    }
    CHECK(cli(dir, "diff a.json b.json") == 0);
    CHECKF(strstr(out, "g1 null (alone)") && strstr(out, "g2 pread (together)"), "%s", out);
    snprintf(args, sizeof args, "run '%s' --group strategy=pread --group strategy=pread,threads=zero --quiet",
             rbt_small_file());
    CHECK(cli(dir, args) == 2 && lines(err) == 1 && strstr(err, "--group 2: threads"));
    snprintf(args, sizeof args, "run '%s' --group strategy=pread --strategies mmap --quiet", rbt_small_file());
    CHECK(cli(dir, args) == 2 && lines(err) == 1);
    snprintf(args, sizeof args, "run '%s' --group strategy=pread --alone sometimes --quiet", rbt_small_file());
    CHECK(cli(dir, args) == 2 && lines(err) == 1 && strstr(err, "--alone"));
}

/* --victim is another file: the benchmark file itself (by any name), a directory, a missing
   file or an output are refused with one line and exit 2, and nothing is created. */
static void victim_refusals(void)
{
    const char *dir = rbt_path("victim-refused"), *f = rbt_small_file();
    char args[2048], link[600], sub[600], outp[600];
    struct stat st;
    const char *victims[4];
    unsigned k;
    rb_error e;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    CHECK(mkdir(dir, 0755) == 0);
    snprintf(link, sizeof link, "%s/link.dat", dir);
    snprintf(sub, sizeof sub, "%s/sub", dir);
    CHECK(symlink(f, link) == 0 && mkdir(sub, 0755) == 0);
    victims[0] = f;
    victims[1] = link;
    victims[2] = sub;
    victims[3] = "missing.dat";
    for (k = 0; k < 4; k++) {
        int rc;
        snprintf(args, sizeof args, "run '%s' --strategies pread --threads 1 --victim '%s' --duration 10ms "
                 "--iterations 1 --output out.json --quiet", f, victims[k]);
        rc = cli(dir, args);
        CHECKF(rc == 2 && lines(err) == 1 && strstr(err, "victim"), "%s: exit %d: %s", victims[k], rc, err);
        snprintf(outp, sizeof outp, "%s/out.json", dir);
        CHECK(stat(outp, &st) != 0);
    }
    /* the victim named as the output: refused before anything is written */
    snprintf(outp, sizeof outp, "%s/victim.dat", dir);
    CHECK(rb_setup_file(outp, 1 << 20, 0, 0, NULL, NULL, &e) == RB_OK);
    snprintf(args, sizeof args, "run '%s' --strategies pread --threads 1 --victim victim.dat --output victim.dat "
             "--duration 10ms --iterations 1 --quiet", f);
    CHECK(cli(dir, args) == 2 && lines(err) == 1);
    CHECK(stat(outp, &st) == 0 && st.st_size == 1 << 20);
    {   /* the library refuses it too, for an embedder calling rb_run */
        rb_config c;
        rb_victim v;
        rb_result *r = (rb_result *)calloc(1, sizeof *r);
        memset(&c, 0, sizeof c);
        c.path = f;
        rb_victim_attach(&c, &v, link);
        CHECK(rb_run(&c, rb_strategy_find("pread"), r) == RB_EINVAL && strstr(r->reason, "victim"));
        free(r);
    }
}

/* A victim beside an ordinary cell: its figures are in the result and in every format. */
static void victim_figures_reported(void)
{
    const char *dir = rbt_path("victim-figures");
    char args[2048], v[600];
    rb_json *j;
    char why[256];
    const rb_json *x, *vi;
    rb_error e;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    CHECK(mkdir(dir, 0755) == 0);
    snprintf(v, sizeof v, "%s/victim.dat", dir);
    CHECK(rb_setup_file(v, 2 << 20, 0, 0, NULL, NULL, &e) == RB_OK);
    snprintf(args, sizeof args, "run '%s' --strategies pread,pread-dontneed --threads 1 --victim victim.dat "
             "--duration 200ms --iterations 2 --warmup 0 --format json --quiet", rbt_small_file());
    CHECKF(cli(dir, args) == 0, "%s", err);
    j = rb_json_parse(out, strlen(out), why, sizeof why);
    CHECKF(j != NULL, "%s", why);
    x = j ? rb_json_get(j, "results")->child : NULL;
    vi = x ? rb_json_get(x, "victim") : NULL;
    CHECK(vi && vi->type == RB_JSON_OBJECT);
    CHECK(vi && rb_json_get(vi, "pages")->num == 512 && rb_json_get(vi, "resident_before")->num == 512);
    CHECK(vi && rb_json_get(vi, "lost")->type == RB_JSON_NUMBER && rb_json_get(vi, "reads")->num > 0);
    CHECK(x && rb_json_get(x, "group")->type == RB_JSON_NULL);
    CHECK(j && rb_json_get(rb_json_get(j, "config"), "victim")->type == RB_JSON_STRING);
    rb_json_free(j);
    snprintf(args, sizeof args, "run '%s' --strategies pread --threads 1 --victim victim.dat --duration 200ms "
             "--iterations 1 --warmup 0 --quiet", rbt_small_file());
    CHECK(cli(dir, args) == 0 && strstr(out, "the victim victim.dat") && strstr(out, "read back MiB"));
    snprintf(args, sizeof args, "run '%s' --strategies pread --threads 1 --victim victim.dat --duration 200ms "
             "--iterations 1 --warmup 0 --quiet --format csv", rbt_small_file());
    CHECK(cli(dir, args) == 0 && strstr(out, ",victim_pages,") && strstr(out, ",512,512,"));
}

static int write_text(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY);
    ssize_t n;
    if (fd < 0) return 0;
    n = write(fd, text, strlen(text));
    return close(fd) == 0 && n == (ssize_t)strlen(text);
}

/* The CLI in a child memory cgroup of `limit` bytes; its JSON report parsed. */
static rb_json *run_in_memcg(const char *cg, const char *args)
{
    char cmd[4096], procs[700], why[256], js[600];
    pid_t pid;
    int st;
    snprintf(js, sizeof js, "%s", rbt_path("memcg-run.json"));
    snprintf(cmd, sizeof cmd, "timeout -s KILL 150 '%s' %s --format json --quiet > '%s' 2>/dev/null", rbt_cli(), args, js);
    snprintf(procs, sizeof procs, "%s/cgroup.procs", cg);
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        if (!write_text(procs, "0\n")) _exit(126);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
    return rb_json_load(js, why, sizeof why);
}

static double num(const rb_json *o, const char *k)
{
    const rb_json *v = o ? rb_json_get(o, k) : NULL;
    return v && v->type == RB_JSON_NUMBER ? v->num : -1;
}

/* A sequential scan beside a search in a small memory cgroup: the scan's buffered reads evict
   pages of the search's working set and of the victim; O_DIRECT's evict (about) none. */
static void scan_evicts_search_working_set_in_small_memcg(void)
{
    char own[512], cg[600], args[2048];
    const char *big = "/var/tmp/readbench-group-test.dat", *vic = "/var/tmp/readbench-group-victim.dat";
    unsigned k;
    int pressed = 0;
    double evicted[2] = {-1, -1}, ws[2] = {-1, -1}, lost[2] = {-1, -1}, scanned[2] = {-1, -1};
    char direct_why[256] = "";
    rb_error e;
    if (!rbt_is_root()) SKIP("needs root (a child memory cgroup)");
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    if (!rbt_own_memcg(own, sizeof own)) SKIP("no writable cgroup v1 memory controller (/sys/fs/cgroup/memory)");
    snprintf(cg, sizeof cg, "%s/readbench-group-%d", own, (int)getpid());
    if (mkdir(cg, 0755) != 0) SKIP("cannot create a child memory cgroup here");
    snprintf(args, sizeof args, "%s/memory.limit_in_bytes", cg);
    CHECK(write_text(args, "67108864\n"));   /* 64 MiB: the search's 32 MiB hot set is more than its active list may keep */
    CHECK(rb_setup_file(big, (uint64_t)128 << 20, 0, 1, NULL, NULL, &e) == RB_OK);
    CHECK(rb_setup_file(vic, (uint64_t)16 << 20, 0, 1, NULL, NULL, &e) == RB_OK);
    CHECK(rb_evict(vic, &e) == RB_OK);   /* its pages then belong to the child's cgroup */
    for (k = 0; k < 2; k++) {
        rb_json *j;
        const rb_json *res, *t;
        unsigned tries;
        /* Aligned reads: an unaligned 4 KiB read touches two pages, which made the hot set
           56 MiB; with the victim's 16 MiB that filled the cgroup, and even the O_DIRECT scan's
           run evicted up to 386 pages of it (CI's make check, 2026-11-30). */
        snprintf(args, sizeof args, "run '%s' --cache evict --warmup 2s --duration 500ms --iterations 2 --victim '%s' "
                 "--group strategy=pread,pattern=hotset:0.25:1,read-size=4k,align=4k --group strategy=%s,pattern=sequential,"
                 "read-size=1m,reads-per-op=4", big, vic, k ? "direct" : "pread");   /* ops of 4 MiB: many per iteration */
        /* The search's warmup reads its hot set at the disk's pace: a disk the other suites kept
           busy let it read under 1000 of the 8192 pages. And the buffered scan must read more
           than the cgroup holds (64 MiB in its 1 s measured) to press it at all: in CI's musl run
           (2026-12-02) a busy disk let it read too little and nothing was evicted, not even the
           victim's pages (evicted 0, lost 0, where a quiet run has 200-500 and 300-2,700). Such a
           run (a scan under 64 MiB, or no page lost at all) is run again, 3 in all; a scan still
           too slow then is a skip, not a verdict. A counting that lost the evictions still fails:
           the victim's losses say the cgroup was pressed. The O_DIRECT run is run again, 3 in
           all, when it evicted more than 1% of the working set: under ASan (make check,
           2026-12-03) one evicted 421 of 8,192 pages once and none the next time; every try
           evicting that much still fails. */
        for (tries = 0;; tries++) {
            j = run_in_memcg(cg, args);
            res = j ? rb_json_get(j, "results") : NULL;
            t = res && res->n == 4 ? res->child->next : NULL;
            scanned[k] = res && res->n == 4 ? num(res->child->next->next->next, "ops") * 4.0 : -1;   /* MiB */
            pressed = num(t ? rb_json_get(t, "group") : NULL, "ws_evicted") > 0 || num(t ? rb_json_get(t, "victim") : NULL, "lost") > 0;
            if (tries == 2 || (num(t ? rb_json_get(t, "group") : NULL, "ws_pages") > 1000 &&
                               (k == 1 ? num(t ? rb_json_get(t, "group") : NULL, "ws_evicted") <=
                                             0.01 * num(t ? rb_json_get(t, "group") : NULL, "ws_pages")
                                       : scanned[k] >= 64 && pressed)))
                break;
            fprintf(stderr, "    a working set of %.0f pages, a scan of %.0f MiB: the run again\n",
                    num(t ? rb_json_get(t, "group") : NULL, "ws_pages"), scanned[k]);
            rb_json_free(j);
        }
        CHECK(res && res->n == 4);
        t = res && res->n == 4 ? res->child->next : NULL;   /* g1 together */
        if (k == 1 && res && res->n == 4) {   /* the scan's row: a build without O_DIRECT (portable) says why */
            const rb_json *scan = res->child->next->next->next, *st = rb_json_get(scan, "status"), *r = rb_json_get(scan, "reason");
            if (st && st->type == RB_JSON_STRING && strcmp(st->str, "ok") != 0)
                snprintf(direct_why, sizeof direct_why, "the direct scan did not run here: %s",
                         r && r->type == RB_JSON_STRING ? r->str : st->str);
        }
        ws[k] = num(t ? rb_json_get(t, "group") : NULL, "ws_pages");
        evicted[k] = num(t ? rb_json_get(t, "group") : NULL, "ws_evicted");
        lost[k] = num(t ? rb_json_get(t, "victim") : NULL, "lost");
        rb_json_free(j);
    }
    if (rmdir(cg) != 0) fprintf(stderr, "    could not remove %s\n", cg);
    unlink(big);
    unlink(vic);
    fprintf(stderr, "    working set %.0f pages: evicted %.0f by a buffered scan (%.0f MiB), %.0f by O_DIRECT (%.0f MiB); "
            "victim lost %.0f, %.0f\n", ws[0], evicted[0], scanned[0], evicted[1], scanned[1], lost[0], lost[1]);
    CHECK(ws[0] > 1000);   /* of the 8192 hot pages: most, or fewer on a slow disk */
    if (scanned[0] < 64) SKIP("in 3 runs the buffered scan read under 64 MiB (a busy disk): nothing to set O_DIRECT against");
    CHECK(evicted[0] > 0 && lost[0] >= 0);
    if (direct_why[0]) SKIP(direct_why);
    CHECK(ws[1] > 1000);
    CHECK(evicted[1] >= 0 && evicted[1] <= 0.01 * ws[1]);
    CHECK(lost[0] >= 0 && lost[1] >= 0);
}

/* A victim that is one of the files of the directory measured (by its name, or a link to it)
   is refused as the file measured itself is: exit 2, one line, nothing written; the library
   refuses it for an embedder too. */
static void victim_inside_the_directory_refused(void)
{
    const char *d = rbt_path("victim-set"), *link = rbt_path("victim-set-link");
    char args[2048], member[600], outp[600];
    struct stat st;
    rb_error e;
    rb_config c;
    rb_victim v;
    rb_result *r = (rb_result *)calloc(1, sizeof *r);
    CHECK(r && rb_setup_files(d, 4 << 20, 4, 0, 0, NULL, NULL, NULL, &e) == RB_OK);
    snprintf(member, sizeof member, "%s/part-0001", d);
    CHECK(symlink(member, link) == 0);
    memset(&c, 0, sizeof c);
    c.path = d;
    rb_victim_attach(&c, &v, member);
    CHECK(r && rb_run(&c, rb_strategy_find("pread"), r) == RB_EINVAL && strstr(r->reason, "victim") &&
          strstr(r->reason, "one of the files"));
    free(r);
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    snprintf(outp, sizeof outp, "%s/out.json", rbt_tmpdir());
    snprintf(args, sizeof args, "run '%s' --strategies pread --threads 1 --victim '%s/part-0000' --duration 10ms "
             "--iterations 1 --warmup 0 --quiet --output '%s'", d, d, outp);
    CHECKF(cli(rbt_tmpdir(), args) == 2 && lines(err) == 1 && strstr(err, "victim") && strstr(err, "part-0000"), "%s", err);
    snprintf(args, sizeof args, "run '%s' --strategies pread --threads 1 --victim '%s' --duration 10ms --iterations 1 "
             "--warmup 0 --quiet --output '%s'", d, link, outp);
    CHECKF(cli(rbt_tmpdir(), args) == 2 && lines(err) == 1 && strstr(err, "victim"), "%s", err);
    CHECK(stat(outp, &st) != 0);
    unlink(link);
}

/* Threads that did not get a CPU are said as such, not blamed on the op: 16 readers of the
   null strategy (0.1 us an op) on one CPU with 20 ms iterations, as one cell and as 16 groups
   run together. What is measured decides: a thread that first ran past the middle of an
   iteration (or never) was starved; the op did not outlast anything. */
static void starved_threads_are_not_slow_ops(void)
{
    static const unsigned cpu0[] = {0};
    rb_config c;
    rb_group g[16];
    rb_result *r = (rb_result *)calloc(16, sizeof *r);
    unsigned i, k, try_, starved = 0;
    if (rb_cpu_allowed(0) != 1) SKIP("this process may not run on CPU 0 (or pinning is not supported)");
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.warmup_ns = RB_NONE;
    c.duration_ns = 20000000;
    c.iterations = 3;
    c.threads = 16;
    c.cpus = cpu0;   /* every worker on CPU 0: at most a few of them run in 20 ms */
    c.ncpus = 1;
    /* Whether a thread misses a whole iteration is the scheduler's call: up to 3 tries for one
       that does and says no op outlasted it. A try can also see a thread that ran before the
       middle, began an op and was preempted past the end (beside the other suites, 2026-12-02:
       "completed no op ... its op outlasted the iteration"): the runner cannot tell that from a
       slow op, so that try is retried too; in all 3 it fails. */
    for (try_ = 0; try_ < 3 && r && !starved; try_++) {
        unsigned st = 0, outlasted = 0;
        CHECK(rb_run(&c, rb_strategy_find("null"), r) == RB_OK);
        for (k = 0; k < r[0].nwarnings; k++) {
            if (strstr(r[0].warnings[k], "outlasted") && !outlasted++) printf("    try %u: %s\n", try_ + 1, r[0].warnings[k]);
            st += strstr(r[0].warnings[k], "did not get a CPU") != NULL;
        }
        starved = st == 1 && !outlasted;
    }
    CHECKF(starved == 1, "no try of 3 had threads that did not get a CPU, said, and no op said to outlast (%u warnings)",
           r ? r[0].nwarnings : 0);
    for (i = 0; i < 16; i++) g[i] = group_of("strategy=null,threads=1", i + 1);
    c.threads = 0;
    /* Up to 3 tries here too: a thread that ran before the middle of an iteration, began an op
       and was then preempted past the iteration's end looks like an op that outlasted it (a
       sanitizer build beside the other suites, 2026-12-02: one group of 16, once). */
    for (try_ = 0; try_ < 3 && r; try_++) {
        unsigned slow = 0;
        rb_run_groups(&c, g, 16, RB_ALONE_NO, r);
        for (i = 0; i < 16; i++) {
            slow += strstr(r[i].reason, "takes longer") || strstr(r[i].reason, "outlasted");
            for (k = 0; k < r[i].nwarnings; k++) slow += strstr(r[i].warnings[k], "outlasted") != NULL;
        }
        if (!slow) break;
        fprintf(stderr, "    try %u: %u groups said their op outlasted an iteration: again\n", try_ + 1, slow);
    }
    for (i = 0, starved = 0; r && i < 16; i++) {
        CHECKF(!strstr(r[i].reason, "takes longer") && !strstr(r[i].reason, "outlasted"), "group %u: %s", i + 1, r[i].reason);
        if (r[i].status != RB_OK) {
            CHECKF(strstr(r[i].reason, "did not get a CPU"), "group %u: %s", i + 1, r[i].reason);
            starved++;
        }
        for (k = 0; k < r[i].nwarnings; k++) CHECKF(!strstr(r[i].warnings[k], "outlasted"), "%s", r[i].warnings[k]);
    }
    fprintf(stderr, "    %u of 16 groups never got a CPU in an iteration\n", starved);
    free(r);
}

void suite_group(void)
{
    RUN(group_spec_parses_with_the_run_rules);
    RUN(two_groups_run_together_each_counted);
    RUN(every_format_carries_the_groups);
    RUN(victim_refusals);
    RUN(victim_inside_the_directory_refused);
    RUN(starved_threads_are_not_slow_ops);
    RUN(victim_figures_reported);
    RUN(scan_evicts_search_working_set_in_small_memcg);
}
