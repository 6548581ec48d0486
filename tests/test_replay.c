#define _GNU_SOURCE
/* Trace replay (issue 13): reads of their own lengths in every strategy. */
#include "readbench.h"
#include "rbtest.h"
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

void suite_replay(void)
{
    RUN(every_strategy_reads_the_length_of_each_read);
}
