/* bench/folio-map.c: what the way a file got into the page cache costs the reads after it.
   The kernel loads MADV_WILLNEED (and posix_fadvise WILLNEED, readahead(2)) in 4 KiB folios;
   sequential reads and a NORMAL mapping's faults read ahead in large folios, which a fault
   maps whole (up to a 2 MiB PMD). This program loads FILE one way, waits until mincore says
   every page is in, then through a fresh mapping (MADV_RANDOM: no readahead, nothing to read)
   times 16 random 16 KiB reads per op for SECS seconds, counts the minor faults of touching
   every page once (minor and major faults), and reads FilePmdMapped, then times the same
   reads once all is mapped. The file's whole 2 MiB pieces are used (the tail is left out).
     how: willneed   evicted, then MADV_WILLNEED in 2 MiB calls
          read       evicted, then pread in 1 MiB pieces, in order
          fault      evicted, then one byte of each page through a NORMAL mapping, in order
          populate   evicted, then mmap(MAP_POPULATE) of it, unmapped
          h-willneed / h-fault   not evicted first: the holes of the state left (for example
                     by readbench run FILE --strategies null --prewarm 0.5) loaded by
                     MADV_WILLNEED in 2 MiB calls / by faults at random pages, then each page
                     in file order (a hole the random ones missed)
   Build and run as the file's owner or root (mincore's counts are honest only then):
     cc -O2 bench/folio-map.c -o /tmp/folio-map && /tmp/folio-map FILE willneed 0.3
   Linux only. Prints one line. The times are one sample each: alternate the ways and repeat. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static uint64_t now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}
static void die(const char *what) { perror(what); exit(1); }
static void faults(long *minor, long *major)
{
    struct rusage r;
    if (getrusage(RUSAGE_SELF, &r)) die("getrusage");
    *minor = r.ru_minflt;
    *major = r.ru_majflt;
}
static uint64_t rng = 88172645463325252u;
static uint64_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }

/* ops of 16 random 16 KiB reads (one load per 64 bytes) for `secs`: ops/ms */
static double reads(const char *m, size_t len, double secs, volatile uint64_t *sink)
{
    uint64_t ops = 0, t0 = now(), end = t0 + (uint64_t)(secs * 1e9), t1;
    while (now() < end) {
        int k, j;
        for (k = 0; k < 16; k++) {
            const uint64_t *p = (const uint64_t *)(m + (next() % (len / 16384)) * 16384);
            for (j = 0; j < 2048; j += 8) *sink += p[j];
        }
        ops++;
    }
    t1 = now();
    return (double)ops / ((double)(t1 - t0) / 1e6);
}

static char *map(int fd, size_t len, int advice)
{
    char *m = (char *)mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED) die("mmap");
    if (madvise(m, len, advice)) die("madvise");
    return m;
}

int main(int argc, char **argv)
{
    const char *how = argc > 2 ? argv[2] : "";
    double secs = argc > 3 ? atof(argv[3]) : 0.3, early, late;
    volatile uint64_t sink = 0;
    struct stat st;
    size_t len, np, o, r;
    unsigned char *v;
    uint64_t t0, t1, t2, t3;
    long f0, f1, f2, f3, j0, j1, j2, j3, pmd = -1;
    int e;
    char *m, line[256];
    FILE *f;
    int fd = argc > 2 ? open(argv[1], O_RDONLY) : -1;
    static const char *const ways[] = {"willneed", "read", "fault", "populate", "h-willneed", "h-fault"};
    for (o = 0; argc > 2 && o < sizeof ways / sizeof ways[0] && strcmp(how, ways[o]); o++) {}
    if (argc < 3 || o == sizeof ways / sizeof ways[0] || !(secs > 0)) {
        fprintf(stderr, "usage: folio-map FILE willneed|read|fault|populate|h-willneed|h-fault [SECS > 0]\n");
        return 2;
    }
    if (fd < 0) die("open");
    if (fstat(fd, &st)) die("fstat");
    len = (size_t)st.st_size / (2 << 20) * (2 << 20);
    np = len / 4096;
    if (!len || !(v = (unsigned char *)malloc(np))) { fprintf(stderr, "FILE must hold 2 MiB at least\n"); return 2; }
    m = map(fd, len, MADV_NORMAL);
    if (strncmp(how, "h-", 2)) {   /* evicted, checked: a page left cached would not be loaded */
        if ((e = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)) != 0) { errno = e; die("posix_fadvise(DONTNEED)"); }
        if (mincore(m, len, v)) die("mincore");
        for (r = o = 0; o < np; o++) r += v[o] & 1;
        if (r) { fprintf(stderr, "%zu of %zu pages still cached after the eviction\n", r, np); return 1; }
    }
    t0 = now();
    if (!strcmp(how, "willneed") || !strcmp(how, "h-willneed")) {
        for (o = 0; o < len; o += 2 << 20)
            if (madvise(m + o, 2 << 20, MADV_WILLNEED)) die("madvise(WILLNEED)");
    } else if (!strcmp(how, "read")) {
        char *b = (char *)malloc(1 << 20);
        if (!b) die("malloc");
        for (o = 0; o < len; o += 1 << 20)
            if (pread(fd, b, 1 << 20, (off_t)o) < 0) die("pread");
        free(b);
    } else if (!strcmp(how, "fault")) {
        for (o = 0; o < len; o += 4096) sink += (unsigned char)m[o];
    } else if (!strcmp(how, "populate")) {
        char *q = (char *)mmap(NULL, len, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
        if (q == MAP_FAILED) die("mmap(MAP_POPULATE)");
        if (munmap(q, len)) die("munmap");
    } else {   /* h-fault */
        for (o = 0; o < 4 * np; o++) sink += (unsigned char)m[(next() % np) * 4096];
        for (o = 0; o < len; o += 4096) sink += (unsigned char)m[o];
    }
    for (;;) {   /* WILLNEED returns before its reads end: wait for the last page */
        if (mincore(m, len, v)) die("mincore");
        for (r = o = 0; o < np; o++) r += v[o] & 1;
        if (r == np) break;
        if (now() - t0 > 60000000000u) { fprintf(stderr, "%zu of %zu pages in after 60 s\n", r, np); return 1; }
        usleep(10000);
    }
    t1 = now();
    if (munmap(m, len)) die("munmap");
    m = map(fd, len, MADV_RANDOM);
    faults(&f0, &j0);
    early = reads(m, len, secs, &sink);
    faults(&f1, &j1);
    if (munmap(m, len)) die("munmap");
    m = map(fd, len, MADV_RANDOM);
    faults(&f2, &j2);
    t2 = now();
    for (o = 0; o < len; o += 4096) sink += (unsigned char)m[o];
    t3 = now();
    faults(&f3, &j3);
    late = reads(m, len, 1.0, &sink);
    if ((f = fopen("/proc/self/smaps_rollup", "r")) != NULL) {
        while (fgets(line, sizeof line, f))
            if (!strncmp(line, "FilePmdMapped:", 14)) pmd = atol(line + 14);
        fclose(f);
    }
    printf("%-10s loaded in %5.0f ms | first %.2f s of reads: %6.2f ops/ms, %6ld minor %ld major faults | "
           "mapping every page: %6ld minor %ld major faults, %5.0f ms | then %6.2f ops/ms | FilePmdMapped %ld kB\n",
           how, (double)(t1 - t0) / 1e6, secs, early, f1 - f0, j1 - j0, f3 - f2, j3 - j2, (double)(t3 - t2) / 1e6, late,
           pmd);
    return 0;
}
