/* suite output: the library API refuses bad arguments with a status and a reason; every
   output (JSON, CSV, SVG) is well-formed and complete whatever the bytes, the locale or the
   status of a row; messages keep what matters when they are cut. */
#define _GNU_SOURCE
#include "readbench.h"
#include "rbtest.h"
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <sys/wait.h>

/* ---- issue 16 item 19: the library API ---- */

static void api_lookups_take_null(void)
{
    CHECK(rb_strategy_find(NULL) == NULL);
    CHECK(rb_prefetch_policy_find(NULL) == -1);
    CHECK(rb_strategy_find("pread") != NULL && rb_prefetch_policy_find("adaptive") == RB_PREFETCH_ADAPTIVE);
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
    c.duration_ns = 20000000;   /* an op must end inside the window to count: 1 ms is too short under a sanitizer */
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
    CHECK(rb_pfx_run(&c, 99, 1, &r) == RB_EINVAL);
    CHECKF(r.status == RB_EINVAL && strstr(r.reason, "no prefetch policy 99"), "%s", r.reason);
    CHECK(rb_pfx_run(&c, -1, 1, &r) == RB_EINVAL);
    c.path = NULL;
    CHECK(rb_pfx_run(&c, RB_PREFETCH_ALWAYS, 1, &r) == RB_EINVAL && strstr(r.reason, "no file path"));
    CHECK(rb_pfx_run(NULL, RB_PREFETCH_ALWAYS, 1, &r) == RB_EINVAL);
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
             "--quiet > '%s' 2>/dev/null; test -s '%s' && python3 -c '\n"
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
             "'", f, bin, f, j, j, j);
    /* a row the machine let measure nothing is an error row too, without mismatches: the run
       and its check again (rbt_system_ok) */
    CHECK(rbt_system_ok(cmd) == 0);
    /* the prefetch experiment's rows too: an error row next to an ok one */
    {
        rb_pfx_result pr[2];
        FILE *o = fopen(pj, "w");
        unsigned k;
        CHECK(o != NULL);
        if (!o) return;
        memset(pr, 0, sizeof pr);
        for (k = 0; k < 2; k++) {
            pr[k].policy = RB_PREFETCH_BACKOFF;
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
    /* made once per run, with the small ISO-8859-1 character map: both tests need the comma
       only, and localedef took 2.2 s of CPU for de_DE.UTF-8, 0.7 s for this */
    snprintf(cmd, sizeof cmd, "test -d '%s' || localedef -i de_DE -f ISO-8859-1 '%s' >/dev/null 2>&1",
             rbt_path("de_DE.ISO-8859-1"), rbt_path("de_DE.ISO-8859-1"));
    if (system(cmd) == 0 && setenv("LOCPATH", rbt_tmpdir(), 1) == 0 &&
        setlocale(LC_ALL, "de_DE.ISO-8859-1") && strcmp(localeconv()->decimal_point, ",") == 0)
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

/* ---- issue 16 item 11: well-formed whatever the bytes, and no character cut in half ---- */

/* 1: s is valid UTF-8 (no stray byte, no sequence cut short at the end) */
static int valid_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n = *p < 0x80 ? 1 : *p >= 0xc2 && *p <= 0xdf ? 2 : *p >= 0xe0 && *p <= 0xef ? 3
              : *p >= 0xf0 && *p <= 0xf4 ? 4 : 0, i;
        if (!n) return 0;
        for (i = 1; i < n; i++)
            if ((p[i] & 0xc0) != 0x80) return 0;
        p += n;
    }
    return 1;
}

/* A path of two-byte characters, longer than any message buffer, behind prefixes of every
   parity: wherever the buffer ends, some message would end inside a character. */
static void reasons_cut_between_characters(void)
{
    char path[600];
    unsigned pre, i;
    for (pre = 1; pre <= 4; pre++) {
        rb_error e;
        rb_config c;
        rb_result r;
        rb_pfx_config pc;
        rb_pfx_result pr;
        size_t n = (size_t)snprintf(path, sizeof path, "/nonexistent-%.*s/", (int)pre, "xxxx");
        for (i = 0; i < 120; i++) n += (size_t)snprintf(path + n, sizeof path - n, "%s", i == 100 ? "/" : "\xc3\xa9");
        memset(&e, 0, sizeof e);
        CHECK(rb_evict(path, &e) != RB_OK);
        CHECKF(valid_utf8(e.msg), "prefix %u: rb_evict: ...%s", pre, e.msg + strlen(e.msg) - 8);
        memset(&e, 0, sizeof e);
        rb_check_file(path, 0, &(rb_file_info){0}, &e);
        CHECKF(valid_utf8(e.msg), "prefix %u: rb_check_file", pre);
        memset(&c, 0, sizeof c);
        c.path = path;
        CHECK(rb_run(&c, rb_strategy_find("pread"), &r) != RB_OK);
        CHECKF(valid_utf8(r.reason), "prefix %u: rb_run: ...%s", pre, r.reason + strlen(r.reason) - 8);
        memset(&pc, 0, sizeof pc);
        pc.path = path;
        CHECK(rb_pfx_run(&pc, RB_PREFETCH_ALWAYS, 1, &pr) != RB_OK);
        CHECKF(valid_utf8(pr.reason), "prefix %u: rb_pfx_run", pre);
    }
}

