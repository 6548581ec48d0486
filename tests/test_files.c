/* Many files (a directory as FILE): setup --files makes the files with checkable content, the
   sampler picks files by size or uniformly and never lets a read cross a file's end, every
   strategy reads from the right file (--verify: each file holds its own pattern), residency
   and drop sum over the files, refusals are one line and exit 2, every format says how many
   files were read. */
#define _GNU_SOURCE
#include "readbench.h"
#include "rbtest.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB (1u << 20)

static char out[1 << 16], err[1 << 13];
static unsigned char got[65536], want[65536];

static int cli(const char *dir, const char *args)
{
    return rbt_cli_run(dir, args, "120", out, sizeof out, err, sizeof err);
}

static int lines(const char *s)
{
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

/* A fresh directory under the test's own. */
static const char *fresh_dir(const char *name)
{
    const char *d = rbt_path(name);
    if (mkdir(d, 0755) != 0 && errno != EEXIST) return NULL;
    return d;
}

static int entries(const char *dir)
{
    char cmd[700], buf[32] = "";
    FILE *p;
    snprintf(cmd, sizeof cmd, "ls -A '%s' | wc -l", dir);
    if (!(p = popen(cmd, "r"))) return -1;
    if (!fgets(buf, sizeof buf, p)) buf[0] = 0;
    pclose(p);
    return atoi(buf);
}

/* setup DIR SIZE --files N: N files of SIZE/N, each with its own pattern (rb_file_seed of its
   name), checked at both ends and in the middle; a second setup without force changes nothing. */
static void setup_files_makes_n_files_of_the_right_size_and_content(void)
{
    const char *dir = rbt_path("set4");
    char path[700];
    rb_error e;
    unsigned i, others = 99;
    struct stat st, before;
    CHECK(rb_setup_files(dir, 8 * MIB + 3, 4, 0, 0, NULL, NULL, &others, &e) == RB_OK);
    CHECK(others == 0);
    CHECK(entries(dir) == 4);
    for (i = 0; i < 4; i++) {
        uint64_t seed, offs[3] = {0, MIB + 5, 2 * MIB - 100}, k;
        int fd;
        snprintf(path, sizeof path, "%s/part-%04u", dir, i);
        CHECKF(stat(path, &st) == 0 && st.st_size == 2 * MIB, "%s: %lld bytes", path, (long long)st.st_size);
        seed = rb_file_seed(RB_DATA_SEED, path);
        CHECK(seed == rb_file_seed(RB_DATA_SEED, strrchr(path, '/') + 1));   /* the name decides, not the path */
        fd = open(path, O_RDONLY);
        for (k = 0; k < 3 && fd >= 0; k++) {
            CHECK(pread(fd, got, 100, (off_t)offs[k]) == 100);
            rb_fill_pattern(want, offs[k], 100, seed);
            CHECKF(memcmp(got, want, 100) == 0, "%s differs at %llu", path, (unsigned long long)offs[k]);
            rb_fill_pattern(want, offs[k], 100, RB_DATA_SEED);
            CHECK(memcmp(got, want, 100) != 0);   /* not the single file's content: a wrong file shows */
        }
        if (fd >= 0) close(fd);
    }
    CHECK(rb_file_seed(RB_DATA_SEED, "part-0000") != rb_file_seed(RB_DATA_SEED, "part-0001"));
    snprintf(path, sizeof path, "%s/part-0002", dir);
    CHECK(stat(path, &before) == 0);
    CHECK(rb_setup_files(dir, 8 * MIB, 4, 0, 0, NULL, NULL, NULL, &e) == RB_EEXIST);
    CHECKF(strstr(e.msg, "part-0000") && strstr(e.msg, "exists"), "%s", e.msg);
    CHECK(stat(path, &st) == 0 && st.st_ino == before.st_ino);
    CHECK(rb_setup_files(dir, 4 * MIB, 4, 0, RB_OUT_REPLACE, NULL, NULL, &others, &e) == RB_OK);
    CHECK(stat(path, &st) == 0 && st.st_size == MIB && others == 0);
    /* fewer files over more: the old ones stay, and setup says so */
    CHECK(rb_setup_files(dir, 2 * MIB, 2, 0, RB_OUT_REPLACE, NULL, NULL, &others, &e) == RB_OK);
    CHECK(others == 2);
    /* the CLI: the same, and a run with --verify over the directory */
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    dir = rbt_path("set-cli");
    snprintf(path, sizeof path, "setup '%s' 6m --files 3", dir);
    CHECKF(cli(rbt_tmpdir(), path) == 0 && strstr(err, "it holds 3 files with data"), "%s", err);
    CHECK(entries(dir) == 3);
    snprintf(path, sizeof path, "'%s' --strategies pread,mmap --threads 2 --duration 50ms --warmup 0 "
             "--iterations 1 --verify --quiet", dir);
    CHECKF(cli(rbt_tmpdir(), path) == 0, "%s", err);
}

/* Everything setup would refuse is refused before it creates anything. */
static void setup_files_refuses_before_creating_anything(void)
{
    const char *file = rbt_path("plain.dat"), *dir, *nop = rbt_path("no-parent/sub");
    char path[700];
    rb_error e;
    FILE *f = fopen(file, "w");
    if (f) fclose(f);
    CHECK(rb_setup_files(file, MIB, 2, 0, RB_OUT_REPLACE, NULL, NULL, NULL, &e) == RB_ENOTREG);
    CHECKF(strstr(e.msg, "not a directory"), "%s", e.msg);
    CHECK(rb_setup_files(nop, MIB, 2, 0, 0, NULL, NULL, NULL, &e) == RB_EINVAL);
    CHECK(access(nop, F_OK) != 0 && access(rbt_path("no-parent"), F_OK) != 0);
    CHECK(rb_setup_files(rbt_path("zero-files"), MIB, RB_MAX_FILES + 1, 0, 0, NULL, NULL, NULL, &e) == RB_EINVAL);
    CHECK(rb_setup_files(rbt_path("too-many"), 3, 4, 0, 0, NULL, NULL, NULL, &e) == RB_EINVAL);
    CHECK(access(rbt_path("zero-files"), F_OK) != 0 && access(rbt_path("too-many"), F_OK) != 0);
    /* part-0001 a FIFO: refused, even with force, and part-0000 is not written either */
    dir = fresh_dir("fifo-in");
    snprintf(path, sizeof path, "%s/part-0001", dir);
    CHECK(mkfifo(path, 0644) == 0);
    CHECK(rb_setup_files(dir, 2 * MIB, 2, 0, RB_OUT_REPLACE, NULL, NULL, NULL, &e) == RB_ENOTREG);
    CHECKF(strstr(e.msg, "part-0001") && strstr(e.msg, "FIFO"), "%s", e.msg);
    CHECK(entries(dir) == 1);
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    snprintf(path, sizeof path, "setup '%s' 1m --files x", rbt_path("cli-x"));
    CHECKF(cli(rbt_tmpdir(), path) == 2 && lines(err) == 1, "%s", err);
    snprintf(path, sizeof path, "setup '%s' 1m --files 0", rbt_path("cli-0"));
    CHECKF(cli(rbt_tmpdir(), path) == 2 && lines(err) == 1 && strstr(err, "1 or more"), "%s", err);
    snprintf(path, sizeof path, "setup '%s' 1m --files 100000", rbt_path("cli-0"));
    CHECKF(cli(rbt_tmpdir(), path) == 2 && lines(err) == 1 && strstr(err, "1 to 65536"), "%s", err);
    snprintf(path, sizeof path, "setup '%s' 1m --files 2", dir);
    CHECKF(cli(rbt_tmpdir(), path) == 2 && lines(err) == 1 && strstr(err, "FIFO"), "%s", err);
    CHECK(access(rbt_path("cli-x"), F_OK) != 0 && access(rbt_path("cli-0"), F_OK) != 0 && entries(dir) == 1);
}

/* The file an offset of the joint space falls in (bases increasing), as the target decides it. */
static unsigned file_of(const uint64_t *bases, unsigned n, uint64_t off)
{
    unsigned k = 0;
    while (k + 1 < n && bases[k + 1] <= off) k++;
    return k;
}

#define DRAWS 1000000u
static uint64_t offs[DRAWS];

/* Four files, one shorter than the read: by size, each file gets its share of 10^6 draws
   within half a percentage point, the short one none; uniformly, a third each. No read
   crosses a file's end, runs included; the same seed draws the same offsets; sequential
   reads every file in name order. */
static void sampler_picks_files_by_size_and_uniformly(void)
{
    const uint64_t sizes[4] = {MIB, 3 * MIB + 1000, 8192, 4 * MIB}, rs = 16384;
    uint64_t bases[4], base = 0;
    unsigned count[4], i, k;
    static rb_worker w;
    rb_sampler s;
    rb_config c;
    char why[256];
    int pick;
    for (i = 0; i < 4; i++) { bases[i] = base; base += (sizes[i] + 4095) / 4096 * 4096; }
    for (pick = RB_PICK_SIZE; pick <= RB_PICK_UNIFORM; pick++) {
        double total = (double)(sizes[0] + sizes[1] + sizes[3]);
        memset(&c, 0, sizeof c);
        c.read_size = rs;
        c.seed = 7;
        c.file_pick = pick;
        CHECKF(rb_sampler_init_files(&s, &c, sizes, bases, 4, 4096, 0, why, sizeof why) == RB_OK, "%s", why);
        CHECK(s.nfiles == 3 && s.small == 1);
        rb_sampler_seed(&s, &w, c.seed, 0, 1);
        rb_sampler_offsets(&s, &w, offs, DRAWS);
        memset(count, 0, sizeof count);
        for (i = 0; i < DRAWS; i++) {
            k = file_of(bases, 4, offs[i]);
            count[k]++;
            if (offs[i] + rs > bases[k] + sizes[k]) { CHECKF(0, "read %u at %llu crosses the end of file %u", i,
                                                            (unsigned long long)offs[i], k); break; }
        }
        CHECK(count[2] == 0);
        for (k = 0; k < 4; k++) {
            double share = (double)count[k] / DRAWS, target = k == 2 ? 0 : pick == RB_PICK_UNIFORM ? 1.0 / 3 :
                           (double)sizes[k] / total;
            CHECKF(fabs(share - target) < 0.005, "pick %d, file %u: %.4f of the reads, not %.4f", pick, k, share,
                   target);
        }
        /* the same seed, the same offsets */
        rb_sampler_seed(&s, &w, c.seed, 0, 1);
        rb_sampler_offsets(&s, &w, offs + DRAWS / 2, 1000);
        CHECK(memcmp(offs, offs + DRAWS / 2, 1000 * sizeof *offs) == 0);
        rb_sampler_free(&s);
        CHECK(s.files == NULL);
    }
#ifndef RB_NO_TOOLS   /* rb_parse_pattern: the settings parser is a tool */
    /* runs of 64 under zipf: a run goes on in its file and stops at its end */
    memset(&c, 0, sizeof c);
    c.read_size = rs;
    CHECK(rb_parse_pattern("runs:64:zipf:1.1", &c, why, sizeof why) == RB_OK);
    CHECKF(rb_sampler_init_files(&s, &c, sizes, bases, 4, 4096, 0, why, sizeof why) == RB_OK, "%s", why);
    rb_sampler_seed(&s, &w, 1, 0, 1);
    rb_sampler_offsets(&s, &w, offs, DRAWS / 4);
    for (i = 0; i < DRAWS / 4; i++) {
        k = file_of(bases, 4, offs[i]);
        if (k == 2 || offs[i] + rs > bases[k] + sizes[k]) { CHECKF(0, "run read %u at %llu", i,
                                                                    (unsigned long long)offs[i]); break; }
    }
    rb_sampler_free(&s);
#endif
    /* sequential: file 0 from its start to its last whole read, then file 1, ..., then around */
    memset(&c, 0, sizeof c);
    c.read_size = rs;
    c.pattern = RB_SEQUENTIAL;
    CHECK(rb_sampler_init_files(&s, &c, sizes, bases, 4, 4096, 0, why, sizeof why) == RB_OK);
    rb_sampler_seed(&s, &w, 1, 0, 1);
    rb_sampler_offsets(&s, &w, offs, 64 + 192 + 256 + 2);
    CHECK(offs[0] == 0 && offs[63] == 63 * rs && offs[64] == bases[1]);
    CHECK(offs[64 + 191] == bases[1] + 191 * rs && offs[64 + 192] == bases[3]);   /* 3 MiB + 1000: 192 whole reads */
    CHECK(offs[64 + 192 + 255] == bases[3] + 255 * rs && offs[64 + 192 + 256] == 0 && offs[64 + 192 + 257] == rs);
    rb_sampler_free(&s);
    /* every file too short: one line that says so */
    c.read_size = 8 * MIB;
    CHECK(rb_sampler_init_files(&s, &c, sizes, bases, 4, 4096, 0, why, sizeof why) == RB_EINVAL);
    CHECKF(strstr(why, "shorter than a read"), "%s", why);
    CHECK(s.files == NULL);
}

/* A directory of setup files: 4 files of different sizes and one shorter than a read. */
static const char *setup_dir(const char *name)
{
    static char keep[4][600];
    static unsigned k;
    const char *d = fresh_dir(name);
    const uint64_t sizes[5] = {MIB, 2 * MIB, 3 * MIB + 5000, 4 * MIB, 4096};
    char path[700], *dst = keep[k++ % 4];
    rb_error e;
    unsigned i;
    if (!d) return NULL;
    for (i = 0; i < 5; i++) {
        snprintf(path, sizeof path, "%s/f%u", d, i);
        if (rb_setup_file(path, sizes[i], rb_file_seed(RB_DATA_SEED, path), RB_OUT_REPLACE, NULL, NULL, &e) != RB_OK)
            return NULL;
    }
    snprintf(dst, 600, "%s", d);
    return dst;
}

/* Every strategy of the table, on a directory, with --verify: each file holds its own pattern,
   so a strategy that read any byte from the wrong file (or the wrong place of the right one)
   would count mismatches. Two threads, a short iteration each. */
static void every_strategy_reads_the_right_file(void)
{
    const char *dir = setup_dir("verify-all");
    unsigned n, i, ran = 0;
    const rb_strategy *s = rb_strategies(&n);
    rb_config c;
    static rb_result r;
    if (!dir) SKIP("cannot make the directory");
    for (i = 0; i < n; i++) {
        memset(&c, 0, sizeof c);
        c.path = dir;
        c.read_size = 16384;
        c.threads = 2;
        c.verify = 1;
        c.warmup_ns = RB_NONE;
        c.duration_ns = 40000000;
        c.iterations = 1;
        rbt_run_cell(&c, &s[i], &r);
        if (r.status == RB_UNSUPPORTED) continue;
        /* a loaded disk: the op in flight outlasted the iteration (a bound); its reads were still checked */
        CHECKF(r.status == RB_OK && r.verify_mismatches == 0 && (r.ops > 0 || r.rate_upper_bound),
               "%s: %s (%llu mismatches)", s[i].name, r.reason, (unsigned long long)r.verify_mismatches);
        CHECKF(r.files == 5 && r.files_small == 1, "%s: %u files, %u small", s[i].name, r.files, r.files_small);
        ran++;
    }
    CHECK(ran >= 8);
}

/* A strategy of the test's own: counts each thread's reads per file (rb_target_file_at), and
   reads that would cross a file's end. */
static unsigned long per_file[8][8], crossing;

static int count_open(rb_target *t, char *why, size_t wl) { return rb_strategy_find("pread")->open(t, why, wl); }
static void count_close(rb_target *t) { rb_strategy_find("pread")->close(t); }
static int count_op(rb_worker *w, const uint64_t *off, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++) {
        uint64_t local;
        unsigned k = rb_target_file_at(w->t, off[i], &local);
        if (local + w->t->cfg->read_size > w->t->files[k].size) crossing++;
        if (w->index < 8 && k < 8) per_file[w->index][k]++;
    }
    return 0;
}
static const rb_strategy counter = {"counter", "counts reads per file", 0, 0, RB_HINT_NONE, 0, 0, 0, count_open,
                                    NULL, count_op, NULL,
                                    count_close};

