/* suite safety: a user's files are never destroyed. Outputs never land on an input, a file
   is replaced only atomically and only if it is a regular file, a failed or interrupted
   setup leaves the earlier file byte-identical, signals leave no temporary behind, and a
   report that could not be written is an error. Every destructive case works on copies
   under rbt_tmpdir(); device nodes are made there with mknod (root), never the system's. */
#define _GNU_SOURCE
#include "readbench.h"
#include "rbtest.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char out[1 << 16], err[8192];
static const char *bin = "";
/* A run that measures: 2 iterations of 20 ms, so that one with no op (a thread that got no CPU
   in time beside the other suites) does not fail the cell. At 1 x 10 ms a run meant to succeed
   failed 3 times in a row in CI's musl suite (2026-12-02). */
static const char *quick = "--strategies null --threads 1 --warmup 0 --duration 20ms --iterations 2 --quiet";

/* The CLI inside DIR; 124: still running after 120 s, as a FIFO used to make it (rbt_cli_run). */
static int cli(const char *dir, const char *args)
{
    return rbt_cli_run(dir, args, "120", out, sizeof out, err, sizeof err);
}

static int have_binary(void)
{
    const char *p = rbt_cli();
    if (p) bin = p;
    return p != NULL;
}

/* A fresh directory "safety-NAME" under the test's own; its path stays valid (own buffer). */
static const char *fresh_dir(const char *name, char *buf, size_t len)
{
    char n[128];
    snprintf(n, sizeof n, "safety-%s", name);
    snprintf(buf, len, "%s", rbt_path(n));
    if (mkdir(buf, 0755) != 0) return NULL;
    return buf;
}

static int entries(const char *dir)
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

/* Writes a file of `len` bytes of setup pattern `seed` (distinct from the default content). */
static int make_file(const char *path, uint64_t len, uint64_t seed)
{
    rb_error e;
    return rb_setup_file(path, len, seed, RB_OUT_REPLACE, NULL, NULL, &e) == RB_OK ? 0 : -1;
}

/* 1: path holds exactly `len` bytes of pattern `seed`. */
static int holds(const char *path, uint64_t len, uint64_t seed)
{
    static unsigned char a[1 << 16], b[1 << 16];
    struct stat st;
    uint64_t off = 0;
    int fd = open(path, O_RDONLY), ok;
    if (fd < 0) return 0;
    ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size == len;
    while (ok && off < len) {
        size_t n = (size_t)(len - off < sizeof a ? len - off : sizeof a);
        ok = pread(fd, a, n, (off_t)off) == (ssize_t)n;
        rb_fill_pattern(b, off, n, seed);
        ok = ok && memcmp(a, b, n) == 0;
        off += n;
    }
    close(fd);
    return ok;
}

/* probe's cases need a 64 MiB file; made once. */
static const char *probe_file(void)
{
    static char p[600];
    if (!p[0]) {
        snprintf(p, sizeof p, "%s", rbt_path("safety-64m.dat"));
        if (make_file(p, 64u << 20, 0) != 0) p[0] = 0;
    }
    return p[0] ? p : NULL;
}

/* Item 1: --output/--svg naming the input (same name, symlink, hard link) or each other is
   exit 2 before anything is opened, in run, prefetch and probe; the input is untouched. */
