/* main.c - the readbench command: parse argv into an rb_config, call readbench.h, print.
   Exit status: 0 success, 1 a run-time failure, 2 bad input (with a one-line reason). */
#define READBENCH_IMPLEMENTATION
#include "readbench.h"

#define MAXL 32

static const char *usage =
    "usage: readbench                          create ./readbench.dat (1 GiB) if missing, run the default matrix\n"
    "       readbench [run] FILE [options]     measure the read strategies on FILE\n"
    "       readbench setup FILE SIZE [--force] [--follow-symlinks]\n"
    "                                          write a benchmark file (content checkable with --verify); --force\n"
    "                                          replaces a regular file atomically, --follow-symlinks a link's target\n"
    "       readbench list [FILE]              every strategy, and whether it runs here\n"
    "       readbench drop [FILE]              evict FILE from the page cache; no FILE: drop all caches (root)\n"
    "\n"
    "run options (lists are comma-separated; sizes take k/m/g/t or KiB/MiB/GiB/TiB):\n"
    "  --strategies LIST|all   which strategies (default all; see `readbench list`)\n"
    "  --threads LIST          thread counts (default 1,4,8,16)\n"
    "  --read-size LIST        bytes per read (default 16k); with one thread count the columns become read sizes\n"
    "  --reads-per-op N        reads per op (default 16 random, 128 sequential); ops/ms counts ops\n"
    "  --pattern P             random (default) or sequential\n"
    "  --size SIZE             read only the first SIZE bytes of FILE (default: all of it)\n"
    "  --warmup TIME           warmup per cell, e.g. 500ms, 1s; 0 for none (default 1s; none after --cache evict\n"
    "                          or with --prewarm below 1, where it would undo the prepared state)\n"
    "  --duration TIME         one measured iteration (default 1s)\n"
    "  --iterations N          measured iterations per cell (default 5, at most 100)\n"
    "  --rounds N              the whole matrix N times in shuffled order; cells show median +- 95% CI\n"
    "  --align SIZE            random offsets are multiples of SIZE (default: unaligned; fio aligns to bs)\n"
    "  --seed N                offsets seed (default 0)\n"
    "  --cpus LIST             pin worker i to CPU LIST[i % n] (fio's cpus_allowed); default: unpinned\n"
    "  --verify                check every byte read against the setup pattern\n"
    "  --format F              table (default), markdown, csv or json\n"
    "  --output FILE           write the report there instead of stdout\n"
    "  --percentiles LIST      latency percentiles (default 50,90,99,99.9)\n"
    "  --baseline FILE.json    after the results, compare with an earlier --format json run (see diff)\n"
    "  --quiet                 no progress lines on stderr\n"
    "  --svg FILE              also draw the ops/ms as an SVG bar chart (--log: log scale; --title TEXT)\n"
    "\ncache and memory (time spent here is shown, never measured):\n"
    "  --cache C               keep (default), evict (before each cell), evict-each (before every iteration)\n"
    "  --prewarm F             make fraction F (0..1) of the file's pages resident before each cell, the rest not\n"
    "  --hog SIZE|auto:R       pin SIZE of memory for the run; auto:R leaves available memory = file size / R\n"
    "  --scenario S            warm, pressure, half-cold, cold or sequential-cold (the Lucene cases; prints what it sets)\n"
    "\nother commands:\n"
    "  readbench residency FILE   how much of FILE is in the page cache\n"
    "  readbench hog SIZE         pin SIZE of memory until Ctrl-C\n"
    "  readbench prefetch FILE [--threads N] [--ops N] [--policies LIST] [--advice random|normal]\n"
    "                             [--format table|json] [--output FILE] [--svg FILE [--log] [--title TEXT]]\n"
    "                             the prefetch-overhead experiment (Lucene's PrefetchBench) per policy:\n"
    "                             always, backoff, backoff-nomincore, adaptive, backoff-shared\n"
    "  readbench diff BASE.json NEW.json [--format table|markdown|json]\n"
    "                             per cell NEW/BASE of the median ops/ms, its 95% interval, and a verdict\n"
    "  readbench probe FILE [--case N|NAME] [--format table|json] [--output FILE]\n"
    "                             what one cold read makes the kernel load, by advice and mapping\n";

static int bad(const char *fmt, const char *arg)
{
    fprintf(stderr, "readbench: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see readbench --help)\n");
    return 2;
}

/* A library status about the user's file: bad input (exit 2), or a run-time failure (1). */
static int file_exit(int rc)
{
    return rc == RB_ENOFILE || rc == RB_ENOTREG || rc == RB_ETOOSMALL || rc == RB_EPERM ? 2 : 1;
}

/* prefetch and probe: a FILE they cannot use, and the command that makes one when it is missing. */
static int file_refused(int rc, const rb_error *err, const char *path)
{
    fprintf(stderr, "readbench: %s%s%s%s\n", err->msg, rc == RB_ENOFILE ? "; create it with: readbench setup " : "",
            rc == RB_ENOFILE ? path : "", rc == RB_ENOFILE ? " 4g" : "");
    return file_exit(rc);
}

/* SIGINT/TERM/HUP/QUIT: the running cell stops at its next 20 ms check (rb_config.stop), setup
   at its next 8 MiB chunk; the cells finished so far are printed, the hog is released, no
   temporary file is left and the exit status is 128 + the first signal. Later signals are
   not acted on: dying at once would leave a temporary (or, before, a partial) file behind.
   SA_RESTART: a signal must not turn a write of the report into a failed one (EINTR). */
static volatile int stop_signal;

static void on_signal(int sig)
{
    if (!stop_signal) stop_signal = sig;
}

static void catch_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    struct sigaction sa;
    unsigned i;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        if (sigaction(sigs[i], &sa, NULL) != 0) perror("readbench: sigaction");
}