static void run_reads_every_file_in_proportion(void)
{
    const char *dir = setup_dir("count");
    const double size[4] = {1, 2, 3 + 5000.0 / MIB, 4};
    rb_config c;
    static rb_result r;
    unsigned long tot[5] = {0}, all = 0;
    unsigned k, t;
    int pick;
    if (!dir) SKIP("cannot make the directory");
    for (pick = RB_PICK_SIZE; pick <= RB_PICK_UNIFORM; pick++) {
        memset(per_file, 0, sizeof per_file);
        memset(tot, 0, sizeof tot);
        crossing = all = 0;
        memset(&c, 0, sizeof c);
        c.path = dir;
        c.read_size = 16384;
        c.threads = 2;
        c.file_pick = pick;
        c.warmup_ns = RB_NONE;
        c.duration_ns = 50000000;
        c.iterations = 2;
        CHECKF(rb_run(&c, &counter, &r) == RB_OK, "%s", r.reason);
        for (t = 0; t < 2; t++)
            for (k = 0; k < 5; k++) { tot[k] += per_file[t][k]; all += per_file[t][k]; }
        CHECK(crossing == 0 && tot[4] == 0 && all > 20000);
        for (k = 0; k < 4; k++) {
            double share = (double)tot[k] / (double)all, target = pick == RB_PICK_UNIFORM ? 0.25 : size[k] / 10.0;
            CHECKF(fabs(share - target) < 0.03, "pick %d: file %u had %.3f of %lu reads, not %.3f", pick, k, share,
                   all, target);
        }
        CHECKF(r.files == 5 && r.files_small == 1 && r.nwarnings >= 1 && strstr(r.warnings[0], "shorter than a read"),
               "%u %u %s", r.files, r.files_small, r.nwarnings ? r.warnings[0] : "");
        CHECK(r.file_pages == (MIB + 2 * MIB + 3 * MIB + 8192 + 4 * MIB + 4096) / 4096);
    }
}

