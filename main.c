/* main.c - the readbench command: parse argv, call readbench.h, print. The rules of every setting and
   the presets are the header's (rb_settings_set, rb_scenarios), and so are the commands, the options
   each takes and the help (rb_command_docs, rb_option_docs); this file knows where its own options go.
   Exit status: 0 success, 1 a run-time failure, 2 bad input (with a one-line reason). */
#define READBENCH_IMPLEMENTATION
#include "readbench.h"

/* Every message here names what the user typed: its control characters are shown escaped
   (rb_escape_controls), never sent to the terminal. */
static int fail(int status, const char *msg)
{
    char shown[4 * RB_REASON_LEN + 1300];
    fprintf(stderr, "readbench: %s\n", rb_escape_controls(msg, shown, sizeof shown));
    return status;
}
static int bad(const char *fmt, const char *arg)   /* bad input: one line, exit 2 */
{
    char msg[RB_REASON_LEN + 1300]; size_t n;
    snprintf(msg, sizeof msg, fmt, arg);
    n = strlen(msg);
    snprintf(msg + n, sizeof msg - n, " (see readbench --help)");
    return fail(2, msg);
}

/* A library status about the user's file: bad input (exit 2), or a run-time failure (1). */
static int file_exit(int rc)
{
    return rc == RB_ENOFILE || rc == RB_ENOTREG || rc == RB_ETOOSMALL || rc == RB_EPERM || rc == RB_EINVAL ? 2 : 1;
}

/* A FILE refused, with the command that makes one (rb_report_refused); small_hint as there. */
static int refused(int rc, const rb_error *err, const char *path, const char *size, int small_hint)
{
    rb_report_refused(stderr, rc, err, path, size, small_hint);
    return file_exit(rc);
}

/* SIGINT/TERM/HUP/QUIT: the running cell stops at its next 20 ms check (rb_config.stop), setup at
   its next 8 MiB chunk; the cells finished so far are printed, the hog is released, no temporary
   file is left and the exit status is 128 + the first signal. Later signals are not acted on: dying
   at once would leave a temporary file behind. SA_RESTART: a write of the report is not EINTR. */
static volatile int stop_signal;

static void on_signal(int sig) { if (!stop_signal) stop_signal = sig; }

static void catch_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    struct sigaction sa; unsigned i;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        if (sigaction(sigs[i], &sa, NULL) != 0) perror("readbench: sigaction");
}

/* ---- the command line: the header's tables say which options a command takes ----
   An option (rb_option_doc_find, or a setting of rb_settings_docs for run, replay and advise) goes
   to a field of the cli (the driver's own, options[] below), or to the command's setter in the
   header (rb_settings_set, rb_pfx_settings_set, rb_warmup_set), which checks it and says why not
   in words that use the option's name ("--iterations must be 1..100: '101'"). --help or -h: the
   command's help. */
enum { ALL = RB_CMD_RUN | RB_CMD_REPLAY | RB_CMD_PREFETCH | RB_CMD_PROBE | RB_CMD_WARMUP };
enum { K_FLAG, K_PATH, K_TEXT, K_FORMAT, K_SET };   /* K_SET: the header's setter of the command */

typedef struct cli {
    int cmd;                                   /* RB_CMD_* */
    const rb_command_doc *doc;                 /* its help, and the settings it takes */
    const char *pos[2], *path;                 /* the arguments that are no option; path: pos[0] */
    const char *output, *svg, *title, *baseline, *probe_case, *files, *tl_csv, *tl_svg;
    int format, log_scale, quiet, force, follow, quick, help;   /* quick: the main job */
    rb_settings s;                             /* run */
    rb_pfx_settings p;                         /* prefetch */
    rb_warmup_config w;                        /* warmup */
} cli;

#define FIELD(f) offsetof(cli, f)
/* where each of the CLI's own options goes (the commands that take it: rb_option_docs); an option
   documented there and not here is the header's, for the command's setter (prefetch, warmup) */