/* --output and --svg, checked and written the one careful way (readbench.h): exit 0, 1 or 2. */
static int file_error(int rc, const rb_error *err)
{
    if (rc != RB_OK) fprintf(stderr, "readbench: %s\n", err->msg);
    return rc == RB_OK ? 0 : rc == RB_EINVAL || rc == RB_ENOTREG ? 2 : 1;
}

static int open_outputs(rb_outfile *o, const char *out_path, const char *svg_path, const char *input,
                        const char *baseline)
{
    const char *paths[2] = {out_path, svg_path}, *inputs[2] = {input, baseline};
    rb_error err;
    return file_error(rb_outfiles_open(o, paths, 2, inputs, 2, &err), &err);
}

static int close_outputs(rb_outfile *o, int keep)   /* keep: the reports are complete */
{
    rb_error err;
    return file_error(rb_outfiles_close(o, 2, keep, &err), &err);
}

static int progress_bar(uint64_t done, uint64_t total, void *user)
{
    if (user) {
        fprintf(stderr, "\rwriting: %3.0f%% (%llu of %llu MiB)", 100.0 * (double)done / (double)total,
                (unsigned long long)(done >> 20), (unsigned long long)(total >> 20));
        if (done == total || stop_signal) fprintf(stderr, "\n");
    }
    return stop_signal;   /* nonzero: setup stops and removes its temporary file */
}

static int setup(const char *path, uint64_t size, int flags)
{
    rb_error err;
    char sz[32];
    struct timespec a, b;
    int rc, draw = isatty(2);   /* the bar only on a terminal; the callback also carries Ctrl-C */
    clock_gettime(CLOCK_MONOTONIC, &a);
    catch_signals();
    rc = rb_setup_file(path, size, 0, flags, progress_bar, draw ? &draw : NULL, &err);
    clock_gettime(CLOCK_MONOTONIC, &b);
    if (rc != RB_OK) {
        struct stat st;
        int link = rc == RB_ENOTREG && lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && !(flags & RB_OUT_FOLLOW);
        fprintf(stderr, "readbench: %s%s\n", err.msg, rc == RB_EEXIST && !(flags & RB_OUT_REPLACE) ?
                "; add --force to replace it" : link ? "; add --follow-symlinks to replace its target" : "");
        return rc == RB_EINTR ? 128 + stop_signal : rc == RB_EEXIST || rc == RB_EINVAL || rc == RB_ENOTREG ? 2 : 1;
    }
    rb_format_size(size, sz, sizeof sz);
    {
        double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
        fprintf(stderr, "readbench: wrote %s to %s in %.2f s (%.0f MiB/s)\n", sz, path, s,
                (double)size / 1048576.0 / s);
    }
    return 0;
}

/* list: with FILE, the strategies are probed on it. Without, on a 1 MiB file of our own in
   TMPDIR (or /tmp), never the current directory: it may be read-only, and it is the user's.
   A signal during the probe removes that file, then exits 128 + the signal. */
static int list(const char *path)
{
    rb_config c;
    const char *td = getenv("TMPDIR");
    char tmp[4096];
    int fd = -1;
    memset(&c, 0, sizeof c);
    c.path = path;
    if (path) {
        rb_file_info info;
        rb_error err;
        int rc = rb_check_file(path, 0, &info, &err);
        if (rc != RB_OK) { fprintf(stderr, "readbench: %s\n", err.msg); return file_exit(rc); }
    } else {   /* a small file of our own, so direct and io_uring are probed for real */
        rb_error err;
        snprintf(tmp, sizeof tmp, "%s/readbench-probe-XXXXXX", td && *td ? td : "/tmp");
        catch_signals();
        if ((fd = mkstemp(tmp)) < 0) { fprintf(stderr, "readbench: cannot create %s: %s\n", tmp, strerror(errno)); return 1; }
        close(fd);
        if (rb_setup_file(tmp, 1 << 20, 0, RB_OUT_REPLACE, progress_bar, NULL, &err) != RB_OK) {
            if (!stop_signal) fprintf(stderr, "readbench: %s\n", err.msg);
            if (unlink(tmp) != 0) perror("readbench: unlink");
            return stop_signal ? 128 + stop_signal : 1;
        }
        c.path = tmp;
    }
    c.read_size = 16384;
    c.stop = &stop_signal;
    rb_report_list(stdout, &c);
    if (!path && unlink(tmp) != 0) perror("readbench: unlink");
    return stop_signal ? 128 + stop_signal : 0;
}

static int drop(const char *path)
{
    rb_error err;
    rb_residency_info ri;
    int rc = path ? rb_evict(path, &err) : rb_drop_caches(&err);
    if (rc != RB_OK) {
        fprintf(stderr, "readbench: %s\n", err.msg);
        return path ? file_exit(rc) : 1;
    }
    if (!path) printf("dropped the page cache\n");
    else if (rb_residency(path, &ri, &err) == RB_OK) rb_report_residency(stdout, path, &ri, 1);
    return 0;
}

typedef struct outopts {
    const char *output, *svg, *title;
    int format, log_scale;
} outopts;

typedef struct opts {
    rb_config c;
    unsigned threads[MAXL], nthreads, cpus[MAXL];
    uint64_t sizes[MAXL];
    unsigned nsizes;
    const rb_strategy *strategies[RB_MAX_AXIS];
    unsigned nstrategies, rounds;
    double pct[RB_MAX_PERCENTILES + 1];
    unsigned npct;
    outopts out;
    const char *hog, *scenario, *scenario_name, *baseline;
    int quiet;
} opts;

/* The library's diagnostics that are not part of a result (it never prints itself). */
static void log_line(void *user, const char *line)
{
    (void)user;
    fprintf(stderr, "readbench: %s\n", line);
}

