/* suite curve: the cached-fraction axis and advise's curve (3.9): the hit-rate model and its
   error, the crossovers and their intervals, the best at a hit rate, as pure functions on
   synthetic curves; rb_prewarm's trim; `run --prewarm F,F..` and `advise --curve` end to end,
   their JSON and SVG, and the values they refuse. */
#define _GNU_SOURCE
#include "readbench.h"
#include "rbtest.h"
#include <math.h>
#include <unistd.h>
#include <sys/stat.h>

static char cout[1 << 17], cerr[1 << 15];

/* A curve at fractions f[0..n) with medians v (intervals +-spread of each, 0: none). */
static void make_curve(rb_curve *c, const char *name, const double *f, const double *v, unsigned n, double spread)
{
    unsigned k;
    memset(c, 0, sizeof *c);
    c->strategy = name;
    c->n = n;
    for (k = 0; k < n; k++) {
        c->p[k].fraction = f[k];
        c->p[k].median = v[k];
        c->p[k].lo = spread > 0 ? v[k] * (1 - spread) : NAN;
        c->p[k].hi = spread > 0 ? v[k] * (1 + spread) : NAN;
        c->p[k].hit_rate = -1;
        c->p[k].rounds = spread > 0 ? 5 : 1;
    }
    rb_curve_fit(c);
}

/* ops/ms of the linear model with these times per op (ms). */
static double model(double h, double t_hit, double t_miss) { return 1 / (h * t_hit + (1 - h) * t_miss); }

static const double F5[5] = {0, 0.5, 0.9, 0.99, 1};

static void model_curve(rb_curve *c, const char *name, double t_hit, double t_miss, double spread)
{
    double v[5];
    unsigned k;
    for (k = 0; k < 5; k++) v[k] = model(F5[k], t_hit, t_miss);
    make_curve(c, name, F5, v, 5, spread);
}

/* A curve on the model: t_hit and t_miss from its ends, no error, the model used; one point
   30% off makes it not hold, and the measured points are used (the value there is the
   measurement); no end point: no model. */
static void model_fit_and_its_error(void)
{
    rb_curve c;
    double v[5];
    unsigned k;
    model_curve(&c, "a", 0.01, 2.0, 0.05);
    CHECK(c.model_holds == 1 && fabs(c.t_hit - 0.01) < 1e-12 && fabs(c.t_miss - 2.0) < 1e-12);
    CHECKF(c.max_error < 1e-9 && c.worst >= 1 && c.worst <= 3, "%g %d", c.max_error, c.worst);
    CHECK(c.error[0] != c.error[0] && c.error[4] != c.error[4]);   /* the end points have no error: they are the fit */
    CHECK(fabs(rb_curve_value(&c, 0.95, 0) - model(0.95, 0.01, 2.0)) < 1e-9);
    for (k = 0; k < 5; k++) v[k] = model(F5[k], 0.01, 2.0);
    v[2] *= 1.3;   /* 30% above the model at 0.9: its error is -23% */
    make_curve(&c, "b", F5, v, 5, 0.05);
    CHECKF(c.model_holds == 0 && c.worst == 2 && fabs(c.error[2] - (1 / 1.3 - 1)) < 1e-9, "%d %d %g", c.model_holds,
           c.worst, c.error[2]);
    CHECK(fabs(rb_curve_value(&c, 0.9, 0) - v[2]) < 1e-9 * v[2]);
    CHECK(fabs(rb_curve_value(&c, 0.9, -1) - v[2] * 0.95) < 1e-9 * v[2]);
    /* between two points: time per op linear in h (the model fitted to that segment) */
    CHECK(fabs(1 / rb_curve_value(&c, 0.7, 0) - (1 / v[1] + (1 / v[2] - 1 / v[1]) * 0.5)) < 1e-12);
    v[2] = model(0.9, 0.01, 2.0) * 1.15;   /* 15% off: -13%, inside the limit */
    make_curve(&c, "c", F5, v, 5, 0.05);
    CHECK(c.model_holds == 1 && fabs(c.max_error - (1 - 1 / 1.15)) < 1e-9);
    make_curve(&c, "d", F5 + 1, v + 1, 4, 0.05);   /* no 0 cached */
    CHECK(c.model_holds == -1 && c.t_hit != c.t_hit && rb_curve_value(&c, 0.7, 0) == rb_curve_value(&c, 0.7, 0));
}

