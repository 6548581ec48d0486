#define _GNU_SOURCE
/* Trace replay (issue 13): reads of their own lengths in every strategy, the trace parsers
   (strace, fio's iolog v2 and v3, CSV) on traces real programs wrote (tests/traces), what a
   replay reads, and every bad input said with its line number, never a crash. */
#include "readbench.h"
#include "rbtest.h"
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- every strategy reads exactly the length it is given ---- */

/* One op of one read through strategy s's own functions (open, thread_init, read_op, the
   phase's end, fini, close) into a buffer poisoned with 0xAA: the bytes of the read must be
   the file's, every byte past its length untouched. 1: it ran and was right; 0: it cannot run
   here; -1: wrong. */
static int one_read(const rb_strategy *s, const rb_config *c, uint64_t off, uint64_t len)
{
    rb_target t;
    rb_worker w;
    char why[RB_REASON_LEN];
    unsigned char *want = (unsigned char *)malloc((size_t)c->read_size);
    int rc, ok = 1;
    size_t i;
    memset(&t, 0, sizeof t);
    memset(&w, 0, sizeof w);
    t.s = s;
    t.cfg = c;
    t.fd = -1;
    t.page = (size_t)sysconf(_SC_PAGESIZE);
    if (!want || s->open(&t, why, sizeof why) != RB_OK) {
        if (s->close) s->close(&t);
        free(want);
        return 0;
    }
    t.size = t.map_len;
    w.t = &t;
    w.fd = -1;
    w.buf_len = (size_t)c->read_size;
    if (posix_memalign((void **)&w.buf, t.page, w.buf_len) != 0) w.buf = NULL;
    w.expect = (unsigned char *)malloc((size_t)c->read_size);
    w.lens = &len;
    CHECK(w.buf && w.expect);
    if (w.buf && w.expect && (!s->thread_init || s->thread_init(&w, why, sizeof why) == RB_OK)) {
        memset(w.buf, 0xAA, w.buf_len);
        CHECK(rb_worker_read_len(&w, 0) == len);
        rc = s->read_op(&w, &off, 1);
        if (w.phase_end) w.phase_end(&w);
        rb_fill_pattern(want, off, (size_t)len, c->data_seed);
        if (!(s->flags & RB_S_NOIO)) ok = rc == 0 && memcmp(w.buf, want, (size_t)len) == 0;
        for (i = (size_t)len; i < w.buf_len; i++) ok = ok && w.buf[i] == 0xAA;
        ok = ok && !w.io_errors && !w.short_reads && !w.verify_mismatches;
        CHECKF(ok, "%s: a read of %llu bytes at %llu (io errors %llu, short %llu, mismatches %llu)", s->name,
               (unsigned long long)len, (unsigned long long)off, (unsigned long long)w.io_errors,
               (unsigned long long)w.short_reads, (unsigned long long)w.verify_mismatches);
        if (s->thread_fini) s->thread_fini(&w);
    } else {
        ok = 0;
    }
    if (s->close) s->close(&t);
    free(w.buf);
    free(w.expect);
    free(want);
    return ok ? 1 : -1;
}

static void every_strategy_reads_the_length_of_each_read(void)
{
    unsigned n, i, ran = 0;
    const rb_strategy *s = rb_strategies(&n);
    rb_config c, d;
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.read_size = 16384;   /* the longest read: the buffer */
    c.reads_per_op = 1;
    c.verify = 1;
    rb_config_defaults(&c, &d);
    for (i = 0; i < n; i++) {
        int direct = (s[i].flags & RB_S_DIRECT) != 0, r;
        /* direct I/O: page multiples; the others an odd length at an odd offset, and one that
           ends at the file's last byte (a read of read_size there would pass the end) */
        r = one_read(&s[i], &d, direct ? 8192 : 12345, direct ? 4096 : 100);
        if (r == 0) { fprintf(stderr, "    %s does not run here\n", s[i].name); continue; }
        CHECK(r == 1);
        if (!direct && r == 1) CHECK(one_read(&s[i], &d, (8u << 20) - 777, 777) == 1);
        ran++;
    }
    CHECK(ran >= 10);
}

/* ---- the parsers ---- */

static char out[1 << 16], err[8192];

static int cli(const char *args) { return rbt_cli_run(rbt_tmpdir(), args, "120", out, sizeof out, err, sizeof err); }

/* A committed trace by its absolute path (the tests run in tests/). */
static const char *trace_file(const char *name)
{
    static char ring[4][1024];
    static unsigned k;
    char cwd[512], *p = ring[k++ % 4];
    snprintf(p, 1024, "%s/traces/%s", getcwd(cwd, sizeof cwd) ? cwd : ".", name);
    return p;
}

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    int ok = f && fputs(text, f) >= 0;
    if (f && fclose(f) != 0) ok = 0;
    return ok;
}


static rb_trace tr;

/* Parses text as format f for FILE /far/away/test.db of `size` bytes (nothing on this machine). */
static int parse(const char *text, int f, int skip_bad, uint64_t size)
{
    rb_trace_options o;
    memset(&o, 0, sizeof o);
    o.file = "/far/away/test.db";
    o.file_size = size;
    o.format = f;
    o.skip_bad = skip_bad;
    rb_trace_free(&tr);
    return rb_trace_parse(&tr, text, strlen(text), &o);
}

/* Stream s holds exactly these (offset, length) pairs, in order. */
static int stream_is(unsigned s, const uint64_t *pairs, size_t n)
{
    size_t i;
    if (s >= tr.nstreams || tr.streams[s].n != n) {
        fprintf(stderr, "    stream %u: %zu reads, not %zu\n", s, s < tr.nstreams ? tr.streams[s].n : (size_t)0, n);
        return 0;
    }
    for (i = 0; i < n; i++)
        if (tr.streams[s].reads[i].off != pairs[2 * i] || tr.streams[s].reads[i].len != pairs[2 * i + 1]) {
            fprintf(stderr, "    stream %u read %zu: (%llu, %llu), not (%llu, %llu)\n", s, i,
                    (unsigned long long)tr.streams[s].reads[i].off, (unsigned long long)tr.streams[s].reads[i].len,
                    (unsigned long long)pairs[2 * i], (unsigned long long)pairs[2 * i + 1]);
            return 0;
        }
    return 1;
}

/* Descriptors reused for another file, dup/dup2/fcntl copies that share a position, lseek and
   read positions, preadv's sum, a call split by another thread's line, failed calls. */
