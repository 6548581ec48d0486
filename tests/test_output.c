/* suite output: the library API refuses bad arguments with a status and a reason; every
   output (JSON, CSV, SVG) is well-formed and complete whatever the bytes, the locale or the
   status of a row; messages keep what matters when they are cut. */
#define _GNU_SOURCE
#include "readbench.h"
#include "rbtest.h"
#include <locale.h>
#include <math.h>
#include <stdint.h>

/* ---- issue 16 item 19: the library API ---- */

static void api_lookups_take_null(void)
{
    CHECK(rb_strategy_find(NULL) == NULL);
    CHECK(rb_prefetch_policy_find(NULL) == -1);
    CHECK(rb_strategy_find("pread") != NULL && rb_prefetch_policy_find("adaptive") == RB_PF_ADAPTIVE);
}

static void api_null_path_is_einval(void)
{
    rb_error e;
    rb_residency_info ri;
    rb_file_info fi;
    rb_config c;
    rb_result r;
    rb_probe_result pr;
    char why[200];
    memset(&e, 0, sizeof e);
    CHECK(rb_setup_file(NULL, 4096, 0, 1, NULL, NULL, &e) == RB_EINVAL && strstr(e.msg, "no file path"));
    memset(&e, 0, sizeof e);
    CHECK(rb_check_file(NULL, 0, &fi, &e) == RB_EINVAL && strstr(e.msg, "no file path"));
    memset(&e, 0, sizeof e);
    CHECK(rb_evict(NULL, &e) == RB_EINVAL && strstr(e.msg, "no file path"));
    memset(&e, 0, sizeof e);
    CHECK(rb_load(NULL, &e) == RB_EINVAL && strstr(e.msg, "no file path"));
    memset(&e, 0, sizeof e);
    CHECK(rb_prewarm(NULL, 0.5, 1, &e) == RB_EINVAL && strstr(e.msg, "no file path"));
    memset(&e, 0, sizeof e);
    CHECK(rb_residency(NULL, &ri, &e) == RB_EINVAL && strstr(e.msg, "no file path"));
    CHECK(rb_evict(NULL, NULL) == RB_EINVAL);   /* no error struct: still no crash */
    memset(&c, 0, sizeof c);
    CHECK(rb_run(&c, rb_strategy_find("pread"), &r) == RB_EINVAL);
    CHECKF(r.status == RB_EINVAL && strstr(r.reason, "no file path"), "%d %s", r.status, r.reason);
    CHECK(r.strategy && strcmp(r.strategy, "pread") == 0);
    CHECK(rb_strategy_probe(rb_strategy_find("pread"), &c, why, sizeof why) == RB_EINVAL && strstr(why, "no file path"));
    c.path = rbt_small_file();
    CHECK(rb_run(&c, NULL, &r) == RB_EINVAL && strstr(r.reason, "no strategy"));
    CHECK(rb_run(NULL, rb_strategy_find("null"), &r) == RB_EINVAL && strstr(r.reason, "no configuration"));
    CHECK(rb_probe(NULL, 1, &pr) == RB_EINVAL && strstr(pr.reason, "no file path"));
}

static void api_negative_duration_is_einval(void)
{
    rb_config c;
    rb_result r;
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.duration_ns = -5000000;
    c.warmup_ns = RB_NONE;
    c.iterations = 1;
    CHECK(rb_run(&c, rb_strategy_find("null"), &r) == RB_EINVAL);
    CHECKF(r.status == RB_EINVAL && strstr(r.reason, "duration must be positive"), "%d %s", r.status, r.reason);
    c.duration_ns = 1000000;
    c.prewarm = 2;
    CHECK(rb_run(&c, rb_strategy_find("null"), &r) == RB_EINVAL && strstr(r.reason, "prewarm"));
    c.prewarm = 0;
    c.pattern = 7;
    CHECK(rb_run(&c, rb_strategy_find("null"), &r) == RB_EINVAL && strstr(r.reason, "pattern"));
    c.pattern = RB_RANDOM;
    CHECK(rb_run(&c, rb_strategy_find("null"), &r) == RB_OK && r.ops_per_ms > 0);
}

static void api_bucket_value_past_the_end(void)
{
    CHECK(rb_hist_bucket_value(RB_HIST_BUCKETS) == UINT64_MAX);
    CHECK(rb_hist_bucket_value(RB_HIST_BUCKETS + 1000) == UINT64_MAX);
    CHECK(rb_hist_bucket_value(0xffffffffu) == UINT64_MAX);
    CHECK(rb_hist_bucket_value(RB_HIST_BUCKETS - 1) < ((uint64_t)1 << 42) &&
          rb_hist_bucket_value(RB_HIST_BUCKETS - 1) >= ((uint64_t)1 << 41));
}