/* rb_load, rb_residency and rb_evict of a directory: each file, summed; the CLI's residency and
   drop say how many files. */
static void residency_and_drop_of_a_directory(void)
{
    const char *dir = setup_dir("resid");
    rb_residency_info ri;
    rb_error e;
    char args[700];
    uint64_t pages = (MIB + 2 * MIB + 3 * MIB + 8192 + 4 * MIB + 4096) / 4096;
    unsigned k;
    if (!dir) SKIP("cannot make the directory");
    /* Up to 3 loads: in CI's musl suite (2026-12-02) 6 of the 2,563 pages were gone when they
       were counted, taken by reclaim beside the other suites, as a prewarm's were before. */
    for (k = 0; k < 3; k++) {
        CHECK(rb_load(dir, &e) == RB_OK);
        CHECK(rb_residency(dir, &ri, &e) == RB_OK);
        if (ri.resident == pages) break;
        fprintf(stderr, "    %llu of %llu pages resident after the load: again\n", (unsigned long long)ri.resident,
                (unsigned long long)ri.pages);
    }
    CHECKF(ri.files == 5 && ri.pages == pages && ri.trusted && ri.resident == pages, "%u files, %llu of %llu pages",
           ri.files, (unsigned long long)ri.resident, (unsigned long long)ri.pages);
    CHECK(rb_evict(dir, &e) == RB_OK);
    CHECK(rb_residency(dir, &ri, &e) == RB_OK);
    CHECKF(ri.resident <= 8, "%llu pages left", (unsigned long long)ri.resident);
    CHECK(rb_prewarm(dir, 0.5, 3, &e) == RB_OK);
    CHECK(rb_residency(dir, &ri, &e) == RB_OK);
    CHECKF(fabs((double)ri.resident / (double)pages - 0.5) < 0.05, "prewarm 0.5: %llu of %llu",
           (unsigned long long)ri.resident, (unsigned long long)pages);
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    snprintf(args, sizeof args, "residency '%s'", dir);
    CHECKF(cli(rbt_tmpdir(), args) == 0 && strstr(out, "(5 files)") && lines(out) == 1, "%s%s", out, err);
    snprintf(args, sizeof args, "drop '%s'", dir);
    CHECKF(cli(rbt_tmpdir(), args) == 0 && strstr(out, "(5 files)") && strstr(out, "evicted"), "%s%s", out, err);
    CHECK(rb_residency(dir, &ri, &e) == RB_OK && ri.resident <= 8);
}

