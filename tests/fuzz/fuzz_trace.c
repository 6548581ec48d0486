/* libFuzzer target: the trace parsers (strace, fio iolog, CSV, and the guess of the format) on
   any bytes, with and without skip-bad. FILE is a name that does not exist, with a size given,
   so nothing but the trace's own names is looked up (stat) on the machine. */
#define READBENCH_IMPLEMENTATION
#include "../../readbench.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rb_trace t;
    rb_trace_options o;
    int f;
    memset(&o, 0, sizeof o);
    o.file = "/nonexistent-readbench-fuzz/test.db";
    o.file_size = (uint64_t)1 << 30;
    for (f = RB_TRACE_AUTO; f < RB_TRACE_FORMATS; f++) {
        o.format = f;
        o.skip_bad = f & 1;
        rb_trace_parse(&t, (const char *)data, size, &o);
        rb_trace_free(&t);
    }
    return 0;
}