/* Reasons and titles with bytes that are not UTF-8, straight from the writers, through a real
   XML parser and a real JSON parser. */
static void svg_and_json_take_any_bytes(void)
{
    static const char *const names[] = {"pread", "direct"};
    static const unsigned th[] = {1};
    static const uint64_t rs[] = {4096};
    char title[700], cmd[4096];
    const char *s = rbt_path("bytes.svg"), *j = rbt_path("bytes.json");
    rb_result res[2];
    rb_report rep;
    rb_config cfg;
    FILE *f;
    unsigned i;
    memset(res, 0, sizeof res);
    for (i = 0; i < 2; i++) {
        res[i].strategy = names[i];
        res[i].threads = 1;
        res[i].read_size = 4096;
        res[i].reads_per_op = 1;
        rb_hist_init(&res[i].lat);
    }
    res[0].status = RB_ESYS;
    snprintf(res[0].reason, sizeof res[0].reason, "open /data/caf\xe9-latin1\xff\xfe/x\x01y: \xc3 cut \xef\xbf\xbe end \xe2\x82");
    res[1].status = RB_UNSUPPORTED;
    snprintf(res[1].reason, sizeof res[1].reason, "%s", "surrogate \xed\xa0\x80 overlong \xc0\xaf");
    memset(&rep, 0, sizeof rep);
    memset(&cfg, 0, sizeof cfg);
    rb_config_defaults(&cfg, &cfg);
    rep.results = res;
    rep.count = 2;
    rep.cfg = &cfg;
    rep.strategies = names;
    rep.nstrategies = 2;
    rep.threads = th;
    rep.nthreads = 1;
    rep.read_sizes = rs;
    rep.nread_sizes = 1;
    for (i = 0; i < 300; i++) title[i] = i % 2 ? (char)0xa9 : (char)0xc3;   /* a long title ... */
    snprintf(title + 300, sizeof title - 300, " \xff and \x1b[0m bytes");    /* ... with stray bytes */
    if ((f = fopen(s, "w"))) { rb_report_svg(f, &rep, title, 0); fclose(f); }
    if ((f = fopen(j, "w"))) { rb_report_json(f, &rep); fclose(f); }
    if (!have_python("json, xml.etree.ElementTree")) SKIP("python3 is not installed: no JSON or XML parser");
    snprintf(cmd, sizeof cmd,
             "python3 -c '\n"
             "import json, xml.etree.ElementTree as ET\n"
             "N=\"{http://www.w3.org/2000/svg}\"\n"
             "root=ET.parse(\"%s\").getroot()\n"
             "t=root.find(N+\"text\").text\n"
             "assert t.startswith(\"\\u00e9\"*150) and \"\\ufffd\" in t, t[-40:]\n"
             "tips=\" \".join(e.text or \"\" for e in root.iter(N+\"title\"))\n"
             "assert \"caf\\ufffd-latin1\" in tips and \"surrogate \\ufffd\" in tips, tips\n"
             "d=json.load(open(\"%s\", encoding=\"utf-8\"))\n"
             "assert d[\"results\"][0][\"reason\"].startswith(\"open /data/caf\\ufffd-latin1\"), d[\"results\"][0]\n"
             "'", s, j);
    CHECK(system(cmd) == 0);
}

/* The CLI: a long --title with stray bytes still makes a chart an XML parser accepts. */
static void cli_long_title_is_well_formed(void)
{
    char cmd[8192], title[1200];
    const char *bin = rbt_cli(), *s = rbt_path("title.svg");
    unsigned i, n = 0;
    if (!bin) SKIP("../readbench is not built (run make test)");
    if (!have_python("xml.etree.ElementTree")) SKIP("python3 is not installed: no XML parser to check with");
    title[n++] = 'x';   /* odd: a cut at an even length would land inside a character */
    for (i = 0; i < 400; i++) { title[n++] = (char)0xc3; title[n++] = (char)0xa9; }
    title[n++] = (char)0xff;
    title[n] = 0;
    snprintf(cmd, sizeof cmd, "'%s' run '%s' --strategies null --threads 1 --duration 20ms --warmup 0 "
             "--iterations 2 --quiet --output /dev/null --svg '%s' --title '%s' 2>/dev/null && python3 -c '\n"
             "import xml.etree.ElementTree as ET\n"
             "t=ET.parse(\"%s\").getroot().find(\"{http://www.w3.org/2000/svg}text\").text\n"
             "assert t==\"x\"+\"\\u00e9\"*400+\"\\ufffd\", t[-20:]\n"
             "'", bin, rbt_small_file(), s, title, s);
    CHECK(rbt_system_ok(cmd) == 0);   /* 2 x 20 ms: one of 5 ms measured nothing 3 times in a row beside busy loops */
}

/* ---- issue 16 item 18 (parts): decimal seeds, mountinfo lines of any length ---- */

