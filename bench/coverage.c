/* bench/coverage.c: how often a nominal 95% interval covers the truth, by simulation.
   A cell is R rounds x 3 iterations; each round draws a drift shared by its iterations, each
   iteration a noise of its own. Three methods on the same cells:
     pooled   the bootstrap readbench used before (resample the iterations pooled over rounds)
     cluster  a bootstrap of whole rounds (each round's median kept together)
     t-log    readbench's rb_stats_of: Student t on the logarithms of the round medians
   The truth is the median of the round medians' distribution (estimated from 200,001 draws).
   Build and run: cc -O2 -I. bench/coverage.c -o /tmp/coverage -lpthread -lm && /tmp/coverage */
#define READBENCH_IMPLEMENTATION
#include "readbench.h"

static uint64_t st = 42;
static double unit(void)
{
    uint64_t z = (st += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return ((double)((z ^ (z >> 31)) >> 11) + 0.5) / 9007199254740992.0;
}
static double normal(void) { return sqrt(-2 * log(unit())) * cos(6.283185307179586 * unit()); }
static double t3(void)      /* Student t with 3 degrees of freedom, scaled to unit variance */
{
    double z = normal(), c = 0;
    int i;
    for (i = 0; i < 3; i++) { double q = normal(); c += q * q; }
    return z / sqrt(c / 3) / sqrt(3.0);
}
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }
static double median(double *v, unsigned n) { qsort(v, n, sizeof *v, cmp); return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2; }

enum { LN10, LN30, T3, NODRIFT, SLOW, NSCEN };
static const char *const scen[NSCEN] = {"lognormal drift, sd 0.1", "lognormal drift, sd 0.3", "heavy-tailed drift (t3), sd 0.1",
                                        "no drift, iteration sd 0.1", "15% of rounds 0.6x slower"};
static double drift(int s)
{
    switch (s) {
    case LN10: return 0.1 * normal();
    case LN30: return 0.3 * normal();
    case T3: return 0.1 * t3();
    case SLOW: return 0.05 * normal() + (unit() < 0.15 ? log(0.6) : 0);
    default: return 0;
    }
}
static void cell(int s, unsigned R, double *x)
{
    unsigned r, k;
    for (r = 0; r < R; r++) {
        double d = drift(s);
        for (k = 0; k < 3; k++) x[r * 3 + k] = 10 * exp(d + (s == NODRIFT ? 0.1 : 0.05) * normal());
    }
}
#define B 2000
static void boot(const double *v, unsigned n, unsigned pick, double *lo, double *hi)
{   /* pick 1: resample n values; 3: resample n/3 rounds of 3 (their medians) */
    static double bs[B], tmp[64], rm[64];
    unsigned b, i, m = n / pick;
    for (i = 0; i < m; i++) { memcpy(tmp, v + i * pick, pick * sizeof *tmp); rm[i] = median(tmp, pick); }
    for (b = 0; b < B; b++) {
        for (i = 0; i < m; i++) tmp[i] = rm[(unsigned)(unit() * m)];
        bs[b] = median(tmp, m);
    }
    qsort(bs, B, sizeof *bs, cmp);
    *lo = bs[49];
    *hi = bs[1950];
}
int main(void)
{
    static const unsigned Rs[] = {2, 3, 5, 10};
    static double big[200001];
    unsigned trials = 2000, s, k, t, i;
    printf("| drift | rounds | pooled (before) | cluster bootstrap | t on log round medians (now) | t width, median hi/lo |\n");
    printf("|---|---|---|---|---|---|\n");
    for (s = 0; s < NSCEN; s++) {
        double truth, x[30], tmp[3];
        for (i = 0; i < 200001; i++) { cell((int)s, 1, x); memcpy(tmp, x, sizeof tmp); big[i] = median(tmp, 3); }
        truth = median(big, 200001);
        for (k = 0; k < 4; k++) {
            unsigned R = Rs[k], c[3] = {0, 0, 0};
            static double w[2000];
            for (t = 0; t < trials; t++) {
                double lo, hi;
                rb_stats r;
                cell((int)s, R, x);
                boot(x, R * 3, 1, &lo, &hi); c[0] += lo <= truth && truth <= hi;
                boot(x, R * 3, 3, &lo, &hi); c[1] += lo <= truth && truth <= hi;
                rb_stats_of(x, R * 3, R, &r); c[2] += r.ci_lo <= truth && truth <= r.ci_hi;
                w[t] = r.ci_hi / r.ci_lo;
            }
            printf("| %s | %u | %.2f | %.2f | %.2f | %.2f |\n", scen[s], R, c[0] / (double)trials, c[1] / (double)trials,
                   c[2] / (double)trials, median(w, trials));
        }
    }
    return 0;
}
