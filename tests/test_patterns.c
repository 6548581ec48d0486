/* Access patterns (--pattern): the skewed distributions match their targets on 10^6 draws,
   the same seed draws the same offsets, no read starts past size - read_size (partial last
   block, read sizes that are not page multiples, --align, direct), the permutation scatters
   ranks unless :contiguous, the parser refuses what has no meaning, and a run reports what
   the pattern did to the cache (distinct pages, hit rate) in every output format. */
#define _GNU_SOURCE
#include "readbench.h"
#include "rbtest.h"
#include <math.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define DRAWS 1000000u
#define PAGE 4096u

static rb_worker w;   /* a worker's offset state, as rb_run gives each thread */

/* A sampler for `spec` over a file of `size` bytes (no file is needed to draw offsets). */
static int make(rb_sampler *s, const char *spec, uint64_t size, uint64_t rs, uint64_t align, int direct,
                uint64_t seed)
{
    rb_config c;
    char why[256];
    memset(&c, 0, sizeof c);
    c.read_size = rs;
    c.align = align;
    c.seed = seed;
    if (rb_parse_pattern(spec, &c, why, sizeof why) != RB_OK) {
        fprintf(stderr, "    %s: %s\n", spec, why);
        return -1;
    }
    if (rb_sampler_init(s, &c, size, PAGE, direct, why, sizeof why) != RB_OK) {
        fprintf(stderr, "    %s: %s\n", spec, why);
        return -1;
    }
    memset(&w, 0, sizeof w);
    rb_sampler_seed(s, &w, seed, 0, 1);
    return 0;
}

/* Draws DRAWS offsets and counts each one's rank (the permutation undone) in cnt[0..n). */
static void rank_counts(const rb_sampler *s, uint64_t *cnt, uint64_t n)
{
    uint64_t off[1000];
    unsigned i, k;
    memset(cnt, 0, n * sizeof *cnt);
    for (i = 0; i < DRAWS / 1000; i++) {
        rb_sampler_offsets(s, &w, off, 1000);
        for (k = 0; k < 1000; k++) {
            uint64_t r = rb_sampler_rank(s, off[k] / s->block);
            if (r < n) cnt[r]++;
        }
    }
}

/* Chi-square statistic of counts against P(rank k) ~ (k + 1)^-theta, k < n. Ranks are their
   own bin while the expected count is at least 5; the tail past that is one bin. *df: the
   bins less one. */
static double zipf_chi2(const uint64_t *cnt, uint64_t n, double theta, unsigned *df)
{
    double z = 0, chi = 0, tail_e = 0, tail_o = 0;
    uint64_t k;
    unsigned bins = 0;
    for (k = 0; k < n; k++) z += pow((double)(k + 1), -theta);
    for (k = 0; k < n; k++) {
        double e = DRAWS * pow((double)(k + 1), -theta) / z;
        if (e >= 5 && tail_e == 0) {
            chi += ((double)cnt[k] - e) * ((double)cnt[k] - e) / e;
            bins++;
        } else {
            tail_e += e;
            tail_o += (double)cnt[k];
        }
    }
    if (tail_e > 0) { chi += (tail_o - tail_e) * (tail_o - tail_e) / tail_e; bins++; }
    *df = bins - 1;
    return chi;
}

/* The chi-square critical value at alpha = 0.001 (upper tail) for df degrees of freedom, by
   the Wilson-Hilferty cube approximation with z(0.999) = 3.0902: df = 999 gives 1142.8. */
static double chi2_crit(unsigned df)
{
    double d = df, a = 2.0 / (9.0 * d), t = 1 - a + 3.0902 * sqrt(a);
    return d * t * t * t;
}

/* Zipf rank frequencies on 10^6 draws pass a chi-square goodness-of-fit test at alpha 0.001
   (1000 blocks: df 999, critical value 1142.8 when every rank is its own bin), for several
   theta, 1.0 included, scattered and contiguous; and the test has power: the same draws are
   refused against a neighbouring theta. */
static void zipf_ranks_fit_chi_square(void)
{
    static const char *const specs[] = {"zipf:0.8", "zipf:1", "zipf:1.2", "zipf:1.2:contiguous", "zipf:2"};
    static const double thetas[] = {0.8, 1.0, 1.2, 1.2, 2.0};
    static uint64_t cnt[1000];
    rb_sampler s;
    unsigned i, df;
    for (i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        double chi, crit;
        CHECK(make(&s, specs[i], 1000u * PAGE, PAGE, 0, 0, 42) == 0);
        CHECK(s.nblocks == 1000);
        rank_counts(&s, cnt, 1000);
        chi = zipf_chi2(cnt, 1000, thetas[i], &df);
        crit = chi2_crit(df);
        CHECKF(chi < crit, "%s: chi-square %.1f, critical %.1f (df %u)", specs[i], chi, crit, df);
        if (thetas[i] == 1.2 && !s.contiguous) CHECKF(df == 999 && fabs(crit - 1142.8) < 0.5, "df %u crit %.1f", df, crit);
        chi = zipf_chi2(cnt, 1000, thetas[i] + 0.05, &df);
        CHECKF(chi > chi2_crit(df), "%s against theta + 0.05: chi-square %.1f only", specs[i], chi);
    }
}