static void strace_follows_descriptors_and_positions(void)
{
    static const char text[] =
        "1000 openat(AT_FDCWD, \"/etc/ld.so.cache\", O_RDONLY|O_CLOEXEC) = 3\n"
        "1000 read(3, \"\\177ELF\\2\\1\"..., 832) = 832\n"
        "1000 close(3)                      = 0\n"
        "1000 openat(AT_FDCWD, \"data/test.db\", O_RDONLY) = 3\n"
        "1000 pread64(3, \"SQLite format 3\\0\"..., 100, 0) = 100\n"
        "1000 lseek(3, 4096, SEEK_SET)      = 4096\n"
        "1000 read(3, \"\"..., 4096) = 4096\n"
        "1000 read(3, \"a, b) = 5\"..., 1000) = 1000\n"
        "1000 lseek(3, -192, SEEK_CUR)      = 9000\n"
        "1000 read(3, 0x5581a2c0, 10)       = 10\n"
        "1000 dup(3)                        = 5\n"
        "1000 read(5, \"\"..., 6)         = 6\n"
        "1000 lseek(3, 0, SEEK_END)         = 1048576\n"
        "1000 read(5, \"\", 4096)           = 0\n"
        "1000 dup2(3, 7)                    = 7\n"
        "1000 close(3)                      = 0\n"
        "1000 pread64(7, \"\"..., 512, 512) = 512\n"
        "1000 openat(AT_FDCWD, \"/tmp/other\", O_RDONLY) = 3\n"
        "1000 pread64(3, \"\"..., 4096, 0)  = 4096\n"
        "1000 fcntl(7, F_DUPFD_CLOEXEC, 10) = 10\n"
        "1000 fcntl(7, F_GETFL)             = 0x8000 (flags O_RDONLY|O_LARGEFILE)\n"
        "1001 pread64(10,  <unfinished ...>\n"
        "1000 preadv(7, [{iov_base=\"\"..., iov_len=100}, {iov_base=\"\"..., iov_len=200}], 2, 65536) = 300\n"
        "1001 <... pread64 resumed>\"\"..., 4096, 8192) = 4096\n"
        "1000 pread64(7, 0x7f00, 4096, 0)   = -1 EBADF (Bad file descriptor)\n"
        "1000 lseek(7, 100, SEEK_SET)       = 100\n"
        "1000 preadv2(7, [{iov_base=\"\"..., iov_len=50}], 1, -1, RWF_NOWAIT) = 50\n"
        "1000 read(7, \"\"..., 20)          = 20\n"
        "1000 close(10)                     = 0\n"
        "1000 pread64(10, \"\"..., 16, 0)    = 16\n"
        "1000 exit_group(0)                 = ?\n"
        "1000 +++ exited with 0 +++\n";
    static const uint64_t main_thread[] = {0, 100, 4096, 4096, 8192, 1000, 9000, 10, 9010, 6, 512, 512,
                                           65536, 300, 100, 50, 150, 20};
    static const uint64_t other_thread[] = {8192, 4096};
    CHECKF(parse(text, RB_TRACE_AUTO, 0, 2u << 20) == RB_OK, "%s", tr.why);
    CHECK(tr.format == RB_TRACE_STRACE && tr.match == RB_MATCH_BASENAME && !strcmp(tr.named, "data/test.db"));
    CHECK(tr.nstreams == 2 && tr.streams[0].id == 1000 && tr.streams[1].id == 1001);
    CHECK(stream_is(0, main_thread, sizeof main_thread / sizeof main_thread[0] / 2));
    CHECK(stream_is(1, other_thread, 1));
    CHECK(tr.reads == 10 && tr.other_reads == 2 && tr.failed == 2 && tr.skipped == 0);
    CHECKF(tr.unplaced == 1, "%llu reads on a closed descriptor", (unsigned long long)tr.unplaced);
    CHECK(tr.max_len == 4096 && tr.max_end == 65536 + 300 && tr.has_time == 0 && tr.streams[1].reads[0].line == 24);
    CHECK(tr.unaligned == 8 && tr.unaligned_line == 5);
    /* the same lines named as the file they are, exactly: no basename guess */
    {
        rb_trace_options o;
        memset(&o, 0, sizeof o);
        o.file = "data/test.db";
        o.file_size = 2u << 20;
        rb_trace_free(&tr);
        CHECK(rb_trace_parse(&tr, text, strlen(text), &o) == RB_OK && tr.match == RB_MATCH_EXACT && tr.reads == 10);
    }
    rb_trace_free(&tr);
}

/* -t/-tt, -ttt and -r timestamps, [pid N] and -y's annotated descriptors (no open in the trace). */
static void strace_timestamps_and_annotations(void)
{
    CHECKF(parse("1000 10:00:00.000100 pread64(3</var/x/test.db>, \"\"..., 10, 0) = 10\n"
                 "1000 10:00:00.000300 pread64(3</var/x/test.db>, \"\"..., 10, 10) = 10\n"
                 "1000 10:00:01 pread64(3</var/x/test.db>, \"\"..., 10, 20) = 10 <0.000011>\n", 0, 0, 100) == RB_OK,
           "%s", tr.why);
    CHECK(tr.reads == 3 && tr.has_time && tr.streams[0].reads[0].time_ns == 0 &&
          tr.streams[0].reads[1].time_ns == 200000 && tr.streams[0].reads[2].time_ns == 999900000);
    CHECK(!strcmp(tr.named, "/var/x/test.db"));
    CHECKF(parse("1700000000.000001 pread64(4</a/test.db>, \"\", 5, 0) = 5\n"
                 "1700000000.500001 read(4</a/test.db>, \"\", 5) = 5\n"
                 "1700000000.600001 lseek(4</a/test.db>, 7, SEEK_SET) = 7\n"
                 "1700000000.700001 read(4</a/test.db>, \"\", 5) = 5\n", 0, 0, 100) == RB_OK, "%s", tr.why);
    CHECK(tr.reads == 2 && tr.unplaced == 1 && tr.streams[0].reads[1].off == 7 && tr.streams[0].reads[1].time_ns == 700000000);
    CHECKF(parse("[pid  7] 0.000000 pread64(4</a/test.db>, \"\", 5, 0) = 5\n"
                 "[pid  8] 0.000250 pread64(4</a/test.db>, \"\", 5, 5) = 5\n"
                 "[pid  7] 0.000250 pread64(4</a/test.db>, \"\", 5, 10) = 5\n", 0, 0, 100) == RB_OK, "%s", tr.why);
    CHECK(tr.nstreams == 2 && tr.streams[0].id == 7 && tr.streams[0].n == 2 && tr.streams[1].reads[0].time_ns == 250000 &&
          tr.streams[0].reads[1].time_ns == 500000);
    rb_trace_free(&tr);
}

