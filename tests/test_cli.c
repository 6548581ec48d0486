#define _GNU_SOURCE
#include "readbench.h"
#include "rbtest.h"
#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <errno.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char out[1 << 16], err[8192];
static const char *bin = "";   /* set by have_binary */

static int cli(const char *dir, const char *args)   /* rbt_cli_run, no timeout */
{
    return rbt_cli_run(dir, args, NULL, out, sizeof out, err, sizeof err);
}

static int dir_entries(const char *dir)
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

static int have_binary(void)
{
    const char *p = rbt_cli();
    if (p) bin = p;
    return p != NULL;
}

static void bad_input_exits_2_and_creates_nothing(void)
{
    const char *dir = rbt_path("clean");
    char args[1024];
    const char *f = rbt_small_file();
    const char *cases[] = {
        "--bogus", "--strategies nope", "--strategies pread,,mmap", "--threads 0", "--threads 1,,4",
        "--read-size 16q", "--read-size -1", "--size 99999999999t", "--size 0",
        "--reads-per-op 0", "--iterations 0", "--iterations 101", "--read-size 16m", "--size 1g",
        "--strategies direct --read-size 1000", "--format xml", "--duration 0s", "--duration=10q",
        "--pattern zigzag", "--percentiles 50,,99", "--percentiles 101", "--seed -3",
        "--output out.json --threads 0", "--threads", "extra-arg",
    };
    unsigned i;
    if (!have_binary()) SKIP("../readbench is not built (run make test)");
    CHECK(mkdir(dir, 0755) == 0);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc;
        snprintf(args, sizeof args, "run '%s' %s", f, cases[i]);
        rc = cli(dir, args);
        CHECKF(rc == 2, "'%s' exited %d", cases[i], rc);
        CHECKF(strchr(err, '\n') == err + strlen(err) - 1, "'%s': not one line: %s", cases[i], err);
        CHECKF(strncmp(err, "readbench: ", 11) == 0, "'%s': %s", cases[i], err);
        CHECKF(out[0] == 0, "'%s' wrote to stdout", cases[i]);
    }
    CHECK(dir_entries(dir) == 0);
    CHECK(cli(dir, "setup x.dat 16q") == 2 && dir_entries(dir) == 0);
    CHECK(cli(dir, "setup x.dat") == 2 && dir_entries(dir) == 0);
    CHECK(cli(dir, "setup x.dat 0") == 2 && dir_entries(dir) == 0);
    CHECK(cli(dir, "setup x.dat 1m --frob") == 2 && dir_entries(dir) == 0);
}

static void missing_or_small_file_says_how_to_make_it(void)
{
    char args[1024];
    if (!have_binary()) SKIP("../readbench is not built (run make test)");
    CHECK(cli(rbt_tmpdir(), "run missing.dat") == 2);
    CHECKF(strstr(err, "readbench setup missing.dat 1g") != NULL, "%s", err);
    snprintf(args, sizeof args, "run '%s' --size 64m", rbt_small_file());
    CHECK(cli(rbt_tmpdir(), args) == 2);
    CHECKF(strstr(err, "64m --force") != NULL, "%s", err);
}

static void setup_refuses_existing_file(void)
{
    const char *p = rbt_path("cli.dat");
    char args[1024];
    struct stat a, b;
    if (!have_binary()) SKIP("../readbench is not built (run make test)");
    snprintf(args, sizeof args, "setup '%s' 1m", p);
    CHECK(cli(rbt_tmpdir(), args) == 0);
    CHECK(stat(p, &a) == 0 && a.st_size == (1 << 20));
    snprintf(args, sizeof args, "setup '%s' 2m", p);
    CHECK(cli(rbt_tmpdir(), args) == 2);
    CHECK(strstr(err, "--force") != NULL);
    CHECK(stat(p, &b) == 0 && b.st_size == (1 << 20) && b.st_mtime == a.st_mtime);
    snprintf(args, sizeof args, "setup '%s' 2m --force", p);
    CHECK(cli(rbt_tmpdir(), args) == 0);
    CHECK(stat(p, &b) == 0 && b.st_size == (2 << 20));
    snprintf(args, sizeof args, "run '%s' --strategies pread,mmap --threads 1 --duration 20ms --warmup 0 "
                                "--iterations 1 --verify --quiet", p);
    CHECK(cli(rbt_tmpdir(), args) == 0);
    CHECK(strstr(out, "pread") != NULL && strstr(out, "T01") != NULL);
}

static int have_python(void) { return rbt_have_python("json, csv"); }

/* JSON: one document, a real parser accepts it, every strategy present, unsupported ones
   with status and reason. */
static void json_parses_and_keeps_unsupported_rows(void)
{
    char args[2048], py[2048];
    const char *j = rbt_path("r.json");
    if (!have_binary()) SKIP("../readbench is not built (run make test)");
    if (!have_python()) SKIP("python3 is not installed: no JSON parser to check with");
    snprintf(args, sizeof args, "run '%s' --threads 1,2 --read-size 1000 --duration 20ms --warmup 0 "
             "--iterations 2 --format json --percentiles 50,99.99 --quiet > '%s'", rbt_small_file(), j);
    CHECK(cli(rbt_tmpdir(), args) == 0);
    snprintf(py, sizeof py,
             "python3 -c '\n"
             "import json,sys\n"
             "d=json.load(open(\"%s\"))\n"
             "assert d[\"readbench\"] and d[\"env\"][\"page_size\"]>0 and d[\"config\"][\"threads\"]==[1,2]\n"
             "names={r[\"strategy\"] for r in d[\"results\"]}\n"
             "assert \"direct\" in names and \"null\" in names and len(d[\"results\"])==2*len(d[\"config\"][\"strategies\"])\n"
             "for r in d[\"results\"]:\n"
             "  assert r[\"status\"] in (\"ok\",\"unsupported\",\"error\")\n"
             "  if r[\"strategy\"]==\"direct\": assert r[\"status\"]==\"unsupported\" and \"page\" in r[\"reason\"]\n"
             "  if r[\"status\"]==\"ok\":\n"
             "    l=r[\"lat_ns\"]; ks=[\"min\",\"p50\",\"p90\",\"p99\",\"p99.9\",\"p99.99\",\"max\"]\n"
             "    vs=[l[k] for k in ks if l[k] is not None]\n"   /* null: too few ops for that percentile */
             "    assert all(a<=b for a,b in zip(vs,vs[1:])), l\n"
             "    assert len(r[\"iterations\"])==2 and r[\"ops_per_ms\"]>0 and r[\"madvise\"][\"failed\"]==0\n"
             "    assert isinstance(r[\"iops\"],(int,float)) and r[\"bytes_per_sec\"]>0\n"
             "'", j);
    CHECK(system(py) == 0);
}