/* hotset:F:P: P of the draws in the hot ranks, within 1 percentage point; the hot set is
   round(F x blocks) blocks. */
static void hotset_share_within_one_point(void)
{
    static const char *const specs[] = {"hotset:0.1:0.9", "hotset:0.25:0.5", "hotset:0.01:0.99:contiguous"};
    static const double frac[] = {0.1, 0.25, 0.01}, prob[] = {0.9, 0.5, 0.99};
    static uint64_t cnt[16384];
    rb_sampler s;
    unsigned i;
    for (i = 0; i < 3; i++) {
        uint64_t k, hot = 0;
        double share;
        /* 64 MiB, 16 KiB unaligned reads: 16381 blocks */
        CHECK(make(&s, specs[i], (uint64_t)64 << 20, 16384, 0, 0, 7) == 0);
        CHECK(s.hot == (uint64_t)floor(frac[i] * (double)s.nblocks + 0.5));
        rank_counts(&s, cnt, s.nblocks);
        for (k = 0; k < s.hot; k++) hot += cnt[k];
        share = (double)hot / DRAWS;
        CHECKF(fabs(share - prob[i]) < 0.01, "%s: %.4f of the reads in the hot set", specs[i], share);
    }
}

/* pareto:H, fio's power law: the first m of n - 1 ranks take (m / (n - 1))^(log(1-h)/log h)
   of the draws, 0.8 for the first 20% with h = 0.2; normal:SIGMA: 68.3% within one sigma of
   the middle rank, 95.4% within two. Each within 1 percentage point. */
static void pareto_and_normal_shares(void)
{
    static uint64_t cnt[100000];
    rb_sampler s;
    uint64_t k, in1 = 0, in2 = 0, lo = 0;
    double share;
    CHECK(make(&s, "pareto:0.2", 1001u * PAGE, PAGE, 0, 0, 3) == 0);
    CHECK(s.nblocks == 1001);
    rank_counts(&s, cnt, s.nblocks);
    for (k = 0; k < 200; k++) lo += cnt[k];
    share = (double)lo / DRAWS;
    CHECKF(fabs(share - 0.8) < 0.01, "pareto:0.2: %.4f of the reads in the first 20%% of the ranks", share);
    CHECK(make(&s, "pareto:0.3", 1001u * PAGE, PAGE, 0, 0, 3) == 0);
    rank_counts(&s, cnt, s.nblocks);
    for (k = 0, lo = 0; k < 300; k++) lo += cnt[k];
    share = (double)lo / DRAWS;
    CHECKF(fabs(share - 0.7) < 0.01, "pareto:0.3: %.4f of the reads in the first 30%% of the ranks", share);

    CHECK(make(&s, "normal:0.05", 100000u * (uint64_t)PAGE, PAGE, 0, 0, 5) == 0);
    CHECK(s.nblocks == 100000);
    rank_counts(&s, cnt, s.nblocks);
    for (k = 0; k < s.nblocks; k++) {
        if (k >= 45000 && k < 55000) in1 += cnt[k];
        if (k >= 40000 && k < 60000) in2 += cnt[k];
    }
    CHECKF(fabs((double)in1 / DRAWS - 0.6827) < 0.01, "normal:0.05: %.4f within one sigma", (double)in1 / DRAWS);
    CHECKF(fabs((double)in2 / DRAWS - 0.9545) < 0.01, "normal:0.05: %.4f within two sigma", (double)in2 / DRAWS);
}

/* Same seed and thread, same offsets; another seed or thread, others. */
static void same_seed_same_offsets(void)
{
    static const char *const specs[] = {"random", "sequential", "zipf:1.2", "pareto:0.2", "normal:0.1",
                                        "hotset:0.1:0.9", "runs:16:zipf:1.2", "runs:8"};
    static uint64_t a[4096], b[4096];
    rb_sampler s;
    unsigned i;
    for (i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        int seq = !strcmp(specs[i], "sequential");
        CHECK(make(&s, specs[i], (uint64_t)32 << 20, 5000, 0, 0, 11) == 0);
        rb_sampler_offsets(&s, &w, a, 4096);
        CHECK(make(&s, specs[i], (uint64_t)32 << 20, 5000, 0, 0, 11) == 0);
        rb_sampler_offsets(&s, &w, b, 4096);
        CHECKF(memcmp(a, b, sizeof a) == 0, "%s: seed 11 drew other offsets the second time", specs[i]);
        if (seq) continue;
        CHECK(make(&s, specs[i], (uint64_t)32 << 20, 5000, 0, 0, 12) == 0);
        rb_sampler_offsets(&s, &w, b, 4096);
        CHECKF(memcmp(a, b, sizeof a) != 0, "%s: seeds 11 and 12 drew the same offsets", specs[i]);
        CHECK(make(&s, specs[i], (uint64_t)32 << 20, 5000, 0, 0, 11) == 0);
        rb_sampler_seed(&s, &w, 11, 1, 2);
        rb_sampler_offsets(&s, &w, b, 4096);
        CHECKF(memcmp(a, b, sizeof a) != 0, "%s: threads 0 and 1 drew the same offsets", specs[i]);
    }
}