/* Every bad line names its number; skip-bad counts instead; a read past FILE's end likewise. */
static void bad_lines_name_their_number(void)
{
    static const char text[] =
        "1 openat(AT_FDCWD, \"test.db\", O_RDONLY) = 3\n"
        "1 pread64(3, \"\"..., 4096, 12x) = 4096\n"
        "1 pread64(3, \"\"..., 4096, 0) = 4096\n"
        "hello world\n"
        "1 pread64(3, \"\"..., 4096, 8192) = 4096\n"
        "1 <... read resumed>\"\", 4) = 4\n";
    CHECK(parse(text, 0, 0, 8192) == RB_EINVAL && strstr(tr.why, "the trace:2: pread64: a malformed offset"));
    CHECKF(parse(text, 0, 1, 8192) == RB_OK && tr.skipped == 4 && tr.reads == 1, "%s", tr.why);
    CHECK(strstr(tr.first_skipped, "line 2:") != NULL);
    CHECK(parse("hello world\n", RB_TRACE_STRACE, 0, 8192) == RB_EINVAL && strstr(tr.why, ":1: not a system call"));
    CHECK(parse("1 openat(AT_FDCWD, \"test.db\", O_RDONLY) = 3\n1 pread64(3, \"\", 4096, 8192) = 4096\n", 0, 0, 8192) ==
              RB_EINVAL && strstr(tr.why, ":2: a read of 4096 bytes at 8192 ends past the end of"));
    CHECK(parse("1 openat(AT_FDCWD, \"test.db\", O_RDONLY) = 3\n1 pread64(3, \"\", 4096, 8192) = 4096\n", 0, 1, 8192) ==
              RB_EINVAL && tr.skipped == 1 && strstr(tr.why, "all 1 were skipped"));
    CHECK(parse("offset,length\n0,4096\n4096,2000000000\n", 0, 0, (uint64_t)1 << 40) == RB_EINVAL &&
          strstr(tr.why, ":3: a read of 2000000000 bytes: more than the 1 GiB"));
    CHECK(parse("0,4096\n4096,x\n", 0, 0, 1 << 20) == RB_EINVAL && strstr(tr.why, ":2: a malformed length 'x'"));
    CHECK(parse("0,4096,1,2,3\n", 0, 0, 1 << 20) == RB_EINVAL && strstr(tr.why, ":1: more than the 4 fields"));
    CHECK(parse("off,len\n0,1\n", 0, 0, 1 << 20) == RB_EINVAL && strstr(tr.why, ":1: a CSV header must be"));
    CHECK(parse("fio version 9 iolog\n/x read 0 1\n", RB_TRACE_IOLOG, 1, 1 << 20) == RB_EINVAL &&
          strstr(tr.why, ":1: not a fio iolog"));
    CHECK(parse("fio version 2 iolog\n/x/test.db frob 0 1\n", 0, 0, 1 << 20) == RB_EINVAL &&
          strstr(tr.why, ":2: unknown iolog action 'frob'"));
    rb_trace_free(&tr);
}

/* A trace of other files says which files it reads; one with no read at all says so. */
static void another_files_trace_names_its_files(void)
{
    CHECK(parse("1 openat(AT_FDCWD, \"/srv/index/_0.cfs\", O_RDONLY) = 3\n"
                "1 pread64(3, \"\", 10, 0) = 10\n1 pread64(3, \"\", 10, 10) = 10\n"
                "1 openat(AT_FDCWD, \"/srv/index/segments_1\", O_RDONLY) = 4\n1 read(4, \"\", 10) = 10\n", 0, 0, 100) ==
          RB_EINVAL);
    CHECKF(strstr(tr.why, "none of its 3 reads is of test.db") || strstr(tr.why, "none of its 3 reads is of /far/away/test.db"),
           "%s", tr.why);
    CHECK(strstr(tr.why, "/srv/index/_0.cfs (2 reads), /srv/index/segments_1 (1 read)") != NULL);
    CHECK(parse("1 openat(AT_FDCWD, \"/x/test.db\", O_RDONLY) = 3\n1 close(3) = 0\n", 0, 0, 100) == RB_EINVAL &&
          strstr(tr.why, "no read of a file in 2 lines"));
    CHECK(parse("", 0, 0, 100) == RB_EINVAL && strstr(tr.why, "no read"));
    CHECK(parse("1 openat(AT_FDCWD, \"/a/test.db\", O_RDONLY) = 3\n1 openat(AT_FDCWD, \"/b/test.db\", O_RDONLY) = 4\n"
                "1 pread64(3, \"\", 1, 0) = 1\n1 pread64(4, \"\", 1, 0) = 1\n", 0, 0, 100) == RB_EINVAL &&
          strstr(tr.why, "the trace reads two files FILE may be (/a/test.db, /b/test.db)"));
    rb_trace_free(&tr);
}

/* Junk, huge numbers, endless lines and brackets, NUL bytes: an error with a line number or a
   skipped count, never a crash (make check runs this under ASan and UBSan). */
static void hostile_traces_never_crash(void)
{
    size_t big = 1000000, i;
    char *s = (char *)malloc(big + 64);
    unsigned f;
    CHECK(s != NULL);
    if (!s) return;
    for (f = 0; f < RB_TRACE_FORMATS; f++) {
        memset(s, 'a', big);
        strcpy(s + big, "\n");
        CHECK(parse(s, (int)f, 0, 100) == RB_EINVAL && strstr(tr.why, ":1:"));
        CHECK(parse(s, (int)f, 1, 100) == RB_EINVAL);
        memset(s, '(', big);
        CHECK(parse(s, (int)f, 0, 100) == RB_EINVAL);
        memset(s, '[', big);
        s[0] = 'r';
        s[1] = '(';
        CHECK(parse(s, (int)f, 0, 100) == RB_EINVAL);
        for (i = 0; i < big; i++) s[i] = (char)(i * 7919 % 251 + 1);   /* every byte but NUL */
        CHECK(parse(s, (int)f, 1, 100) != RB_OK);
    }
    rb_trace_free(&tr);
    CHECK(rb_trace_parse(&tr, "0,1\n\0\n1,1\n", 8, NULL) == RB_EINVAL && strstr(tr.why, ":2: binary data"));
    rb_trace_free(&tr);
    {
        rb_trace_options o;
        memset(&o, 0, sizeof o);
        o.file_size = 100;
        CHECK(rb_trace_parse(&tr, "0,1\n\0junk\n1,1\n", 14, &o) == RB_EINVAL && strstr(tr.why, ":2: binary data"));
    }
    CHECK(parse("1 pread64(3</x/test.db>, \"\", 99999999999999999999999, 0) = 1\n", 0, 0, 100) == RB_EINVAL &&
          strstr(tr.why, "a malformed length"));
    CHECK(parse("1 pread64(3</x/test.db>, \"\", 5, 18446744073709551615) = 5\n", 0, 0, 100) == RB_EINVAL &&
          strstr(tr.why, "passes 2^64"));
    CHECK(parse("1 pread64(99999999</x/test.db>, \"\", 5, 0) = 5\n", 0, 0, 100) == RB_EINVAL &&
          strstr(tr.why, "descriptor 99999999"));
    CHECK(parse("1 pread64(3</x/test.db>, \"\", 5, 0) = 9223372036854775808\n", 0, 0, 100) == RB_EINVAL);
    CHECK(parse("18446744073709551615,1\n", 0, 0, 100) == RB_EINVAL);
    CHECK(parse("1 <... pread64 resumed>) = 1\n", 0, 0, 100) == RB_EINVAL && strstr(tr.why, "no unfinished pread64"));
    CHECK(parse("1 openat(AT_FDCWD, \"\\x\\777\\\", O_RDONLY) = 3\n", 0, 0, 100) == RB_EINVAL);
    free(s);
    rb_trace_free(&tr);
}