static void seed_is_decimal(void)
{
    uint64_t v = 1;
    char cmd[2048];
    const char *bin = rbt_cli(), *j = rbt_path("seed.json");
    CHECK(rb_parse_u64("010", &v) == RB_OK && v == 10);
    CHECK(rb_parse_u64("08", &v) == RB_OK && v == 8);
    CHECK(rb_parse_u64("18446744073709551615", &v) == RB_OK && v == UINT64_MAX);
    CHECK(rb_parse_u64("18446744073709551616", &v) == RB_EINVAL);
    CHECK(rb_parse_u64("0x10", &v) == RB_EINVAL && rb_parse_u64("-1", &v) == RB_EINVAL);
    CHECK(rb_parse_u64("", &v) == RB_EINVAL && rb_parse_u64("1 ", &v) == RB_EINVAL && rb_parse_u64(NULL, &v) == RB_EINVAL);
    if (!bin) SKIP("../readbench is not built (run make test)");
    snprintf(cmd, sizeof cmd, "'%s' run '%s' --strategies null --threads 1 --duration 5ms --warmup 0 --iterations 1 "
             "--seed 0x10 --quiet >/dev/null 2>&1", bin, rbt_small_file());
    CHECK(WEXITSTATUS(system(cmd)) == 2);
    if (!have_python("json")) SKIP("python3 is not installed: no JSON parser to check with");
    snprintf(cmd, sizeof cmd, "for s in 08 010; do '%s' run '%s' --strategies null --threads 1 --duration 20ms "
             "--warmup 0 --iterations 2 --seed $s --format json --quiet 2>/dev/null || exit 1; done > '%s' && "
             "python3 -c '\n"
             "import json\n"
             "t=open(\"%s\").read().replace(\"}\\n{\", \"}\\n\\x00{\").split(\"\\x00\")\n"
             "assert [json.loads(x)[\"config\"][\"seed\"] for x in t]==[8,10], t\n"
             "'", bin, rbt_small_file(), j, j);
    CHECK(rbt_system_ok(cmd) == 0);   /* 2 x 20 ms: one of 5 ms measured nothing 3 times in a row beside busy loops */
}

static void mountinfo_lines_of_any_length(void)
{
    static char line[6000];
    char fs[32], cmd[16384], dir[1600];
    const char *bin = rbt_cli(), *j = rbt_path("mnt.json");
    size_t n;
    unsigned i;
    n = (size_t)snprintf(line, sizeof line, "36 35 8:3 / /mnt/");
    for (i = 0; i < 5000; i++) line[n++] = (char)('a' + i % 26);
    snprintf(line + n, sizeof line - n, " rw,noatime shared:1 - ext4 /dev/vda3 rw,errors=remount-ro\n");
    CHECK(rb_mountinfo_fs(line, 8, 3, fs, sizeof fs) == 0 && strcmp(fs, "ext4") == 0);
    CHECK(rb_mountinfo_fs(line, 8, 4, fs, sizeof fs) != 0 && fs[0] == 0);
    CHECK(rb_mountinfo_fs("36 35 8:3 / /x rw - xfs\n", 8, 3, fs, sizeof fs) == 0 && strcmp(fs, "xfs") == 0);
    CHECK(rb_mountinfo_fs("36 35 8:3 / /x rw\n", 8, 3, fs, sizeof fs) != 0);
    CHECK(rb_mountinfo_fs("garbage", 8, 3, fs, sizeof fs) != 0);
    /* end to end: a tmpfs mounted, in a private mount namespace, on a path that makes its
       mountinfo line longer than 1023 bytes */
    if (!bin) SKIP("../readbench is not built (run make test)");
#if defined(RB_NO_LINUX)
    SKIP("the portable build reads no /proc/self/mountinfo");
#endif
    if (!rbt_is_root()) SKIP("mounting a tmpfs needs root");
    if (system("unshare -m true >/dev/null 2>&1") != 0) SKIP("unshare -m (a private mount namespace) is not allowed here");
    if (!have_python("json")) SKIP("python3 is not installed: no JSON parser to check with");
    n = (size_t)snprintf(dir, sizeof dir, "%s", rbt_tmpdir());
    for (i = 0; i < 5; i++) n += (size_t)snprintf(dir + n, sizeof dir - n, "/%0240d", (int)i);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && unshare -m sh -c \"mount --make-rprivate / 2>/dev/null; "
             "mount -t tmpfs -o size=4m rbtest '%s' && '%s' setup '%s/f' 1m >/dev/null 2>&1 && "
             "'%s' run '%s/f' --strategies null --threads 1 --duration 20ms --warmup 0 --iterations 2 --format json "
             "--quiet > '%s' 2>/dev/null\" && python3 -c '\n"
             "import json\n"
             "e=json.load(open(\"%s\"))[\"env\"]\n"
             "assert e[\"filesystem\"]==\"tmpfs\", e\n"
             "'", dir, dir, bin, dir, bin, dir, j, j);
    CHECK(rbt_system_ok(cmd) == 0);   /* 2 x 20 ms: one of 5 ms measured nothing 3 times in a row beside busy loops */
}

/* ---- issue 16 item 20 (parts): messages keep the errno text; durations say what is wrong ---- */

/* A path far longer than a message: the message ends with the errno text, and shows the
   path's head and its file name with "..." between. */
