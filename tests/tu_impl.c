/* The implementation lives in this translation unit only; every test_*.c includes the
   declarations alone, which is the "two translation units" compile test. */
#define READBENCH_IMPLEMENTATION
#include "readbench.h"