/* The hog's size by the header's rule: never more than this process may take (cgroup limit
   included) less a safety margin and the run's own buffers (reserve). */
static int plan_hog(const char *spec, uint64_t file_size, uint64_t reserve, uint64_t *size)
{
    char why[256];
    int rc = rb_hog_plan(spec, file_size, reserve, size, why, sizeof why);
    if (rc == RB_EINVAL || rc == RB_ENOMEM) return bad("--hog: %s", why);
    if (rc != RB_OK) { fprintf(stderr, "readbench: --hog: %s\n", why); return 1; }
    if (why[0]) fprintf(stderr, "readbench: hog: %s\n", why);
    return 0;
}

static void release_hog(rb_hog *h)
{
    rb_error err;
    if (rb_hog_release(h, &err) != RB_OK) fprintf(stderr, "readbench: %s\n", err.msg);
}

static int take_hog(uint64_t size, rb_hog *h)
{
    rb_error err;
    if (!size) return 0;
    fprintf(stderr, "readbench: pinning %.2f GiB of memory (mlock)...\n", (double)size / 1073741824.0);
    if (rb_hog_take(h, size, &err) != RB_OK) { fprintf(stderr, "readbench: %s\n", err.msg); return 1; }
    if (h->warning[0]) fprintf(stderr, "readbench: %s\n", h->warning);
    if (!h->locked)
        fprintf(stderr, "readbench: hog: mlock refused (RLIMIT_MEMLOCK, see `ulimit -l`); there is no swap, so "
                        "the touched memory stays resident all the same\n");
    fprintf(stderr, "readbench: pinned %.2f GiB; %.2f GiB left available\n", (double)size / 1073741824.0,
            (double)rb_mem_available() / 1073741824.0);
    return 0;
}

/* The Lucene cases as presets: each prints what it sets, and explicit options still win
   when they come after it. */
static int scenario(opts *o, const char *name)
{
    const char *what;
    if (!strcmp(name, "warm")) { o->c.prewarm = 1; what = "--prewarm 1 (every page resident)"; }
    else if (!strcmp(name, "pressure")) {
        o->c.prewarm = 1;
        o->hog = "auto:1.2";
        what = "--hog auto:1.2 --prewarm 1 (the file is 1.2x the memory left; the cache keeps what fits)";
    } else if (!strcmp(name, "half-cold")) { o->c.prewarm = 0.5; what = "--prewarm 0.5 (half the pages resident)"; }
    else if (!strcmp(name, "cold")) { o->c.cache = RB_CACHE_EVICT_EACH; what = "--cache evict-each"; }
    else if (!strcmp(name, "sequential-cold")) {
        o->c.cache = RB_CACHE_EVICT_EACH;
        o->c.pattern = RB_SEQUENTIAL;
        what = "--cache evict-each --pattern sequential";
    } else return bad("scenario must be warm, pressure, half-cold, cold or sequential-cold, not '%s'", name);
    /* a warmup would change the state the preset prepared before measuring starts */
    o->c.warmup_ns = RB_NONE;
    o->scenario = what;
    o->scenario_name = name;
    return 0;
}

/* The chart's title names the case being measured: the scenario, or what the options set. */
static const char *chart_title(const opts *o, char *buf, size_t len)
{
    const rb_config *c = &o->c;
    const char *pat = c->pattern == RB_SEQUENTIAL ? "sequential" : "random";
    char hog[80] = "";
    if (o->out.title) return o->out.title;   /* whole: a copy cut to fit could split a character */
    if (o->hog) snprintf(hog, sizeof hog, ", under memory pressure (--hog %s)", o->hog);
    if (o->scenario_name)
        snprintf(buf, len, "readbench, scenario %s: %s reads%s", o->scenario_name, pat, hog);
    else if (c->cache == RB_CACHE_EVICT_EACH)
        snprintf(buf, len, "readbench: %s reads, cold (evicted before every iteration)%s", pat, hog);
    else if (c->prewarm >= 1)
        snprintf(buf, len, "readbench: %s reads, warm (every page resident)%s", pat, hog);
    else if (c->prewarm > 0)
        snprintf(buf, len, "readbench: %s reads, %.0f%% of the pages resident%s", pat, 100 * c->prewarm, hog);
    else if (c->cache == RB_CACHE_EVICT)
        snprintf(buf, len, "readbench: %s reads, evicted before each cell%s", pat, hog);
    else
        snprintf(buf, len, "readbench: %s reads, page cache as found%s", pat, hog);
    return buf;
}

/* A duration option: malformed and too large are different mistakes, said as such. */
static int duration_opt(const char *name, const char *v, int64_t *ns)
{
    int rc = rb_parse_duration(v, ns);
    if (rc == RB_ERANGE) {
        fprintf(stderr, "readbench: %s is too large: '%s' (see readbench --help)\n", name, v);
        return 2;
    }
    if (rc) return bad("malformed duration '%s': a number and ns, us, ms, s, m or h, e.g. 500ms", v);
    return 0;
}

/* --name value and --name=value; returns the value or NULL (and says why). */
static const char *optval(int argc, char **argv, int *i, const char *name)
{
    size_t l = strlen(name);
    if (strncmp(argv[*i], name, l) != 0) return NULL;
    if (argv[*i][l] == '=') return argv[*i] + l + 1;
    if (argv[*i][l] == 0) {
        if (*i + 1 >= argc) return "";
        return argv[++*i];
    }
    return NULL;
}

/* The output options commands share. 1: taken; 0: not one of them; 2: bad (said).
   formats: ",table,json," and so on, what this command writes; svg: it draws charts. */
