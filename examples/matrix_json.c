/* Demonstrates running a matrix from code and printing JSON: three strategies x two thread
   counts on one file, three rounds in shuffled order, the environment collected once, the
   report written by the header's JSON writer (the same document `readbench run --rounds 3
   --format json` prints: per cell the median, its 95% interval and every sample).

   build: cc -O2 -I.. matrix_json.c -o matrix_json -lpthread -lm
   run:   ./matrix_json FILE | python3 -m json.tool */
#define READBENCH_IMPLEMENTATION
#include "readbench.h"

static void progress(const rb_matrix_event *ev, void *user)
{
    (void)user;
    if (ev->kind == RB_EVENT_DONE)   /* failures are cells too: they keep their reason */
        fprintf(stderr, "round %u: %s T%02u: %s\n", ev->round + 1, ev->strategy, ev->cfg->threads,
                rb_status_string(ev->result->status));
}

int main(int argc, char **argv)
{
    const rb_strategy *rows[3];
    unsigned threads[] = {1, 2};
    rb_matrix m;
    rb_env env;
    rb_report rep;
    char why[256];
    if (argc != 2) { fprintf(stderr, "usage: %s FILE\n", argv[0]); return 2; }
    rows[0] = rb_strategy_find("mmap");
    rows[1] = rb_strategy_find("mmap-random-willneed");
    rows[2] = rb_strategy_find("pread");
    memset(&m, 0, sizeof m);   /* zero means defaults */
    m.cfg.path = argv[1];
    m.cfg.warmup_ns = 100000000;
    m.cfg.duration_ns = 300000000;
    m.cfg.iterations = 2;
    m.strategies = rows;
    m.nstrategies = 3;
    m.threads = threads;
    m.nthreads = 2;
    m.rounds = 3;
    m.progress = progress;
    if (rb_matrix_check(&m, why, sizeof why) != RB_OK) { fprintf(stderr, "%s\n", why); return 2; }
    rb_env_collect(&env, m.cfg.path);
    if (rb_run_matrix(&m, &rep) == RB_ENOMEM) return 1;
    rep.env = &env;
    rb_report_json(stdout, &rep);
    rb_report_free(&rep);
    return 0;
}
