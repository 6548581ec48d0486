#define _GNU_SOURCE
#include "readbench.h"
#include "rbtest.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static rb_result res;

static const char *file_of(const char *name, uint64_t size)
{
    const char *p = rbt_path(name);
    struct stat st;
    rb_error e;
    if (stat(p, &st) == 0 && (uint64_t)st.st_size == size) return p;
    if (rb_setup_file(p, size, 0, 1, NULL, NULL, &e) != RB_OK) {
        fprintf(stderr, "    setup %s: %s\n", p, e.msg);
        return NULL;
    }
    return p;
}

static volatile unsigned touched;   /* the page touches must happen */

static double resident_fraction(const char *p)
{
    rb_residency_info ri;
    if (rb_residency(p, &ri, NULL) != RB_OK || !ri.trusted || !ri.pages) return -1;
    return (double)ri.resident / (double)ri.pages;
}

static void prewarm_makes_that_fraction_resident(void)
{
    const char *p = file_of("pw.dat", 64u << 20);
    double f;
    unsigned k;
    rb_error e;
    CHECK(p != NULL);
    if (!p) return;
    CHECK(rb_prewarm(p, 0.5, 1, &e) == RB_OK);
    f = resident_fraction(p);
    CHECKF(f > 0.48 && f < 0.52, "prewarm 0.5 left %.4f resident", f);
    CHECK(rb_prewarm(p, 0.9, 1, &e) == RB_OK);
    f = resident_fraction(p);
    CHECKF(f > 0.88 && f < 0.92, "prewarm 0.9 left %.4f resident", f);
    /* Up to 3 tries for the whole file: the host's reclaim may take a page of it between the
       prewarm and the count (make check beside the other suites, 2026-12-02, once); a prewarm
       that leaves pages out fails all 3. */
    for (k = 0; k < 3; k++) {
        CHECK(rb_prewarm(p, 1.0, 1, &e) == RB_OK);
        if ((f = resident_fraction(p)) == 1.0) break;
        printf("    prewarm 1 left %.6f resident: again\n", f);
    }
    CHECKF(f == 1.0, "prewarm 1 left %.6f resident in 3 tries", f);
    CHECK(rb_evict(p, &e) == RB_OK);
    f = resident_fraction(p);
    CHECKF(f < 0.001, "evict left %.4f resident", f);
}

/* The kernel keeps pages that a mapping maps: posix_fadvise(DONTNEED) alone leaves them.
   readbench's evict-each unmaps (MADV_DONTNEED) its mapping first, and gets them out. */
static void mapped_pages_survive_fadvise_unless_unmapped(void)
{
    const char *p = file_of("mapped.dat", 16u << 20);
    rb_error e;
    rb_config c;
    unsigned char *m;
    size_t i;
    int fd;
    double f;
    CHECK(p != NULL);
    if (!p) return;
    fd = open(p, O_RDONLY);
    m = (unsigned char *)mmap(NULL, 16u << 20, PROT_READ, MAP_SHARED, fd, 0);
    CHECK(m != MAP_FAILED);
    if (m == MAP_FAILED) return;
    for (i = 0; i < (16u << 20); i += 4096) touched += m[i];
    CHECK(rb_evict(p, &e) == RB_OK);
    f = resident_fraction(p);
    CHECKF(f > 0.99, "mapped pages were evicted (%.3f resident): the kernel changed?", f);
    CHECK(munmap(m, 16u << 20) == 0);
    close(fd);
    CHECK(rb_evict(p, &e) == RB_OK);
    CHECK(resident_fraction(p) < 0.01);

    /* through the runner: mmap touches pages in the warmup; evict-each must still get them out */
    memset(&c, 0, sizeof c);
    c.path = p;
    c.threads = 1;
    c.warmup_ns = 30000000;
    c.duration_ns = 100000000;   /* a cold fault reads 8 MiB around it: an iteration holds some ops */
    c.iterations = 2;
    c.cache = RB_CACHE_EVICT_EACH;
    CHECKF(rb_run(&c, rb_strategy_find("mmap"), &res) == RB_OK, "%s", res.reason);
    CHECKF(res.resident_before >= 0 && res.resident_before <= 16, "%lld pages resident after evict-each",
           (long long)res.resident_before);
    CHECK(res.evict_seconds > 0);
    c.cache = RB_CACHE_EVICT;
    c.warmup_ns = RB_NONE;
    CHECK(rb_run(&c, rb_strategy_find("pread"), &res) == RB_OK);
    CHECK(res.resident_before >= 0 && res.resident_before <= 16);
    CHECK(res.resident_after > res.resident_before);
}

