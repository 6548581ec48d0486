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
/* Its window: 2 ms, 10 ms (the header's) for the test whose subject is time-sharing, which a
   window inside one scheduler slice does not see. At 10 ms the kernel cost the suites 7 s of
   CPU in a run of 140 (each cell runs it twice, one copy per CPU). */
extern volatile unsigned long long rbt_machine_window_ns;   /* no header before readbench.h */
#define RB_MACHINE_WINDOW_NS rbt_machine_window_ns
#define READBENCH_IMPLEMENTATION
#include "readbench.h"

/* test_prefetch.c's window into the hint accounting (static in the header): a followed hint
   over the first page of map, whose page comes in (loaded by the caller's load()) between the
   residency check and the hint's accounting, as a fast device's read can. Returns the
   accounting's redundant count and, through pending, whether the hint waits for its read. */
unsigned long long rbt_pa_hint_landing_first(const unsigned char *map, int fd, void (*load)(void), unsigned *pending);
unsigned long long rbt_pa_hint_landing_first(const unsigned char *map, int fd, void (*load)(void), unsigned *pending)
{
    rb_pa_accounting a;
    rb_pa_follow f;
    size_t page = (size_t)rb__page_size();
    memset(&a, 0, sizeof a);
    rb__pa_follow_init(&f, map, page, fd, 1, 1, 0);
    f.follow_next = 1;   /* this hint is followed */
    rb__pa_before(&f, 0, page);
    load();
    rb__pa_hint(&a, &f, 0, 0, page);
    *pending = f.npending;
    return (unsigned long long)a.redundant;
}