static void outputs_never_land_on_the_input(void)
{
    char dbuf[512], args[2048], in[600];
    const char *dir = fresh_dir("outin", dbuf, sizeof dbuf);
    const char *cases[] = {
        "run in.dat %s --output in.dat", "run in.dat %s --format json --output lnk.dat",
        "run in.dat %s --output hard.dat", "run in.dat %s --svg in.dat", "run in.dat %s --svg lnk.dat",
        "run in.dat %s --output x.out --svg x.out", "run in.dat %s --output x.out --svg ./x.out",
        "prefetch in.dat --ops 10 --output in.dat", "prefetch in.dat --ops 10 --svg hard.dat",
        "prefetch in.dat --ops 10 --output y.out --svg ./y.out", "probe in.dat --case pread --output lnk.dat",
        "probe in.dat --case pread --output hard.dat",
    };
    unsigned i;
    if (!have_binary()) SKIP("../readbench is not built (run make test)");
    if (!dir) SKIP("cannot make a directory");
    snprintf(in, sizeof in, "%s/in.dat", dir);
    CHECK(make_file(in, 64u << 20, 5) == 0);   /* probe needs 64 MiB */
    snprintf(args, sizeof args, "%s/lnk.dat", dir);
    CHECK(symlink("in.dat", args) == 0);
    snprintf(args, sizeof args, "%s/hard.dat", dir);
    CHECK(link(in, args) == 0);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc;
        snprintf(args, sizeof args, cases[i], quick);
        rc = cli(dir, args);
        CHECKF(rc == 2, "'%s' exited %d: %s", args, rc, err);
        CHECKF(strstr(err, "the input file") || strstr(err, "the same file"), "'%s': %s", args, err);
        CHECKF(holds(in, 64u << 20, 5), "'%s' changed the input", args);
        CHECKF(entries(dir) == 3, "'%s' left %d files", args, entries(dir));
    }
    /* the baseline of --baseline is an input too */
    snprintf(args, sizeof args, "run in.dat %s --format json --output base.json", quick);
    CHECKF(cli(dir, args) == 0, "%s", err);
    snprintf(in, sizeof in, "%s/base.json", dir);
    {
        struct stat a, b;
        int rc;
        CHECK(stat(in, &a) == 0);
        snprintf(args, sizeof args, "run in.dat %s --format json --baseline base.json --output ./base.json", quick);
        rc = cli(dir, args);
        CHECKF(rc == 2 && strstr(err, "the input file"), "exit %d: %s", rc, err);
        CHECK(stat(in, &b) == 0 && a.st_ino == b.st_ino && a.st_mtime == b.st_mtime && a.st_size == b.st_size);
        CHECK(entries(dir) == 4);
    }
    snprintf(in, sizeof in, "%s/in.dat", dir);
    /* the library's own rule */
    {
        char l[600];
        snprintf(l, sizeof l, "%s/lnk.dat", dir);
        CHECK(rb_same_file(in, l) == 1 && rb_same_file(in, rbt_small_file()) == 0);
    }
}

/* Issue 21, item 6 (data loss): a directory as FILE is read as its files, so each of them is
   an input too. --output or --svg naming one (by its name, through a symlink, a hard link
   from elsewhere, or "." from inside), in run, advise and replay, and a new name inside the
   directory (the next run would read it as one of its files): exit 2 before anything is
   opened, every file byte-identical, nothing added. The victim and the baseline are inputs
   the same way. */
static void outputs_never_land_in_an_input_directory(void)
{
    char dbuf[512], args[4096], d[700], p[800];
    const char *dir = fresh_dir("outdir", dbuf, sizeof dbuf);
    const char *cases[] = {
        "run d %s --output d/part-0000", "run d %s --svg d/part-0001", "run d %s --format json --output ./d/../d/part-0002",
        "advise d --strategies null --states warm --budget 1s --quiet --output d/part-0002",
        "advise d --strategies null --states warm --budget 1s --quiet --svg d/part-0003",
        "run d %s --output lnk", "run d %s --svg hard", "run d %s --output d/new.json", "run d %s --svg d/new.svg",
        "replay t.csv d %s --output d/part-0000", "run d %s --victim v.dat --output v.dat",
        "run d %s --victim v.dat --svg vlink",
    };
    rb_error e;
    unsigned i, k;
    int rc;
    if (!have_binary()) SKIP("../readbench is not built (run make test)");
    if (!dir) SKIP("cannot make a directory");
    snprintf(d, sizeof d, "%s/d", dir);
    CHECK(rb_setup_files(d, 16u << 20, 4, 0, 0, NULL, NULL, NULL, &e) == RB_OK);
    snprintf(p, sizeof p, "%s/v.dat", dir);
    CHECK(make_file(p, 1u << 20, 9) == 0);
    snprintf(p, sizeof p, "%s/lnk", dir);
    CHECK(symlink("d/part-0000", p) == 0);
    snprintf(p, sizeof p, "%s/vlink", dir);
    CHECK(symlink("v.dat", p) == 0);
    snprintf(args, sizeof args, "%s/d/part-0001", dir);
    snprintf(p, sizeof p, "%s/hard", dir);
    CHECK(link(args, p) == 0);
    snprintf(p, sizeof p, "%s/t.csv", dir);
    {
        FILE *f = fopen(p, "w");
        CHECK(f && fputs("0,4096\n8192,4096\n", f) >= 0 && fclose(f) == 0);
    }
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(args, sizeof args, cases[i], quick);
        rc = cli(dir, args);
        CHECKF(rc == 2, "'%s' exited %d: %s", args, rc, err);
        CHECKF(strstr(err, "input directory") || strstr(err, "the input file") || strstr(err, "is a directory"),
               "'%s': %s", args, err);
        for (k = 0; k < 4; k++) {
            char part[800];
            snprintf(part, sizeof part, "%s/d/part-%04u", dir, k);
            CHECKF(holds(part, 4u << 20, rb_file_seed(RB_DATA_SEED, part)), "'%s' changed %s", args, part);
        }
        CHECKF(entries(d) == 4 && entries(dir) == 6, "'%s' left %d files in d, %d beside it", args, entries(d),
               entries(dir));
        snprintf(p, sizeof p, "%s/v.dat", dir);
        CHECKF(holds(p, 1u << 20, 9), "'%s' changed the victim", args);
    }
    /* from inside the directory, "." is the input and a bare name lands in it */
    snprintf(args, sizeof args, "run . %s --output part-0003", quick);
    CHECKF(cli(d, args) == 2 && strstr(err, "input directory"), "%s", err);
    snprintf(p, sizeof p, "%s/part-0003", d);
    CHECK(holds(p, 4u << 20, rb_file_seed(RB_DATA_SEED, p)) && entries(d) == 4);