typedef struct option { const char *name; int kind; size_t field; int arg, repeats; const rb_option_doc *doc; } option;
static const option options[] = {
    {"format", K_FORMAT, 0, 0, 0, 0}, {"output", K_PATH, FIELD(output), 0, 0, 0}, {"svg", K_PATH, FIELD(svg), 0, 0, 0},
    {"title", K_TEXT, FIELD(title), 0, 0, 0}, {"log", K_FLAG, FIELD(log_scale), 0, 0, 0}, {"quiet", K_FLAG, FIELD(quiet), 0, 0, 0},
    {"baseline", K_PATH, FIELD(baseline), 0, 0, 0}, {"case", K_TEXT, FIELD(probe_case), 0, 0, 0},
    {"force", K_FLAG, FIELD(force), 0, 0, 0}, {"follow-symlinks", K_FLAG, FIELD(follow), 0, 0, 0},
    {"files", K_TEXT, FIELD(files), 0, 0, 0}, {"timeline-csv", K_PATH, FIELD(tl_csv), 0, 0, 0},
    {"timeline-svg", K_PATH, FIELD(tl_svg), 0, 0, 0},
};

static int take(cli *c, const option *o, const char *v)
{
    char why[RB_REASON_LEN], one[48]; int rc;
    if (o->kind == K_FLAG) *(int *)((char *)c + o->field) = 1;
    else if (o->kind == K_PATH && !*v) return bad("%s needs a file name", o->name);
    else if (o->kind == K_PATH || o->kind == K_TEXT) *(const char **)((char *)c + o->field) = v;
    else if (o->kind == K_FORMAT) {   /* the formats this command writes: the doc's choices */
        snprintf(why, sizeof why, "|%.100s|", o->doc->value); snprintf(one, sizeof one, "|%.40s|", v);
        if (strstr(why, one) && (c->format = rb_format_find(v)) >= 0) return 0;
        snprintf(why, sizeof why, "--format must be %s, not '%.100s' (see readbench %s --help)", o->doc->value, v, c->doc->name);
        return fail(2, why);
    }
    if (o->kind != K_SET) return 0;
    rc = c->cmd == RB_CMD_PREFETCH ? rb_pfx_settings_set(&c->p, o->name + 2, v, o->name, why, sizeof why)
       : c->cmd == RB_CMD_WARMUP ? rb_warmup_set(&c->w, o->name + 2, v, o->name, why, sizeof why)
                                 : rb_settings_set(&c->s, o->name + 2, v, o->name, why, sizeof why);
    if (rc != RB_OK) return bad("%s", why);
    if (why[0]) fail(0, why);   /* taken, with a change to know of (a count capped) */
    return 0;
}

/* The option a names for this command (up to a '='), spelled --KEY (name holds that spelling):
   one the header's tables give this command, a setting (run, replay, advise) or an option
   (rb_option_docs), whose value looks as its row says ("" for a switch). */
static int lookup(const cli *c, const char *a, option *o, char *name, size_t len)
{
    size_t l = strcspn(a, "="), k; const rb_setting_doc *d; const rb_option_doc *od;
    if (strncmp(a, "--", 2) || l >= len) return 0;
    snprintf(name, len, "%.*s", (int)l, a);
    memset(o, 0, sizeof *o);
    if ((od = rb_option_doc_find(name + 2, (unsigned)c->cmd)) != NULL) {
        for (k = 0; k < sizeof options / sizeof options[0] && strcmp(options[k].name, name + 2); k++) {}
        if (k < sizeof options / sizeof options[0]) *o = options[k];
        else o->kind = K_SET;
        o->name = name; o->arg = od->value[0] != 0; o->doc = od;
        return 1;
    }
    if (!(d = rb_settings_doc_find(name + 2)) || !(d->uses & c->doc->settings)) return 0;
    o->name = name; o->arg = d->value[0] != 0; o->kind = K_SET; o->repeats = d->repeats;
    return 1;
}