static void csv_columns_are_constant(void)
{
    char args[2048], *line;
    int cols = -1, ok = 1, rows = 0;
    if (!have_binary()) SKIP("../readbench is not built (run make test)");
    snprintf(args, sizeof args, "run '%s' --threads 1 --read-size 1000 --duration 20ms --warmup 0 "
             "--iterations 2 --format csv --quiet", rbt_small_file());
    CHECK(cli(rbt_tmpdir(), args) == 0);
    for (line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
        int n = 1, q = 0;
        char *c;
        for (c = line; *c; c++) {
            if (*c == '"') q = !q;
            else if (*c == ',' && !q) n++;
        }
        if (cols < 0) cols = n;
        else ok &= n == cols;
        rows++;
    }
    CHECK(ok && cols > 20);
    {   /* a header and a row per strategy of the table */
        unsigned ns;
        rb_strategies(&ns);
        CHECKF(rows == 1 + (int)ns, "%d rows for %u strategies", rows, ns);
    }
}

static void help_version_list(void)
{
    if (!have_binary()) SKIP("../readbench is not built (run make test)");
    CHECK(cli(rbt_tmpdir(), "--help") == 0 && strstr(out, "--read-size") != NULL);
    CHECK(cli(rbt_tmpdir(), "--version") == 0 && strstr(out, RB_VERSION) != NULL);
    {   /* the header's first line names the version RB_VERSION is (they had parted: v0.2.0, 0.1.0) */
        char first[256] = "", want[64];
        FILE *h = fopen("../readbench.h", "r");
        CHECKF(h != NULL, "../readbench.h: %s", strerror(errno));
        if (h) {
            CHECK(fgets(first, sizeof first, h) != NULL);
            fclose(h);
        }
        snprintf(want, sizeof want, " - v%s - ", RB_VERSION);
        CHECKF(strstr(first, want) != NULL, "first line '%s' lacks '%s'", first, want);
    }
    CHECK(cli(rbt_tmpdir(), "list") == 0);
    CHECK(strstr(out, "mmap-random-willneed") && strstr(out, "io_uring-direct") && strstr(out, "null"));
    CHECK(dir_entries(rbt_tmpdir()) >= 0 && access(rbt_path(".readbench-probe"), F_OK) != 0);
}

/* The table and the markdown show the same numbers, from the same results. */
static rb_result rs[4];

static void numbers_of(FILE *f, char *buf, size_t len)
{
    size_t n = 0;
    int c, prev = ' ';
    rewind(f);
    while ((c = fgetc(f)) != EOF && n + 1 < len) {
        if ((c >= '0' && c <= '9') || c == '.') buf[n++] = (char)c;
        else if (prev >= '0' && prev <= '9') buf[n++] = ' ';
        prev = c;
    }
    buf[n] = 0;
}

static void markdown_and_table_agree(void)
{
    static char a[1 << 15], b[1 << 15];
    const char *names[] = {"pread", "mmap"};
    unsigned threads[] = {1, 2}, i;
    uint64_t sizes[] = {4096};
    rb_report r;
    rb_config c;
    FILE *t = tmpfile(), *m = tmpfile();
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.warmup_ns = RB_NONE;
    c.duration_ns = 20000000;
    c.iterations = 1;
    c.read_size = 4096;
    for (i = 0; i < 4; i++) {
        c.threads = threads[i % 2];
        rb_run(&c, rb_strategy_find(names[i / 2]), &rs[i]);
        CHECK(rs[i].status == RB_OK);
    }
    memset(&r, 0, sizeof r);
    r.results = rs; r.count = 4; r.cfg = &c;
    r.strategies = names; r.nstrategies = 2;
    r.threads = threads; r.nthreads = 2;
    r.read_sizes = sizes; r.nread_sizes = 1;
    CHECK(t && m);
    if (!t || !m) return;
    rb_report_table(t, &r, 0);
    rb_report_table(m, &r, 1);
    numbers_of(t, a, sizeof a);
    numbers_of(m, b, sizeof b);
    CHECKF(strcmp(a, b) == 0, "\n%s\n%s", a, b);
    rewind(m);
    CHECK(fread(b, 1, sizeof b - 1, m) > 0 && strstr(b, "| strategy | T01 | T02 |") != NULL);
    fclose(t);
    fclose(m);
}

static void drop_and_residency_commands(void)
{
    char args[1024];
    const char *f = rbt_small_file();
    if (!have_binary()) SKIP("../readbench is not built (run make test)");
    snprintf(args, sizeof args, "drop '%s'", f);
    CHECK(cli(rbt_tmpdir(), args) == 0);
    CHECKF(strstr(out, "evicted; 0 of 2048 pages cached") != NULL, "%s", out);
    snprintf(args, sizeof args, "residency '%s'", f);
    CHECK(cli(rbt_tmpdir(), args) == 0);
    CHECKF(strstr(out, "0 of 2048 pages cached") != NULL, "%s", out);
    CHECK(cli(rbt_tmpdir(), "drop missing.dat") == 2);
    CHECK(cli(rbt_tmpdir(), "residency missing.dat") == 2);
    snprintf(args, sizeof args, "run '%s' --strategies pread --threads 1 --duration 20ms --warmup 0 --iterations 1 "
             "--prewarm 0.5 --quiet --format csv", f);
    CHECK(cli(rbt_tmpdir(), args) == 0);
    /* an absurd thread count is capped with a message (checked at parse time: a missing file
       then ends the run before 1024 threads start, which under a sanitizer would take minutes) */
    CHECK(cli(rbt_tmpdir(), "run missing.dat --threads 99999") == 2);
    CHECK(strstr(err, "capped at 1024") != NULL && strstr(err, "readbench setup missing.dat") != NULL);
    CHECK(cli(rbt_tmpdir(), "run x --prewarm 1.5") == 2);
    CHECK(cli(rbt_tmpdir(), "run x --cache sometimes") == 2);
    CHECK(cli(rbt_tmpdir(), "run x --scenario lukewarm") == 2);
    snprintf(args, sizeof args, "run '%s' --hog 12q", f);
    CHECK(cli(rbt_tmpdir(), args) == 2);
    CHECK(strstr(err, "--hog: a size of 1 byte or more") != NULL);
}

/* SIGINT in the middle of a run: the finished cells are printed as a valid JSON document
   with the unfinished cell marked, and the exit status is 130; in setup, the partial file
   is removed. */
static void interrupted_run_and_setup(void)
{
    char args[2048], e2[600];
    const char *j = rbt_path("int.json"), *big = rbt_path("int.dat"), *ef = rbt_path("int.err");
    struct stat st;
    FILE *f;
    size_t n;
    if (!have_binary()) SKIP("../readbench is not built (run make test)");
    snprintf(args, sizeof args, "run '%s' --strategies null,pread,mmap,read,mmap-random,mmap-sequential --threads 1 --warmup 0 "
             "--duration 300ms --iterations 1 --format json --quiet > '%s' 2>'%s' & p=$!; sleep 1; kill -INT $p; "
             "wait $p; echo rc=$?", rbt_small_file(), j, ef);
    CHECK(cli(rbt_tmpdir(), args) == 0);
    CHECKF(strstr(out, "rc=130") != NULL, "%s", out);
    f = fopen(ef, "r");
    n = f ? fread(e2, 1, sizeof e2 - 1, f) : 0;
    e2[n] = 0;
    if (f) fclose(f);
    CHECKF(strstr(e2, "interrupted") != NULL, "%s", e2);
    if (have_python()) {
        snprintf(args, sizeof args, "python3 -c 'import json; d=json.load(open(\"%s\")); r=d[\"results\"]; "
                 "s=[x[\"status\"] for x in r]; k=len([x for x in s if x==\"ok\"]); "
                 "assert k<6 and s[:k]==[\"ok\"]*k and s[k] in (\"interrupted\",\"not run\") "
                 "and s[k+1:]==[\"not run\"]*(5-k) and len(r)==6, r'", j);
        CHECK(system(args) == 0);
    }
    snprintf(args, sizeof args, "setup '%s' 8g 2>'%s' & p=$!; sleep 0.5; kill -INT $p; wait $p; echo rc=$?", big, ef);
    CHECK(cli(rbt_tmpdir(), args) == 0);
    CHECKF(strstr(out, "rc=130") != NULL, "%s", out);
    CHECK(stat(big, &st) != 0 && errno == ENOENT);
    f = fopen(ef, "r");
    n = f ? fread(e2, 1, sizeof e2 - 1, f) : 0;
    e2[n] = 0;
    if (f) fclose(f);
    CHECKF(strstr(e2, "partial file removed") != NULL, "%s", e2);
}