#ifndef RB_NO_REPORTS   /* rb_check_outputs: the reports' */
    /* the library's rule, on its own: a file beside the directory is fine */
    {
        const char *in[1], *outs[1];
        char o[800];
        in[0] = d;
        snprintf(o, sizeof o, "%s/report.json", dir);
        outs[0] = o;
        CHECK(rb_check_outputs(outs, 1, in, 1, &e) == RB_OK);
        snprintf(o, sizeof o, "%s/lnk", dir);
        CHECK(rb_check_outputs(outs, 1, in, 1, &e) == RB_EINVAL && strstr(e.msg, "input directory"));
    }
#endif
    snprintf(args, sizeof args, "run d %s --output report.txt", quick);   /* beside it: written */
    rc = cli(dir, args);
    if (rc != 0) {   /* the report says why the cell failed: shown */
        char rep[2048] = "";
        FILE *f;
        size_t n;
        snprintf(p, sizeof p, "%s/report.txt", dir);
        if ((f = fopen(p, "r"))) {
            n = fread(rep, 1, sizeof rep - 1, f);
            rep[n] = 0;
            fclose(f);
        }
        CHECKF(0, "exit %d: %s; the report: %s", rc, err, rep);
    }
    CHECKF(rc != 0 || entries(dir) == 7, "%d entries", entries(dir));
}

/* Item 1: a report is written beside its target and renamed into place: a report that
   cannot be written (a full filesystem, root only) leaves the earlier one byte-identical
   and no temporary; a character device (made with mknod here) is written in place. */
static void reports_replace_atomically(void)
{
    char dbuf[512], args[2048], p[600];
    const char *dir = fresh_dir("atomic", dbuf, sizeof dbuf);
    const char *earlier = "{\"an earlier good report\": true}\n";
    struct stat st;
    FILE *f;
    int fd, rc;
    if (!have_binary()) SKIP("../readbench is not built (run make test)");
    if (!dir) SKIP("cannot make a directory");
    /* a device node: written as a stream, still a device afterwards */
    snprintf(p, sizeof p, "%s/null", dir);
    if (rbt_is_root() && mknod(p, S_IFCHR | 0666, makedev(1, 3)) == 0) {
        snprintf(args, sizeof args, "run '%s' %s --output null --svg null.svg", rbt_small_file(), quick);
        CHECKF(cli(dir, args) == 0, "%s", err);
        CHECK(stat(p, &st) == 0 && S_ISCHR(st.st_mode));
        CHECK(entries(dir) == 2);   /* null, null.svg: no temporary */
        CHECK(unlink(p) == 0);
    }
    if (!rbt_is_root()) SKIP("needs root to mount a small tmpfs (the full-disk half)");
    if (mount("tmpfs", dir, "tmpfs", 0, "size=64k") != 0) SKIP("cannot mount tmpfs here (container?)");
    snprintf(p, sizeof p, "%s/r.json", dir);
    f = fopen(p, "w");
    CHECK(f && fputs(earlier, f) >= 0 && fclose(f) == 0);
    snprintf(args, sizeof args, "%s/filler", dir);   /* fill the filesystem to the last block */
    fd = open(args, O_WRONLY | O_CREAT, 0644);
    CHECK(fd >= 0);
    while (fd >= 0 && write(fd, out, 4096) == 4096) {}
    if (fd >= 0) close(fd);
    snprintf(args, sizeof args, "run '%s' %s --format json --output r.json", rbt_small_file(), quick);
    rc = cli(dir, args);
    CHECKF(rc == 1, "exit %d: %s", rc, err);
    CHECKF(strstr(err, "No space left") != NULL, "%s", err);
    f = fopen(p, "r");
    CHECK(f && fread(out, 1, sizeof out, f) == strlen(earlier) && memcmp(out, earlier, strlen(earlier)) == 0);
    if (f) fclose(f);
    CHECKF(entries(dir) == 2, "%d files: a temporary was left", entries(dir));
    CHECK(umount(dir) == 0);
}

