/* Demonstrates checking how much of a set of files is in the page cache, and evicting one:
   a tiny vmtouch. Prints each file's cached pages (cachestat, or mincore); with -e FILE it
   evicts that file first and says how much stayed.

   build: cc -O2 -I.. cached.c -o cached -lpthread -lm
   run:   ./cached [-e FILE] FILE... */
#define READBENCH_IMPLEMENTATION
#include "readbench.h"

static int show(const char *path)
{
    rb_residency_info ri;
    rb_error err;
    if (rb_residency(path, &ri, &err) != RB_OK) { fprintf(stderr, "%s\n", err.msg); return 1; }
    if (!ri.trusted) {   /* the kernel would say "all cached": do not print a wrong number */
        printf("%-40s cannot be trusted (not owner, not writable)\n", path);
        return 0;
    }
    printf("%-40s %10llu / %-10llu pages cached  %5.1f%%  [%s]\n", path, (unsigned long long)ri.resident,
           (unsigned long long)ri.pages, ri.pages ? 100.0 * (double)ri.resident / (double)ri.pages : 0.0, ri.method);
    return 0;
}

int main(int argc, char **argv)
{
    int i = 1, rc = 0;
    if (argc > 2 && strcmp(argv[1], "-e") == 0) {
        rb_error err;
        if (rb_evict(argv[2], &err) != RB_OK) { fprintf(stderr, "%s\n", err.msg); return 1; }
        printf("evicted %s:\n", argv[2]);
        rc |= show(argv[2]);
        i = 3;
    }
    if (i >= argc && i == 1) { fprintf(stderr, "usage: %s [-e FILE] FILE...\n", argv[0]); return 2; }
    for (; i < argc; i++) rc |= show(argv[i]);
    return rc;
}