#ifndef RB_NO_TOOLS   /* the hog is layer 3's (a pressure state of advise and the CLI) */
static long vm_locked_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    if (!f) return -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmLck:", 6) == 0) v = atol(line + 6);
    fclose(f);
    return v;
}

static void hog_pins_what_it_says(void)
{
    rb_hog h;
    rb_error e;
    long before = vm_locked_kb(), during;
#if defined(__SANITIZE_ADDRESS__)
    SKIP("AddressSanitizer turns mlock into a no-op");
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    SKIP("AddressSanitizer turns mlock into a no-op");
#endif
#endif
    if (before < 0) SKIP("no /proc/self/status VmLck here");
    if (rb_hog_take(&h, 64u << 20, &e) != RB_OK) {
        if (!rbt_is_root()) SKIP(e.msg);   /* RLIMIT_MEMLOCK too low for a user */
        CHECKF(0, "%s", e.msg);
        return;
    }
    during = vm_locked_kb();
    if (h.locked) CHECKF(during - before == 64 * 1024, "VmLck went from %ld to %ld kB", before, during);
    else fprintf(stderr, "    mlock refused (RLIMIT_MEMLOCK), no swap: the hog is touched, not locked\n");
    CHECK(rb_hog_release(&h, &e) == RB_OK);
    CHECK(vm_locked_kb() == before);
    CHECK(h.mem == NULL && h.size == 0);
}
#endif

/* NORMAL mappings read around every cold fault (read_ahead_kb, 8 MiB here); RANDOM reads
   what was touched. The device bytes the workers caused say so. */
static void amplification_normal_vs_random(void)
{
    const char *p;
    rb_config c;
    struct stat st;
    double normal, random;
    if (stat("/proc/thread-self/io", &st) != 0) SKIP("no /proc/thread-self/io: no device byte counts");
    p = file_of("amp.dat", 512u << 20);
    CHECK(p != NULL);
    if (!p) return;
    memset(&c, 0, sizeof c);
    c.path = p;
    c.threads = 1;
    c.warmup_ns = RB_NONE;
    c.duration_ns = 60000000;
    c.iterations = 1;
    c.read_size = 16384;
    c.reads_per_op = 1;
    c.align = 4096;
    c.cache = RB_CACHE_EVICT_EACH;
    CHECK(rb_run(&c, rb_strategy_find("mmap"), &res) == RB_OK);
    normal = res.read_amplification;
    if (res.device_read_bytes < 0) SKIP("no device byte counts in this build (RB_NO_LINUX or not Linux)");
    if (res.device_read_bytes == 0) SKIP("no device reads counted: the file is not on a block device (tmpfs?)");
    CHECK(rb_run(&c, rb_strategy_find("mmap-random"), &res) == RB_OK);
    random = res.read_amplification;
    fprintf(stderr, "    amplification: mmap %.1f, mmap-random %.2f (majflt %lld)\n", normal, random,
            (long long)res.majflt);
    CHECKF(normal > 20, "mmap NORMAL amplification %.2f", normal);
    CHECKF(random > 0.9 && random < 1.5, "mmap-random amplification %.2f", random);
    CHECK(res.majflt > 0);
}

#ifndef RB_NO_REPORTS
/* One cell of `name` on p with c; the matrix's report written in `format` into a string
   (malloc'd, the caller frees). */
