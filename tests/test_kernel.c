#define _GNU_SOURCE
/* The kernel's side of the environment and of warming a file: the memory cgroup that bounds a
   container (its parsers on fixture text, then a real child in a small v1 cgroup), the
   multi-generational LRU's state, and readbench warmup (each way of making a file resident). */
#include "readbench.h"
#include "rbtest.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- memory cgroups: the parsers on what the kernel writes ---- */

/* /proc/self/cgroup of a process in a v1 memory cgroup (a hybrid host: v2 at "0::" too), of
   one in the unified hierarchy only, and of one with memory merged with another controller. */
static const char cg_v1[] = "9:name=systemd:/\n8:pids:/\n4:memory:/process_api/1bae74e8\n3:cpuset:/\n0::/\n";
static const char cg_v2[] = "0::/user.slice/user-1000.slice/session-2.scope\n";
static const char cg_v1_merged[] = "5:cpu,cpuacct:/a\n4:memory,hugetlb:/docker/abc\n1:name=systemd:/docker/abc\n";
static const char cg_none[] = "4:cpu:/\n3:pids:/x\n";

static void memcg_paths_from_proc_self_cgroup(void)
{
    char path[256];
    int v = -1;
    CHECK(rb_memcg_path(cg_v1, &v, path, sizeof path) == 0);
    CHECK(v == 1 && !strcmp(path, "/process_api/1bae74e8"));   /* v1's memory line before the v2 line */
    CHECK(rb_memcg_path(cg_v2, &v, path, sizeof path) == 0);
    CHECK(v == 2 && !strcmp(path, "/user.slice/user-1000.slice/session-2.scope"));
    CHECK(rb_memcg_path(cg_v1_merged, &v, path, sizeof path) == 0);
    CHECK(v == 1 && !strcmp(path, "/docker/abc"));
    CHECK(rb_memcg_path(cg_none, &v, path, sizeof path) != 0 && v == 0);
    CHECK(rb_memcg_path("4:memoryx:/a\n", &v, path, sizeof path) != 0);   /* "memory" only as a whole name */
    CHECK(rb_memcg_path("", &v, path, sizeof path) != 0);
    CHECK(rb_memcg_path(cg_v1, &v, path, 8) != 0);   /* does not fit: said, not cut */
}

static void memcg_directory_from_mountinfo(void)
{
    char dir[512];
    /* the host's own view: the mount shows the hierarchy from its root */
    CHECK(rb_memcg_mount("34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n", 1,
                         "/process_api/x", dir, sizeof dir) == 0);
    CHECK(!strcmp(dir, "/sys/fs/cgroup/memory/process_api/x"));
    CHECK(rb_memcg_mount("34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n", 1, "/", dir,
                         sizeof dir) == 0 && !strcmp(dir, "/sys/fs/cgroup/memory"));
    /* a container that mounts its host's hierarchy from its own cgroup down */
    CHECK(rb_memcg_mount("1280 1279 0:31 /docker/abc /sys/fs/cgroup/memory ro,nosuid - cgroup cgroup rw,hugetlb,memory",
                         1, "/docker/abc/worker", dir, sizeof dir) == 0);
    CHECK(!strcmp(dir, "/sys/fs/cgroup/memory/worker"));
    CHECK(rb_memcg_mount("1280 1279 0:31 /docker/abc /sys/fs/cgroup/memory ro - cgroup cgroup rw,memory", 1,
                         "/docker/abcd", dir, sizeof dir) == 0 && !strcmp(dir, "/sys/fs/cgroup/memory"));
    /* other controllers and filesystems are not the memory hierarchy */
    CHECK(rb_memcg_mount("31 30 0:28 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu", 1, "/", dir, sizeof dir) != 0);
    CHECK(rb_memcg_mount("36 30 0:33 / /sys/fs/cgroup/x rw - cgroup cgroup rw,memoryx", 1, "/", dir, sizeof dir) != 0);
    CHECK(rb_memcg_mount("22 1 8:1 / / rw - ext4 /dev/sda1 rw", 2, "/", dir, sizeof dir) != 0);
    /* v2, with an escaped space in the mount point */
    CHECK(rb_memcg_mount("40 30 0:37 / /sys/fs/cgroup/my\\040cg rw - cgroup2 cgroup2 rw", 2, "/a.slice", dir,
                         sizeof dir) == 0 && !strcmp(dir, "/sys/fs/cgroup/my cg/a.slice"));
    CHECK(rb_memcg_mount("40 30 0:37 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw", 1, "/a", dir, sizeof dir) != 0);
    CHECK(rb_memcg_mount("no dash here", 2, "/", dir, sizeof dir) != 0);
}

static void memcg_limits_and_room(void)
{
    static const char stat_v1[] = "cache 1000\nrss 5\ninactive_file 7\nactive_file 9\ntotal_cache 1000\n"
                                  "total_inactive_file 4096\ntotal_active_file 8192\n";
    static const char stat_v2[] = "anon 100\nfile 300\nactive_anon 1\ninactive_anon 2\nactive_file 200\n"
                                  "inactive_file 100\n";
    CHECK(rb_memcg_limit("max\n") == -1);                      /* v2: no limit */
    CHECK(rb_memcg_limit("9223372036854771712\n") == -1);      /* v1: no limit, 4 KiB pages */
    CHECK(rb_memcg_limit("9223372036854710272\n") == -1);      /* v1: no limit, 64 KiB pages */
    CHECK(rb_memcg_limit("536870912\n") == 536870912LL);
    CHECK(rb_memcg_limit("0\n") == 0);
    CHECK(rb_memcg_limit("") == -2 && rb_memcg_limit("lots\n") == -2 && rb_memcg_limit("-5\n") == -2);
    CHECK(rb_memcg_stat(stat_v1, "total_inactive_file") == 4096);   /* not inactive_file's 7 */
    CHECK(rb_memcg_stat(stat_v1, "inactive_file") == 7);
    CHECK(rb_memcg_stat(stat_v2, "active_file") == 200 && rb_memcg_stat(stat_v2, "active_anon") == 1);
    CHECK(rb_memcg_stat(stat_v2, "total_active_file") == -1);
    /* room: limit - usage + the reclaimable page cache, within [0, limit] */
    CHECK(rb_memcg_room(-1, 100, 0) == -1);
    CHECK(rb_memcg_room(1000, 600, 100) == 500);
    CHECK(rb_memcg_room(1000, 900, 900) == 1000);   /* all cache: never above the limit */
    CHECK(rb_memcg_room(1000, 1500, 0) == 0);       /* over it (v1's usage is batched): never below 0 */
    CHECK(rb_memcg_room(1000, -1, -1) == 1000);
}