/* A directory with nothing to read, or with a file this user may not read: one line, exit 2,
   no output file made. prefetch and probe read one file: they refuse a directory. */
static void directory_refusals_exit_2_one_line(void)
{
    const char *empty = fresh_dir("none"), *odd = fresh_dir("odd"), *rep = rbt_path("refused.json");
    char args[1200], p[700];
    FILE *f;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    if (!empty || !odd) SKIP("cannot make the directories");
    snprintf(args, sizeof args, "run '%s' --output '%s'", empty, rep);
    CHECKF(cli(rbt_tmpdir(), args) == 2 && lines(err) == 1 && strstr(err, "an empty one"), "%s", err);
    snprintf(p, sizeof p, "%s/sub", odd);
    CHECK(mkdir(p, 0755) == 0);
    snprintf(p, sizeof p, "%s/fifo", odd);
    CHECK(mkfifo(p, 0644) == 0);
    snprintf(p, sizeof p, "%s/link", odd);
    CHECK(symlink(rbt_small_file(), p) == 0);   /* a link to a good file is left out all the same */
    snprintf(p, sizeof p, "%s/lock", odd);
    if ((f = fopen(p, "w"))) fclose(f);
    snprintf(args, sizeof args, "run '%s' --output '%s'", odd, rep);
    CHECKF(cli(rbt_tmpdir(), args) == 2 && lines(err) == 1 && strstr(err, "1 empty, 1 symlink and 2 other"), "%s",
           err);
    snprintf(args, sizeof args, "residency '%s'", odd);
    CHECKF(cli(rbt_tmpdir(), args) == 2 && lines(err) == 1, "%s", err);
    snprintf(args, sizeof args, "drop '%s'", odd);
    CHECKF(cli(rbt_tmpdir(), args) == 2 && lines(err) == 1, "%s", err);
    CHECK(access(rep, F_OK) != 0);
    /* prefetch and probe: one file */
    snprintf(args, sizeof args, "prefetch '%s'", setup_dir("one-file-only"));
    CHECKF(cli(rbt_tmpdir(), args) == 2 && strstr(err, "a directory"), "%s", err);
    snprintf(args, sizeof args, "probe '%s'", setup_dir("one-file-only"));
    CHECKF(cli(rbt_tmpdir(), args) == 2 && strstr(err, "a directory"), "%s", err);
    /* options that mean nothing for a directory, or with sequential */
    snprintf(args, sizeof args, "run '%s' --size 1m --output '%s'", setup_dir("one-file-only"), rep);
    CHECKF(cli(rbt_tmpdir(), args) == 2 && lines(err) == 1 && strstr(err, "read whole") && strstr(err, "a directory"), "%s", err);
    snprintf(args, sizeof args, "run '%s' --pattern sequential --file-pick uniform", setup_dir("one-file-only"));
    CHECKF(cli(rbt_tmpdir(), args) == 2 && lines(err) == 1 && strstr(err, "name order"), "%s", err);
    snprintf(args, sizeof args, "run '%s' --file-pick largest", setup_dir("one-file-only"));
    CHECKF(cli(rbt_tmpdir(), args) == 2 && lines(err) == 1 && strstr(err, "size or uniform"), "%s", err);
    CHECK(access(rep, F_OK) != 0);
}