/* ---- traces real programs wrote (tests/traces/README.md says how) ---- */

static int load(const char *name, const char *file, uint64_t size)
{
    rb_trace_options o;
    memset(&o, 0, sizeof o);
    o.file = file;
    o.file_size = size;
    rb_trace_free(&tr);
    return rb_trace_load(&tr, trace_file(name), &o);
}

/* sqlite3 answering a join of two databases: test.db opened by a relative name and read with
   read, closed, opened again by its absolute name (the descriptor reused) and read with pread64
   among other.db's preads on another descriptor, after the libraries, nsswitch.conf and passwd
   read on the same descriptors. The counts are the trace's own (awk over its lines): 31 reads of
   test.db (1 read, 30 pread64), 7 of other.db, 10 of the libraries and /etc files, 1 read of 0
   bytes. */
#define SQLITE_DB_SIZE 503808u
static void sqlite3_strace(void)
{
    CHECKF(load("sqlite3-select.strace", "/elsewhere/test.db", SQLITE_DB_SIZE) == RB_OK, "%s", tr.why);
    CHECK(tr.format == RB_TRACE_STRACE && tr.match == RB_MATCH_BASENAME && !strcmp(tr.named, "/var/tmp/rb-replay/test.db"));
    CHECKF(tr.reads == 31 && tr.other_reads == 17 && tr.failed == 1 && tr.nstreams == 1 && tr.skipped == 0 &&
           tr.unplaced == 0, "%llu reads, %llu of other files, %llu failed, %u streams", (unsigned long long)tr.reads,
           (unsigned long long)tr.other_reads, (unsigned long long)tr.failed, tr.nstreams);
    if (tr.nstreams == 1 && tr.streams[0].n == 31) {
        const rb_trace_read *r = tr.streams[0].reads;
        CHECK(r[0].off == 0 && r[0].len == 4096 && r[0].line == 24);   /* read() at the relative open's position */
        CHECK(r[1].off == 0 && r[1].len == 100 && r[1].line == 27);    /* the header */
        CHECK(r[3].off == 24 && r[3].len == 16 && r[3].line == 54);
        CHECK(r[30].off == 348160 && r[30].len == 4096 && tr.streams[0].id == 12725);
    }
    CHECK(tr.unaligned == 2 && tr.unaligned_line == 27 && tr.max_end == 479232 + 4096 && !tr.has_time);
    CHECKF(load("sqlite3-select.strace", "/var/tmp/rb-replay/test.db", SQLITE_DB_SIZE) == RB_OK &&
           tr.match == RB_MATCH_EXACT && tr.reads == 31, "%s", tr.why);
    CHECKF(load("sqlite3-select.strace", "/elsewhere/other.db", 49152) == RB_OK && tr.reads == 7 && tr.other_reads == 41,
           "%s", tr.why);
    CHECK(load("sqlite3-select.strace", "/elsewhere/test.db", 400000) == RB_EINVAL &&
          strstr(tr.why, "sqlite3-select.strace:59: a read of 4096 bytes at 466944 ends past the end of"));
    rb_trace_free(&tr);
}

/* fio's iolog of 64 random 4 KiB reads of an 8 MiB file, version 3 as fio 3.33 wrote it and in
   version 2: the same reads, page-aligned inside the file, times only in version 3. */
static void fio_iologs(void)
{
    uint64_t v3[64][2];
    size_t i;
    int ok = 1;
    CHECKF(load("fio-randread.iolog", "/elsewhere/fio-randread.dat", 8u << 20) == RB_OK, "%s", tr.why);
    CHECK(tr.format == RB_TRACE_IOLOG && tr.match == RB_MATCH_BASENAME && tr.reads == 64 && tr.nstreams == 1 &&
          tr.has_time && tr.unaligned == 0 && tr.max_len == 4096 && tr.max_end <= (8u << 20));
    for (i = 0; tr.nstreams && i < 64; i++) {
        v3[i][0] = tr.streams[0].reads[i].off;
        v3[i][1] = tr.streams[0].reads[i].len;
        if (i) ok &= tr.streams[0].reads[i].time_ns >= tr.streams[0].reads[i - 1].time_ns;
    }
    CHECK(ok && tr.streams[0].reads[0].time_ns == 0 && tr.streams[0].reads[63].time_ns > 0);
    CHECKF(load("fio-randread-v2.iolog", "/elsewhere/fio-randread.dat", 8u << 20) == RB_OK, "%s", tr.why);
    CHECK(tr.format == RB_TRACE_IOLOG && tr.reads == 64 && !tr.has_time);
    for (i = 0; tr.nstreams && i < 64; i++) ok &= tr.streams[0].reads[i].off == v3[i][0] && tr.streams[0].reads[i].len == v3[i][1];
    CHECK(ok);
    rb_trace_free(&tr);
}

/* ---- what a replay reads ---- */

/* A strategy that reads nothing and writes down what it was given: per thread, the first
   RECORDED (offset, length) pairs (through the accessor a custom strategy uses). */
#define RECORDED 64
static uint64_t recorded[4][RECORDED][2];
static unsigned nrecorded[4];

static int record_open(rb_target *t, char *why, size_t wl)
{
    struct stat st;
    (void)why; (void)wl;
    if (stat(t->cfg->path, &st) != 0) return RB_ESYS;
    t->map_len = (uint64_t)st.st_size;
    return RB_OK;
}

static int record_op(rb_worker *w, const uint64_t *off, unsigned n)
{
    unsigned i, k = w->index;
    for (i = 0; i < n && k < 4; i++)
        if (w->measuring && nrecorded[k] < RECORDED) {
            recorded[k][nrecorded[k]][0] = off[i];
            recorded[k][nrecorded[k]++][1] = rb_worker_read_len(w, i);
        }
    return 0;
}

static const rb_strategy recorder = {"record", "writes down the offsets and lengths it is given", RB_S_NOIO, 0,
                                     RB_HINT_NONE, 0, 0, 0,
                                     record_open, NULL, record_op, NULL, NULL};

static rb_result res;

static void run_recorder(const rb_trace *t, unsigned threads, unsigned reads_per_op)
{
    rb_config c;
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.trace = t;
    c.threads = threads;
    c.reads_per_op = reads_per_op;
    c.warmup_ns = 20000000;   /* its reads are not written down; every phase starts the stream again */
    c.duration_ns = 150000000;   /* long enough for each thread to get a CPU on a loaded machine */
    c.iterations = 1;
    memset(recorded, 0, sizeof recorded);
    memset(nrecorded, 0, sizeof nrecorded);
    CHECKF(rb_run(&c, &recorder, &res) == RB_OK, "%s", res.reason);
}