static void long_paths_keep_the_errno_text(void)
{
    char path[1200];
    const char *enoent = strerror(ENOENT);
    size_t n = (size_t)snprintf(path, sizeof path, "/nonexistent-rbtest");
    unsigned i;
    rb_error e;
    rb_config c;
    rb_result r;
    rb_residency_info ri;
    for (i = 0; i < 5; i++) n += (size_t)snprintf(path + n, sizeof path - n, "/%0200d", (int)i);
    snprintf(path + n, sizeof path - n, "/the-file-name.dat");
    memset(&e, 0, sizeof e);
    CHECK(rb_evict(path, &e) == RB_ENOFILE);
    CHECKF(strstr(e.msg, enoent) && strstr(e.msg, "/nonexistent-rbtest/") && strstr(e.msg, ".../the-file-name.dat"),
           "%s", e.msg);
    memset(&e, 0, sizeof e);
    CHECK(rb_residency(path, &ri, &e) != RB_OK);
    CHECKF(strstr(e.msg, enoent) != NULL, "%s", e.msg);
    memset(&e, 0, sizeof e);
    CHECK(rb_check_file(path, 0, &(rb_file_info){0}, &e) != RB_OK);
    CHECKF(strstr(e.msg, enoent) != NULL, "%s", e.msg);
    memset(&c, 0, sizeof c);
    c.path = path;
    CHECK(rb_run(&c, rb_strategy_find("pread"), &r) != RB_OK);
    CHECKF(strstr(r.reason, enoent) && strstr(r.reason, "the-file-name.dat"), "%s", r.reason);
    /* a path that fits is shown whole */
    memset(&e, 0, sizeof e);
    CHECK(rb_evict("/nonexistent-rbtest/short.dat", &e) == RB_ENOFILE);
    CHECKF(strstr(e.msg, "/nonexistent-rbtest/short.dat") && strstr(e.msg, enoent), "%s", e.msg);
}

static void durations_say_what_is_wrong(void)
{
    static const struct { const char *opt, *val, *want; } cases[] = {
        {"--duration", "5x", "malformed duration"},
        {"--duration", "99999999999h", "--duration is too large"},
        {"--duration", "0.5ms", "at least 1ms"},
        {"--warmup", "1q", "malformed duration"},
        {"--warmup", "99999999999h", "--warmup is too large"},
    };
    char cmd[2048], err[4096];
    const char *bin = rbt_cli(), *ef = rbt_path("dur.err");
    unsigned k;
    int64_t ns;
    CHECK(rb_parse_duration("5x", &ns) == RB_EINVAL && rb_parse_duration("1.2.3s", &ns) == RB_EINVAL);
    CHECK(rb_parse_duration("99999999999h", &ns) == RB_ERANGE);
    CHECK(rb_parse_duration("2000000h", &ns) == RB_OK && ns == 2000000LL * 3600 * 1000000000LL);
    if (!bin) SKIP("../readbench is not built (run make test)");
    for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        FILE *f;
        size_t n = 0;
        int st;
        snprintf(cmd, sizeof cmd, "'%s' run '%s' --strategies null --threads 1 --iterations 1 %s %s "
                 "--quiet >/dev/null 2>'%s'", bin, rbt_small_file(), cases[k].opt, cases[k].val, ef);
        st = system(cmd);
        if ((f = fopen(ef, "r"))) { n = fread(err, 1, sizeof err - 1, f); fclose(f); }
        err[n] = 0;
        CHECKF(WEXITSTATUS(st) == 2 && strstr(err, cases[k].want), "%s %s: exit %d, %s", cases[k].opt,
               cases[k].val, WEXITSTATUS(st), err);
    }
}

/* ---- issue 16 item 20 (part): never suggest --force over a file readbench did not make ---- */

static void too_small_suggests_force_only_over_setup_files(void)
{
    static const char *const kinds[] = {"empty", "user", "setup"};
    char cmd[2048], err[4096];
    const char *bin = rbt_cli(), *ef = rbt_path("small.err");
    rb_file_info fi;
    rb_error e;
    unsigned k;
    if (!bin) SKIP("../readbench is not built (run make test)");
    snprintf(cmd, sizeof cmd, ": > '%s' && head -c 100000 /dev/urandom > '%s' && '%s' setup '%s' 1m >/dev/null 2>&1",
             rbt_path("empty.dat"), rbt_path("user.dat"), bin, rbt_path("setup.dat"));
    CHECK(system(cmd) == 0);
    CHECK(rb_check_file(rbt_path("user.dat"), 1 << 20, &fi, &e) == RB_ETOOSMALL && !fi.setup_made);
    CHECK(rb_check_file(rbt_path("setup.dat"), 2 << 20, &fi, &e) == RB_ETOOSMALL && fi.setup_made);
    for (k = 0; k < 3; k++) {
        FILE *f;
        size_t n = 0;
        int st;
        char name[32];
        snprintf(name, sizeof name, "%s.dat", kinds[k]);
        snprintf(cmd, sizeof cmd, "'%s' run '%s' --size 2m --strategies null --quiet >/dev/null 2>'%s'", bin,
                 rbt_path(name), ef);
        st = system(cmd);
        if ((f = fopen(ef, "r"))) { n = fread(err, 1, sizeof err - 1, f); fclose(f); }
        err[n] = 0;
        CHECKF(WEXITSTATUS(st) == 2, "%s: exit %d", name, WEXITSTATUS(st));
        if (k < 2) CHECKF(!strstr(err, "--force") && strstr(err, "readbench setup NEW_FILE 2m"), "%s: %s", name, err);
        else CHECKF(strstr(err, "--force") != NULL, "%s: %s", name, err);
    }
}


/* ---- what the independent sweep found after the fixes above ---- */

/* Every rb_config field the runner would otherwise take silently is checked: a cache mode
   that does not exist, a negative warmup other than RB_NONE, more iterations than the
   result holds (they were cut to 100 with status ok), more threads than RB_MAX_THREADS
   (100000 made 32418 threads before failing). */