/* What `readbench run --format json` said in its "env": the value of key (a number), -1 for
   null, -2 when the key is missing. */
static double env_number(const char *json, const char *key)
{
    char why[128];
    rb_json *doc = rb_json_parse(json, strlen(json), why, sizeof why);
    const rb_json *env = doc ? rb_json_get(doc, "env") : NULL, *v = env ? rb_json_get(env, key) : NULL;
    double r = !v ? -2 : v->type == RB_JSON_NULL ? -1 : v->type == RB_JSON_NUMBER ? v->num : -3;
    rb_json_free(doc);
    return r;
}

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    int ok = f && fputs(text, f) >= 0;
    if (f && fclose(f) != 0) ok = 0;
    return ok;
}

/* A real container's limit: a child moved into a 256 MiB v1 memory cgroup sees it in the
   environment (the host's MemAvailable is gigabytes), and this process, outside it, does not. */
static void memcg_limit_reaches_the_environment(void)
{
    char own[1024], cg[1200], line[4096], out[1 << 16];
    const char *file = rbt_path("cg-env.dat"), *json = rbt_path("cg-env.json");
    rb_memcg mine;
    rb_error e;
    pid_t pid;
    int st;
    size_t n;
    FILE *f;
    double lim, avail;
#if defined(RB_NO_LINUX)
    SKIP("the portable build reads no /proc or cgroup figures");
#endif
    if (!rbt_is_root()) SKIP("needs root to make a memory cgroup");
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    if (!rbt_own_memcg(own, sizeof own)) SKIP("no writable cgroup v1 memory controller (/sys/fs/cgroup/memory)");
    snprintf(cg, sizeof cg, "%s/readbench-kernel-%d", own, (int)getpid());
    if (mkdir(cg, 0755) != 0) SKIP("cannot create a child memory cgroup here");
    snprintf(line, sizeof line, "%s/memory.limit_in_bytes", cg);
    CHECK(write_text(line, "268435456\n"));
    CHECK(rb_setup_file(file, (uint64_t)4 << 20, 0, 1, NULL, NULL, &e) == RB_OK);
    snprintf(line, sizeof line, "timeout -s KILL 60 '%s' run '%s' --strategies pread --threads 1 --warmup 0 "
             "--duration 200ms --iterations 1 --quiet --format json >'%s' 2>/dev/null", rbt_cli(), file, json);
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        char procs[1300];
        snprintf(procs, sizeof procs, "%s/cgroup.procs", cg);
        if (!write_text(procs, "0\n")) _exit(126);   /* "0": the writer itself */
        execl("/bin/sh", "sh", "-c", line, (char *)NULL);
        _exit(127);
    }
    CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
    f = fopen(json, "r");
    n = f ? fread(out, 1, sizeof out - 1, f) : 0;
    out[n] = 0;
    if (f) fclose(f);
    lim = env_number(out, "cgroup_memory_limit");
    avail = env_number(out, "ram_available");
    CHECKF(lim == 268435456.0, "cgroup_memory_limit %.0f in the child's env", lim);
    CHECKF(avail >= 0 && avail <= 268435456.0, "ram_available %.0f under a 256 MiB limit", avail);
    CHECKF(env_number(out, "cgroup_memory_usage") > 0, "the cgroup's usage is known");
    CHECKF(env_number(out, "file_ram_ratio") == 4194304.0 / 268435456.0, "file_ram_ratio %g: of the limit, not RAM",
           env_number(out, "file_ram_ratio"));
    if (rmdir(cg) != 0) fprintf(stderr, "    could not remove %s: %s\n", cg, strerror(errno));
    /* here, outside it: this process's own limit, or none */
    CHECK(rb_memcg_read(&mine) == 0);
    {
        rb_env env;
        rb_env_collect(&env, file);
        CHECK(env.cgroup_limit == mine.limit);
        CHECK(mine.limit < 0 || env.ram_available <= mine.limit);
    }
    unlink(file);
    unlink(json);
}

/* The pressure scenario in a memory cgroup while the file's pages are charged to another one
   (this process read the file, outside the child's cgroup): the child's pinned memory never
   reclaims pages charged elsewhere, so the cell measured 100% resident, every read a hit,
   no device byte, and said nothing. The cell evicts before its prewarm, the prewarm loads the
   file again inside the child's cgroup, and the pressure reaches it: ok, and less than all of
   it resident when measuring starts. */