/* A file the user may not read refuses the whole directory (exit 2, one line): as root, the CLI
   runs as nobody on a directory nobody may enter, with one file nobody may read. */
static void unreadable_file_refuses_the_directory(void)
{
    char dir[600], args[1400], p[700];
    rb_error e;
    const char *base = getenv("TMPDIR");
    int rc;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    snprintf(dir, sizeof dir, "%s/readbench-files-XXXXXX", base && *base ? base : "/var/tmp");
    if (!mkdtemp(dir)) SKIP("cannot make a directory");
    CHECK(chmod(dir, 0755) == 0);
    CHECK(rb_setup_files(dir, 2 * MIB, 2, 0, 0, NULL, NULL, NULL, &e) == RB_OK);
    snprintf(p, sizeof p, "%s/part-0001", dir);
    CHECK(chmod(p, 0600) == 0);
    if (rbt_is_root()) {
        if (system("command -v setpriv >/dev/null 2>&1") != 0) SKIP("no setpriv to run as nobody");
        snprintf(p, sizeof p, "%s/part-0000", dir);
        CHECK(chmod(p, 0644) == 0);
        snprintf(args, sizeof args, "cd / && setpriv --reuid=65534 --regid=65534 --clear-groups '%s' run '%s' "
                 "--strategies pread --duration 10ms --iterations 1 --threads 1 2>'%s/err.txt'; echo $? >'%s/rc.txt'",
                 rbt_cli(), dir, rbt_tmpdir(), rbt_tmpdir());
        CHECK(system(args) == 0);
        snprintf(args, sizeof args, "cat '%s/rc.txt' '%s/err.txt'", rbt_tmpdir(), rbt_tmpdir());
        {
            FILE *pp = popen(args, "r");
            size_t n = pp ? fread(err, 1, sizeof err - 1, pp) : 0;
            err[n] = 0;
            if (pp) pclose(pp);
        }
        CHECKF(strncmp(err, "2\n", 2) == 0 && lines(err + 2) == 1 && strstr(err, "part-0001") &&
               strstr(err, "ermission denied"), "%s", err);
    } else {
        CHECK(chmod(p, 0000) == 0);
        snprintf(args, sizeof args, "run '%s' --strategies pread --duration 10ms --iterations 1", dir);
        rc = cli(rbt_tmpdir(), args);
        CHECKF(rc == 2 && lines(err) == 1 && strstr(err, "part-0001"), "exit %d: %s", rc, err);
    }
    snprintf(args, sizeof args, "rm -rf '%s'", dir);
    CHECK(system(args) == 0);
}