static void api_refuses_out_of_range_config(void)
{
    static rb_result res;
    rb_pfx_config pc;
    rb_pfx_result pr;
    rb_error e;
    unsigned k;
    for (k = 0; k < 4; k++) {
        rb_config c;
        memset(&c, 0, sizeof c);
        c.path = rbt_small_file();
        c.duration_ns = 1000000;
        c.warmup_ns = RB_NONE;
        c.iterations = 1;
        if (k == 0) c.cache = 9;
        if (k == 1) c.warmup_ns = -7;
        if (k == 2) c.iterations = RB_MAX_ITERATIONS + 1;
        if (k == 3) c.threads = 100000;
        CHECKF(rb_run(&c, rb_strategy_find("null"), &res) == RB_EINVAL && res.reason[0], "case %u: %d %s", k,
               res.status, res.reason);
    }
    memset(&pc, 0, sizeof pc);
    pc.path = rbt_small_file();
    CHECKF(rb_pfx_run(&pc, RB_PREFETCH_ALWAYS, 7, &pr) == RB_EINVAL && strstr(pr.reason, "fits"), "%s",
           pr.reason);
    CHECK(rb_check_file(rbt_small_file(), 0, NULL, &e) == RB_OK);   /* the status alone: no crash */
}

/* Warnings and reasons are formatted in the C locale too: "37,5%" was written into the JSON
   warnings of an embedding program running under de_DE. */
static void warnings_ignore_the_locale(void)
{
    static rb_result res;
    char saved[256];
    rb_config c;
    rb_error e;
    unsigned k, pct = 0;
    if (!comma_locale(saved, sizeof saved))
        SKIP("no locale with a decimal comma is installed and localedef could not make one");
    memset(&c, 0, sizeof c);
    c.path = rbt_small_file();
    c.warmup_ns = RB_NONE;
    c.duration_ns = 20000000;
    c.iterations = 1;
    c.threads = 1;
    CHECK(rb_evict(c.path, &e) == RB_OK);   /* kept cache below 100%: a warning with a percentage */
    CHECKF(rb_run(&c, rb_strategy_find("pread"), &res) == RB_OK, "%s", res.reason);
    setlocale(LC_ALL, saved);
    unsetenv("LOCPATH");
    for (k = 0; k < res.nwarnings; k++) {
        const char *w = res.warnings[k], *p;
        for (p = strchr(w, '%'); p; p = strchr(p + 1, '%')) {
            pct++;
            CHECKF(p - w < 3 || p[-2] != ',', "%s", w);
        }
        if (strstr(w, "was resident when measuring started")) pct += 1000;   /* "0.0%": a decimal point */
    }
    CHECKF(pct > 1000, "no kept-cache warning with a percentage (%u warnings)", res.nwarnings);
}

/* The default job with ./readbench.dat a link to /dev/zero: one line, the refusal, not a
   "reading readbench.dat once" line first. A report without the keys diff needs is named. */
static void sweep_messages(void)
{
    const char *cli = rbt_cli(), *dir = rbt_path("defjob"), *bad = rbt_path("nokeys.json");
    char cmd[2048], err[4096];
    FILE *f;
    size_t n;
    int rc;
    if (!cli) SKIP("the CLI is not built");
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && ln -sf /dev/zero '%s/readbench.dat' && cd '%s' && "
             "timeout 20 '%s' 2>&1", dir, dir, dir, cli);
    f = popen(cmd, "r");
    CHECK(f != NULL);
    if (!f) return;
    n = fread(err, 1, sizeof err - 1, f);
    err[n] = 0;
    rc = pclose(f);
    CHECKF(WIFEXITED(rc) && WEXITSTATUS(rc) == 2, "rc %d: %s", rc, err);
    CHECKF(strstr(err, "not a regular file") && !strstr(err, "reading readbench.dat"), "%s", err);
    f = fopen(bad, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs("{\"x\": 1}\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' diff '%s' '%s' 2>&1", cli, bad, bad);
    f = popen(cmd, "r");
    CHECK(f != NULL);
    if (!f) return;
    n = fread(err, 1, sizeof err - 1, f);
    err[n] = 0;
    rc = pclose(f);
    CHECKF(WIFEXITED(rc) && WEXITSTATUS(rc) == 2 && strstr(err, "nokeys.json: ") && strstr(err, "missing"), "rc %d: %s",
           rc, err);
}

/* ---- issue 22 item 4: one table of result columns; CSV and JSON did not change ---- */

/* Every field of a result set to a value no other field has (base apart per row), so that a
   column that prints the wrong field, or the right one under the wrong name, shows. */