/* No read starts past size - read_size, for every pattern, with a last block that is
   partial, read sizes that are not page multiples, --align and direct; the partial last
   block is drawn too; starts are multiples of the step; runs are back to back. */
static void offsets_never_past_eof(void)
{
    static const char *const specs[] = {"random", "sequential", "zipf:1.2", "zipf:0.5:contiguous", "pareto:0.2",
                                        "normal:0.3", "hotset:1:1", "hotset:0.1:0.9", "runs:16:hotset:1:1",
                                        "runs:7:zipf:1.1:contiguous", "runs:4"};
    static const uint64_t sizes[] = {(uint64_t)8 << 20, ((uint64_t)8 << 20) + 123, 3 * PAGE + 1, PAGE};
    static const uint64_t rss[] = {PAGE, 5000, 16384, 1, 12288};
    static const uint64_t aligns[] = {0, 512, PAGE, 65536};
    static uint64_t off[20000];
    rb_sampler s;
    unsigned i, j, k, a, d, bad = 0, combos = 0, last_hit = 0, last_wanted = 0;
    for (i = 0; i < sizeof specs / sizeof specs[0]; i++)
        for (j = 0; j < 4; j++)
            for (k = 0; k < 5; k++)
                for (a = 0; a < 4; a++)
                    for (d = 0; d < 2; d++) {
                        uint64_t size = sizes[j], rs = rss[k], n, last = 0;
                        int runs = !strncmp(specs[i], "runs", 4), seq = !strcmp(specs[i], "sequential");
                        if (rs > size || (d && rs % PAGE)) continue;
                        if (make(&s, specs[i], size, rs, aligns[a], d, 99) != 0) { bad++; continue; }
                        combos++;
                        rb_sampler_offsets(&s, &w, off, 20000);
                        for (n = 0; n < 20000; n++) {
                            int start = !runs || n == 0 || off[n] != off[n - 1] + rs;
                            if (off[n] + rs > size) bad++;
                            if (!seq && start && off[n] % s.step) bad++;
                            if (d && off[n] % PAGE) bad++;
                            if (off[n] > last) last = off[n];
                        }
                        /* the last block, partial or not, is drawn: uniform blocks, many draws */
                        if (!strcmp(specs[i], "hotset:1:1") && s.nblocks < 1000) {
                            last_wanted++;
                            last_hit += last >= (s.nblocks - 1) * s.block;
                        }
                        if (bad) {
                            fprintf(stderr, "    %s size %llu rs %llu align %llu direct %u: offset %llu\n", specs[i],
                                    (unsigned long long)size, (unsigned long long)rs, (unsigned long long)aligns[a], d,
                                    (unsigned long long)last);
                            CHECK(bad == 0);
                            return;
                        }
                    }
    CHECK(combos > 300);
    CHECKF(last_hit == last_wanted && last_wanted > 10, "the last block was drawn in %u of %u cases", last_hit,
           last_wanted);
}

/* A run: a drawn start, then run_length - 1 reads each read_size after the last, ending
   early only where the next read would pass the end. */
static void runs_follow_their_start(void)
{
    static uint64_t off[4096];
    rb_sampler s;
    unsigned n, len = 1, full = 0, cut = 0;
    CHECK(make(&s, "runs:16:zipf:1.2", (uint64_t)4 << 20, 16384, 0, 0, 1) == 0);
    CHECK(s.run_length == 16);
    rb_sampler_offsets(&s, &w, off, 4096);
    for (n = 1; n < 4096; n++) {   /* each run that a new start ended (the last one may be cut by the 4096) */
        if (off[n] == off[n - 1] + 16384 && len < 16) { len++; continue; }
        if (len == 16) full++;
        else if (off[n - 1] + 2 * 16384 > ((uint64_t)4 << 20)) cut++;   /* the file ended the run */
        else CHECKF(0, "a run of %u reads ended at %llu", len, (unsigned long long)off[n - 1]);
        len = 1;
    }
    CHECKF(full > 200, "%u full runs", full);
}

/* The permutation is a bijection of [0, n) with its inverse, scatters ranks (the hottest
   ten blocks of zipf are not the first ten), depends on the seed, and :contiguous is the
   identity. */
