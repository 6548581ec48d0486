/* Demonstrates rb_prefetch with a policy in your own mmap-based reader, no runner around it:
   a reader that knows the next few positions it will need hints them through the adaptive
   policy (or another), then reads, and prints what the policy decided: calls, skips,
   residency checks, advice, and for adaptive each arm's share of the calls and its measured
   price, the switches and what exploring cost.

   build: cc -O2 -I.. prefetch_reader.c -o prefetch_reader -lpthread -lm
   run:   ./prefetch_reader FILE [always|backoff|backoff-nomincore|adaptive|backoff-shared] [random]
          (random: an MADV_RANDOM mapping, whose faults read no window around them) */
#define READBENCH_IMPLEMENTATION
#define RB_NO_REPORTS   /* the policy is the core's: the reports and tools are left out (a third of the build) */
#include "readbench.h"

int main(int argc, char **argv)
{
    int policy = argc > 2 ? rb_prefetch_policy_find(argv[2]) : RB_PREFETCH_ADAPTIVE, fd, arm;
    int random_map = argc > 3 && strcmp(argv[3], "random") == 0;
    struct stat st;
    unsigned char *map;
    rb_prefetcher pf;
    uint64_t x = 12345, next[16], sum = 0, t0, t1, calls = 0;
    struct timespec a, b;
    unsigned i, k;
    if (argc < 2 || policy < 0 || (argc > 3 && !random_map)) {
        fprintf(stderr, "usage: %s FILE [policy] [random]\n", argv[0]);
        return 2;
    }
    fd = open(argv[1], O_RDONLY);
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < 65536) { perror(argv[1]); return 1; }
    map = (unsigned char *)mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) { perror("mmap"); return 1; }
    if (random_map && madvise(map, (size_t)st.st_size, MADV_RANDOM) != 0) perror("madvise(MADV_RANDOM)");
    rb_prefetcher_init(&pf, policy, map, (uint64_t)st.st_size, NULL);
    rb_prefetcher_file(&pf, fd, !random_map);   /* adaptive: the file, and whether faults read around */
    pf.horizon_ns = 0;   /* adaptive's sweep of the holes: how long this reader will read (0: unknown) */

    clock_gettime(CLOCK_MONOTONIC, &a);
    b = a;
    /* 20000 queries and 0.2 s at least: adaptive reports the arms of the epochs that ended, and
       an epoch lasts 20 ms at least (warm, 20000 queries once took 16 ms: no epoch ended) */
    for (i = 0; i < 20000 || (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9 < 0.2; i++) {
        for (k = 0; k < 16; k++) {   /* the positions this "query" will need */
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            next[k] = (x >> 11) % ((uint64_t)st.st_size - 16384);
            if (rb_prefetch(&pf, next[k], 16384) < 0) fprintf(stderr, "prefetch failed: %s\n", strerror(pf.last_errno));
        }
        for (k = 0; k < 16; k++) sum += map[next[k]] + map[next[k] + 16383];   /* then read them */
        if (i >= 19999) clock_gettime(CLOCK_MONOTONIC, &b);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    t0 = (uint64_t)a.tv_sec * 1000000000u + (uint64_t)a.tv_nsec;
    t1 = (uint64_t)b.tv_sec * 1000000000u + (uint64_t)b.tv_nsec;
    printf("policy %s: %.1f us per query of 16 reads (checksum %llu)\n", rb_prefetch_policy_name(policy),
           (double)(t1 - t0) / i / 1e3, (unsigned long long)(sum & 0xff));
    printf("calls %llu, skips %llu, mincore %llu, advises %llu (windows swept %llu), failed %llu\n",
           (unsigned long long)pf.st.calls, (unsigned long long)pf.st.skips,
           (unsigned long long)pf.st.mincore_calls, (unsigned long long)pf.st.advises,
           (unsigned long long)pf.st.sweeps, (unsigned long long)pf.st.failed);
    for (arm = 0; arm < RB_AD_ARMS; arm++) calls += pf.st.arm_calls[arm];
    for (arm = 0; calls && arm < RB_AD_ARMS; arm++)   /* adaptive only: the others play no arm */
        printf("  arm %-7s %5.1f%% of the calls, %s%.1f us per call\n", rb_adapt_arm_name(arm),
               100.0 * (double)pf.st.arm_calls[arm] / (double)calls, pf.st.arm_calls[arm] ? "" : "(never played) ",
               pf.st.arm_calls[arm] ? (double)pf.st.arm_ns[arm] / (double)pf.st.arm_calls[arm] / 1e3 : 0.0);
    if (calls)
        printf("  %llu switches, %llu epochs exploring, which cost %.1f ms over the exploited arm's price\n",
               (unsigned long long)pf.st.switches, (unsigned long long)pf.st.trials, (double)pf.st.explore_ns / 1e6);
    munmap(map, (size_t)st.st_size);
    close(fd);
    return pf.st.failed ? 1 : 0;
}