/* The one parser of every command: its arguments (at most npos), and the options of c->cmd as
   --name VALUE or --name=VALUE (a missing value is ""; an option without one is --name alone,
   and --quiet=1 is refused, not read as another option). Each option once, a setting whose row
   repeats (--group) excepted: a second --strategies silently replacing the first hid a mistake
   (the help says so).
   "-" alone is an argument (a file name) where it always was, an unknown option elsewhere. */
static int parse(int argc, char **argv, int i, unsigned npos, const char *needs, cli *c)
{
    char what[64], name[64], seen[2048] = "|", key[160]; unsigned n = 0;
    for (; i < argc; i++) {
        const char *a = argv[i], *v; option o; size_t l = strcspn(a, "=");
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) return c->help = 1, 0;
        if (lookup(c, a, &o, name, sizeof name)) {
            snprintf(key, sizeof key, "%s is a switch and takes no value: '%.60s'", name, a);
            if (a[l] && !o.arg) return bad("%s", key);
            snprintf(key, sizeof key, "|%s|", name);
            if (strstr(seen, key) && !o.repeats)
                return bad("%s is given twice: give each option once (a list takes commas: --threads 1,4)", name);
            if (strlen(seen) + strlen(key) < sizeof seen) strcat(seen, key + 1);
            v = !o.arg ? "" : a[l] ? a + l + 1 : i + 1 < argc ? argv[++i] : "";
            if (take(c, &o, v)) return 2;
            continue;
        }
        if (a[0] == '-' && (a[1] || (c->cmd & ALL))) return bad("unknown option '%s'", a);
        if (n == npos) return bad("unexpected argument '%s'", a);
        c->pos[n++] = argv[i];
    }
    c->path = c->pos[0];
    snprintf(what, sizeof what, "%s needs %s", argv[1], needs ? needs : "");
    return needs && n < npos ? bad("%s", what) : 0;
}

/* ---- outputs: --output and --svg, checked and written the one careful way (readbench.h) ---- */
static int open_outputs(rb_outfile *o, const cli *c, const char *svg)   /* exit 0, 1 or 2 */
{
    const char *paths[4] = {c->output, svg, c->tl_csv, c->tl_svg}, *inputs[4] = {c->path, c->baseline, c->s.cfg.victim, c->s.trace_path};
    rb_error err; int rc = rb_outfiles_open(o, paths, 4, inputs, 4, &err);
    return rc == RB_OK ? 0 : fail(rc == RB_EINVAL || rc == RB_ENOTREG ? 2 : 1, err.msg);
}

/* keep: the reports are complete; exit 0 or 1 */
static int close_outputs(rb_outfile *o, int keep) { rb_error err; return rb_outfiles_close(o, 4, keep, &err) ? fail(1, err.msg) : 0; }

/* ---- setup, list, drop, residency, hog ---- */
static int progress_bar(uint64_t done, uint64_t total, void *user)
{
    if (user) rb_report_setup_progress(stderr, done, total, stop_signal != 0);
    return stop_signal;   /* nonzero: setup stops and removes its temporary file */
}