/* The rows of README's "Errors" table that the other tests do not already cover. */
static void errors_table_rows(void)
{
    char args[1024];
    const char *empty = rbt_path("empty.dat");
    FILE *f = fopen(empty, "w");
    if (!have_binary()) SKIP("../readbench is not built (run make test)");
    if (f) fclose(f);
    /* a directory with no file to read (one with files is read as its files: test_files.c) */
    CHECK(mkdir(rbt_path("errors-empty-dir"), 0755) == 0);
    snprintf(args, sizeof args, "run '%s'", rbt_path("errors-empty-dir"));
    CHECK(cli(rbt_tmpdir(), args) == 2 && strstr(err, "not a regular file") != NULL);
    /* an empty file */
    snprintf(args, sizeof args, "run '%s'", empty);
    CHECK(cli(rbt_tmpdir(), args) == 2 && strstr(err, "readbench setup") != NULL);
    /* drop_caches without root, or all caches without a file */
    if (!rbt_is_root()) CHECK(cli(rbt_tmpdir(), "drop") == 1 && strstr(err, "readbench drop FILE") != NULL);
    /* as an ordinary user (root drops to nobody where it can) */
    if (rbt_is_root() && system("command -v setpriv >/dev/null 2>&1") == 0) {
        int st;
        snprintf(args, sizeof args, "cd / && setpriv --reuid=65534 --regid=65534 --clear-groups '%s' drop "
                 "2>&1 | grep -q 'readbench drop FILE'", bin);
        st = system(args);   /* dropping every cache needs root: exit 1, pointing to per-file eviction */
        CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 0, "drop as nobody: %d", st);
        snprintf(args, sizeof args, "cd / && setpriv --reuid=65534 --regid=65534 --clear-groups '%s' drop; "
                 "test $? -eq 1", bin);
        CHECK(system(args) == 0);
        /* mlock refused by RLIMIT_MEMLOCK: with no swap the hog is touched and says so; a build
           that cannot see the swap (portable mode) refuses, naming `ulimit -l` */
        int asan = 0;   /* AddressSanitizer turns mlock into a no-op that succeeds */
#if defined(__SANITIZE_ADDRESS__)
        asan = 1;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
        asan = 1;
#endif
#endif
        if (!asan && system("grep -q '^SwapTotal: *0 kB' /proc/meminfo") == 0 && chmod(rbt_tmpdir(), 0755) == 0) {
            snprintf(args, sizeof args, "cd / && ulimit -l 8192 && setpriv --reuid=65534 --regid=65534 --clear-groups "
                     "'%s' run '%s' --strategies null --threads 1 --hog 64m --duration 10ms --warmup 0 --iterations 1 "
                     "--quiet 2>&1 >/dev/null | grep -q -e 'mlock refused' -e 'ulimit -l'", bin, rbt_small_file());
            CHECK(system(args) == 0);
        }
    }
    /* --prewarm that cannot happen: another process maps the whole file, so nothing is evicted:
       the cell fails (exit 1), its reason in the report */
    {
        int fd = open(rbt_small_file(), O_RDONLY);
        unsigned char *m = fd >= 0 ? (unsigned char *)mmap(NULL, 8u << 20, PROT_READ, MAP_SHARED, fd, 0) : NULL;
        volatile unsigned char t = 0;
        size_t k;
        CHECK(m && m != (unsigned char *)MAP_FAILED);
        if (m && m != (unsigned char *)MAP_FAILED) {
            for (k = 0; k < (8u << 20); k += 4096) t += m[k];
            /* a result, not chatter: in the report, --quiet or not */
            snprintf(args, sizeof args, "run '%s' --strategies pread --threads 1 --prewarm 0.5 --duration 10ms "
                     "--warmup 0 --iterations 1 --quiet", rbt_small_file());
            CHECK(cli(rbt_tmpdir(), args) == 1);
            CHECKF(strstr(out, "a prewarm of 0.50 did not happen: 100.0%") != NULL, "%s", out);
            munmap(m, 8u << 20);
        }
        if (fd >= 0) close(fd);
        (void)t;
    }
    /* an unreadable file: root reads everything, so drop to nobody where we can */
    if (rbt_is_root() && system("command -v setpriv >/dev/null 2>&1") == 0) {
        const char *secret = rbt_path("secret.dat");
        rb_error e;
        CHECK(rb_setup_file(secret, 1 << 20, 0, 1, NULL, NULL, &e) == RB_OK && chmod(secret, 0600) == 0);
        CHECK(chmod(rbt_tmpdir(), 0755) == 0);
        snprintf(args, sizeof args, "cd / && setpriv --reuid=65534 --regid=65534 --clear-groups '%s' run '%s' "
                 "2>/dev/null", bin, secret);
        {
            int st = system(args);
            CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 2, "unreadable file: status %d", st);
        }
    }
}

static void filesystem_refusing_o_direct(void)
{
    const char *dir = rbt_path("ramfs"), *p = rbt_path("ramfs/f.dat");
    rb_error e;
    rb_config c;
    rb_result r;
    if (!rbt_is_root()) SKIP("needs root to mount ramfs");
    CHECK(mkdir(dir, 0755) == 0);
    if (mount("ramfs", dir, "ramfs", 0, NULL) != 0) SKIP("cannot mount ramfs here");
    CHECK(rb_setup_file(p, 1 << 20, 0, 1, NULL, NULL, &e) == RB_OK);
    memset(&c, 0, sizeof c);
    c.path = p;
    c.read_size = 4096;
    c.warmup_ns = RB_NONE;
    c.duration_ns = 20000000;
    c.iterations = 1;
    rb_run(&c, rb_strategy_find("direct"), &r);
    if (r.status == RB_OK) fprintf(stderr, "    this kernel's ramfs accepts O_DIRECT\n");
    else CHECKF(r.status == RB_UNSUPPORTED && strstr(r.reason, "O_DIRECT"), "%d %s", r.status, r.reason);
    CHECK(rb_run(&c, rb_strategy_find("pread"), &r) == RB_OK);   /* the rest still run */
    CHECK(umount(dir) == 0);
}