/* Every format says how many files: json (config and each result), csv (a column), table and
   markdown (the heading). */
static void every_format_carries_files(void)
{
    const char *dir = setup_dir("formats");
    char args[900];
    const char *formats[4] = {"json", "csv", "table", "markdown"};
    unsigned i;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    if (!dir) SKIP("cannot make the directory");
    for (i = 0; i < 4; i++) {
        snprintf(args, sizeof args, "run '%s' --strategies pread,mmap --threads 1 --duration 200ms --warmup 0 --reads-per-op 4 "
                 "--iterations 1 --quiet --format %s --file-pick uniform", dir, formats[i]);
        CHECKF(cli(rbt_tmpdir(), args) == 0, "%s: %s", formats[i], err);
        if (i == 0) {
            CHECKF(strstr(out, "\"files\": 5, \"file_pick\": \"uniform\"") != NULL, "%s", out);
            CHECKF(strstr(out, "\"files\": 5, \"files_small\": 1}") != NULL, "%s", out);
        } else if (i == 1) {
            CHECKF(strstr(out, ",fault_hit_rate,files,files_small,") && strstr(out, ",5,1,"), "%s", out);
        } else {
            CHECKF(strstr(out, ", 5 files, 0.01 GiB") != NULL, "%s", out);
        }
    }
}