/* setup FILE SIZE [--force] [--follow-symlinks] [--files N] */
static int setup_cmd(cli *c)
{
    rb_error err; struct timespec a, b; struct stat st; uint64_t size, n = 0;
    int rc, draw = isatty(2), link, flags = (c->force ? RB_OUT_REPLACE : 0) | (c->follow ? RB_OUT_FOLLOW : 0);
    if (rb_parse_size(c->pos[1], &size) || size == 0) return bad("SIZE must be a size of 1 byte or more, e.g. 1g: not '%s'", c->pos[1]);
    if (c->files && (rb_parse_u64(c->files, &n) || !n)) return bad("--files needs a number of files, 1 or more: '%s'", c->files);
    clock_gettime(CLOCK_MONOTONIC, &a); catch_signals();   /* n 0: one file; a bar on a terminal */
    rc = rb_setup_files(c->path, size, n > RB_MAX_FILES ? RB_MAX_FILES + 1 : (unsigned)n, 0, flags, progress_bar, draw ? &draw : NULL, NULL, &err);
    clock_gettime(CLOCK_MONOTONIC, &b);
    if (rc == RB_OK) {
        rb_report_setup_done(stderr, c->path, size, (unsigned)n, (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
        return 0;
    }
    link = rc == RB_ENOTREG && lstat(c->path, &st) == 0 && S_ISLNK(st.st_mode) && !(flags & RB_OUT_FOLLOW);
    fprintf(stderr, "readbench: %s%s\n", err.msg, rc == RB_EEXIST && !(flags & RB_OUT_REPLACE) ?
            "; add --force to replace it" : link ? "; add --follow-symlinks to replace its target" : "");
    return rc == RB_EINTR ? 128 + stop_signal : rc == RB_EEXIST || rc == RB_EINVAL || rc == RB_ENOTREG ? 2 : 1;
}

/* list [FILE]: every strategy and whether it runs here (no FILE: on a temporary one of the header's). */
static int list_cmd(cli *c)
{
    rb_error err; int rc;
    if (c->format == RB_FORMAT_MARKDOWN) { rb_report_strategies_markdown(stdout); return 0; }   /* the docs' table */
    c->s.cfg.path = c->path; c->s.cfg.stop = &stop_signal;   /* read_size 0: 16 KiB */
    if (!c->path) catch_signals();
    if ((rc = rb_report_list_here(stdout, &c->s.cfg, &err)) == RB_EINTR || stop_signal) return 128 + stop_signal;
    return rc == RB_OK ? 0 : fail(file_exit(rc), err.msg);
}

static int drop_cmd(cli *c)
{
    rb_error err; rb_residency_info ri;
    int rc = c->path ? rb_evict(c->path, &err) : rb_drop_caches(&err);
    if (rc != RB_OK) return fail(c->path ? file_exit(rc) : 1, err.msg);
    if (!c->path) printf("dropped the page cache\n");
    else if (rb_residency(c->path, &ri, &err) == RB_OK) rb_report_residency(stdout, c->path, &ri, 1);
    return 0;
}
static int residency_cmd(cli *c)
{
    rb_error err; rb_residency_info ri; int rc;
    if ((rc = rb_residency(c->path, &ri, &err)) != RB_OK) return fail(file_exit(rc), err.msg);
    if (!ri.trusted) { fputs("readbench: ", stderr); rb_report_residency(stderr, c->path, &ri, 0); return 1; }   /* an error */
    rb_report_residency(stdout, c->path, &ri, 0); return 0;
}

/* The hog's size by the header's rule (rb_hog_plan): room left for the run's own buffers (reserve). */
static int plan_hog(const char *spec, uint64_t file_size, uint64_t reserve, uint64_t *size)
{
    char why[256];
    int rc = rb_hog_plan(spec, file_size, reserve, size, why, sizeof why);
    if (rc == RB_EINVAL || rc == RB_ENOMEM) return bad("--hog: %s", why);
    if (rc != RB_OK) { fprintf(stderr, "readbench: --hog: %s\n", why); return 1; }
    if (why[0]) fprintf(stderr, "readbench: hog: %s\n", why);
    return 0;
}

static int take_hog(uint64_t size, rb_hog *h)
{
    rb_error err;
    if (!size) return 0;
    rb_report_hog(stderr, size, NULL);
    if (rb_hog_take(h, size, &err) != RB_OK) return fail(1, err.msg);
    rb_report_hog(stderr, size, h);
    return 0;
}

static int hog_cmd(cli *c)
{
    rb_error err; rb_hog h; uint64_t size = 0; int rc;
    if (strncmp(c->path, "auto:", 5) == 0) return bad("readbench hog needs a size; auto: works with run%s", "");
    catch_signals(); memset(&h, 0, sizeof h);
    if ((rc = plan_hog(c->path, 0, 0, &size)) != 0 || (rc = take_hog(size, &h)) != 0) return rc;
    fprintf(stderr, "readbench: holding it until Ctrl-C\n");
    while (!stop_signal) pause();
    if (rb_hog_release(&h, &err) != RB_OK) fail(1, err.msg);
    fprintf(stderr, "readbench: released\n");
    return 128 + stop_signal;
}

/* ---- run: the file must exist and be large enough (else the command that makes one); sparse or zeros: said. */
static int check_file(const cli *c, rb_file_info *info)
{
    rb_error err; char need[32];
    int rc = rb_check_file(c->path, c->s.cfg.size, info, &err);
    rb_format_size_arg(c->s.cfg.size ? c->s.cfg.size : (uint64_t)1 << 30, need, sizeof need);   /* setup's SIZE */
    if (rc == RB_OK) rb_report_file(stderr, c->path, info);
    else refused(rc, &err, c->path, need, info->setup_made ? 2 : 1);
    return rc == RB_OK ? 0 : rc == RB_ESYS ? 1 : 2;
}

/* The report on stdout (or --output), the comparison, the chart, and how the run ended. */
static int write_outputs(const cli *c, rb_report *rep, rb_outfile *files, const rb_json *base)
{
    FILE *out = files[0].f ? files[0].f : stdout; char text[RB_REASON_LEN];
    int tab = c->format == RB_FORMAT_TABLE || c->format == RB_FORMAT_MARKDOWN;
    rb_report_write(out, rep, c->format);
    /* after the results; with json or csv on stderr, so stdout stays one document */
    if (base && rb_report_baseline(tab ? out : stderr, base, rep, tab ? c->format : RB_FORMAT_TABLE, c->baseline, text,
                                   sizeof text) != RB_OK)
        fail(0, text);
    if (files[1].f) rb_report_title(&c->s, "--hog", text, sizeof text);
    if (files[1].f) rb_report_svg(files[1].f, rep, c->title ? c->title : text, c->log_scale);   /* a --title whole */
    if (files[2].f) rb_report_timeline_csv(files[2].f, rep);
    if (files[3].f) rb_report_timeline_svg(files[3].f, rep, c->title);
    if (close_outputs(files, 1)) return 1;   /* complete documents, an interrupted one included */
    /* the results carry the warnings; the flag that helps is the CLI's to name */
    if (rb_report_summary(stderr, rep, stop_signal != 0, "a longer --duration makes the rate finer") && !stop_signal)
        return 1;
    return stop_signal ? 128 + stop_signal : 0;
}

static int run(cli *c)
{
    rb_file_info info; rb_env env; rb_report rep; rb_matrix m; rb_hog hog; rb_outfile files[4]; rb_error err; rb_ident id;
    rb_json *base = NULL; char why[RB_REASON_LEN + 300]; uint64_t hog_size = 0; int rc;
    if (c->pos[1]) { c->s.trace_path = c->pos[0]; c->path = c->pos[1]; }   /* replay TRACE FILE: FILE --trace TRACE */
    if (!(c->s.cfg.path = c->path)) return bad("no FILE to read%s", "");
    rb_settings_matrix(&c->s, &m);
    if ((rc = check_file(c, &info)) != 0) return rc;
    if (rb_matrix_check(&m, why, sizeof why) != RB_OK) return bad("%s", why);
    if (c->s.hog && (rc = plan_hog(c->s.hog, info.size, rb_matrix_memory(&m), &hog_size)) != 0) return rc;   /* before any output */
    if ((c->tl_csv || c->tl_svg) && !c->s.timeline.interval_ns) return bad("--timeline-csv and --timeline-svg need --timeline%s", "");
    if (c->baseline && !(base = rb_json_load_report(c->baseline, why, sizeof why))) return bad("--baseline: %s", why);
    if ((rc = open_outputs(files, c, c->svg)) != 0) { rb_json_free(base); return rc; }
    catch_signals();
    m.cfg.stop = &stop_signal; m.cfg.log = rb_log_to;   /* the library's diagnostics that are not part of a result */
    m.cfg.log_user = m.user = stderr;
    m.progress = c->quiet ? NULL : rb_report_progress_to;   /* a round's order, then a line per cell */
    rb_report_scenario(stderr, &c->s, "--");   /* what the scenario set, and what was given after it */
    memset(&hog, 0, sizeof hog);
    if ((rc = take_hog(hog_size, &hog)) == 0) {
        if (rb_ident_take(&id, c->path, &err) == RB_OK) m.cfg.ident = &id;   /* every cell: the file env describes */
        rb_env_collect(&env, c->path);
        if (!c->quiet) rb_env_print(stderr, &env);
        if (rb_run_matrix(&m, &rep) == RB_ENOMEM) rc = fail(1, "out of memory");
    }
    if (rc) close_outputs(files, 0);
    else {
        rb_settings_report(&c->s, &rep);
        rep.env = &env;
        rc = write_outputs(c, &rep, files, base);
        rb_report_free(&rep);
    }
    rb_json_free(base);
    if (m.cfg.ident) rb_ident_free(&id);
    if (rb_hog_release(&hog, &err) != RB_OK) fail(0, err.msg);
    return rc;
}

/* ---- advise: every strategy in every cache state; the regret table, the verdict and why ---- */
static int advise(cli *c)
{
    rb_advise_config ac; rb_advise_run r; rb_outfile files[4]; rb_error err; rb_file_info info;
    char why[RB_REASON_LEN]; int rc;
    c->s.cfg.path = c->path;   /* a trace is read for FILE (rb_settings_advise), after FILE is checked */
    if ((rc = check_file(c, &info)) != 0) return rc;
    if (rb_settings_advise(&c->s, &ac, why, sizeof why) != RB_OK) return bad(c->s.nread_sizes > 1 ? "%s (--read-size)" : "%s", why);
    ac.cfg.stop = &stop_signal; ac.cfg.log = rb_log_to; ac.cfg.log_user = ac.user = stderr;
    ac.progress = c->quiet ? NULL : rb_report_progress_to; ac.quick = c->quick;
    if ((rc = open_outputs(files, c, c->svg)) != 0) return rc;
    catch_signals();
    rc = rb_advise(&ac, &r, &err);
    if (r.rounds) {   /* cells ran: their report, however it ended (interrupted, the file changed, nothing measured) */
        rb_advise_write(files[0].f ? files[0].f : stdout, &r, c->format);
        if (files[1].f) rb_advise_svg(files[1].f, &r, c->title);
    }
    rb_advise_free(&r);
    if (close_outputs(files, r.rounds != 0)) return 1;
    if (rc != RB_OK && rc != RB_EINTR) return fail(rc == RB_EINVAL && !r.rounds ? 2 : 1, err.msg);
    return stop_signal ? fail(128 + stop_signal, "interrupted: the verdict covers the cells measured before") : 0;
}

/* The main job: a short advise on ./readbench.dat (made, 1 GiB, if missing), then how to run the full one. */
static int main_job(cli *c)
{
    struct stat st; rb_error err; int rc; char to[1024], msg[2400]; ssize_t n;
    c->cmd = RB_CMD_ADVISE; c->doc = rb_command_doc_find("advise");
    c->path = c->pos[0] = "readbench.dat";
    c->pos[1] = "1g";
    if (stat(c->path, &st) != 0) {
        if (lstat(c->path, &st) == 0) {   /* a link to nothing: the default run neither follows nor replaces it */
            n = readlink(c->path, to, sizeof to - 1);
            to[n > 0 ? n : 0] = 0;
            snprintf(msg, sizeof msg, "./readbench.dat is a symbolic link to %s, which does not exist; the default run "
                     "neither follows nor replaces it: remove it, or make its target with: readbench setup '%s' 1g",
                     n > 0 ? to : "a missing file", n > 0 ? to : "TARGET");
            return fail(2, msg);
        }
        fprintf(stderr, "readbench: creating ./readbench.dat (1 GiB) for the default run; delete it when done\n");
        if ((rc = setup_cmd(c)) != 0) return rc;
    }
    if ((rc = rb_check_file(c->path, 0, NULL, &err)) != RB_OK) return fail(file_exit(rc), err.msg);   /* a FIFO: one line */
    fprintf(stderr, "readbench: a short advise on readbench.dat: warm and cold, 1 thread and one per CPU, one strategy "
                    "of each family (about a minute)\n");
    c->quick = 1;
    if ((rc = advise(c)) == 0)
        fprintf(stderr, "\nThe full advise (every strategy; warm, half-cold, cold and under memory pressure; 3 minutes):\n"
                        "  readbench advise readbench.dat\n");
    return rc;
}

/* readbench prefetch FILE: each policy, data not cached then fitting in the cache. */
static int prefetch_cmd(cli *c)
{
    rb_pfx_result r[2 * RB_PREFETCH_COUNT]; rb_outfile files[4]; rb_error err; rb_env env;
    unsigned n, failed; int rc;
    c->p.cfg.path = c->path;
    if ((rc = rb_check_one_file(c->path, 1 << 20, "prefetch", NULL, &err)) != RB_OK) return refused(rc, &err, c->path, "4g", 0);
    if ((rc = open_outputs(files, c, c->svg)) != 0) return rc;
    catch_signals(); c->p.cfg.stop = &stop_signal;   /* the cases measured are written, the rest marked */
    rb_env_collect(&env, c->path); rb_env_print(stderr, &env);
    n = rb_pfx_run_all(&c->p, r, stderr, &failed);
    rb_report_prefetch(files[0].f ? files[0].f : stdout, r, n, c->format, &env);
    if (files[1].f) rb_report_prefetch_svg(files[1].f, r, n, c->title, c->log_scale, &env);
    if (close_outputs(files, 1)) return 1;
    return stop_signal ? fail(128 + stop_signal, "interrupted: the report holds the cases measured before") : failed ? 1 : 0;
}

/* readbench probe FILE: the readahead cases, expected against observed. */
static int probe_cmd(cli *c)
{
    rb_probe_result r[RB_PROBE_CASES]; rb_outfile files[4]; rb_error err; rb_env env;
    unsigned n, failed, disagree; int rc, id = 0; char why[RB_REASON_LEN];
    if (c->probe_case && !(id = rb_probe_case_find(c->probe_case, why, sizeof why))) return bad("%s", why);
    /* never reads it: the probe counts page cache adds */
    if ((rc = rb_probe_check(c->path, id, &err)) != RB_OK) return refused(rc, &err, c->path, "4g", 0);
    if ((rc = open_outputs(files, c, NULL)) != 0) return rc;
    rb_env_collect(&env, c->path); rb_env_print(stderr, &env);
    n = rb_probe_cases(c->path, id, r, &failed, &disagree);
    rb_report_probe(files[0].f ? files[0].f : stdout, r, n, c->format, &env);
    if (close_outputs(files, 1)) return 1;
    if (disagree) fprintf(stderr, "readbench: %u case%s did not match the expectation (see above)\n", disagree, disagree == 1 ? "" : "s");
    return failed ? 1 : 0;
}

/* readbench warmup FILE: each way of making FILE resident, from evicted: its time and what it loaded. */
static int warmup_cmd(cli *c)
{
    rb_warmup_run r; rb_outfile files[4]; rb_error err; rb_file_info info; int rc;
    if ((rc = rb_check_one_file(c->path, 1, "warmup", &info, &err)) != RB_OK) return refused(rc, &err, c->path, "1g", 0);
    if ((rc = open_outputs(files, c, c->svg)) != 0) return rc;
    rb_report_file(stderr, c->path, &info);   /* sparse or zeros: said, as run says it */
    catch_signals(); c->w.path = c->path; c->w.stop = &stop_signal;
    if ((rc = rb_warmup(&c->w, &r, &err)) == RB_OK || rc == RB_EINTR) {
        rb_env_print(stderr, &r.env); rb_warmup_write(files[0].f ? files[0].f : stdout, &r, c->format);
        if (files[1].f) rb_warmup_svg(files[1].f, &r, c->title);
    }
    if (close_outputs(files, rc == RB_OK || rc == RB_EINTR)) return 1;
    return rc != RB_OK && rc != RB_EINTR ? fail(file_exit(rc), err.msg) : stop_signal ? 128 + stop_signal : r.failed ? 1 : 0;
}

/* readbench diff BASE.json NEW.json: each cell's NEW/BASE with its interval and a verdict. */
static int diff_cmd(cli *c)
{
    char why[RB_REASON_LEN + 300]; rb_diff d; int rc;
    if ((rc = rb_diff_files(c->pos[0], c->pos[1], &d, why, sizeof why)) != RB_OK) return fail(rc == RB_ENOMEM ? 1 : 2, why);
    rb_report_diff(stdout, &d, c->format, c->pos[0], c->pos[1]);
    rb_diff_free(&d);
    return 0;
}

/* npos: the arguments that are no option, at most; needs: what they are, if they must be there */
static const struct command { const char *name; int cmd; unsigned npos; const char *needs; int (*fn)(cli *c); } commands[] = {
    {"run", RB_CMD_RUN, 1, NULL, run}, {"replay", RB_CMD_REPLAY, 2, "TRACE and FILE", run},
    {"prefetch", RB_CMD_PREFETCH, 1, "FILE", prefetch_cmd}, {"probe", RB_CMD_PROBE, 1, "FILE", probe_cmd},
    {"diff", RB_CMD_DIFF, 2, "BASE.json and NEW.json", diff_cmd}, {"setup", RB_CMD_SETUP, 2, "FILE and SIZE", setup_cmd},
    {"list", RB_CMD_LIST, 1, NULL, list_cmd}, {"drop", RB_CMD_DROP, 1, NULL, drop_cmd},
    {"residency", RB_CMD_RESIDENCY, 1, "FILE", residency_cmd}, {"hog", RB_CMD_HOG, 1, "SIZE", hog_cmd},
    {"advise", RB_CMD_ADVISE, 1, "FILE", advise}, {"warmup", RB_CMD_WARMUP, 1, "FILE", warmup_cmd},
};

/* --help: every command (NULL), or one; whole in a buffer, so that a failed write shows at the flush. */
static int help(const char *command)
{
    static char text[1 << 14];   /* more than stdio's first 4 KiB buffer holds */
    if (command && !rb_command_doc_find(command)) return bad("no command '%s'", command);
    return setvbuf(stdout, text, _IOFBF, sizeof text) != 0 || rb_help_write(stdout, command) != 0;
}

/* A report that never reached stdout (a full disk, /dev/full, a closed pipe) is a failure. */
int main(int argc, char **argv)
{
    static cli c;   /* an rb_settings is large for a stack */
    const struct command *k = commands;   /* a first argument that is no command: run FILE */
    unsigned i; int rc, bad_out, why;
    for (i = 0; argc > 1 && i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name)) k = &commands[i];
    c.cmd = k->cmd; c.doc = rb_command_doc_find(k->name);
    if (argc < 2) rc = main_job(&c);
    else if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) rc = help(argc > 2 ? argv[2] : NULL);
    else if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) rc = printf("readbench %s\n", RB_VERSION) < 0;
    else if ((rc = parse(argc, argv, k == commands && strcmp(argv[1], "run") ? 1 : 2, k->npos, k->needs, &c)) != 0) rc = 2;
    else rc = c.help ? help(k->name) : k->fn(&c);
    errno = 0;
    bad_out = fflush(stdout) != 0 || ferror(stdout);
    why = errno;   /* a write that failed mid-report left the error flag, not its errno: a device says again */
    if (bad_out && !why && write(fileno(stdout), "", 0) < 0) why = errno;
    if (fclose(stdout) != 0 && (bad_out = 1) && !why) why = errno;
    if (!bad_out) return rc;
    fprintf(stderr, "readbench: cannot write the standard output: %s\n", strerror(why ? why : EIO));
    return rc ? rc : 1;
}