static int out_opt(int argc, char **argv, int *i, outopts *oo, const char *formats, int svg)
{
    const char *v;
    char want[48];
    if (svg && !strcmp(argv[*i], "--log")) oo->log_scale = 1;
    else if ((v = optval(argc, argv, i, "--format"))) {
        snprintf(want, sizeof want, ",%.40s,", v);
        if ((oo->format = rb_format_find(v)) < 0 || !strstr(formats, want)) {
            fprintf(stderr, "readbench: --format must be one of %s not '%s' (see readbench --help)\n", formats + 1, v);
            return 2;
        }
    } else if ((v = optval(argc, argv, i, "--output"))) {
        if (!*v) return bad("--output needs a file name%s", "");
        oo->output = v;
    } else if (svg && (v = optval(argc, argv, i, "--svg"))) {
        if (!*v) return bad("--svg needs a file name%s", "");
        oo->svg = v;
    } else if (svg && (v = optval(argc, argv, i, "--title"))) {
        oo->title = v;
    } else {
        return 0;
    }
    return 1;
}

/* A count option in [lo, hi]. */
static int uint_opt(const char *name, const char *v, unsigned lo, unsigned hi, unsigned *out)
{
    unsigned n;
    char what[64];
    if (!rb_parse_uint_list(v, out, 1, &n) && *out >= lo && *out <= hi) return 0;
    snprintf(what, sizeof what, "%s must be %u..%u: '%%s'", name, lo, hi);
    return bad(what, v);
}

static int parse_run(int argc, char **argv, int i, opts *o)
{
    for (; i < argc; i++) {
        const char *a = argv[i], *v;
        uint64_t u;
        int r;
        if ((r = out_opt(argc, argv, &i, &o->out, ",table,markdown,csv,json,", 1)) == 2) return 2;
        else if (r) continue;
        else if (strcmp(a, "--verify") == 0) o->c.verify = 1;
        else if (strcmp(a, "--quiet") == 0) o->quiet = 1;
        else if ((v = optval(argc, argv, &i, "--strategies"))) {
            char *copy = strdup(v), *tok, *save = NULL;
            o->nstrategies = 0;
            if (strcmp(v, "all") == 0) { free(copy); continue; }
            for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                const rb_strategy *s = rb_strategy_find(tok);
                if (!s) { int r = bad("unknown strategy '%s'", tok); free(copy); return r; }
                if (o->nstrategies == RB_MAX_AXIS) { free(copy); return bad("too many strategies: '%s'", v); }
                o->strategies[o->nstrategies++] = s;
            }
            free(copy);
            if (!o->nstrategies || v[strlen(v) - 1] == ',' || strstr(v, ",,") || v[0] == ',')
                return bad("malformed strategy list '%s'", v);
        } else if ((v = optval(argc, argv, &i, "--rounds"))) {
            if (uint_opt("--rounds", v, 1, RB_MAX_ROUNDS, &o->rounds)) return 2;
        } else if ((v = optval(argc, argv, &i, "--baseline"))) {
            if (!*v) return bad("--baseline needs a file name%s", "");
            o->baseline = v;
        } else if ((v = optval(argc, argv, &i, "--threads"))) {
            unsigned k;
            if (rb_parse_uint_list(v, o->threads, MAXL, &o->nthreads)) return bad("malformed thread list '%s'", v);
            for (k = 0; k < o->nthreads; k++) {
                if (o->threads[k] == 0) return bad("thread count must be at least 1: '%s'", v);
                if (o->threads[k] > RB_MAX_THREADS) {   /* absurd, not wrong: cap it and say so */
                    fprintf(stderr, "readbench: %u threads is more than this tool runs; capped at %u\n", o->threads[k],
                            RB_MAX_THREADS);
                    o->threads[k] = RB_MAX_THREADS;
                }
            }
        } else if ((v = optval(argc, argv, &i, "--cpus"))) {
            unsigned k;
            if (rb_parse_uint_list(v, o->cpus, MAXL, &o->c.ncpus)) return bad("malformed CPU list '%s'", v);
            for (k = 0; k < o->c.ncpus; k++) {
                char n[16];
                int ok = rb_cpu_allowed(o->cpus[k]);
                snprintf(n, sizeof n, "%u", o->cpus[k]);
                if (ok < 0) return bad("--cpus: pinning threads to CPUs is not supported here (CPU %s)", n);
                if (!ok) return bad("--cpus: CPU %s is not one this process may run on (see taskset -p)", n);
            }
            o->c.cpus = o->cpus;
        } else if ((v = optval(argc, argv, &i, "--read-size"))) {
            unsigned k;
            if (rb_parse_size_list(v, o->sizes, MAXL, &o->nsizes)) return bad("malformed size list '%s'", v);
            for (k = 0; k < o->nsizes; k++)
                if (o->sizes[k] == 0 || o->sizes[k] > ((uint64_t)1 << 30))
                    return bad("read size must be between 1 byte and 1 GiB: '%s'", v);
        } else if ((v = optval(argc, argv, &i, "--reads-per-op"))) {
            if (uint_opt("--reads-per-op", v, 1, 65536, &o->c.reads_per_op)) return 2;
        } else if ((v = optval(argc, argv, &i, "--iterations"))) {
            if (uint_opt("--iterations", v, 1, RB_MAX_ITERATIONS, &o->c.iterations)) return 2;
        } else if ((v = optval(argc, argv, &i, "--pattern"))) {
            if (strcmp(v, "random") == 0) o->c.pattern = RB_RANDOM;
            else if (strcmp(v, "sequential") == 0) o->c.pattern = RB_SEQUENTIAL;
            else return bad("pattern must be random or sequential, not '%s'", v);
        } else if ((v = optval(argc, argv, &i, "--size"))) {
            if (rb_parse_size(v, &u) || u == 0) return bad("malformed size '%s'", v);
            o->c.size = u;
        } else if ((v = optval(argc, argv, &i, "--cache"))) {
            if (!strcmp(v, "keep")) o->c.cache = RB_CACHE_KEEP;
            else if (!strcmp(v, "evict")) o->c.cache = RB_CACHE_EVICT;
            else if (!strcmp(v, "evict-each")) o->c.cache = RB_CACHE_EVICT_EACH;
            else return bad("--cache must be keep, evict or evict-each, not '%s'", v);
        } else if ((v = optval(argc, argv, &i, "--prewarm"))) {
            double d[1];
            unsigned n;
            if (rb_parse_double_list(v, d, 1, &n) || d[0] > 1) return bad("--prewarm needs a fraction in [0, 1], not '%s'", v);
            o->c.prewarm = d[0];
            if (d[0] == 0) o->c.cache = RB_CACHE_EVICT;   /* nothing resident is an eviction */
        } else if ((v = optval(argc, argv, &i, "--hog"))) {
            if (!*v) return bad("--hog needs a size%s", "");
            o->hog = v;
        } else if ((v = optval(argc, argv, &i, "--scenario"))) {
            if (scenario(o, v)) return 2;
        } else if ((v = optval(argc, argv, &i, "--align"))) {
            if (rb_parse_size(v, &u) || u == 0 || (u & (u - 1))) return bad("--align must be a power of two: '%s'", v);
            o->c.align = u;
        } else if ((v = optval(argc, argv, &i, "--seed"))) {
            if (rb_parse_u64(v, &o->c.seed)) return bad("malformed seed '%s' (decimal digits only)", v);
        } else if ((v = optval(argc, argv, &i, "--warmup"))) {
            int64_t ns;
            if (duration_opt("--warmup", v, &ns)) return 2;
            o->c.warmup_ns = ns ? ns : RB_NONE;
        } else if ((v = optval(argc, argv, &i, "--duration"))) {
            int64_t ns;
            if (duration_opt("--duration", v, &ns)) return 2;
            if (ns < 1000000) return bad("--duration must be at least 1ms: '%s'", v);
            o->c.duration_ns = ns;
        } else if ((v = optval(argc, argv, &i, "--percentiles"))) {
            char why[200];
            if (rb_parse_double_list(v, o->pct, RB_MAX_PERCENTILES + 1, &o->npct)) return bad("malformed percentile list '%s'", v);
            if (rb_percentiles_check(o->pct, o->npct, why, sizeof why)) return bad("%s", why);
        } else if (a[0] == '-') {
            return bad("unknown option '%s'", a);
        } else if (!o->c.path) {
            o->c.path = a;
        } else {
            return bad("unexpected argument '%s'", a);
        }
    }
    return 0;
}