static void permutation_scatters_unless_contiguous(void)
{
    static const uint64_t ns[] = {2, 3, 5, 16, 17, 1000, 4097};
    static unsigned char seen[4097];
    static uint64_t cnt[4097];
    rb_sampler s, s2;
    unsigned i, top_far = 0, same = 0;
    uint64_t r;
    for (i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        unsigned ok = 1;
        CHECK(make(&s, "zipf:1.2", ns[i] * PAGE, PAGE, 0, 0, 21) == 0 && s.nblocks == ns[i]);
        memset(seen, 0, sizeof seen);
        for (r = 0; r < ns[i]; r++) {
            uint64_t b = rb_sampler_block(&s, r);
            ok &= b < ns[i] && !seen[b] && rb_sampler_rank(&s, b) == r;
            if (b < ns[i]) seen[b] = 1;
        }
        CHECKF(ok, "not a bijection of [0, %llu)", (unsigned long long)ns[i]);
    }
    /* a file of 2^40 blocks: no table, the inverse still holds */
    CHECK(make(&s, "zipf:1.2", ((uint64_t)1 << 52) + PAGE, PAGE, 0, 0, 21) == 0);
    for (r = 0; r < 1000; r++) {
        uint64_t b = rb_sampler_block(&s, r * 1000003);
        CHECK(b < s.nblocks && rb_sampler_rank(&s, b) == r * 1000003);
    }
    /* scattered: the ten hottest blocks spread over the file */
    CHECK(make(&s, "zipf:1.2", 4097u * PAGE, PAGE, 0, 0, 21) == 0);
    for (r = 0; r < 10; r++) top_far += rb_sampler_block(&s, r) >= 100;
    CHECKF(top_far >= 8, "only %u of the 10 hottest blocks lie past block 100", top_far);
    CHECK(make(&s2, "zipf:1.2", 4097u * PAGE, PAGE, 0, 0, 22) == 0);
    for (r = 0; r < 100; r++) same += rb_sampler_block(&s, r) == rb_sampler_block(&s2, r);
    CHECKF(same < 5, "seeds 21 and 22 place %u of 100 ranks alike", same);
    /* contiguous: offsets of the hottest rank are in block 0, the most drawn block */
    CHECK(make(&s, "zipf:1.2:contiguous", 4097u * PAGE, PAGE, 0, 0, 21) == 0);
    for (r = 0; r < 100; r++) CHECK(rb_sampler_block(&s, r) == r);
    {
        uint64_t off[1000], b, best = 0;
        unsigned k;
        memset(cnt, 0, sizeof cnt);
        for (i = 0; i < 100; i++) {
            rb_sampler_offsets(&s, &w, off, 1000);
            for (k = 0; k < 1000; k++) cnt[off[k] / PAGE]++;
        }
        for (b = 1; b < 4097; b++)
            if (cnt[b] > cnt[best]) best = b;
        CHECK(best == 0 && cnt[1] > cnt[2] && cnt[2] > cnt[10]);
    }
}

/* Extreme parameters and tiny files: every draw ends (no endless rejection) and is in range. */
static void extreme_parameters_terminate(void)
{
    static const char *const specs[] = {"zipf:0.001", "zipf:1", "zipf:100", "pareto:0.001", "pareto:0.999",
                                        "normal:0.0001", "normal:1", "hotset:0.0000001:1", "hotset:1:0.0001"};
    static const uint64_t sizes[] = {PAGE, PAGE + 1, 2 * PAGE, ((uint64_t)1 << 50)};
    uint64_t off[2000];
    rb_sampler s;
    unsigned i, j, k;
    for (i = 0; i < sizeof specs / sizeof specs[0]; i++)
        for (j = 0; j < 4; j++) {
            unsigned ok = 1;
            CHECK(make(&s, specs[i], sizes[j], PAGE, 0, 0, 5) == 0);
            rb_sampler_offsets(&s, &w, off, 2000);
            for (k = 0; k < 2000; k++) ok &= off[k] + PAGE <= sizes[j];
            CHECKF(ok, "%s over %llu bytes", specs[i], (unsigned long long)sizes[j]);
        }
}

/* The spec: what parses, its canonical name; what does not, one line that says why, and the
   config untouched. */
static void parse_and_name(void)
{
    static const char *const good[][2] = {
        {"random", "random"}, {"sequential", "sequential"}, {"zipf:1.2", "zipf:1.2"}, {"zipf:1", "zipf:1"},
        {"pareto:0.2", "pareto:0.2"}, {"normal:0.05", "normal:0.05"}, {"hotset:0.1:0.9", "hotset:0.1:0.9"},
        {"hotset:1:1", "hotset:1:1"}, {"zipf:1.2:contiguous", "zipf:1.2:contiguous"}, {"runs:16", "runs:16"},
        {"runs:16:random", "runs:16"}, {"runs:16:zipf:1.2", "runs:16:zipf:1.2"}, {"runs:1:zipf:1.2", "zipf:1.2"},
        {"runs:16:hotset:0.1:0.9:contiguous", "runs:16:hotset:0.1:0.9:contiguous"}, {"zipf:1.20", "zipf:1.2"},
        {"normal:5e-2", "normal:0.05"},
    };
    static const char *const bad[] = {
        "", "zigzag", "zipf", "zipf:", "zipf:0", "zipf:-1", "zipf:abc", "zipf:1.2x", "zipf:nan", "zipf:inf",
        "zipf:101", "pareto:0", "pareto:1", "pareto:1.5", "normal:0", "normal:1.5", "hotset:0.1", "hotset:0:0.9",
        "hotset:0.1:0", "hotset:0.1:1.1", "hotset:1.1:0.5", "runs", "runs:0", "runs:x", "runs:-2",
        "runs:2000000", "runs:16:sequential", "runs:16:zigzag", "random:contiguous", "sequential:contiguous",
        "zipf:1.2:contig", "zipf:1.2:contiguous:contiguous", "zipf:1.2:3", "hotset:0.1:0.9:0.5",
        "Zipf:1.2", "zipf::1.2", "a:b:c:d:e:f:g:h:i",
    };
    unsigned i;
    for (i = 0; i < sizeof good / sizeof good[0]; i++) {
        rb_config c;
        char why[256], name[RB_PATTERN_LEN];
        memset(&c, 0, sizeof c);
        c.contiguous = 1;   /* reset by a spec without :contiguous */
        CHECKF(rb_parse_pattern(good[i][0], &c, why, sizeof why) == RB_OK, "%s: %s", good[i][0], why);
        CHECKF(!strcmp(rb_pattern_name(&c, name, sizeof name), good[i][1]), "%s named %s", good[i][0], name);
        CHECK(rb_pattern_check(&c, why, sizeof why) == RB_OK);
    }
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rb_config c;
        char why[256] = "";
        memset(&c, 0, sizeof c);
        c.pattern = RB_HOTSET;
        c.pattern_arg[0] = 0.5;
        c.pattern_arg[1] = 0.5;
        CHECKF(rb_parse_pattern(bad[i], &c, why, sizeof why) == RB_EINVAL, "'%s' parsed", bad[i]);
        CHECKF(why[0] && !strchr(why, '\n'), "'%s': %s", bad[i], why);
        CHECKF(c.pattern == RB_HOTSET && c.pattern_arg[0] == 0.5 && !c.run_length, "'%s' changed the config", bad[i]);
    }
    {   /* a config set by hand is judged by the same rules, in rb_run too */
        rb_config c;
        rb_result r;
        char why[256];
        memset(&c, 0, sizeof c);
        c.path = rbt_small_file();
        c.pattern = RB_ZIPF;
        CHECK(rb_pattern_check(&c, why, sizeof why) == RB_EINVAL && strstr(why, "theta"));
        CHECK(rb_run(&c, rb_strategy_find("null"), &r) == RB_EINVAL && strstr(r.reason, "theta"));
        c.pattern = RB_SEQUENTIAL;
        c.run_length = 4;
        CHECK(rb_pattern_check(&c, why, sizeof why) == RB_EINVAL);
    }
}