/* Two model curves that cross where h t1 + (1-h) m1 = h t2 + (1-h) m2: found to 1e-9, the
   one faster above named, and its interval where the bands overlap: the bands overlap at
   its ends and not one grid step outside them. */
static void crossover_exactly_where_the_model_says(void)
{
    rb_curve c[2];
    rb_crossover x[4];
    unsigned n;
    double want = 9.0 / 9.01, g = 1.0 / 10000;
    model_curve(&c[0], "mmap", 0.01, 10, 0.05);   /* warm-favoured */
    model_curve(&c[1], "pread", 0.02, 1, 0.05);
    n = rb_curve_crossovers(c, 2, x, 4);
    CHECKF(n == 1, "%u", n);
    if (n != 1) return;
    CHECKF(fabs(x[0].h - want) < 1e-9, "%.12f %.12f", x[0].h, want);
    CHECK(x[0].a == 0 && x[0].b == 1 && x[0].resolved);   /* mmap above, pread below; apart on both sides */
    CHECKF(x[0].lo < x[0].h && x[0].h < x[0].hi && x[0].hi <= 1, "%g %g %g", x[0].lo, x[0].h, x[0].hi);
    CHECK(rb_curve_value(&c[0], x[0].lo, -1) <= rb_curve_value(&c[1], x[0].lo, 1));
    CHECK(!(rb_curve_value(&c[1], x[0].lo - g, -1) <= rb_curve_value(&c[0], x[0].lo - g, 1)) ||
          !(rb_curve_value(&c[0], x[0].lo - g, -1) <= rb_curve_value(&c[1], x[0].lo - g, 1)));
    if (x[0].hi < 1)
        CHECK(rb_curve_value(&c[0], x[0].hi + g, -1) > rb_curve_value(&c[1], x[0].hi + g, 1));
    /* the same curves from one round: the crossing, no interval */
    model_curve(&c[0], "mmap", 0.01, 10, 0);
    model_curve(&c[1], "pread", 0.02, 1, 0);
    n = rb_curve_crossovers(c, 2, x, 4);
    CHECK(n == 1 && fabs(x[0].h - want) < 1e-9 && x[0].lo != x[0].lo && x[0].hi != x[0].hi && !x[0].resolved);
    /* wide bands (+-60%): they overlap down to 0 cached: not resolved there */
    model_curve(&c[0], "mmap", 0.01, 10, 0.6);
    model_curve(&c[1], "pread", 0.02, 1, 0.6);
    n = rb_curve_crossovers(c, 2, x, 4);
    CHECK(n == 1 && !x[0].resolved && (x[0].lo == 0 || x[0].hi == 1));
}

/* One strategy faster everywhere: no crossover (the other is best nowhere); and a third
   that is best nowhere is in no pair even where it crosses another. */
static void no_crossing(void)
{
    rb_curve c[3];
    rb_crossover x[4];
    model_curve(&c[0], "fast", 0.01, 0.5, 0.05);
    model_curve(&c[1], "slow", 0.02, 1, 0.05);
    CHECK(rb_curve_crossovers(c, 2, x, 4) == 0);
    model_curve(&c[2], "slower", 0.03, 0.9, 0.05);   /* crosses "slow" at 0.1/0.11, but neither is ever the best */
    CHECK(rb_curve_crossovers(c, 3, x, 4) == 0);
}

/* A curve the model cannot follow (best in the middle only) crosses a flat one twice, each
   crossing where the joined points say: 1/3 and 0.6333. */
static void two_crossings(void)
{
    static const double f[4] = {0, 0.5, 0.9, 1}, flat[4] = {10, 10, 10, 10}, hump[4] = {5, 20, 5, 5};
    rb_curve c[2];
    rb_crossover x[4];
    unsigned n;
    make_curve(&c[0], "flat", f, flat, 4, 0.02);
    make_curve(&c[1], "hump", f, hump, 4, 0.02);
    CHECK(c[0].model_holds == 1 && c[1].model_holds == 0);
    n = rb_curve_crossovers(c, 2, x, 4);
    CHECKF(n == 2, "%u", n);
    if (n != 2) return;
    CHECKF(fabs(x[0].h - 1.0 / 3) < 1e-9 && x[0].a == 1 && x[0].b == 0, "%.12f a=%u", x[0].h, x[0].a);
    CHECKF(fabs(x[1].h - (0.5 + 0.05 * 0.4 / 0.15)) < 1e-9 && x[1].a == 0 && x[1].b == 1, "%.12f a=%u", x[1].h, x[1].a);
    CHECK(x[0].lo <= x[0].h && x[0].h <= x[0].hi && x[1].lo <= x[1].h && x[1].h <= x[1].hi && x[0].hi < x[1].lo);
}