/* The progress lines on stderr: a round's start, then one line per cell as it runs. */
static void on_progress(const rb_matrix_event *ev, void *user)
{
    if (!((const opts *)user)->quiet) rb_report_progress(stderr, ev);
}

/* The file must exist and be large enough: say the exact command that fixes it. */
static int check_file(const opts *o, rb_file_info *info)
{
    rb_error err;
    int rc = rb_check_file(o->c.path, o->c.size, info, &err);
    if (rc == RB_ENOFILE || rc == RB_ETOOSMALL) {
        uint64_t need = o->c.size ? o->c.size : (uint64_t)1 << 30;
        const char *unit = need % (1u << 30) == 0 ? "g" : need % (1u << 20) == 0 ? "m" : need % 1024 == 0 ? "k" : "";
        uint64_t div = *unit == 'g' ? 1u << 30 : *unit == 'm' ? 1u << 20 : *unit == 'k' ? 1024 : 1;
        if (rc == RB_ETOOSMALL && !info->setup_made)   /* never suggest --force over the user's own file */
            fprintf(stderr, "readbench: %s, and readbench setup did not make it; make a new file with: "
                    "readbench setup NEW_FILE %llu%s\n", err.msg, (unsigned long long)(need / div), unit);
        else
            fprintf(stderr, "readbench: %s; create it with: readbench setup %s %llu%s%s\n", err.msg, o->c.path,
                    (unsigned long long)(need / div), unit, rc == RB_ETOOSMALL ? " --force" : "");
        return 2;
    }
    if (rc != RB_OK) { fprintf(stderr, "readbench: %s\n", err.msg); return rc == RB_ESYS ? 1 : 2; }
    if (info->sparse)
        fprintf(stderr, "readbench: warning: %s is sparse (%llu of %llu bytes allocated): holes are never read "
                "from the device, so its numbers will be wrong\n", o->c.path,
                (unsigned long long)info->allocated, (unsigned long long)info->size);
    if (info->zero_head)
        fprintf(stderr, "readbench: warning: the first MiB of %s is all zeros: a file of zeros (or holes) is "
                "not a benchmark file; make one with readbench setup\n", o->c.path);
    return 0;
}

/* The report on stdout (or --output), the chart, and how the run ended. */
static int write_outputs(opts *o, rb_report *rep, rb_outfile *files, const rb_json *base)
{
    unsigned i, done = 0, failed = 0;
    FILE *out = files[0].f ? files[0].f : stdout;
    rb_report_write(out, rep, o->out.format);
    if (base) {   /* after the results; with json or csv on stderr, so stdout stays one document */
        rb_diff d;
        char why[RB_REASON_LEN];
        int tab = o->out.format == RB_FORMAT_TABLE || o->out.format == RB_FORMAT_MARKDOWN;
        if (rb_diff_make(base, NULL, rep, 0, &d, why, sizeof why) != RB_OK) fprintf(stderr, "readbench: %s\n", why);
        else rb_report_diff(tab ? out : stderr, &d, tab ? o->out.format : RB_FORMAT_TABLE, o->baseline, "this run");
        rb_diff_free(&d);
    }
    if (files[1].f) {
        char title[256];
        rb_report_svg(files[1].f, rep, chart_title(o, title, sizeof title), o->out.log_scale);
    }
    if (close_outputs(files, 1)) return 1;   /* complete documents, an interrupted one included */
    for (i = 0; i < rep->count; i++) {
        int st = rep->results[i].status;
        done += st != RB_ENOTRUN && st != RB_EINTR;
        failed += st != RB_OK && st != RB_UNSUPPORTED && st != RB_EINTR && st != RB_ENOTRUN;
    }
    if (stop_signal) {
        fprintf(stderr, "readbench: interrupted: %u of %u cells finished; the others are marked "
                "\"interrupted\" or \"not run\" in the report\n", done, rep->count);
        return 128 + stop_signal;
    }
    if (failed) fprintf(stderr, "readbench: %u cell%s failed (see above)\n", failed, failed == 1 ? "" : "s");
    return failed ? 1 : 0;
}