static rb_result res;

static rb_config cell(const char *spec)
{
    rb_config c;
    char why[256];
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();   /* 8 MiB: 2048 pages */
    c.read_size = PAGE;
    c.align = PAGE;
    c.warmup_ns = RB_NONE;
    c.duration_ns = 30000000;
    c.iterations = 2;
    c.seed = 5;
    if (rb_parse_pattern(spec, &c, why, sizeof why) != RB_OK) fprintf(stderr, "    %s: %s\n", spec, why);
    return c;
}

/* Distinct pages per iteration: page-aligned 4 KiB reads of hotset:0.01:1:contiguous touch
   the 20 hot pages at most and, with thousands of reads, all of them; uniform reads touch
   most of the 2048. Hit rate: 1 with the file resident, below 1 with each iteration evicted
   first, and always 1 - cold pages / page reads; fault_hit_rate for mmap strategies only. */
static void pages_touched_and_hit_rate(void)
{
    rb_config c = cell("hotset:0.01:1:contiguous");
    unsigned k;
    c.prewarm = 1;
    CHECKF(rb_run(&c, rb_strategy_find("pread"), &res) == RB_OK, "%s", res.reason);
    CHECK(res.iterations == 2 && res.touched_iterations == 2);
    for (k = 0; k < 2; k++)
        CHECKF(res.iter_pages_touched[k] == 20, "iteration %u touched %lld pages", k, (long long)res.iter_pages_touched[k]);
    /* one page per page-aligned 4 KiB read issued (the op in flight at an iteration's end included) */
    CHECK(res.pages_touched == 20 && res.page_reads == res.reads_issued && res.reads_issued >= res.ops * 16);
    c = cell("random");
    c.prewarm = 1;   /* cached reads: thousands in 30 ms whatever the disk */
    /* ... but not under a sanitizer beside the other suites (CI's rehearsal, 2026-12-02: 992
       pages), so a short iteration is run again 4x as long, 3 tries at most: uniform reads
       touch most pages once there are thousands of them, and never more than 2048. */
    for (k = 0; k < 3; k++, c.duration_ns *= 4) {
        CHECKF(rb_run(&c, rb_strategy_find("pread"), &res) == RB_OK, "%s", res.reason);
        CHECKF(res.pages_touched <= 2048, "%.0f pages", res.pages_touched);
        if (res.pages_touched > 1000) break;
        printf("    random: %.0f pages touched in %llu reads: again, 4x as long\n", res.pages_touched,
               (unsigned long long)res.reads_issued);
    }
    CHECKF(res.pages_touched > 1000 && res.pages_touched <= 2048, "%.0f pages", res.pages_touched);

    c = cell("zipf:1.2");
    c.prewarm = 1;
    /* A warm file can still lose a page mid-cell to the machine (DAMON's reclaim runs on this
       project's VMs; a run of 2026-12-03 saw 3 cold pages in 5,000): 3 tries at most. */
    for (k = 0; k < 3; k++) {
        CHECKF(rb_run(&c, rb_strategy_find("pread"), &res) == RB_OK, "%s", res.reason);
        if (res.hit_rate < 0 || (res.hit_rate == 1 && res.cold_pages == 0)) break;
        printf("    warm: %llu cold pages (evicted under the cell?): again\n", (unsigned long long)res.cold_pages);
    }
    if (res.hit_rate < 0) SKIP("residency per page is not known here (mincore untrusted)");
    CHECKF(res.hit_rate == 1 && res.cold_pages == 0, "warm: hit rate %.4f, %llu cold pages", res.hit_rate,
           (unsigned long long)res.cold_pages);
    CHECK(res.fault_hit_rate < 0);   /* pread: no faults to count */
    c.prewarm = 0;
    c.cache = RB_CACHE_EVICT_EACH;
    c.duration_ns = 200000000;   /* cold faults on a shared disk: room for ops in every iteration */
    CHECKF(rb_run(&c, rb_strategy_find("mmap-random"), &res) == RB_OK, "%s", res.reason);
    CHECKF(res.hit_rate >= 0 && res.hit_rate < 1 && res.cold_pages > 0, "cold: hit rate %.4f", res.hit_rate);
    CHECK(fabs(res.hit_rate - (1 - (double)res.cold_pages / (double)res.page_reads)) < 1e-9);
    if (res.per_process_faults) CHECK(res.fault_hit_rate < 0);   /* no per-thread faults: not measured */
    else CHECKF(res.fault_hit_rate >= 0 && res.fault_hit_rate <= 1, "mmap: fault hit rate %.4f", res.fault_hit_rate);
    CHECK(!strcmp(res.pattern_spec, "zipf:1.2"));
    c = cell("zipf:1.2");
    CHECKF(rb_run(&c, rb_strategy_find("null"), &res) == RB_OK, "%s", res.reason);
    CHECK(res.pages_touched > 0 && res.hit_rate < 0);   /* null reads nothing: no hit rate */
}