static void golden_fill(rb_result *x, unsigned base, const double *samples, unsigned nsamples)
{
    unsigned k;
    double b = base;
    memset(x, 0, sizeof *x);
    x->strategy = "pread";
    x->threads = base + 1;
    x->pattern = RB_RANDOM;
    x->read_size = 4096u * (base + 1);
    x->reads_per_op = base + 2;
    x->status = RB_OK;
    snprintf(x->warnings[0], RB_REASON_LEN, "first warning of row %u, with \"quotes\", a comma", base);
    snprintf(x->warnings[1], RB_REASON_LEN, "second warning of row %u", base);
    x->nwarnings = 2;
    x->warnings_dropped = base + 3;
    x->iterations = 3;
    for (k = 0; k < 3; k++) {
        x->iter_ops_per_ms[k] = b + 10.125 + k;
        x->iter_resident_before[k] = (int64_t)(base * 100 + 20 + k);
        x->iter_pages_touched[k] = (int64_t)(base * 100 + 30 + k);
    }
    x->iter_resident_before[1] = -1;   /* one the run could not count: null */
    x->ops = base * 1000 + 4;
    x->min_thread_ops = base * 1000 + 5;
    x->seconds = b + 6.5;
    x->verified = 1;
    x->ops_per_ms = b + 7.25;
    x->iops = b + 8.125;
    x->bytes_per_sec = b * 1e6 + 9.5;
    x->ops_per_ms_stddev = b + 0.375;
    x->madvise_calls = base * 1000 + 11;
    x->madvise_failed = base * 1000 + 12;
    x->madvise_errno = 22;
    x->prefetch.calls = base * 1000 + 13;
    x->prefetch.skips = base * 1000 + 14;
    x->prefetch.mincore_calls = base * 1000 + 15;
    x->prefetch.advises = base * 1000 + 16;
    x->prefetch.failed = base * 1000 + 17;
    x->prefetch.mincore_failed = base * 1000 + 18;
    x->prefetch.around = base * 1000 + 19;
    x->prefetch.trials = base * 1000 + 20;
    x->prefetch.fills = base * 1000 + 21;
    x->prefetch.sweeps = base * 1000 + 22;
    if (base % 2 == 0) {   /* an adaptive row's arms (the odd rows have none: "adaptive": null) */
        unsigned k;
        for (k = 0; k < RB_AD_ARMS; k++) {
            x->prefetch.arm_calls[k] = k == RB_AD_SWEEP ? 0 : base * 1000 + 256 * (k + 1);
            x->prefetch.arm_ns[k] = x->prefetch.arm_calls[k] * (1000 + 250 * k);
        }
        x->prefetch.switches = base + 3;
        x->prefetch.explore_ns = base * 1000 + 12345;
        x->prefetch.sweep_depth = (unsigned)base + 3;
    }
    x->prefetch_accounting.hints = base * 1000 + 100;
    x->prefetch_accounting.sampled = 50;
    x->prefetch_accounting.redundant = 11;
    x->prefetch_accounting.useful = 17;
    x->prefetch_accounting.late = 9;
    x->prefetch_accounting.wasted = 8;
    x->prefetch_accounting.failed = 5;
    x->prefetch_accounting.wasted_unknown = 1;
    x->prefetch_accounting.untrusted = 23;
    x->prefetch_accounting.late_slow = 4;
    x->fadvise_calls = base * 1000 + 24;
    x->fadvise_failed = base * 1000 + 25;
    x->nowait_reads = base * 1000 + 26;
    x->nowait_served = base * 1000 + 13;
    x->io_errors = base * 1000 + 27;
    x->short_reads = base * 1000 + 28;
    x->verify_mismatches = base * 1000 + 29;
    rb_hist_init(&x->lat);
    rb_hist_init(&x->read_lat);
    rb_hist_init(&x->service);
    for (k = 1; k <= 2000; k++) {
        rb_hist_record(&x->lat, 1000 + k * (base + 1));
        rb_hist_record(&x->read_lat, 300 + k * (base + 2));
        rb_hist_record(&x->service, 700 + k * (base + 3));
    }
    x->inflight_max = base + 30;
    x->rate_asked = b * 100 + 31.5;
    x->arrivals = RB_ARRIVALS_POISSON;
    x->arrivals_due = base * 1000 + 32;
    x->think_ns = base * 1000 + 33;
    x->evict_seconds = b + 0.34;
    x->prewarm_seconds = b + 0.35;
    x->file_pages = base * 1000 + 36;
    x->resident_before = base * 100 + 37;
    x->resident_after = base * 100 + 38;
    x->resident_prepared = base * 100 + 39;
    x->majflt = base * 1000 + 40;
    x->minflt = base * 1000 + 41;
    x->device_read_bytes = base * 100000 + 42;
    x->read_amplification = b + 1.43;
    x->reads_issued = base * 1000 + 44;
    x->bytes_issued = base * 1000 + 45;
    x->per_process_faults = 1;
    x->cpu_user_ns_per_read = b + 46.25;
    x->cpu_sys_ns_per_read = b + 47.75;
    snprintf(x->pattern_spec, sizeof x->pattern_spec, "zipf:1.%u", base + 1);
    x->pages_touched = b + 48.5;
    x->touched_iterations = 3;
    x->page_reads = base * 1000 + 49;
    x->cold_pages = base * 1000 + 50;
    x->hit_rate = 0.51 + b / 100;
    x->cache_bypassed = 1;
    x->fault_hit_rate = 0.52 + b / 100;
    x->trace_loops = base * 1000 + 53;
    x->files = base + 54;
    x->files_small = base + 55;
    x->rounds = 2;
    x->samples = samples;
    x->nsamples = nsamples;
    x->ops_per_ms_median = b + 56.5;
    x->ci_lo = b + 55.5;
    x->ci_hi = b + 57.5;
    x->outliers = base + 58;
    x->paired_with = "mmap";
    x->paired_rounds = 2;
    x->paired_ratio = 1.59 + b / 100;
    x->paired_lo = 1.5 + b / 100;
    x->paired_hi = 1.7 + b / 100;
    x->machine_before_ns = b * 1000 + 60123.4;
    x->machine_after_ns = b * 1000 + 61234.6;
    x->machine_drift = 0.062 + b / 1000;
    x->machine_moved = base + 63;
    x->read_ahead_kb = base == 2 ? -1 : (long)(base + 1) * 128;   /* row 2: no block device */
    x->fault_around_bytes = base % 2 ? -1 : 65536;                 /* debugfs not mounted: unknown */
    x->iodepth = base % 3 ? 0 : base + 64;                         /* a queue strategy's rows only */
    if (base % 2 == 0) snprintf(x->variant, sizeof x->variant, "ra=%uk qd=%u", (base + 1) * 128, base + 64);
}

