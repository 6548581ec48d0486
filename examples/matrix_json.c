/* Demonstrates running a matrix from code and printing JSON: three strategies x two thread
   counts on one file, the environment collected once, the report written by the header's
   JSON writer (the same document `readbench run --format json` prints).

   build: cc -O2 -I.. matrix_json.c -o matrix_json -lpthread -lm
   run:   ./matrix_json FILE | python3 -m json.tool */
#define READBENCH_IMPLEMENTATION
#include "readbench.h"

int main(int argc, char **argv)
{
    const char *names[] = {"mmap", "mmap-random-willneed", "pread"};
    unsigned threads[] = {1, 2}, i, t, n = 0;
    uint64_t sizes[] = {16384};
    rb_result res[6];
    rb_config c;
    rb_env env;
    rb_report rep;
    if (argc != 2) { fprintf(stderr, "usage: %s FILE\n", argv[0]); return 2; }
    memset(&c, 0, sizeof c);
    c.path = argv[1];
    c.warmup_ns = 100000000;
    c.duration_ns = 300000000;
    c.iterations = 2;
    rb_env_collect(&env, c.path);
    for (i = 0; i < 3; i++)
        for (t = 0; t < 2; t++) {
            c.threads = threads[t];
            rb_run(&c, rb_strategy_find(names[i]), &res[n]);   /* failures are rows too */
            fprintf(stderr, "%s T%02u: %s\n", names[i], threads[t], rb_status_string(res[n].status));
            n++;
        }
    memset(&rep, 0, sizeof rep);
    rb_config_defaults(&c, &c);
    rep.results = res;
    rep.count = n;
    rep.cfg = &c;
    rep.env = &env;
    rep.strategies = names;
    rep.nstrategies = 3;
    rep.threads = threads;
    rep.nthreads = 2;
    rep.read_sizes = sizes;
    rep.nread_sizes = 1;
    rb_report_json(stdout, &rep);
    return 0;
}
