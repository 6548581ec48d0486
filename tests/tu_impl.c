/* The implementation lives in this translation unit only; every test_*.c includes the
   declarations alone, which is the "two translation units" compile test. */
/* The io_uring strategies submit through test_counting.c's hook, which can make a submit
   take fewer entries than were queued (liburing's own otherwise). */
#if defined(READBENCH_LIBURING)
struct io_uring;
int rbt_uring_submit(struct io_uring *ring, unsigned wait_nr);
#define RB_TEST_URING_SUBMIT rbt_uring_submit
#endif
/* The machine kernel that says when the machine moved during a cell: test_stats.c's, which
   runs twice as long once a test strategy has asked for it (an injected slowdown). */
#define RB_MACHINE_SPIN rbt_machine_spin
#define READBENCH_IMPLEMENTATION
#include "readbench.h"