static void pressure_reaches_pages_another_cgroup_loaded(void)
{
    char own[1024], cg[1200], line[4096], why[256];
    const char *file = rbt_path("cg-pressure.dat"), *json = rbt_path("cg-pressure.json");
    rb_error e;
    rb_json *doc;
    pid_t pid;
    int st;
#if defined(RB_NO_LINUX)
    SKIP("the portable build reads no /proc or cgroup figures");
#endif
    if (!rbt_is_root()) SKIP("needs root to make a memory cgroup");
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    if (RBT_ASAN) SKIP("built with ASan: its shadow memory does not fit the 384 MiB cgroup beside the pinned memory");
    if (!rbt_own_memcg(own, sizeof own)) SKIP("no writable cgroup v1 memory controller (/sys/fs/cgroup/memory)");
    snprintf(cg, sizeof cg, "%s/readbench-pressure-%d", own, (int)getpid());
    if (mkdir(cg, 0755) != 0) SKIP("cannot create a child memory cgroup here");
    snprintf(line, sizeof line, "%s/memory.limit_in_bytes", cg);
    CHECK(write_text(line, "402653184\n"));   /* 384 MiB: the hog leaves the 192 MiB file 1/1.2 of it */
    CHECK(rb_setup_file(file, (uint64_t)192 << 20, 0, 1, NULL, NULL, &e) == RB_OK);
    CHECK(rb_load(file, &e) == RB_OK);   /* resident, charged to this process's cgroup */
    snprintf(line, sizeof line, "timeout -s KILL 120 '%s' run '%s' --strategies pread --threads 1 --scenario pressure "
             "--duration 100ms --iterations 1 --quiet --format json >'%s' 2>'%s.err'", rbt_cli(), file, json, json);
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        char procs[1300];
        snprintf(procs, sizeof procs, "%s/cgroup.procs", cg);
        if (!write_text(procs, "0\n")) _exit(126);
        execl("/bin/sh", "sh", "-c", line, (char *)NULL);
        _exit(127);
    }
    st = -1;
    CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
    if (st != -1 && !(WIFEXITED(st) && WEXITSTATUS(st) <= 1)) {   /* what it said, for the failure's line */
        char err[512] = "";
        FILE *f;
        snprintf(line, sizeof line, "%s.err", json);
        if ((f = fopen(line, "r"))) {
            size_t n = fread(err, 1, sizeof err - 1, f);
            err[n] = 0;
            fclose(f);
        }
        CHECKF(0, "the run in the cgroup ended with status %d (signal %d): %s", WIFEXITED(st) ? WEXITSTATUS(st) : -1,
               WIFSIGNALED(st) ? WTERMSIG(st) : 0, err);
    }
    if (rmdir(cg) != 0) fprintf(stderr, "    could not remove %s: %s\n", cg, strerror(errno));
    doc = rb_json_load(json, why, sizeof why);
    CHECKF(doc != NULL, "%s", why);
    if (doc) {
        const rb_json *rs = rb_json_get(doc, "results"), *r = rs ? rs->child : NULL;
        const rb_json *stj = r ? rb_json_get(r, "status") : NULL, *res = r ? rb_json_get(r, "residency_before") : NULL;
        const rb_json *reason = r ? rb_json_get(r, "reason") : NULL;
        CHECKF(stj && stj->type == RB_JSON_STRING && !strcmp(stj->str, "ok"), "status %s: %s",
               stj && stj->str ? stj->str : "?", reason && reason->str ? reason->str : "");
        CHECKF(res && res->type == RB_JSON_NUMBER && res->num < 0.99, "resident before %.3f under pressure",
               res && res->type == RB_JSON_NUMBER ? res->num : -1);
        rb_json_free(doc);
    }
    unlink(file);
    unlink(json);
}

/* The multi-generational LRU's switch, as the kernel has it, or null where it has none. */
static void lru_gen_in_the_environment(void)
{
    char out[1 << 16], err[4096], args[1024], want[64] = "";
    const char *file = rbt_path("lru.dat");
    rb_env env;
    rb_error e;
    FILE *f = fopen("/sys/kernel/mm/lru_gen/enabled", "r");
    if (f) {
        if (fgets(want, sizeof want, f)) want[strcspn(want, "\n ")] = 0;
        fclose(f);
    }
#if defined(RB_NO_LINUX)
    want[0] = 0;   /* the portable build reads no /sys */
#endif
    CHECK(rb_setup_file(file, (uint64_t)1 << 20, 0, 1, NULL, NULL, &e) == RB_OK);
    rb_env_collect(&env, file);
    CHECKF(!strcmp(env.lru_gen, want), "lru_gen '%s', the kernel says '%s'", env.lru_gen, want);
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    snprintf(args, sizeof args, "run '%s' --strategies pread --threads 1 --warmup 0 --duration 10ms --iterations 1 "
             "--format json", file);
    CHECK(rbt_cli_run(rbt_tmpdir(), args, "60", out, sizeof out, err, sizeof err) == 0);
    if (want[0]) {
        char key[96];
        snprintf(key, sizeof key, "\"lru_gen_enabled\": \"%s\"", want);
        CHECKF(strstr(out, key) != NULL, "no %s in the env JSON", key);
    } else {
        CHECK(strstr(out, "\"lru_gen_enabled\": null") != NULL);
    }
    CHECKF(strstr(err, "MGLRU ") != NULL, "the banner names MGLRU: %s", err);
    unlink(file);
}

/* DAMON's pageout schemes, read from a copy of the sysfs tree: which ones page out a file page
   no process maps (the VM this was found on: unmapped file pages idle 12 x 5 s, 128 MiB/s),
   which spare it, the shortest idle time among several; then the machine's own tree agrees
   with rb_env_collect, and the env JSON carries it. */
static void damon_put(const char *root, const char *rel, const char *text)
{
    char p[1024], *q;
    FILE *f;
    snprintf(p, sizeof p, "%s/sys/kernel/mm/damon/admin/kdamonds/%s", root, rel);
    for (q = p + 1; (q = strchr(q, '/')) != NULL; q++) {   /* every directory on the way: EEXIST for the first ones */
        *q = 0;
        if (mkdir(p, 0755) != 0 && errno != EEXIST) CHECKF(0, "mkdir %s: %s", p, strerror(errno));
        *q = '/';
    }
    f = fopen(p, "w");
    CHECKF(f != NULL, "%s: %s", p, strerror(errno));
    if (f) { fprintf(f, "%s\n", text); fclose(f); }
}

/* One kdamond with one context (5 s aggregation) and the schemes given as (age, bytes, filter
   set): 0 none, 1 the VM's (anon: reject, unmapped: allow), 2 anon only allowed, 3 a memcg
   filter, 4 unmapped rejected. */
