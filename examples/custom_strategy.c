/* Demonstrates benchmarking your own access pattern: a strategy row defined outside the
   header ("two-level": read a 4 KiB index page, then the 16 KiB block it points to, the way
   a B-tree or a postings list is walked) run through readbench's own runner, next to pread.

   build: cc -O2 -I.. custom_strategy.c -o custom_strategy -lpthread -lm
   run:   ./custom_strategy FILE        (FILE made by `readbench setup FILE 1g`) */
#define READBENCH_IMPLEMENTATION
#include "readbench.h"

/* One op's reads are handed in as offsets; this strategy uses each as an index page and
   derives the block from what it read, so the second read depends on the first. */
static int two_level_op(rb_worker *w, const uint64_t *off, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++) {
        uint64_t idx = off[i] & ~(uint64_t)4095, next;
        if (pread(w->t->fd, w->buf, 4096, (off_t)idx) != 4096) { w->short_reads++; continue; }
        memcpy(&next, w->buf, sizeof next);
        next = (next % (w->t->size - 16384)) & ~(uint64_t)4095;
        if (pread(w->t->fd, w->buf, 16384, (off_t)next) != 16384) w->short_reads++;
        w->sink += w->buf[0];
    }
    return 0;
}

static int open_file(rb_target *t, char *why, size_t wl)
{
    return rb_strategy_find("pread")->open(t, why, wl);   /* reuse the table's open and close */
}

static void close_file(rb_target *t) { rb_strategy_find("pread")->close(t); }

static const rb_strategy two_level = {"two-level", "index page, then the block it points to", 0, 0, RB_HINT_NONE, 0,
                                      0, 0,
                                      open_file, NULL, two_level_op, NULL, close_file};

int main(int argc, char **argv)
{
    rb_config c;
    rb_result r;
    const rb_strategy *rows[2];
    unsigned i;
    if (argc != 2) { fprintf(stderr, "usage: %s FILE\n", argv[0]); return 2; }
    memset(&c, 0, sizeof c);   /* zero means defaults */
    c.path = argv[1];
    c.read_size = 16384;
    c.reads_per_op = 8;
    c.threads = 2;
    c.warmup_ns = 200000000;
    c.duration_ns = 500000000;
    c.iterations = 3;
    rows[0] = &two_level;
    rows[1] = rb_strategy_find("pread");
    for (i = 0; i < 2; i++) {
        if (rb_run(&c, rows[i], &r) != RB_OK) {
            fprintf(stderr, "%s: %s\n", rows[i]->name, r.reason);
            return 1;
        }
        printf("%-10s %8.2f ops/ms  p50 %6.1f us  p99 %6.1f us\n", rows[i]->name, r.ops_per_ms,
               (double)rb_hist_percentile(&r.lat, 50) / 1e3, (double)rb_hist_percentile(&r.lat, 99) / 1e3);
    }
    return 0;
}