/* The best at a hit rate is the curve's: at every measured fraction, the highest of the
   curves' values there (the measurement where the model does not hold), its margin over the
   next, and "apart" only when their bands are. */
static void best_at_a_hit_rate_is_the_curves(void)
{
    static const double f[4] = {0, 0.5, 0.9, 1}, hump[4] = {5, 20, 5, 5};
    rb_curve c[3];
    unsigned k;
    int next, apart, best;
    double margin;
    model_curve(&c[0], "mmap", 0.01, 10, 0.05);
    model_curve(&c[1], "pread", 0.02, 1, 0.05);
    make_curve(&c[2], "hump", f, hump, 4, 0.3);
    for (k = 0; k < 4; k++) {
        double h = f[k], v[3];
        unsigned i, top = 0;
        for (i = 0; i < 3; i++) v[i] = rb_curve_value(&c[i], h, 0);
        for (i = 1; i < 3; i++)
            if (v[i] > v[top]) top = i;
        best = rb_curve_best(c, 3, h, &next, &margin, &apart);
        CHECKF(best == (int)top, "h %g: %d, want %u", h, best, top);
        CHECK(next >= 0 && next != best && fabs(margin - (v[best] / v[next] - 1)) < 1e-12);
        CHECK(apart == (rb_curve_value(&c[best], h, -1) > rb_curve_value(&c[next], h, 1)));
    }
    CHECK(rb_curve_value(&c[2], 0.5, 0) == 20);   /* not the model: the measurement */
    best = rb_curve_best(c, 3, 0.5, &next, &margin, &apart);
    CHECK(best == 2 && next == 1 && apart);   /* 20 +-30% against pread's 1.96 +-5%: 14 > 2.06 */
}

/* rb_prewarm from a larger fraction of the same seed trims (nothing loaded: fast, and the
   count is the fraction's); from a smaller one it reloads; both end at the fraction asked. */
static void prewarm_trims_down_and_reloads_up(void)
{
    rb_residency_info ri;
    rb_error e;
    const char *path = rbt_small_file();
    if (rb_prewarm(path, 0.8, 7, &e) != RB_OK) { CHECKF(0, "%s", e.msg); return; }
    if (rb_residency(path, &ri, &e) != RB_OK || !ri.trusted || ri.no_backing)
        SKIP("residency cannot be counted truthfully here (or the file lives in the cache)");
    CHECKF(fabs((double)ri.resident / ri.pages - 0.8) < 0.03, "%llu of %llu", (unsigned long long)ri.resident,
           (unsigned long long)ri.pages);
    CHECK(rb_prewarm(path, 0.3, 7, &e) == RB_OK && rb_residency(path, &ri, &e) == RB_OK);
    CHECKF(fabs((double)ri.resident / ri.pages - 0.3) < 0.03, "%llu of %llu", (unsigned long long)ri.resident,
           (unsigned long long)ri.pages);
    CHECK(rb_prewarm(path, 0.6, 7, &e) == RB_OK && rb_residency(path, &ri, &e) == RB_OK);
    CHECKF(fabs((double)ri.resident / ri.pages - 0.6) < 0.03, "%llu of %llu", (unsigned long long)ri.resident,
           (unsigned long long)ri.pages);
}