static const char *damon_tree(const char *name, const char *state, const char *action, const char *metric,
                              const int *age, const long *bytes, const int *filters, unsigned n)
{
    const char *root = rbt_path(name);
    char rel[256], num[32];
    unsigned i;
    damon_put(root, "nr_kdamonds", "1");
    damon_put(root, "0/state", state);
    damon_put(root, "0/contexts/nr_contexts", "1");
    damon_put(root, "0/contexts/0/operations", "paddr");
    damon_put(root, "0/contexts/0/monitoring_attrs/intervals/aggr_us", "5000000");
    snprintf(num, sizeof num, "%u", n);
    damon_put(root, "0/contexts/0/schemes/nr_schemes", num);
    for (i = 0; i < n; i++) {
        static const char *const kinds[][2][3] = {
            {{0}, {0}},
            {{"anon", "Y", "N"}, {"unmapped", "Y", "Y"}},
            {{"anon", "Y", "Y"}, {0}},
            {{"memcg", "Y", "N"}, {0}},
            {{"unmapped", "Y", "N"}, {0}},
        };
        unsigned k, nf = 0;
#define DAMON_AT(leaf) (snprintf(rel, sizeof rel, "0/contexts/0/schemes/%u/%s", i, leaf), rel)
        damon_put(root, DAMON_AT("action"), action);
        snprintf(num, sizeof num, "%d", age[i]);
        damon_put(root, DAMON_AT("access_pattern/age/min"), num);
        snprintf(num, sizeof num, "%ld", bytes[i]);
        damon_put(root, DAMON_AT("quotas/bytes"), num);
        damon_put(root, DAMON_AT("quotas/reset_interval_ms"), "1000");
        damon_put(root, DAMON_AT("watermarks/metric"), metric);
        damon_put(root, DAMON_AT("filters/nr_filters"), "0");
        damon_put(root, DAMON_AT("core_filters/nr_filters"), "0");
        for (k = 0; k < 2; k++) {
            char leaf[96];
            if (!kinds[filters[i]][k][0]) break;
            snprintf(leaf, sizeof leaf, "ops_filters/%u/type", k);
            damon_put(root, DAMON_AT(leaf), kinds[filters[i]][k][0]);
            snprintf(leaf, sizeof leaf, "ops_filters/%u/matching", k);
            damon_put(root, DAMON_AT(leaf), kinds[filters[i]][k][1]);
            snprintf(leaf, sizeof leaf, "ops_filters/%u/allow", k);
            damon_put(root, DAMON_AT(leaf), kinds[filters[i]][k][2]);
            nf++;
        }
        snprintf(num, sizeof num, "%u", nf);
        damon_put(root, DAMON_AT("ops_filters/nr_filters"), num);
#undef DAMON_AT
    }
    return root;
}

static void damon_pageout_from_sysfs(void)
{
    static const int age12[] = {12}, ages[] = {12, 4};
    static const long q128[] = {134217728}, qs[] = {134217728, 0};
    static const int vm[] = {1}, none[] = {0}, anon_only[] = {2}, memcg[] = {3}, unmapped_no[] = {4}, both[] = {1, 0};
    double idle;
    long long rate;
    int found;
    const char *root;
    rb_env env;
    char w[512], args[1024], out[1 << 16], err[8192];
    const char *file = rbt_path("damon.dat");
    rb_error e;
    CHECK(rb_env_damon(rbt_path("damon-absent"), &idle, &rate) == 0 && idle == -1 && rate == -1);
#if defined(RB_NO_LINUX)
    CHECK(rb_env_damon(damon_tree("damon-vm", "on", "pageout", "none", age12, q128, vm, 1), &idle, &rate) == 0);
    rb_env_collect(&env, NULL);
    CHECK(env.damon_pageout == 0);
    SKIP("the portable build reads no /sys: no DAMON is known there");
#endif
    CHECK(rb_env_damon(damon_tree("damon-vm", "on", "pageout", "none", age12, q128, vm, 1), &idle, &rate) == 1);
    CHECKF(idle == 60 && rate == 134217728, "idle %g s, %lld bytes/s", idle, rate);
    CHECK(rb_env_damon(damon_tree("damon-nofilter", "on", "pageout", "none", age12, q128, none, 1), &idle, &rate) == 1);
    CHECK(rb_env_damon(damon_tree("damon-off", "off", "pageout", "none", age12, q128, vm, 1), &idle, &rate) == 0);
    CHECK(rb_env_damon(damon_tree("damon-stat", "on", "stat", "none", age12, q128, vm, 1), &idle, &rate) == 0);
    CHECK(rb_env_damon(damon_tree("damon-wmark", "on", "pageout", "free_mem_rate", age12, q128, vm, 1), &idle, &rate) == 0);
    CHECK(rb_env_damon(damon_tree("damon-anon", "on", "pageout", "none", age12, q128, anon_only, 1), &idle, &rate) == 0);
    CHECK(rb_env_damon(damon_tree("damon-memcg", "on", "pageout", "none", age12, q128, memcg, 1), &idle, &rate) == 0);
    CHECK(rb_env_damon(damon_tree("damon-mapped", "on", "pageout", "none", age12, q128, unmapped_no, 1), &idle, &rate) == 0);
    CHECK(rb_env_damon(damon_tree("damon-two", "on", "pageout", "none", ages, qs, both, 2), &idle, &rate) == 1);
    CHECKF(idle == 20 && rate == 0, "the shortest: idle %g s, %lld bytes/s", idle, rate);
    /* a scheme on a process's mappings (vaddr) never takes unmapped page cache */
    root = damon_tree("damon-vaddr", "on", "pageout", "none", age12, q128, vm, 1);
    damon_put(root, "0/contexts/0/operations", "vaddr");
    CHECK(rb_env_damon(root, &idle, &rate) == 0);
    /* watermarks on free memory: it runs while free memory is between low and high */
    root = damon_tree("damon-band", "on", "pageout", "free_mem_rate", age12, q128, vm, 1);
    damon_put(root, "0/contexts/0/schemes/0/watermarks/high", "1000");
    damon_put(root, "0/contexts/0/schemes/0/watermarks/low", "0");
    CHECK(rb_env_damon(root, &idle, &rate) == 1);
    damon_put(root, "0/contexts/0/schemes/0/watermarks/high", "1");
    CHECK(rb_env_damon(root, &idle, &rate) == 0);
    /* the legacy filters follow ops_filters in one list: ops [unmapped allow] then [anon allow] */
    root = damon_tree("damon-legacy", "on", "pageout", "none", age12, q128, none, 1);
    damon_put(root, "0/contexts/0/schemes/0/ops_filters/nr_filters", "1");
    damon_put(root, "0/contexts/0/schemes/0/ops_filters/0/type", "unmapped");
    damon_put(root, "0/contexts/0/schemes/0/ops_filters/0/matching", "Y");
    damon_put(root, "0/contexts/0/schemes/0/ops_filters/0/allow", "Y");
    damon_put(root, "0/contexts/0/schemes/0/filters/nr_filters", "1");
    damon_put(root, "0/contexts/0/schemes/0/filters/0/type", "anon");
    damon_put(root, "0/contexts/0/schemes/0/filters/0/matching", "Y");
    damon_put(root, "0/contexts/0/schemes/0/filters/0/allow", "Y");
    CHECK(rb_env_damon(root, &idle, &rate) == 1);
    damon_put(root, "0/contexts/0/schemes/0/core_filters/nr_filters", "1");   /* an address range: not judged */
    CHECK(rb_env_damon(root, &idle, &rate) == 0);
    /* a quota past what a long long holds per second is held, not wrapped */
    root = damon_tree("damon-huge", "on", "pageout", "none", age12, q128, vm, 1);
    damon_put(root, "0/contexts/0/schemes/0/quotas/bytes", "9223372036854775807");
    damon_put(root, "0/contexts/0/schemes/0/quotas/reset_interval_ms", "1");
    CHECKF(rb_env_damon(root, &idle, &rate) == 1 && rate > 0, "%lld bytes/s", rate);
    /* the tree there but unreadable (as it is to anyone but root): unknown, not none */
    root = rbt_path("damon-unread");
    damon_put(root, "nr_kdamonds/x", "1");   /* nr_kdamonds a directory: its read fails */
    CHECK(rb_env_damon(root, &idle, &rate) == -1 && idle == -1);
    memset(&env, 0, sizeof env);   /* a zeroed env (as advise's tests make one): none */
    CHECK(rb_env_damon_warning(&env, w, sizeof w) == 0 && w[0] == 0);
    env.damon_pageout = 1;
    env.damon_idle_s = 60;
    env.damon_bytes_per_s = 134217728;
    CHECKF(rb_env_damon_warning(&env, w, sizeof w) == 1 && strstr(w, "untouched 60 s (up to 128 MiB/s)") && strlen(w) < RB_REASON_LEN - 1 &&
           strstr(w, "residency_after"), "%s", w);
    env.damon_bytes_per_s = 0;
    CHECKF(rb_env_damon_warning(&env, w, sizeof w) == 1 && strstr(w, "(no size quota)"), "%s", w);
    /* the machine's own: what rb_env_collect says is what the tree says */
    found = rb_env_damon("", &idle, &rate);
    rb_env_collect(&env, NULL);
    CHECKF(env.damon_pageout == found && env.damon_idle_s == idle, "env %d, %g s; the tree %d, %g s", env.damon_pageout,
           env.damon_idle_s, found, idle);
    if (found == 1) fprintf(stderr, "    DAMON here: page cache no process maps is paged out after %.0f s idle\n", idle);
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    CHECK(rb_setup_file(file, (uint64_t)1 << 20, 0, 1, NULL, NULL, &e) == RB_OK);
    snprintf(args, sizeof args, "run '%s' --strategies pread --threads 1 --warmup 0 --duration 10ms --iterations 1 "
             "--format json", file);
    CHECK(rbt_cli_run(rbt_tmpdir(), args, "60", out, sizeof out, err, sizeof err) == 0);
    CHECK(strstr(out, "\"damon_pageout_idle_s\": ") && strstr(out, "\"damon_pageout_bytes_per_s\": "));
    CHECK((found == 1) == (strstr(out, "\"damon_pageout_idle_s\": null") == NULL));
    CHECK(strstr(out, found == 1 ? "\"damon_pageout\": true" : found ? "\"damon_pageout\": null" : "\"damon_pageout\": false"));
    CHECK((found == 1) == (strstr(err, "# warning: DAMON pages out") != NULL));
    CHECK((found < 0) == (strstr(err, "# DAMON: its settings are root's") != NULL));
    unlink(file);
}