static int run(opts *o, int main_job)
{
    rb_file_info info;
    rb_env env;
    rb_report rep;
    rb_matrix m;
    rb_hog hog;
    rb_outfile files[2];
    rb_json *base = NULL;
    char why[RB_REASON_LEN + 64];
    uint64_t hog_size = 0;
    int rc;

    memset(&hog, 0, sizeof hog);
    if (!o->c.path) return bad("no FILE to read%s", "");
    if (!o->nthreads) { o->threads[0] = 1; o->threads[1] = 4; o->threads[2] = 8; o->threads[3] = 16; o->nthreads = 4; }
    if (!o->nsizes) { o->sizes[0] = 16384; o->nsizes = 1; }
    memset(&m, 0, sizeof m);
    m.cfg = o->c;
    m.strategies = o->nstrategies ? o->strategies : NULL;
    m.nstrategies = o->nstrategies;
    m.threads = o->threads;
    m.nthreads = o->nthreads;
    m.read_sizes = o->sizes;
    m.nread_sizes = o->nsizes;
    m.rounds = o->rounds;
    m.progress = on_progress;
    m.user = o;
    if ((rc = check_file(o, &info)) != 0) return rc;
    if (rb_matrix_check(&m, why, sizeof why) != RB_OK) return bad("%s", why);
    if (o->hog && (rc = plan_hog(o->hog, info.size, rb_matrix_memory(&m), &hog_size)) != 0) return rc;   /* before any output */
    if (o->baseline && (!(base = rb_json_load(o->baseline, why, sizeof why)) ||
                        rb_diff_make(base, NULL, NULL, 0, NULL, why, sizeof why) != RB_OK)) {
        char msg[sizeof why + 300];   /* a load error names the file already; a missing key does not */
        snprintf(msg, sizeof msg, "%.280s%s%s", base ? o->baseline : "", base ? ": " : "", why);
        rb_json_free(base);
        return bad("--baseline: %s", msg);
    }
    if ((rc = open_outputs(files, o->out.output, o->out.svg, o->c.path, o->baseline)) != 0) { rb_json_free(base); return rc; }
    catch_signals();
    m.cfg.stop = &stop_signal;
    m.cfg.log = log_line;
    if (o->scenario) fprintf(stderr, "readbench: scenario sets %s --warmup 0\n", o->scenario);
    if ((rc = take_hog(hog_size, &hog)) != 0) { close_outputs(files, 0); rb_json_free(base); return rc; }

    rb_env_collect(&env, o->c.path);
    if (!o->quiet) rb_env_print(stderr, &env);
    if (rb_run_matrix(&m, &rep) == RB_ENOMEM) {
        fprintf(stderr, "readbench: out of memory\n");
        close_outputs(files, 0);
        release_hog(&hog);
        rb_json_free(base);
        return 1;
    }
    rep.percentiles = o->npct ? o->pct : NULL;
    rep.npercentiles = o->npct;
    rep.env = &env;
    rep.scenario = o->scenario_name;
    rc = write_outputs(o, &rep, files, base);
    rb_json_free(base);
    {   /* the results carry the warnings; the flag that helps is the CLI's to name */
        unsigned i, few = 0;
        for (i = 0; i < rep.count; i++)
            few += rep.results[i].status == RB_OK && rep.results[i].min_thread_ops < RB_FEW_OPS;
        if (few)
            fprintf(stderr, "readbench: %u cell%s had a thread with fewer than %u ops in an iteration (see the "
                    "warnings): a longer --duration makes the rate finer\n", few, few == 1 ? "" : "s", RB_FEW_OPS);
    }
    if (main_job)
        fprintf(stderr, "\nThat was a quick matrix (threads 1,4; 3 x 0.5 s per cell, warm file). The full one:\n"
                        "  readbench run %s --threads 1,4,8,16 --duration 1s --iterations 5\n"
                        "Cold reads (evicted before every iteration): readbench run %s --scenario cold\n",
                o->c.path, o->c.path);
    rb_report_free(&rep);
    release_hog(&hog);
    return rc;
}