/* Every format shows the spec and the new figures; diff matches cells by the full spec. */
static void outputs_carry_pattern_and_figures(void)
{
    static const char *const spec = "runs:16:hotset:0.1:0.9:contiguous";
    const rb_strategy *s[2];
    rb_matrix m;
    rb_report rep;
    rb_diff d;
    rb_json *doc;
    char why[256], *buf = NULL;
    size_t len = 0;
    FILE *f;
    const char *jp = rbt_path("patterns.json");
    memset(&m, 0, sizeof m);
    m.cfg = cell(spec);
    s[0] = rb_strategy_find("pread");
    s[1] = rb_strategy_find("mmap");
    m.strategies = s;
    m.nstrategies = 2;
    CHECK(rb_matrix_check(&m, why, sizeof why) == RB_OK);
    CHECK(rb_run_matrix(&m, &rep) == RB_OK);
    f = open_memstream(&buf, &len);
    rb_report_write(f, &rep, RB_FORMAT_TABLE);
    fclose(f);
    CHECKF(strstr(buf, spec) && strstr(buf, "what the pattern did to the cache") && strstr(buf, "pages/iter"), "%s",
           buf);
    free(buf);
    f = open_memstream(&buf, &len);
    rb_report_write(f, &rep, RB_FORMAT_CSV);
    fclose(f);
    CHECK(strstr(buf, "pages_touched,hit_rate,fault_hit_rate,") && strstr(buf, ",verified,warnings\n") && strstr(buf, spec));
    free(buf);
    f = fopen(jp, "w");
    CHECK(f != NULL);
    if (!f) return;
    rb_report_write(f, &rep, RB_FORMAT_JSON);
    fclose(f);
    doc = rb_json_load(jp, why, sizeof why);
    CHECKF(doc != NULL, "%s", why);
    if (doc) {
        const rb_json *cfg = rb_json_get(doc, "config"), *r0 = rb_json_get(doc, "results")->child;
        CHECK(!strcmp(rb_json_get(cfg, "pattern")->str, spec) && !strcmp(rb_json_get(r0, "pattern")->str, spec));
        CHECK(rb_json_get(r0, "pages_touched")->type == RB_JSON_NUMBER);
        CHECK(rb_json_get(r0, "iter_pages_touched")->type == RB_JSON_ARRAY &&
              rb_json_get(r0, "iter_pages_touched")->n == 2);
        CHECK(rb_json_get(r0, "hit_rate") && rb_json_get(r0, "fault_hit_rate"));
        CHECK(rb_json_get(r0, "fault_hit_rate")->type == RB_JSON_NULL);   /* pread */
        CHECK(rb_diff_make(doc, NULL, &rep, &d, why, sizeof why) == RB_OK);
        CHECK(d.n == 2 && !strcmp(d.rows[0].pattern, spec) && d.rows[0].verdict != RB_DIFF_BASE_ONLY &&
              d.rows[0].verdict != RB_DIFF_NEW_ONLY);
        rb_diff_free(&d);
        rb_json_free(doc);
    }
    rb_report_free(&rep);
}

/* A row that bypasses the page cache has no hit rate: O_DIRECT reads the device whatever is
   resident, and residency made `direct` on a half-cached file read 0.507 while the device read
   every page. Keyed on the row's RB_S_DIRECT flag (every such row, whatever its name), null in
   JSON, empty in CSV, "-" in the table with a line saying why; a buffered row keeps its rate. */