/* --prewarm's list, --hit-rate and --curve as settings; what they refuse. */
static void settings_take_and_refuse(void)
{
    static const char *const bad[] = {"1.5", "0,0", "a", "0,,1", "-0.5"};
    rb_settings s;
    char why[RB_REASON_LEN];
    unsigned i;
    memset(&s, 0, sizeof s);
    CHECK(rb_settings_set(&s, "prewarm", "0,0.5,1", "--prewarm", why, sizeof why) == RB_OK && s.nprewarms == 3 &&
          s.prewarms[1] == 0.5);
    CHECK(rb_settings_set(&s, "prewarm", "0.4", "--prewarm", why, sizeof why) == RB_OK && s.nprewarms == 1 &&
          s.cfg.prewarm == 0.4);
    for (i = 0; i < sizeof bad / sizeof *bad; i++) {
        memset(&s, 0, sizeof s);
        CHECKF(rb_settings_set(&s, "prewarm", bad[i], "--prewarm", why, sizeof why) == RB_EINVAL && strstr(why, "--prewarm"),
               "'%s': %s", bad[i], why);
    }
    CHECK(rb_settings_set(&s, "hit-rate", "0.95", "--hit-rate", why, sizeof why) == RB_OK && s.hit_rate == 0.95);
    CHECK(rb_settings_set(&s, "hit-rate", "1.2", "--hit-rate", why, sizeof why) == RB_EINVAL);
    CHECK(rb_settings_set(&s, "hit-rate", rbt_path("none.json"), "--hit-rate", why, sizeof why) == RB_EINVAL);
    CHECK(rb_settings_set(&s, "curve", "", "--curve", why, sizeof why) == RB_OK && s.curve == 1);
}

/* A run report's hit rate: the median of its cells' measured ones. */
static void hit_rate_from_a_run_report(void)
{
    const char *p = rbt_path("hits.json");
    FILE *f = fopen(p, "w");
    double h = -1;
    char from[RB_REASON_LEN], why[RB_REASON_LEN];
    if (!f) { CHECK(0); return; }
    fputs("{\"readbench\": 1, \"results\": [{\"strategy\": \"a\", \"hit_rate\": 0.9}, {\"strategy\": \"b\", "
          "\"hit_rate\": null}, {\"strategy\": \"c\", \"hit_rate\": 0.97}, {\"strategy\": \"d\", \"hit_rate\": 0.95}]}\n", f);
    fclose(f);
    CHECK(rb_hit_rate_from_json(p, &h, from, sizeof from, why, sizeof why) == RB_OK && h == 0.95 && strstr(from, "3 cells"));
    f = fopen(p, "w");
    if (f) { fputs("{\"results\": [{\"hit_rate\": null}]}\n", f); fclose(f); }
    CHECK(rb_hit_rate_from_json(p, &h, from, sizeof from, why, sizeof why) == RB_EINVAL && strstr(why, "no measured"));
}

/* run --prewarm 0,1: a row per strategy and fraction, each cell's fraction in its JSON. */
static void run_with_a_fraction_axis(void)
{
    const char *dir = rbt_tmpdir();
    char args[1024], why[200];
    rb_json *j;
    const rb_json *res = NULL, *x, *v;
    unsigned seen0 = 0, seen1 = 0;
    int rc;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    snprintf(args, sizeof args, "run '%s' --prewarm 1,0 --strategies pread,mmap-random --threads 1 --iterations 2 "
             "--duration 30ms --warmup 0 --rounds 2 --format json --quiet", rbt_small_file());
    rc = rbt_cli_run(dir, args, "120", cout, sizeof cout, cerr, sizeof cerr);
    CHECKF(rc == 0, "exit %d: %s", rc, cerr);
    j = rb_json_parse(cout, strlen(cout), why, sizeof why);
    CHECKF(j && (res = rb_json_get(j, "results")) && res->n == 4, "%s %.300s", why, cout);
    for (x = j && res ? res->child : NULL; x; x = x->next)
        if ((v = rb_json_get(x, "cached_fraction")) && v->type == RB_JSON_NUMBER) {
            seen0 += v->num == 0;
            seen1 += v->num == 1;
        }
    CHECK(seen0 == 2 && seen1 == 2);
    rb_json_free(j);
    snprintf(args, sizeof args, "run '%s' --prewarm 0,0.5,0.5 --quiet", rbt_small_file());
    rc = rbt_cli_run(dir, args, "60", cout, sizeof cout, cerr, sizeof cerr);
    CHECKF(rc == 2 && strchr(cerr, '\n') == strrchr(cerr, '\n'), "exit %d: %s", rc, cerr);
}

/* advise --curve end to end on a small file: JSON's curve (per strategy its points: fraction,
   median, interval, the model's), crossovers (resolved, each with its "above" verdict line;
   the medians' crossings inside the bands apart, with none) and the answer at --hit-rate, which is the best
   of the curves' values there (the model's where it holds, else the measurement); the SVG
   parses as XML; bad values exit 2 with one line and create nothing. */