static void api_prefetch_experiment_checks_policy(void)
{
    rb_pfx_config c;
    rb_pfx_result r;
    rb_error e;
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.ops = 10;
    CHECK(rb_prefetch_experiment(&c, 99, 1, &r) == RB_EINVAL);
    CHECKF(r.status == RB_EINVAL && strstr(r.reason, "no prefetch policy 99"), "%s", r.reason);
    CHECK(rb_prefetch_experiment(&c, -1, 1, &r) == RB_EINVAL);
    c.path = NULL;
    CHECK(rb_prefetch_experiment(&c, RB_PF_ALWAYS, 1, &r) == RB_EINVAL && strstr(r.reason, "no file path"));
    CHECK(rb_prefetch_experiment(NULL, RB_PF_ALWAYS, 1, &r) == RB_EINVAL);
    memset(&e, 0, sizeof e);
    CHECK(rb_prewarm(rbt_small_file(), NAN, 1, &e) == RB_EINVAL && strstr(e.msg, "[0, 1]"));
}

/* ---- issue 16 item 13: every JSON row has every key ---- */

static int have_python(const char *imports) { return rbt_have_python(imports); }

/* A file that is not a setup file: --verify makes the reading strategies error rows, read
   size 1000 makes direct unsupported, null stays ok. Every row must have the ok row's keys. */
static void json_rows_have_every_key(void)
{
    char cmd[4096];
    const char *bin = rbt_cli(), *f = rbt_path("junk.dat"), *j = rbt_path("keys.json"), *pj = rbt_path("pfx.json");
    if (!bin) SKIP("../readbench is not built (run make test)");
    if (!have_python("json")) SKIP("python3 is not installed: no JSON parser to check with");
    snprintf(cmd, sizeof cmd, "head -c 8388608 /dev/urandom > '%s' && '%s' run '%s' "
             "--threads 1 --read-size 1000 --duration 20ms --warmup 0 --iterations 1 --verify --format json "
             "--quiet > '%s' 2>/dev/null; test -s '%s'", f, bin, f, j, j);
    CHECK(system(cmd) == 0);
    snprintf(cmd, sizeof cmd,
             "python3 -c '\n"
             "import json\n"
             "rows=json.load(open(\"%s\"))[\"results\"]\n"
             "st=set(r[\"status\"] for r in rows)\n"
             "assert st=={\"error\",\"ok\",\"unsupported\"}, st\n"
             "ok=[r for r in rows if r[\"status\"]==\"ok\"][0]\n"
             "for r in rows:\n"
             "  assert list(r.keys())==list(ok.keys()), (r[\"strategy\"], set(ok)^set(r))\n"
             "err=[r for r in rows if r[\"status\"]==\"error\"][0]\n"
             "assert err[\"verify_mismatches\"]>0 and err[\"ops_per_ms\"] is None, err\n"
             "un=[r for r in rows if r[\"status\"]==\"unsupported\"][0]\n"
             "assert un[\"seconds\"] is None and un[\"io_errors\"] is None and un[\"faults_per_process\"] is None, un\n"
             "'", j);
    CHECK(system(cmd) == 0);
    /* the prefetch experiment's rows too: an error row next to an ok one */
    {
        rb_pfx_result pr[2];
        FILE *o = fopen(pj, "w");
        unsigned k;
        CHECK(o != NULL);
        if (!o) return;
        memset(pr, 0, sizeof pr);
        for (k = 0; k < 2; k++) {
            pr[k].policy = RB_PF_BACKOFF;
            pr[k].fits = (int)k;
            pr[k].threads = 1;
            pr[k].ops = 2;
            rb_hist_init(&pr[k].with);
            rb_hist_init(&pr[k].without);
            rb_hist_record(&pr[k].with, 100);
            rb_hist_record(&pr[k].without, 200);
        }
        pr[1].status = RB_ESYS;
        snprintf(pr[1].reason, sizeof pr[1].reason, "mmap: no");
        rb_report_prefetch(o, pr, 2, 1, NULL);
        CHECK(fclose(o) == 0);
    }
    snprintf(cmd, sizeof cmd, "python3 -c '\n"
             "import json\n"
             "rows=json.load(open(\"%s\"))[\"results\"]\n"
             "assert [r[\"status\"] for r in rows]==[\"ok\",\"ok\",\"error\",\"error\"], rows\n"
             "assert all(list(r)==list(rows[0]) for r in rows), [set(r)^set(rows[0]) for r in rows]\n"
             "'", pj);
    CHECK(system(cmd) == 0);
}

/* ---- issue 16 item 12: numbers do not depend on the host program's locale ---- */

/* A locale whose decimal point is a comma, set for the whole process: one installed here, or
   one compiled with localedef into the test's directory. 1: set (restore with the saved name). */
