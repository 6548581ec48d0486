#define _GNU_SOURCE
#include "readbench.h"
#include "rbtest.h"

static void sizes_accept_every_spelling(void)
{
    uint64_t v;
    struct { const char *s; uint64_t want; } ok[] = {
        {"4096", 4096}, {"16k", 16384}, {"16K", 16384}, {"16kb", 16384}, {"16KiB", 16384},
        {"512m", 512ull << 20}, {"512MiB", 512ull << 20}, {"4g", 4ull << 30}, {"4GiB", 4ull << 30},
        {"1t", 1ull << 40}, {"1TiB", 1ull << 40}, {"0", 0}, {"7b", 7},
        {"1.5g", 3ull << 29}, {"0.5k", 512}, {"1e3", 1000}, {"1e3k", 1024000}, {"010", 10},
    };
    unsigned i;
    for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        v = 12345;
        CHECKF(rb_parse_size(ok[i].s, &v) == RB_OK && v == ok[i].want, "%s -> %llu", ok[i].s,
               (unsigned long long)v);
    }
}

static void sizes_reject_garbage_and_overflow(void)
{
    const char *bad[] = {"16q", "-1", "", "k", "16 k", "16kk", "16kibx", "99999999999t",
                         "18446744073709551616", "0.1k", "1.5", "+4", "16ki", "0x10", " 4k", "4k ", "1e"};
    unsigned i;
    uint64_t v;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECKF(rb_parse_size(bad[i], &v) != RB_OK, "'%s' was accepted", bad[i]);
}

static void durations(void)
{
    int64_t ns;
    CHECK(rb_parse_duration("500ms", &ns) == RB_OK && ns == 500000000);
    CHECK(rb_parse_duration("0.2s", &ns) == RB_OK && ns == 200000000);
    CHECK(rb_parse_duration("5s", &ns) == RB_OK && ns == 5000000000LL);
    CHECK(rb_parse_duration("2", &ns) == RB_OK && ns == 2000000000LL);
    CHECK(rb_parse_duration("250us", &ns) == RB_OK && ns == 250000);
    CHECK(rb_parse_duration("1m", &ns) == RB_OK && ns == 60000000000LL);
    CHECK(rb_parse_duration("0s", &ns) == RB_OK && ns == 0);
    CHECK(rb_parse_duration("-1s", &ns) != RB_OK);
    CHECK(rb_parse_duration("5x", &ns) != RB_OK);
    CHECK(rb_parse_duration("", &ns) != RB_OK);
    CHECK(rb_parse_duration("s", &ns) != RB_OK);
    CHECK(rb_parse_duration("99999999999999h", &ns) != RB_OK);
}

static void lists(void)
{
    unsigned u[8], n = 0;
    uint64_t s[8];
    double d[8];
    CHECK(rb_parse_uint_list("1,4,8,16", u, 8, &n) == RB_OK && n == 4 && u[0] == 1 && u[3] == 16);
    CHECK(rb_parse_uint_list("1,,4", u, 8, &n) != RB_OK);
    CHECK(rb_parse_uint_list(",4", u, 8, &n) != RB_OK);
    CHECK(rb_parse_uint_list("4,", u, 8, &n) != RB_OK);
    CHECK(rb_parse_uint_list("-1", u, 8, &n) != RB_OK);
    CHECK(rb_parse_uint_list("4294967296", u, 8, &n) != RB_OK);
    CHECK(rb_parse_uint_list("1,2,3,4,5,6,7,8,9", u, 8, &n) != RB_OK);
    CHECK(rb_parse_size_list("16k,64k,128k", s, 8, &n) == RB_OK && n == 3 && s[2] == 131072);
    CHECK(rb_parse_size_list("16k,,64k", s, 8, &n) != RB_OK);
    CHECK(rb_parse_double_list("50,99,99.99", d, 8, &n) == RB_OK && n == 3 && d[2] == 99.99);
    CHECK(rb_parse_double_list("50,nan", d, 8, &n) != RB_OK);
    CHECK(rb_parse_double_list("inf", d, 8, &n) != RB_OK);
}

static void format_size(void)
{
    char b[32];
    rb_format_size(16384, b, sizeof b);
    CHECK(strcmp(b, "16 KiB") == 0);
    rb_format_size(1u << 30, b, sizeof b);
    CHECK(strcmp(b, "1 GiB") == 0);
    rb_format_size(1000, b, sizeof b);
    CHECK(strcmp(b, "1000 B") == 0);
}

static void status_strings(void)
{
    CHECK(strcmp(rb_status_string(RB_OK), "ok") == 0);
    CHECK(strcmp(rb_status_string(RB_UNSUPPORTED), "unsupported here") == 0);
    CHECK(strcmp(rb_status_string(12345), "unknown status") == 0);
}

/* The device's interrupt CPUs, from /proc/interrupts text (the project's VM, trimmed, with a
   virtio10 that must not count as virtio1 and an NVMe spread over queues). */
static void irq_cpus_from_proc_interrupts(void)
{
    static const char vm[] =
        "           CPU0       CPU1       \n"
        " 35:          0          1 PCI-MSIX-0000:00:02.0   0-edge      virtio1-config\n"
        " 36:          0    8513057 PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0\n"
        " 37:      99999          0 PCI-MSIX-0000:00:03.0   1-edge      virtio10-req.0\n"
        " 38:  900000000          0 PCI-MSIX-0000:00:04.0   1-edge      eth0, virtio1x\n"
        "NMI:          0          0   Non-maskable interrupts\n"
        "ERR:          0\n";
    static const char nvme[] =
        "   CPU0 CPU1 CPU2 CPU3\n"
        " 40: 500 0 0 0 IR-PCI-MSI 1-edge nvme0q0\n"
        " 41: 0 7000 0 0 IR-PCI-MSI 2-edge nvme0q1\n"
        " 42: 0 0 0 9000 IR-PCI-MSI 3-edge nvme0q2\n"
        " 43: 0 0 5 0 IR-PCI-MSI 4-edge nvme1q1\n";
    char out[64];
    CHECK(rb_irq_cpus(vm, "virtio1", out, sizeof out) == 0 && strcmp(out, "1") == 0);
    CHECK(rb_irq_cpus(vm, "virtio10", out, sizeof out) == 0 && strcmp(out, "0") == 0);
    CHECK(rb_irq_cpus(vm, "eth0", out, sizeof out) == 0 && strcmp(out, "0") == 0);
    CHECK(rb_irq_cpus(nvme, "nvme0", out, sizeof out) == 0 && strcmp(out, "0,1,3") == 0);
    CHECK(rb_irq_cpus(nvme, "nvme1", out, sizeof out) == 0 && strcmp(out, "2") == 0);
    CHECK(rb_irq_cpus(vm, "sda", out, sizeof out) == -1 && out[0] == 0);
    CHECK(rb_irq_cpus("", "virtio1", out, sizeof out) == -1);
}

void suite_parse(void)
{
    RUN(sizes_accept_every_spelling);
    RUN(sizes_reject_garbage_and_overflow);
    RUN(durations);
    RUN(lists);
    RUN(format_size);
    RUN(status_strings);
    RUN(irq_cpus_from_proc_interrupts);
}