#ifndef RB_NO_REPORTS
/* A write that failed in the middle of a report (its stdio buffer full) on a full filesystem
   is said as that, "No space left", not "I/O error": with musl the failed write empties the
   buffer, the commit's fflush then succeeds, and only the stream's error flag was left (CI's
   musl run, 2026-12-02, twice in a row beside the other suites). */
static void outfile_says_why_a_write_failed(void)
{
    char dbuf[512], p[600], block[4096];
    const char *dir = fresh_dir("enospc", dbuf, sizeof dbuf);
    rb_outfile o;
    rb_error e;
    FILE *f;
    unsigned i;
    int fd;
    if (!dir) SKIP("cannot make a directory");
    if (!rbt_is_root()) SKIP("needs root to mount a small tmpfs");
    if (mount("tmpfs", dir, "tmpfs", 0, "size=64k") != 0) SKIP("cannot mount tmpfs here (container?)");
    memset(block, 'x', sizeof block);
    snprintf(p, sizeof p, "%s/filler", dir);
    fd = open(p, O_WRONLY | O_CREAT, 0644);
    CHECK(fd >= 0);
    while (fd >= 0 && write(fd, block, sizeof block) == (ssize_t)sizeof block) {}
    if (fd >= 0) close(fd);
    snprintf(p, sizeof p, "%s/r.json", dir);
    CHECKF(rb_outfile_open(&o, p, 0, &e) == RB_OK, "%s", e.msg);
    f = o.fd >= 0 ? rb_outfile_stdio(&o, &e) : NULL;
    CHECKF(f != NULL, "%s", e.msg);
    for (i = 0; f && i < 16; i++) fwrite(block, 1, sizeof block, f);   /* past any buffer: a write fails */
    if (f) CHECK(fflush(f) != 0 || ferror(f));
    if (o.fd >= 0) {
        CHECK(rb_outfile_commit(&o, &e) == RB_ESYS);
        CHECKF(strstr(e.msg, "No space left") != NULL, "%s", e.msg);
    }
    CHECKF(entries(dir) == 1, "%d files: a temporary was left", entries(dir));
    CHECK(umount(dir) == 0);
}
#endif

/* Item 1: a FIFO is a stream: with a reader the report goes through it and the FIFO stays;
   with none, exit 1 at once (fopen used to block forever). */
static void report_into_a_fifo(void)
{
    char dbuf[512], p[600], cmd[2048];
    const char *dir = fresh_dir("fifo", dbuf, sizeof dbuf);
    struct stat st;
    FILE *f;
    size_t n;
    int rc;
    if (!have_binary()) SKIP("../readbench is not built (run make test)");
    if (!dir) SKIP("cannot make a directory");
    snprintf(p, sizeof p, "%s/fifo", dir);
    CHECK(mkfifo(p, 0644) == 0);
    snprintf(cmd, sizeof cmd, "run '%s' %s --output fifo", rbt_small_file(), quick);
    rc = cli(dir, cmd);
    CHECKF(rc == 1 && strstr(err, "no process reads that FIFO"), "exit %d: %s", rc, err);
    /* The reader must be in its open() when the run opens the FIFO: on a loaded machine 0.2 s
       was not always enough for cat to get there, so up to 3 tries, each waiting longer. */
    snprintf(cmd, sizeof cmd, "cd '%s' && for s in 0.2 1 3; do cat fifo > got.txt & c=$!; sleep $s; "
             "if timeout 60 '%s' run '%s' %s --output fifo 2>/dev/null; then wait $c; exit 0; fi; "
             "kill $c 2>/dev/null; wait $c 2>/dev/null; done; exit 1", dir, bin, rbt_small_file(), quick);
    CHECK(system(cmd) == 0);
    snprintf(cmd, sizeof cmd, "%s/got.txt", dir);
    f = fopen(cmd, "r");
    n = f ? fread(out, 1, sizeof out - 1, f) : 0;
    out[n] = 0;
    if (f) fclose(f);
    CHECKF(strstr(out, "null") != NULL, "%s", out);
    CHECK(lstat(p, &st) == 0 && S_ISFIFO(st.st_mode) && entries(dir) == 2);
}