/* setup's progress that stops once `*user` bytes are done (a Ctrl-C in the middle). */
static int stop_after(uint64_t done, uint64_t total, void *user)
{
    (void)total;
    return done > *(const uint64_t *)user;
}

/* An interrupted setup --files leaves the whole files it wrote, marked an incomplete set: run
   and advise refuse it (exit 2, one line with the command that completes it) rather than read
   the partial set without a word; a setup that completes removes the mark. Neither message calls
   a file that never existed "untouched". */
static void interrupted_setup_marks_the_set(void)
{
    const char *dir = rbt_path("partial"), *never = rbt_path("never.dat");
    char mark[700], args[900];
    rb_error e;
    rb_file_info info;
    uint64_t after = 2 * MIB + 1, none = 0;   /* stops as the third 1 MiB file is written */
    CHECK(rb_setup_files(dir, 8 * MIB, 8, 0, 0, stop_after, &after, NULL, &e) == RB_EINTR);
    CHECKF(strstr(e.msg, "setup of") && strstr(e.msg, "part-0002 interrupted") && strstr(e.msg, "2 of 8 files whole") &&
           strstr(e.msg, "incomplete") && !strstr(e.msg, "untouched"), "%s", e.msg);
    snprintf(mark, sizeof mark, "%s/%s", dir, RB_SETUP_INCOMPLETE);
    CHECK(access(mark, F_OK) == 0 && entries(dir) == 3);
    CHECKF(rb_check_file(dir, 0, &info, &e) == RB_EINVAL && strstr(e.msg, "incomplete set") &&
           strstr(e.msg, "--files 8 --force"), "%s", e.msg);
    if (rbt_cli()) {
        snprintf(args, sizeof args, "run '%s' --strategies pread --threads 1 --duration 10ms --iterations 1", dir);
        CHECKF(cli(rbt_tmpdir(), args) == 2 && lines(err) == 1 && strstr(err, "incomplete set") && !out[0], "%s", err);
        snprintf(args, sizeof args, "advise '%s' --budget 1s", dir);
        CHECKF(cli(rbt_tmpdir(), args) == 2 && strstr(err, "incomplete set"), "%s", err);
    }
    CHECK(rb_setup_files(dir, 8 * MIB, 8, 0, RB_OUT_REPLACE, NULL, NULL, NULL, &e) == RB_OK);
    CHECKF(access(mark, F_OK) != 0 && rb_check_file(dir, 0, &info, &e) == RB_OK && info.files == 8, "%s", e.msg);
    CHECK(rb_setup_file(never, 4 * MIB, 0, 0, stop_after, &none, &e) == RB_EINTR);
    CHECKF(!strstr(e.msg, "untouched") && strstr(e.msg, "partial file removed") && access(never, F_OK) != 0, "%s", e.msg);
}

/* More than RB_MAX_FILES files is bad input (exit 2) for every command that reads a directory,
   residency, drop and list included, not a run-time failure (1). */