static char *cell_report(const rb_config *c, const char *name, int format, rb_result *out)
{
    const rb_strategy *s = rb_strategy_find(name);
    rb_matrix m;
    rb_report rep;
    char *buf = NULL;
    size_t len = 0;
    FILE *f;
    memset(&m, 0, sizeof m);
    m.cfg = *c;
    m.strategies = &s;
    m.nstrategies = 1;
    if (rb_run_matrix(&m, &rep) != RB_OK || rep.count != 1) return NULL;
    *out = rep.results[0];
    f = open_memstream(&buf, &len);
    if (f) {
        rb_report_write(f, &rep, format);
        fclose(f);
    }
    rb_report_free(&rep);
    out->samples = NULL;   /* freed with the report */
    return buf;
}
#endif

/* A preparation that did not happen is a failed cell, not a result. The test process maps
   every page of the file (and locks them where mlock works; ASan makes it a no-op), so no
   eviction can remove them (the kernel skips mapped pages), as another cgroup's process that
   maps or holds them would: a cold cell (evicted once, or before each iteration), a half-cold
   one and a pressure one each find the file whole when measuring starts, and fail with
   RB_ESTATE and the reason in every format (a pressure cell in a memory cgroup used to measure
   100% resident, every read a hit, and say nothing). Unlocked, the same cells run. */
static void unmade_states_fail_the_cell(void)
{
    const char *p = file_of("locked.dat", 16u << 20);
    rb_config c;
    void *map;
    volatile unsigned char sum = 0;
    size_t off;
    int fd;
    if (!p) { CHECK(p != NULL); return; }
    if (resident_fraction(p) < 0) SKIP("residency cannot be counted here");
    fd = open(p, O_RDONLY);
    CHECK(fd >= 0);
    if (fd < 0) return;
    map = mmap(NULL, 16u << 20, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED) { CHECK(map != MAP_FAILED); return; }
    for (off = 0; off < (16u << 20); off += 4096) sum += ((const unsigned char *)map)[off];   /* every page mapped */
    (void)sum;
    if (mlock(map, 16u << 20) != 0) fprintf(stderr, "    mlock refused (%s): the pages are held by the mapping alone\n",
                                           strerror(errno));
    memset(&c, 0, sizeof c);
    c.path = p;
    c.threads = 1;
    c.warmup_ns = RB_NONE;
    c.duration_ns = 20000000;
    c.iterations = 1;
    c.cache = RB_CACHE_EVICT_EACH;
    rb_run(&c, rb_strategy_find("pread"), &res);
    CHECKF(res.status == RB_ESTATE && strstr(res.reason, "100.0% of it was resident as iteration 1 began") &&
           strstr(res.reason, "the eviction did not happen") && res.reason[strlen(res.reason) - 1] == ')',
           "cold: %d %s", res.status, res.reason);
    c.cache = RB_CACHE_EVICT;
    rb_run(&c, rb_strategy_find("mmap"), &res);
    CHECKF(res.status == RB_ESTATE && strstr(res.reason, "the eviction did not happen"), "evict: %d %s", res.status,
           res.reason);
    c.cache = RB_CACHE_KEEP;
    c.prewarm = 0.5;
    rb_run(&c, rb_strategy_find("pread"), &res);
    CHECKF(res.status == RB_ESTATE && strstr(res.reason, "a prewarm of 0.50 did not happen: 100.0%"), "half-cold: %d %s",
           res.status, res.reason);
    c.prewarm = 1;
    c.pressure = 1;
    rb_run(&c, rb_strategy_find("pread"), &res);
    CHECKF(res.status == RB_ESTATE && strstr(res.reason, "memory pressure was asked for, but 100.0%") &&
           res.reason[strlen(res.reason) - 1] == ')',   /* whole: the reason fits its buffer */
           "pressure: %d %s", res.status, res.reason);
    c.pressure = 0;
    c.prewarm = 0;
    c.cache = RB_CACHE_EVICT_EACH;
    c.read_size = 4096;   /* O_DIRECT reads the device whatever is resident: it has no state to miss */
    rb_run(&c, rb_strategy_find("direct"), &res);
    CHECKF(res.status != RB_ESTATE, "direct: %s", res.reason);
    c.read_size = 0;
#ifndef RB_NO_REPORTS
    {   /* the reason reaches every format; no figure of the cell does (the reports' part) */
        static const int formats[] = {RB_FORMAT_TABLE, RB_FORMAT_MARKDOWN, RB_FORMAT_CSV, RB_FORMAT_JSON};
        rb_result r;
        unsigned k;
        for (k = 0; k < 4; k++) {
            char *out = cell_report(&c, "pread", formats[k], &r);
            CHECKF(out && r.status == RB_ESTATE && strstr(out, "the eviction did not happen") && strstr(out, "error"),
                   "format %d: %s", formats[k], out ? out : "(no report)");
            if (formats[k] == RB_FORMAT_JSON) CHECK(out && strstr(out, "\"ops_per_ms\": null"));
            free(out);
        }
    }
#endif
    CHECK(munmap(map, 16u << 20) == 0);   /* unlocks too */
    rb_run(&c, rb_strategy_find("pread"), &res);   /* unlocked: the eviction happens, the cell runs */
    CHECKF(res.status == RB_OK || strstr(res.reason, "no op completed"), "%d %s", res.status, res.reason);
    c.cache = RB_CACHE_KEEP;
    c.prewarm = 0.5;
    rb_run(&c, rb_strategy_find("pread"), &res);
    CHECKF(res.status == RB_OK || strstr(res.reason, "no op completed"), "%d %s", res.status, res.reason);
}