/* Item 2: setup --force only creates or replaces regular files: a FIFO (it used to hang in
   open), a character device (as root, `setup /dev/null 1m --force` deleted /dev/null), a
   block device and a symlink to /proc/self/fd/1 are exit 2 naming the type, untouched. */
static void setup_refuses_what_is_not_a_regular_file(void)
{
    char dbuf[512], p[600];
    const char *dir = fresh_dir("nonreg", dbuf, sizeof dbuf);
    struct stat st;
    int rc;
    if (!have_binary()) SKIP("../readbench is not built (run make test)");
    if (!dir) SKIP("cannot make a directory");
    snprintf(p, sizeof p, "%s/fifo", dir);
    CHECK(mkfifo(p, 0644) == 0);
    rc = cli(dir, "setup fifo 1m --force");
    CHECKF(rc == 2 && strstr(err, "a FIFO"), "exit %d: %s", rc, err);
    CHECK(lstat(p, &st) == 0 && S_ISFIFO(st.st_mode));
    snprintf(p, sizeof p, "%s/stdout", dir);
    CHECK(symlink("/proc/self/fd/1", p) == 0);
    rc = cli(dir, "setup stdout 1m --force");
    CHECKF(rc == 2 && strstr(err, "symbolic link to /proc/self/fd/1"), "exit %d: %s", rc, err);
    CHECK(out[0] == 0 && lstat(p, &st) == 0 && S_ISLNK(st.st_mode));
    rc = cli(dir, "setup stdout 1m --force --follow-symlinks");   /* stdout is a pipe here */
    CHECKF(rc == 2 && strstr(err, "a FIFO"), "exit %d: %s", rc, err);
    CHECK(out[0] == 0 && lstat(p, &st) == 0 && S_ISLNK(st.st_mode));
    CHECK(entries(dir) == 2);
    if (!rbt_is_root()) SKIP("needs root for mknod (the device-node half)");
    snprintf(p, sizeof p, "%s/null", dir);
    CHECK(mknod(p, S_IFCHR | 0666, makedev(1, 3)) == 0);
    rc = cli(dir, "setup null 1m --force");
    CHECKF(rc == 2 && strstr(err, "a character device"), "exit %d: %s", rc, err);
    CHECK(lstat(p, &st) == 0 && S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3));
    snprintf(p, sizeof p, "%s/blk", dir);
    CHECK(mknod(p, S_IFBLK | 0600, makedev(7, 250)) == 0);
    rc = cli(dir, "setup blk 1m --force");
    CHECKF(rc == 2 && strstr(err, "a block device"), "exit %d: %s", rc, err);
    CHECK(lstat(p, &st) == 0 && S_ISBLK(st.st_mode));
    CHECK(entries(dir) == 4);
}

static int stop_after_two(uint64_t done, uint64_t total, void *user)
{
    (void)total;
    (void)user;
    return done >= (16u << 20);
}

/* The disk fills up after statvfs said there was room: the callback eats the space. */
static int fill_the_disk(uint64_t done, uint64_t total, void *user)
{
    static char chunk[1 << 16];
    int fd;
    (void)total;
    if (done != (8u << 20)) return 0;
    fd = open((const char *)user, O_WRONLY | O_CREAT, 0644);
    while (fd >= 0 && write(fd, chunk, sizeof chunk) == (ssize_t)sizeof chunk) {}
    if (fd >= 0) close(fd);
    return 0;
}

/* Item 3: a failed setup --force leaves the original byte-identical (same inode) and no
   temporary: aborted by the progress callback, through a followed symlink, and (root) on a
   filesystem that fills up mid-write. */