/* Each thread replays its own stream from its first read, in order, looping when it runs out
   (said: trace_loops and a warning); another thread count deals all reads round-robin. */
static void replay_reads_each_stream_in_order(void)
{
    unsigned k, i, ok = 1;
    CHECKF(parse("offset,length,thread,time_ns\n0,100,7,0\n4096,200,8,10\n8192,300,7,20\n12288,400,8,30\n"
                 "16384,500,7,40\n", 0, 0, 8u << 20) == RB_OK, "%s", tr.why);
    CHECK(tr.format == RB_TRACE_CSV && tr.nstreams == 2 && tr.has_time && tr.streams[1].reads[1].time_ns == 30);
    run_recorder(&tr, 2, 0);
    CHECK(res.reads_per_op == 1 && res.read_size == 500 && !strcmp(res.pattern_spec, "trace"));
    CHECKF(nrecorded[0] == RECORDED && nrecorded[1] == RECORDED && res.trace_loops > 0 && res.nwarnings > 0,
           "%u and %u reads recorded, %llu loops, %u warnings, %s", nrecorded[0], nrecorded[1],
           (unsigned long long)res.trace_loops, res.nwarnings, res.reason);
    for (i = 0; i < RECORDED; i++) {   /* thread 0: 0,8192,16384 again and again; thread 1: 4096,12288 */
        ok &= recorded[0][i][0] == 8192 * (i % 3) && recorded[0][i][1] == 100 + 200 * (i % 3);
        ok &= recorded[1][i][0] == 4096 + 8192 * (i % 2) && recorded[1][i][1] == 200 + 200 * (i % 2);
    }
    CHECK(ok);
    run_recorder(&tr, 3, 2);   /* round-robin in trace order: thread k reads k, k + 3, ... */
    for (k = 0, ok = 1; k < 3; k++)
        for (i = 0; i < RECORDED; i++) {
            unsigned j = k + 3 * (i % (k < 2 ? 2 : 1));
            ok &= recorded[k][i][0] == 4096 * j && recorded[k][i][1] == 100 * (j + 1);
        }
    CHECK(ok && res.threads == 3 && res.reads_per_op == 2);
    {   /* more threads than reads: refused, saying why */
        rb_config c;
        memset(&c, 0, sizeof c);
        c.path = rbt_small_file();
        c.trace = &tr;
        c.threads = 6;
        CHECK(rb_run(&c, &recorder, &res) == RB_EINVAL && strstr(res.reason, "a thread would have none"));
    }
    rb_trace_free(&tr);
}

/* The real strategies replay reads of their own lengths and offsets (checked byte for byte
   with verify); bytes/s counts what was read; direct I/O refuses a trace it cannot read. */
static void strategies_replay_with_verify(void)
{
    static const char *const names[] = {"pread", "read", "mmap", "mmap-random-willneed", "pread-nowait", "io_uring",
                                        "io_uring-qd", "pread-fadvise"};
    unsigned i, ran = 0;
    rb_config c;
    CHECKF(parse("0,100\n8388000,608\n4096,16384\n777,1\n", 0, 0, 8u << 20) == RB_OK, "%s", tr.why);
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.trace = &tr;
    c.verify = 1;
    c.warmup_ns = RB_NONE;
    c.duration_ns = 30000000;
    c.iterations = 1;
    c.reads_per_op = 4;
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        const rb_strategy *s = rb_strategy_find(names[i]);
        int rc = rbt_run_cell(&c, s, &res);
        if (rc == RB_UNSUPPORTED) continue;
        CHECKF(rc == RB_OK && res.verify_mismatches == 0 && res.short_reads == 0, "%s: %s", names[i], res.reason);
        if (rc == RB_OK && res.ops)   /* an op is the whole trace: 4 reads averaging 4273.25 bytes */
            CHECKF(fabs(res.bytes_per_sec / res.iops - 4273.25) < 0.01, "%s: %.3f bytes per read", names[i],
                   res.bytes_per_sec / res.iops);
        ran++;
    }
    CHECK(ran >= 5);
    CHECK(rb_run(&c, rb_strategy_find("direct"), &res) == RB_UNSUPPORTED && strstr(res.reason, "page-aligned reads") &&
          strstr(res.reason, "(the first at line 1)"));
    rb_trace_free(&tr);
    CHECK(parse("0,4096\n8192,8192\n", 0, 0, 8u << 20) == RB_OK);
    c.reads_per_op = 0;
    CHECKF(rb_run(&c, rb_strategy_find("direct"), &res) == RB_OK || res.status == RB_UNSUPPORTED, "%s", res.reason);
    rb_trace_free(&tr);
}

/* Issue 21, item 6 (memory): a trace's reads are kept once, 32 bytes each: records compacted
   and permuted into stream order in place, the streams slices of one block (no copy per
   stream), each stream in trace order; the file is read a MiB at a time (never held whole),
   with lines across the chunks' edges, a line longer than a chunk, and one longer than 16 MiB
   (said with its number, passed over with --skip-bad). */