static void bypassing_rows_have_no_hit_rate(void)
{
    const rb_strategy *s[RB_MAX_AXIS], *all;
    unsigned n, i, k, ns = 0, ndirect = 0;
    rb_matrix m;
    rb_report rep;
    char *buf = NULL;
    size_t len = 0;
    FILE *f;
    all = rb_strategies(&n);
    for (i = 0; i < n && ns < RB_MAX_AXIS; i++)
        if ((all[i].flags & RB_S_DIRECT) || !strcmp(all[i].name, "pread")) s[ns++] = &all[i];
    memset(&m, 0, sizeof m);
    m.cfg = cell("random");
    m.cfg.prewarm = 0.5;
    m.strategies = s;
    m.nstrategies = ns;
    for (k = 0;; k++) {   /* a row the machine let measure nothing (rbt_unmeasured): again, 3 runs at most */
        CHECK(rb_run_matrix(&m, &rep) == RB_OK);
        for (i = 0; i < rep.count && !rbt_unmeasured(&rep.results[i]); i++) {}
        if (i == rep.count || k == 2) break;
        fprintf(stderr, "    %s measured nothing: the matrix again\n", rep.results[i].strategy);
        rb_report_free(&rep);
    }
    for (i = 0; i < rep.count; i++) {
        const rb_result *x = &rep.results[i];
        int direct = (rb_strategy_find(x->strategy)->flags & RB_S_DIRECT) != 0;
        if (x->status == RB_UNSUPPORTED) continue;
        CHECKF(x->status == RB_OK, "%s: %s", x->strategy, x->reason);
        if (x->status != RB_OK) continue;
        ndirect += direct;
        CHECKF(x->cache_bypassed == direct, "%s: cache_bypassed %d", x->strategy, x->cache_bypassed);
        if (direct) CHECKF(x->hit_rate < 0 && x->page_reads > 0, "%s: hit rate %.3f", x->strategy, x->hit_rate);
        else if (x->resident_before >= 0)   /* half resident: hits, and misses (how many depends on the reads' count) */
            CHECKF(x->hit_rate > 0.2 && x->hit_rate < 1 && x->cold_pages > 0, "%s: hit rate %.3f", x->strategy,
                   x->hit_rate);
    }
    if (!ndirect) { rb_report_free(&rep); SKIP("no row that bypasses the page cache runs here (tmpfs refuses O_DIRECT?)"); }
    f = open_memstream(&buf, &len);
    rb_report_write(f, &rep, RB_FORMAT_TABLE);
    fclose(f);
    CHECKF(strstr(buf, "\nhit \"-\": the row bypasses the page cache (O_DIRECT") != NULL, "%s", buf);
    CHECKF(strstr(buf, "\ndirect ") && strstr(strstr(buf, "what the pattern did"), "\ndirect "), "%s", buf);
    {   /* the direct row of the pattern table: its hit column is "-" */
        const char *row = strstr(strstr(buf, "what the pattern did"), "\ndirect ");
        char line[256];
        size_t l = strcspn(row + 1, "\n");
        snprintf(line, sizeof line, "%.*s", (int)(l < sizeof line - 1 ? l : sizeof line - 1), row + 1);
        char tok[8][32];   /* direct, 1, 4, KiB, pages, of file, hit, fault hit */
        CHECKF(sscanf(line, "%31s %31s %31s %31s %31s %31s %31s %31s", tok[0], tok[1], tok[2], tok[3], tok[4], tok[5],
                      tok[6], tok[7]) == 8 && !strcmp(tok[6], "-") && !strcmp(tok[7], "-"), "%s", line);
    }
    free(buf);
    f = open_memstream(&buf, &len);
    rb_report_write(f, &rep, RB_FORMAT_JSON);
    fclose(f);
    CHECKF(strstr(buf, "\"hit_rate\": null, \"bypasses_cache\": true") != NULL, "%s", buf);
    CHECKF(strstr(buf, "\"bypasses_cache\": false") != NULL, "%s", buf);
    free(buf);
    rb_report_free(&rep);
}

/* The CLI: a bad spec exits 2 with one line naming the parameter; a good one runs and every
   format names it. */
static void cli_pattern(void)
{
    static const char *const bad[] = {"zipf:0", "zipf", "pareto:1", "normal:2", "hotset:0.1:1.5", "hotset:0:0.5",
                                      "runs:0", "runs:8:sequential", "zipf:1.2:contig"};
    const char *bin = rbt_cli();
    char cmd[2048], line[4096];
    unsigned i;
    if (!bin) SKIP("../readbench is not built (run make test)");
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        FILE *p;
        int st, lines = 0;
        snprintf(cmd, sizeof cmd, "'%s' run '%s' --pattern %s --strategies pread --threads 1 2>&1 >/dev/null", bin,
                 rbt_small_file(), bad[i]);
        p = popen(cmd, "r");
        if (!p) { CHECK(p != NULL); return; }
        line[0] = 0;
        while (fgets(cmd, sizeof cmd, p)) { lines++; snprintf(line, sizeof line, "%s", cmd); }
        st = pclose(p);
        CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 2 && lines == 1 && !strncmp(line, "readbench: ", 11),
               "--pattern %s: exit %d, %d lines: %s", bad[i], WIFEXITED(st) ? WEXITSTATUS(st) : -1, lines, line);
    }
    snprintf(cmd, sizeof cmd, "'%s' run '%s' --pattern hotset:0.1:0.9 --strategies pread --threads 1 --warmup 0 "
             "--duration 20ms --iterations 2 --quiet --format markdown", bin, rbt_small_file());
    {   /* again on exit 1 (3 runs at most): a 20 ms cell the machine let measure nothing */
        unsigned tries;
        int st = -1;
        for (tries = 0; tries < 3; tries++) {
            FILE *p = popen(cmd, "r");
            size_t n = p ? fread(line, 1, sizeof line - 1, p) : 0;
            st = p ? pclose(p) : -1;
            line[n] = 0;
            if (!WIFEXITED(st) || WEXITSTATUS(st) != 1) break;
        }
        CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 0 && strstr(line, "hotset:0.1:0.9"), "%s", line);
    }
}