static void failed_setup_keeps_the_original(void)
{
    char dbuf[512], p[600], l[600], filler[600];
    const char *dir = fresh_dir("keep", dbuf, sizeof dbuf);
    struct stat a, b;
    rb_error e;
    int rc;
    if (!dir) SKIP("cannot make a directory");
    snprintf(p, sizeof p, "%s/orig.dat", dir);
    snprintf(l, sizeof l, "%s/link.dat", dir);
    CHECK(make_file(p, (3u << 20) + 5, 11) == 0 && stat(p, &a) == 0);
    rc = rb_setup_file(p, 64u << 20, 0, RB_OUT_REPLACE, stop_after_two, NULL, &e);
    CHECKF(rc == RB_EINTR, "%d %s", rc, e.msg);
    CHECK(strstr(e.msg, "untouched") != NULL);
    CHECK(holds(p, (3u << 20) + 5, 11) && stat(p, &b) == 0 && a.st_ino == b.st_ino);
    CHECK(entries(dir) == 1);
    CHECK(symlink("orig.dat", l) == 0);
    rc = rb_setup_file(l, 64u << 20, 0, RB_OUT_REPLACE | RB_OUT_FOLLOW, stop_after_two, NULL, &e);
    CHECK(rc == RB_EINTR);
    CHECK(holds(p, (3u << 20) + 5, 11) && lstat(l, &b) == 0 && S_ISLNK(b.st_mode));
    CHECK(entries(dir) == 2);
    /* without RB_OUT_FOLLOW the link is refused, naming it and its target */
    rc = rb_setup_file(l, 1u << 20, 0, RB_OUT_REPLACE, NULL, NULL, &e);
    CHECKF(rc == RB_ENOTREG && strstr(e.msg, "link.dat") && strstr(e.msg, "orig.dat"), "%d %s", rc, e.msg);
    /* with it, the target is replaced (a new inode: atomically), the link stays a link */
    CHECK(rb_setup_file(l, 1u << 20, 7, RB_OUT_REPLACE | RB_OUT_FOLLOW, NULL, NULL, &e) == RB_OK);
    CHECK(holds(p, 1u << 20, 7) && stat(p, &b) == 0 && b.st_ino != a.st_ino);
    CHECK(lstat(l, &b) == 0 && S_ISLNK(b.st_mode) && entries(dir) == 2);
    /* a replacement keeps the old file's permissions, and (root) its owner */
    CHECK(chmod(p, 0640) == 0 && make_file(p, 4096, 3) == 0 && stat(p, &b) == 0 && (b.st_mode & 0777) == 0640);
    if (rbt_is_root()) {
        CHECK(chown(p, 65534, 65534) == 0 && make_file(p, 4096, 4) == 0 && stat(p, &b) == 0);
        CHECK(b.st_uid == 65534 && b.st_gid == 65534 && (b.st_mode & 0777) == 0640);
    }
    if (!rbt_is_root()) SKIP("needs root to mount a small tmpfs (the full-disk half)");
    if (mount("tmpfs", dir, "tmpfs", 0, "size=24m") != 0) SKIP("cannot mount tmpfs here (container?)");
    snprintf(filler, sizeof filler, "%s/filler", dir);
    CHECK(make_file(p, 2u << 20, 11) == 0 && stat(p, &a) == 0);
    rc = rb_setup_file(p, 20u << 20, 0, RB_OUT_REPLACE, fill_the_disk, filler, &e);
    CHECKF(rc == RB_ESYS && e.err == ENOSPC, "%d %s", rc, e.msg);
    CHECK(strstr(e.msg, "partial file removed") != NULL);
    CHECK(holds(p, 2u << 20, 11) && stat(p, &b) == 0 && a.st_ino == b.st_ino);
    CHECKF(entries(dir) == 2, "%d files: a temporary was left", entries(dir));   /* orig.dat, filler */
    CHECK(umount(dir) == 0);
}

/* Item 3 through the CLI: a symlink is refused (exit 2, naming link and target) unless
   --follow-symlinks; then the target is replaced and the link stays. */
static void setup_symlink_needs_follow(void)
{
    char dbuf[512], p[600], l[600];
    const char *dir = fresh_dir("follow", dbuf, sizeof dbuf);
    struct stat st;
    int rc;
    if (!have_binary()) SKIP("../readbench is not built (run make test)");
    if (!dir) SKIP("cannot make a directory");
    snprintf(p, sizeof p, "%s/target.dat", dir);
    snprintf(l, sizeof l, "%s/link.dat", dir);
    CHECK(make_file(p, 1u << 20, 9) == 0 && symlink("target.dat", l) == 0);
    rc = cli(dir, "setup link.dat 2m --force");
    CHECKF(rc == 2 && strstr(err, "link.dat") && strstr(err, "target.dat") && strstr(err, "--follow-symlinks"),
           "exit %d: %s", rc, err);
    CHECK(holds(p, 1u << 20, 9) && lstat(l, &st) == 0 && S_ISLNK(st.st_mode));
    rc = cli(dir, "setup link.dat 2m --force --follow-symlinks");
    CHECKF(rc == 0, "exit %d: %s", rc, err);
    CHECK(holds(p, 2u << 20, RB_DATA_SEED) && lstat(l, &st) == 0 && S_ISLNK(st.st_mode));
    CHECK(entries(dir) == 2);
}

