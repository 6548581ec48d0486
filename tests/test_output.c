/* suite output: the library API refuses bad arguments with a status and a reason; every
   output (JSON, CSV, SVG) is well-formed and complete whatever the bytes, the locale or the
   status of a row; messages keep what matters when they are cut. */
#define _GNU_SOURCE
#include "readbench.h"
#include "rbtest.h"
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

void suite_output(void)
{
    RUN(api_lookups_take_null);
    RUN(api_null_path_is_einval);
    RUN(api_negative_duration_is_einval);
    RUN(api_bucket_value_past_the_end);
    RUN(api_prefetch_experiment_checks_policy);
    RUN(json_rows_have_every_key);
}