/* A fresh page's first touch is measured (the host's share of a fault on a VM), it reaches
   the banner and the env JSON, and the slow-touch warning says it only past 5 us. */
static void fresh_page_touch_is_measured(void)
{
    rb_env env;
    char w[512], args[1024], out[65536], err[8192];
    const char *file = rbt_path("touch.dat");
    rb_error e;
    unsigned tries = 0;
    do   /* beside the other suites a retouch can be preempted into costing more: up to 3 tries */
        rb_env_collect(&env, NULL);
    while (++tries < 3 && !(env.page_retouch_ns > 0 && env.page_retouch_ns < env.page_touch_ns));
    CHECKF(env.page_touch_ns > 0 && env.page_retouch_ns > 0 && env.page_retouch_ns < env.page_touch_ns,
           "first %.0f ns, again %.0f ns (%u tries)", env.page_touch_ns, env.page_retouch_ns, tries);
    fprintf(stderr, "    a fresh page: %.2f us, again %.2f us\n", env.page_touch_ns / 1000, env.page_retouch_ns / 1000);
    env.page_touch_ns = 4999;
    CHECK(rb_env_slow_touch_warning(&env, w, sizeof w) == 0 && w[0] == 0);
    env.page_touch_ns = 24300;
    env.page_retouch_ns = 60;
    CHECK(rb_env_slow_touch_warning(&env, w, sizeof w) == 1 && strstr(w, "a fresh page took 24.3 us to touch") &&
          strstr(w, "cpu_ns_per_read"));
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    CHECK(rb_setup_file(file, (uint64_t)1 << 20, 0, 1, NULL, NULL, &e) == RB_OK);
    snprintf(args, sizeof args, "run '%s' --strategies pread --threads 1 --warmup 0 --duration 10ms --iterations 1 "
             "--format json", file);
    CHECK(rbt_cli_run(rbt_tmpdir(), args, "60", out, sizeof out, err, sizeof err) == 0);
    CHECK(strstr(out, "\"page_touch_ns\": ") && !strstr(out, "\"page_touch_ns\": null") &&
          strstr(out, "\"page_retouch_ns\": "));
    CHECKF(strstr(err, "# a fresh page's first touch: ") != NULL, "%s", err);
    unlink(file);
}

/* ---- readbench warmup ---- */

static const char *warm_file(const char *name, uint64_t size)
{
    const char *p = rbt_path(name);
    rb_error e;
    struct stat st;
    if (stat(p, &st) == 0 && (uint64_t)st.st_size == size) return p;
    return rb_setup_file(p, size, 0, 1, NULL, NULL, &e) == RB_OK ? p : NULL;
}

static const rb_warmup_result *row(const rb_warmup_run *r, int m)
{
    unsigned i;
    for (i = 0; i < r->n; i++)
        if (r->results[i].method == m) return &r->results[i];
    return NULL;
}

/* On an 8 MiB file every method reaches what the kernel's rules predict: all of it, except the
   hints when one call loads less than the file (then exactly that cap). Each row started from
   an evicted file. */