/* Sum of the sizes of the files in dir. */
static uint64_t bytes_in(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    struct stat st;
    char p[1024];
    uint64_t n = 0;
    if (!d) return 0;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.' || (e->d_name[1] && strcmp(e->d_name, ".."))) {
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) n += (uint64_t)st.st_size;
        }
    closedir(d);
    return n;
}

/* Item 4: two signals 2 ms apart during setup (INT, TERM, HUP, QUIT): no temporary and no
   partial file remain, and the exit status is 128 + the signal. */
static void signals_during_setup_leave_nothing(void)
{
    static const int sigs[] = {SIGINT, SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    char dbuf[512], p[600];
    const char *dir = fresh_dir("signals", dbuf, sizeof dbuf);
    unsigned k;
    if (!have_binary()) SKIP("../readbench is not built (run make test)");
    if (!dir) SKIP("cannot make a directory");
    snprintf(p, sizeof p, "%s/big.dat", dir);
    for (k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
        struct timespec two_ms = {0, 2000000}, one_ms = {0, 1000000};
        int st = 0, waited;
        pid_t pid = fork();
        if (pid == 0) {
            int fd = open("/dev/null", O_WRONLY);
            if (fd >= 0) { dup2(fd, 1); dup2(fd, 2); }
            execl(bin, "readbench", "setup", p, "768m", (char *)NULL);
            _exit(127);
        }
        CHECK(pid > 0);
        if (pid <= 0) return;
        for (waited = 0; waited < 20000 && bytes_in(dir) < (16u << 20); waited++) nanosleep(&one_ms, NULL);
        CHECKF(bytes_in(dir) >= (16u << 20), "signal %d: setup did not start writing in 20 s", sigs[k]);
        kill(pid, sigs[k]);
        if (k == 0) nanosleep(&one_ms, NULL);   /* 1 ms, then 2 ms for the rest */
        else nanosleep(&two_ms, NULL);
        kill(pid, sigs[k]);
        CHECK(waitpid(pid, &st, 0) == pid);
        CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 128 + sigs[k], "signal %d: %s %d", sigs[k],
               WIFEXITED(st) ? "exit" : "killed by", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
        CHECKF(entries(dir) == 0, "signal %d: %d files left (%llu bytes)", sigs[k], entries(dir),
               (unsigned long long)bytes_in(dir));
    }
}

/* Item 4 for run: two SIGINTs 2 ms apart used to _exit with a truncated --output file; now
   the finished cells are written as a complete document, exit 130, no temporary left. */
static void double_interrupt_of_a_run_writes_a_complete_report(void)
{
    char dbuf[512], p[600], cmd[1024];
    const char *dir = fresh_dir("runint", dbuf, sizeof dbuf);
    struct timespec half = {0, 500000000}, two_ms = {0, 2000000};
    FILE *f;
    size_t n;
    int st = 0;
    pid_t pid;
    if (!have_binary()) SKIP("../readbench is not built (run make test)");
    if (!dir) SKIP("cannot make a directory");
    snprintf(p, sizeof p, "%s/r.json", dir);
    f = fopen(p, "w");
    CHECK(f && fputs("{\"earlier\": 1}\n", f) >= 0 && fclose(f) == 0);
    pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) { dup2(fd, 1); dup2(fd, 2); }
        execl(bin, "readbench", "run", rbt_small_file(), "--strategies", "null,pread,mmap,read", "--threads", "1",
              "--warmup", "0", "--duration", "300ms", "--iterations", "2", "--format", "json", "--quiet",
              "--output", p, (char *)NULL);
        _exit(127);
    }
    CHECK(pid > 0);
    if (pid <= 0) return;
    nanosleep(&half, NULL);
    kill(pid, SIGINT);
    nanosleep(&two_ms, NULL);
    kill(pid, SIGINT);
    CHECK(waitpid(pid, &st, 0) == pid);
    CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 130, "%s %d", WIFEXITED(st) ? "exit" : "killed by",
           WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
    f = fopen(p, "r");
    n = f ? fread(out, 1, sizeof out - 1, f) : 0;
    out[n] = 0;
    if (f) fclose(f);
    CHECKF(strstr(out, "\"interrupted\"") != NULL && strstr(out, "\"earlier\"") == NULL, "%.200s", out);
    if (rbt_have_python("json")) {
        snprintf(cmd, sizeof cmd, "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '%s'", p);
        CHECK(system(cmd) == 0);
    }
    CHECKF(entries(dir) == 1, "%d files: a temporary was left", entries(dir));
}

