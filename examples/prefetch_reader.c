/* Demonstrates rb_prefetch with a policy in your own mmap-based reader: a reader that knows
   the next few positions it will need hints them through the adaptive policy, then reads,
   and prints what the policy decided (calls, skips, residency checks, advice).

   build: cc -O2 -I.. prefetch_reader.c -o prefetch_reader -lpthread -lm
   run:   ./prefetch_reader FILE [always|backoff|backoff-nomincore|adaptive|backoff-shared] */
#define READBENCH_IMPLEMENTATION
#include "readbench.h"

int main(int argc, char **argv)
{
    int policy = argc > 2 ? rb_prefetch_policy_find(argv[2]) : RB_PREFETCH_ADAPTIVE, fd;
    struct stat st;
    unsigned char *map;
    rb_prefetcher pf;
    uint64_t x = 12345, next[8], sum = 0, t0, t1;
    struct timespec a, b;
    unsigned i, k;
    if (argc < 2 || policy < 0) { fprintf(stderr, "usage: %s FILE [policy]\n", argv[0]); return 2; }
    fd = open(argv[1], O_RDONLY);
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < 65536) { perror(argv[1]); return 1; }
    map = (unsigned char *)mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) { perror("mmap"); return 1; }
    if (madvise(map, (size_t)st.st_size, MADV_RANDOM) != 0) perror("madvise(MADV_RANDOM)");
    rb_prefetcher_init(&pf, policy, map, (uint64_t)st.st_size, NULL);

    clock_gettime(CLOCK_MONOTONIC, &a);
    for (i = 0; i < 20000; i++) {
        for (k = 0; k < 8; k++) {   /* the positions this "query" will need */
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            next[k] = (x >> 11) % ((uint64_t)st.st_size - 4096);
            if (rb_prefetch(&pf, next[k], 4096) < 0) fprintf(stderr, "prefetch failed: %s\n", strerror(pf.last_errno));
        }
        for (k = 0; k < 8; k++) sum += map[next[k]] + map[next[k] + 4095];   /* then read them */
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    t0 = (uint64_t)a.tv_sec * 1000000000u + (uint64_t)a.tv_nsec;
    t1 = (uint64_t)b.tv_sec * 1000000000u + (uint64_t)b.tv_nsec;
    printf("policy %s: %.1f us per query of 8 reads (checksum %llu)\n", rb_prefetch_policy_name(policy),
           (double)(t1 - t0) / 20000 / 1e3, (unsigned long long)(sum & 0xff));
    printf("calls %llu, skips %llu, mincore %llu, advises %llu, failed %llu\n",
           (unsigned long long)pf.st.calls, (unsigned long long)pf.st.skips,
           (unsigned long long)pf.st.mincore_calls, (unsigned long long)pf.st.advises,
           (unsigned long long)pf.st.failed);
    munmap(map, (size_t)st.st_size);
    close(fd);
    return pf.st.failed ? 1 : 0;
}