static void warmup_every_method_loads_the_file(void)
{
    static rb_warmup_run r;
    rb_warmup_config c;
    rb_error e;
    unsigned i;
    const char *p = warm_file("warm-8m.dat", (uint64_t)8 << 20);
    CHECK(p != NULL);
    memset(&c, 0, sizeof c);
    c.path = p;
    CHECKF(rb_warmup(&c, &r, &e) == RB_OK, "%s", e.msg);
    CHECK(r.n == RB_WARM_COUNT && r.failed == 0);
    for (i = 0; i < r.n; i++) {
        const rb_warmup_result *x = &r.results[i];
        fprintf(stderr, "    %-17s %s call %.4f s, resident %.4f s, residency %.3f (expected %.3f), device %lld B%s%s\n",
                x->name, rb_status_word(x->status), x->call_seconds, x->seconds, x->residency, x->expected,
                (long long)x->device_read_bytes, x->reason[0] ? ": " : "", x->reason);
        if (x->status == RB_UNSUPPORTED) { CHECK(x->reason[0] != 0); continue; }
        CHECK(x->status == RB_OK);
        CHECK(x->evicted && x->resident_before == 0);
        CHECK(x->pages == 2048);
        CHECK(x->seconds >= x->call_seconds && x->call_seconds >= 0);
        CHECK(x->settled);
        if (x->expected >= 0)
            CHECKF(x->residency >= x->expected - 0.02 && x->residency <= x->expected + 0.02,
                   "%s: residency %.3f, expected %.3f", x->name, x->residency, x->expected);
        else CHECK(x->residency >= 0.98 || x->method == RB_WARM_WILLNEED || x->method == RB_WARM_FADVISE);
        /* a file of data (not holes) is read from the device: about what became resident */
        if (x->device_read_bytes >= 0)
            CHECKF(x->device_read_bytes >= (int64_t)(x->residency * 0.9 * (8 << 20)), "%s read %lld bytes", x->name,
                   (long long)x->device_read_bytes);
        /* mapping the file it left: measured when it is resident, a fault at most per page and
           at least one (the pages were never mapped by this mapping), no page read again */
        fprintf(stderr, "    %-17s map: %lld minor, %lld major faults, %.2f ms\n", x->name,
                (long long)x->map_minor_faults, (long long)x->map_major_faults, 1e3 * x->map_seconds);
        if (x->residency < 0.99) {
            CHECKF(x->map_minor_faults == -1 && x->map_seconds < 0, "%s: not resident, yet the mapping was measured", x->name);
            continue;
        }
        CHECKF(x->map_seconds >= 0, "%s: resident and the mapping not measured", x->name);
        if (x->map_minor_faults >= 0)
            CHECKF(x->map_minor_faults >= 1 && x->map_minor_faults + x->map_major_faults <= (int64_t)x->pages + 64,
                   "%s: %lld minor + %lld major faults to map %llu pages", x->name, (long long)x->map_minor_faults,
                   (long long)x->map_major_faults, (unsigned long long)x->pages);
        if (x->map_major_faults >= 0)
            CHECKF(x->map_major_faults <= (int64_t)(x->pages - x->resident) + 8, "%s: %lld major faults, %llu pages missing",
                   x->name, (long long)x->map_major_faults, (unsigned long long)(x->pages - x->resident));
    }
#if !defined(RB_NO_LINUX)
    CHECK(row(&r, RB_WARM_MAP_POPULATE) && row(&r, RB_WARM_MAP_POPULATE)->status == RB_OK);
    CHECK(row(&r, RB_WARM_FADVISE) && row(&r, RB_WARM_FADVISE)->status == RB_OK);
#endif
}

/* A single WILLNEED over a file larger than max(read_ahead_kb, max_sectors_kb) loads that much
   and no more (users ask why); chunk by chunk it loads everything. */
static void warmup_one_willneed_loads_only_the_cap(void)
{
    static rb_warmup_run r;
    rb_warmup_config c;
    rb_error e;
    char why[RB_REASON_LEN];
    const rb_warmup_result *one, *chunked, *fadv;
    const char *p = warm_file("warm-32m.dat", (uint64_t)32 << 20);
    rb_env env;
    uint64_t cap;
    CHECK(p != NULL);
    rb_env_collect(&env, p);
    if (env.read_ahead_kb < 0) SKIP("read_ahead_kb is unknown in this build: no cap to expect");
    cap = (uint64_t)(env.read_ahead_kb > env.max_sectors_kb ? env.read_ahead_kb : env.max_sectors_kb) * 1024;
    if (cap >= ((uint64_t)32 << 20)) SKIP("one WILLNEED loads 32 MiB or more here: the file is within the cap");
    if (cap < ((uint64_t)2 << 20)) SKIP("the cap is under the 2 MiB chunk: chunked WILLNEED is capped too");
    memset(&c, 0, sizeof c);
    c.path = p;
    CHECK(rb_warmup_set(&c, "methods", "willneed,willneed-chunked,fadvise", "--methods", why, sizeof why) == RB_OK);
    CHECKF(rb_warmup(&c, &r, &e) == RB_OK, "%s", e.msg);
    one = row(&r, RB_WARM_WILLNEED);
    chunked = row(&r, RB_WARM_WILLNEED_CHUNKED);
    fadv = row(&r, RB_WARM_FADVISE);
    CHECK(r.n == 3 && one && chunked && fadv && one == &r.results[0]);   /* in the order asked */
    if (!one || !chunked || !fadv) return;
    fprintf(stderr, "    cap %llu KiB: willneed %.3f, chunked %.3f (%u calls), fadvise %.3f\n",
            (unsigned long long)(r.cap >> 10), one->residency, chunked->residency, chunked->calls, fadv->residency);
    CHECK(one->expected < 0.99 && one->expected == (double)r.cap / (double)(32 << 20));
    CHECKF(one->residency >= one->expected - 0.01 && one->residency <= one->expected + 0.01,
           "one WILLNEED: %.3f resident, the cap says %.3f", one->residency, one->expected);
    CHECKF(fadv->status != RB_OK || (fadv->residency >= fadv->expected - 0.01 && fadv->residency <= fadv->expected + 0.01),
           "fadvise: %.3f resident, the cap says %.3f", fadv->residency, fadv->expected);
    CHECKF(chunked->residency >= 0.98, "chunked WILLNEED: %.3f resident", chunked->residency);
    CHECK(chunked->calls == 16 && one->calls == 1 && chunked->failed_calls == 0);
    /* the capped rows left most of the file out: mapping it would read the rest, so it is not
       measured (the table's "-", JSON null); the chunked row is */
    CHECKF(one->map_minor_faults == -1 && one->map_major_faults == -1 && one->map_seconds < 0,
           "one WILLNEED (%.3f resident): the mapping was measured", one->residency);
    CHECK(fadv->status != RB_OK || (fadv->map_minor_faults == -1 && fadv->map_seconds < 0));
    CHECK(chunked->map_seconds >= 0);
    CHECK(one->device_read_bytes < 0 || one->device_read_bytes <= (int64_t)r.cap + (64 << 10));
}