static void io_uring_disabled(void)
{
    FILE *f = fopen("/proc/sys/kernel/io_uring_disabled", "r+");
    int old = -1;
    rb_config c;
    rb_result r;
    char why[256];
    if (!f) SKIP("no /proc/sys/kernel/io_uring_disabled (kernel before 6.6, or not Linux)");
    if (fscanf(f, "%d", &old) != 1 || !rbt_is_root()) { fclose(f); SKIP("needs root to disable io_uring"); }
    fclose(f);
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    if (rb_strategy_probe(rb_strategy_find("io_uring"), &c, why, sizeof why) != RB_OK) SKIP(why);
    CHECK(system("echo 2 > /proc/sys/kernel/io_uring_disabled") == 0);
    c.warmup_ns = RB_NONE;
    c.duration_ns = 20000000;
    c.iterations = 1;
    rb_run(&c, rb_strategy_find("io_uring"), &r);
    CHECKF(r.status == RB_UNSUPPORTED && strstr(r.reason, "io_uring_queue_init"), "%d %s", r.status, r.reason);
    snprintf(why, sizeof why, "echo %d > /proc/sys/kernel/io_uring_disabled", old);
    CHECK(system(why) == 0);
}


/* ---- issue 12, structure: the presets, the settings' rules and the run's summary are the
   header's (flag-free); the CLI has one option parser for every command ---- */

/* Every preset resolves by name and makes the state it names, with no warmup (a warmup would
   change that state); an unknown name fails, listing the table's names; no text names a flag. */
static void scenarios_are_a_flag_free_table(void)
{
    static const char *const names[] = {"warm", "pressure", "half-cold", "cold", "sequential-cold"};
    char why[RB_REASON_LEN];
    unsigned n, i;
    const rb_scenario *t = rb_scenarios(&n);
    static rb_settings s;
    CHECK(t && n >= sizeof names / sizeof names[0]);
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        const rb_scenario *sc = rb_scenario_find(names[i]);
        CHECKF(sc && !strcmp(sc->name, names[i]), "%s", names[i]);
        memset(&s, 0, sizeof s);
        s.cfg.warmup_ns = 5000000;
        CHECKF(rb_settings_set(&s, "scenario", names[i], "--scenario", why, sizeof why) == RB_OK && s.scenario == sc &&
               !why[0], "%s: %s", names[i], why);
        CHECKF(s.cfg.warmup_ns == RB_NONE, "%s keeps a warmup", names[i]);
    }
    for (i = 0; i < n; i++)
        CHECKF(!strstr(t[i].name, "--") && !(t[i].note && strstr(t[i].note, "--")) && !(t[i].hog && strstr(t[i].hog, "--")),
               "scenario %s names a flag", t[i].name);
    memset(&s, 0, sizeof s);
    rb_settings_set(&s, "scenario", "warm", NULL, why, sizeof why);
    CHECK(s.cfg.prewarm == 1 && s.cfg.cache == RB_CACHE_KEEP && !s.hog);
    rb_settings_set(&s, "scenario", "half-cold", NULL, why, sizeof why);
    CHECK(s.cfg.prewarm == 0.5);
    memset(&s, 0, sizeof s);
    rb_settings_set(&s, "scenario", "pressure", NULL, why, sizeof why);
    CHECK(s.cfg.prewarm == 1 && s.hog && !strcmp(s.hog, "auto:1.2"));
    memset(&s, 0, sizeof s);
    rb_settings_set(&s, "scenario", "sequential-cold", NULL, why, sizeof why);
    CHECK(s.cfg.cache == RB_CACHE_EVICT_EACH && s.cfg.pattern == RB_SEQUENTIAL);
    CHECK(rb_settings_set(&s, "pattern", "random", NULL, why, sizeof why) == RB_OK && s.cfg.pattern == RB_RANDOM);
    CHECK(rb_scenario_find("lukewarm") == NULL && rb_scenario_find("") == NULL && rb_scenario_find(NULL) == NULL);
    CHECK(rb_settings_set(&s, "scenario", "lukewarm", "--scenario", why, sizeof why) == RB_EINVAL);
    CHECKF(!strcmp(why, "scenario must be warm, pressure, half-cold, cold or sequential-cold, not 'lukewarm'") ||
           (strstr(why, "warm, pressure, half-cold, cold") && strstr(why, "not 'lukewarm'")), "%s", why);
}

/* The line that says what a scenario set says what the settings are: a setting given after
   the scenario replaces its own, and `--scenario pressure --hog 64m` said it set --hog auto:1.2
   (the file 1.2x the memory left) while it pinned 64 MiB. The note goes with a replacement. */
static void scenario_line_says_what_it_does(void)
{
    static const struct { const char *key[3], *value[3], *want; } cases[] = {
        {{"scenario"}, {"pressure"}, "readbench: scenario pressure sets --hog auto:1.2 --prewarm 1 --warmup 0 (the file "
         "is 1.2x the memory left; the cache keeps what fits)\n"},
        {{"scenario", "hog"}, {"pressure", "64m"}, "readbench: scenario pressure sets --prewarm 1 --warmup 0; --hog 64m, "
         "given after it, replaces its --hog auto:1.2\n"},
        {{"hog", "scenario"}, {"64m", "pressure"}, "readbench: scenario pressure sets --hog auto:1.2 --prewarm 1 "
         "--warmup 0 (the file is 1.2x the memory left; the cache keeps what fits)\n"},
        {{"scenario", "warmup"}, {"cold", "5ms"}, "readbench: scenario cold sets --cache evict-each; --warmup 5ms, given "
         "after it, replaces its --warmup 0\n"},
        {{"scenario", "pattern", "prewarm"}, {"sequential-cold", "zipf:1.2", "0.3"}, "readbench: scenario "
         "sequential-cold sets --cache evict-each --warmup 0; --pattern zipf:1.2, given after it, replaces its "
         "--pattern sequential\n"},
    };
    static rb_settings st;
    char why[RB_REASON_LEN], *buf;
    size_t len;
    unsigned i, k;
    FILE *f;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memset(&st, 0, sizeof st);
        for (k = 0; k < 3 && cases[i].key[k]; k++)
            CHECK(rb_settings_set(&st, cases[i].key[k], cases[i].value[k], NULL, why, sizeof why) == RB_OK);
        buf = NULL;
        len = 0;
        f = open_memstream(&buf, &len);
        if (!f) { CHECK(f != NULL); return; }
        rb_report_scenario(f, &st, "--");
        fclose(f);
        CHECKF(!strcmp(buf, cases[i].want), "case %u: %s", i, buf);
        free(buf);
    }
    if (!have_binary()) SKIP("../readbench is not built (run make test)");
    {   /* the CLI says it; with only 4 MiB pinned the 8 MiB file fits, so the pressure cell fails and says why */
        char args[1024];
        snprintf(args, sizeof args, "run '%s' --strategies pread --threads 1 --duration 10ms --iterations 1 --quiet "
                 "--scenario pressure --hog 4m", rbt_small_file());
        int rc = cli(rbt_tmpdir(), args);
        CHECKF(strstr(err, "readbench: scenario pressure sets --prewarm 1 --warmup 0; --hog 4m, given after it, replaces "
               "its --hog auto:1.2\n") && !strstr(err, "1.2x the memory left"), "%s", err);
        if (strstr(err, "cannot lock")) SKIP("mlock refused and there is swap: no hog, so no pressure cell to fail");
        CHECKF(rc == 1 && strstr(out, "memory pressure was asked for, but 100.0%"), "exit %d: %s%s", rc, err, out);
    }
}