/* Item 10: a report that cannot be written to stdout is exit 1 with the error, for every
   command that prints one. */
static void stdout_write_errors_are_failures(void)
{
    char args[2048];
    const char *f = rbt_small_file();
    const char *p64 = probe_file();
    const char *cmds[] = {"--help", "list", "residency '%s'", "run '%s' %s", "run '%s' %s --format json",
                          "prefetch '%s' --threads 1 --ops 50 --policies always", "probe '%s' --case pread"};
    unsigned i;
    if (!have_binary()) SKIP("../readbench is not built (run make test)");
    if (access("/dev/full", W_OK) != 0) SKIP("no /dev/full here");
    if (!p64) SKIP("cannot make the 64 MiB probe file");
    for (i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        int rc;
        char c[1024];
        snprintf(c, sizeof c, cmds[i], strncmp(cmds[i], "probe", 5) ? f : p64, quick);
        snprintf(args, sizeof args, "%s > /dev/full", c);
        rc = cli(rbt_tmpdir(), args);
        CHECKF(rc == 1, "'%s' exited %d", c, rc);
        /* glibc says ENOSPC; musl's stdio reports the failed flush as EIO */
        CHECKF(strstr(err, "standard output") && (strstr(err, "No space left") || strstr(err, "I/O error")), "'%s': %s",
               c, err);
    }
    /* and --output onto a device that refuses the write */
    snprintf(args, sizeof args, "run '%s' %s --output /dev/full", f, quick);
    CHECKF(cli(rbt_tmpdir(), args) == 1 && strstr(err, "/dev/full"), "%s", err);
}

/* Item 17: bad input is exit 2 and creates nothing, whichever option is bad, outputs named. */
static void bad_input_creates_no_output(void)
{
    char dbuf[512], args[2048];
    const char *dir = fresh_dir("badin", dbuf, sizeof dbuf);
    const char *bad[] = {"--hog auto:bad", "--hog auto:0", "--hog auto:-1", "--hog auto:nan", "--hog auto:inf",
                         "--hog 12q", "--scenario lukewarm"};
    unsigned i;
    if (!have_binary()) SKIP("../readbench is not built (run make test)");
    if (!dir) SKIP("cannot make a directory");
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc;
        snprintf(args, sizeof args, "run '%s' %s %s --output o.json --svg o.svg", rbt_small_file(), quick, bad[i]);
        rc = cli(dir, args);
        CHECKF(rc == 2, "'%s' exited %d: %s", bad[i], rc, err);
        CHECKF(entries(dir) == 0, "'%s' left %d files", bad[i], entries(dir));
    }
}

/* Item 18: setup of a size over the free space is refused before writing: exit 1 naming both
   sizes, nothing created (a 1 MiB tmpfs, root only; elsewhere a test would fill the disk). */
static void setup_over_free_space_writes_nothing(void)
{
    char dbuf[512];
    const char *dir = fresh_dir("nospace", dbuf, sizeof dbuf);
    int rc;
    if (!have_binary()) SKIP("../readbench is not built (run make test)");
    if (!dir) SKIP("cannot make a directory");
    if (!rbt_is_root()) SKIP("needs root to mount a small tmpfs");
    if (mount("tmpfs", dir, "tmpfs", 0, "size=1m") != 0) SKIP("cannot mount tmpfs here (container?)");
    rc = cli(dir, "setup big.dat 4m");
    CHECKF(rc == 1 && strstr(err, "needs 4 MiB") && strstr(err, "only 1 MiB free"), "exit %d: %s", rc, err);
    CHECK(entries(dir) == 0);
    CHECK(umount(dir) == 0);
}

void suite_safety(void)
{
    RUN(outputs_never_land_on_the_input);
    RUN(outputs_never_land_in_an_input_directory);
    RUN(reports_replace_atomically);
#ifndef RB_NO_REPORTS
    RUN(outfile_says_why_a_write_failed);
#endif
    RUN(report_into_a_fifo);
    RUN(setup_refuses_what_is_not_a_regular_file);
    RUN(failed_setup_keeps_the_original);
    RUN(setup_symlink_needs_follow);
    RUN(signals_during_setup_leave_nothing);
    RUN(double_interrupt_of_a_run_writes_a_complete_report);
    RUN(stdout_write_errors_are_failures);
    RUN(bad_input_creates_no_output);
    RUN(setup_over_free_space_writes_nothing);
}
