#define _GNU_SOURCE
#include "readbench.h"
#include "rbtest.h"
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* A sparse 2 GiB file: readahead adds page-cache pages for holes as for data, and the probe
   counts page-cache pages, so it needs no 2 GiB of writes. */
static const char *probe_file(void)
{
    static int made;
    static char p[512];
    snprintf(p, sizeof p, "%s", rbt_path("probe.dat"));
    if (!made) {
        int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || ftruncate(fd, (off_t)2 << 30) != 0) return NULL;
        close(fd);
        made = 1;
    }
    return p;
}

static rb_probe_result r;

/* Without read_ahead_kb (the portable build reads no /sys) there is nothing to expect. */
static int have_readahead(void)
{
    rb_env env;
    rb_env_collect(&env, probe_file());
    return env.read_ahead_kb > 4;
}

static long probe(int id)
{
    const char *p = probe_file();
    if (!p || rb_probe(p, id, &r) != RB_OK) {
        fprintf(stderr, "    case %d: %s\n", id, r.reason);
        return -1;
    }
    fprintf(stderr, "    case %-2s: expected %ld, observed %ld\n", r.name, r.expected_pages, r.observed_pages);
    return r.observed_pages;
}

static void random_mapping_loads_one_page(void)
{
    long n = probe(1);
    CHECK(n == 1);
    CHECK(r.agrees);
    CHECK(probe(6) == 1);   /* the last advice, RANDOM, holds */
}

static void sequential_and_normal_load_more(void)
{
    rb_env env;
    long n, ra;
    if (!have_readahead()) SKIP("read_ahead_kb is unknown here, or too small to tell readahead from one page");
    rb_env_collect(&env, probe_file());
    n = probe(2);
    ra = env.read_ahead_kb * 1024 / env.page_size;
    CHECKF(n > 1, "SEQUENTIAL loaded %ld", n);
    CHECK(probe(5) > 1);
    /* NORMAL reads around the fault until 100 misses, then one page (case 9's last reads) */
    /* NORMAL after 100 isolated misses: still reading around here (fault-around's hits on
       the pages just read count mmap_miss back down); the probe says which this kernel does */
    n = probe(9);
    CHECKF(n == 1 || n >= ra / 2, "after 100 misses NORMAL loaded %ld", n);
    CHECK(r.agrees);
    CHECK(probe(10) > 1);   /* SEQUENTIAL never gives up */
}

static void advice_on_one_mapping_does_not_change_another(void)
{
    if (!have_readahead()) SKIP("read_ahead_kb is unknown here, or too small to tell readahead from one page");
    CHECK(probe(1) == 1);   /* RANDOM, although a SEQUENTIAL mapping of the file was made after it */
    CHECK(probe(3) > 1);    /* SEQUENTIAL, although a RANDOM one was made after it */
    CHECK(probe(4) == 1);
}

static void pread_and_direct(void)
{
    CHECK(probe(12) >= 1);
    CHECK(probe(13) == 1);   /* FADV_RANDOM: exactly what was asked */
    if (rb_probe(probe_file(), 15, &r) == RB_UNSUPPORTED) SKIP(r.reason);
    CHECK(probe(15) == 0);   /* O_DIRECT adds nothing to the page cache */
}

/* One WILLNEED over 64 MiB or 1 GiB loads what force_page_cache_ra() allows one request,
   max(read_ahead_kb, max_sectors_kb), and no more: the rest of the range is not loaded. */
static void willneed_over_a_large_range_loads_the_cap(void)
{
    rb_env env;
    long n64, n1g, cap;
    if (!have_readahead()) SKIP("read_ahead_kb is unknown here, or too small to tell readahead from one page");
    rb_env_collect(&env, probe_file());
    cap = (env.read_ahead_kb > env.max_sectors_kb ? env.read_ahead_kb : env.max_sectors_kb) * 1024 / env.page_size;
    n64 = probe(16);
    CHECKF(r.agrees, "64 MiB: %ld pages, expected %ld", n64, r.expected_pages);
    CHECK(n64 == (cap < 16384 ? cap : 16384));
    n1g = probe(17);
    CHECKF(r.agrees, "1 GiB: %ld pages, expected %ld", n1g, r.expected_pages);
    CHECKF(n1g == cap && n1g < 262144, "1 GiB loaded %ld pages of 262144", n1g);
}

/* fadvise on a file that is also mapped fills the page cache the mapping reads from; two
   mappings of one descriptor read as each was advised. */
static void hints_and_advice_on_mapped_files(void)
{
    if (!have_readahead()) SKIP("read_ahead_kb is unknown here, or too small to tell readahead from one page");
    CHECK(probe(18) > 0);
    CHECKF(r.agrees, "fadvise-mapped: %s", r.reason);
    CHECK(probe(19) == 1 && r.agrees);   /* RANDOM, though the descriptor also has a SEQUENTIAL mapping */
    CHECK(probe(20) > 1);                /* SEQUENTIAL, though the descriptor also has a RANDOM one */
}

/* Sequential preads from the file's start: the window opens at 2-4x the read and grows with
   each mark reached, up to read_ahead_kb. */
