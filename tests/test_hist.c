#define _GNU_SOURCE
#include "readbench.h"
#include "rbtest.h"
#include <math.h>

static rb_hist h1, h2, h3;   /* ~19 KiB each: static, not on the stack */
static uint64_t samples[200000];

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 11;
}

/* Every reported percentile is within 1/128 of the exact one, and inside [min, max]. */
static void check_against_exact(uint64_t *v, unsigned n)
{
    static const double pcts[] = {1, 10, 50, 90, 99, 99.9, 99.99, 100};
    static const uint64_t num[] = {1, 10, 50, 90, 99, 999, 9999, 1}, den[] = {100, 100, 100, 100, 100, 1000, 10000, 1};
    unsigned i;
    rb_hist_init(&h1);
    for (i = 0; i < n; i++) rb_hist_record(&h1, v[i]);
    qsort(v, n, sizeof v[0], cmp_u64);
    CHECK(rb_hist_total(&h1) == n);
    CHECK(h1.min == v[0] && h1.max == v[n - 1]);
    for (i = 0; i < sizeof pcts / sizeof pcts[0]; i++) {
        uint64_t rank = (num[i] * n + den[i] - 1) / den[i], exact = v[(rank ? rank : 1) - 1];   /* exact ceil */
        uint64_t got = rb_hist_percentile(&h1, pcts[i]);
        double err = fabs((double)got - (double)exact) / (double)(exact ? exact : 1);
        CHECKF(err <= 1.0 / 128 + 1e-12, "p%g: got %llu, exact %llu, error %.5f", pcts[i],
               (unsigned long long)got, (unsigned long long)exact, err);
        CHECK(got >= h1.min && got <= h1.max);
    }
}

static void uniform(void)
{
    uint64_t s = 1;
    unsigned i;
    for (i = 0; i < 200000; i++) samples[i] = 1 + lcg(&s) % 1000000;
    check_against_exact(samples, 200000);
}

static void bimodal(void)
{
    uint64_t s = 2;
    unsigned i;
    for (i = 0; i < 200000; i++)
        samples[i] = (i % 10 == 0) ? 80000 + lcg(&s) % 20000 : 150 + lcg(&s) % 100;
    check_against_exact(samples, 200000);
}

static void heavy_tail(void)
{
    uint64_t s = 3;
    unsigned i;
    for (i = 0; i < 200000; i++) {   /* Pareto, alpha 1.1: most small, a few enormous */
        double u = ((double)(lcg(&s) % 1000000) + 1) / 1000001.0;
        samples[i] = (uint64_t)(200.0 / pow(u, 1.0 / 1.1));
    }
    check_against_exact(samples, 200000);
}

static void exact_below_128_and_error_bound_everywhere(void)
{
    uint64_t v, s = 4;
    unsigned i;
    for (v = 0; v < 128; v++) CHECK(rb_hist_bucket_value(rb_hist_index(v)) == v);
    for (i = 0; i < 100000; i++) {
        unsigned shift = (unsigned)(lcg(&s) % 42);
        uint64_t x = (lcg(&s) % ((uint64_t)1 << 42)) >> shift;   /* all magnitudes */
        unsigned idx = rb_hist_index(x);
        double rep = (double)rb_hist_bucket_value(idx);
        CHECK(idx < RB_HIST_BUCKETS);
        if (x >= 128) CHECKF(fabs(rep - (double)x) / (double)x <= 1.0 / 128, "value %llu",
                             (unsigned long long)x);
    }
    /* one hour is inside the buckets; 2^42 ns is the first overflow */
    CHECK(rb_hist_index(3600000000000ULL) < RB_HIST_BUCKETS);
    CHECK(rb_hist_index((uint64_t)1 << 42) == RB_HIST_BUCKETS);
    CHECK(sizeof(rb_hist) < 20 * 1024);
}

static void merge_equals_recording_into_one(void)
{
    uint64_t s = 5;
    unsigned i;
    rb_hist_init(&h1);
    rb_hist_init(&h2);
    rb_hist_init(&h3);
    for (i = 0; i < 50000; i++) {
        uint64_t v = lcg(&s) % 10000000;
        rb_hist_record(i % 2 ? &h1 : &h2, v);
        rb_hist_record(&h3, v);
    }
    rb_hist_merge(&h1, &h2);
    CHECK(memcmp(&h1, &h3, sizeof h1) == 0);
}

static void overflow_is_counted_not_dropped(void)
{
    rb_hist_init(&h1);
    rb_hist_record(&h1, 100);
    rb_hist_record(&h1, (uint64_t)1 << 50);
    rb_hist_record(&h1, (uint64_t)1 << 45);
    CHECK(h1.overflow == 2);
    CHECK(rb_hist_total(&h1) == 3);
    CHECK(h1.max == (uint64_t)1 << 50);
    CHECK(rb_hist_percentile(&h1, 100) == (uint64_t)1 << 50);
    CHECK(rb_hist_percentile(&h1, 90) == (uint64_t)1 << 50);   /* in the overflow: max */
    CHECK(rb_hist_percentile(&h1, 10) == 100);
    CHECK(rb_hist_mean(&h1) > 1e14);
}

static void empty_and_single(void)
{
    rb_hist_init(&h1);
    CHECK(rb_hist_percentile(&h1, 50) == 0);
    rb_hist_record(&h1, 123456);
    CHECK(rb_hist_percentile(&h1, 50) == 123456);   /* clamped to [min, max] = the value */
    CHECK(rb_hist_percentile(&h1, 99.9) == 123456);
}

void suite_hist(void)
{
    RUN(uniform);
    RUN(bimodal);
    RUN(heavy_tail);
    RUN(exact_below_128_and_error_bound_everywhere);
    RUN(merge_equals_recording_into_one);
    RUN(overflow_is_counted_not_dropped);
    RUN(empty_and_single);
}