static int comma_locale(char *saved, size_t len)
{
    static const char *const names[] = {"de_DE.UTF-8", "de_DE.utf8", "de_DE", "fr_FR.UTF-8", "fr_FR", "nl_NL.UTF-8"};
    const char *cur = setlocale(LC_ALL, NULL);
    char cmd[1024];
    unsigned i;
    snprintf(saved, len, "%s", cur ? cur : "C");
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (setlocale(LC_ALL, names[i]) && strcmp(localeconv()->decimal_point, ",") == 0) return 1;
    snprintf(cmd, sizeof cmd, "localedef -i de_DE -f UTF-8 '%s' >/dev/null 2>&1", rbt_path("de_DE.UTF-8"));
    if (system(cmd) == 0 && setenv("LOCPATH", rbt_tmpdir(), 1) == 0 &&
        setlocale(LC_ALL, "de_DE.UTF-8") && strcmp(localeconv()->decimal_point, ",") == 0)
        return 1;
    setlocale(LC_ALL, saved);
    return 0;
}

static void numbers_ignore_the_locale(void)
{
    char saved[256], cmd[2048], line[4096];
    static const char *const names[] = {"pread"};
    static const unsigned th[] = {1};
    static const uint64_t rs[] = {4096};
    static const double pct[] = {99.9};
    const char *j = rbt_path("loc.json"), *c = rbt_path("loc.csv"), *s = rbt_path("loc.svg");
    rb_result res;
    rb_report rep;
    rb_config cfg;
    rb_env env;
    double d[2];
    unsigned n = 0, k, fields[2] = {0, 0};
    FILE *f;
    if (!comma_locale(saved, sizeof saved))
        SKIP("no locale with a decimal comma is installed and localedef could not make one");
    CHECKF(rb_parse_double_list("99.9,0.5", d, 2, &n) == RB_OK && n == 2 && d[0] == 99.9 && d[1] == 0.5,
           "n %u", n);
    memset(&res, 0, sizeof res);
    res.strategy = "pread";
    res.threads = 1;
    res.read_size = 4096;
    res.reads_per_op = 1;
    res.iterations = 2;
    res.iter_ops_per_ms[0] = 4.02;
    res.iter_ops_per_ms[1] = 4.5;
    res.ops_per_ms = 4.25;
    res.ops_per_ms_stddev = 0.25;
    res.seconds = 1.5;
    res.read_amplification = 1.25;
    res.cpu_user_ns_per_read = 190.5;
    res.cpu_sys_ns_per_read = 1800.5;
    rb_hist_init(&res.lat);
    rb_hist_record(&res.lat, 1000);
    memset(&rep, 0, sizeof rep);
    memset(&cfg, 0, sizeof cfg);
    rb_config_defaults(&cfg, &cfg);
    cfg.prewarm = 0.5;
    rb_env_collect(&env, rbt_small_file());
    rep.results = &res;
    rep.count = 1;
    rep.cfg = &cfg;
    rep.env = &env;
    rep.strategies = names;
    rep.nstrategies = 1;
    rep.threads = th;
    rep.nthreads = 1;
    rep.read_sizes = rs;
    rep.nread_sizes = 1;
    rep.percentiles = pct;
    rep.npercentiles = 1;
    if ((f = fopen(j, "w"))) { rb_report_json(f, &rep); fclose(f); }
    if ((f = fopen(c, "w"))) { rb_report_csv(f, &rep); fclose(f); }
    if ((f = fopen(s, "w"))) { rb_report_svg(f, &rep, "t", 0); fclose(f); }
    CHECK(strcmp(localeconv()->decimal_point, ",") == 0);   /* the caller's locale is still its own */
    setlocale(LC_ALL, saved);
    unsetenv("LOCPATH");
    /* CSV: as many fields in the row as in the header (no quoted field holds a comma here) */
    f = fopen(c, "r");
    CHECK(f != NULL);
    for (k = 0; f && k < 2 && fgets(line, sizeof line, f); k++) {
        const char *p;
        int inq = 0;
        for (p = line, fields[k] = 1; *p; p++) {
            if (*p == '"') inq = !inq;
            else if (*p == ',' && !inq) fields[k]++;
        }
    }
    if (f) fclose(f);
    CHECKF(fields[0] > 30 && fields[0] == fields[1], "header %u fields, row %u", fields[0], fields[1]);
    if (!have_python("json, xml.etree.ElementTree")) SKIP("python3 is not installed: no JSON or XML parser");
    snprintf(cmd, sizeof cmd,
             "python3 -c '\n"
             "import json, xml.etree.ElementTree as ET\n"
             "d=json.load(open(\"%s\"))\n"
             "r=d[\"results\"][0]\n"
             "assert r[\"ops_per_ms\"]==4.25 and r[\"iterations\"]==[4.02,4.5] and \"p99.9\" in r[\"lat_ns\"], r\n"
             "root=ET.parse(\"%s\").getroot()\n"
             "v=[e.get(\"data-value\") for e in root.iter() if e.get(\"data-value\")]\n"
             "assert v==[\"4.25\"], v\n"
             "'", j, s);
    CHECK(system(cmd) == 0);
}

void suite_output(void)
{
    RUN(api_lookups_take_null);
    RUN(api_null_path_is_einval);
    RUN(api_negative_duration_is_einval);
    RUN(api_bucket_value_past_the_end);
    RUN(api_prefetch_experiment_checks_policy);
    RUN(json_rows_have_every_key);
    RUN(numbers_ignore_the_locale);
}