static void streams_are_slices_of_one_block(void)
{
    const char *path = rbt_path("interleaved.csv");
    enum { N = 200000, S = 5 };
    static uint64_t want[S][N];
    static char text[N * 40 + 1000];
    size_t len = 0, counts[S] = {0, 0, 0, 0, 0};
    uint64_t x = 12345, k;
    unsigned s, ok = 1;
    rb_trace from_file;
    rb_trace_options o;
    FILE *f;
    len += (size_t)snprintf(text + len, sizeof text - len, "offset,length,thread,time_ns\n");
    for (k = 0; k < N; k++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        s = (unsigned)((x >> 33) % S);
        want[s][counts[s]++] = (k % 2000) * 4096;
        len += (size_t)snprintf(text + len, sizeof text - len, "%llu,4096,%u,%llu\n", (unsigned long long)(k % 2000) * 4096,
                                100 + s, (unsigned long long)k * 1000);
    }
    CHECKF(parse(text, RB_TRACE_CSV, 0, 8u << 20) == RB_OK, "%s", tr.why);
    CHECK(tr.nstreams == S && tr.reads == N && tr.block != NULL);
    for (s = 0; s < tr.nstreams && s < S; s++) {
        const rb_trace_stream *st = &tr.streams[s];
        unsigned id = (unsigned)st->id - 100;
        ok &= id < S && st->n == counts[id] && st->reads >= tr.block && st->reads + st->n <= tr.block + N;
        for (k = 0; ok && k < st->n; k++) ok &= st->reads[k].off == want[id][k] && (!k || st->reads[k].time_ns > st->reads[k - 1].time_ns);
    }
    CHECK(ok);
    /* the same trace from a file (about 5 MiB: read in chunks), with a 3 MiB comment line first */
    f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        for (k = 0; k < (3u << 20) / 64; k++) fputs(k ? "0123456789012345678901234567890123456789012345678901234567890123" : "#", f);
        fputc('\n', f);
        CHECK(fwrite(text, 1, len, f) == len && fclose(f) == 0);
    }
    memset(&o, 0, sizeof o);
    o.file = "/far/away/test.db";
    o.file_size = 8u << 20;
    CHECKF(rb_trace_load(&from_file, path, &o) == RB_OK, "%s", from_file.why);
    CHECK(from_file.nstreams == S && from_file.reads == N && from_file.lines == N + 2);
    for (s = 0; s < from_file.nstreams && s < tr.nstreams; s++) {
        const rb_trace_read *a = from_file.streams[s].reads, *b = tr.streams[s].reads;
        CHECK(from_file.streams[s].n == tr.streams[s].n && from_file.streams[s].id == tr.streams[s].id);
        for (k = 0, ok = 1; k < tr.streams[s].n && from_file.streams[s].n == tr.streams[s].n; k++)   /* a line later */
            ok &= a[k].off == b[k].off && a[k].len == b[k].len && a[k].time_ns == b[k].time_ns && a[k].line == b[k].line + 1;
        CHECKF(ok, "stream %u from the file differs from the same text's in memory", s);
    }
    rb_trace_free(&from_file);
    CHECK(from_file.streams == NULL && from_file.block == NULL);
    rb_trace_free(&tr);
    /* a line past 16 MiB: an error naming it, or with skip_bad passed over to its end */
    f = fopen(path, "w");
    if (f) {
        fputs("0,4096\n#", f);
        for (k = 0; k < (17u << 20) / 64; k++) fputs("0123456789012345678901234567890123456789012345678901234567890123", f);
        fputs("\n8192,4096\n", f);
        CHECK(fclose(f) == 0);
    }
    CHECK(rb_trace_load(&from_file, path, &o) == RB_EINVAL && strstr(from_file.why, "interleaved.csv:2: a line longer than 16 MiB"));
    rb_trace_free(&from_file);
    o.skip_bad = 1;
    CHECKF(rb_trace_load(&from_file, path, &o) == RB_OK && from_file.reads == 2 && from_file.skipped == 1 &&
           from_file.lines == 3 && from_file.streams[0].reads[1].line == 3, "%s", from_file.why);
    rb_trace_free(&from_file);
    unlink(path);
}

/* Issue 21, item 6: a timed replay whose times go back within a thread, or sit near 2^64 ns.
   The period of a pass (its last time plus its mean gap) wrapped and the replay ran closed
   loop (tens of thousands of ops where the trace asks a few); an iolog with times 1 us then
   0 us was refused as "all recorded at one instant". Now a time before the one ahead of it in
   its stream is held at that one (counted, said with its line), and every time sum saturates:
   a read due after 2^64 ns is never due. */
static void timed_replay_never_goes_back(void)
{
    rb_config c;
    const rb_strategy *null = rb_strategy_find("null");
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.timed = 1;
    c.warmup_ns = RB_NONE;
    c.duration_ns = 100000000;
    c.iterations = 1;
    /* held and counted: thread 1 goes 0, 3, 1 (held at 3), 5 us */
    CHECKF(parse("offset,length,thread,time_ns\n0,4096,1,0\n4096,4096,1,3000\n8192,4096,1,1000\n12288,4096,1,5000\n", 0, 0,
                 8u << 20) == RB_OK, "%s", tr.why);
    CHECK(tr.backwards == 1 && tr.backwards_line == 4 && tr.streams[0].reads[2].time_ns == 3000 &&
          tr.streams[0].reads[3].time_ns == 5000);
    /* another thread's earlier time is no step back */
    CHECK(parse("0,4096,1,5000\n4096,4096,2,1000\n8192,4096,1,6000\n", 0, 0, 8u << 20) == RB_OK && tr.backwards == 0 &&
          tr.nstreams == 2 && tr.streams[0].reads[0].time_ns == 4000 && tr.streams[1].reads[0].time_ns == 0);
    /* two reads, at 0 and 2^64 - 1000 ns: the second is never due; it was due at once, and every
       pass after it too (the period wrapped to 2^64 - 2000): a closed loop */
    CHECK(parse("0,4096,1,0\n4096,4096,1,18446744073709550616\n", 0, 0, 8u << 20) == RB_OK);
    c.trace = &tr;
    CHECKF(rb_run(&c, null, &res) == RB_OK && res.ops <= 2, "%llu ops: %s", (unsigned long long)res.ops, res.reason);
    /* two threads: one goes 20 ms then 10 ms (a pass of 1 ms, wrapped, before: ~100 passes), the
       other 0 then 100 ms; held, the first runs a pass every 20 ms */
    CHECK(parse("0,4096,1,0\n4096,4096,1,100000000\n8192,4096,2,20000000\n12288,4096,2,10000000\n", 0, 0, 8u << 20) == RB_OK);
    c.threads = 2;
    CHECKF(rb_run(&c, null, &res) == RB_OK && res.ops <= 16, "%llu ops: %s", (unsigned long long)res.ops, res.reason);
    /* dealt round-robin to one thread, the two streams' times are out of order: a thread's op is
       never due before its op before */
    c.threads = 1;
    c.reads_per_op = 1;
    CHECKF(rb_run(&c, null, &res) == RB_OK && res.ops <= 16, "%llu ops: %s", (unsigned long long)res.ops, res.reason);
    /* an iolog at 1 us then 0 us: no times left to replay, and the line says why */
    c.threads = 0;
    c.reads_per_op = 0;
    CHECK(parse("fio version 3 iolog\n1 /far/away/test.db add\n1 /far/away/test.db read 0 4096\n"
                "0 /far/away/test.db read 4096 4096\n", 0, 0, 8u << 20) == RB_OK && tr.backwards == 1);
    CHECKF(rb_run(&c, null, &res) == RB_EINVAL && strstr(res.reason, "all at one instant") &&
           strstr(res.reason, "1 time that went back within a stream (the first at line 4)"), "%s", res.reason);
    rb_trace_free(&tr);
}

/* Issue 21, item 6: replay on a directory. A trace's offsets are of the one file it read, not
   of a directory's joint space: refused up front (exit 2, one line, nothing run), where every
   cell used to fail (exit 1) after a bounds check against the directory inode's size. */
static void replay_of_a_directory_is_refused(void)
{
    char args[4096];
    const char *dir = rbt_path("replay-dir"), *t = rbt_path("replay-dir.csv");
    rb_trace_options o;
    rb_error e;
    memset(&o, 0, sizeof o);
    CHECK(rb_setup_files(dir, 4u << 20, 2, 0, 0, NULL, NULL, NULL, &e) == RB_OK);
    CHECK(write_text(t, "0,4096\n"));
    o.file = dir;
    rb_trace_free(&tr);
    CHECK(rb_trace_load(&tr, t, &o) == RB_ENOTREG && strstr(tr.why, "is a directory: a trace is replayed on the one file"));
    rb_trace_free(&tr);
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    snprintf(args, sizeof args, "replay '%s' '%s' --strategies pread --warmup 0 --duration 20ms --iterations 1 --quiet", t,
             dir);
    CHECKF(cli(args) == 2 && strstr(err, "is a directory: a trace is replayed on the one file") && !out[0] &&
           strchr(err, '\n') == err + strlen(err) - 1, "%s", err);
    snprintf(args, sizeof args, "advise '%s' --trace '%s' --strategies pread --states warm --budget 1s --quiet", dir, t);
    CHECKF(cli(args) == 2 && strstr(err, "is a directory"), "%s", err);
}