static void pread_window_grows(void)
{
    unsigned i;
    long most = 0;
    if (!have_readahead()) SKIP("read_ahead_kb is unknown here, or too small to tell readahead from one page");
    CHECK(probe(21) > 0);
    CHECK(r.nseries == RB_PROBE_SERIES);
    fprintf(stderr, "    %s\n", r.reason);
    for (i = 1; i < r.nseries; i++) most = r.observed_series[i] > most ? r.observed_series[i] : most;
    CHECKF(r.observed_series[0] > 0 && most > r.observed_series[0], "the window did not grow: %s", r.reason);
    CHECKF(r.expected_series[0] == r.observed_series[0], "the first window: %s", r.reason);
}

/* MADV_COLD and MADV_PAGEOUT leave a page mapped twice alone; with one mapping left,
   PAGEOUT reclaims them. */
static void reclaim_advice_skips_pages_mapped_twice(void)
{
    if (rb_probe(probe_file(), 22, &r) == RB_UNSUPPORTED) SKIP(r.reason);
    CHECK(probe(22) == 0);
    CHECKF(r.agrees, "cold: %s", r.reason);
    CHECK(probe(23) == 0);
    CHECKF(r.agrees, "pageout: %s", r.reason);
}

/* One probe case under perf: the tracepoint's folio events for the file's inode and the
   probe's observed pages (-1: not read). */
static void probe_under_perf(const char *p, unsigned long ino, const char *kase, long *events, long *observed)
{
    char cmd[1024], line[256];
    FILE *f;
    *events = *observed = -1;
    snprintf(cmd, sizeof cmd,
             "perf stat -x, -e filemap:mm_filemap_add_to_page_cache --filter 'i_ino == %lu' -o %s "
             "../readbench probe '%s' --case %s --format json --output %s 2>/dev/null",
             ino, rbt_path("perf.csv"), p, kase, rbt_path("probe.json"));
    CHECK(system(cmd) == 0);
    f = fopen(rbt_path("perf.csv"), "r");
    while (f && fgets(line, sizeof line, f))
        if (strstr(line, "mm_filemap_add_to_page_cache")) *events = atol(line);
    if (f) fclose(f);
    f = fopen(rbt_path("probe.json"), "r");
    while (f && fgets(line, sizeof line, f)) {
        char *o = strstr(line, "\"observed_pages\": ");
        if (o) *observed = atol(o + 18);
    }
    if (f) fclose(f);
}

/* The cross-check: the kernel's own tracepoint counts the folios added for the file's inode.
   A case that disagrees is run again, up to 3 times: another suite's drop_caches between the
   probe's hint and its count makes the pages be added twice (1026 events for 1022 pages, once,
   in make test beside two busy loops). */
static void agrees_with_the_tracepoint(void)
{
    char cmd[1024], p[512];
    /* after "2": readahead that may add large folios (one event, many pages) */
    const char *cases[] = {"1", "6", "pread-fadv-random", "willneed-64m", "one-fd-random", "fadvise-mapped", "2",
                           "one-fd-sequential", "pread-window"};
    struct stat st;
    unsigned i, attempt;
    if (!rbt_is_root()) SKIP("needs root for the filemap tracepoint");
    if (!have_readahead()) SKIP("read_ahead_kb is unknown in this build: the probe has no expectation");
    if (system("perf stat -e filemap:mm_filemap_add_to_page_cache true >/dev/null 2>&1") != 0)
        SKIP("perf or the filemap:mm_filemap_add_to_page_cache tracepoint is not available");
    if (access("../readbench", X_OK) != 0) SKIP("../readbench is not built (run make test)");
    snprintf(p, sizeof p, "%s", probe_file());   /* rbt_path's buffers are reused below */
    CHECK(stat(p, &st) == 0);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        long events = -1, observed = -1;
        int ok = 0;
        for (attempt = 0; attempt < 3 && !ok; attempt++) {
            probe_under_perf(p, (unsigned long)st.st_ino, cases[i], &events, &observed);
            fprintf(stderr, "    case %s: tracepoint %ld folios, readbench %ld pages\n", cases[i], events, observed);
            /* from "2" on, readahead may add large folios: one event can be many pages */
            ok = i >= 6 ? events >= 1 && events <= observed : events == observed && events >= 1;
        }
        if (i >= 6) {
            CHECKF(ok, "case %s: %ld folio events for %ld pages", cases[i], events, observed);
            continue;
        }
        CHECKF(ok, "case %s: tracepoint %ld, readbench %ld", cases[i], events, observed);
        if (!ok) {
            snprintf(cmd, sizeof cmd, "cat %s %s >&2", rbt_path("probe.json"), rbt_path("perf.csv"));
            if (system(cmd) != 0) {}
        }
    }
}

void suite_probe(void)
{
    RUN(agrees_with_the_tracepoint);
    RUN(random_mapping_loads_one_page);
    RUN(sequential_and_normal_load_more);
    RUN(advice_on_one_mapping_does_not_change_another);
    RUN(pread_and_direct);
    RUN(willneed_over_a_large_range_loads_the_cap);
    RUN(hints_and_advice_on_mapped_files);
    RUN(pread_window_grows);
    RUN(reclaim_advice_skips_pages_mapped_twice);
}