/* The settings' rules, said once in the header with the caller's name for the setting. */
static void settings_check_values_in_the_callers_words(void)
{
    static rb_settings s;
    rb_pfx_settings p;
    rb_matrix m;
    char why[RB_REASON_LEN];
    memset(&s, 0, sizeof s);
    memset(&p, 0, sizeof p);
    CHECK(rb_settings_set(&s, "iterations", "101", "--iterations", why, sizeof why) == RB_EINVAL);
    CHECKF(!strcmp(why, "--iterations must be 1..100: '101'"), "%s", why);
    CHECK(rb_settings_set(&s, "iterations", "0", NULL, why, sizeof why) == RB_EINVAL);
    CHECKF(!strcmp(why, "iterations must be 1..100: '0'"), "%s", why);   /* no flag of the library's own */
    CHECK(rb_settings_set(&s, "duration", "0.5ms", "--duration", why, sizeof why) == RB_EINVAL && strstr(why, "at least 1ms"));
    CHECK(rb_settings_set(&s, "duration", "99999999999h", "--duration", why, sizeof why) == RB_EINVAL &&
          !strcmp(why, "--duration is too large: '99999999999h'"));
    CHECK(rb_settings_set(&s, "warmup", "0", NULL, why, sizeof why) == RB_OK && s.cfg.warmup_ns == RB_NONE);
    CHECK(rb_settings_set(&s, "prewarm", "0", NULL, why, sizeof why) == RB_OK && s.cfg.cache == RB_CACHE_EVICT);
    CHECK(rb_settings_set(&s, "prewarm", "1.5", "--prewarm", why, sizeof why) == RB_EINVAL && strstr(why, "--prewarm needs"));
    CHECK(rb_settings_set(&s, "align", "3000", "--align", why, sizeof why) == RB_EINVAL && strstr(why, "power of two"));
    CHECK(rb_settings_set(&s, "cache", "sometimes", "--cache", why, sizeof why) == RB_EINVAL &&
          !strcmp(why, "--cache must be keep, evict or evict-each, not 'sometimes'"));
    CHECK(rb_settings_set(&s, "threads", "1,2000", "--threads", why, sizeof why) == RB_OK && strstr(why, "capped at 1024") &&
          s.nthreads == 2 && s.threads[1] == RB_MAX_THREADS);
    CHECK(rb_settings_set(&s, "threads", "0", "--threads", why, sizeof why) == RB_EINVAL);
    CHECK(rb_settings_set(&s, "read-size", "2g", "--read-size", why, sizeof why) == RB_EINVAL && strstr(why, "1 GiB"));
    CHECK(rb_settings_set(&s, "strategies", "pread,,mmap", NULL, why, sizeof why) == RB_EINVAL && strstr(why, "malformed"));
    CHECK(rb_settings_set(&s, "strategies", "pread,", NULL, why, sizeof why) == RB_EINVAL && strstr(why, "malformed"));
    CHECK(rb_settings_set(&s, "strategies", "nope", NULL, why, sizeof why) == RB_EINVAL && !strcmp(why, "unknown strategy 'nope'"));
    CHECK(rb_settings_set(&s, "strategies", "pread,mmap", NULL, why, sizeof why) == RB_OK && s.nstrategies == 2);
    CHECK(rb_settings_set(&s, "strategies", "all", NULL, why, sizeof why) == RB_OK && s.nstrategies == 0);
    CHECK(rb_settings_set(&s, "seed", "0x10", NULL, why, sizeof why) == RB_EINVAL && strstr(why, "decimal"));
    CHECK(rb_settings_set(&s, "hog", "", "--hog", why, sizeof why) == RB_EINVAL && !strcmp(why, "--hog needs a size"));
    CHECK(rb_settings_set(&s, "frobnicate", "1", NULL, why, sizeof why) == RB_EINVAL && strstr(why, "frobnicate"));
    memset(&s, 0, sizeof s);
    rb_settings_matrix(&s, &m);   /* the defaults: every strategy, threads 1,4,8,16, 16 KiB */
    CHECK(!m.strategies && m.nthreads == 4 && m.threads[3] == 16 && m.nread_sizes == 1 && m.read_sizes[0] == 16384);
    CHECK(rb_pfx_settings_set(&p, "threads", "0", "--threads", why, sizeof why) == RB_EINVAL &&
          !strcmp(why, "--threads must be 1..1024: '0'"));
    CHECK(rb_pfx_settings_set(&p, "advice", "normal", "--advice", why, sizeof why) == RB_OK && p.cfg.normal_mapping == 1);
    CHECK(rb_pfx_settings_set(&p, "policies", "always,always", "--policies", why, sizeof why) == RB_EINVAL &&
          strstr(why, "--policies: each of always, backoff,"));
    CHECK(rb_probe_case_find("pread", why, sizeof why) == 12 && rb_probe_case_find("3", why, sizeof why) == 3);
    CHECK(rb_probe_case_find("12", why, sizeof why) == 0 && strstr(why, "no probe case '12' (1..11, pread,"));
}

/* The settings table is the CLI's options and its help: every key in it is one rb_settings_set
   takes (an unknown key says "no setting"), each documented; advise's keys check their values. */
