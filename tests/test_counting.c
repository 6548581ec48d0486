/* suite counting: what the runner counts and what it says about it. Per-thread windows (an
   op in flight at the stop is not counted), the residency when measuring starts, alignment,
   exact percentile ranks, and the result's warnings in every output format. */
#define _GNU_SOURCE
#include "readbench.h"
#include "rbtest.h"
#include <math.h>
#include <unistd.h>

static rb_result res;

/* The whole of what a writer printed, as one string (static, overwritten by the next call). */
static const char *slurp(FILE *f)
{
    static char buf[1 << 17];
    size_t n;
    rewind(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static rb_report one_cell_report(const rb_result *x, const char *const *names, unsigned *threads,
                                 uint64_t *sizes)
{
    rb_report r;
    memset(&r, 0, sizeof r);
    r.results = x;
    r.count = 1;
    r.strategies = names;
    r.nstrategies = 1;
    threads[0] = x->threads;
    r.threads = threads;
    r.nthreads = 1;
    sizes[0] = x->read_size;
    r.read_sizes = sizes;
    r.nread_sizes = 1;
    return r;
}

/* A result's warnings reach every output format: JSON as a list per row (escaped), CSV as
   one quoted column, table and markdown as a footnote whose number marks the cell; more
   than RB_MAX_WARNINGS are counted, not lost silently. */
static void warnings_reach_every_format(void)
{
    static const char *const names[] = {"null"};
    unsigned th[1], k;
    uint64_t sz[1];
    rb_report r;
    const char *out;
    memset(&res, 0, sizeof res);
    rb_hist_init(&res.lat);
    res.strategy = "null";
    res.threads = 2;
    res.read_size = 4096;
    res.iterations = 1;
    res.ops_per_ms = 1.5;
    rb_hist_record(&res.lat, 1000);
    snprintf(res.warnings[0], RB_REASON_LEN, "first \"quoted\" warning");
    snprintf(res.warnings[1], RB_REASON_LEN, "second warning");
    res.nwarnings = 2;
    r = one_cell_report(&res, names, th, sz);

    { FILE *f = tmpfile(); rb_report_json(f, &r); out = slurp(f); }
    CHECKF(strstr(out, "\"warnings\": [\"first \\\"quoted\\\" warning\", \"second warning\"]") != NULL, "%s", out);
    { FILE *f = tmpfile(); rb_report_csv(f, &r); out = slurp(f); }
    CHECKF(strstr(out, ",warnings\n") != NULL, "%s", out);
    CHECKF(strstr(out, ",\"first \"\"quoted\"\" warning | second warning\"\n") != NULL, "%s", out);
    { FILE *f = tmpfile(); rb_report_table(f, &r, 0); out = slurp(f); }
    CHECKF(strstr(out, "1.50 [1]") != NULL && strstr(out, "[1] null T02 4 KiB:") != NULL &&
           strstr(out, "second warning") != NULL, "%s", out);
    { FILE *f = tmpfile(); rb_report_table(f, &r, 1); out = slurp(f); }
    CHECKF(strstr(out, "**warnings**") != NULL && strstr(out, "  - first \"quoted\" warning") != NULL, "%s", out);

    for (k = 0; k < RB_MAX_WARNINGS; k++) snprintf(res.warnings[k], RB_REASON_LEN, "w%u", k);
    res.nwarnings = RB_MAX_WARNINGS;
    res.warnings_dropped = 3;
    { FILE *f = tmpfile(); rb_report_json(f, &r); out = slurp(f); }
    CHECKF(strstr(out, "\"3 more warnings were not kept\"]") != NULL, "%s", out);
}

void suite_counting(void)
{
    RUN(warnings_reach_every_format);
}