/* hotset:F:1 keeps its reads in F of the file: the pages its reads touch (every page a read
   spans, not the one it starts in) are F of the file's pages, within a hot range, for 16 KiB
   reads unaligned and page-aligned, 5000-byte and 1 MiB reads (64 KiB-aligned 16 KiB reads:
   their 16 KiB of F of the 64 KiB slots); a run touches the same. The
   hot set is FRACTION of the file's bytes, as a user reads "hotset:0.1:1": before, a hot block
   was the page a read starts in, and 16 KiB reads of hotset:0.1:1 touched ~40% of the file. */
static void hotset_touches_its_fraction_of_the_file(void)
{
    static const struct { uint64_t rs, align; double frac; } cases[] = {
        {16384, 0, 0.1}, {5000, 0, 0.1}, {16384, 4096, 0.25}, {16384, 65536, 0.25}, {4096, 0, 0.01}, {1 << 20, 0, 0.1}};
    static uint8_t page_hit[16384];
    uint64_t off[1000], size = (uint64_t)64 << 20, npages = size / PAGE;
    rb_sampler s;
    unsigned i, k, j;
    char spec[64];
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t touched = 0, p, want;
        snprintf(spec, sizeof spec, "hotset:%g:1", cases[i].frac);
        CHECK(make(&s, spec, size, cases[i].rs, cases[i].align, 0, 17) == 0);
        memset(page_hit, 0, sizeof page_hit);
        for (j = 0; j < DRAWS / 1000; j++) {
            rb_sampler_offsets(&s, &w, off, 1000);
            for (k = 0; k < 1000; k++)
                for (p = off[k] / PAGE; p <= (off[k] + cases[i].rs - 1) / PAGE; p++) page_hit[p] = 1;
        }
        for (p = 0; p < npages; p++) touched += page_hit[p];
        /* F of the pages; with --align past the read size, the reads of F of the aligned slots */
        want = cases[i].align > cases[i].rs ? s.hot * ((cases[i].rs + PAGE - 1) / PAGE)
                                            : (uint64_t)floor(cases[i].frac * (double)npages + 0.5);
        CHECK(s.hot == (uint64_t)floor(cases[i].frac * (double)s.nblocks + 0.5));
        fprintf(stderr, "    %s, reads of %llu (align %llu): %llu of %llu pages touched, %llu hot ranges of %llu bytes\n", spec,
                (unsigned long long)cases[i].rs, (unsigned long long)cases[i].align, (unsigned long long)touched,
                (unsigned long long)npages, (unsigned long long)s.hot, (unsigned long long)s.block);
        CHECK(s.block % PAGE == 0 && s.block >= cases[i].rs && s.hot * s.block <= size);
        CHECKF(touched <= want + s.block / PAGE && touched + s.block / PAGE >= want, "%s: %llu pages touched, %llu are "
               "%g of the file", spec, (unsigned long long)touched, (unsigned long long)want, cases[i].frac);
    }
    {   /* a run: 16 KiB reads of hotset:0.1:1 on the 8 MiB file touch 10% of its 2048 pages */
        rb_config c = cell("hotset:0.1:1");
        c.read_size = 16384;
        c.align = 0;
        unsigned tries;
        c.prewarm = 1;
        /* ~200 random reads touch every hot page; a thread that got little CPU among the other
           suites' made fewer (102 pages touched): again, 3 runs at most */
        for (tries = 0; tries < 3; tries++) {
            CHECKF(rb_run(&c, rb_strategy_find("pread"), &res) == RB_OK, "%s", res.reason);
            if (res.pages_touched >= 200 || res.status != RB_OK) break;
            fprintf(stderr, "    %.0f pages touched in %llu ops: again\n", res.pages_touched, (unsigned long long)res.ops);
        }
        CHECKF(res.pages_touched >= 200 && res.pages_touched <= 208, "%.0f pages touched of 2048", res.pages_touched);
    }
}

void suite_patterns(void)
{
    RUN(zipf_ranks_fit_chi_square);
    RUN(hotset_share_within_one_point);
    RUN(hotset_touches_its_fraction_of_the_file);
    RUN(pareto_and_normal_shares);
    RUN(same_seed_same_offsets);
    RUN(offsets_never_past_eof);
    RUN(runs_follow_their_start);
    RUN(permutation_scatters_unless_contiguous);
    RUN(extreme_parameters_terminate);
    RUN(parse_and_name);
    RUN(pages_touched_and_hit_rate);
    RUN(outputs_carry_pattern_and_figures);
    RUN(bypassing_rows_have_no_hit_rate);
    RUN(cli_pattern);
}