static void every_setting_is_documented_and_taken(void)
{
    static rb_settings s;
    rb_advise_config ac;
    char why[RB_REASON_LEN];
    unsigned i, n;
    const rb_setting_doc *d = rb_settings_docs(&n);
    for (i = 0; i < n; i++) {
        memset(&s, 0, sizeof s);
        rb_settings_set(&s, d[i].key, "", NULL, why, sizeof why);
        CHECKF(!strstr(why, "no setting") && d[i].help[0] && d[i].uses && rb_settings_doc_find(d[i].key) == &d[i],
               "%s: %s", d[i].key, why);
        if (have_binary() && i == 0) CHECK(cli(rbt_tmpdir(), "--help") == 0);
        if (have_binary()) {
            char flag[64];
            snprintf(flag, sizeof flag, "  --%s %s", d[i].key, d[i].value);
            CHECKF(strstr(out, flag) != NULL, "--help lacks '%s'", flag);
            snprintf(flag, sizeof flag, ", --%s", d[i].key);   /* "each at most once, --group excepted" */
            CHECKF(!d[i].repeats || (strstr(out, flag) && strstr(out, " excepted;")), "--help: %s repeats", d[i].key);
        }
    }
    CHECK(rb_settings_doc_find("frobnicate") == NULL && rb_settings_doc_find("budget")->uses == RB_FOR_ADVISE);
    CHECK(rb_settings_doc_find("group")->repeats && !rb_settings_doc_find("threads")->repeats);
    memset(&s, 0, sizeof s);
    CHECK(rb_settings_set(&s, "budget", "500ms", "--budget", why, sizeof why) == RB_EINVAL && strstr(why, "--budget must be at least 1s"));
    CHECK(rb_settings_set(&s, "budget", "soon", "--budget", why, sizeof why) == RB_EINVAL && strstr(why, "malformed duration"));
    CHECK(rb_settings_set(&s, "states", "warm,warm", "--states", why, sizeof why) == RB_EINVAL && strstr(why, "--states takes"));
    CHECK(rb_settings_set(&s, "states", "cold,warm", NULL, why, sizeof why) == RB_OK && s.nstates == 2 && s.states[0] == RB_STATE_COLD);
    CHECK(rb_settings_set(&s, "budget", "90s", NULL, why, sizeof why) == RB_OK && s.budget_ns == (int64_t)90 * 1000000000);
    CHECK(rb_settings_advise(&s, &ac, why, sizeof why) == RB_OK && ac.nstates == 2 && ac.states == s.states &&
          ac.budget_ns == s.budget_ns && !ac.strategies && !ac.threads && ac.cfg.read_size == 0);
    CHECK(rb_settings_set(&s, "read-size", "4k,16k", NULL, why, sizeof why) == RB_OK);
    CHECK(rb_settings_advise(&s, &ac, why, sizeof why) == RB_EINVAL && strstr(why, "one read size"));
    if (have_binary()) {
        CHECK(cli(rbt_tmpdir(), "advise x --budget 0.5s") == 2 && strstr(err, "--budget must be at least 1s"));
        CHECK(cli(rbt_tmpdir(), "run x --budget 5s") == 2 && strstr(err, "unknown option '--budget'"));
        CHECK(cli(rbt_tmpdir(), "run x --verify=1") == 2 && strstr(err, "--verify is a switch and takes no value"));
    }
}

/* The CLI's parser reads the settings' table too: each setting is taken by the commands its row
   names (RB_FOR_* of the command) and unknown to the others (unless one has an option of that
   name: prefetch's --threads); a switch refuses a value and, like every setting but --group, a
   second giving. Nothing here reaches a run: FILE is x, which is missing. The parser is one loop
   over the table, so each setting is tried on one command that takes it and one that does not,
   the commands taken in turn, and each command on one setting it takes and one it does not:
   every row and every column both ways. Every pair was 1,400 runs of the CLI, 6.3 s of CPU. */
static void setting_tried(const rb_setting_doc *d, const rb_command_doc *cd, char *args, size_t al)
{
    char want[128];
    int taken = (d->uses & cd->settings) != 0, rc;
    snprintf(args, al, "%s x --%s%s", cd->name, d->key, d->value[0] ? "=zzz" : "");
    rc = cli(rbt_tmpdir(), args);
    CHECKF(rc == 2 && (strstr(err, "unknown option") == NULL) == taken, "'%s': exit %d, %s", args, rc, err);
    if (!taken || d->value[0]) return;
    snprintf(args, al, "%s x --%s=1", cd->name, d->key);
    snprintf(want, sizeof want, "readbench: --%s is a switch and takes no value: '--%s=1'", d->key, d->key);
    CHECKF(cli(rbt_tmpdir(), args) == 2 && !strncmp(err, want, strlen(want)), "'%s': %s", args, err);
    snprintf(args, al, "%s x --%s --%s", cd->name, d->key, d->key);
    snprintf(want, sizeof want, "readbench: --%s is given twice", d->key);
    CHECKF(cli(rbt_tmpdir(), args) == 2 && !strncmp(err, want, strlen(want)), "'%s': %s", args, err);
}

static void every_setting_is_taken_where_its_row_says(void)
{
    unsigned i, j, k, n, nc, tries = 0;
    const rb_setting_doc *d = rb_settings_docs(&n);
    const rb_command_doc *cd = rb_command_docs(&nc);
    unsigned char col[64][2];   /* command j tried on a setting it takes [1], does not take [0] */
    char args[256];
    if (!have_binary()) SKIP("../readbench is not built (run make test)");
    CHECK(nc <= 64);
    memset(col, 0, sizeof col);
    for (i = 0; i < n; i++)
        for (k = 0; k < 2; k++)   /* k 1: a command that takes it; 0: one that does not */
            for (j = 0; j < nc && nc <= 64; j++) {
                unsigned c = (i + j) % nc;   /* the commands in turn */
                int taken = (d[i].uses & cd[c].settings) != 0;
                if (taken != (int)k || (!taken && rb_option_doc_find(d[i].key, cd[c].cmd))) continue;
                setting_tried(&d[i], &cd[c], args, sizeof args);
                col[c][k] = 1;
                tries++;
                break;
            }
    for (j = 0; j < nc && nc <= 64; j++)   /* a column the turns missed */
        for (k = 0; k < 2; k++)
            for (i = 0; i < n && !col[j][k]; i++) {
                int taken = (d[i].uses & cd[j].settings) != 0;
                if (taken != (int)k || (!taken && rb_option_doc_find(d[i].key, cd[j].cmd))) continue;
                setting_tried(&d[i], &cd[j], args, sizeof args);
                col[j][k] = 1;
                tries++;
            }
    CHECKF(tries >= n, "%u settings, %u tried", n, tries);
}