/* The rows the writers treat differently: ok (open loop, every strategy figure), failed after
   measuring, never run, an upper bound, a group's together row, one with a victim. */
static void golden_rows(rb_result *rows, const double *samples)
{
    golden_fill(&rows[0], 0, samples, 6);
    golden_fill(&rows[1], 1, samples, 6);
    rows[1].status = RB_EIO;
    snprintf(rows[1].reason, RB_REASON_LEN, "read failed: \"EIO\", twice");
    rows[1].group = 1;   /* a group's row that failed: its group, not its figures */
    rows[1].ngroups = 2;
    rows[1].group_run = RB_RUN_ALONE;
    snprintf(rows[1].group_spec, sizeof rows[1].group_spec, "pread");
    rows[1].victim_pages = 3;   /* a victim's figures only on ok rows */
    golden_fill(&rows[2], 2, NULL, 0);
    rows[2].status = RB_ENOTRUN;
    rows[2].iterations = 0;
    rows[2].files = 0;
    rows[2].machine_before_ns = 0;
    golden_fill(&rows[3], 3, samples, 6);
    rows[3].strategy = "mmap";
    rows[3].rate_upper_bound = 1;
    rows[3].rate_asked = 0;
    rows[3].paired_rounds = 0;
    rows[3].ops_per_ms_stddev = NAN;
    rows[3].hit_rate = -1;
    rows[3].cpu_user_ns_per_read = -1;
    rows[3].majflt = -1;
    golden_fill(&rows[4], 4, samples, 6);
    rows[4].group = 2;
    rows[4].ngroups = 2;
    rows[4].group_run = RB_RUN_TOGETHER;
    snprintf(rows[4].group_spec, sizeof rows[4].group_spec, "2x pread \"zipf\"");
    rows[4].together_ratio = 0.64;
    rows[4].together_ratio_lo = 0.6;
    rows[4].together_ratio_hi = 0.7;
    rows[4].ws_pages = 65;
    rows[4].ws_evicted = 66;
    rows[4].prefetch_accounting.hints = 0;
    rows[4].nowait_reads = 0;
    rows[4].inflight_max = 0;
    golden_fill(&rows[5], 5, samples, 6);
    rows[5].victim_pages = 67;
    rows[5].victim_reads = 68;
    rows[5].victim_resident_before = 69;
    rows[5].victim_resident_after = 70;
    rows[5].victim_lost = 71;
    rows[5].victim_device_read_bytes = 72;
    rows[5].victim_recently_evicted = -1;
    rows[5].prefetch_accounting.sampled = rows[5].prefetch_accounting.failed;   /* none classified */
    rows[5].arrivals_due = 0;
}

/* 1: the file at path (relative to tests/) holds exactly what text is; else says where not.
   With RB_GOLDEN_WRITE set, writes it instead (run once on the code whose output is right). */
static int golden_same(const char *path, const char *text, size_t len)
{
    FILE *f;
    char *want;
    size_t n, i, line = 1;
    if (getenv("RB_GOLDEN_WRITE")) {
        f = fopen(path, "w");
        CHECKF(f && fwrite(text, 1, len, f) == len && fclose(f) == 0, "cannot write %s", path);
        return 1;
    }
    f = fopen(path, "r");
    CHECKF(f != NULL, "cannot open %s (make test runs from tests/)", path);
    if (!f) return 0;
    want = (char *)malloc(len + 2);
    n = want ? fread(want, 1, len + 1, f) : 0;
    fclose(f);
    for (i = 0; i < n && i < len && want[i] == text[i]; i++) line += text[i] == '\n';
    CHECKF(n == len && i == len, "%s: differs at line %zu, byte %zu: wrote \"%.60s\", golden \"%.60s\"", path,
           line, i, text + (i < len ? i : len), want ? want + (i < n ? i : n) : "");
    free(want);
    return n == len && i == len;
}

static void golden_report(const rb_report *rep, const char *csv_path, const char *json_path)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(f != NULL);
    if (!f) return;
    rb_report_csv(f, rep);
    CHECK(fclose(f) == 0);
    golden_same(csv_path, buf, len);
    free(buf);
    buf = NULL;
    f = open_memstream(&buf, &len);
    CHECK(f != NULL);
    if (!f) return;
    rb_report_json(f, rep);
    CHECK(fclose(f) == 0);
    golden_same(json_path, buf, len);
    free(buf);
}

/* A synthetic report, every field set: CSV and JSON byte for byte as tests/golden/ holds
   them (written by the writers before the table of columns drove them). */