static void drop_caches_needs_root(void)
{
    rb_error e;
    int rc;
    ALONE();   /* as root it evicts every file: the other suites' warm files too */
    rc = rb_drop_caches(&e);
    if (rc == RB_UNSUPPORTED) SKIP(e.msg);   /* the portable build has no drop_caches */
    if (rbt_is_root()) CHECKF(rc == RB_OK || rc == RB_EPERM, "%s", e.msg);   /* a container may refuse root */
    else CHECK(rc == RB_EPERM && strstr(e.msg, "root") != NULL);
}

#ifndef RB_NO_TOOLS
/* The library never prints: a munmap that fails (here: an address no mapping starts at) comes
   back as the status and the message, and stderr stays empty. */
static void hog_release_reports_instead_of_printing(void)
{
    rb_hog h;
    rb_error e;
    const char *log = rbt_path("hog-stderr");
    int saved, fd;
    char buf[256] = "";
    FILE *f;
    size_t n = 0;
    memset(&h, 0, sizeof h);
    h.mem = (void *)1;   /* not page aligned: munmap says EINVAL */
    h.size = 4096;
    fflush(stderr);
    saved = dup(2);
    fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (saved < 0 || fd < 0) { CHECKF(0, "dup/open: %s", strerror(errno)); return; }
    dup2(fd, 2);
    close(fd);
    memset(&e, 0, sizeof e);
    CHECK(rb_hog_release(&h, &e) == RB_ESYS);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    if ((f = fopen(log, "r"))) { n = fread(buf, 1, sizeof buf - 1, f); fclose(f); }
    CHECKF(n == 0, "the library wrote to stderr: %s", buf);
    CHECKF(strstr(e.msg, "releasing the hog") != NULL, "message: %s", e.msg);
    CHECK(e.status == RB_ESYS && e.err == EINVAL);
    CHECK(h.mem == NULL && h.size == 0);
}
#endif

void suite_cache(void)
{
    RUN(prewarm_makes_that_fraction_resident);
    RUN(mapped_pages_survive_fadvise_unless_unmapped);
#ifndef RB_NO_TOOLS
    RUN(hog_pins_what_it_says);
    RUN(hog_release_reports_instead_of_printing);
#endif
    RUN(amplification_normal_vs_random);
    RUN(drop_caches_needs_root);
    RUN(unmade_states_fail_the_cell);
}
