/* Charts: the SVG has one bar per measured cell, heights proportional to the reported
   numbers (linear and log), a stub for every cell that did not run, and escaped text. The C
   tests read the SVG back with sscanf; the CLI tests hand it to python3's XML parser. */
#define _GNU_SOURCE
#include "readbench.h"
#include "rbtest.h"
#include <math.h>

static char svg[1 << 17];

static void slurp(FILE *f)
{
    size_t n;
    rewind(f);
    n = fread(svg, 1, sizeof svg - 1, f);
    svg[n] = 0;
}

/* count of NEEDLE in svg */
static int count(const char *needle)
{
    int n = 0;
    const char *p;
    for (p = strstr(svg, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

static double attr(const char *from, const char *name)
{
    char key[64];
    const char *p;
    snprintf(key, sizeof key, " %s=\"", name);
    p = strstr(from, key);
    return p ? strtod(p + strlen(key), NULL) : NAN;
}

/* every bar of the (single) panel: height against the value and the panel's scale */
static int bars_proportional(int log_scale, int *nbars)
{
    const char *panel = strstr(svg, "<g class=\"panel\""), *p;
    double lo, hi, ph;
    int ok = panel != NULL;
    *nbars = 0;
    if (!panel) return 0;
    lo = attr(panel, "data-lo");
    hi = attr(panel, "data-hi");
    ph = attr(panel, "data-plot-height");
    for (p = strstr(panel, "<rect class=\"bar\""); p; p = strstr(p + 1, "<rect class=\"bar\"")) {
        double h = attr(p, "height"), v = attr(p, "data-value");
        double want = log_scale ? ph * log(v / lo) / log(hi / lo) : ph * v / hi;
        if (!(fabs(h - want) < 0.01)) {
            fprintf(stderr, "    bar %g: height %g, want %g\n", v, h, want);
            ok = 0;
        }
        ++*nbars;
    }
    return ok;
}

static rb_result cell(const char *s, unsigned th, int status, double v, const char *why)
{
    rb_result r;
    memset(&r, 0, sizeof r);
    r.strategy = s;
    r.threads = th;
    r.read_size = 4096;
    r.reads_per_op = 1;
    r.status = status;
    r.iterations = 3;
    r.ops_per_ms = v;
    r.ops_per_ms_stddev = v / 10;
    snprintf(r.reason, sizeof r.reason, "%s", why);
    return r;
}

static void synthetic(int log_scale)
{
    static const char *const names[] = {"a<&>", "b", "c"};
    static const unsigned th[] = {1, 4};
    static const uint64_t rs[] = {4096};
    rb_result res[5];
    rb_report rep;
    rb_config cfg;
    FILE *f = tmpfile();
    int nbars;
    CHECK(f != NULL);
    if (!f) return;
    res[0] = cell("a<&>", 1, RB_OK, 10, "");
    res[1] = cell("a<&>", 4, RB_OK, 20, "");
    res[2] = cell("b", 1, RB_UNSUPPORTED, 0, "needs <x> & \"y\"");
    res[3] = cell("b", 4, RB_OK, 5, "");
    res[4] = cell("c", 1, RB_EIO, 0, "read failed");   /* c T04: no result at all */
    memset(&rep, 0, sizeof rep);
    memset(&cfg, 0, sizeof cfg);
    rb_config_defaults(&cfg, &cfg);
    rep.results = res;
    rep.count = 5;
    rep.cfg = &cfg;
    rep.strategies = names;
    rep.nstrategies = 3;
    rep.threads = th;
    rep.nthreads = 2;
    rep.read_sizes = rs;
    rep.nread_sizes = 1;
    rb_report_svg(f, &rep, "title & <scenario>", log_scale);
    slurp(f);
    fclose(f);
    CHECK(strncmp(svg, "<?xml", 5) == 0 && strstr(svg, "</svg>\n") != NULL);
    CHECK(bars_proportional(log_scale, &nbars));
    CHECKF(nbars == 3, "%d bars", nbars);
    CHECK(count("<g class=\"stub\"") == 3);
    CHECK(count("data-status=\"unsupported\"") == 1 && count("data-status=\"error\"") == 1 &&
          count("data-status=\"not run\"") == 1);
    CHECK(strstr(svg, "a&lt;&amp;&gt;") != NULL && strstr(svg, "a<&>") == NULL);
    CHECK(strstr(svg, "needs &lt;x&gt; &amp; &quot;y&quot;") != NULL);
    CHECK(strstr(svg, "title &amp; &lt;scenario&gt;") != NULL);
    CHECK(strstr(svg, ">1 thread<") != NULL && strstr(svg, ">4 threads<") != NULL);
    if (log_scale) CHECK(attr(strstr(svg, "<g class=\"panel\""), "data-lo") == 1 &&
                         attr(strstr(svg, "<g class=\"panel\""), "data-hi") == 100);
    else CHECK(attr(strstr(svg, "<g class=\"panel\""), "data-hi") >= 22);   /* 20 + its sd, with headroom */
}

static void svg_bars_linear(void) { synthetic(0); }
static void svg_bars_log(void) { synthetic(1); }

static void svg_prefetch_panels(void)
{
    rb_pfx_result r[2];
    FILE *f = tmpfile();
    unsigned i, k;
    int nbars = 0;
    const char *p;
    CHECK(f != NULL);
    if (!f) return;
    memset(r, 0, sizeof r);
    for (k = 0; k < 2; k++) {
        r[k].policy = RB_PREFETCH_ADAPTIVE;
        r[k].fits = (int)k;
        r[k].threads = 1;
        r[k].ops = 100;
        rb_hist_init(&r[k].with);
        rb_hist_init(&r[k].without);
        for (i = 0; i < 100; i++) {
            rb_hist_record(&r[k].with, k ? 300 : 60000);
            rb_hist_record(&r[k].without, k ? 200 : 120000);
        }
    }
    rb_report_prefetch_svg(f, r, 2, NULL, 0, NULL);
    slurp(f);
    fclose(f);
    CHECK(count("<g class=\"panel\"") == 2);
    for (p = strstr(svg, "<rect class=\"bar\""); p; p = strstr(p + 1, "<rect class=\"bar\"")) nbars++;
    CHECK(nbars == 4);
    CHECK(strstr(svg, "data-value=\"0.3\"") && strstr(svg, "data-value=\"0.2\"") &&
          strstr(svg, "data-value=\"60\"") && strstr(svg, "data-value=\"120\""));
    CHECK(count(">adaptive<") == 2 && count("<g class=\"stub\"") == 0);
}

static int have_python(void) { return rbt_have_python("xml.etree.ElementTree"); }

/* The CLI end to end: a real run's SVG against its own JSON, through a real XML parser. */
static void svg_from_the_cli_matches_the_json(void)
{
    char cmd[4096];
    const char *s = rbt_path("chart.svg"), *j = rbt_path("chart.json"), *l = rbt_path("chart-log.svg");
    const char *bin = rbt_cli();
    int log_scale;
    if (!bin) SKIP("../readbench is not built (run make test)");
    if (!have_python()) SKIP("python3 is not installed: no XML parser to check with");
    /* read size 1000: direct cannot run, so the chart must show it as a stub */
    snprintf(cmd, sizeof cmd, "'%s' run '%s' --threads 1,2 --read-size 1000 --duration 20ms --warmup 0 "
             "--iterations 2 --format json --output '%s' --svg '%s' --scenario warm --quiet 2>/dev/null && "
             "'%s' run '%s' --strategies pread,null --threads 1 --read-size 4k,64k --duration 20ms --warmup 0 "
             "--iterations 2 --output /dev/null --svg '%s' --log --title 'sizes' --quiet 2>/dev/null",
             bin, rbt_small_file(), j, s, bin, rbt_small_file(), l);
    CHECK(rbt_system_ok(cmd) == 0);   /* a 20 ms cell the machine let measure nothing: exit 1 */
    for (log_scale = 0; log_scale < 2; log_scale++) {
        snprintf(cmd, sizeof cmd,
                 "python3 -c '\n"
                 "import json, math, xml.etree.ElementTree as ET\n"
                 "N=\"{http://www.w3.org/2000/svg}\"\n"
                 "root=ET.parse(\"%s\").getroot(); lg=%d\n"
                 "texts=\" \".join(t.text or \"\" for t in root.iter(N+\"text\"))\n"
                 "assert \"x RAM\" in texts and \"read_ahead_kb\" in texts, texts[:300]\n"
                 "panels=[g for g in root.iter(N+\"g\") if g.get(\"class\")==\"panel\"]\n"
                 "bars=[]\n"
                 "for p in panels:\n"
                 "  assert p.get(\"data-scale\")==(\"log\" if lg else \"linear\")\n"
                 "  lo,hi,ph=float(p.get(\"data-lo\")),float(p.get(\"data-hi\")),float(p.get(\"data-plot-height\"))\n"
                 "  for r in p.iter(N+\"rect\"):\n"
                 "    if r.get(\"class\")!=\"bar\": continue\n"
                 "    v,h=float(r.get(\"data-value\")),float(r.get(\"height\"))\n"
                 "    want=ph*math.log(v/lo)/math.log(hi/lo) if lg else ph*v/hi\n"
                 "    assert abs(h-want)<0.01,(v,h,want)\n"
                 "    bars.append((r.get(\"data-group\"),r.get(\"data-series\"),v))\n"
                 "stubs=[g for g in root.iter(N+\"g\") if g.get(\"class\")==\"stub\"]\n"
                 "if lg:\n"
                 "  assert root.find(N+\"text\").text==\"sizes\"\n"
                 "  assert sorted((b[0],b[1]) for b in bars)==[(\"null\",\"4 KiB\"),(\"null\",\"64 KiB\"),(\"pread\",\"4 KiB\"),(\"pread\",\"64 KiB\")], bars\n"
                 "else:\n"
                 "  d=json.load(open(\"%s\"))\n"
                 "  assert \"scenario warm\" in root.find(N+\"text\").text\n"
                 "  ok=[r for r in d[\"results\"] if r[\"status\"]==\"ok\"]\n"
                 "  assert len(bars)==len(ok) and len(stubs)==len(d[\"results\"])-len(ok)>=2, (len(bars),len(ok),len(stubs))\n"
                 "  want={(r[\"strategy\"],\"%%d thread%%s\"%%(r[\"threads\"],\"\" if r[\"threads\"]==1 else \"s\")):r[\"ops_per_ms\"] for r in ok}\n"
                 "  for g,s,v in bars: assert abs(v-want[(g,s)])<=1e-6*want[(g,s)], (g,s,v,want[(g,s)])\n"
                 "  assert all(g.get(\"data-status\")==\"unsupported\" for g in stubs if g.get(\"data-group\")==\"direct\")\n"
                 "'", log_scale ? l : s, log_scale, j);
        CHECKF(system(cmd) == 0, "log_scale %d", log_scale);
    }
}

static void svg_from_prefetch_cli(void)
{
    char cmd[2048];
    const char *s = rbt_path("prefetch.svg"), *bin = rbt_cli();
    if (!bin) SKIP("../readbench is not built (run make test)");
    if (!have_python()) SKIP("python3 is not installed: no XML parser to check with");
    snprintf(cmd, sizeof cmd, "'%s' prefetch '%s' --ops 300 --policies always,backoff --output /dev/null "
             "--svg '%s' 2>/dev/null && python3 -c '\n"
             "import xml.etree.ElementTree as ET\n"
             "N=\"{http://www.w3.org/2000/svg}\"\n"
             "root=ET.parse(\"%s\").getroot()\n"
             "bars=[r for r in root.iter(N+\"rect\") if r.get(\"class\")==\"bar\"]\n"
             "assert len(bars)==8 and all(float(b.get(\"data-value\"))>0 for b in bars), len(bars)\n"
             "'", bin, rbt_small_file(), s, s);
    CHECK(system(cmd) == 0);
}

void suite_svg(void)
{
    RUN(svg_bars_linear);
    RUN(svg_bars_log);
    RUN(svg_prefetch_panels);
    RUN(svg_from_the_cli_matches_the_json);
    RUN(svg_from_prefetch_cli);
}