/* ---- the command ---- */

/* readbench replay TRACE FILE: every format shows what of the trace was replayed. */
static void replay_command_and_its_outputs(void)
{
    char args[4096];
    const char *csv = trace_file("two-threads.csv"), *f = rbt_small_file();
    const char *quick = "--strategies pread,mmap --warmup 0 --duration 20ms --iterations 1 --quiet";
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    snprintf(args, sizeof args, "replay '%s' '%s' %s --format json", csv, f, quick);
    CHECKF(cli(args) == 0, "%s", err);
    CHECK(strstr(out, "\"trace_reads\": 12, \"trace_skipped\": 0") && strstr(out, "\"trace_streams\": 2") &&
          strstr(out, "\"pattern\": \"trace\"") && strstr(out, "\"trace_loops\": ") && strstr(out, "\"threads\": [2]") &&
          strstr(out, "\"trace_format\": \"csv\"") && strstr(out, "\"read_sizes\": [16384]"));
    snprintf(args, sizeof args, "replay '%s' '%s' %s --format csv", csv, f, quick);
    CHECK(cli(args) == 0 && strstr(out, ",warnings,trace_reads,trace_skipped,trace_loops\n") && strstr(out, ",12,0,"));
    snprintf(args, sizeof args, "replay '%s' '%s' %s --threads 3", csv, f, quick);
    CHECKF(cli(args) == 0 && strstr(out, "replay of ") && strstr(out, "12 reads of FILE in 2 streams") &&
           strstr(out, "T03"), "%s%s", out, err);
    snprintf(args, sizeof args, "replay '%s' '%s' %s --format markdown", csv, f, quick);
    CHECK(cli(args) == 0 && strstr(out, "*replay of "));
    /* run --trace is the same thing */
    snprintf(args, sizeof args, "run '%s' --trace '%s' %s --format json", f, csv, quick);
    CHECK(cli(args) == 0 && strstr(out, "\"trace_reads\": 12"));
}

/* The sqlite3 trace replayed on a file of the db's name (matched by base name), every byte
   checked, each strategy family; direct refuses the 100-byte header read, saying so. */
static void sqlite3_trace_replayed(void)
{
    char args[4096];
    const char *db = rbt_path("test.db");
    rb_error e;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    CHECK(rb_setup_file(db, 512u << 10, 0, 1, NULL, NULL, &e) == RB_OK);
    snprintf(args, sizeof args, "replay '%s' '%s' --strategies pread,mmap-random-willneed,io_uring,direct --verify "
             "--warmup 0 --duration 30ms --iterations 1 --reads-per-op 4 --format json --quiet",
             trace_file("sqlite3-select.strace"), db);
    CHECKF(cli(args) == 2 && strstr(err, "'direct' needs page-aligned reads: 2 of the trace's are not (the first at line 27)"),
           "%s", err);
    snprintf(args, sizeof args, "replay '%s' '%s' --strategies pread,mmap-random-willneed,io_uring --verify "
             "--warmup 0 --duration 30ms --iterations 1 --reads-per-op 4 --format json --quiet",
             trace_file("sqlite3-select.strace"), db);
    CHECKF(cli(args) == 0 && strstr(out, "\"trace_reads\": 31") && strstr(out, "\"trace_match\": \"same-file\"") &&
           strstr(out, "\"trace_named\": \"/var/tmp/rb-replay/test.db\"") && !strstr(out, "\"verify_mismatches\": 1") &&
           strstr(out, "\"verified\": true") && !strstr(out, "\"status\": \"error\""), "%s%s", out, err);
}

/* Bad input: one line naming the trace's line, exit 2, nothing written; outputs never land on
   the trace; skip-bad counts instead. */
static void replay_refuses_bad_traces(void)
{
    char args[4096];
    const char *f = rbt_small_file(), *bad = rbt_path("bad.csv"), *other = rbt_path("other.strace");
    const char *good = rbt_path("good.csv");
    const char *quick = "--strategies pread --warmup 0 --duration 20ms --iterations 1 --quiet";
    struct stat st;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    CHECK(write_text(bad, "0,4096\n4096,40x96\n8192,4096\n") &&
          write_text(other, "9 openat(AT_FDCWD, \"/srv/lucene/_3.cfs\", O_RDONLY) = 5\n9 pread64(5, \"\", 4096, 0) = 4096\n"));
    snprintf(args, sizeof args, "replay '%s' '%s' %s", bad, f, quick);
    CHECKF(cli(args) == 2 && strstr(err, "bad.csv:2: a malformed length '40x96'") &&
           strchr(err, '\n') == err + strlen(err) - 1 && !out[0], "%s", err);
    snprintf(args, sizeof args, "replay '%s' '%s' %s --skip-bad --format json", bad, f, quick);
    CHECKF(cli(args) == 0 && strstr(out, "\"trace_reads\": 2, \"trace_skipped\": 1"), "%s", err);
    snprintf(args, sizeof args, "replay '%s' '%s' %s", other, f, quick);
    CHECKF(cli(args) == 2 && strstr(err, "it reads /srv/lucene/_3.cfs (1 read)"), "%s", err);
    CHECK(write_text(good, "0,4096\n8192,4096\n"));   /* a copy: this test tries to overwrite it */
    snprintf(args, sizeof args, "replay '%s' '%s' %s --output '%s'", good, f, quick, good);
    CHECKF(cli(args) == 2 && stat(good, &st) == 0 && st.st_size == 17 && strstr(err, "good.csv"), "%s", err);
    snprintf(args, sizeof args, "replay '%s' '%s' %s --read-size 4k", trace_file("two-threads.csv"), f, quick);
    CHECKF(cli(args) == 2 && strstr(err, "not a read size of 4096"), "%s", err);
    snprintf(args, sizeof args, "replay '%s' '%s' %s --threads 13", trace_file("two-threads.csv"), f, quick);
    CHECKF(cli(args) == 2 && strstr(err, "a thread would have none"), "%s", err);
    snprintf(args, sizeof args, "replay nothing-here.csv '%s' %s", f, quick);
    CHECKF(cli(args) == 2 && strstr(err, "the trace: cannot open"), "%s", err);
    snprintf(args, sizeof args, "replay '%s' %s", bad, quick);
    CHECK(cli(args) == 2 && strstr(err, "needs TRACE and FILE"));
    snprintf(args, sizeof args, "replay '%s' '%s' %s --trace-format iolog", bad, f, quick);
    CHECK(cli(args) == 2 && strstr(err, ":1: not a fio iolog"));
    snprintf(args, sizeof args, "replay '%s' '%s' %s --trace-format xml", bad, f, quick);
    CHECK(cli(args) == 2 && strstr(err, "--trace-format must be auto, strace, iolog or csv"));
}

