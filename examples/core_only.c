/* Demonstrates the core alone: one cell (a strategy, a thread count, a read size) measured with
   nothing of the reports or the tools compiled in (RB_NO_REPORTS, RB_NO_TOOLS), its rate and
   latency read from the result struct.

   cc -O2 -I. examples/core_only.c -o core_only -lpthread -lm
   ./readbench setup /var/tmp/core.dat 256m && ./core_only /var/tmp/core.dat mmap-random */
#define RB_NO_REPORTS
#define RB_NO_TOOLS
#define READBENCH_IMPLEMENTATION
#include "readbench.h"

int main(int argc, char **argv)
{
    rb_config c;
    rb_result *r = (rb_result *)calloc(1, sizeof *r);   /* histograms: too big for the stack */
    const rb_strategy *s = rb_strategy_find(argc > 2 ? argv[2] : "pread");
    int rc;
    if (argc < 2 || !s || !r) {
        fprintf(stderr, "usage: core_only FILE [STRATEGY]   (a file from: readbench setup FILE 256m)\n");
        free(r);
        return 2;
    }
    memset(&c, 0, sizeof c);                  /* zero: every default */
    c.path = argv[1];
    c.threads = 2;
    c.duration_ns = 200000000;                /* 0.2 s iterations */
    c.iterations = 3;
    rc = rb_run(&c, s, r);
    if (rc != RB_OK) {
        fprintf(stderr, "%s: %s: %s\n", s->name, rb_status_string(r->status), r->reason);
        free(r);
        return 1;
    }
    printf("%s, %u threads: %.2f ops/ms (%u reads of %llu bytes per op), p50 %llu ns, p99 %llu ns\n", s->name,
           c.threads, r->ops_per_ms, r->reads_per_op, (unsigned long long)r->read_size,
           (unsigned long long)rb_hist_percentile(&r->lat, 50), (unsigned long long)rb_hist_percentile(&r->lat, 99));
    free(r);
    return 0;
}