/* readbench prefetch FILE: each policy, data not cached then fitting in the cache. */
static int prefetch_cmd(int argc, char **argv)
{
    rb_pfx_config c;
    rb_pfx_result r[2 * RB_PF_COUNT];
    int pol[RB_PF_COUNT], npol = 0, i, failed = 0, rc;
    unsigned n = 0, k;
    outopts oo;
    rb_outfile files[2];
    rb_file_info info;
    rb_error err;
    rb_env env;
    memset(&c, 0, sizeof c);
    memset(&oo, 0, sizeof oo);
    for (i = 2; i < argc; i++) {
        const char *v;
        int took = out_opt(argc, argv, &i, &oo, ",table,json,", 1);
        if (took == 2) return 2;
        else if (took) continue;
        else if ((v = optval(argc, argv, &i, "--threads"))) {
            if (uint_opt("--threads", v, 1, RB_MAX_THREADS, &c.threads)) return 2;
        } else if ((v = optval(argc, argv, &i, "--ops"))) {
            if (uint_opt("--ops", v, 1, ~0u, &c.ops)) return 2;
        } else if ((v = optval(argc, argv, &i, "--policies"))) {
            unsigned np;
            if (rb_parse_policy_list(v, pol, RB_PF_COUNT, &np))
                return bad("--policies: each of always, backoff, backoff-nomincore, adaptive, backoff-shared at most once, "
                           "no empty item: not '%s'", v);
            npol = (int)np;
        } else if ((v = optval(argc, argv, &i, "--advice"))) {
            if (!strcmp(v, "normal")) c.normal_mapping = 1;
            else if (strcmp(v, "random")) return bad("--advice must be random or normal, not '%s'", v);
        } else if (argv[i][0] == '-') {
            return bad("unknown option '%s'", argv[i]);
        } else if (!c.path) {
            c.path = argv[i];
        } else {
            return bad("unexpected argument '%s'", argv[i]);
        }
    }
    if (!c.path) return bad("prefetch needs FILE%s", "");
    if ((rc = rb_check_file(c.path, 1 << 20, &info, &err)) != RB_OK) return file_refused(rc, &err, c.path);
    if (!npol) for (npol = 0; npol < RB_PF_COUNT; npol++) pol[npol] = npol;
    if ((i = open_outputs(files, oo.output, oo.svg, c.path, NULL)) != 0) return i;
    rb_env_collect(&env, c.path);
    rb_env_print(stderr, &env);
    for (i = 0; i < npol; i++)
        for (k = 0; k < 2; k++) {
            rb_pfx_result *x = &r[n++];
            rb_report_prefetch_progress(stderr, pol[i], (int)k, NULL);
            rb_prefetch_experiment(&c, pol[i], (int)k, x);
            rb_report_prefetch_progress(stderr, pol[i], (int)k, x);
            failed += x->status != RB_OK;
        }
    rb_report_prefetch(files[0].f ? files[0].f : stdout, r, n, oo.format, &env);
    if (files[1].f) rb_report_prefetch_svg(files[1].f, r, n, oo.title, oo.log_scale, &env);
    if (close_outputs(files, 1)) return 1;
    return failed ? 1 : 0;
}

/* readbench probe FILE: the readahead cases, expected against observed. */
static int probe_cmd(int argc, char **argv)
{
    rb_probe_result r[RB_PROBE_CASES];
    const char *path = NULL, *only = NULL;
    int i, n = 0, failed = 0, disagree = 0, rc, id = 0;
    outopts oo;
    rb_outfile files[2];
    FILE *out;
    rb_env env;
    rb_error err;
    memset(&oo, 0, sizeof oo);
    for (i = 2; i < argc; i++) {
        const char *v;
        int took = out_opt(argc, argv, &i, &oo, ",table,json,", 0);
        if (took == 2) return 2;
        else if (took) continue;
        else if ((v = optval(argc, argv, &i, "--case"))) only = v;
        else if (argv[i][0] == '-') return bad("unknown option '%s'", argv[i]);
        else if (!path) path = argv[i];
        else return bad("unexpected argument '%s'", argv[i]);
    }
    if (!path) return bad("probe needs FILE%s", "");
    if (only) {   /* validate before doing anything */
        for (id = 1; id <= RB_PROBE_CASES && strcmp(rb_probe_case_name(id), only); id++) {}
        if (id > RB_PROBE_CASES) return bad("no probe case '%s' (1..11, pread, pread-fadv-random, pread-fadv-sequential, direct)", only);
    }
    /* never reads it: the probe counts page cache adds */
    if ((rc = rb_probe_check(path, id, &err)) != RB_OK) return file_refused(rc, &err, path);
    if ((i = open_outputs(files, oo.output, NULL, path, NULL)) != 0) return i;
    out = files[0].f ? files[0].f : stdout;
    rb_env_collect(&env, path);
    rb_env_print(stderr, &env);
    for (i = 1; i <= RB_PROBE_CASES; i++) {
        if (only && strcmp(rb_probe_case_name(i), only)) continue;
        rb_probe(path, i, &r[n]);
        if (r[n].status != RB_OK && r[n].status != RB_UNSUPPORTED) failed++;
        else if (r[n].status == RB_OK && !r[n].agrees) disagree++;
        n++;
    }
    rb_report_probe(out, r, (unsigned)n, oo.format, &env);
    if (close_outputs(files, 1)) return 1;
    if (disagree) fprintf(stderr, "readbench: %d case%s did not match the expectation (see above)\n", disagree, disagree == 1 ? "" : "s");
    return failed ? 1 : 0;
}

/* readbench diff BASE.json NEW.json: each cell's NEW/BASE with its interval and a verdict. */
static int diff_cmd(int argc, char **argv)
{
    const char *path[2] = {NULL, NULL}, *v;
    rb_json *doc[2] = {NULL, NULL};
    int i, n = 0, format = RB_FORMAT_TABLE, rc = RB_EINVAL;
    char why[RB_REASON_LEN + 64];
    rb_diff d;
    for (i = 2; i < argc; i++) {
        if ((v = optval(argc, argv, &i, "--format"))) {
            if ((format = rb_format_find(v)) < 0 || format == RB_FORMAT_CSV)
                return bad("diff --format must be table, markdown or json, not '%s'", v);
        } else if (argv[i][0] == '-' && argv[i][1]) return bad("unknown option '%s'", argv[i]);
        else if (n < 2) path[n++] = argv[i];
        else return bad("unexpected argument '%s'", argv[i]);
    }
    if (n < 2) return bad("diff needs BASE.json and NEW.json%s", "");
    for (i = 0, rc = RB_OK; i < 2 && rc == RB_OK; i++)   /* a report without its keys is named */
        if ((doc[i] = rb_json_load(path[i], why, sizeof why)) &&
            (rc = rb_diff_make(doc[i], NULL, NULL, 0, NULL, why, sizeof why)) != RB_OK)
            fprintf(stderr, "readbench: %s: %s\n", path[i], why);
        else if (!doc[i]) { rc = RB_EINVAL; fprintf(stderr, "readbench: %s\n", why); }
    if (rc == RB_OK) rc = rb_diff_make(doc[0], doc[1], NULL, 0, &d, why, sizeof why);
    if (rc == RB_OK) rb_report_diff(stdout, &d, format, path[0], path[1]);
    else if (doc[0] && doc[1]) fprintf(stderr, "readbench: %s\n", why);
    if (rc == RB_OK) rb_diff_free(&d);
    rb_json_free(doc[0]);
    rb_json_free(doc[1]);
    return rc == RB_OK ? 0 : rc == RB_ENOMEM ? 1 : 2;
}