static void warmup_json_svg_and_selection(void)
{
    char out[1 << 16], err[4096], args[2048], why[128];
    const char *p = warm_file("warm-8m.dat", (uint64_t)8 << 20), *svg = rbt_path("warm.svg");
    rb_json *doc;
    const rb_json *res, *x;
    FILE *f;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    snprintf(args, sizeof args, "warmup '%s' --methods touch,fadvise,read --chunk 1m --format json --svg '%s'", p, svg);
    CHECK(rbt_cli_run(rbt_tmpdir(), args, "120", out, sizeof out, err, sizeof err) == 0);
    doc = rb_json_parse(out, strlen(out), why, sizeof why);
    CHECKF(doc != NULL, "not JSON (%s): %s", why, out);
    if (!doc) return;
    CHECK(rb_json_get(doc, "env") && rb_json_get(doc, "chunk") && rb_json_get(doc, "chunk")->num == 1048576);
    res = rb_json_get(doc, "results");
    CHECK(res && res->type == RB_JSON_ARRAY && res->n == 3);
    x = res ? res->child : NULL;
    CHECK(x && rb_json_get(x, "method") && !strcmp(rb_json_get(x, "method")->str, "touch"));
    if (x) x = x->next;
    CHECK(x && !strcmp(rb_json_get(x, "method")->str, "fadvise"));
    for (x = res ? res->child : NULL; x; x = x->next) {
        static const char *const keys[] = {"method", "status", "seconds", "call_seconds", "gb_per_s", "residency",
                                           "resident_pages", "pages", "expected_residency", "device_read_bytes",
                                           "map_minor_faults", "map_major_faults", "map_seconds", "evicted",
                                           "settled", "note"};
        unsigned k;
        for (k = 0; k < sizeof keys / sizeof keys[0]; k++) CHECKF(rb_json_get(x, keys[k]) != NULL, "no %s", keys[k]);
        if (!strcmp(rb_json_get(x, "status")->str, "ok")) {
            CHECK(rb_json_get(x, "residency")->num > 0.98);
            CHECK(rb_json_get(x, "seconds")->type == RB_JSON_NUMBER);
            CHECK(rb_json_get(x, "map_seconds")->type == RB_JSON_NUMBER && rb_json_get(x, "map_seconds")->num >= 0);
        }
    }
    rb_json_free(doc);
    f = fopen(svg, "r");
    CHECK(f != NULL);
    if (f) {
        size_t n = fread(out, 1, sizeof out - 1, f);
        out[n] = 0;
        fclose(f);
        CHECK(strstr(out, "<svg") && strstr(out, "data-group=\"touch (") && strstr(out, "until resident"));
    }
    unlink(svg);
    /* the table names every method it ran, and only those */
    snprintf(args, sizeof args, "warmup '%s' --methods=willneed-chunked", p);
    CHECK(rbt_cli_run(rbt_tmpdir(), args, "120", out, sizeof out, err, sizeof err) == 0);
    CHECK(strstr(out, "willneed-chunked") && !strstr(out, "\ntouch") && strstr(out, "residency") && strstr(out, "map faults"));
}

/* Bad input: one line on stderr, exit 2, nothing created. */
static void warmup_refusals(void)
{
    static const char *const bad[] = {"--chunk 0", "--chunk 1000", "--chunk lots", "--methods bogus",
                                      "--methods read,read", "--methods ''", "--format csv", "--bogus"};
    char out[4096], err[4096], args[2048];
    const char *p = warm_file("warm-8m.dat", (uint64_t)8 << 20), *o = rbt_path("warm-out.json");
    unsigned i;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(args, sizeof args, "warmup '%s' %s --output '%s'", p, bad[i], o);
        CHECKF(rbt_cli_run(rbt_tmpdir(), args, "60", out, sizeof out, err, sizeof err) == 2, "%s", bad[i]);
        CHECKF(access(o, F_OK) != 0, "%s created the output", bad[i]);
        CHECKF(strchr(err, '\n') == err + strlen(err) - 1, "%s: not one line: %s", bad[i], err);
    }
    CHECK(rbt_cli_run(rbt_tmpdir(), "warmup", "60", out, sizeof out, err, sizeof err) == 2);   /* no FILE */
    snprintf(args, sizeof args, "warmup '%s'", rbt_path("no-such-file"));
    CHECK(rbt_cli_run(rbt_tmpdir(), args, "60", out, sizeof out, err, sizeof err) == 2);
    snprintf(args, sizeof args, "warmup '%s'", rbt_tmpdir());   /* a directory */
    CHECK(rbt_cli_run(rbt_tmpdir(), args, "60", out, sizeof out, err, sizeof err) == 2);
    snprintf(args, sizeof args, "warmup '%s' --output '%s'", p, p);   /* the report over its input */
    CHECK(rbt_cli_run(rbt_tmpdir(), args, "60", out, sizeof out, err, sizeof err) == 2);
    {
        struct stat st;
        CHECK(stat(p, &st) == 0 && st.st_size == 8 << 20);
    }
    {   /* an empty file: nothing to warm */
        const char *empty = rbt_path("warm-empty.dat");
        int fd = open(empty, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        CHECK(fd >= 0 && close(fd) == 0);
        snprintf(args, sizeof args, "warmup '%s'", empty);
        CHECK(rbt_cli_run(rbt_tmpdir(), args, "60", out, sizeof out, err, sizeof err) == 2);
        unlink(empty);
    }
}

/* A caller's progress hook that changes the world as a method starts: truncates the file, or
   raises the stop flag (a Ctrl-C in the middle of the method). */
static volatile int warm_stop;
static int warm_at = -1, warm_truncate;
static void warm_hook(void *user, const rb_warmup_result *x)
{
    if (x->method != warm_at) return;
    if (warm_truncate) CHECK(truncate((const char *)user, 1 << 20) == 0);
    else warm_stop = 1;
}

/* The file is the one found at the start after every method: truncated while populate-read
   ran (madvise's EFAULT, "Bad address", was its only sign), that row is "file changed", not a
   result or a system call's error, and the methods after it do not run; the rows before stand. */