/* advise --trace: the trace for FILE, its streams as the thread count, in every state. */
static void advise_replays_the_trace(void)
{
    static rb_settings s;
    rb_advise_config ac;
    char why[RB_REASON_LEN], args[4096];
    memset(&s, 0, sizeof s);
    s.cfg.path = rbt_small_file();
    CHECK(rb_settings_set(&s, "trace", trace_file("two-threads.csv"), NULL, why, sizeof why) == RB_OK);
    CHECKF(rb_settings_advise(&s, &ac, why, sizeof why) == RB_OK && ac.cfg.trace == &s.trace && ac.nthreads == 1 &&
           ac.threads[0] == 2 && ac.cfg.read_size == 16384, "%s", why);
    CHECK(rb_settings_set(&s, "trace-format", "iolog", NULL, why, sizeof why) == RB_OK && !s.cfg.trace);
    CHECK(rb_settings_advise(&s, &ac, why, sizeof why) == RB_EINVAL && strstr(why, "two-threads.csv:1: not a fio iolog"));
    rb_settings_free(&s);
    CHECK(!s.cfg.trace && !s.trace.streams);
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    snprintf(args, sizeof args, "advise '%s' --trace '%s' --strategies pread,mmap --states warm --budget 1s "
             "--format json --quiet", rbt_small_file(), trace_file("two-threads.csv"));
    CHECKF(cli(args) == 0 && strstr(out, "\"trace_reads\": 12") && strstr(out, "\"pattern\": \"trace\""), "%s", err);
}

/* The second sweep's trace messages: a negative number on line 1 is said as one, not taken for a
   bad header; a UTF-8 BOM (a spreadsheet's export) is no text; a path longer than any path is
   said as such; --pattern, --align and --read-size beside a trace are each refused the same way
   (a replay reads the trace's own offsets and lengths), by run, replay and advise. */
static void trace_messages_say_what_is_wrong(void)
{
    static char path[5200], text[5400];
    static const char *const beside[] = {"--pattern zipf:1.2", "--pattern runs:4", "--align 4k", "--read-size 4k",
                                         "--scenario sequential-cold", "--pattern hotset:0.1:0.9:contiguous"};
    const char *quick = "--strategies pread --warmup 0 --duration 20ms --iterations 1 --quiet";
    char args[4096];
    unsigned k;
    CHECKF(parse("-5,4096\n0,4096\n", 0, 0, 1 << 20) == RB_EINVAL && strstr(tr.why, ":1: a negative offset '-5'") &&
           !strstr(tr.why, "header"), "%s", tr.why);
    CHECKF(parse("0,4096\n8192,-1\n", 0, 0, 1 << 20) == RB_EINVAL && strstr(tr.why, ":2: a negative length '-1'"), "%s",
           tr.why);
    CHECKF(parse("\xef\xbb\xbfoffset,length\n0,4096\n4096,4096\n", 0, 0, 1 << 20) == RB_OK && tr.reads == 2, "%s", tr.why);
    CHECKF(parse("\xef\xbb\xbf" "0,4096\r\n8192,4096\r\n", RB_TRACE_CSV, 0, 1 << 20) == RB_OK && tr.reads == 2, "%s", tr.why);
    CHECKF(parse("0,4096\n\xef\xbb\xbf" "8192,4096\n", 0, 0, 1 << 20) == RB_EINVAL, "a BOM past line 1 is no BOM");
    memset(path, 'a', 5000);
    path[0] = '/';
    path[5000] = 0;
    snprintf(text, sizeof text, "1 openat(AT_FDCWD, \"%s\", O_RDONLY) = 3\n1 pread64(3, \"\", 4096, 0) = 4096\n", path);
    CHECKF(parse(text, 0, 0, 8192) == RB_EINVAL && strstr(tr.why, ":1: openat of a path longer than") &&
           !strstr(tr.why, "without a path string"), "%s", tr.why);
    CHECK(parse("1 openat(AT_FDCWD, 3, O_RDONLY) = 3\n", RB_TRACE_STRACE, 0, 8192) == RB_EINVAL &&
          strstr(tr.why, "openat without a path string"));
    rb_trace_free(&tr);
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    for (k = 0; k < sizeof beside / sizeof beside[0]; k++) {
        snprintf(args, sizeof args, "replay '%s' '%s' %s %s", trace_file("two-threads.csv"), rbt_small_file(), quick,
                 beside[k]);
        CHECKF(cli(args) == 2 && strstr(err, "a replay reads the") && strchr(err, '\n') == err + strlen(err) - 1 && !out[0],
               "%s: %s", beside[k], err);
        snprintf(args, sizeof args, "advise '%s' --trace '%s' --strategies pread --states warm --budget 1s --quiet %s",
                 rbt_small_file(), trace_file("two-threads.csv"), beside[k]);
        if (strstr(beside[k], "--align") || strstr(beside[k], "--scenario")) continue;   /* run's options only */
        CHECKF(cli(args) == 2 && strstr(err, "a replay reads the") && !out[0], "advise %s: %s", beside[k], err);
    }
    {   /* an embedder's rb_run: the same refusal */
        rb_config c;
        rb_result *r = (rb_result *)calloc(1, sizeof *r);
        CHECK(load("two-threads.csv", rbt_small_file(), 0) == RB_OK);
        memset(&c, 0, sizeof c);
        c.path = rbt_small_file();
        c.trace = &tr;
        c.threads = 2;
        c.align = 4096;
        CHECKF(r && rb_run(&c, rb_strategy_find("pread"), r) == RB_EINVAL && strstr(r->reason, "aligned to 4096"), "%s",
               r ? r->reason : "");
        free(r);
        rb_trace_free(&tr);
    }
}

void suite_replay(void)
{
    RUN(every_strategy_reads_the_length_of_each_read);
    RUN(strace_follows_descriptors_and_positions);
    RUN(strace_timestamps_and_annotations);
    RUN(bad_lines_name_their_number);
    RUN(another_files_trace_names_its_files);
    RUN(hostile_traces_never_crash);
    RUN(sqlite3_strace);
    RUN(fio_iologs);
    RUN(replay_reads_each_stream_in_order);
    RUN(strategies_replay_with_verify);
    RUN(replay_command_and_its_outputs);
    RUN(sqlite3_trace_replayed);
    RUN(replay_refuses_bad_traces);
    RUN(advise_replays_the_trace);
    RUN(trace_messages_say_what_is_wrong);
    RUN(streams_are_slices_of_one_block);
    RUN(timed_replay_never_goes_back);
    RUN(replay_of_a_directory_is_refused);
}