static void too_many_files_exit_2_everywhere(void)
{
    static const char *const cmds[] = {"run", "residency", "drop", "list", "advise"};
    const char *dir = fresh_dir("many");
    char path[700], args[900];
    unsigned i;
    int ok = dir != NULL;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    /* RB_MAX_FILES + 1 names of files with data: hard links to two files of a byte (ext4 takes
       65000 links to one inode). Links, not files: making 65537 files took 10 s, half of the
       suite's time, and 70 s beside the other suites; a link is a name, made in a tenth of that. */
    for (i = 0; ok && i <= RB_MAX_FILES; i++) {
        char first[700];
        snprintf(path, sizeof path, "%s/f%05u", dir, i);
        snprintf(first, sizeof first, "%s/f%05u", dir, i < 2 ? i : i % 2);
        if (i < 2) {
            int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            ok = fd >= 0 && write(fd, "x", 1) == 1 && close(fd) == 0;
        } else {
            ok = link(first, path) == 0;
        }
    }
    CHECK(ok);
    for (i = 0; ok && i < sizeof cmds / sizeof cmds[0]; i++) {
        snprintf(args, sizeof args, "%s '%s'", cmds[i], dir);
        CHECKF(cli(rbt_tmpdir(), args) == 2 && lines(err) == 1 && strstr(err, "more than 65536 files"), "%s: %s", cmds[i],
               err);
    }
    snprintf(args, sizeof args, "rm -rf '%s'", dir);
    CHECK(system(args) == 0);
}

/* The commands of one file (warmup, prefetch, probe) refuse a directory saying so, with one of
   its files to name instead: not "needs one file of 1048576 bytes or more". */
static void one_file_commands_refuse_a_directory(void)
{
    static const char *const cmds[] = {"warmup", "prefetch", "probe"};
    const char *dir = setup_dir("one-file-only");
    char args[900], want[64];
    unsigned i;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    for (i = 0; i < 3; i++) {
        snprintf(args, sizeof args, "%s '%s'", cmds[i], dir);
        snprintf(want, sizeof want, "(it is a directory): readbench %s measures one file", cmds[i]);
        CHECKF(cli(rbt_tmpdir(), args) == 2 && lines(err) == 1 && strstr(err, want) && strstr(err, "one-file-only/f0") &&
               !strstr(err, "bytes or more") && !out[0], "%s: %s", cmds[i], err);
    }
}

static unsigned count_of(const char *hay, const char *needle)
{
    unsigned n = 0;
    for (; (hay = strstr(hay, needle)) != NULL; hay++) n++;
    return n;
}

/* Issue 21, item 6 (a crash): groups on a directory. The groups' working-set bitmaps were
   sized from the directory inode's size (a page) while the cell's cover the files' joint
   space: the first group's alone run wrote past them (SIGSEGV, or glibc's abort). Now they
   are laid out as the cell lays out the files, and the kept cache state is read and brought
   back file by file (not "cannot be read page by page here"). */
static void groups_on_a_directory(void)
{
    const char *dir = setup_dir("groups");
    char args[1200];
    unsigned i;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    if (!dir) SKIP("cannot make the directory");
    for (i = 0; i < 3; i++) {
        static const char *const how[] = {"", "--alone no", "--cache evict --rounds 2"};
        snprintf(args, sizeof args, "run '%s' --group strategy=pread,threads=1 --group strategy=mmap,threads=2 %s "
                 "--duration 30ms --warmup 0 --iterations 2 --quiet --format json", dir, how[i]);
        CHECKF(cli(rbt_tmpdir(), args) == 0, "'%s': %s", how[i], err);
        CHECKF(count_of(out, "\"status\": \"ok\"") == (i == 1 ? 2u : 4u), "'%s': %s", how[i], out);
        CHECKF(!strstr(out, "cannot be read page by page"), "'%s': %s", how[i], out);
        if (i != 1) CHECKF(count_of(out, "\"ws_pages\": null") == 0 && count_of(out, "\"ws_evicted\": null") == 2,
                           "'%s': %s", how[i], out);
    }
}

void suite_files(void)
{
    RUN(setup_files_makes_n_files_of_the_right_size_and_content);
    RUN(setup_files_refuses_before_creating_anything);
    RUN(sampler_picks_files_by_size_and_uniformly);
    RUN(every_strategy_reads_the_right_file);
    RUN(run_reads_every_file_in_proportion);
    RUN(residency_and_drop_of_a_directory);
    RUN(directory_refusals_exit_2_one_line);
    RUN(unreadable_file_refuses_the_directory);
    RUN(every_format_carries_files);
    RUN(interrupted_setup_marks_the_set);
    RUN(too_many_files_exit_2_everywhere);
    RUN(one_file_commands_refuse_a_directory);
    RUN(groups_on_a_directory);
}
