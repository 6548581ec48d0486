/* Compile tests. This file includes the header twice, the second time with the
   implementation, all static (RB_STATIC): it must build warning-free and link beside the
   extern implementation in tu_impl.c without a clash. tests/cpp_compile.cpp is the C++ one. */
#define _GNU_SOURCE /* the first include below has no implementation, so it cannot ask for it */
#define RB_STATIC
#include "readbench.h"
#include "readbench.h"
#define READBENCH_IMPLEMENTATION
#include "readbench.h"
#include "readbench.h"
#include "rbtest.h"
#include <unistd.h>

static void static_copy_works(void)
{
#ifndef RB_NO_TOOLS   /* the parsers are tools; the core alone (make test-core) has the strategies */
    uint64_t v;
    CHECK(rb_parse_size("64k", &v) == RB_OK && v == 65536);
#endif
    CHECK(rb_strategy_find("pread") != NULL);
}

static void cpp_build_runs(void)
{
    if (access("./cpp_compile", X_OK) != 0) SKIP("no C++ compiler: tests/cpp_compile was not built");
    CHECK(system("./cpp_compile") == 0);
}

void suite_compile(void)
{
    RUN(static_copy_works);
    RUN(cpp_build_runs);
}