static void columns_match_golden(void)
{
    static rb_result rows[6];
    static const double samples[6] = {10.5, 11.25, 12.125, 13.0625, 14.5, 15.75};
    static const double pct[2] = {99.99, 75};
    static const char *const names[2] = {"pread", "mmap"};
    static const unsigned th[1] = {1}, order[12] = {5, 4, 3, 2, 1, 0, 0, 1, 2, 3, 4, 5};
    static const uint64_t rs[1] = {4096};
    static rb_trace tr;
    rb_config cfg;
    rb_report rep;
    golden_rows(rows, samples);
    memset(&tr, 0, sizeof tr);
    snprintf(tr.path, sizeof tr.path, "app.strace");
    snprintf(tr.named, sizeof tr.named, "/data/index.bin");
    tr.format = RB_TRACE_STRACE;
    tr.reads = 7301;
    tr.skipped = 7302;
    tr.failed = 7303;
    tr.bytes = 7304;
    memset(&cfg, 0, sizeof cfg);
    cfg.path = "/data/file.bin";
    cfg.size = 1 << 24;
    cfg.reads_per_op = 4;
    cfg.seed = 42;
    cfg.warmup_ns = 1000000;
    cfg.duration_ns = 50000000;
    cfg.iterations = 3;
    cfg.rate = 1000;
    cfg.arrivals = RB_ARRIVALS_POISSON;
    cfg.cache = RB_CACHE_EVICT;
    cfg.prewarm = 0.25;
    cfg.victim = "/data/victim.bin";
    cfg.trace = &tr;
    memset(&rep, 0, sizeof rep);
    rep.results = rows;
    rep.count = 6;
    rep.percentiles = pct;
    rep.npercentiles = 2;
    rep.cfg = &cfg;
    rep.strategies = names;
    rep.nstrategies = 2;
    rep.threads = th;
    rep.nthreads = 1;
    rep.read_sizes = rs;
    rep.nread_sizes = 1;
    rep.rounds = 2;
    rep.order = order;
    rep.round_seed = 99;
    rep.scenario = "cold";
    golden_report(&rep, "golden/columns.csv", "golden/columns.json");
    cfg.trace = NULL;   /* no replay: no trace columns; default percentiles */
    cfg.rate = 0;
    rep.percentiles = NULL;
    rep.npercentiles = 0;
    rep.count = 2;
    rep.order = NULL;
    rep.scenario = NULL;
    golden_report(&rep, "golden/columns_plain.csv", "golden/columns_plain.json");
}

/* The table itself: every CSV place and name once, every JSON name once in its object, an
   object's rows together, an interval's low end followed by its high end. */
#define TABLE_ROW(id, kind, flags, pos, cname, ob, jname, cw, jw, value) {#id, #kind, pos, cname, ob, jname},
static const struct {
    const char *id, *kind;
    unsigned pos;
    const char *csv, *obj, *json;
} table_rows[] = {RB_RESULT_COLUMNS(TABLE_ROW)};
#undef TABLE_ROW

static int same_text(const char *a, const char *b) { return a == b || (a && b && !strcmp(a, b)); }

static void columns_table_is_consistent(void)
{
    unsigned n = sizeof table_rows / sizeof table_rows[0], i, j;
    const char *closed[64], *prev = NULL;   /* objects left; the last JSON row's */
    unsigned nclosed = 0;
    CHECK(n > 100);
    for (i = 0; i < n; i++) {
        for (j = 0; j < i; j++) {
            CHECKF(!table_rows[i].pos || table_rows[i].pos != table_rows[j].pos, "%s and %s: CSV place %u",
                   table_rows[i].id, table_rows[j].id, table_rows[i].pos);
            CHECKF(!table_rows[i].csv || !same_text(table_rows[i].csv, table_rows[j].csv), "CSV name %s twice",
                   table_rows[i].csv);
            CHECKF(!table_rows[i].json || !table_rows[j].json || !same_text(table_rows[i].obj, table_rows[j].obj) ||
                   strcmp(table_rows[i].json, table_rows[j].json), "JSON name %s twice", table_rows[i].json);
            CHECKF(strcmp(table_rows[i].id, table_rows[j].id), "id %s twice", table_rows[i].id);
        }
        CHECKF(!table_rows[i].csv == !table_rows[i].pos, "%s: a CSV name without a place, or the reverse",
               table_rows[i].id);
        CHECKF(strcmp(table_rows[i].kind, "LO") || (i + 1 < n && !strcmp(table_rows[i + 1].kind, "HI")),
               "%s: LO not followed by HI", table_rows[i].id);
        if (!table_rows[i].json) continue;
        if (prev && !same_text(prev, table_rows[i].obj) && nclosed < 64) closed[nclosed++] = prev;
        for (j = 0; table_rows[i].obj && j < nclosed; j++)
            CHECKF(strcmp(closed[j], table_rows[i].obj), "object %s split", closed[j]);
        prev = table_rows[i].obj;
    }
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
    RUN(reasons_cut_between_characters);
    RUN(svg_and_json_take_any_bytes);
    RUN(cli_long_title_is_well_formed);
    RUN(seed_is_decimal);
    RUN(mountinfo_lines_of_any_length);
    RUN(long_paths_keep_the_errno_text);
    RUN(durations_say_what_is_wrong);
    RUN(too_small_suggests_force_only_over_setup_files);
    RUN(api_refuses_out_of_range_config);
    RUN(warnings_ignore_the_locale);
    RUN(sweep_messages);
    RUN(columns_match_golden);
    RUN(columns_table_is_consistent);
}