static void advise_curve_command(void)
{
    static const char *const bad[] = {"--curve --prewarm 0.5,0.9", "--curve --prewarm 0,1.5", "--curve --states warm",
                                      "--prewarm 0,1", "--curve --threads 1,2", "--hit-rate 2", "--curve --prewarm 0,0,1"};
    const char *dir = rbt_tmpdir(), *svg = rbt_path("curve.svg"), *js = rbt_path("curve.json");
    char args[2048], cmd[4096];
    unsigned i;
    int rc;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    snprintf(args, sizeof args, "advise '%s' --curve --prewarm 0,0.5,1 --strategies pread,mmap-random --budget 6s "
             "--duration 30ms --hit-rate 0.5 --format json --output '%s' --svg '%s' --quiet", rbt_small_file(), js, svg);
    rc = rbt_cli_run(dir, args, "180", cout, sizeof cout, cerr, sizeof cerr);
    CHECKF(rc == 0, "exit %d: %s", rc, cerr);
    if (!rbt_have_python("json, xml.etree.ElementTree")) SKIP("python3 is not installed: no JSON or XML parser to check with");
    snprintf(cmd, sizeof cmd, "python3 -c '\n"
             "import json, xml.etree.ElementTree as ET\n"
             "d=json.load(open(\"%s\"))\n"
             "for k in (\"curve\",\"crossovers\",\"crossings_not_resolved\",\"at_hit_rate\",\"verdict\",\"budget\"): assert k in d, k\n"
             "assert all(x[\"resolved\"] for x in d[\"crossovers\"]) and not any(x[\"resolved\"] for x in d[\"crossings_not_resolved\"])\n"
             "above=[l for l in d[\"verdict\"][\"lines\"] if l.startswith(\"above \")]\n"
             "assert len(above)==len(d[\"crossovers\"]), (above, d[\"crossovers\"])\n"
             "assert [c[\"strategy\"] for c in d[\"curve\"]]==[\"pread\",\"mmap-random\"], d[\"curve\"]\n"
             "for c in d[\"curve\"]:\n"
             "  assert set(c[\"model\"])>={\"t_hit_ms\",\"t_miss_ms\",\"holds\",\"max_error\"}\n"
             "  assert [p[\"fraction\"] for p in c[\"points\"]]==[0,0.5,1]\n"
             "  for p in c[\"points\"]: assert set(p)>={\"ops_per_ms_median\",\"ops_per_ms_ci\",\"model_ops_per_ms\",\"hit_rate\"}\n"
             "for x in d[\"crossovers\"]: assert len(x[\"pair\"])==2 and 0<=x[\"hit_rate\"]<=1 and len(x[\"interval\"])==2\n"
             "def used(c):\n"
             "  p=c[\"points\"][1]\n"
             "  return p[\"model_ops_per_ms\"] if c[\"model\"][\"holds\"] else p[\"ops_per_ms_median\"]\n"
             "vals=sorted(((used(c),c[\"strategy\"]) for c in d[\"curve\"] if used(c) is not None), reverse=True)\n"
             "a=d[\"at_hit_rate\"]\n"
             "assert a[\"hit_rate\"]==0.5 and a[\"best\"]==vals[0][1], (a, vals)\n"
             "assert abs(a[\"margin\"]-(vals[0][0]/vals[1][0]-1))<1e-6*max(1,abs(a[\"margin\"])), (a, vals)\n"
             "ET.parse(\"%s\")\n"
             "'", js, svg);
    CHECK(system(cmd) == 0);
    CHECK(unlink(svg) == 0 && unlink(js) == 0);
    for (i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(args, sizeof args, "advise '%s' --budget 2s --svg '%s' %s", rbt_small_file(), svg, bad[i]);
        rc = rbt_cli_run(dir, args, "60", cout, sizeof cout, cerr, sizeof cerr);
        CHECKF(rc == 2 && strchr(cerr, '\n') && strchr(cerr, '\n') == strrchr(cerr, '\n') && access(svg, F_OK) != 0,
               "'%s': exit %d: %s", bad[i], rc, cerr);
    }
}

void suite_curve(void)
{
    RUN(model_fit_and_its_error);
    RUN(crossover_exactly_where_the_model_says);
    RUN(no_crossing);
    RUN(two_crossings);
    RUN(best_at_a_hit_rate_is_the_curves);
    RUN(prewarm_trims_down_and_reloads_up);
    RUN(settings_take_and_refuse);
    RUN(hit_rate_from_a_run_report);
    RUN(run_with_a_fraction_axis);
    RUN(advise_curve_command);
}