static int command(int argc, char **argv)
{
    opts o;
    const char *cmd = argc > 1 ? argv[1] : NULL;
    memset(&o, 0, sizeof o);
    if (cmd && (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help"))) {
        fputs(usage, stdout);
        return 0;
    }
    if (cmd && (!strcmp(cmd, "--version") || !strcmp(cmd, "version"))) {
        printf("readbench %s\n", RB_VERSION);
        return 0;
    }
    if (cmd && !strcmp(cmd, "setup")) {
        uint64_t size;
        int flags = 0, i, npos = 0;
        const char *pos[2] = {NULL, NULL};
        for (i = 2; i < argc; i++) {
            if (!strcmp(argv[i], "--force")) flags |= RB_OUT_REPLACE;
            else if (!strcmp(argv[i], "--follow-symlinks")) flags |= RB_OUT_FOLLOW;
            else if (argv[i][0] == '-' && argv[i][1]) return bad("unknown option '%s'", argv[i]);
            else if (npos < 2) pos[npos++] = argv[i];
            else return bad("unexpected argument '%s'", argv[i]);
        }
        if (npos < 2) return bad("setup needs FILE and SIZE%s", "");
        if (rb_parse_size(pos[1], &size) || size == 0) return bad("malformed size '%s'", pos[1]);
        return setup(pos[0], size, flags);
    }
    if (cmd && !strcmp(cmd, "list")) {
        if (argc > 3) return bad("unexpected argument '%s'", argv[3]);
        return list(argc > 2 ? argv[2] : NULL);
    }
    if (cmd && !strcmp(cmd, "prefetch")) return prefetch_cmd(argc, argv);
    if (cmd && !strcmp(cmd, "probe")) return probe_cmd(argc, argv);
    if (cmd && !strcmp(cmd, "diff")) return diff_cmd(argc, argv);
    if (cmd && !strcmp(cmd, "residency")) {
        rb_residency_info ri;
        rb_error err;
        int rc;
        if (argc != 3) return bad("residency needs FILE%s", "");
        rc = rb_residency(argv[2], &ri, &err);
        if (rc != RB_OK) { fprintf(stderr, "readbench: %s\n", err.msg); return file_exit(rc); }
        rb_report_residency(stdout, argv[2], &ri, 0);
        return ri.trusted ? 0 : 1;
    }
    if (cmd && !strcmp(cmd, "hog")) {
        rb_hog h;
        uint64_t size;
        int rc;
        if (argc != 3) return bad("hog needs SIZE%s", "");
        if (strncmp(argv[2], "auto:", 5) == 0) return bad("readbench hog needs a size; auto: works with run%s", "");
        catch_signals();
        memset(&h, 0, sizeof h);
        if ((rc = plan_hog(argv[2], 0, 0, &size)) != 0 || (rc = take_hog(size, &h)) != 0) return rc;
        fprintf(stderr, "readbench: holding it until Ctrl-C\n");
        while (!stop_signal) pause();
        release_hog(&h);
        fprintf(stderr, "readbench: released\n");
        return 128 + stop_signal;
    }
    if (cmd && !strcmp(cmd, "drop")) {
        if (argc > 3) return bad("unexpected argument '%s'", argv[3]);
        return drop(argc > 2 ? argv[2] : NULL);
    }
    if (!cmd) {   /* the main job */
        struct stat st;
        rb_error err;
        int rc;
        o.c.path = "readbench.dat";
        if (stat(o.c.path, &st) != 0) {
            fprintf(stderr, "readbench: creating ./readbench.dat (1 GiB) for the default run; delete it when done\n");
            if (setup(o.c.path, (uint64_t)1 << 30, 0) != 0) return 1;
        }
        if ((rc = rb_check_file(o.c.path, 0, NULL, &err)) == RB_OK)   /* a FIFO or /dev/zero: one line */
            fprintf(stderr, "readbench: reading readbench.dat once so the run starts warm\n");
        if (rc != RB_OK || (rc = rb_load(o.c.path, &err)) != RB_OK) { fprintf(stderr, "readbench: %s\n", err.msg); return file_exit(rc); }
        o.threads[0] = 1; o.threads[1] = 4; o.nthreads = 2;
        o.c.warmup_ns = 200000000;
        o.c.duration_ns = 500000000;
        o.c.iterations = 3;
        return run(&o, 1);
    }
    if (parse_run(argc, argv, !strcmp(cmd, "run") ? 2 : 1, &o) != 0) return 2;
    return run(&o, 0);
}

/* A report that never reached stdout (a full disk, /dev/full, a closed pipe) is a failure. */
int main(int argc, char **argv)
{
    int rc = command(argc, argv), bad_out;
    errno = 0;
    bad_out = fflush(stdout) != 0 || ferror(stdout);
    if (fclose(stdout) != 0) bad_out = 1;
    if (!bad_out) return rc;
    fprintf(stderr, "readbench: cannot write the standard output: %s\n", strerror(errno ? errno : EIO));
    return rc ? rc : 1;
}
