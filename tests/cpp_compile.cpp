// The header compiled as C++ (the implementation too), and a short call into it.
#define READBENCH_IMPLEMENTATION
#include "readbench.h"

int main()
{
    uint64_t v = 0;
    unsigned n = 0;
    const rb_strategy *s = rb_strategies(&n);
    rb_hist *h = new rb_hist;
    rb_hist_init(h);
    rb_hist_record(h, 1000);
    bool ok = rb_parse_size("16k", &v) == RB_OK && v == 16384 && n > 10 && s[0].name &&
              rb_hist_percentile(h, 50) == 1000;
    delete h;
    return ok ? 0 : 1;
}