/* How a run ended and what the chart is titled: the header's words, the CLI's hint appended. */
static void summary_title_and_setup_lines(void)
{
    static rb_settings s;
    static rb_result r[4];
    rb_report rep;
    char buf[512];
    FILE *f = tmpfile();
    size_t n;
    memset(r, 0, sizeof r);
    memset(&rep, 0, sizeof rep);
    r[0].status = RB_OK; r[0].min_thread_ops = 5;
    r[1].status = RB_UNSUPPORTED;
    r[2].status = RB_ESYS;
    r[3].status = RB_ENOTRUN;
    rep.results = r;
    rep.count = 4;
    CHECK(f != NULL);
    if (!f) return;
    CHECK(rb_report_summary(f, &rep, 0, "HINT") == 1);
    CHECK(rb_report_summary(f, &rep, 1, NULL) == 1);
    rb_report_setup_progress(f, 1u << 20, 2u << 20, 0);
    rb_report_setup_progress(f, 2u << 20, 2u << 20, 0);
    rewind(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    CHECKF(!strcmp(buf, "readbench: 1 cell failed (see above)\n"
                        "readbench: 1 cell had a thread with fewer than 20 ops in an iteration (see the warnings): HINT\n"
                        "readbench: interrupted: 3 of 4 cells finished; the others are marked \"interrupted\" or \"not run\" "
                        "in the report\n"
                        "readbench: 1 cell had a thread with fewer than 20 ops in an iteration (see the warnings)\n"
                        "\rwriting:  50% (1 of 2 MiB)\rwriting: 100% (2 of 2 MiB)\n"), "%s", buf);
    memset(&s, 0, sizeof s);
    rb_report_title(&s, "--hog", buf, sizeof buf);
    CHECKF(!strcmp(buf, "readbench: random reads, page cache as found"), "%s", buf);
    rb_settings_set(&s, "prewarm", "0.5", NULL, buf, sizeof buf);
    rb_settings_set(&s, "hog", "auto:2", NULL, buf, sizeof buf);
    rb_report_title(&s, "--hog", buf, sizeof buf);
    CHECKF(!strcmp(buf, "readbench: random reads, 50% of the pages resident, under memory pressure (--hog auto:2)"), "%s", buf);
    rb_settings_set(&s, "scenario", "sequential-cold", NULL, buf, sizeof buf);
    rb_report_title(&s, NULL, buf, sizeof buf);
    CHECKF(!strcmp(buf, "readbench, scenario sequential-cold: sequential reads, under memory pressure (hog auto:2)"), "%s", buf);
    rb_format_size_arg((uint64_t)64 << 20, buf, sizeof buf);
    CHECK(!strcmp(buf, "64m"));
    rb_format_size_arg((uint64_t)1 << 30, buf, sizeof buf);
    CHECK(!strcmp(buf, "1g"));
    rb_format_size_arg(3072, buf, sizeof buf);
    CHECK(!strcmp(buf, "3k"));
    rb_format_size_arg(1000, buf, sizeof buf);
    CHECK(!strcmp(buf, "1000"));
}

/* One parser for every command: an option no command takes is "unknown option", exit 2, one
   line, nothing created, for list, drop, residency and hog too (they took it for a file); an
   option of another command is unknown here; --name=VALUE works everywhere. */
static void every_command_refuses_an_unknown_option(void)
{
    static const struct { const char *args, *option; } cases[] = {   /* %s: the test file */
        {"run '%s' --bogus", "--bogus"}, {"'%s' --bogus", "--bogus"}, {"prefetch '%s' --bogus", "--bogus"},
        {"probe '%s' --bogus", "--bogus"}, {"diff '%s' '%s' --bogus", "--bogus"}, {"setup x.dat 1m --bogus", "--bogus"},
        {"list --bogus", "--bogus"}, {"drop '%s' --bogus", "--bogus"}, {"residency '%s' --bogus", "--bogus"},
        {"hog 1m --bogus", "--bogus"}, {"probe '%s' --svg s.svg", "--svg"}, {"prefetch '%s' --quiet", "--quiet"},
        {"setup x.dat 1m --log", "--log"},
    };
    const char *dir = rbt_path("unknown-option"), *f = rbt_small_file();
    char args[1024], want[128];
    unsigned i;
    if (!have_binary()) SKIP("../readbench is not built (run make test)");
    CHECK(mkdir(dir, 0755) == 0);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc;
        snprintf(args, sizeof args, cases[i].args, f, f);
        snprintf(want, sizeof want, "readbench: unknown option '%s' (see readbench --help)\n", cases[i].option);
        rc = cli(dir, args);
        CHECKF(rc == 2 && !strcmp(err, want), "'%s': exit %d, %s", cases[i].args, rc, err);
        CHECKF(out[0] == 0, "'%s' wrote to stdout", cases[i].args);
    }
    CHECK(dir_entries(dir) == 0);
    snprintf(args, sizeof args, "run '%s' --strategies=null --threads=1 --duration=10ms --warmup=0 --iterations=1 --quiet "
             "--format=csv", f);
    CHECKF(cli(dir, args) == 0 && strstr(out, "null"), "%s", err);
    /* the header's words, the option's name: the messages users saw before the parser moved */
    snprintf(args, sizeof args, "run '%s' --iterations 101", f);
    CHECK(cli(dir, args) == 2 && !strcmp(err, "readbench: --iterations must be 1..100: '101' (see readbench --help)\n"));
    snprintf(args, sizeof args, "run '%s' --strategies null --threads 1 --duration 10ms --iterations 1 --quiet "
             "--scenario half-cold", f);
    CHECKF(cli(dir, args) == 0 && strstr(err, "readbench: scenario half-cold sets --prewarm 0.5 --warmup 0 (half the "
                                         "pages resident)\n"), "%s", err);
    CHECK(dir_entries(dir) == 0);
}

/* Every command's help: `CMD --help`, `CMD -h` and `help CMD` print its usage and every option it
   takes (the header's tables, which are also the parser's: each option documented for a command
   is one it takes, never "unknown option"), on stdout, exit 0. */
static void every_command_has_its_help(void)
{
    unsigned i, j, n, no, ns;
    const rb_command_doc *d = rb_command_docs(&n);
    const rb_option_doc *o = rb_option_docs(&no);
    const rb_setting_doc *s = rb_settings_docs(&ns);
    static char help[1 << 16];
    char args[256], flag[96];
    if (!have_binary()) SKIP("../readbench is not built (run make test)");
    CHECK(n == 12 && rb_command_doc_find("warmup") && !rb_command_doc_find("frobnicate"));
    for (i = 0; i < n; i++) {
        static const char *const forms[] = {"%s --help", "%s -h", "help %s", "%s --quiet --help"};
        unsigned f;
        for (f = 0; f < 4; f++) {
            int rc;
            if (f == 3 && !rb_option_doc_find("quiet", d[i].cmd)) continue;
            snprintf(args, sizeof args, forms[f], d[i].name);
            rc = cli(rbt_tmpdir(), args);
            snprintf(flag, sizeof flag, "usage: readbench %s", !strcmp(d[i].name, "run") ? "[run]" : d[i].name);
            CHECKF(rc == 0 && !strncmp(out, flag, strlen(flag)) && !err[0], "'%s': exit %d: %.80s%s", args, rc, out, err);
        }
        snprintf(args, sizeof args, "%s --help", d[i].name);
        CHECK(cli(rbt_tmpdir(), args) == 0);
        snprintf(help, sizeof help, "%s", out);
        for (j = 0; j < ns; j++) {   /* the settings: in the help of the commands that take them, and only there */
            snprintf(flag, sizeof flag, "  --%s %s", s[j].key, s[j].value);
            CHECKF(!(s[j].uses & d[i].settings) == !strstr(help, flag), "%s --help and '%s'", d[i].name, flag);
        }
        for (j = 0; j < no; j++) {   /* its own options: in its help, and taken */
            if (!(o[j].cmds & d[i].cmd)) continue;
            snprintf(flag, sizeof flag, "  --%s%s%s", o[j].name, o[j].value[0] ? " " : "", o[j].value);
            CHECKF(strstr(help, flag) != NULL, "%s --help lacks '%s'", d[i].name, flag);
            snprintf(args, sizeof args, "%s --%s%s", d[i].name, o[j].name, o[j].value[0] ? "=zzz" : "");
            /* and a row's parser is there: neither main.c nor the header's setter lacks it */
            CHECKF(cli(rbt_tmpdir(), args) == 2 && !strstr(err, "unknown option") && !strstr(err, "no setting") &&
                   !strstr(err, "no warm-up setting"), "'%s': %s", args, err);
        }
    }
    CHECK(cli(rbt_tmpdir(), "help frobnicate") == 2 && strstr(err, "no command 'frobnicate'") && !out[0]);
    CHECK(cli(rbt_tmpdir(), "--help") == 0 && strstr(out, "readbench warmup FILE") && strstr(out, "readbench diff BASE.json"));
    CHECK(cli(rbt_tmpdir(), "prefetch x --threads 0 --help") == 2 && strstr(err, "--threads must be 1..1024"));
}

