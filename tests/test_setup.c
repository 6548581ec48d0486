#define _GNU_SOURCE
#include "readbench.h"
#include "rbtest.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static unsigned char got[70000], want[70000];

static void setup_exact_size_not_sparse_content_matches(void)
{
    const char *p = rbt_path("odd.dat");
    uint64_t size = (9u << 20) + 12345;   /* not a multiple of the chunk, the page or 8 */
    struct stat st;
    rb_error e;
    uint64_t offs[] = {0, 1, 7, 4095, 4096, (8u << 20) - 3, size - 60000, size - 1};
    unsigned i;
    int fd;
    CHECK(rb_setup_file(p, size, 0, 0, NULL, NULL, &e) == RB_OK);
    CHECK(stat(p, &st) == 0 && (uint64_t)st.st_size == size);
    CHECK((uint64_t)st.st_blocks * 512 >= size);
    fd = open(p, O_RDONLY);
    CHECK(fd >= 0);
    for (i = 0; i < sizeof offs / sizeof offs[0]; i++) {
        size_t len = (size_t)(size - offs[i] < 60000 ? size - offs[i] : 60000);
        CHECK(pread(fd, got, len, (off_t)offs[i]) == (ssize_t)len);
        rb_fill_pattern(want, offs[i], len, RB_DATA_SEED);
        CHECKF(memcmp(got, want, len) == 0, "content differs at offset %llu", (unsigned long long)offs[i]);
    }
    /* the pattern is a function of the offset: an unaligned piece equals the aligned whole */
    rb_fill_pattern(want, 0, 64, RB_DATA_SEED);
    rb_fill_pattern(got, 3, 50, RB_DATA_SEED);
    CHECK(memcmp(want + 3, got, 50) == 0);
    /* and of the seed */
    rb_fill_pattern(got, 0, 64, 99);
    CHECK(memcmp(want, got, 64) != 0);
    close(fd);
}

static void setup_refuses_to_overwrite_without_force(void)
{
    const char *p = rbt_path("keep.dat");
    struct stat a, b;
    rb_error e;
    FILE *f = fopen(p, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs("precious", f);
    fclose(f);
    CHECK(stat(p, &a) == 0);
    CHECK(rb_setup_file(p, 1 << 20, 0, 0, NULL, NULL, &e) == RB_EEXIST);
    CHECK(strstr(e.msg, "exists") != NULL && strstr(e.msg, "--") == NULL);   /* main.c names the flag */
    CHECK(stat(p, &b) == 0 && b.st_size == 8 && b.st_mtime == a.st_mtime);
    CHECK(rb_setup_file(p, 1 << 20, 0, 1, NULL, NULL, &e) == RB_OK);
    CHECK(stat(p, &b) == 0 && b.st_size == (1 << 20));
}

static void check_file_sees_sparse_and_zero_files(void)
{
    const char *sp = rbt_path("sparse.dat"), *z = rbt_path("zero.dat");
    rb_file_info info;
    rb_error e;
    int fd = open(sp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    CHECK(fd >= 0 && ftruncate(fd, 64 << 20) == 0);
    close(fd);
    CHECK(rb_check_file(sp, 0, &info, &e) == RB_OK);
    CHECK(info.sparse && info.zero_head && info.size == (64u << 20));
    fd = open(z, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    memset(got, 0, sizeof got);
    CHECK(fd >= 0 && write(fd, got, sizeof got) == (ssize_t)sizeof got && fsync(fd) == 0);
    close(fd);
    CHECK(rb_check_file(z, 0, &info, &e) == RB_OK);
    CHECK(!info.sparse && info.zero_head);
    CHECK(rb_check_file(rbt_small_file(), 0, &info, &e) == RB_OK);
    CHECK(!info.sparse && !info.zero_head);
    CHECK(rb_check_file(rbt_small_file(), 1ull << 40, &info, &e) == RB_ETOOSMALL);
    CHECK(rb_check_file(rbt_path("missing.dat"), 0, &info, &e) == RB_ENOFILE);
    CHECK(mkdir(rbt_path("nothing-in-it"), 0755) == 0);   /* a directory is read as its files: none here */
    CHECK(rb_check_file(rbt_path("nothing-in-it"), 0, &info, &e) == RB_ENOTREG);
}

/* A size over the free space is refused before a byte is written (statvfs): a 1 MiB tmpfs
   (root only) and a 4 MiB file. A disk that fills up mid-setup: test_safety.c. */
static void setup_on_full_disk_removes_the_partial_file(void)
{
    const char *dir = rbt_path("tiny"), *p = rbt_path("tiny/big.dat");
    struct stat st;
    rb_error e;
    int rc;
    if (!rbt_is_root()) SKIP("needs root to mount a small tmpfs");
    CHECK(mkdir(dir, 0755) == 0);
    if (mount("tmpfs", dir, "tmpfs", 0, "size=1m") != 0) SKIP("cannot mount tmpfs here (container?)");
    rc = rb_setup_file(p, 4u << 20, 0, 0, NULL, NULL, &e);
    CHECK(rc == RB_ESYS);
    CHECK(e.err == ENOSPC);
    CHECKF(strstr(e.msg, "needs 4 MiB") != NULL && strstr(e.msg, "only 1 MiB free") != NULL, "%s", e.msg);
    CHECK(stat(p, &st) != 0 && errno == ENOENT);
    CHECK(umount(dir) == 0);
}

static void evict_and_residency(void)
{
    const char *p = rbt_small_file();
    rb_residency_info ri;
    rb_error e;
    CHECK(rb_load(p, &e) == RB_OK);
    CHECK(rb_residency(p, &ri, &e) == RB_OK);
    CHECK(ri.trusted && ri.pages == (8u << 20) / 4096 && ri.resident == ri.pages);
    CHECK(rb_evict(p, &e) == RB_OK);
    CHECK(rb_residency(p, &ri, &e) == RB_OK);
    CHECKF(ri.resident <= 4, "%llu pages still resident", (unsigned long long)ri.resident);
    CHECK(rb_evict(rbt_path("missing.dat"), &e) == RB_ENOFILE);
}

void suite_setup(void)
{
    RUN(setup_exact_size_not_sparse_content_matches);
    RUN(setup_refuses_to_overwrite_without_force);
    RUN(check_file_sees_sparse_and_zero_files);
    RUN(setup_on_full_disk_removes_the_partial_file);
    RUN(evict_and_residency);
}