static void warmup_file_changed_mid_method(void)
{
    static rb_warmup_run r;
    rb_warmup_config c;
    rb_error e;
    char why[RB_REASON_LEN];
    const char *p = rbt_path("warm-change.dat");
    const rb_warmup_result *x;
    static const int at[] = {RB_WARM_POPULATE_READ, RB_WARM_READ, RB_WARM_TOUCH};
    unsigned k;
    for (k = 0; k < 3; k++) {
        CHECK(rb_setup_file(p, (uint64_t)8 << 20, 0, RB_OUT_REPLACE, NULL, NULL, &e) == RB_OK);
        memset(&c, 0, sizeof c);
        c.path = p;
        c.progress = warm_hook;
        c.user = (void *)p;
        warm_at = at[k];
        warm_truncate = 1;
        CHECK(rb_warmup_set(&c, "methods", "fadvise,populate-read,read,touch", NULL, why, sizeof why) == RB_OK);
        CHECKF(rb_warmup(&c, &r, &e) == RB_OK, "%s", e.msg);
        CHECK(r.n == 4 && r.results[0].status == RB_OK);
        x = row(&r, at[k]);
        if (!x) continue;
        fprintf(stderr, "    truncated as %s started: %s: %s\n", x->name, rb_status_word(x->status), x->reason);
        CHECKF(x->status == RB_ECHANGED && strstr(x->reason, "changed") && strstr(x->reason, "size went from 8388608 to "
               "1048576") && !strstr(x->reason, "Bad address"), "%s: %s", x->name, x->reason);
        for (x = x + 1; x < r.results + r.n; x++)
            CHECKF(x->status == RB_ENOTRUN && strstr(x->reason, "changed"), "%s after the change: %s", x->name, x->reason);
        CHECK(r.failed == 1);
    }
    warm_at = -1;
    unlink(p);
}

/* A stop (SIGINT) while a method runs: that row is "interrupted", not a result, the next ones
   are not run, rb_warmup says RB_EINTR; the table says it once, the JSON has no figures for it. */
static void warmup_interrupted_mid_method(void)
{
    static rb_warmup_run r;
    rb_warmup_config c;
    rb_error e;
    char why[RB_REASON_LEN], buf[8192];
    const char *p = warm_file("warm-8m.dat", (uint64_t)8 << 20);
    FILE *f = tmpfile();
    size_t n;
    memset(&c, 0, sizeof c);
    c.path = p;
    c.stop = &warm_stop;
    c.progress = warm_hook;
    warm_at = RB_WARM_READ;
    warm_truncate = 0;
    warm_stop = 0;
    CHECK(rb_warmup_set(&c, "methods", "fadvise,read,touch", NULL, why, sizeof why) == RB_OK);
    CHECK(rb_warmup(&c, &r, &e) == RB_EINTR);
    CHECK(r.n == 3 && r.results[0].status == RB_OK && r.failed == 0);
    CHECKF(r.results[1].status == RB_EINTR && strstr(r.results[1].reason, "not a result"), "%s", r.results[1].reason);
    CHECK(r.results[2].status == RB_ENOTRUN);
    CHECK(f != NULL);
    if (f) {
        rb_warmup_write(f, &r, RB_FORMAT_TABLE);
        rb_warmup_write(f, &r, RB_FORMAT_JSON);
        rewind(f);
        n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = 0;
        fclose(f);
        CHECKF(strstr(buf, "read              interrupted: stopped by a signal") && !strstr(buf, "interrupted: interrupted") &&
               strstr(buf, "\"method\": \"read\", \"description\": ") &&
               strstr(strstr(buf, "\"method\": \"read\""), "\"status\": \"interrupted\", \"seconds\": null"), "%s", buf);
    }
    warm_at = -1;
    warm_stop = 0;
}

/* warmup on a sparse file warns as run does; on a directory it says that it measures one file
   and names one (no "1 bytes or more"). */
static void warmup_says_sparse_and_refuses_a_directory(void)
{
    char out[1 << 15], err[4096], args[2048];
    const char *p = rbt_path("warm-sparse.dat"), *d = rbt_path("warm-dir");
    static char data[1 << 16];
    rb_error e;
    int fd;
    if (!rbt_cli()) SKIP("../readbench is not built (run make test)");
    memset(data, 0x5a, sizeof data);
    fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    CHECK(fd >= 0 && write(fd, data, sizeof data) == (ssize_t)sizeof data && ftruncate(fd, 8 << 20) == 0 && close(fd) == 0);
    snprintf(args, sizeof args, "warmup '%s' --methods read,touch", p);
    CHECK(rbt_cli_run(rbt_tmpdir(), args, "120", out, sizeof out, err, sizeof err) == 0);
    CHECKF(strstr(err, "warning: ") && strstr(err, "is sparse"), "%s", err);
    unlink(p);
    CHECK(rb_setup_files(d, 2 << 20, 2, 0, 0, NULL, NULL, NULL, &e) == RB_OK);
    snprintf(args, sizeof args, "warmup '%s'", d);
    CHECK(rbt_cli_run(rbt_tmpdir(), args, "60", out, sizeof out, err, sizeof err) == 2);
    CHECKF(strstr(err, "(it is a directory): readbench warmup measures one file") && strstr(err, "part-0000") &&
           !strstr(err, "1 bytes") && !out[0], "%s", err);
}

void suite_kernel(void)
{
    RUN(memcg_paths_from_proc_self_cgroup);
    RUN(memcg_directory_from_mountinfo);
    RUN(memcg_limits_and_room);
    RUN(memcg_limit_reaches_the_environment);
    RUN(pressure_reaches_pages_another_cgroup_loaded);
    RUN(lru_gen_in_the_environment);
    RUN(damon_pageout_from_sysfs);
    RUN(fresh_page_touch_is_measured);
    RUN(warmup_every_method_loads_the_file);
    RUN(warmup_one_willneed_loads_only_the_cap);
    RUN(warmup_json_svg_and_selection);
    RUN(warmup_refusals);
    RUN(warmup_file_changed_mid_method);
    RUN(warmup_interrupted_mid_method);
    RUN(warmup_says_sparse_and_refuses_a_directory);
    unlink(rbt_path("warm-8m.dat"));
    unlink(rbt_path("warm-32m.dat"));
}