/* One rule for every number an option takes: decimal, a fraction and an exponent where a
   fraction fits; never hex, a sign or a space, whichever option it is. */
static void numbers_have_one_rule(void)
{
    static rb_settings s;
    static const struct { const char *key, *value; } bad[] = {
        {"rate", "0x10"}, {"rate", " 10"}, {"rate", "10 "}, {"rate", "+10"}, {"rate", "inf"}, {"rate", "1e"},
        {"seed", "0x10"}, {"seed", " 1"}, {"seed", "1 "}, {"prewarm", "0x0.8"}, {"prewarm", " 0.5"}, {"prewarm", "-0"},
        {"percentiles", "50, 99"}, {"percentiles", "0x32"}, {"iterations", " 3"}, {"threads", "0x2"},
        {"duration", " 1s"}, {"pattern", "zipf:0x1"}, {"pattern", "zipf: 1.2"}, {"pattern", "hotset:0.1:0x1"},
    };
    static const struct { const char *key, *value; } good[] = {
        {"rate", "10"}, {"rate", "1e3"}, {"rate", "2.5:poisson"}, {"seed", "010"}, {"prewarm", "0.5"}, {"prewarm", "1e-1"},
        {"percentiles", "50,99.9"}, {"pattern", "zipf:1.2"}, {"pattern", "hotset:1e-1:0.9"},
    };
    char why[RB_REASON_LEN];
    double v;
    uint64_t hog;
    unsigned i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&s, 0, sizeof s);
        CHECKF(rb_settings_set(&s, bad[i].key, bad[i].value, NULL, why, sizeof why) == RB_EINVAL, "--%s '%s' taken",
               bad[i].key, bad[i].value);
    }
    for (i = 0; i < sizeof good / sizeof good[0]; i++) {
        memset(&s, 0, sizeof s);
        CHECKF(rb_settings_set(&s, good[i].key, good[i].value, NULL, why, sizeof why) == RB_OK, "--%s '%s': %s",
               good[i].key, good[i].value, why);
    }
    memset(&s, 0, sizeof s);
    CHECK(rb_settings_set(&s, "rate", "1e3", NULL, why, sizeof why) == RB_OK && s.cfg.rate == 1000);
    CHECK(rb_parse_number("16", 0, &v) == RB_OK && v == 16 && rb_parse_number("1.5", 0, &v) == RB_EINVAL);
    CHECK(rb_parse_number("0x10", 1, &v) == RB_EINVAL && rb_parse_number("1e400", 1, &v) == RB_EINVAL);
    CHECK(rb_parse_number("nan", 1, &v) == RB_EINVAL && rb_parse_number("", 1, &v) == RB_EINVAL);
    CHECK(rb_hog_plan("auto:0x2", 1 << 20, 0, &hog, why, sizeof why) == RB_EINVAL);
    CHECK(rb_hog_plan("auto: 2", 1 << 20, 0, &hog, why, sizeof why) == RB_EINVAL);
    if (!have_binary()) return;
    CHECK(cli(rbt_tmpdir(), "run x --rate 0x10") == 2 && strstr(err, "--rate"));
    CHECK(cli(rbt_tmpdir(), "run x --rate ' 10'") == 2 && strstr(err, "--rate"));
    CHECK(cli(rbt_tmpdir(), "--help") == 0 && strstr(out, "numbers are decimal"));
}

/* The second sweep's messages: a row that was interrupted says so once; the default job on a
   dangling readbench.dat says what to do without an option it does not take; a missing FILE
   whose directory is missing too is not sent to a setup that cannot make it. */
static void messages_say_what_happened(void)
{
    static rb_result r1;
    const char *names[] = {"null"}, *dir = rbt_path("dangling");
    unsigned threads[] = {1};
    uint64_t sizes[] = {16384};
    volatile int stop = 1;
    char buf[8192], link[600], args[1024];
    rb_report r;
    rb_config c;
    FILE *t = tmpfile();
    size_t n;
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.warmup_ns = RB_NONE;
    c.duration_ns = 20000000;
    c.iterations = 1;
    c.stop = &stop;
    CHECK(rb_run(&c, rb_strategy_find("null"), &r1) == RB_EINTR && r1.status == RB_EINTR);
    memset(&r, 0, sizeof r);
    r.results = &r1; r.count = 1; r.cfg = &c;
    r.strategies = names; r.nstrategies = 1;
    r.threads = threads; r.nthreads = 1;
    r.read_sizes = sizes; r.nread_sizes = 1;
    CHECK(t != NULL);
    if (t) {
        rb_report_table(t, &r, 0);
        rewind(t);
        n = fread(buf, 1, sizeof buf - 1, t);
        buf[n] = 0;
        fclose(t);
        CHECKF(strstr(buf, "T01 16 KiB: interrupted") && !strstr(buf, "interrupted: interrupted"), "%s", buf);
    }
    if (!have_binary()) SKIP("../readbench is not built (run make test)");
    CHECK(mkdir(dir, 0755) == 0);
    snprintf(link, sizeof link, "%s/readbench.dat", dir);
    CHECK(symlink("no-such-target.dat", link) == 0);
    CHECK(cli(dir, "") == 2);
    CHECKF(strstr(err, "symbolic link") && strstr(err, "remove it") && !strstr(err, "creating") &&
           !strstr(err, "--follow-symlinks") && strstr(err, "readbench setup 'no-such-target.dat' 1g"), "%s", err);
    CHECK(dir_entries(dir) == 1);
    /* and the command it gives works (it said --follow-symlinks, which refuses a link to nothing) */
    CHECK(cli(dir, "setup 'no-such-target.dat' 1m") == 0 && cli(dir, "residency readbench.dat") == 0);
    snprintf(args, sizeof args, "run '%s'", rbt_path("no-such-dir/f.dat"));
    CHECK(cli(rbt_tmpdir(), args) == 2);
    CHECKF(strstr(err, "mkdir -p") && strstr(err, "no-such-dir does not exist"), "%s", err);
    CHECK(cli(rbt_tmpdir(), "run missing.dat") == 2 && !strstr(err, "mkdir"));
}

void suite_cli(void)
{
    RUN(scenarios_are_a_flag_free_table);
    RUN(scenario_line_says_what_it_does);
    RUN(settings_check_values_in_the_callers_words);
    RUN(every_setting_is_documented_and_taken);
    RUN(every_setting_is_taken_where_its_row_says);
    RUN(summary_title_and_setup_lines);
    RUN(every_command_refuses_an_unknown_option);
    RUN(errors_table_rows);
    RUN(filesystem_refusing_o_direct);
    RUN(io_uring_disabled);
    RUN(interrupted_run_and_setup);
    RUN(drop_and_residency_commands);
    RUN(bad_input_exits_2_and_creates_nothing);
    RUN(missing_or_small_file_says_how_to_make_it);
    RUN(setup_refuses_existing_file);
    RUN(json_parses_and_keeps_unsupported_rows);
    RUN(csv_columns_are_constant);
    RUN(help_version_list);
    RUN(markdown_and_table_agree);
    RUN(every_command_has_its_help);
    RUN(numbers_have_one_rule);
    RUN(messages_say_what_happened);
}
