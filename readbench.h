/* readbench.h - v0.2.0 - MIT license - how should this program read this file?

   Do this:
      #define READBENCH_IMPLEMENTATION
   before you include this file in *one* C or C++ file to create the implementation, and
   include it first there (or compile with -D_GNU_SOURCE on Linux): the implementation asks
   for _GNU_SOURCE, so that O_DIRECT, MADV_* and RUSAGE_THREAD are visible, and that only
   works before the first system header. Elsewhere include it without the define.

   WHAT IT DOES

   Measures the ways a program can read a file (mmap with each madvise advice, mmap with
   batched page-aligned MADV_WILLNEED through a prefetch policy, pread, lseek+read,
   O_DIRECT, io_uring, ...) on a file or a directory's files, across thread counts, access
   patterns and cache states, with per-op latency histograms and the figures that explain
   them (device bytes, faults, residency, hints); statistics from rounds, not iterations;
   and, in its tools, replayed traces, readers that run together, the prefetch experiment,
   the readahead probe, warm-up methods, diff and advise (which strategy to use, and why).
   `readbench list --format markdown` prints the strategy table with each row's facts.

   CONFIGURATION MACROS

      RB_STATIC            make every function static (private to the including file)
      RBDEF                override the linkage of every public function
      RB_NO_REPORTS        leave out layer 2, the reports (and with it layer 3, which writes
                           through them): the core alone, results in structs
      RB_NO_TOOLS          leave out layer 3, the tools
      READBENCH_LIBURING   compile the io_uring strategies (link with -luring)
      RB_NO_LINUX          on Linux, compile out the Linux-only parts (io_uring, O_DIRECT,
                           /proc and /sys readers, RUSAGE_THREAD, drop_caches): the POSIX
                           fallbacks run
      RB_BUILD_FLAGS       a string with the compiler flags, recorded in the environment
      RB_TEST_URING_SUBMIT for tests: the io_uring_submit_and_wait the io_uring rows call
      RB_MACHINE_SPIN      for tests: the fixed CPU kernel timed around each cell

   CONTENTS (each section's banner is greppable: "==== 1.7 ")

   1 core: what the design card names, and what a reader learns from
     1.1  status, messages and text
     1.2  platform: the only place a platform #if lives inside a function
     1.3  offsets, patterns and replayed reads
     1.4  histogram
     1.5  aligned madvise and the prefetch policies
     1.6  config and result
     1.7  the strategy interface, targets and workers
     1.8  runner and its timed loop
     1.9  strategies
     1.10 files: content, setup, outputs, directories
     1.11 cache control and memory
     1.12 the matrix
     1.13 statistics
     1.14 environment
   2 reports (RB_NO_REPORTS leaves them out): what a run says, in every format
     2.1  table and markdown
     2.2  CSV
     2.3  JSON
     2.4  SVG charts
     2.5  progress and the lines around a run
   3 tools (RB_NO_TOOLS leaves them out): they reach a run through the core's hooks (a cell
     observer, rb_config.observer; a matrix hook, rb_matrix.hook), never the other way round
     3.1  traces: strace, fio iolog and CSV read into a replay
     3.2  reader groups and the victim
     3.3  the prefetch experiment
     3.4  the readahead probe
     3.5  warm-up methods
     3.6  the JSON reader and diff
     3.7  advise
     3.8  settings from text, the scenarios and the CLI's commands
   Each layer has its declarations, then its code; a layer names nothing of the layers after
   it. The documentation of each public function sits on its declaration.

   EXAMPLE: one cell, the core alone (examples/core_only.c is the whole program)

      rb_config c;
      rb_result *r = calloc(1, sizeof *r);       (a result holds histograms: keep it off the stack)
      memset(&c, 0, sizeof c);                   (zero: every default)
      c.path = "data.bin";                       (readbench setup data.bin 1g makes one)
      c.threads = 4;
      if (rb_run(&c, rb_strategy_find("mmap-random"), r) == RB_OK)
          printf("%.2f ops/ms, p99 %llu ns\n", r->ops_per_ms,
                 (unsigned long long)rb_hist_percentile(&r->lat, 99.0));
      else
          printf("%s: %s\n", rb_status_string(r->status), r->reason);

   LICENSE: MIT, at the end of this file.
*/
#if defined(READBENCH_IMPLEMENTATION) && !defined(_GNU_SOURCE)
#if defined(__linux__)
#define _GNU_SOURCE       /* O_DIRECT, MADV_*, RUSAGE_THREAD: must precede every system header */
#elif defined(__APPLE__)
#define _DARWIN_C_SOURCE  /* MADV_*, F_NOCACHE, mincore */
#endif
#endif

/* The tools write through the reports: without the reports, no tools. */
#if defined(RB_NO_REPORTS) && !defined(RB_NO_TOOLS)
#define RB_NO_TOOLS
#endif

#ifndef READBENCH_H
#define READBENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RB_VERSION "0.1.0"

#ifndef RBDEF
#ifdef RB_STATIC
#if defined(__GNUC__) || defined(__clang__)
#define RBDEF static __attribute__((unused))   /* a user calls some, not all */
#else
#define RBDEF static
#endif
#else
#define RBDEF extern
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ==== 1 core: what the design card names, and what a reader learns from ======================= */

struct rb_config;
struct rb_env;
struct rb_strategy;
/* -- 1.1 status, messages and text (declarations) -- */

/*
   Columns: name, value, the word the output formats write in their status field (every failure
   is "error" there, its text is in the reason), and the text rb_status_string returns. A status
   added here has all three or does not compile. */
#define RB_STATUS_LIST(X)                                                     \
    X(RB_OK, 0, "ok", "ok")                                                   \
    X(RB_EINVAL, -1, "error", "invalid argument")                             \
    X(RB_ESYS, -2, "error", "system call failed")                             \
    X(RB_UNSUPPORTED, -3, "unsupported", "unsupported here")                  \
    X(RB_ENOMEM, -4, "error", "out of memory")                                \
    X(RB_EEXIST, -5, "error", "file exists")                                  \
    X(RB_ENOFILE, -6, "error", "no such file")                                \
    X(RB_ETOOSMALL, -7, "error", "file too small")                            \
    X(RB_EIO, -8, "error", "I/O errors or short reads during the run")        \
    X(RB_EVERIFY, -9, "error", "data read does not match the setup pattern")  \
    X(RB_EPERM, -10, "error", "permission denied")                            \
    X(RB_ECHANGED, -11, "error", "file changed during the run")               \
    X(RB_EINTR, -12, "interrupted", "interrupted")                            \
    X(RB_ENOTREG, -13, "error", "not a regular file")                         \
    X(RB_ENOTRUN, -14, "not run", "not run")                                  \
    X(RB_ERANGE, -15, "error", "out of range")                                \
    X(RB_ESTATE, -16, "error", "the cache state asked for was not made")

#define RB__STATUS_ENUM(name, value, word, text) name = value,

typedef enum rb_status { RB_STATUS_LIST(RB__STATUS_ENUM) RB__STATUS_END = 1 } rb_status;

#undef RB__STATUS_ENUM

/* rb_status_string(s): the text of an rb_status; rb_status_word(s) the word the output formats
   write in their status field ("ok", "unsupported", "interrupted", "not run", "error"). Both are
   generated with the enum from one X-macro. */
RBDEF const char *rb_status_string(int status);

RBDEF const char *rb_status_word(int status);

/* Every reason, message and warning buffer in the library holds this many bytes. */
#define RB_REASON_LEN 256

/* A cell's result keeps at most this many warnings (later ones are counted, not kept). */
#define RB_MAX_WARNINGS 8

/* What failed and why, filled by every function that can fail. */
typedef struct rb_error {
    int status;       /* an rb_status */
    int err;          /* errno of the failing call, 0 if none */
    char call[32];    /* the failing call, e.g. "pwrite" */
    char msg[RB_REASON_LEN];   /* one line for the user */
} rb_error;

struct rb_observer;

struct rb_worker;

struct rb_target;

struct rb_target;

struct rb_result;

struct rb_warmup_result;

RBDEF const char *rb_arrivals_name(int arrivals);   /* "uniform", "poisson", "trace" */

RBDEF void rb_format_size(uint64_t bytes, char *buf, size_t len);

/* A size as rb_parse_size reads it back, in the largest unit that divides it: "64m", "1g", "1000". */
RBDEF void rb_format_size_arg(uint64_t bytes, char *buf, size_t len);

struct rb_matrix_hook;

/* -- 1.3 offsets, patterns and replayed reads (declarations) -- */

/* Access patterns (rb_config.pattern): uniform random, sequential, and the skewed ones, each
   with its parameters in pattern_arg (see "access patterns" below and rb_parse_pattern). */
enum {
    RB_RANDOM = 0,       /* uniform over the file */
    RB_SEQUENTIAL = 1,   /* a per-thread cursor */
    RB_ZIPF = 2,         /* zipf:THETA: block of rank k with probability ~ 1/k^THETA */
    RB_PARETO = 3,       /* pareto:H: the first H of the ranks take 1-H of the reads (fio's power law) */
    RB_NORMAL = 4,       /* normal:SIGMA: a normal around the middle rank, SIGMA a fraction of the file */
    RB_HOTSET = 5,       /* hotset:FRACTION:PROB: PROB of the reads in FRACTION of the file's bytes (read ranges) */
    RB_PATTERN_COUNT = 6
};

/*
   A spec names a pattern the way fio's random_distribution does (zipf:THETA, pareto:H,
   normal:SIGMA) plus hotset:FRACTION:PROB, random and sequential; runs:N[:DIST] makes every
   drawn offset the start of N sequential reads; :contiguous keeps the skewed patterns' ranks
   in file order. rb_parse_pattern sets pattern, pattern_arg, run_length and contiguous, or
   says why not (RB_EINVAL, one line); rb_pattern_check judges the same four fields set by
   hand; rb_pattern_name writes the canonical spec ("runs:16:zipf:1.2") that every output
   format shows and diff matches on. */
#define RB_PATTERN_LEN 64          /* the longest canonical spec, NUL included */

#define RB_MAX_RUN 1048576u        /* reads per run at most */

RBDEF int rb_pattern_check(const struct rb_config *c, char *why, size_t whylen);

RBDEF const char *rb_pattern_name(const struct rb_config *c, char *buf, size_t len);

/* The offsets of one cell. What the threads share is an rb_sampler, made once per cell and
   read-only after; what each thread owns is in its rb_worker (generator, sequential cursor,
   the run it is in). rb_run draws through exactly these functions; they are public so that a
   test or an embedder can see the offsets a run would read without running it.
   Skewed patterns draw a rank, 0 the hottest, over the file's blocks (a block: the page, or
   the alignment when that is larger), map it to a block with a seeded permutation (unless
   contiguous), then draw the offset inside the block: no read starts past size - read_size.
   hotset's blocks are read ranges (the read size rounded up to whole blocks, so whole pages),
   each read at its start: the hot FRACTION of the blocks is FRACTION of the file's bytes, and
   its reads touch those pages and no others. */
typedef struct rb_sampler {
    int pattern;            /* RB_RANDOM .. RB_HOTSET */
    unsigned run_length;    /* reads per run; 1: single reads */
    int contiguous;
    uint64_t read_size;
    uint64_t limit;         /* the last offset a read may start at: size - read_size */
    uint64_t step;          /* offsets are multiples of this (1: any byte); runs go on by read_size */
    uint64_t npos;          /* random: offsets to choose from; sequential: reads in one pass */
    uint64_t block;         /* skewed: step x ceil(page / step) bytes; hotset: the read size rounded up to that */
    uint64_t nblocks;       /* skewed: blocks holding at least one offset, limit / block + 1 */
    uint64_t hot;           /* hotset: ranks [0, hot) are the hot set */
    double arg[2];          /* the parameters as given */
    double k[3];            /* set up once: zipf's H(1.5) - 1, H(n + 0.5) and squeeze; pareto's exponent */
    uint64_t key[4];        /* the permutation's round keys, from the seed */
    unsigned half_bits;     /* the permutation works on 2 x half_bits bits */
    /* Many files (rb_sampler_init_files): a read picks a file, then an offset inside it by that
       file's own sampler, so no read crosses a file's end. Offsets are in the files' joint
       space: the files one after another in name order, each starting at a page boundary
       (files[i].base), as the target lays them out. NULL: one file, the fields above. */
    struct rb_sampler_file *files;
    unsigned nfiles;        /* the files read from: those at least read_size long */
    unsigned small;         /* the files skipped: shorter than read_size */
    int pick;               /* RB_PICK_SIZE or RB_PICK_UNIFORM */
    uint64_t pick_total;    /* RB_PICK_SIZE: the bytes of the files read from */
    uint64_t seq_total;     /* sequential: the reads of one pass over every file */
} rb_sampler;

typedef struct rb_sampler_file {
    uint64_t base, size;    /* where the file starts in the joint space, and its bytes */
    uint64_t pick_end;      /* RB_PICK_SIZE: the bytes of this file and those before it */
    uint64_t seq_end;       /* sequential: the reads of one pass over this file and those before it */
    unsigned index;         /* the file's place among all of them (small ones included) */
    rb_sampler smp;         /* offsets inside the file */
} rb_sampler_file;

/* rb_sampler_init(s, cfg, size, page, direct, ...), rb_sampler_seed(s, w, seed, i, n),
   rb_sampler_offsets(s, w, off, n), rb_sampler_block(s, rank), rb_sampler_rank(s, block): the
   offsets a cell's threads read (what rb_run uses): zipf by rejection-inversion (O(1) per draw),
   the permutation a cycle-walking Feistel network (no table, any file size).
   rb_sampler_init_files(s, cfg, sizes, bases, n, ...), rb_sampler_free: many files, a file picked
   per read in proportion to its size (or uniformly), then an offset in it by its own sampler;
   offsets are in the files' joint space, which rb_target_file_at turns back into (file, offset)
   and rb_worker_fd_at into the descriptor to read with. */
/* RB_EINVAL (why) for a pattern rb_pattern_check refuses or a read larger than size. c: with
   defaults applied (read_size set); direct: offsets must be page multiples (lcm with align). */
RBDEF int rb_sampler_init(rb_sampler *s, const struct rb_config *c, uint64_t size, uint64_t page, int direct,
                          char *why, size_t whylen);

/* n files of sizes[i] bytes starting at bases[i] of the joint space (increasing, page-aligned):
   a read picks file i with probability sizes[i] / (the bytes of every file read from), or 1 /
   (the files read from) with c->file_pick RB_PICK_UNIFORM; files shorter than the read size are
   skipped (counted in s->small). Sequential reads every file in order, one after another.
   RB_EINVAL (why) when no file is as long as a read; RB_ENOMEM. n == 1 is rb_sampler_init. Free
   with rb_sampler_free. */
RBDEF int rb_sampler_init_files(rb_sampler *s, const struct rb_config *c, const uint64_t *sizes, const uint64_t *bases,
                                unsigned n, uint64_t page, int direct, char *why, size_t whylen);

RBDEF void rb_sampler_free(rb_sampler *s);

/* Thread `index` of `nthreads`: its generator from (seed, index); a sequential cursor starts
   index/nthreads into the file; no run in progress. */
RBDEF void rb_sampler_seed(const rb_sampler *s, struct rb_worker *w, uint64_t seed, unsigned index, unsigned nthreads);

RBDEF void rb_sampler_offsets(const rb_sampler *s, struct rb_worker *w, uint64_t *off, unsigned n);

/* The permutation and its inverse, rank <-> block (the identity when contiguous). */
RBDEF uint64_t rb_sampler_block(const rb_sampler *s, uint64_t rank);

RBDEF uint64_t rb_sampler_rank(const rb_sampler *s, uint64_t block);

/*
   A recorded access trace, read by rb_trace_load (a file) or rb_trace_parse (text in memory)
   and kept, for one benchmark file FILE, as streams of reads: one stream per thread or process
   of the trace, each read an (offset, length, time) in trace order. Formats, found from the
   content or named: strace output (-f's pid column, -t/-tt/-ttt/-r timestamps, -y's annotated
   descriptors and <unfinished ...> / resumed> pairs all optional) of pread64, preadv, preadv2,
   read and readv, following each descriptor through open, openat, close, dup, dup2, dup3 and
   fcntl(F_DUPFD) and each file position through read and lseek; fio's iolog version 2 and 3
   (fio --write_iolog); and CSV lines offset,length[,thread[,time_ns]] (a header line allowed).
   strace and iolog name files: the reads kept are FILE's, found by the path the trace gives
   (as given, then the same file here, then the same base name: `match` says which). A line
   that cannot be read, a read past FILE's end or longer than 1 GiB stops the load with the
   line number (RB_EINVAL), or with skip_bad is counted (skipped) and left out. The times are
   kept for an open-loop replay (rb_config.timed), each stream's never going back: a time
   before the one ahead of it in its stream is held at that one and counted (backwards); rb_run
   replays as fast as it can otherwise. FILE must be a file (a directory: RB_ENOTREG, nothing
   read). Records that would not fit in the memory this process may take (a memory cgroup's
   limit included) stop the load with RB_ENOMEM and a line that says so, never an OOM kill. */
enum { RB_TRACE_AUTO = 0, RB_TRACE_STRACE = 1, RB_TRACE_IOLOG = 2, RB_TRACE_CSV = 3, RB_TRACE_FORMATS = 4 };

enum { RB_MATCH_NONE = 0, RB_MATCH_EXACT = 1, RB_MATCH_SAME_FILE = 2, RB_MATCH_BASENAME = 3 };

#define RB_TRACE_MAX_READ ((uint64_t)1 << 30)   /* a longer read in a trace is a mistake */

typedef struct rb_trace_read {
    uint64_t off, len;     /* len: the bytes the call returned (1 .. RB_TRACE_MAX_READ) */
    uint64_t time_ns;      /* since the first read of FILE in the trace; 0 when it has no times */
    uint64_t line;         /* the trace's line (a resumed call: the line it completed on) */
} rb_trace_read;

typedef struct rb_trace_stream {
    uint64_t id;           /* the trace's pid or thread (0 where it has none) */
    rb_trace_read *reads;  /* in trace order */
    size_t n;
} rb_trace_stream;

typedef struct rb_trace {
    int status;            /* RB_OK; RB_EINVAL (why: the line and what is wrong with it), RB_ENOMEM,
                              RB_ENOFILE/RB_ENOTREG/RB_ESYS (the trace or FILE cannot be read) */
    char why[RB_REASON_LEN];
    char path[256];        /* the trace as given ("" from memory) */
    int format;            /* the format read (RB_TRACE_STRACE ..) */
    int match;             /* how FILE was found among the trace's files (RB_MATCH_NONE: CSV names none) */
    char named[256];       /* the trace's name for FILE ("" for CSV) */
    int has_time;          /* the lines carried timestamps */
    rb_trace_stream *streams;
    unsigned nstreams;
    uint64_t reads;        /* reads of FILE kept: the replay's (trace_reads) */
    uint64_t skipped;      /* lines left out with skip_bad (trace_skipped) */
    char first_skipped[RB_REASON_LEN];   /* why the first of them was */
    uint64_t failed;       /* calls that failed or read nothing: not reads of data, left out */
    uint64_t other_reads;  /* reads of other files */
    uint64_t unplaced;     /* strace reads whose file or position the trace never said */
    uint64_t lines, bytes, max_len, max_end;   /* max_end: the end of the read that ends last */
    uint64_t unaligned, unaligned_line;   /* reads not on page boundaries (O_DIRECT refuses them) */
    uint64_t backwards, backwards_line;   /* reads whose time was before the one before them in their
                                             stream: held at that one (the first such read's line) */
    rb_trace_read *block;  /* the reads of every stream, stream after stream: streams[i].reads
                              point into it (freed by rb_trace_free) */
} rb_trace;

RBDEF const char *rb_trace_format_name(int format);   /* "auto", "strace", "iolog", "csv" */

RBDEF const char *rb_trace_match_name(int match);      /* "none", "exact", "same-file", "basename" */

/* -- 1.4 histogram (declarations) -- */

#define RB_HIST_EXACT 128u      /* values below are their own bucket */

#define RB_HIST_SUB_BITS 6u     /* 64 sub-buckets per power of two */

#define RB_HIST_MAX_MSB 41u     /* top bucket holds values < 2^42 ns (about 73 minutes) */

#define RB_HIST_BUCKETS (RB_HIST_EXACT + (RB_HIST_MAX_MSB - RB_HIST_SUB_BITS) * (1u << RB_HIST_SUB_BITS))

typedef struct rb_hist {
    uint64_t count;      /* values recorded in buckets */
    uint64_t overflow;   /* values >= 2^42 ns: counted here, never dropped */
    uint64_t sum, min, max;
    uint64_t b[RB_HIST_BUCKETS];
} rb_hist;

RBDEF void rb_hist_init(rb_hist *h);

/* rb_hist_record / rb_hist_merge / rb_hist_percentile: the log-linear latency histogram (exact
   below 128 ns, then 64 sub-buckets per power of two: at most 1/128 relative error). */
RBDEF void rb_hist_record(rb_hist *h, uint64_t ns);

RBDEF void rb_hist_merge(rb_hist *into, const rb_hist *from);

RBDEF uint64_t rb_hist_total(const rb_hist *h);

RBDEF double rb_hist_mean(const rb_hist *h);

RBDEF uint64_t rb_hist_percentile(const rb_hist *h, double pct);

/* 1: enough values for pct to mean something, n >= 100 / (100 - pct) (a p99.9 of 50 values
   is just the max); writers print null or "-" otherwise. Also 0 when nothing was recorded. */
RBDEF int rb_hist_percentile_known(const rb_hist *h, double pct);

/* The rank (1-based, in [1, n]) of percentile pct among n sorted values: ceil(pct/100 * n),
   in integer arithmetic (pct to 6 decimals), so p99.9 of 1000 values is the 999th. */
RBDEF uint64_t rb_percentile_rank(double pct, uint64_t n);

RBDEF unsigned rb_hist_index(uint64_t ns);

RBDEF uint64_t rb_hist_bucket_value(unsigned index);   /* past the last bucket: UINT64_MAX */

/* -- 1.5 aligned madvise and the prefetch policies (declarations) -- */

/*
   rb_prefetch() hints one range of a mapping with MADV_WILLNEED (page-aligned, clamped),
   gated by a policy. Lucene's power-of-two backoff saves the syscall when data is hot but,
   with a counter that climbs on every hit, skips the hints that mattered when most reads hit
   and some miss. "adaptive" keeps a per-reader estimate of the miss rate instead and, on a
   NORMAL mapping, learns from the time its calls take whether a miss is better hinted or
   left to the fault's read-around (rb_adapt): see rb_prefetch() and rb_adapt_epoch() in the
   implementation for the full reasoning. */
enum {
    RB_PF_ALWAYS = 0,           /* advise on every call */
    RB_PF_BACKOFF = 1,          /* Lucene PR #13381: power-of-two skip, then mincore gate, reset on
                                   a miss; the counter is the reader's own (each clone starts at 0) */
    RB_PF_BACKOFF_NOMINCORE = 2,/* the power-of-two skip alone (never resets), per reader */
    RB_PF_ADAPTIVE = 3,         /* per-reader miss-rate estimate from sampled residency checks */
    RB_PF_BACKOFF_SHARED = 4,   /* Lucene PR #15585: backoff with one counter per file, shared by
                                   every reader, incremented atomically */
    RB_PF_COUNT = 5
};

typedef struct rb_prefetch_stats {
    uint64_t calls, skips, mincore_calls, advises, failed;   /* failed: madvise calls */
    uint64_t mincore_failed;    /* residency checks that failed (counted apart: a different call) */
    /* adaptive on a NORMAL mapping (rb_adapt): calls it would have hinted and left to the
       fault's read-around instead, and the trials of read-around it started */
    uint64_t around, trials;
    uint64_t fills;             /* adaptive on a NORMAL mapping: misses whose whole window it hinted */
    uint64_t sweeps;            /* ... and sweeps it started to complete a nearly cached file */
} rb_prefetch_stats;

/* 1: every page of [addr, addr + len) is resident; 0: some page is not; -1: could not tell.
   The default asks mincore(); tests pass a fake to drive the policies. */
typedef int (*rb_resident_fn)(void *ctx, const unsigned char *addr, size_t len);

/* The fraction of the pages of [addr, addr + len) that are resident; -1: could not tell. */
typedef double (*rb_resident_frac_fn)(void *ctx, const unsigned char *addr, size_t len);

#define RB_PF_FILLED 8u         /* adaptive: the windows it filled last, not filled again */

/* adaptive's regime, on a mapping whose faults read around (MADV_NORMAL): what one epoch of a
   reader's calls measured, and the decision made from it (rb_adapt_epoch, a pure function of
   the two; its reasoning is above it in the implementation). */
typedef struct rb_adapt_signals {
    uint64_t calls;          /* rb_prefetch calls in the epoch */
    uint64_t ns;             /* the epoch's wall time: the calls and the reads between them */
    uint64_t samples, misses;   /* residency checks, and those that found a page missing */
    uint64_t evicted;        /* of the misses, ranges with recently evicted pages (cachestat) */
} rb_adapt_signals;

enum { RB_AD_HINT = 0, RB_AD_AROUND = 1 };   /* misses get a hint, or are left to read-around */

typedef struct rb_adapt {
    int mode;                /* RB_AD_HINT or RB_AD_AROUND */
    int trial;               /* 1: around is on trial (not yet cheaper than hinting) */
    double cost_hint;        /* ns per call while hinting (moving average); 0: not measured yet */
    double cost_trial;       /* ns per call of the trial's last epoch */
    double trial_ns, trial_calls;   /* the trial so far */
    double budget;           /* the trial's allowance of extra ns over hinting */
    double hinted_ns;        /* time spent hinting since the last trial */
    unsigned wait;           /* epochs before the next trial */
    unsigned backoff;        /* the wait after the next failed trial */
    unsigned trials, switches;   /* trials started; mode changes (tests, reports) */
    double cost_around;      /* ns per call of the proven read-around (moving average) */
    unsigned recheck, since; /* proven read-around: epochs between one-epoch checks of hinting */
    int checking;            /* 1: this hinting epoch checks a proven read-around's price */
} rb_adapt;

RBDEF void rb_adapt_init(rb_adapt *a);

/* The mode for the next epoch, from the state and the epoch just measured. */
RBDEF int rb_adapt_epoch(rb_adapt *a, const rb_adapt_signals *s);

/* Inside an epoch on trial: 1 when the trial's calls so far (calls, ns) already cost more
   than a trial may, and it must end now (rb_adapt_epoch then hints again). */
RBDEF int rb_adapt_trial_too_dear(const rb_adapt *a, uint64_t calls, uint64_t ns);

typedef struct rb_prefetcher {
    int policy;
    unsigned char *map;
    uint64_t map_len;
    size_t page;
    uint64_t *counter;          /* backoff-shared: the file's counter; else &own_counter */
    uint64_t own_counter;       /* backoff, backoff-nomincore: this reader's plain counter */
    int trust_mincore;          /* 0: mincore would say "all resident" regardless (see rb_residency) */
    rb_resident_fn resident;
    rb_resident_frac_fn window_resident;   /* adaptive: a window's resident fraction */
    void *resident_ctx;
    unsigned est;               /* adaptive: miss-rate estimate in 1/65536ths */
    unsigned gap, countdown;    /* adaptive: calls between residency samples */
    int read_around;            /* adaptive: the mapping's faults read around (MADV_NORMAL): the
                                   regime may leave misses to them (see rb_adapt) */
    int fd;                     /* adaptive: the file, for cachestat's eviction counts; -1: none */
    const struct rb_target *target;   /* a directory's target: cachestat asks each range's own file */
    rb_adapt ad;                /* adaptive: hint misses or leave them to read-around */
    rb_adapt_signals ep;        /* adaptive: the epoch being measured */
    uint64_t ep_t0, ep_call0;   /* adaptive: its start (ns; 0: not started) and st.calls then */
    uint64_t evicted_misses;    /* adaptive: sampled misses that found recently evicted pages */
    int fill_off;               /* adaptive: two of them seen: memory is short, no more window fills */
    uint64_t filled[RB_PF_FILLED];   /* adaptive: the windows filled last (index + 1; 0: none) */
    unsigned nfilled;
    unsigned full_run;          /* adaptive: sampled windows in a row found nearly full */
    int64_t room;               /* adaptive: memory this reader could take when it started
                                   (rb_mem_available then; -1: unknown, no fill, no sweep) */
    uint64_t span;              /* the bytes the reads stay below (--size); 0: map_len */
    uint64_t *sweep_next;       /* adaptive: the window the sweep hints next, shared by the
                                   cell's readers (NULL: own_sweep) */
    uint64_t own_sweep;
    int sweep;                  /* adaptive: 1 while this reader takes part in the sweep */
    int swept;                  /* adaptive: the sweep reached the end (once per reader) */
    int last_errno;
    rb_prefetch_stats st;
} rb_prefetcher;

/* rb_prefetcher_init(p, policy, map, len, shared_counter), rb_prefetch(p, off, len): MADV_WILLNEED
   on a page-aligned, clamped range, gated by a policy: always, Lucene's power-of-two backoff (per
   reader as in PR #13381, with or without its mincore gate, or one counter per file as in PR
   #15585), or adaptive (a per-reader miss-rate estimate; see the implementation for why it beats
   backoff when some reads miss). */
/* shared_counter: the file's counter, used by backoff-shared alone (NULL: this reader's own);
   every other policy keeps its state in p. */
RBDEF void rb_prefetcher_init(rb_prefetcher *p, int policy, void *map, uint64_t map_len,
                              uint64_t *shared_counter);

RBDEF int rb_prefetch(rb_prefetcher *p, uint64_t off, uint64_t len);

RBDEF const char *rb_prefetch_policy_name(int policy);

RBDEF int rb_prefetch_policy_find(const char *name);

/*
   What became of the hints a strategy gave, one hint in RB_PA_EVERY per thread (a seeded
   random choice) followed to its read (see "prefetch accounting" in the implementation):
   redundant (the range was resident when hinted), useful (the read found it resident, and was not slow), late (the
   read still had to wait for a page, or was slow: longer than twice the median of the
   reader's cached reads, and at least 20 us), wasted (pages of the range were evicted
   between the hint and the read). rb_run and rb_prefetch_experiment report them. */
#define RB_PA_EVERY 16u     /* one hint in this many is followed, per thread, on average */

#define RB_PA_PENDING 16u   /* sampled hints waiting for their read at once, per thread */

#define RB_PA_CACHED 15u    /* the last cached reads whose median time is the "slow read" baseline */

#define RB_PA_SLOW_FLOOR_NS 20000u   /* a read under this is never slow (see rb__pa_read_end) */

typedef struct rb_prefetch_accounting {
    uint64_t hints;        /* hints given: WILLNEED by madvise or posix_fadvise, through any policy */
    uint64_t sampled;      /* of them, followed: redundant + useful + late + wasted + failed */
    uint64_t redundant, useful, late, wasted;
    uint64_t failed;       /* a residency check failed: not classified */
    uint64_t wasted_unknown;   /* late ones where cachestat could not say whether pages were evicted */
    uint64_t untrusted;    /* hints not followed: residency cannot be trusted here (mincore lies) */
    uint64_t late_slow;    /* of late: resident when read, but the read took longer than the threshold */
} rb_prefetch_accounting;

typedef struct rb__pa_sample { unsigned k; uint64_t start, len; int64_t evicted; } rb__pa_sample;

/* The time (ns) over which a read of resident pages counts as late: twice the median of the
   n last cached reads' times, at least RB_PA_SLOW_FLOOR_NS; the floor alone below 3 times. */
RBDEF uint64_t rb_pa_slow_threshold(const uint64_t *cached_ns, unsigned n);

/* One reader's follow-up state: what it looks at (its mapping of the file, and the descriptor
   cachestat asks), the sampled hints whose read has not come yet, the times of its last
   cached reads (a ring), and the read being timed. */
typedef struct rb__pa_follow {
    const unsigned char *map;   /* NULL: nothing is followed (counted untrusted) */
    size_t page;
    int fd, trusted;
    const struct rb_target *t;  /* a directory's target: its table gives each range's file and fd */
    rb__pa_sample pending[RB_PA_PENDING];
    unsigned npending;
    uint64_t cached_ns[RB_PA_CACHED];
    unsigned ncached, next_cached;
    uint64_t rng[4];            /* which hints are followed: a seeded draw per hint */
    int follow_next;            /* the next hint's draw, made ahead (rb__pa_follows_next) */
} rb__pa_follow;

/* -- 1.6 config and result (declarations) -- */

#define RB_NONE (-1)                 /* for warmup_ns: no warmup at all */

#define RB_MAX_ITERATIONS 100

#define RB_MAX_THREADS 1024u    /* more threads than this is a mistake, not a benchmark */

#define RB_FEW_OPS 20u               /* a thread with fewer ops in an iteration gets a warning */

#define RB_MAX_IODEPTH 4096u         /* reads in flight per thread (a ring's entries) */

#define RB_MAX_HELPERS 4u            /* helper threads per worker (pread-nowait's pool) */

#define RB_DATA_SEED 0x7265616462656e63ULL   /* "readbenc" */

/* Zero-filled means "all defaults" for every field. */
typedef struct rb_config {
    const char *path;       /* the benchmark file */
    uint64_t size;          /* bytes of the file to read from; 0: the whole file */
    uint64_t read_size;     /* bytes per read; 0: 16 KiB */
    unsigned reads_per_op;  /* reads per op; 0: 16 for random, 128 for sequential */
    unsigned iodepth;       /* io_uring-qd: reads each thread keeps in flight across ops (fio's
                               iodepth); 0: reads_per_op, at most RB_MAX_IODEPTH */
    unsigned threads;       /* worker threads; 0: 1 */
    int pattern;            /* RB_RANDOM (0), RB_SEQUENTIAL, or a skewed RB_ZIPF .. RB_HOTSET */
    double pattern_arg[2];  /* the skewed patterns' parameters: zipf theta; pareto h; normal sigma;
                               hotset fraction, prob (rb_parse_pattern fills all four fields) */
    unsigned run_length;    /* runs: every drawn offset starts a run of this many reads, the
                               next ones sequential after it; 0 or 1: single reads */
    int contiguous;         /* skewed: block ranks in file order (1) or scattered by a seeded
                               permutation (0, the default: hot blocks are not one region) */
    int file_pick;          /* path a directory: which of its files a read goes to, RB_PICK_SIZE (0:
                               in proportion to its size) or RB_PICK_UNIFORM (each file alike) */
    uint64_t align;         /* random offsets are multiples of this; 0: unaligned (direct: page) */
    uint64_t seed;          /* offsets; each thread's generator is seeded from (seed, index) */
    uint64_t data_seed;     /* file content; 0: RB_DATA_SEED */
    int64_t warmup_ns;      /* 0: 1 s; RB_NONE: no warmup */
    int64_t duration_ns;    /* one measured iteration; 0: 1 s */
    unsigned iterations;    /* measured iterations; 0: 5 */
    /* The load. Closed loop (the default): each thread starts an op as soon as its last one
       ended. Open loop (rate > 0): ops arrive on a schedule, whatever the earlier ones took,
       and an op's latency runs from its intended start (queueing included), its service
       time from its actual start: see rb__worker_phase_open. */
    double rate;            /* open loop: ops per second per thread; 0: closed loop */
    int arrivals;           /* open loop: RB_ARRIVALS_UNIFORM (0: a fixed interval) or RB_ARRIVALS_POISSON */
    int64_t think_ns;       /* closed loop: busy computation between ops, outside their latency; 0: none */
    int verify;             /* compare every byte read with the setup pattern */
    /* A replay: each thread reads its stream of the trace (see "traces") instead of drawing
       offsets from the pattern; read_size becomes the trace's longest read and reads_per_op
       defaults to 1. NULL: the pattern. */
    const struct rb_trace *trace;
    int timed;              /* a replay at the trace's own times: an open loop whose ops start when
                               their first read was recorded (shifted to each iteration's start),
                               at the trace's mean rate (rb_config_defaults); the trace must have times */
    int cache;              /* RB_CACHE_KEEP, RB_CACHE_EVICT (before the cell), RB_CACHE_EVICT_EACH */
    double prewarm;         /* (0, 1]: make this fraction of the file's pages resident before
                               the cell, the rest not; 0: leave the page cache as it is */
    int pressure;           /* the caller pinned memory so that the file does not fit (the
                               pressure state, a hog: rb_hog_take): the file is evicted before
                               its prewarm, so that its pages are loaded again where the pressure
                               is (pages another memory cgroup loaded are charged there, and
                               this one's pressure never reclaims them), and a cell that finds
                               the file whole when measuring starts fails (RB_ESTATE) */
    volatile int *stop;     /* when set and nonzero (a signal handler's flag), the cell ends
                               early with RB_EINTR */
    const unsigned *cpus;   /* worker i runs on cpus[i % ncpus] (fio's cpus_allowed); NULL:
                               the scheduler chooses. Linux only: elsewhere RB_UNSUPPORTED */
    unsigned ncpus;
    /* Code that runs beside every cell without the runner naming it (a tool's, or the
       caller's): see rb_observer. NULL: none. */
    const struct rb_observer *observer;
    /* The victim's path, for the reports (rb_victim_attach sets it with its observer). */
    const char *victim;
    /* What the file was when the run began (rb_ident_take): a cell checks it before it
       prepares anything, and fails with RB_ECHANGED when the file is another, or another
       size, or (a directory) another set of files, so that no cell of a run measures a file
       its others did not. NULL: each cell checks only against its own start (rb_run_matrix
       and rb_advise take one at their start when their config has none). */
    const struct rb_ident *ident;
    /* Progress and diagnostics that are not part of a result (the library never prints):
       called from the calling thread with one line, no newline. NULL: nothing is said.
       Anything that changes what a number means goes into the result's warnings instead. */
    void (*log)(void *log_user, const char *line);
    void *log_user;
} rb_config;

enum { RB_PICK_SIZE = 0, RB_PICK_UNIFORM = 1 };

enum {
    RB_ARRIVALS_UNIFORM = 0, /* a fixed interval, 1/rate */
    RB_ARRIVALS_POISSON = 1, /* exponential inter-arrivals of mean 1/rate (a Poisson process) */
    RB_ARRIVALS_TRACE = 2    /* a timed replay's: each op when its first read was recorded */
};

#define RB_MAX_RATE 1e9      /* ops per second per thread: one every nanosecond */

enum {
    RB_CACHE_KEEP = 0,       /* measure the cache as it is */
    RB_CACHE_EVICT = 1,      /* evict the file before each cell */
    RB_CACHE_EVICT_EACH = 2  /* evict before every iteration, warmup included (Lucene's case 4) */
};

#define RB_MAX_GROUPS 16           /* groups of readers in one cell (rb_run_groups) */

#define RB_GROUP_SPEC_LEN 160      /* a group's spec as given, NUL included */

enum { RB_RUN_ALONE = 1, RB_RUN_TOGETHER = 2 };   /* rb_result.group_run */

typedef struct rb_result {
    const char *strategy;
    unsigned threads;
    int pattern;
    uint64_t read_size;
    unsigned reads_per_op;
    int status;                  /* RB_OK, RB_UNSUPPORTED, or an error */
    char reason[RB_REASON_LEN];
    /* What a reader of the number must know (it was measured, but under a condition that
       changes its meaning): every output format shows these. No allocation: a fixed array. */
    char warnings[RB_MAX_WARNINGS][RB_REASON_LEN];
    unsigned nwarnings;          /* kept in warnings[] */
    unsigned warnings_dropped;   /* more than RB_MAX_WARNINGS: counted here */
    unsigned iterations;
    /* ops/ms of each measured iteration: the sum over threads of each thread's ops over its
       own window, from the iteration's start to the end of its last counted op (JMH) */
    double iter_ops_per_ms[RB_MAX_ITERATIONS];
    uint64_t ops;                /* measured ops, all threads (an op in flight at the stop is not one) */
    uint64_t min_thread_ops;     /* fewest ops one thread completed in one measured iteration */
    double seconds;              /* measured wall time: each iteration's longest thread window */
    int verified;                /* every byte read was compared with the setup pattern: the data is
                                    right, but the time includes the comparison (not for speed) */
    double ops_per_ms, iops, bytes_per_sec;
    double ops_per_ms_stddev;    /* sample sd over the iterations; NAN (null, "-") for one iteration */
    /* 1: no op completed inside any measured iteration, though every thread had one running
       when its iteration ended: each iteration's figure is then the most it can be (a thread
       whose op had run w ms by the end does under 1/w ops/ms; summed over the threads), and
       so are ops_per_ms, the median, iops and bytes_per_sec: "< X", not a measurement */
    int rate_upper_bound;
    uint64_t madvise_calls, madvise_failed;
    int madvise_errno;
    rb_prefetch_stats prefetch;  /* the policy strategies' counters, all threads */
    rb_prefetch_accounting prefetch_accounting;   /* what became of the hints, sampled; hints 0:
                                                     the strategy gives none */
    uint64_t fadvise_calls, fadvise_failed;   /* posix_fadvise hints (pread-fadvise) */
    int fadvise_errno;
    uint64_t nowait_reads, nowait_served;     /* pread-nowait: served / reads is the fraction of
                                                 reads RWF_NOWAIT served without blocking */
    uint64_t io_errors, short_reads, verify_mismatches;
    rb_hist lat;                 /* per-op latency, ns, all threads */
    unsigned inflight_max;       /* io_uring-qd: the most reads one thread had in flight (its iodepth
                                    reached); 0 for the others */
    rb_hist read_lat;            /* per-read latency, ns (submission to completion), for the
                                    strategies whose reads outlive their op (io_uring-qd); empty
                                    for the others */
    /* The load (rb_config.rate, think_ns). Open loop: lat runs from each op's intended start
       (its queueing included: no coordinated omission), service from its actual start; the
       achieved rate is ops_per_ms x 1000, each thread's window the whole iteration. Closed
       loop: rate_asked 0 and service empty (the two latencies are one). */
    double rate_asked;           /* ops/s asked of the cell: the rate per thread x threads; 0: closed loop */
    int arrivals;                /* RB_ARRIVALS_UNIFORM or RB_ARRIVALS_POISSON */
    uint64_t arrivals_due;       /* intended starts inside the measured iterations (for poisson, an
                                    iteration's backlog at its end counts as its expected size) */
    rb_hist service;             /* open loop: per-op time from its actual start, ns */
    int64_t think_ns;            /* closed loop: busy computation after each op, outside lat */
    /* how cold the cell really was; -1 where this OS gives no such figure */
    double evict_seconds, prewarm_seconds;   /* spent outside the measurement */
    uint64_t file_pages;
    int64_t resident_before, resident_after; /* pages when measuring started and ended; -1 unknown */
    int64_t resident_prepared;               /* pages after the cell's eviction or prewarm (before
                                                any warmup); -1 unknown or untrusted */
    int64_t iter_resident_before[RB_MAX_ITERATIONS];   /* pages as each measured iteration started */
    int64_t majflt, minflt;                  /* page faults of the workers while measured */
    int64_t device_read_bytes;               /* bytes the workers made the device read */
    double read_amplification;               /* device_read_bytes / bytes_issued; -1 unknown */
    /* The reads the measured iterations issued: the counted ops' and each thread's op in flight
       at an iteration's end. That op runs to completion and its faults, device bytes and CPU
       are in the counters above, while ops leaves it out (its time is not the window's): every
       per-read figure (CPU, amplification, page_reads and the hit rates) divides by these. */
    uint64_t reads_issued, bytes_issued;
    int per_process_faults;                  /* faults are the whole process's (no RUSAGE_THREAD) */
    /* CPU time of the workers while measured, per read: sys is the kernel's work for the
       strategy (the same system call costs the same in any harness), user is the copy out of a
       mapping plus the harness's own loop. -1: unknown. */
    double cpu_user_ns_per_read, cpu_sys_ns_per_read;
    /* What the access pattern did to the cache (exact: a bitmap over the file's pages, see
       rb__touch). A page read hits when its page was resident as its iteration started or was
       read before in it: each cold page costs one miss, and readahead's help is not counted
       (fault_hit_rate counts it, for the mmap strategies). */
    char pattern_spec[RB_PATTERN_LEN];   /* rb_pattern_name of the cell's config: "zipf:1.2" */
    int64_t iter_pages_touched[RB_MAX_ITERATIONS];   /* distinct pages each measured iteration read; -1 unknown */
    double pages_touched;        /* their mean, over every round; -1: unknown */
    unsigned touched_iterations; /* iterations in that mean */
    uint64_t page_reads;         /* pages the issued reads spanned (a 16 KiB read at an odd offset: 5) */
    uint64_t cold_pages;         /* pages first read in an iteration that were not resident as it started */
    double hit_rate;             /* 1 - cold_pages / page_reads; -1: residency per page unknown here,
                                    or the strategy bypasses the page cache (cache_bypassed) */
    int cache_bypassed;          /* the strategy's row reads past the page cache (RB_S_DIRECT): no
                                    read of it uses a resident page, so it has no hit rate */
    double fault_hit_rate;       /* mmap strategies: 1 - majflt / page_reads; -1: not measured */
    /* Readers that run together (rb_run_groups): the row's group, 1-based (0: not a group's
       row), of ngroups, run alone or together with the others; its spec as given. */
    unsigned group, ngroups;
    int group_run;               /* RB_RUN_ALONE or RB_RUN_TOGETHER */
    char group_spec[RB_GROUP_SPEC_LEN];
    /* together rows: ops/ms together over alone, paired by round, its 95% interval (two rounds
       or more); NaN unknown */
    double together_ratio, together_ratio_lo, together_ratio_hi;
    /* The group's working set: the pages its last alone iteration read that were resident when
       its alone run ended; together rows: ws_evicted, those of them it read again together that
       were not resident when the together run ended (the others' reads took them). -1: unknown
       (no alone run, or residency cannot be read page by page here). */
    int64_t ws_pages, ws_evicted;
    /* The victim (rb_config.victim): pages 0 when there was none. Its pages resident when
       measuring started and ended; lost: resident at the start and not at the end (a lower
       bound: the light reader reads some back); what the light reader had to read back from
       the device while measured (evicted pages it came to); cachestat's recently evicted pages
       at the end. -1: unknown here. */
    uint64_t victim_pages, victim_reads;
    int64_t victim_resident_before, victim_resident_after, victim_lost;
    int64_t victim_device_read_bytes, victim_recently_evicted;
    uint64_t trace_loops;        /* a replay: how often a thread's stream ran out in a measured
                                    iteration and started again from its first read */
    unsigned files;              /* the files of the path (1: a file; a directory's regular files
                                    with data); every figure above is summed over them */
    unsigned files_small;        /* of them, skipped: shorter than the read size */
    /* Statistics over every measured iteration of every round, filled by rb_run_matrix (rb_run
       alone leaves them zero: rb_stats_of computes them for any list of rates). */
    unsigned rounds;             /* rounds that measured this cell */
    const double *samples;       /* ops/ms of each measured iteration, round by round (owned by
                                    the report); NULL: iter_ops_per_ms[0..iterations) */
    unsigned nsamples;
    double ops_per_ms_median;    /* the headline figure of a matrix run */
    double ci_lo, ci_hi;         /* 95% interval of the cell's rate over its rounds (Student t on the
                                    logarithms of the round medians: asymmetric about the median,
                                    which it need not contain); NaN with fewer than 2 rounds */
    unsigned outliers;           /* samples with a modified z-score over 3.5 (kept in the data) */
    /* With two rounds or more (rb_run_matrix, not a run of groups): this cell against the best
       other strategy of its column (same threads and read size, by median), paired by round
       (rb_paired_ratio). paired_rounds 0 and NaN figures: nothing to pair. */
    const char *paired_with;
    unsigned paired_rounds;
    double paired_ratio, paired_lo, paired_hi;
    /* The machine's own speed while the cell ran, as a program beside the cell would get it:
       a fixed CPU kernel's work in a 10 ms wall-clock window just before the cell's first
       phase and just after its last (a copy per worker up to the CPUs, pinned as the workers
       are; a CPU shared with another program shows), in ns per 2^20 of its iterations
       (comparable between runs of one build). drift: after / before - 1; over rounds, all
       three are the round's that moved most; moved: the rounds in which it changed by more
       than RB_MACHINE_MOVED. 0 and NaN: not measured. */
    double machine_before_ns, machine_after_ns, machine_drift;
    unsigned machine_moved;
} rb_result;

#define RB_MACHINE_MOVED 0.10   /* a CPU kernel 10% faster or slower after a cell than before */

/* A cell observer (rb_config.observer): code that runs beside each cell, called by the cell's
   coordinating thread, so that a tool (the victim) or a caller can watch a cell without the
   runner naming it. check: before anything runs (rb_run, rb_matrix_check), NULL: nothing to
   check; a nonzero return with why refuses the run. cell: after the cell's cache is prepared,
   before its threads start; it
   keeps what it needs in *state, and a nonzero return (with why) fails the cell. measuring:
   as the first measured iteration starts; measured: as the last one ended. close: after the
   threads are joined, after every call of cell whatever it returned, to free *state. rows:
   the cell's results, one per group (one for rb_run), to fill and warn in. */
typedef struct rb_observer {
    int (*check)(const struct rb_observer *o, const rb_config *c, char *why, size_t whylen);
    int (*cell)(const struct rb_observer *o, const rb_config *c, void **state, char *why, size_t whylen);
    void (*measuring)(void *state, rb_result *const *rows, unsigned nrows);
    void (*measured)(void *state, rb_result *const *rows, unsigned nrows);
    void (*close)(void *state, rb_result *const *rows, unsigned nrows);
    void *user;
} rb_observer;

/* A file's identity (rb_config.ident): its device, inode and size, or each file's of a
   directory (in name order, as a run reads them). */
typedef struct rb_ident_file {
    char *path;
    uint64_t dev, ino, size;
} rb_ident_file;

typedef struct rb_ident {
    rb_ident_file *files;
    unsigned n;
    int dir;                 /* path is a directory: files are its files */
} rb_ident;

/* rb_ident_take(id, path, err), rb_ident_check(id, path, why, len), rb_ident_free(id): what a file
   (or each file of a directory) is when a run begins: device, inode, size. rb_config.ident: every
   cell checks its file against it before preparing anything and fails with RB_ECHANGED when it
   changed between cells; rb_run_matrix and rb_advise take one when none is given. */
/* RB_OK, or the status of a path that cannot be read (err says why; id is then empty). */
RBDEF int rb_ident_take(rb_ident *id, const char *path, rb_error *err);

/* 0: path is still what id says; 1: it changed, why says how ("file changed since the run
   started: ..."). */
RBDEF int rb_ident_check(const rb_ident *id, const char *path, char *why, size_t whylen);

RBDEF void rb_ident_free(rb_ident *id);

RBDEF void rb_config_defaults(const rb_config *in, rb_config *out);

RBDEF int rb_cpu_allowed(unsigned cpu);   /* 1: this process may run on CPU cpu; 0: not; -1: unknown */

/* rb_run(cfg, s, result): runs one cell (one strategy, one thread count, one read size): threads
   start on a barrier, run warmup, then cfg->iterations measured iterations of cfg->duration_ns
   each; every op is timed into a per-thread histogram; results are merged after join. cfg->cpus
   pins worker i to cpus[i % ncpus] (rb_cpu_allowed checks one): a depth-1 reader's IOPS depends on
   which CPU the disk interrupts. cfg->rate > 0 runs an open loop: ops start on a schedule (uniform
   or poisson, rate per thread), latency from each intended start, service time from the actual
   one, a rate not kept up with is a warning; cfg->think_ns adds busy computation between a closed
   loop's ops. */
RBDEF int rb_run(const rb_config *cfg, const struct rb_strategy *s, rb_result *res);

/* rb_cell_memory(cfg, s), rb_cell_fits(cfg, s, why, whylen): the bytes a cell allocates (threads x
   buffers, x reads per op for the batch strategies), and whether they fit in rb_mem_available()
   less 16 MiB; rb_run refuses (RB_ENOMEM) a cell that does not, before it allocates anything, and
   rb_matrix_check a matrix whose largest cell (rb_matrix_memory) does not. */
RBDEF uint64_t rb_cell_memory(const rb_config *cfg, const struct rb_strategy *s);   /* bytes a cell allocates */

RBDEF int rb_cell_fits(const rb_config *cfg, const struct rb_strategy *s, char *why, size_t whylen); /* RB_ENOMEM: no */

/*
   A cell of groups: each group one kind of reader (its own strategy, threads, pattern, read
   size, reads per op) and all of them on the cell's file at once, released by one barrier and
   measured over the same iterations, each group a row of its own. The interference is
   measured: each group alone first (each run from the same prepared cache state), then all
   together; per group the ratio of its rate together to alone, and how much of its working
   set the others evicted (rb_result.ws_*). */
enum { RB_ALONE_FIRST = 0, RB_ALONE_NO = 1, RB_ALONE_ONLY = 2 };   /* alone runs first, none, only */

/* -- 1.7 the strategy interface, targets and workers (declarations) -- */

typedef struct rb_strategy rb_strategy;

/* One file of a directory's target: its descriptor (opened as the strategy asks) and where
   it lies in the files' joint space. */
typedef struct rb_target_file {
    char *path;             /* owned by the target */
    int fd;
    uint64_t size, base;    /* base: a page multiple, the end of the file before rounded up */
    uint64_t data_seed;     /* what setup wrote there: rb_file_seed(cfg->data_seed, its name) */
} rb_target_file;

/* Shared by the threads of one cell: the file, and a mapping owned by this strategy alone
   (advice is per mapping: two strategies sharing one would overwrite each other's).
   A directory is its files one after another in name order, each at a page boundary: an
   offset names a file and a place in it (rb_target_file_at), and a read never crosses a
   file's end. The mmap strategies map each file on its own (a mapping, so its own advice,
   per file) at map + base, inside one reserved range: map + offset reads the right file. */
typedef struct rb_target {
    const rb_strategy *s;
    const rb_config *cfg;   /* with defaults applied */
    int fd;                 /* a directory: the first file's (a probe's read) */
    unsigned char *map;
    uint64_t map_len;       /* a directory: the joint space's length */
    uint64_t size;          /* readable bytes: offsets stay below */
    rb_target_file *files;  /* a directory's files, nfiles of them (NULL: a file named alone) */
    unsigned nfiles;
    size_t page;
    int mincore_trusted;    /* this user owns or may write the file: mincore tells the truth */
    rb_sampler smp;         /* where the reads go (rb_sampler_init with size) */
    /* The backoff-shared counter (PR #15585) every thread of this cell shares, written by
       every thread's calls: on a cache line of its own (the padding), not next to the fields
       every op reads. backoff (PR #13381) keeps a counter per thread, in its prefetcher. */
    char pad_before_counter_[64];
    uint64_t prefetch_counter;
    uint64_t sweep_next;    /* adaptive's sweep: the window any thread of the cell hints next */
    char pad_after_counter_[48];
    struct rb_result *res;  /* where warnings about this cell go (close failures); may be NULL */
    void *user;             /* free for a custom strategy */
} rb_target;

/* Owned by one worker thread: nothing here is shared, so nothing needs a lock. */
typedef struct rb_worker {
    rb_target *t;
    unsigned index;
    unsigned char *buf;     /* page-aligned; reads_per_op * read_size for io_uring */
    size_t buf_len;
    /* The length of each read of the op, lens[i] for read i (a trace's reads have their own);
       NULL: cfg.read_size for every read. read_size is then the longest read, so the slots of
       buf stay read_size apart. A strategy asks rb_worker_read_len(w, i). */
    const uint64_t *lens;
    int fd;                 /* per-thread descriptor for strategies that want one */
    void *ring;             /* io_uring, when built with liburing */
    uint64_t rng[4];
    uint64_t cursor;        /* sequential position, in reads */
    uint64_t run_next;      /* runs: the next read's offset (with many files, inside run_file) */
    unsigned run_left;      /* runs: reads left in the run */
    unsigned run_file;      /* runs over many files: the file (of the sampler's) the run is in */
    int *fds;               /* a directory: the per-thread descriptors, one per file (t->nfiles) */
    uint64_t madvise_calls, madvise_failed;
    int madvise_errno;      /* errno of the first failed madvise */
    uint64_t io_errors, short_reads, verify_mismatches;
    int io_errno;           /* errno of the first failed read */
    uint64_t sink;          /* keeps the compiler from discarding what was read */
    unsigned char *expect;  /* verify scratch */
    rb_prefetcher pf;       /* the prefetch-policy strategies' per-thread prefetcher */
    uint64_t fadvise_calls, fadvise_failed;   /* posix_fadvise hints (pread-fadvise) */
    int fadvise_errno;      /* errno of the first failed posix_fadvise */
    uint64_t nowait_reads, nowait_served;     /* pread-nowait: reads tried with RWF_NOWAIT, and
                                                 those it served whole without blocking */
    unsigned inflight_max;  /* io_uring-qd: the most reads it had in flight at once */
    rb_hist *read_lat;      /* the runner's per-read latency histogram, for strategies whose
                               reads outlive their op (io_uring-qd); record only while measuring */
    int measuring;          /* the running phase is a measured iteration, not the warmup */
    /* Set by a thread_init whose reads outlive their op: the runner calls it after each
       phase's last op, untimed, to finish what is in flight (nothing of one phase may land
       in the next, after an eviction). NULL: nothing to finish. */
    void (*phase_end)(struct rb_worker *w);
    /* Threads that do this worker's I/O (pread-nowait's pool): their faults, CPU time and
       device reads are counted as the worker's (Linux thread ids, set by thread_init). */
    int helper_tid[RB_MAX_HELPERS];
    unsigned nhelpers;
    rb_prefetch_accounting pa;    /* what became of this thread's hints (sampled) */
    rb__pa_follow paf;            /* the hints being followed to their reads */
    void *user;
} rb_worker;

enum {
    RB_S_MMAP = 1u << 0,     /* reads through a mapping */
    RB_S_DIRECT = 1u << 1,   /* bypasses the page cache: page-aligned offsets and sizes */
    RB_S_OPTIONAL = 1u << 2, /* needs a library or kernel feature that may be missing */
    RB_S_NOIO = 1u << 3,     /* does no I/O (the harness's own cost) */
    RB_S_BATCH = 1u << 4,    /* needs a buffer slot per read of the op */
    RB_S_QUEUE = 1u << 5     /* keeps cfg.iodepth reads in flight across ops: a slot per read in flight */
};

/* A row's facts are fields, never parsed from its name: what the mapping is advised, how the
   runner hints each read before the op reads them, and through which prefetch policy. */
enum { RB_ADVICE_NORMAL = 0, RB_ADVICE_RANDOM, RB_ADVICE_SEQUENTIAL };   /* a mapping's advice */

enum {
    RB_HINT_NONE = 0,      /* the op reads, nothing before */
    RB_HINT_MADVISE,       /* page-aligned MADV_WILLNEED on the mapping, each read, through the policy */
    RB_HINT_FADVISE,       /* posix_fadvise(WILLNEED) on each read's page range (every read) */
    RB_HINT_POPULATE       /* MADV_POPULATE_READ on each read's range: a synchronous prefault (not a hint
                              the prefetch accounting follows: it cannot be late) */
};

enum { RB_RWF_NOWAIT = 1, RB_RWF_DONTCACHE = 2 };   /* a preadv2 row's flag */

struct rb_strategy {
    const char *name;     /* stable id used by the CLI and every output */
    const char *summary;  /* one line for `readbench list` */
    unsigned flags;       /* RB_S_* */
    int advice;           /* RB_S_MMAP: the mapping's advice, RB_ADVICE_* */
    int hint;             /* RB_HINT_*: the runner hints each read of an op, then read_op reads them */
    int policy;           /* with RB_HINT_MADVISE: the prefetch policy that gates each hint (RB_PF_*;
                             RB_PF_ALWAYS, 0: every read, as madvise calls) */
    int rwf;              /* the preadv2 rows: RB_RWF_* */
    int arg;              /* free for a custom strategy's own parameter */
    int (*open)(rb_target *t, char *why, size_t whylen);
    int (*thread_init)(rb_worker *w, char *why, size_t whylen); /* may be NULL */
    int (*read_op)(rb_worker *w, const uint64_t *offsets, unsigned n); /* one op = n reads */
    void (*thread_fini)(rb_worker *w);                          /* may be NULL */
    void (*close)(rb_target *t);
};

/* rb_strategies(&n), rb_strategy_find(name): the strategy table and lookup by stable name. */
RBDEF const rb_strategy *rb_strategies(unsigned *count);

RBDEF const rb_strategy *rb_strategy_find(const char *name);

/* rb_strategy_probe(s, cfg, why, whylen): whether strategy `s` can run here with `cfg`, and if
   not, why. */
RBDEF int rb_strategy_probe(const rb_strategy *s, const rb_config *cfg, char *why, size_t whylen);

/* Helpers a custom strategy uses from its read_op. */
/* The file a read at offset `off` goes to (its index in t->files; 0 for one file) and where
   in it (*local). rb_worker_fd_at: the descriptor to read it with (the thread's own, if it
   has them, else the target's). rb_worker_check takes offsets of the joint space too. */
RBDEF unsigned rb_target_file_at(const rb_target *t, uint64_t off, uint64_t *local);

RBDEF int rb_worker_fd_at(const rb_worker *w, uint64_t off, uint64_t *local);

RBDEF void rb_worker_check(rb_worker *w, const unsigned char *p, uint64_t off, size_t len);

RBDEF int rb_worker_advise(rb_worker *w, uint64_t off, uint64_t len, int advice);

RBDEF uint64_t rb_worker_read_len(const rb_worker *w, unsigned i);   /* bytes of read i of the op */

/* rb_page_range(off, len, page, map_len, &start, &alen): the page-aligned range madvise must be
   given for [off, off+len): start rounded down to the page, length grown by the same amount,
   clamped to the mapping. An unaligned start makes madvise fail with EINVAL and do nothing:
   Lucene's benchmark lost its whole prefetch effect that way. */
RBDEF int rb_page_range(uint64_t off, uint64_t len, uint64_t page, uint64_t map_len,
                        uint64_t *start, uint64_t *alen);

/* -- 1.10 files: content, setup, outputs, directories (declarations) -- */

/* Everything readbench writes (a setup file, a report, a chart) goes to a temporary file
   beside its target, renamed over it only when complete: a failure or a signal leaves the
   earlier file as it was. Only regular files are created or replaced. Flags: */
#define RB_OUT_REPLACE 1   /* an existing regular file may be replaced (setup's "force") */

#define RB_OUT_FOLLOW 2    /* a symlink as the last path component: replace its target, not the link */

#define RB_OUT_STREAM 4    /* a character device or FIFO (/dev/stdout, /dev/null) is written in place */

typedef struct rb_outfile {
    int fd;                /* write here; -1: not open */
    FILE *f;               /* set by rb_outfile_stdio(); commit and abort close it */
    int stream;            /* a device or FIFO written in place: nothing to rename */
    int flags;             /* RB_OUT_* as opened */
    char path[4096];       /* the file created or replaced (a followed link's target) */
    char tmp[4320];        /* the temporary beside it; "" for a stream */
} rb_outfile;

/* 1: a and b name the same file (same device and inode, through any symlink or hard link;
   two names that do not exist yet: the same name in the same directory). 0: not. */
RBDEF int rb_same_file(const char *a, const char *b);

/* rb_outfile_open(o, path, flags, err), rb_outfile_commit(o, err), rb_outfile_abort(o, err): the
   one way readbench writes a file: a temporary beside the target, fsync'ed and renamed into place
   by commit, removed by abort (with signals held). Only regular files are replaced; a device or
   FIFO is written in place when RB_OUT_STREAM allows it. rb_same_file() and rb_check_outputs()
   keep an output off an input; rb_outfiles_open() and rb_outfiles_close() do all of it for a
   command's reports. */
/* RB_OK; RB_ENOTREG (not a regular file, or a symlink without RB_OUT_FOLLOW: nothing opened);
   RB_EEXIST (a file is there and no RB_OUT_REPLACE); RB_EPERM/RB_ESYS (the directory refuses). */
RBDEF int rb_outfile_open(rb_outfile *o, const char *path, int flags, rb_error *err);

RBDEF int rb_outfile_commit(rb_outfile *o, rb_error *err);    /* flush, fsync, rename into place */

RBDEF int rb_outfile_abort(rb_outfile *o, rb_error *err);     /* close and remove the temporary */

/* Returns nonzero to abort (setup then removes its temporary file and returns RB_EINTR). */
typedef int (*rb_progress_fn)(uint64_t done, uint64_t total, void *user);

RBDEF uint64_t rb_data_word(uint64_t data_seed, uint64_t index);

/* rb_fill_pattern(buf, off, len, data_seed): the bytes that [off, off+len) of a setup file hold. */
RBDEF void rb_fill_pattern(void *buf, uint64_t off, size_t len, uint64_t data_seed);

/* rb_setup_file(path, size, data_seed, flags, progress, err): writes `size` bytes whose content is
   a pure function of (data_seed, offset): word i (8 bytes, little-endian) is
   rb_data_word(data_seed, i). Incompressible, never sparse, and every read can later be checked
   with rb_fill_pattern(). Refuses an existing file unless flags has RB_OUT_REPLACE (1, "force"),
   and a symlink unless RB_OUT_FOLLOW; writes beside the target and renames over it after the last
   fsync, so a failure leaves the old file whole. */
/* flags: RB_OUT_REPLACE (1, "force") and RB_OUT_FOLLOW. */
RBDEF int rb_setup_file(const char *path, uint64_t size, uint64_t data_seed, int flags,
                        rb_progress_fn progress, void *user, rb_error *err);

/* Many files: a directory is read as every regular file in it with data (not its
   subdirectories, not its symlinks, not its empty files). At most RB_MAX_FILES. */
#define RB_MAX_FILES 65536u

/* The data seed of the file called `name` (its last path component) in a directory: distinct
   per name, so a read from the wrong file fails --verify. A file named alone uses data_seed. */
RBDEF uint64_t rb_file_seed(uint64_t data_seed, const char *name);

/* nfiles files of size / nfiles bytes each in dir (made if missing; its parent must exist),
   named part-0000, part-0001, ... (name order is their order), each written as rb_setup_file
   writes one (its content rb_file_seed's pattern). Refuses before creating anything: a dir
   that is not a directory, a file there that is not regular, or one that exists without
   RB_OUT_REPLACE. *others (may be NULL): regular files with data already in dir besides those
   written (a run on dir reads them too). nfiles 0: dir is one file, as rb_setup_file writes
   it (a driver calls this one function). A set is marked incomplete while it is written
   (RB_SETUP_INCOMPLETE in dir, holding the command that completes it, made before the first
   file and removed after the last): an interrupted or failed setup leaves the mark, and
   rb_check_file refuses the directory until a setup of it completes. */
#define RB_SETUP_INCOMPLETE ".readbench-incomplete"   /* never read as one of the directory's files */

/* rb_setup_files(dir, size, n, data_seed, flags, progress, user, &others, err), rb_file_seed(seed,
   name): n files of size/n bytes in dir (made if missing), part-0000 ..., each written as
   rb_setup_file writes one, file NAME with the data seed rb_file_seed(data_seed, NAME): a read
   from the wrong file fails --verify. Everything it would refuse is refused before anything is
   created. Every function that takes the benchmark file's path also takes a directory: its regular
   files with data, in name order (not subdirectories, symlinks or empty files). */
RBDEF int rb_setup_files(const char *dir, uint64_t size, unsigned nfiles, uint64_t data_seed, int flags,
                         rb_progress_fn progress, void *user, unsigned *others, rb_error *err);

typedef struct rb_file_info {
    uint64_t size;           /* a directory: every file's, summed (as allocated, sparse, zero_head) */
    unsigned files;          /* 1, or a directory's files with data */
    uint64_t allocated;    /* st_blocks * 512 */
    int sparse;            /* allocated < size: holes are never read from the device */
    int zero_head;         /* the first MiB is all zeros */
    int setup_made;        /* its first bytes are what rb_setup_file writes (default data seed):
                              readbench made it, so replacing it destroys nothing of the user's */
} rb_file_info;

/* rb_check_file(path, need_size, info, err): stat the benchmark file: size, allocated bytes
   (sparse?), whether its first MiB is all zeros. The numbers of a sparse or zero file are wrong,
   because holes are never read from the device. Every function that opens the user's file accepts
   only a regular file (RB_ENOTREG for a FIFO, device, directory or /proc file), checked before any
   open that could block. A directory's set that setup left incomplete is refused.
   rb_check_one_file for the commands of one file (a directory refused, naming one of its files);
   rb_report_file and rb_report_refused say what was found, and how to make a missing file. */
RBDEF int rb_check_file(const char *path, uint64_t need_size, rb_file_info *info, rb_error *err);

/* rb_check_file for a command that measures one file (`command`: "warmup", "prefetch"): a
   directory is refused with RB_ENOTREG and a line that names one of its files and the commands
   that read a directory. */
RBDEF int rb_check_one_file(const char *path, uint64_t need_size, const char *command, rb_file_info *info,
                            rb_error *err);

/* -- 1.11 cache control and memory (declarations) -- */

typedef struct rb_residency_info {
    uint64_t pages, resident;
    uint64_t dirty, writeback;   /* cachestat only; dirty pages cannot be evicted */
    int trusted;           /* 0: the kernel would report every page resident (see below) */
    const char *method;    /* "cachestat" or "mincore" */
    int no_backing;        /* tmpfs or ramfs: the page cache is the file's only copy, never evicted */
    unsigned files;        /* 1, or a directory's files, every count above summed over them */
} rb_residency_info;

typedef struct rb_hog {
    void *mem;
    uint64_t size;
    int locked;            /* 0: mlock was refused, but with no swap touched memory stays put */
    char warning[RB_REASON_LEN];   /* "" or why the hog was taken the slow way (no huge pages): the
                                      caller shows it; the library never prints */
} rb_hog;

/* rb_evict(path, err), rb_drop_caches(err), rb_load(path, err), rb_residency(path, out, err):
   page-cache control: evict one file (posix_fadvise DONTNEED; needs no root), drop every clean
   cache (root), read a file once so it is warm, count resident pages. A directory: each of its
   files, the counts summed (out->files says how many). */
RBDEF int rb_evict(const char *path, rb_error *err);

/* rb_prewarm(path, fraction, seed, err): make exactly `fraction` of the file's pages resident, a
   reproducible random choice, the rest not ("50% cold" as a setting). */
RBDEF int rb_prewarm(const char *path, double fraction, uint64_t seed, rb_error *err);

/* rb_hog_take(hog, size, err), rb_hog_release(hog, err), rb_mem_available(): pin anonymous memory
   (mlock) so the page cache has less room: a machine with less RAM, made on this one. A hog taken
   with small pages (huge pages refused) says why in hog->warning; the library prints nothing.
   rb_mem_available() is the memory this process may still take: MemAvailable, or less under a
   memory cgroup limit (v1 or v2, the tightest up to the root; rb_memcg_read, whose parsers of
   /proc/self/cgroup, mountinfo and the cgroup files are public). */
RBDEF int rb_hog_take(rb_hog *h, uint64_t size, rb_error *err);

RBDEF int rb_hog_release(rb_hog *h, rb_error *err);

RBDEF int64_t rb_mem_available(void);

RBDEF uint64_t rb_mem_margin(uint64_t room);

/* The memory cgroup that bounds this process (v1 or v2): the tightest from its own cgroup up to
   the root of the hierarchy's mount. rb_memcg_read: 0, or -1 where there is none to read. */
typedef struct rb_memcg {
    int version;              /* 1 or 2; 0: in no memory cgroup this build can read */
    long long limit;          /* bytes; -1: no limit anywhere up the hierarchy */
    long long usage;          /* bytes charged to the limiting cgroup; -1 unknown */
    long long file_cache;     /* its page cache (active_file + inactive_file); -1 unknown */
    long long room;           /* rb_memcg_room(limit, usage, file_cache); -1: no limit */
    char dir[1024];           /* the limiting cgroup's directory ("" none) */
} rb_memcg;

RBDEF int rb_memcg_read(rb_memcg *out);

/* Its parsers, pure functions on text. rb_memcg_path: from /proc/self/cgroup's text, the
   process's memory cgroup (v1's memory line first, else v2's "0::" line) and its version; 0:
   found. rb_memcg_mount: from one /proc/self/mountinfo line (any length), when it is that
   hierarchy's mount, the cgroup's directory (mount point + the path below the mount's root);
   0: it is. rb_memcg_limit: a limit file's text in bytes; -1 no limit (v2 "max", v1's
   near-2^63 number), -2 malformed. rb_memcg_stat: "key N" of memory.stat; -1 missing.
   rb_memcg_room: limit - usage + file_cache, within [0, limit]; -1 no limit. */
RBDEF int rb_memcg_path(const char *proc_self_cgroup, int *version, char *path, size_t len);

RBDEF int rb_memcg_mount(const char *mountinfo_line, int version, const char *path, char *dir, size_t len);

RBDEF long long rb_memcg_limit(const char *text);

RBDEF long long rb_memcg_stat(const char *memory_stat, const char *key);

RBDEF long long rb_memcg_room(long long limit, long long usage, long long file_cache);

RBDEF int rb_load(const char *path, rb_error *err);

RBDEF int rb_drop_caches(rb_error *err);

RBDEF int rb_residency(const char *path, rb_residency_info *out, rb_error *err);

/* -- 1.12 the matrix (declarations) -- */

/* The grid: results[(z * nstrategies + i) * nthreads + t] is strategy i, thread count t, read
   size z (rb_report_cell); a cell past count was not run. */
typedef struct rb_report {
    const rb_result *results;
    unsigned count;
    const double *percentiles;   /* NULL: 50, 90, 99, 99.9 */
    unsigned npercentiles;
    const rb_config *cfg;        /* for json's "config" */
    const struct rb_env *env;           /* for json's "env"; may be NULL */
    const char *const *strategies; unsigned nstrategies;   /* rows, in order */
    const unsigned *threads; unsigned nthreads;            /* columns */
    const uint64_t *read_sizes; unsigned nread_sizes;
    unsigned rounds;             /* of a matrix run, the rounds that started; 0: 1 */
    unsigned rounds_asked;       /* the rounds asked for (more than rounds: interrupted); 0: rounds */
    int interrupted;             /* the caller's stop flag ended the run before every cell ran every
                                    round: cells with fewer rounds than asked (rb_result.rounds)
                                    are the ones it cut short */
    const unsigned *order;       /* rounds x count cell indices, the order each round ran; may be NULL */
    uint64_t round_seed;         /* the seed of the rounds' shuffled order */
    const char *scenario;        /* the caller's name for the case measured ("cold"); may be NULL */
    unsigned ngroups;            /* a run of reader groups (its rows are rb_run_groups'); 0: none */
    int alone;                   /* RB_ALONE_* of a run of groups */
    void *owned;                 /* what rb_run_matrix allocated; rb_report_free releases it */
} rb_report;

RBDEF const rb_result *rb_report_cell(const rb_report *r, unsigned strategy, unsigned thread, unsigned size);

#define RB_MAX_AXIS 64           /* values per axis: strategies, thread counts, read sizes */

#define RB_MAX_PERCENTILES 16

#define RB_MAX_ROUNDS 1000

enum { RB_EVENT_ROUND = 0, RB_EVENT_CELL = 1, RB_EVENT_DONE = 2 };

typedef struct rb_matrix_event {
    int kind;                    /* ROUND: a round starts; CELL: a cell is about to run; DONE: it ran */
    unsigned round, rounds;      /* round counts from 0 */
    const unsigned *order;       /* ROUND: this round's grid indices in run order */
    unsigned ncells;
    unsigned cell;               /* CELL, DONE: the grid index (see rb_report) */
    const rb_config *cfg;        /* CELL, DONE: the cell's settings */
    const char *strategy;
    const rb_result *result;     /* DONE: this round's result of the cell */
} rb_matrix_event;

typedef void (*rb_matrix_fn)(const rb_matrix_event *ev, void *user);

typedef struct rb_matrix {
    rb_config cfg;               /* every cell's settings; threads and read_size come from the axes;
                                    cfg.stop ends the run between cells (and inside one) */
    const rb_strategy *const *strategies;   /* NULL: every strategy in the table, and a strategy
                                               that cannot run here says why in its cells */
    unsigned nstrategies;
    const unsigned *threads; unsigned nthreads;      /* NULL: cfg.threads */
    const uint64_t *read_sizes; unsigned nread_sizes; /* NULL: cfg.read_size */
    unsigned rounds;             /* the whole matrix this many times, shuffled; 0: 1 (in order) */
    uint64_t round_seed;         /* the rounds' shuffled order; 0: derived from cfg.seed */
    rb_matrix_fn progress;       /* may be NULL */
    void *user;
    const struct rb_matrix_hook *hook;   /* rows of a tool's own (reader groups); NULL: the grid */
} rb_matrix;

/* A tool that runs a matrix's rows its own way (reader groups: rb_groups_attach), while the
   matrix keeps the rounds, the results and their statistics. check: what the matrix asks of
   it (have: the bytes there are to read, 0 unknown); memory: what its dearest cell allocates;
   rows: how many rows it has (rows NULL), or each row set up (its strategy, its name in
   labels; a row's samples pointer is the matrix's: keep it); round: one round of every row,
   each row's result into out (a row left "not run" is not merged), nonzero when stopped;
   finish: after the last round, on the merged rows, and what the report says of them. */
typedef struct rb_matrix_hook {
    int (*check)(const rb_matrix *m, uint64_t have, char *why, size_t whylen);
    uint64_t (*memory)(const rb_matrix *m);
    unsigned (*rows)(const rb_matrix *m, rb_result *rows, const rb_strategy **strategies, char (*labels)[64]);
    int (*round)(const rb_matrix *m, const rb_config *cell, rb_result *out, unsigned round, unsigned rounds);
    void (*finish)(const rb_matrix *m, rb_result *rows, unsigned nrows, rb_report *rep);
    const void *user;
} rb_matrix_hook;

/* rb_matrix_check(m, why, len), rb_run_matrix(m, report), rb_report_free(report): the matrix:
   strategies x thread counts x read sizes, every cell once per round. m->rounds > 1 runs the whole
   matrix that many times, each round in its own seeded shuffled order, every cell prepared afresh;
   a progress callback hears each round and cell (the library prints nothing); cfg.stop ends the
   run and the cells not run are marked "not run". The report indexes its grid directly
   (rb_report_cell). rb_matrix_check refuses what cannot be a matrix (duplicates, a read size past
   the file, direct with an unaligned size). */
/* RB_OK, or RB_EINVAL with the reason in why: an axis empty of sense (too long, a duplicate,
   a zero), a read size larger than the file, a direct strategy named with a read size that is
   not a page multiple. */
RBDEF int rb_matrix_check(const rb_matrix *m, char *why, size_t whylen);

RBDEF uint64_t rb_matrix_memory(const rb_matrix *m);   /* what its largest cell allocates */

RBDEF int rb_run_matrix(const rb_matrix *m, rb_report *rep);

RBDEF void rb_report_free(rb_report *rep);

/* Percentiles a report can label: each in (0, 100], none twice, at most RB_MAX_PERCENTILES. */
RBDEF int rb_percentiles_check(const double *p, unsigned n, char *why, size_t whylen);

/* -- 1.13 statistics (declarations) -- */

/*
   Intervals come from rounds, not iterations: iterations inside a round share the machine's
   state, rounds are the replicates (see "statistics" in the implementation). */
typedef struct rb_stats {
    unsigned n, rounds;
    double median;               /* of all n samples; NaN when n == 0 */
    double center;               /* the geometric mean of the round medians; NaN with fewer than 2 rounds */
    double ci_lo, ci_hi;         /* 95% t interval of center; NaN with fewer than 2 rounds */
    unsigned outliers;           /* modified z-score 0.6745 (x - median) / MAD over 3.5 */
} rb_stats;

/* rb_stats_of(x, n, rounds, stats), rb_ratio_ci(...), rb_paired_ratio(...): a cell's statistics:
   the median of its per-iteration rates, a 95% interval from its rounds (Student t on the
   logarithms of the round medians; NaN with one round: iterations of a round are not independent),
   and outliers by the modified z-score 0.6745 (x - median) / MAD over 3.5 (Iglewicz-Hoaglin, as
   hyperfine), counted, kept. rb_ratio_ci: NEW/BASE of two separate runs (Welch); rb_paired_ratio:
   two cells of one run, paired by round. */
/* x: rounds of n / rounds samples each, round after round (n a multiple of rounds). A list of
   independent samples is rounds == n. */
RBDEF void rb_stats_of(const double *x, unsigned n, unsigned rounds, rb_stats *out);

/* NEW/BASE of two cells from separate runs (each its samples and rounds, as rb_stats_of): the
   ratio of their centers and its 95% Welch interval. 0: done; -1: fewer than 2 rounds on a
   side, uneven rounds, or a round median that is not positive. */
RBDEF int rb_ratio_ci(const double *base, unsigned nb, unsigned rounds_b, const double *cur, unsigned nc,
                      unsigned rounds_c, double *ratio, double *lo, double *hi);

/* Two cells of one matrix run paired by round: in each round both measured, the ratio of A's
   median to B's in that round; out: those ratios as independent samples (rb_stats_of; its
   center the ratio). Returns the rounds paired (0: a cell did not measure, or a round's
   median of B is not positive). */
RBDEF unsigned rb_paired_ratio(const rb_result *a, const rb_result *b, rb_stats *out);

#define RB_PAIRED_NOISE 0.01   /* paired by round in one run: criterion's noise threshold */

/* -- 1.14 environment (declarations) -- */

typedef struct rb_env {
    char os[128], kernel[128], cpu[128], fs[32], device[64], thp[32], compiler[128];
    const char *flags;
    long cpus;
    long long ram_total;          /* bytes; -1 unknown */
    long long ram_available;      /* what this process may still take: MemAvailable, or the room its
                                     memory cgroup leaves where that is less (rb_mem_available) */
    long long cgroup_limit, cgroup_usage;   /* the memory cgroup that bounds it; -1: none, unknown */
    long page_size;
    long long file_size;    /* a directory: its files' bytes */
    long files;             /* 1, or a directory's files; 0 unknown */
    long read_ahead_kb, rotational, fault_around_bytes;  /* -1 unknown */
    long max_sectors_kb;    /* the device's largest request; -1 unknown. One WILLNEED loads at most
                               max(read_ahead_kb, max_sectors_kb) (force_page_cache_ra) */
    char lru_gen[16];       /* /sys/kernel/mm/lru_gen/enabled: "0x0007" (a mask, 0 off); "" absent */
    char irq_cpus[64];      /* CPUs that take the device's interrupts, "1" or "0,2"; "" unknown */
    const char *clock;
    double clock_res_ns, clock_cost_ns;
    /* ns per page to touch fresh anonymous memory the first time, and again (-1 unknown).
       Normally well under a microsecond; on a VM where the hypervisor takes part in every new
       mapping (shadow page tables, as PVM does) or has taken the memory back (ballooning, free
       page reporting, host swap) each first touch waits for the host, and so does every fault
       that maps or loads a page (rb__env_first_touch). */
    double page_touch_ns, page_retouch_ns;
    int root;
    int liburing;
} rb_env;

/* rb_env_collect(env, path), rb_env_print(f, env): what decides the result: kernel, CPU, RAM (what
   this process may take: a memory cgroup's limit included), filesystem, block device and its
   read_ahead_kb and max_sectors_kb, transparent huge pages, MGLRU, the clock's cost.
   rb_mountinfo_fs and rb_irq_cpus are its parsers, on text, so that lines of any length are tested
   without the machine having them. */
RBDEF void rb_env_collect(rb_env *env, const char *path);

/* The line that says a fresh page is slow to touch here and what that does to the figures;
   1 when env->page_touch_ns is at or above the threshold (5 us), 0 (and "") otherwise. */
RBDEF int rb_env_slow_touch_warning(const rb_env *env, char *out, size_t len);

/* The file's size over the memory it can be cached in: RAM, or the memory cgroup's limit where
   that is lower (a container's page cache is charged to it); -1 unknown. *what says which. */
RBDEF double rb_env_file_ram_ratio(const rb_env *env, const char **what);

/* From the text of /proc/interrupts: the CPUs that took at least 1% of the interrupts of the
   driver node `name` (virtio1, nvme0: what /sys/block/DEV/device points to). 0: found. */
RBDEF int rb_irq_cpus(const char *interrupts, const char *name, char *out, size_t outlen);

/* From one line of /proc/self/mountinfo (any length): the filesystem type, when the line is
   the mount of device maj:min. 0: found. */
RBDEF int rb_mountinfo_fs(const char *line, unsigned maj, unsigned min, char *fs, size_t fslen);

#ifdef __cplusplus
}
#endif
#endif /* READBENCH_H */

#if defined(READBENCH_IMPLEMENTATION) && !defined(READBENCH_IMPLEMENTATION_DONE)
#define READBENCH_IMPLEMENTATION_DONE

#if defined(__linux__)
#define RB__LINUX 1
#elif defined(__APPLE__)
#define RB__APPLE 1
#else
#error "readbench.h: only Linux and macOS are supported"
#endif

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#if defined(RB__LINUX)
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#else
#include <xlocale.h>       /* newlocale, uselocale */
#include <sys/mount.h>
#include <sys/param.h>
#include <sys/sysctl.h>
#endif

/* Feature flags: each Linux-only part can be compiled out with RB_NO_LINUX so that the
   POSIX fallbacks are built and tested on Linux too. */
#if defined(RB__LINUX) && !defined(RB_NO_LINUX)
#define RB__HAS_PROC 1            /* /proc and /sys readers, drop_caches */
#if defined(O_DIRECT)
#define RB__HAS_O_DIRECT 1
#endif
#if defined(RUSAGE_THREAD)
#define RB__HAS_RUSAGE_THREAD 1
#endif
#include <sched.h>
#if defined(CPU_SET)
#define RB__HAS_AFFINITY 1
#endif
#if defined(READBENCH_LIBURING)
#define RB__HAS_URING 1
#include <liburing.h>
#endif
/* preadv2's per-read flags: RWF_NOWAIT (4.14) and RWF_DONTCACHE (6.14, include/uapi/linux/fs.h;
   libc headers older than the kernel lack it). A kernel or filesystem without one answers
   EOPNOTSUPP, found when the strategy opens. */
#include <sys/uio.h>
#if defined(RWF_NOWAIT)
#define RB__HAS_PREADV2 1
#if !defined(RWF_DONTCACHE)
#define RWF_DONTCACHE 0x00000080
#endif
#endif
/* A synchronous prefault of a range (5.14, the same value on every architecture); an older
   kernel answers EINVAL, found when the strategy opens. */
#if !defined(MADV_POPULATE_READ)
#define MADV_POPULATE_READ 22
#endif
#define RB__HAS_POPULATE 1
#endif
#if defined(RB__APPLE) && defined(F_NOCACHE)
#define RB__HAS_F_NOCACHE 1
#endif
#if defined(POSIX_FADV_DONTNEED) && !defined(RB__APPLE)
#define RB__HAS_FADVISE 1
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Atomics for the few words threads share: the epoch the coordinator advances and the
   failure flag. GCC and clang both have these builtins, in C99 and in C++. */
#define RB__LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define RB__STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)

#define RB__MIN(a, b) ((a) < (b) ? (a) : (b))
#define RB__MAX(a, b) ((a) > (b) ? (a) : (b))

#if defined(__GNUC__) || defined(__clang__)
#define RB__PRINTF(a, b) __attribute__((format(printf, a, b)))
#define RB__TOOL_ONLY __attribute__((unused))   /* a primitive only a tool calls: unused without the tools */
#else
#define RB__PRINTF(a, b)
#define RB__TOOL_ONLY
#endif

/* ==== 1.1 status, messages and text =========================================================== */

/* The longest prefix of s[0..n) that does not end inside a character: when the last
   character starting before n needs more bytes than are left, cut before it. */
static size_t rb__utf8_cut(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = n, need;
    while (i > 0 && n - i < 4 && (p[i - 1] & 0xc0) == 0x80) i--;   /* continuation bytes */
    if (i == 0) return n;
    i--;                                                         /* the lead byte, if any */
    need = p[i] >= 0xf0 ? 4 : p[i] >= 0xe0 ? 3 : p[i] >= 0xc0 ? 2 : 1;
    return n - i < need ? i : n;
}

/* Numbers are written and parsed in the C locale, whatever the host program chose. A program
   that embeds the header and calls setlocale(LC_ALL, "") under de_DE would otherwise get
   "ops_per_ms": 4,02 (invalid JSON), CSV rows with a field too many, and a parser that
   refuses "99.9". uselocale() (POSIX 2008: glibc, musl, macOS via <xlocale.h>) switches the
   calling thread alone, so another thread's locale and the process's setlocale stay as they
   were; the public writers and parsers wrap their work in rb__numloc_enter/leave. If
   newlocale fails (out of memory) the thread keeps its locale: nothing better is possible. */
typedef struct rb__numloc { locale_t c, old; } rb__numloc;

static void rb__numloc_enter(rb__numloc *l)
{
    l->c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    l->old = l->c ? uselocale(l->c) : (locale_t)0;
}

static void rb__numloc_leave(rb__numloc *l)
{
    if (!l->c) return;
    uselocale(l->old);
    freelocale(l->c);
}

/* vsnprintf that cuts between characters when the text does not fit, in the C locale: a
   reason or warning says "37.5%" whatever locale the host program set. */
static void rb__vfmt(char *buf, size_t len, const char *fmt, va_list ap)
{
    int n;
    rb__numloc l;
    if (!len) return;
    rb__numloc_enter(&l);
    n = vsnprintf(buf, len, fmt, ap);
    rb__numloc_leave(&l);
    if (n < 0) buf[0] = 0;
    else if ((size_t)n >= len) buf[rb__utf8_cut(buf, len - 1)] = 0;
}

static void rb__fmt(char *buf, size_t len, const char *fmt, ...) RB__PRINTF(3, 4);
static void rb__fmt(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rb__vfmt(buf, len, fmt, ap);
    va_end(ap);
}

/* A path as a message shows it. Messages have RB_REASON_LEN bytes, and a long path used to
   push the part that says what went wrong ("No such file or directory") off the end. A path
   longer than RB__PATH_SHOWN - 1 bytes keeps its head and its tail, the file name whole
   when it fits, with "..." between: "/very/long/.../name". Every message that names the
   user's file goes through here; the cuts fall between characters. */
#define RB__PATH_SHOWN 144
static const char *rb__short_path(const char *path, char buf[RB__PATH_SHOWN])
{
    enum { HEAD = 40, TAIL = RB__PATH_SHOWN - 1 - HEAD - 3 };
    size_t n = path ? strlen(path) : 0, h, t, k;
    if (!path) return "(null)";
    if (n < RB__PATH_SHOWN) return path;
    for (h = HEAD; h > 1 && path[h - 1] != '/'; h--) {}        /* the head ends after a '/' */
    if (h <= 1) h = rb__utf8_cut(path, HEAD);                 /* or between characters */
    t = n - TAIL;
    for (k = t; k < n && path[k] != '/'; k++) {}
    if (k < n - 1) t = k;                                    /* the tail starts at a '/' */
    else while (t < n && ((unsigned char)path[t] & 0xc0) == 0x80) t++;   /* or a character */
    memcpy(buf, path, h);
    memcpy(buf + h, "...", 3);
    memcpy(buf + h + 3, path + t, n - t + 1);
    return buf;
}

static void rb__seterr(rb_error *e, int status, int err, const char *call, const char *fmt, ...)
{
    va_list ap;
    if (!e) return;
    e->status = status;
    e->err = err;
    snprintf(e->call, sizeof e->call, "%s", call ? call : "");
    va_start(ap, fmt);
    rb__vfmt(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
}

/* One diagnostic channel. A warning belongs to the result: it changes what a number means,
   so every output format shows it. rb__log is the caller's progress line, if it wants one. */
static void rb__warn(struct rb_result *res, const char *fmt, ...) RB__PRINTF(2, 3);
static void rb__warn(struct rb_result *res, const char *fmt, ...)
{
    va_list ap;
    if (!res) return;
    if (res->nwarnings >= RB_MAX_WARNINGS) { res->warnings_dropped++; return; }
    va_start(ap, fmt);
    rb__vfmt(res->warnings[res->nwarnings++], RB_REASON_LEN, fmt, ap);
    va_end(ap);
}

static void rb__log(const rb_config *c, const char *fmt, ...) RB__PRINTF(2, 3);
static void rb__log(const rb_config *c, const char *fmt, ...)
{
    char line[RB_REASON_LEN];
    va_list ap;
    if (!c || !c->log) return;
    va_start(ap, fmt);
    rb__vfmt(line, sizeof line, fmt, ap);
    va_end(ap);
    c->log(c->log_user, line);
}

/* A NULL path is the caller's bug: open() would fail with EFAULT and a message would print
   "(null)" or crash. Every public function that takes a path says so instead. */
static int rb__path_missing(const char *path, rb_error *err)
{
    if (path) return 0;
    rb__seterr(err, RB_EINVAL, EINVAL, "", "no file path given (NULL)");
    return 1;
}

RBDEF const char *rb_status_string(int s)
{
#define RB__STATUS_CASE(name, value, word, text) \
    case value: return text;
    switch (s) { RB_STATUS_LIST(RB__STATUS_CASE) default: return "unknown status"; }
#undef RB__STATUS_CASE
}

RBDEF const char *rb_status_word(int s)
{
#define RB__STATUS_CASE(name, value, word, text) \
    case value: return word;
    switch (s) { RB_STATUS_LIST(RB__STATUS_CASE) default: return "error"; }
#undef RB__STATUS_CASE
}

static size_t rb__page_size(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

static void *rb__aligned_alloc(size_t align, size_t len)
{
    void *p = NULL;
    if (posix_memalign(&p, align, len ? len : align) != 0) return NULL;
    return p;
}

#define RB__IN_C_LOCALE(call)            \
    do {                                 \
        rb__numloc rb__l;                \
        rb__numloc_enter(&rb__l);        \
        call;                            \
        rb__numloc_leave(&rb__l);        \
    } while (0)

RBDEF void rb_format_size(uint64_t b, char *buf, size_t len)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    unsigned u = 0;
    while (u < 5 && b >= 1024 && b % 1024 == 0) { b /= 1024; u++; }
    snprintf(buf, len, "%llu %s", (unsigned long long)b, unit[u]);
}

RBDEF void rb_format_size_arg(uint64_t b, char *buf, size_t len)
{
    static const char unit[] = "\0kmg";
    unsigned u = 0;
    while (u < 3 && b && b % 1024 == 0) { b /= 1024; u++; }
    snprintf(buf, len, "%llu%.1s", (unsigned long long)b, unit + u);
}

/* --rate OPS[:uniform|:poisson]. The number by rb_parse_number's rule (" 10" and "0x10" as
   refused as "10 "); 0, past RB_MAX_RATE and any other arrival process are refused with the
   whole spec named. */
RBDEF const char *rb_arrivals_name(int arrivals)
{
    return arrivals == RB_ARRIVALS_POISSON ? "poisson" : arrivals == RB_ARRIVALS_TRACE ? "trace" : "uniform";
}

/* ==== 1.2 platform: the only place a platform #if lives inside a function ===================== */

/*
   Every difference between Linux, macOS and the portable build (RB_NO_LINUX) is one of the
   small functions below; the rest of the header calls them and holds no platform #if. (The
   io_uring strategy, which exists on Linux alone, is compiled in or out as a whole.) A
   primitive this platform lacks does nothing and says so: it returns RB_UNSUPPORTED, or for
   the /proc and /sys readers NULL or -1 with errno ENOSYS, so a caller's fallback is
   ordinary code. Otherwise a primitive returns RB_OK, or RB_ESYS with errno set. */

/* Build facts the environment report records. */
#if defined(RB__HAS_URING)
#define RB__BUILT_LIBURING 1
#else
#define RB__BUILT_LIBURING 0
#endif
#if defined(__clang__) && defined(__VERSION__)
#define RB__COMPILER "clang " __VERSION__
#elif defined(__GNUC__) && defined(__VERSION__)
#define RB__COMPILER "gcc " __VERSION__
#elif defined(__VERSION__)
#define RB__COMPILER __VERSION__
#else
#define RB__COMPILER ""
#endif
#if defined(RB_BUILD_FLAGS)
#define RB__BUILD_FLAGS RB_BUILD_FLAGS
#else
#define RB__BUILD_FLAGS NULL
#endif
/* Why the io_uring strategies cannot run in a build without them. */
#if defined(RB__LINUX) && !defined(RB_NO_LINUX)
#define RB__NO_URING_WHY "built without liburing (install liburing-dev and rebuild)"
#else
#define RB__NO_URING_WHY "io_uring is Linux-only"
#endif

/* The open flag that reads past the page cache (O_DIRECT); 0 where open() has none. macOS
   turns caching off on an open descriptor instead: rb__plat_nocache. */
#if defined(RB__HAS_O_DIRECT)
#define RB__O_DIRECT O_DIRECT
#else
#define RB__O_DIRECT 0
#endif

/* Switch O_DIRECT on or off on an open descriptor (the setup writer's: tmpfs before 6.6 and
   ramfs refuse it, and a short tail must be written without it). */
static int rb__plat_set_direct(int fd, int on)
{
    int fl;
    if (!RB__O_DIRECT) return RB_UNSUPPORTED;
    fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, on ? fl | RB__O_DIRECT : fl & ~RB__O_DIRECT) != 0) return RB_ESYS;
    return RB_OK;
}

/* macOS's F_NOCACHE on fd; fd < 0 only asks whether this platform has it. */
static int rb__plat_nocache(int fd)
{
#if defined(RB__HAS_F_NOCACHE)
    return fd < 0 || fcntl(fd, F_NOCACHE, 1) == 0 ? RB_OK : RB_ESYS;
#else
    (void)fd;
    return RB_UNSUPPORTED;
#endif
}

/* The magic number of the filesystem fd is on (statfs f_type, Linux); 0: unknown. It names
   the pseudo filesystems (procfs, sysfs) and those with no backing store (tmpfs, ramfs). */
static unsigned long rb__plat_fs_magic(int fd)
{
#if defined(RB__LINUX)
    struct statfs sf;
    return fstatfs(fd, &sf) == 0 ? (unsigned long)sf.f_type : 0;
#else
    (void)fd;
    return 0;
#endif
}

/* mincore: bit 0 of vec[i] says whether page i of [addr, addr + len) is in the page cache,
   mapped by us or not. The same call everywhere, but macOS declares the vector as char. 0,
   or -1 with errno. */
static int rb__plat_mincore(const void *addr, size_t len, unsigned char *vec)
{
#if defined(RB__APPLE)
    return mincore((void *)(uintptr_t)addr, len, (char *)vec);
#else
    return mincore((void *)(uintptr_t)addr, len, vec);
#endif
}

/* Whether mincore (and cachestat) tell this caller the truth about the file st describes:
   Linux reports every page resident to a user who neither owns the file nor may write it
   (so that residency cannot be used to spy on other users' reads). */
static int rb__plat_mincore_trusted(const struct stat *st, const char *path)
{
#if defined(RB__LINUX)
    return st->st_uid == geteuid() || geteuid() == 0 || access(path, W_OK) == 0;
#else
    (void)st; (void)path;
    return 1;
#endif
}

/* cachestat() (Linux 6.5+): a range's cached, dirty and writeback pages in one call; len 0
   is to the end of the file. Newer kernels answer EPERM where mincore would lie. */
#if defined(RB__HAS_PROC) && !defined(__NR_cachestat)
#define __NR_cachestat 451   /* one number on every architecture (unified syscall table) */
#endif
struct rb__cachestat_range { uint64_t off, len; };
struct rb__cachestat { uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted, nr_recently_evicted; };

static int rb__plat_cachestat(int fd, uint64_t off, uint64_t len, struct rb__cachestat *cs)
{
    memset(cs, 0, sizeof *cs);
#if defined(RB__HAS_PROC)
    {
        struct rb__cachestat_range r;
        r.off = off;
        r.len = len;
        return syscall(__NR_cachestat, fd, &r, cs, 0) == 0 ? RB_OK : RB_ESYS;
    }
#else
    (void)fd; (void)off; (void)len;
    return RB_UNSUPPORTED;
#endif
}

/* Drop the clean cached pages of [off, off + len) (len 0: to the end of the file); pages
   that are mapped, dirty or under writeback stay. Linux: posix_fadvise(DONTNEED); macOS:
   msync(MS_INVALIDATE) on a mapping of the range. On failure *what names the call. */
static int rb__plat_drop_range(int fd, uint64_t off, uint64_t len, const char **what)
{
#if defined(RB__HAS_FADVISE)
    int e = posix_fadvise(fd, (off_t)off, (off_t)len, POSIX_FADV_DONTNEED);   /* returns the error */
    *what = "posix_fadvise(DONTNEED)";
    if (e == 0) return RB_OK;
    errno = e;
    return RB_ESYS;
#else
    struct stat st;
    void *m;
    int e = 0;
    if (len == 0) {
        if (fstat(fd, &st) != 0) { *what = "fstat"; return RB_ESYS; }
        if ((uint64_t)st.st_size <= off) return RB_OK;
        len = (uint64_t)st.st_size - off;
    }
    m = mmap(NULL, (size_t)len, PROT_READ, MAP_SHARED, fd, (off_t)off);
    if (m == MAP_FAILED) { *what = "mmap"; return RB_ESYS; }
    if (msync(m, (size_t)len, MS_INVALIDATE) != 0) { e = errno; *what = "msync(MS_INVALIDATE)"; }
    if (munmap(m, (size_t)len) != 0 && e == 0) { e = errno; *what = "munmap"; }
    errno = e;
    return e ? RB_ESYS : RB_OK;
#endif
}

/* Write fd's dirty pages, so that a drop can take them: fdatasync where pages are dropped
   with posix_fadvise (msync(MS_INVALIDATE) on macOS is not preceded by one). */
static int rb__plat_sync_data(int fd)
{
#if defined(RB__HAS_FADVISE)
    return fdatasync(fd) == 0 ? RB_OK : RB_ESYS;
#else
    (void)fd;
    return RB_UNSUPPORTED;
#endif
}

enum { RB__HINT_NONE = 0, RB__HINT_RANDOM = 1, RB__HINT_SEQUENTIAL = 2, RB__HINT_WILLNEED = 3 };

/* posix_fadvise over [off, off + len) (len 0: to the end of the file). It returns the error
   number rather than setting errno, so this does too: 0, or the error (ENOSYS where there is
   no such call). */
static int rb__plat_fadvise_range(int fd, uint64_t off, uint64_t len, int hint)
{
#if defined(RB__HAS_FADVISE)
    return posix_fadvise(fd, (off_t)off, (off_t)len, hint == RB__HINT_RANDOM ? POSIX_FADV_RANDOM
                         : hint == RB__HINT_SEQUENTIAL ? POSIX_FADV_SEQUENTIAL
                         : hint == RB__HINT_WILLNEED ? POSIX_FADV_WILLNEED : POSIX_FADV_NORMAL);
#else
    (void)fd; (void)off; (void)len; (void)hint;
    return ENOSYS;
#endif
}

/* posix_fadvise(RANDOM or SEQUENTIAL) for the whole of fd: how the kernel reads ahead for
   this open file. macOS has no such hint (RB_UNSUPPORTED); RB_ESYS with errno set when the
   kernel refuses it. */
static int rb__plat_fadvise(int fd, int hint)
{
    int e = rb__plat_fadvise_range(fd, 0, 0, hint);
    if (e == 0) return RB_OK;
    errno = e;
    return e == ENOSYS ? RB_UNSUPPORTED : RB_ESYS;
}

/* Drop every clean page of every file (root): Linux writes /proc/sys/vm/drop_caches, macOS
   runs purge(8). The message says what it needs. */
static int rb__plat_drop_caches(rb_error *err)
{
#if defined(RB__HAS_PROC)
    int fd;
    sync();
    fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
    if (fd < 0 || write(fd, "1\n", 2) != 2) {
        int e = errno;
        if (fd >= 0) close(fd);
        rb__seterr(err, (e == EACCES || e == EPERM || e == EROFS) ? RB_EPERM : RB_ESYS, e,
                   fd < 0 ? "open" : "write",
                   "cannot write /proc/sys/vm/drop_caches: %s (it needs root; evicting one file with "
                   "`readbench drop FILE` does not)", strerror(e));
        return err ? err->status : RB_ESYS;
    }
    if (close(fd) != 0) {
        rb__seterr(err, RB_ESYS, errno, "close", "drop_caches: %s", strerror(errno));
        return RB_ESYS;
    }
    return RB_OK;
#elif defined(RB__APPLE)
    int r;
    sync();
    r = system("purge");
    if (r != 0) {
        rb__seterr(err, RB_EPERM, 0, "purge", "purge failed (status %d): it needs root", r);
        return RB_EPERM;
    }
    return RB_OK;
#else
    rb__seterr(err, RB_UNSUPPORTED, 0, "", "dropping every cache is not built in (RB_NO_LINUX); "
               "evict one file with `readbench drop FILE`");
    return RB_UNSUPPORTED;
#endif
}

/* Transparent huge pages for an anonymous mapping (the memory hog): only a speed-up. */
static int rb__plat_hugepages(void *m, size_t len)
{
#if defined(MADV_HUGEPAGE) && defined(RB__HAS_PROC)
    return madvise(m, len, MADV_HUGEPAGE) == 0 ? RB_OK : RB_ESYS;
#else
    (void)m; (void)len;
    return RB_UNSUPPORTED;
#endif
}

/* MADV_POPULATE_READ (Linux 5.14+): fault [m, m + len) of a mapping in, reading what is not
   cached, and return once it is read. RB_UNSUPPORTED where the build or the kernel has none (an
   older kernel answers EINVAL to an advice it does not know). */
RB__TOOL_ONLY static int rb__plat_populate_read(void *m, size_t len)
{
#if defined(RB__HAS_POPULATE)
    if (madvise(m, len, MADV_POPULATE_READ) == 0) return RB_OK;
    return errno == EINVAL ? RB_UNSUPPORTED : RB_ESYS;
#else
    (void)m; (void)len;
    errno = ENOSYS;
    return RB_UNSUPPORTED;
#endif
}

/* mmap's MAP_POPULATE (Linux): the mapping is faulted in, every page read, before mmap returns.
   0 where there is no such flag. */
RB__TOOL_ONLY static int rb__plat_map_populate(void)
{
#if defined(MAP_POPULATE) && defined(RB__HAS_PROC)
    return MAP_POPULATE;
#else
    return 0;
#endif
}

/* MADV_COLD (pageout 0) or MADV_PAGEOUT (1), Linux 5.4+: deactivate, or reclaim now, the pages
   of a range that this mapping alone maps. RB_UNSUPPORTED where there is no such advice. */
#if defined(RB__HAS_PROC) && !defined(MADV_COLD)
#define MADV_COLD 20      /* include/uapi/asm-generic/mman-common.h, one value everywhere */
#define MADV_PAGEOUT 21
#endif
RB__TOOL_ONLY static int rb__plat_reclaim_advice(void *m, size_t len, int pageout)
{
#if defined(RB__HAS_PROC)
    if (madvise(m, len, pageout ? MADV_PAGEOUT : MADV_COLD) == 0) return RB_OK;
    return errno == EINVAL ? RB_UNSUPPORTED : RB_ESYS;
#else
    (void)m; (void)len; (void)pageout;
    errno = ENOSYS;
    return RB_UNSUPPORTED;
#endif
}

/* The calling thread's own faults and CPU time (RUSAGE_THREAD); ru NULL only asks whether
   this platform has them. Elsewhere getrusage counts the whole process. */
static int rb__plat_thread_rusage(struct rusage *ru)
{
#if defined(RB__HAS_RUSAGE_THREAD)
    return !ru || getrusage(RUSAGE_THREAD, ru) == 0 ? RB_OK : RB_ESYS;
#else
    (void)ru;
    return RB_UNSUPPORTED;
#endif
}

/* The calling thread's id, for its /proc/self/task/TID files; -1 where there are none. */
RB__TOOL_ONLY static int rb__plat_tid(void)
{
#if defined(RB__HAS_PROC)
    return (int)syscall(SYS_gettid);
#else
    return -1;
#endif
}

/* Sleep until the monotonic clock reads ns (an open-loop op's intended start). Absolute on
   Linux (clock_nanosleep TIMER_ABSTIME): the time spent before the call does not move the
   wake-up. Elsewhere (macOS has no clock_nanosleep), and if the call fails, a relative
   nanosleep: the caller spins the last stretch on the clock anyway (rb__wait_until). */
static void rb__plat_sleep_until(uint64_t ns)
{
    struct timespec ts, now;
    int rc = -1;
#if defined(RB__LINUX) && !defined(RB_NO_LINUX)
    ts.tv_sec = (time_t)(ns / 1000000000u);
    ts.tv_nsec = (long)(ns % 1000000000u);
    while ((rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL)) == EINTR) {}
#endif
    if (rc == 0 || clock_gettime(CLOCK_MONOTONIC, &now) != 0) return;
    {
        uint64_t t = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec, d = ns > t ? ns - t : 0;
        ts.tv_sec = (time_t)(d / 1000000000u);
        ts.tv_nsec = (long)(d % 1000000000u);
        while (d && nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
    }
}

/* Run the calling thread on CPU cpu alone (RB_EINVAL: past CPU_SETSIZE), and whether this
   process may run on it (1 yes, 0 no, -1 unknown). */
static int rb__plat_pin_cpu(unsigned cpu)
{
#if defined(RB__HAS_AFFINITY)
    cpu_set_t set;
    if (cpu >= CPU_SETSIZE) return RB_EINVAL;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set) == 0 ? RB_OK : RB_ESYS;   /* 0: the calling thread */
#else
    (void)cpu;
    return RB_UNSUPPORTED;
#endif
}

static int rb__plat_cpu_allowed(unsigned cpu)
{
#if defined(RB__HAS_AFFINITY)
    cpu_set_t set;
    if (cpu >= CPU_SETSIZE) return 0;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
    return CPU_ISSET(cpu, &set) ? 1 : 0;
#else
    (void)cpu;
    return -1;
#endif
}

/* Linux's /proc and /sys, the source of most environment figures, of memory limits and of
   a thread's device reads. Where this build reads neither (macOS, RB_NO_LINUX) they fail
   with errno ENOSYS and every figure read through them stays unknown. rb__plat_proc_read
   reads a whole file (up to cap - 1 bytes) and ends it with a NUL: its length, or -1. */
static FILE *rb__plat_proc_fopen(const char *path)
{
#if defined(RB__HAS_PROC)
    return fopen(path, "r");
#else
    (void)path;
    errno = ENOSYS;
    return NULL;
#endif
}

static ssize_t rb__plat_proc_read(const char *path, char *buf, size_t cap)
{
#if defined(RB__HAS_PROC)
    ssize_t got = 0, r = 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    while ((size_t)got < cap - 1 && (r = read(fd, buf + got, cap - 1 - (size_t)got)) > 0) got += r;
    close(fd);
    if (r < 0) return -1;
    buf[got] = 0;
    return got;
#else
    (void)path; (void)buf; (void)cap;
    errno = ENOSYS;
    return -1;
#endif
}

static ssize_t rb__plat_proc_readlink(const char *path, char *buf, size_t cap)
{
#if defined(RB__HAS_PROC)
    return readlink(path, buf, cap);
#else
    (void)path; (void)buf; (void)cap;
    errno = ENOSYS;
    return -1;
#endif
}

/* What macOS tells through sysctl and statfs: the CPU's name, the RAM, the filesystem's
   type (Linux: /proc and /sys, read by rb_env_collect through the readers above). */
static int rb__plat_sysctl_env(rb_env *env, const char *path)
{
#if defined(RB__APPLE)
    size_t len = sizeof env->cpu;
    int64_t mem = 0;
    if (sysctlbyname("machdep.cpu.brand_string", env->cpu, &len, NULL, 0) != 0) env->cpu[0] = 0;
    len = sizeof mem;
    if (sysctlbyname("hw.memsize", &mem, &len, NULL, 0) == 0) env->ram_total = mem;
    if (path) {
        struct statfs sf;
        if (statfs(path, &sf) == 0) snprintf(env->fs, sizeof env->fs, "%s", sf.f_fstypename);
    }
    return RB_OK;
#else
    (void)env; (void)path;
    return RB_UNSUPPORTED;
#endif
}

/*
   One monotonic clock read per op boundary: the end of one op is the start of the next,
   so the harness pays one vDSO clock_gettime (about 20 ns) per op, not two. */
static uint64_t rb__now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void rb__sleep_ns(uint64_t ns)
{
    struct timespec ts;
    ts.tv_sec = (time_t)(ns / 1000000000u);
    ts.tv_nsec = (long)(ns % 1000000000u);
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
}

/*
   splitmix64 seeds and makes file content; xoshiro256** makes offsets. Both are a few
   instructions, so offset generation stays small next to the cheapest read (see `null`). */
static uint64_t rb__mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rb__rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static void rb__rng_seed(uint64_t s[4], uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ rb__mix64(stream + 0x632be59bd9b4e019ULL);
    int i;
    for (i = 0; i < 4; i++) {
        x += 0x9e3779b97f4a7c15ULL;
        s[i] = rb__mix64(x);
    }
}

static uint64_t rb__rng_next(uint64_t s[4])
{
    uint64_t r = rb__rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t; s[3] = rb__rotl(s[3], 45);
    return r;
}

/* Uniform in [0, n): the high half of a 64x64 multiply (Lemire), written with 32-bit
   halves because C99 has no 128-bit type. Bias is below n / 2^64: invisible here. */
static uint64_t rb__below(uint64_t s[4], uint64_t n)
{
    uint64_t x = rb__rng_next(s);
    uint64_t xl = x & 0xffffffffu, xh = x >> 32, nl = n & 0xffffffffu, nh = n >> 32;
    uint64_t ll = xl * nl, lh = xl * nh, hl = xh * nl, hh = xh * nh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

/*
   A directory (a Lucene index, an LSM level) is read as every regular file in it that holds
   data, in name order (strcmp: bytes, no locale). Not its subdirectories: an index is flat,
   and recursing would take in what no program opens together. Not its symlinks: one may lead
   anywhere, and `drop` would evict what it points to. Not its empty files (a Lucene
   write.lock): they have no page to read. What was left out is counted, so a refusal can say
   it. The files are taken as they are when scanned; a cell checks each one between its
   iterations (rb__ident), as it checks a single file. */
typedef struct rb__entry {
    char *path;
    uint64_t size;
} rb__entry;

typedef struct rb__dirlist {
    rb__entry *e;           /* name order */
    unsigned n, cap;
    unsigned empty, links, others;   /* left out: empty files, symlinks, everything else */
} rb__dirlist;

/* ==== 1.3 offsets, patterns and replayed reads ================================================ */

/*
   random: uniform over [0, size - read_size], unaligned unless --align asks (fio aligns to
   the block size by default; direct I/O needs the page);
   sequential: a per-thread cursor advancing by read_size and wrapping; threads start
   spread evenly over the file so they do not read the same pages;
   skewed (zipf, pareto, normal, hotset): a rank drawn from the distribution, 0 the hottest,
   over the file's blocks; a seeded permutation turns the rank into a block, so the hot
   blocks lie scattered over the file as a real index's hot terms do (fio hashes its ranks for
   the same reason), or in rank order with contiguous; then an offset inside the block
   (hotset: the block's start, its blocks being read ranges: see rb_sampler);
   runs: each drawn offset starts a run, the next run_length - 1 reads follow it back to back
   (a postings list, a range scan); a run that would pass the last offset ends there.
   Everything a thread draws is a function of (seed, thread index): same seed, same offsets. */
static const char *const rb__pattern_names[RB_PATTERN_COUNT] = {"random", "sequential", "zipf", "pareto", "normal",
                                                                "hotset"};

/* The one place that knows each pattern's parameters and their ranges (fio's where fio has
   the pattern: zipf theta > 0, pareto h in (0, 1)); the parser and rb_run both ask it. */
static int rb__pattern_check(const rb_config *c, char *why, size_t wl)
{
    double a = c->pattern_arg[0], b = c->pattern_arg[1];
    if (c->pattern < RB_RANDOM || c->pattern >= RB_PATTERN_COUNT) {
        rb__fmt(why, wl, "no access pattern %d (RB_RANDOM, RB_SEQUENTIAL, RB_ZIPF, RB_PARETO, RB_NORMAL or RB_HOTSET)",
                c->pattern);
        return RB_EINVAL;
    }
    if (c->run_length > RB_MAX_RUN) {
        rb__fmt(why, wl, "runs of %u reads: at most %u", c->run_length, RB_MAX_RUN);
        return RB_EINVAL;
    }
    if (c->run_length > 1 && c->pattern == RB_SEQUENTIAL) {
        rb__fmt(why, wl, "runs of %u reads: a sequential pattern is one run already", c->run_length);
        return RB_EINVAL;
    }
    /* Zipf by rejection-inversion is defined for every theta > 0, 1 included (fio's method
       divides by 1 - theta and refuses 1.0); past 100 every read would hit the hottest block. */
    if (c->pattern == RB_ZIPF && !(a > 0 && a <= 100)) {
        rb__fmt(why, wl, "zipf:THETA needs a theta in (0, 100], not %g", a);
        return RB_EINVAL;
    }
    if (c->pattern == RB_PARETO && !(a > 0 && a < 1)) {
        rb__fmt(why, wl, "pareto:H needs an h in (0, 1) (0.2: 80%% of the reads in 20%% of the blocks), not %g", a);
        return RB_EINVAL;
    }
    if (c->pattern == RB_NORMAL && !(a > 0 && a <= 1)) {
        rb__fmt(why, wl, "normal:SIGMA needs a sigma in (0, 1] (a fraction of the file), not %g", a);
        return RB_EINVAL;
    }
    if (c->pattern == RB_HOTSET && !(a > 0 && a <= 1 && b > 0 && b <= 1)) {
        rb__fmt(why, wl, "hotset:FRACTION:PROB needs a fraction and a probability in (0, 1], not %g and %g", a, b);
        return RB_EINVAL;
    }
    return RB_OK;
}

RBDEF int rb_pattern_check(const rb_config *c, char *why, size_t wl)
{
    int rc;
    RB__IN_C_LOCALE(rc = rb__pattern_check(c, why, wl));   /* "not 1.5", never "not 1,5" */
    return rc;
}

/* "runs:16:" (runs of uniform starts: "runs:16" alone), the name, the parameters with %g
   (so that zipf:1.20 and zipf:1.2 name one pattern), ":contiguous". */
static void rb__pattern_format(const rb_config *c, char *buf, size_t len)
{
    char runs[32] = "", args[64] = "";
    int p = c->pattern >= RB_RANDOM && c->pattern < RB_PATTERN_COUNT ? c->pattern : RB_RANDOM;
    if (c->trace) { snprintf(buf, len, "trace"); return; }   /* a replay reads the trace's offsets */
    if (c->run_length > 1) snprintf(runs, sizeof runs, "runs:%u%s", c->run_length, p == RB_RANDOM ? "" : ":");
    if (p == RB_HOTSET) snprintf(args, sizeof args, ":%g:%g", c->pattern_arg[0], c->pattern_arg[1]);
    else if (p >= RB_ZIPF) snprintf(args, sizeof args, ":%g", c->pattern_arg[0]);
    snprintf(buf, len, "%s%s%s%s", runs, c->run_length > 1 && p == RB_RANDOM ? "" : rb__pattern_names[p], args,
             p >= RB_ZIPF && c->contiguous ? ":contiguous" : "");
}

RBDEF const char *rb_pattern_name(const rb_config *c, char *buf, size_t len)
{
    RB__IN_C_LOCALE(rb__pattern_format(c, buf, len));   /* 1.2, not 1,2, whatever the caller's locale */
    return buf;
}

/* The permutation: a keyed bijection of [0, nblocks) that needs no table (a file of 1 TiB has
   2^28 blocks: an array would be 2 GiB). A balanced Feistel network on 2h bits, 2^2h the
   smallest power of four >= nblocks, is a bijection of [0, 2^2h) whatever its round function
   (here rb__mix64 of the half and a round key); cycle walking (apply it again until the value
   is below nblocks) makes it one of [0, nblocks), at under four applications on average
   since 2^2h < 4 nblocks (Black and Rogaway, "Ciphers with arbitrary finite domains", 2002).
   The inverse runs the rounds backwards and walks the same way. */
static uint64_t rb__feistel(const rb_sampler *s, uint64_t x, int inverse)
{
    unsigned h = s->half_bits, i;
    uint64_t mask = ((uint64_t)1 << h) - 1, l = x >> h, r = x & mask, t;
    for (i = 0; i < 4; i++) {
        if (!inverse) { t = r; r = l ^ (rb__mix64(r ^ s->key[i]) & mask); l = t; }
        else { t = l; l = r ^ (rb__mix64(l ^ s->key[3 - i]) & mask); r = t; }
    }
    return (l << h) | r;
}

RBDEF uint64_t rb_sampler_block(const rb_sampler *s, uint64_t rank)
{
    uint64_t x = rank;
    if (s->contiguous || s->nblocks < 2) return rank;
    do x = rb__feistel(s, x, 0); while (x >= s->nblocks);
    return x;
}

RBDEF uint64_t rb_sampler_rank(const rb_sampler *s, uint64_t block)
{
    uint64_t x = block;
    if (s->contiguous || s->nblocks < 2) return block;
    do x = rb__feistel(s, x, 1); while (x >= s->nblocks);
    return x;
}

/* Uniform in [0, 1) with 53 random bits. */
static double rb__unit(uint64_t rng[4]) { return (double)(rb__rng_next(rng) >> 11) * (1.0 / 9007199254740992.0); }

/* Zipf over ranks 1..n, P(k) ~ k^-s, by rejection-inversion: W. Hormann and G. Derflinger,
   "Rejection-inversion to generate variates from monotone discrete distributions", ACM
   TOMACS 6(3), 1996, in the form Apache Commons RNG's RejectionInversionZipfSampler uses.
   The hat is h(x) = x^-s, continuous; u is drawn uniformly under its integral H between
   1.5 and n + 0.5, inverted to x, rounded to k; k is kept when u lies under the part of the
   hat that belongs to k (the squeeze k - x <= k[2] accepts most draws without a pow). O(1)
   setup and O(1) expected work per draw for every n and s > 0, s = 1 included, where fio's
   method (Gray et al., "Quickly generating billion-record synthetic databases", 1994) needs
   zeta(n) summed over every rank at setup and is only approximate past the first two ranks.
   expm1(x)/x and log1p(x)/x are written out near 0, where the quotient loses its digits. */
static double rb__expm1_x(double x) { return fabs(x) > 1e-8 ? expm1(x) / x : 1 + x / 2 * (1 + x / 3 * (1 + x / 4)); }
static double rb__log1p_x(double x) { return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - x / 4)); }
static double rb__zipf_h(double x, double s) { return exp(-s * log(x)); }
static double rb__zipf_H(double x, double s) { double lx = log(x); return rb__expm1_x((1 - s) * lx) * lx; }
static double rb__zipf_Hinv(double y, double s)
{
    double t = y * (1 - s);
    if (t < -1) t = -1;   /* rounding at the far end: x^(1-s) cannot go below 0 */
    return exp(rb__log1p_x(t) * y);
}

static void rb__zipf_setup(rb_sampler *s)
{
    double th = s->arg[0], n = (double)s->nblocks;
    s->k[0] = rb__zipf_H(1.5, th) - 1;   /* H(1.5) - h(1) */
    s->k[1] = rb__zipf_H(n + 0.5, th);
    s->k[2] = 2 - rb__zipf_Hinv(rb__zipf_H(2.5, th) - rb__zipf_h(2, th), th);
}

static uint64_t rb__zipf_rank(const rb_sampler *s, uint64_t rng[4])
{
    double th = s->arg[0], n = (double)s->nblocks;
    for (;;) {
        double u = s->k[1] + rb__unit(rng) * (s->k[0] - s->k[1]), x = rb__zipf_Hinv(u, th), kd = floor(x + 0.5);
        if (!(kd >= 1)) kd = 1;   /* NaN included */
        if (kd > n) kd = n;
        if (kd - x <= s->k[2] || u >= rb__zipf_H(kd + 0.5, th) - rb__zipf_h(kd, th)) return (uint64_t)kd - 1;
    }
}

/* A rank of a skewed pattern, in [0, nblocks). pareto is fio's: (n - 1) u^(log h / log(1-h)),
   so the first h of the ranks take 1 - h of the draws. normal: around the middle rank with
   sigma of the ranks (the file's middle when contiguous, as fio centres its normal), draws
   outside the file drawn again. hotset: prob of the draws uniform in the hot ranks, the rest
   uniform in the others. */
static uint64_t rb__rank(const rb_sampler *s, uint64_t rng[4])
{
    uint64_t n = s->nblocks, r;
    double x;
    if (n < 2) return 0;
    switch (s->pattern) {
    case RB_ZIPF: return rb__zipf_rank(s, rng);
    case RB_PARETO:
        r = (uint64_t)((double)(n - 1) * pow(rb__unit(rng), s->k[0]));
        return r < n ? r : n - 1;
    case RB_NORMAL:
        do {   /* Box-Muller: one normal from two uniforms, 1 - u in (0, 1] for the log */
            double z = sqrt(-2 * log(1 - rb__unit(rng))) * cos(6.283185307179586 * rb__unit(rng));
            x = 0.5 + s->arg[0] * z;
        } while (!(x >= 0 && x < 1));
        r = (uint64_t)(x * (double)n);
        return r < n ? r : n - 1;
    default:   /* RB_HOTSET */
        if (s->hot >= n || rb__unit(rng) < s->arg[1]) return rb__below(rng, s->hot);
        return s->hot + rb__below(rng, n - s->hot);
    }
}

RBDEF int rb_sampler_init(rb_sampler *s, const rb_config *c, uint64_t size, uint64_t page, int direct, char *why,
                          size_t wl)
{
    uint64_t a = c->align > 1 ? c->align : 1, bits;
    int rc = rb_pattern_check(c, why, wl);
    memset(s, 0, sizeof *s);
    if (rc != RB_OK) return rc;
    if (!c->read_size || c->read_size > size || !page) {
        rb__fmt(why, wl, "read size %llu does not fit in the %llu bytes to read from", (unsigned long long)c->read_size,
                (unsigned long long)size);
        return RB_EINVAL;
    }
    if (direct && a % page) {
        /* direct I/O needs page multiples: the smallest that is also a multiple of align,
           lcm(align, page) (align 512 gives 4 KiB, not 512 pages = 2 MiB) */
        uint64_t x = a, y = page;
        while (y) { uint64_t t = x % y; x = y; y = t; }
        a = a / x * page;
    }
    s->pattern = c->pattern;
    s->run_length = c->run_length > 1 ? c->run_length : 1;
    s->contiguous = c->contiguous != 0;
    s->read_size = c->read_size;
    s->limit = size - c->read_size;
    s->step = a;
    s->arg[0] = c->pattern_arg[0];
    s->arg[1] = c->pattern_arg[1];
    s->npos = c->pattern == RB_SEQUENTIAL ? s->limit / c->read_size + 1 : s->limit / a + 1;
    if (c->pattern < RB_ZIPF) return RB_OK;
    s->block = a * ((page + a - 1) / a);
    if (c->pattern == RB_HOTSET)   /* a block is a read's range, whole pages: FRACTION of them is FRACTION of the bytes */
        s->block = (c->read_size + s->block - 1) / s->block * s->block;
    s->nblocks = s->limit / s->block + 1;
    if (c->pattern == RB_ZIPF) rb__zipf_setup(s);
    if (c->pattern == RB_PARETO) s->k[0] = log(s->arg[0]) / log(1 - s->arg[0]);
    if (c->pattern == RB_HOTSET) {
        double h = floor(s->arg[0] * (double)s->nblocks + 0.5);
        s->hot = h < 1 ? 1 : h >= (double)s->nblocks ? s->nblocks : (uint64_t)h;
    }
    for (s->half_bits = 1, bits = 4; bits < s->nblocks && s->half_bits < 32; s->half_bits++) bits <<= 2;
    rb__rng_seed(s->key, c->seed, 0x7065726d75746cULL);   /* "permutl": not the prewarm's stream */
    return RB_OK;
}

RBDEF void rb_sampler_seed(const rb_sampler *s, rb_worker *w, uint64_t seed, unsigned index, unsigned nthreads)
{
    rb__rng_seed(w->rng, seed, index);
    w->cursor = s->pattern == RB_SEQUENTIAL && nthreads ? s->npos * index / nthreads : 0;
    w->run_next = 0;
    w->run_left = 0;
    w->run_file = 0;
}

/* One drawn offset: uniform keeps the draw it always made (one rb__below per read), so a
   seed reads the offsets it read before skewed patterns existed. */
static uint64_t rb__draw(const rb_sampler *s, uint64_t rng[4])
{
    uint64_t b, in;
    if (s->pattern == RB_RANDOM) return rb__below(rng, s->npos) * s->step;
    b = rb_sampler_block(s, rb__rank(s, rng));
    if (s->pattern == RB_HOTSET) return b * s->block;   /* a read reads its block's range, no more */
    in = b == s->nblocks - 1 ? (s->limit - b * s->block) / s->step + 1 : s->block / s->step;   /* the last block: partial */
    return b * s->block + rb__below(rng, in) * s->step;
}

/* Many files. A file is picked by its weight (its bytes, or 1 each with RB_PICK_UNIFORM): a
   uniform draw below the total, then the first file whose running total passes it (a binary
   search: O(log files) per read, no table). Sequential: a cursor over every file's reads in
   name order, one file after another, the same search on the running count of reads. Each
   file draws inside itself with its own sampler, so no read crosses a file's end; a run goes
   on in the file it started in. */
static unsigned rb__file_find(const rb_sampler *s, uint64_t x, int seq)
{
    unsigned lo = 0, hi = s->nfiles - 1;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if ((seq ? s->files[mid].seq_end : s->files[mid].pick_end) > x) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

static void rb__offsets_files(const rb_sampler *s, rb_worker *w, uint64_t *off, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++) {
        const rb_sampler_file *f;
        uint64_t local;
        if (s->pattern == RB_SEQUENTIAL) {
            f = &s->files[rb__file_find(s, w->cursor, 1)];
            local = (w->cursor - (f->seq_end - f->smp.npos)) * s->read_size;
            if (++w->cursor >= s->seq_total) w->cursor = 0;
        } else if (w->run_left && w->run_file < s->nfiles && w->run_next <= s->files[w->run_file].smp.limit) {
            f = &s->files[w->run_file];
            local = w->run_next;
            w->run_left--;
        } else {
            w->run_file = rb__file_find(s, rb__below(w->rng, s->pick_total), 0);
            f = &s->files[w->run_file];
            local = rb__draw(&f->smp, w->rng);
            w->run_left = s->run_length - 1;
        }
        w->run_next = local + s->read_size;
        off[i] = f->base + local;
    }
}

RBDEF int rb_sampler_init_files(rb_sampler *s, const rb_config *c, const uint64_t *sizes, const uint64_t *bases,
                                unsigned n, uint64_t page, int direct, char *why, size_t wl)
{
    unsigned i, k = 0;
    uint64_t pick = 0, seq = 0;
    int rc;
    if (n == 1 && bases[0] == 0) return rb_sampler_init(s, c, sizes[0], page, direct, why, wl);
    memset(s, 0, sizeof *s);
    if ((rc = rb_pattern_check(c, why, wl)) != RB_OK) return rc;
    if (n == 0 || !c->read_size) {
        rb__fmt(why, wl, "%s", n == 0 ? "no file to read from" : "a read size of 0");
        return RB_EINVAL;
    }
    if (c->file_pick != RB_PICK_SIZE && c->file_pick != RB_PICK_UNIFORM) {
        rb__fmt(why, wl, "no file pick %d (RB_PICK_SIZE or RB_PICK_UNIFORM)", c->file_pick);
        return RB_EINVAL;
    }
    if (!(s->files = (rb_sampler_file *)calloc(n, sizeof *s->files))) {
        rb__fmt(why, wl, "out of memory for %u files", n);
        return RB_ENOMEM;
    }
    for (i = 0; i < n; i++) {
        rb_sampler_file *f = &s->files[k];
        if (sizes[i] < c->read_size) { s->small++; continue; }
        if ((rc = rb_sampler_init(&f->smp, c, sizes[i], page, direct, why, wl)) != RB_OK) {
            rb_sampler_free(s);
            return rc;
        }
        rb__rng_seed(f->smp.key, c->seed, 0x7065726d75746cULL + i + 1);   /* each file its own permutation */
        f->base = bases[i];
        f->size = sizes[i];
        f->index = i;
        f->pick_end = pick += c->file_pick == RB_PICK_UNIFORM ? 1 : sizes[i];
        f->seq_end = seq += f->smp.npos;
        k++;
    }
    if (k == 0) {
        rb__fmt(why, wl, "every one of the %u files is shorter than a read of %llu bytes", n,
                (unsigned long long)c->read_size);
        rb_sampler_free(s);
        return RB_EINVAL;
    }
    s->pattern = c->pattern;
    s->run_length = c->run_length > 1 ? c->run_length : 1;
    s->contiguous = c->contiguous != 0;
    s->read_size = c->read_size;
    s->step = s->files[0].smp.step;
    s->npos = c->pattern == RB_SEQUENTIAL ? seq : s->files[0].smp.npos;   /* rb_sampler_seed spreads the cursors */
    s->nfiles = k;
    s->pick = c->file_pick;
    s->pick_total = pick;
    s->seq_total = seq;
    return RB_OK;
}

RBDEF void rb_sampler_free(rb_sampler *s)
{
    free(s->files);
    s->files = NULL;
    s->nfiles = 0;
}

RBDEF void rb_sampler_offsets(const rb_sampler *s, rb_worker *w, uint64_t *off, unsigned n)
{
    unsigned i;
    if (s->files) { rb__offsets_files(s, w, off, n); return; }
    if (s->pattern == RB_SEQUENTIAL) {
        for (i = 0; i < n; i++) {
            off[i] = w->cursor * s->read_size;
            if (++w->cursor >= s->npos) w->cursor = 0;
        }
        return;
    }
    for (i = 0; i < n; i++) {
        if (w->run_left && w->run_next <= s->limit) {
            off[i] = w->run_next;
            w->run_left--;
        } else {
            off[i] = rb__draw(s, w->rng);
            w->run_left = s->run_length - 1;
        }
        w->run_next = off[i] + s->read_size;
    }
}

static const char *const rb__trace_formats[RB_TRACE_FORMATS] = {"auto", "strace", "iolog", "csv"};

RBDEF const char *rb_trace_format_name(int f) { return f >= 0 && f < RB_TRACE_FORMATS ? rb__trace_formats[f] : "?"; }

RBDEF const char *rb_trace_match_name(int m)
{
    static const char *const names[] = {"none", "exact", "same-file", "basename"};
    return m >= 0 && m <= RB_MATCH_BASENAME ? names[m] : "?";
}

/* ==== 1.4 histogram =========================================================================== */

/*
   Log-linear, like fio and HdrHistogram: values below 128 ns are exact; above, each power
   of two [2^m, 2^(m+1)) is cut into 64 equal sub-buckets. A bucket is at most 1/64 of its
   lower bound wide, so its midpoint is within 1/128 of any value in it. */
static unsigned rb__msb(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    return 63u - (unsigned)__builtin_clzll(v);
#else
    unsigned m = 0;
    while (v >>= 1) m++;
    return m;
#endif
}

RBDEF unsigned rb_hist_index(uint64_t ns)
{
    unsigned m;
    if (ns < RB_HIST_EXACT) return (unsigned)ns;
    m = rb__msb(ns);
    if (m > RB_HIST_MAX_MSB) return RB_HIST_BUCKETS;   /* overflow */
    return RB_HIST_EXACT + (m - 7u) * (1u << RB_HIST_SUB_BITS) +
           (unsigned)((ns >> (m - RB_HIST_SUB_BITS)) - (1u << RB_HIST_SUB_BITS));
}

RBDEF uint64_t rb_hist_bucket_value(unsigned i)
{
    unsigned g, sub, shift;
    uint64_t low;
    if (i < RB_HIST_EXACT) return i;
    if (i >= RB_HIST_BUCKETS) return UINT64_MAX;   /* the overflow index, or no bucket at all */
    g = (i - RB_HIST_EXACT) >> RB_HIST_SUB_BITS;
    sub = (i - RB_HIST_EXACT) & ((1u << RB_HIST_SUB_BITS) - 1u);
    shift = g + 7u - RB_HIST_SUB_BITS;
    low = ((uint64_t)((1u << RB_HIST_SUB_BITS) + sub)) << shift;
    return low + (((uint64_t)1 << shift) - 1) / 2;   /* middle of [low, low + width) */
}

RBDEF void rb_hist_init(rb_hist *h)
{
    memset(h, 0, sizeof *h);
    h->min = UINT64_MAX;
}

RBDEF void rb_hist_record(rb_hist *h, uint64_t ns)
{
    unsigned i = rb_hist_index(ns);
    if (i < RB_HIST_BUCKETS) { h->b[i]++; h->count++; }
    else h->overflow++;
    h->sum += ns;
    if (ns < h->min) h->min = ns;
    if (ns > h->max) h->max = ns;
}

RBDEF void rb_hist_merge(rb_hist *into, const rb_hist *from)
{
    unsigned i;
    for (i = 0; i < RB_HIST_BUCKETS; i++) into->b[i] += from->b[i];
    into->count += from->count;
    into->overflow += from->overflow;
    into->sum += from->sum;
    if (from->min < into->min) into->min = from->min;
    if (from->max > into->max) into->max = from->max;
}

RBDEF uint64_t rb_hist_total(const rb_hist *h) { return h->count + h->overflow; }

RBDEF double rb_hist_mean(const rb_hist *h)
{
    uint64_t n = rb_hist_total(h);
    return n ? (double)h->sum / (double)n : 0.0;
}

/* pct as num / (100 * den), den a power of ten up to 10^6, so 99.9 is 999 / 1000 exactly:
   in floating point 99.9 / 100 * 1000 is 999.0000000000001 and its ceiling 1000, the max.
   0: pct has more than 6 decimals (99.99999999), and the callers use long double instead. */
static int rb__pct_ratio(double pct, uint64_t *num, uint64_t *scale)
{
    uint64_t den = 1;
    while (den <= 1000000) {
        double x = pct * (double)den, r = floor(x + 0.5);
        if (fabs(x - r) <= 1e-12 * (double)den) {   /* 100 times the rounding error of pct * den */
            *num = (uint64_t)r;
            *scale = 100 * den;
            return *num < *scale;
        }
        den *= 10;
    }
    return 0;
}

RBDEF uint64_t rb_percentile_rank(double pct, uint64_t n)
{
    uint64_t num, d, rank;
    if (n == 0) return 0;
    if (!(pct > 0)) return 1;
    if (pct >= 100) return n;
    if (rb__pct_ratio(pct, &num, &d))   /* ceil(num * n / d) without overflow: n = q d + r, num < d <= 10^8 */
        rank = (n / d) * num + ((n % d) * num + d - 1) / d;
    else
        rank = (uint64_t)ceill((long double)pct / 100.0L * (long double)n);
    return rank < 1 ? 1 : rank > n ? n : rank;
}

RBDEF int rb_hist_percentile_known(const rb_hist *h, double pct)
{
    uint64_t n = rb_hist_total(h), num, d;
    if (n == 0) return 0;
    if (!(pct > 0) || pct >= 100) return 1;   /* the min and the max are always known */
    if (!rb__pct_ratio(pct, &num, &d)) return (long double)n * (100.0L - (long double)pct) >= 100.0L;
    /* n >= 100 / (100 - pct) = d / (d - num), in integers */
    return n >= (d + (d - num) - 1) / (d - num);
}

/* The value at rank ceil(pct/100 * n) (rb_percentile_rank), clamped to the observed [min,
   max]: a bucket's midpoint can lie past the largest value seen, and a p99 above the max is
   nonsense. */
RBDEF uint64_t rb_hist_percentile(const rb_hist *h, double pct)
{
    uint64_t n = rb_hist_total(h), rank, seen = 0, v;
    unsigned i;
    if (n == 0) return 0;
    if (pct <= 0) return h->min;
    if (pct >= 100) return h->max;
    rank = rb_percentile_rank(pct, n);
    v = h->max;   /* ranks past the buckets fall in the overflow: only max is known */
    for (i = 0; i < RB_HIST_BUCKETS; i++) {
        seen += h->b[i];
        if (seen >= rank) { v = rb_hist_bucket_value(i); break; }
    }
    if (v < h->min) v = h->min;
    if (v > h->max) v = h->max;
    return v;
}

/* ==== 1.5 aligned madvise and the prefetch policies =========================================== */

/*
   always: every call is a madvise(WILLNEED), about 1 us even when every page is cached.

   backoff (Lucene's MemorySegmentIndexInput.prefetch as of PR #13381, exactly): a plain
   counter of each reader (IndexInput; every clone starts its own at 0, nothing is shared);
   when its value before the increment is neither 0 nor a power of two, skip; otherwise ask mincore whether the range is resident and, only if some page is not,
   reset the counter to 0 and advise. When everything is hot it checks at calls 1, 2, 4, 8,
   ... and costs almost nothing; when everything is cold every check misses and it advises
   about every other call. In between it fails: each hit lets the counter climb, so after a
   run of hits the next hundreds of calls are skipped unchecked, and the misses among them
   get no hint and fault synchronously, one at a time.

   backoff-shared (PR #15585): the same logic with one counter per file, shared by every
   reader and incremented with an atomic fetch-and-add, so N readers climb it N times as fast
   (each one's checks get N times sparser) and one reader's miss resets the others' skipping.

   adaptive (ours): the question a hint answers is "is this range likely to miss?", so keep
   an estimate of exactly that, per reader: an exponentially weighted miss rate (weight 1/32),
   updated only on sampled calls, where mincore checks the range (and a miss found there is
   advised). Between samples the decision is the estimate's: at or above 1/64 (1.6%), advise
   every call and sample every 8th call to keep learning; below it, skip, sampling after 1,
   2, 4, ... up to 64 calls, back to 1 on a miss. The threshold is a cost ratio: a needless
   hint costs about 1 us, a missed one a synchronous device read of 50-200 us, so hinting
   pays from a miss rate of about 1%. Hot, it costs one mincore per 64 calls; at any miss
   rate that matters it hints every read like always, for one extra mincore per 8 calls. The
   weight is asymmetric in effect: one miss lifts a hot estimate over the threshold at once
   (1/32 > 1/64), while leaving the hinting regime takes a long run of hits (from a 10%
   miss rate, about 100 hit samples in a row), so a lucky streak at 90% cached does not switch
   the hints off. The estimate is per reader: no shared cache line between threads. Where
   mincore cannot be trusted (it reports everything resident to a user who neither owns nor
   may write the file) it degrades to always. On a NORMAL mapping it also learns whether a
   miss is better hinted or left to the fault's read-around (the regime, below). */
#define RB__PF_ONE 65536u       /* the estimate is fixed-point: 65536 = every call misses */
#define RB__PF_THRESHOLD (RB__PF_ONE / 64u)
#define RB__PF_HOT_GAP 64u
#define RB__PF_COLD_GAP 8u

static const char *const rb__pf_names[RB_PF_COUNT] = {"always", "backoff", "backoff-nomincore", "adaptive",
                                                          "backoff-shared"};

RBDEF const char *rb_prefetch_policy_name(int policy)
{
    return policy >= 0 && policy < RB_PF_COUNT ? rb__pf_names[policy] : "?";
}

RBDEF int rb_prefetch_policy_find(const char *name)
{
    int i;
    for (i = 0; name && i < RB_PF_COUNT; i++)
        if (strcmp(rb__pf_names[i], name) == 0) return i;
    return -1;
}

static int rb__mincore_resident(void *ctx, const unsigned char *addr, size_t len)
{
    unsigned char vec[64];
    size_t page = (size_t)(uintptr_t)ctx, done = 0;
    while (done < len) {
        size_t n = RB__MIN(len - done, sizeof vec * page), i;
        if (rb__plat_mincore(addr + done, n, vec) != 0) return -1;
        for (i = 0; i < (n + page - 1) / page; i++)
            if (!(vec[i] & 1u)) return 0;
        done += n;
    }
    return 1;
}

static double rb__mincore_fraction(void *ctx, const unsigned char *addr, size_t len)
{
    unsigned char vec[512];
    size_t page = (size_t)(uintptr_t)ctx, done = 0, in = 0, pages = 0;
    while (done < len) {
        size_t n = RB__MIN(len - done, sizeof vec * page), i;
        if (rb__plat_mincore(addr + done, n, vec) != 0) return -1;
        for (i = 0; i < (n + page - 1) / page; i++) in += vec[i] & 1u;
        pages += (n + page - 1) / page;
        done += n;
    }
    return pages ? (double)in / (double)pages : -1;
}

RBDEF void rb_prefetcher_init(rb_prefetcher *p, int policy, void *map, uint64_t map_len,
                              uint64_t *shared_counter)
{
    memset(p, 0, sizeof *p);
    p->policy = policy;
    p->map = (unsigned char *)map;
    p->map_len = map_len;
    p->page = rb__page_size();
    /* only backoff-shared shares: every other policy's state is the reader's own */
    p->counter = policy == RB_PF_BACKOFF_SHARED && shared_counter ? shared_counter : &p->own_counter;
    p->trust_mincore = 1;
    p->resident = rb__mincore_resident;
    p->window_resident = rb__mincore_fraction;
    p->resident_ctx = (void *)(uintptr_t)p->page;
    p->est = RB__PF_ONE;   /* assume cold until samples say otherwise: a wrong hint is the cheap mistake */
    p->gap = RB__PF_COLD_GAP;
    p->countdown = 0;
    p->fd = -1;
    p->room = -1;
    rb_adapt_init(&p->ad);
}

/* One reader's counts into a cell's (or a round's into the cells'). */
static void rb__pf_stats_add(rb_prefetch_stats *acc, const rb_prefetch_stats *x)
{
    acc->calls += x->calls;
    acc->skips += x->skips;
    acc->mincore_calls += x->mincore_calls;
    acc->advises += x->advises;
    acc->failed += x->failed;
    acc->mincore_failed += x->mincore_failed;
    acc->around += x->around;
    acc->trials += x->trials;
    acc->fills += x->fills;
    acc->sweeps += x->sweeps;
}

static int rb__pf_advise(rb_prefetcher *p, uint64_t start, uint64_t alen)
{
    p->st.advises++;
    if (madvise(p->map + start, (size_t)alen, MADV_WILLNEED) != 0) {
        if (p->st.failed++ == 0) p->last_errno = errno;
        return -1;
    }
    return 1;
}

/*
   On a mapping whose faults read around (MADV_NORMAL) "not hinting" is a move of its own: an
   unhinted miss faults, and the fault reads read_ahead_kb around it (8 MiB on this project's
   disk), every missing page of that window. Whether that is the best move or the worst is a
   fact about the file and the machine that no rule fixes in advance (the issue's runs, 4 GiB,
   16 KiB x 16, one thread):
   - 90% cached, the file fits in memory: a few hundred faults fill the file's holes, then
     nothing misses and nothing needs a hint: plain mmap 12.2 ops/ms, hinting 6.0.
   - 50% cached: each fault first reads half a window in hundreds of small reads: plain mmap
     0.02 ops/ms, hinting 2.7 (and with a slow or busy disk the 90% case turns this way too).
   - memory short: what read-around loads evicts what other reads need: backoff, which leaves
     most misses unhinted, 37x behind hinting.
   So the policy watches what its own decisions cost, per reader. Its calls are cut into
   epochs of 256 (16 ops of 16 reads); one clock read at each epoch's end gives the epoch's
   ns per call, the reads between the calls included: the price of what the policy decided.
   Hinting, it keeps a moving average of that price (weight 1/4). When its samples see misses
   it tries leaving them to read-around (a trial) and compares:
   - the trial's epoch costs no more per call than hinting did: read-around won (the holes it
     fills are not paid for again); the policy stays there while it stays within 1.5x of
     hinting's price (noise) and nothing is evicted;
   - the trial's calls so far cost more than 4x hinting's (what a fault that fills its window
     may cost at first), and more than 3% of the time spent hinting since the last trial: it
     ends at once, mid-epoch (rb_adapt_trial_too_dear; on trial every call is a sample, so
     the check follows every fault): at 50% cached the first fault ends it;
   - 64 epochs without becoming cheaper: it ends;
   - the samples' misses show recently evicted pages (cachestat's nr_recently_evicted, from
     the shadow entries reclaim leaves; the holes of a prewarm or a fadvise have none) in two
     or more ranges and an eighth of the misses: memory is short and read-around would evict
     what the others need: no trial while that lasts, and a proven read-around ends.
   A failed trial doubles the wait before the next (4 epochs, 8, ... up to 1024): on a steady
   signal the mode settles, and trials cost a bounded share of the time (their number grows
   with the logarithm of the epochs). The decision is a pure function of the state and the
   epoch's signals (rb_adapt_epoch), tested on synthetic sequences. Only samples do the
   bookkeeping (rb__pf_regime): hot, one sample per 64 calls; a clock read per epoch. */
#define RB__AD_EPOCH 256u        /* calls per epoch: 16 ops of 16 reads */
#define RB__AD_FIRST_WAIT 4u     /* epochs of hinting before a trial, after a success */
#define RB__AD_MAX_WAIT 1024u    /* the longest wait between trials (backoff doubles up to it) */
#define RB__AD_DEAR 4.0          /* a trial's calls may cost up to this x hinting's... */
#define RB__AD_BUDGET 0.03       /* ... or this fraction of the time hinted since the last trial */
#define RB__AD_TRIAL_EPOCHS 64u  /* a trial that has not become cheaper than hinting by then ends */

RBDEF void rb_adapt_init(rb_adapt *a)
{
    memset(a, 0, sizeof *a);
    a->mode = RB_AD_HINT;
    a->backoff = RB__AD_FIRST_WAIT;
}

RBDEF int rb_adapt_trial_too_dear(const rb_adapt *a, uint64_t calls, uint64_t ns)
{
    double c = a->trial_calls + (double)calls, t = a->trial_ns + (double)ns;
    if (!a->trial || a->cost_hint <= 0) return 0;
    return t - a->cost_hint * c > RB__MAX((RB__AD_DEAR - 1) * a->cost_hint * c, a->budget);
}

static int rb__adapt_switch(rb_adapt *a, int mode)
{
    if (a->mode != mode) a->switches++;
    a->mode = mode;
    return mode;
}

/* A trial that did not pay: hint again, and wait twice as long before the next one. */
static int rb__adapt_fail(rb_adapt *a, unsigned wait)
{
    a->trial = 0;
    a->wait = RB__MAX(wait, a->backoff);
    a->backoff = RB__MIN(a->backoff * 2u, RB__AD_MAX_WAIT);
    return rb__adapt_switch(a, RB_AD_HINT);
}

RBDEF int rb_adapt_epoch(rb_adapt *a, const rb_adapt_signals *s)
{
    double cost;
    int pressure;
    if (!s->calls) return a->mode;
    cost = (double)s->ns / (double)s->calls;
    pressure = s->evicted >= 2 && s->evicted * 8 >= s->misses;
    if (a->mode == RB_AD_HINT && a->checking) {   /* one epoch of hinting against read-around's price */
        a->checking = 0;
        a->cost_hint = cost;
        if (pressure || cost * 1.2 < a->cost_around) return rb__adapt_fail(a, 0);   /* hinting is cheaper now */
        a->recheck = RB__MIN(a->recheck * 2u, RB__AD_MAX_WAIT);
        return rb__adapt_switch(a, RB_AD_AROUND);
    }
    if (a->mode == RB_AD_HINT) {
        a->cost_hint = a->cost_hint > 0 ? a->cost_hint + (cost - a->cost_hint) / 4 : cost;
        a->hinted_ns += (double)s->ns;
        if (pressure) { a->wait = RB__MAX(a->wait, a->backoff); return RB_AD_HINT; }
        if (a->wait) { a->wait--; return RB_AD_HINT; }
        if (!s->misses) return RB_AD_HINT;   /* nothing a trial could win */
        a->trial = 1;
        a->trials++;
        a->trial_ns = a->trial_calls = 0;
        a->cost_trial = 0;
        a->budget = RB__AD_BUDGET * a->hinted_ns;
        a->hinted_ns = 0;
        return rb__adapt_switch(a, RB_AD_AROUND);
    }
    if (a->trial) {
        a->trial_ns += (double)s->ns;
        a->trial_calls += (double)s->calls;
        if (cost <= a->cost_hint && !pressure) {   /* proven: read-around is now the cheaper way */
            a->trial = 0;
            a->backoff = RB__AD_FIRST_WAIT;
            a->cost_around = cost;
            a->recheck = RB__AD_FIRST_WAIT;
            a->since = 0;
            return RB_AD_AROUND;
        }
        if (pressure || rb_adapt_trial_too_dear(a, 0, 0) || a->trial_calls >= RB__AD_TRIAL_EPOCHS * RB__AD_EPOCH)
            return rb__adapt_fail(a, 0);
        a->cost_trial = cost;
        return RB_AD_AROUND;
    }
    /* proven: it stays while it stays cheaper than hinting was, and nothing is being evicted;
       now and then (every 4, 8, ... 1024 epochs) one epoch of hinting checks that price again,
       since the price remembered for hinting ages (pressure that cachestat cannot see, a disk
       that slowed down) */
    a->cost_around = a->cost_around + (cost - a->cost_around) / 4;
    if (pressure || cost > 1.5 * a->cost_hint) return rb__adapt_fail(a, 0);
    if (++a->since >= a->recheck) {
        a->since = 0;
        a->checking = 1;
        return rb__adapt_switch(a, RB_AD_HINT);
    }
    return RB_AD_AROUND;
}

/* A sampled miss: were pages of the range evicted recently (cachestat's recently-evicted
   count, the shadow entries reclaim leaves)? Holes a prewarm or a fadvise made leave none. */
static int rb__pf_recently_evicted(const rb_prefetcher *p, uint64_t off, uint64_t len)
{
    struct rb__cachestat cs;
    uint64_t local = off;
    int fd = p->fd;
    if (p->target && p->target->files) fd = p->target->files[rb_target_file_at(p->target, off, &local)].fd;
    return fd >= 0 && rb__plat_cachestat(fd, local, len, &cs) == RB_OK && cs.nr_recently_evicted > 0;
}

/* A sample's bookkeeping for the regime (NORMAL mappings only): count it in the epoch, and
   at the epoch's end (or when a trial has cost too much already) let rb_adapt_epoch decide. */
static void rb__pf_regime(rb_prefetcher *p, int missed, uint64_t start, uint64_t alen)
{
    uint64_t now, calls = p->st.calls - p->ep_call0;
    p->ep.samples++;
    if (missed) {
        int ev = rb__pf_recently_evicted(p, start, alen);
        p->ep.misses++;
        p->ep.evicted += (uint64_t)ev;
        if (ev && ++p->evicted_misses >= 2) p->fill_off = 1;
    }
    if (calls < RB__AD_EPOCH && !p->ad.trial && p->ep_t0) return;
    now = rb__now_ns();
    if (!p->ep_t0 || (calls < RB__AD_EPOCH && !rb_adapt_trial_too_dear(&p->ad, calls, now - p->ep_t0))) {
        if (!p->ep_t0) { p->ep_t0 = now; p->ep_call0 = p->st.calls; memset(&p->ep, 0, sizeof p->ep); }
        return;
    }
    p->ep.calls = calls;
    p->ep.ns = now - p->ep_t0;
    rb_adapt_epoch(&p->ad, &p->ep);
    p->st.trials = p->ad.trials;
    memset(&p->ep, 0, sizeof p->ep);
    p->ep_t0 = now;
    p->ep_call0 = p->st.calls;
}

#define RB__PF_FILL ((uint64_t)2 << 20)   /* a window: one force_page_cache_ra() chunk */
#define RB__PF_FILL_FULL 0.875             /* resident at least this: nearly full */
#define RB__PF_SWEEP_AFTER 4u    /* nearly full windows in a row before a sweep */
#define RB__PF_SWEEP_EVERY 16u   /* calls per window the sweep hints: one per op of 16 reads */

/* The bytes the reads stay below: the mapping, or less with --size. */
static uint64_t rb__pf_span(const rb_prefetcher *p)
{
    return p->span && p->span < p->map_len ? p->span : p->map_len;
}

/* Whether the whole file fits, judged from a window resident to frac: its holes twice, in
   what the memory this reader may take at its start (rb_mem_available) leaves beside the
   file's own resident pages, which that figure counts as reclaimable cache. A file that does
   not fit gains nothing from a fill or a sweep: they evict its other pages (a 4 GiB file at
   90% in a 4.5 GiB memory cgroup read 5x the bytes with them). Room unknown: no. */
static int rb__pf_fits(const rb_prefetcher *p, double frac)
{
    return p->room >= 0 && (2 - frac) * (double)rb__pf_span(p) <= (double)p->room;
}

/* Filling a nearly full window. At 90% cached (the issue's first case) plain mmap wins
   because each fault's read-around fills its window's holes: after a few hundred faults
   nothing misses. Hinting only the missed range leaves the holes to be found one read at a
   time (adaptive 0.6 of mmap there, paired by round, bench/adaptive-bars.sh), and leaving
   the misses to read-around (a trial) looks dear for the first faults, which wait for a whole
   window each. The third move gets the fill without the wait: on a sampled miss in a
   RB__PF_FILL window whose pages are at least RB__PF_FILL_FULL resident, hint the whole
   window. WILLNEED only starts the reads of its missing pages and returns; the read then
   waits for its own pages alone. Why the gate: a nearly full window's holes are few (at most
   an eighth: 256 KiB in 2 MiB, read once, in the background), and filling them means that
   window misses no more; a half-empty window (the 50% case) is where read-around collapses,
   and there the range alone is hinted as before; so is a file that does not fit in memory
   (rb__pf_fits), where filling evicts the file's other pages. The window is one
   force_page_cache_ra() chunk (mm/readahead.c), whatever read_ahead_kb is. Where memory is
   short filling evicts what others need: once two sampled misses found recently evicted
   pages (cachestat) the reader fills no more. The last RB_PF_FILLED windows filled are not asked again: their pages are
   in flight and mincore does not count them yet. 0: not filled (hint the range), 1: the
   window was hinted, -1: that hint failed. */
static int rb__pf_fill(rb_prefetcher *p, uint64_t start, uint64_t alen)
{
    uint64_t span = rb__pf_span(p), w0 = start / RB__PF_FILL * RB__PF_FILL, id = w0 / RB__PF_FILL + 1, wl;
    unsigned i;
    double frac;
    if (w0 >= span) return 0;
    wl = RB__MIN(RB__PF_FILL, span - w0);
    if (p->fill_off || !p->window_resident || start + alen > w0 + wl) return 0;
    for (i = 0; i < RB_PF_FILLED; i++)
        if (p->filled[i] == id) return 0;
    frac = p->window_resident(p->resident_ctx, p->map + w0, (size_t)wl);
    if (!(frac >= RB__PF_FILL_FULL) || !rb__pf_fits(p, frac)) { p->full_run = 0; return 0; }
    if (++p->full_run >= RB__PF_SWEEP_AFTER && !p->sweep && !p->swept) {
        p->sweep = 1;
        p->st.sweeps++;
    }
    p->filled[p->nfilled++ % RB_PF_FILLED] = id;
    p->st.fills++;
    return rb__pf_advise(p, w0, wl);
}

/* The sweep: filling windows one sampled miss at a time leaves the last holes to be found by
   chance, and the rarer the misses the fewer the samples (adaptive samples one call in 64
   once the file looks warm), while plain mmap fills a window at every miss. When
   RB__PF_SWEEP_AFTER sampled windows in a row were nearly full (and the file fits,
   rb__pf_fits), the file is nearly cached throughout, and the reader hints the file window
   after window from the start, one window per RB__PF_SWEEP_EVERY calls, once. Each hint
   starts the reads of the window's missing pages alone and returns. Recently evicted pages
   (fill_off) stop it. The readers of a cell share one pass (a cursor in the target that each
   step takes a window from), so T threads do not hint the file T times. Only the bytes the
   reads reach (--size) are swept. A failed hint is counted (st.failed) like any other. */
static void rb__pf_sweep_step(rb_prefetcher *p)
{
    uint64_t *cursor = p->sweep_next ? p->sweep_next : &p->own_sweep, span = rb__pf_span(p), w0;
    if (p->fill_off) { p->sweep = 0; p->swept = 1; return; }
    w0 = __atomic_fetch_add(cursor, 1, __ATOMIC_RELAXED) * RB__PF_FILL;
    if (w0 >= span) { p->sweep = 0; p->swept = 1; return; }
    rb__pf_advise(p, w0, RB__MIN(RB__PF_FILL, span - w0));
}

/* adaptive: sampled residency checks feed the miss-rate estimate (and, on a NORMAL mapping,
   the regime); between samples the estimate and the regime decide. */
static int rb__pf_adaptive(rb_prefetcher *p, uint64_t start, uint64_t alen)
{
    int r;
    if (!p->trust_mincore) return rb__pf_advise(p, start, alen);
    if (p->sweep && p->st.calls % RB__PF_SWEEP_EVERY == 0) rb__pf_sweep_step(p);
    if (p->countdown > 0) {
        p->countdown--;
        if (p->est >= RB__PF_THRESHOLD && p->ad.mode == RB_AD_HINT) return rb__pf_advise(p, start, alen);
        p->st.around += p->est >= RB__PF_THRESHOLD;   /* it would have hinted: read-around's now */
        p->st.skips++;
        return 0;
    }
    p->st.mincore_calls++;
    r = p->resident(p->resident_ctx, p->map + start, (size_t)alen);
    if (r < 0) {
        if (p->st.mincore_failed++ == 0 && !p->st.failed) p->last_errno = errno;
        return rb__pf_advise(p, start, alen);
    }
    p->est = r == 0 ? p->est + (RB__PF_ONE - p->est) / 32u : p->est - p->est / 32u;
    if (p->est >= RB__PF_THRESHOLD) p->gap = RB__PF_COLD_GAP;
    else p->gap = r == 0 ? 1u : RB__MIN(p->gap * 2u, RB__PF_HOT_GAP);
    p->countdown = p->gap - 1;
    if (p->read_around) rb__pf_regime(p, r == 0, start, alen);
    if (p->ad.trial) p->countdown = 0;   /* on trial every call is a sample: a dear trial ends after one fault */
    if (r == 0 && p->ad.mode == RB_AD_AROUND) p->st.around++;
    if (r == 1 || p->ad.mode == RB_AD_AROUND) { p->st.skips++; return 0; }
    if (p->read_around && (r = rb__pf_fill(p, start, alen)) != 0) return r;
    return rb__pf_advise(p, start, alen);
}

/* 1: advised, 0: skipped, -1: the advice (or the residency check) failed. */
RBDEF int rb_prefetch(rb_prefetcher *p, uint64_t off, uint64_t len)
{
    uint64_t start, alen, c;
    int r;
    p->st.calls++;
    if (!rb_page_range(off, len, p->page, p->map_len, &start, &alen)) { p->st.skips++; return 0; }
    switch (p->policy) {
    case RB_PF_BACKOFF:
    case RB_PF_BACKOFF_NOMINCORE:
    case RB_PF_BACKOFF_SHARED:
        /* #13381: a plain field only this reader touches; #15585: an atomic increment of the
           file's counter (a reset races with other readers' increments, as in Lucene) */
        if (p->policy == RB_PF_BACKOFF_SHARED) c = __atomic_fetch_add(p->counter, 1, __ATOMIC_RELAXED);
        else c = (*p->counter)++;
        if (c != 0 && (c & (c - 1)) != 0) { p->st.skips++; return 0; }
        if (p->policy != RB_PF_BACKOFF_NOMINCORE) {
            p->st.mincore_calls++;
            r = p->resident(p->resident_ctx, p->map + start, (size_t)alen);
            if (r < 0) { if (p->st.mincore_failed++ == 0 && !p->st.failed) p->last_errno = errno; return -1; }
            if (r == 1) { p->st.skips++; return 0; }
            if (p->policy == RB_PF_BACKOFF_SHARED) __atomic_store_n(p->counter, 0, __ATOMIC_RELAXED);
            else *p->counter = 0;
        }
        return rb__pf_advise(p, start, alen);
    case RB_PF_ADAPTIVE:
        return rb__pf_adaptive(p, start, alen);
    default:
        return rb__pf_advise(p, start, alen);
    }
}

static void rb__read_error(rb_worker *w, int e)
{
    if (w->io_errors++ == 0) w->io_errno = e;
}

/* A read's data arrived whole: keep it from being optimized away, check it with --verify. */
static void rb__read_done(rb_worker *w, const unsigned char *buf, uint64_t off, size_t rs)
{
    w->sink += buf[rs - 1];
    if (w->t->cfg->verify) rb_worker_check(w, buf, off, rs);
}

/*
   What became of the hints a strategy gave (WILLNEED by madvise or posix_fadvise, through
   every policy), for one hint in RB_PA_EVERY per thread, each hint followed or not by a
   seeded random draw. Not every RB_PA_EVERY-th hint: the WILLNEED rows hint every read of an
   op and then read, so with 16 reads per op (or any multiple or divisor of 16) that hint was
   always read 0's, the read that comes right after the hints, and the fractions described
   that read alone (84-92% late cold, against 6-7% at 17 reads per op). A draw per hint
   follows every position of an op alike, and a seed makes a run repeat.
   Right after the hint, mincore over its range: every page in means it was in before the
   hint too (mincore counts only pages whose data has arrived, and a hint's own I/O takes far
   longer than the microsecond between the two calls): redundant. Otherwise the hint is
   followed to its read, and just before the read mincore asks again. A page still missing:
   the read will wait for it: late, unless
   pages of the range were evicted in between (cachestat's evicted count over the range grew
   since the hint: pressure took what the hint had loaded): wasted. Without cachestat (before
   6.5, EPERM, macOS) wasted cannot be told from late: counted late and said (wasted_unknown).
   Every page in: the read is timed, and it is useful unless it was slow, late otherwise
   (late_slow): residency says the data arrived, the clock says whether the read still
   waited (a page evicted and re-read between the check and the copy, a large folio still
   locked by its I/O, a fault that had to wait). "Slow" is longer than twice the median of
   this reader's last RB_PA_CACHED reads that found their range resident, and never under
   RB_PA_SLOW_FLOOR_NS (20 us). Why those two: cached reads of one size differ by well under
   2x (a copy, at most a minor fault), while a read that waits for the device waits at least
   one device read (about 100 us on this project's virtio disk, 10-80 us on NVMe flash); a
   median is not moved by the few slow ones among them. The floor keeps a 4 us read (2x a
   2 us median) from counting: a timer interrupt or a minor fault takes that long, no
   device does. Until three cached reads are timed the floor alone decides. Where mincore
   lies (a file this user neither owns nor may write) nothing is classified (untrusted).
   The checks run inside the timed op: a sampled hint costs two mincore calls, two cachestat
   calls and two clock reads at most, about 1 us per 16 hints. */

/* The evicted pages cachestat counts over [off, off + len) of the target's space (a directory:
   inside one file, a hinted range being one read's pages): -1 where it cannot say. */
static int64_t rb__pa_evicted(const rb__pa_follow *f, uint64_t off, uint64_t len)
{
    struct rb__cachestat cs;
    uint64_t local = off;
    int fd = f->fd;
    if (f->t && f->t->files) fd = f->t->files[rb_target_file_at(f->t, off, &local)].fd;
    if (fd < 0 || rb__plat_cachestat(fd, local, len, &cs) != RB_OK) return -1;
    return (int64_t)cs.nr_evicted;
}

/* Whether a hint is followed: 1 in RB_PA_EVERY, at random. */
static int rb__pa_draw(rb__pa_follow *f) { return rb__below(f->rng, RB_PA_EVERY) == 0; }

/* What a reader's hints are followed on: its mapping of the file (the whole file from offset
   0, or its first map_len bytes), the descriptor cachestat asks, and whether mincore tells
   the truth there; which hints, from (seed, stream): a reader's own stream, so that runs repeat. */
static void rb__pa_follow_init(rb__pa_follow *f, const unsigned char *map, size_t page, int fd, int trusted,
                               uint64_t seed, uint64_t stream)
{
    memset(f, 0, sizeof *f);
    f->map = map;
    f->page = page;
    f->fd = fd;
    f->trusted = trusted;
    rb__rng_seed(f->rng, seed, 0x7061636374ULL + stream);   /* "pacct": not the offsets' stream */
    f->follow_next = rb__pa_draw(f);
}

/* 1: the next hint given will be followed (the caller may time what following costs). */
RB__TOOL_ONLY static int rb__pa_follows_next(const rb__pa_follow *f) { return f->follow_next; }

/* A hint was given for read k of the op, over the page-aligned [start, start + len) of the
   reader's mapping (pread-fadvise maps the file for this alone, and never reads the map). */
static void rb__pa_hint(rb_prefetch_accounting *a, rb__pa_follow *f, unsigned k, uint64_t start, uint64_t len)
{
    rb__pa_sample *s;
    int r, follow = f->follow_next;
    a->hints++;
    f->follow_next = rb__pa_draw(f);
    if (!follow) return;
    if (!f->trusted || !f->map) { a->untrusted++; return; }
    if (f->npending == RB_PA_PENDING) return;   /* the op's earlier samples fill the list */
    a->sampled++;
    r = rb__mincore_resident((void *)(uintptr_t)f->page, f->map + start, (size_t)len);
    if (r < 0) { a->failed++; return; }
    if (r == 1) { a->redundant++; return; }
    s = &f->pending[f->npending++];
    s->k = k;
    s->start = start;
    s->len = len;
    s->evicted = rb__pa_evicted(f, start, len);
}

/* Read k of the op is about to happen: if its hint was followed and a page is still
   missing, classify it now (late or wasted); if every page is in, return 1: the caller times
   the read and gives its time to rb__pa_read_end, which says useful or late. */
static int rb__pa_read_start(rb_prefetch_accounting *a, rb__pa_follow *f, unsigned k)
{
    rb__pa_sample s;
    unsigned i;
    int r;
    int64_t ev;
    for (i = 0; i < f->npending && f->pending[i].k != k; i++) {}
    if (i == f->npending) return 0;
    s = f->pending[i];
    f->pending[i] = f->pending[--f->npending];
    r = rb__mincore_resident((void *)(uintptr_t)f->page, f->map + s.start, (size_t)s.len);
    if (r == 1) return 1;
    ev = r == 0 && s.evicted >= 0 ? rb__pa_evicted(f, s.start, s.len) : -1;
    if (r < 0) a->failed++;
    else if (ev >= 0 && ev > s.evicted) a->wasted++;
    else {
        a->late++;
        if (ev < 0) a->wasted_unknown++;
    }
    return 0;
}

/* The threshold over which a read of resident pages still waited: twice the median of the
   reader's last cached reads, at least the floor (see the section's comment). */
RBDEF uint64_t rb_pa_slow_threshold(const uint64_t *cached_ns, unsigned n)
{
    uint64_t v[RB_PA_CACHED], x;
    unsigned i, j;
    n = RB__MIN(n, RB_PA_CACHED);
    if (n < 3) return RB_PA_SLOW_FLOOR_NS;
    for (i = 0; i < n; i++) {   /* insertion sort of at most 15 values */
        x = cached_ns[i];
        for (j = i; j > 0 && v[j - 1] > x; j--) v[j] = v[j - 1];
        v[j] = x;
    }
    x = v[n / 2];
    return RB__MAX(2 * x, (uint64_t)RB_PA_SLOW_FLOOR_NS);
}

/* The read rb__pa_read_start asked to time took ns: useful, or late if it was slow. Either
   way it read resident pages, so its time joins the cached reads' ring. */
static void rb__pa_read_end(rb_prefetch_accounting *a, rb__pa_follow *f, uint64_t ns)
{
    if (ns > rb_pa_slow_threshold(f->cached_ns, f->ncached)) {
        a->late++;
        a->late_slow++;
    } else {
        a->useful++;
    }
    f->cached_ns[f->next_cached] = ns;
    f->next_cached = (f->next_cached + 1) % RB_PA_CACHED;
    if (f->ncached < RB_PA_CACHED) f->ncached++;
}

/* The op is over: a followed hint whose read never came (the op failed) is dropped. */
static void rb__pa_end(rb_prefetch_accounting *a, rb__pa_follow *f)
{
    a->sampled -= f->npending;
    f->npending = 0;
}

/* The strategies' side: a worker's hint, and its read k about to happen (timed when the
   accounting asks; rb__pa_read_done with the time after the read). */
static void rb__pa_hinted(rb_worker *w, unsigned k, uint64_t start, uint64_t len)
{
    rb__pa_hint(&w->pa, &w->paf, k, start, len);
}

static int rb__pa_reading(rb_worker *w, unsigned k) { return rb__pa_read_start(&w->pa, &w->paf, k); }
static int rb__pa_pending(const rb_worker *w, unsigned k)   /* read k's hint is followed */
{
    unsigned i;
    for (i = 0; i < w->paf.npending; i++)
        if (w->paf.pending[i].k == k) return 1;
    return 0;
}
static void rb__pa_read_done(rb_worker *w, uint64_t ns) { rb__pa_read_end(&w->pa, &w->paf, ns); }
static void rb__pa_op_end(rb_worker *w) { rb__pa_end(&w->pa, &w->paf); }

/* Adds one thread's (or one round's) accounting to a cell's. */
static void rb__pa_add(rb_prefetch_accounting *into, const rb_prefetch_accounting *a)
{
    into->hints += a->hints;
    into->sampled += a->sampled;
    into->redundant += a->redundant;
    into->useful += a->useful;
    into->late += a->late;
    into->wasted += a->wasted;
    into->failed += a->failed;
    into->wasted_unknown += a->wasted_unknown;
    into->untrusted += a->untrusted;
    into->late_slow += a->late_slow;
}

/* The policy rows' prefetcher, one per thread (each thread is one reader, a clone: backoff's
   counter is its own, backoff-shared's the cell's), set up by the runner before the row's own
   thread_init (rb__worker_main). */
static int rb__thread_prefetcher(rb_worker *w, char *why, size_t wl)
{
    int policy = w->t->s->policy;
    if (policy < 0 || policy >= RB_PF_COUNT || !w->t->map) {
        rb__fmt(why, wl, "%s: prefetch policy %d needs a mapping and one of the %u policies", w->t->s->name, policy,
                RB_PF_COUNT);
        return RB_EINVAL;
    }
    rb_prefetcher_init(&w->pf, policy, w->t->map, w->t->map_len, &w->t->prefetch_counter);
    w->pf.trust_mincore = w->t->mincore_trusted;
    w->pf.read_around = w->t->s->advice == RB_ADVICE_NORMAL;   /* mmap-adaptive: its faults read around */
    if (w->pf.read_around && policy == RB_PF_ADAPTIVE) {   /* the fill's and the sweep's bounds */
        w->pf.room = rb_mem_available();
        w->pf.span = w->t->size;
        w->pf.sweep_next = &w->t->sweep_next;
    }
    w->pf.fd = w->t->fd;
    w->pf.target = w->t;   /* a directory: each range's own file */
    return RB_OK;
}

#if defined(RB__HAS_POPULATE)
static int rb__populate(rb_worker *w, uint64_t off, uint64_t len)
{
    return rb_worker_advise(w, off, len, MADV_POPULATE_READ);
}

static int rb__populate_probe(rb_target *t, char *why, size_t wl)
{
    if (madvise(t->map, 0, MADV_POPULATE_READ) == 0) return RB_OK;   /* length 0: validated, nothing read */
    rb__fmt(why, wl, "madvise(MADV_POPULATE_READ) refused (Linux 5.14+): %s", strerror(errno));
    return RB_UNSUPPORTED;
}
#else
static int rb__populate(rb_worker *w, uint64_t off, uint64_t len)
{
    (void)w; (void)off; (void)len;
    return -1;   /* never called: the probe refused the strategy */
}

static int rb__populate_probe(rb_target *t, char *why, size_t wl)
{
    (void)t;
    rb__fmt(why, wl, "MADV_POPULATE_READ is Linux-only (5.14+)");
    return RB_UNSUPPORTED;
}
#endif

/* Every call and every failure counted, as for madvise; a hint given is accounted. */
static void rb__worker_fadvise(rb_worker *w, unsigned k, uint64_t off, uint64_t len)
{
    uint64_t start, alen, at;
    int e, fd;
    if (!rb_page_range(off, len, w->t->page, w->t->map_len, &start, &alen)) return;
    w->fadvise_calls++;
    fd = rb_worker_fd_at(w, start, &at);   /* the read's file (a page-aligned start stays in it) */
    e = rb__plat_fadvise_range(fd, at, alen, RB__HINT_WILLNEED);
    if (e == 0) rb__pa_hinted(w, k, start, alen);
    else if (w->fadvise_failed++ == 0) w->fadvise_errno = e;
}

/* ==== 1.6 config and result =================================================================== */

/* The files and directories of a config (1.10), which these checks come before. */
static void rb__dirlist_free(rb__dirlist *d);
static int rb__dir_scan(const char *dir, rb__dirlist *d, rb_error *err);
static int rb__is_dir(const char *path);

/* Memory figures for a message: 1.50 GiB, 300 MiB. */
static void rb__mem_text(uint64_t b, char *buf, size_t len)
{
    if (b >= ((uint64_t)1 << 30)) snprintf(buf, len, "%.2f GiB", (double)b / 1073741824.0);
    else snprintf(buf, len, "%.0f MiB", (double)b / 1048576.0);
}

/* Defaults. The warmup is 1 s, except where a warmup would undo the state the cell prepared:
   after an eviction before the cell, or a prewarm of part of the file, it would read pages
   in and the measurement would start from a state nobody asked for. With evict-each the
   eviction before the first measured iteration undoes the warmup's reads, so it keeps one. */
/* From a trace's first recorded read to its last, over every stream; 0: no times. */
static uint64_t rb__trace_span_ns(const rb_trace *t)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    unsigned i;
    for (i = 0; t->has_time && i < t->nstreams; i++) {
        const rb_trace_stream *st = &t->streams[i];
        if (!st->n) continue;
        lo = RB__MIN(lo, st->reads[0].time_ns);
        hi = RB__MAX(hi, st->reads[st->n - 1].time_ns);
    }
    return hi > lo ? hi - lo : 0;
}

RBDEF void rb_config_defaults(const rb_config *in, rb_config *c)
{
    *c = *in;
    if (c->trace && c->trace->status == RB_OK && c->trace->max_len) {   /* the buffers hold its longest read */
        c->read_size = c->trace->max_len;
        if (!c->reads_per_op) c->reads_per_op = 1;
    }
    if (!c->read_size) c->read_size = 16384;
    if (!c->reads_per_op) c->reads_per_op = c->pattern == RB_SEQUENTIAL ? 128 : 16;
    if (!c->iodepth) c->iodepth = RB__MIN(c->reads_per_op, RB_MAX_IODEPTH);
    if (!c->threads) c->threads = 1;
    if (c->timed && c->trace && c->trace->status == RB_OK && rb__trace_span_ns(c->trace) > 0 && !(c->rate > 0)) {
        /* the schedule is the trace's; the rate is its mean, for the due count and the report */
        c->rate = (double)c->trace->reads / c->reads_per_op / c->threads * 1e9 / (double)rb__trace_span_ns(c->trace);
        c->arrivals = RB_ARRIVALS_TRACE;
    }
    if (!c->data_seed) c->data_seed = RB_DATA_SEED;
    if (c->warmup_ns == 0)
        c->warmup_ns = c->cache == RB_CACHE_EVICT || (c->prewarm > 0 && c->prewarm < 1) ? 0 : 1000000000;
    if (c->warmup_ns < 0) c->warmup_ns = 0;
    if (!c->duration_ns) c->duration_ns = 1000000000;
    if (!c->iterations) c->iterations = 5;
    if (c->iterations > RB_MAX_ITERATIONS) c->iterations = RB_MAX_ITERATIONS;
}

/* The load: a rate, or a think time, not both (a think time is a closed loop's pause between
   ops; in an open loop the schedule decides when ops start), and a rate with at least one
   arrival per iteration (with none, the iteration would measure nothing). */
static int rb__load_check(const rb_config *c, char *why, size_t wl)
{
    double duration_s = (double)(c->duration_ns > 0 ? c->duration_ns : 1000000000) / 1e9;
    if (!(c->rate >= 0 && c->rate <= RB_MAX_RATE)) {
        rb__fmt(why, wl, "the rate must be above 0 and at most %g ops/s per thread (0: closed loop), not %g",
                RB_MAX_RATE, c->rate);
        return RB_EINVAL;
    }
    if (c->arrivals != RB_ARRIVALS_UNIFORM && c->arrivals != RB_ARRIVALS_POISSON &&
        !(c->arrivals == RB_ARRIVALS_TRACE && c->timed)) {
        rb__fmt(why, wl, "no arrival process %d (RB_ARRIVALS_UNIFORM or RB_ARRIVALS_POISSON)", c->arrivals);
        return RB_EINVAL;
    }
    if (c->timed && (!c->trace || c->trace->status != RB_OK)) {
        rb__fmt(why, wl, "a timed replay needs a trace to take its times from");
        return RB_EINVAL;
    }
    if (c->timed && !rb__trace_span_ns(c->trace)) {
        char held[160] = "";
        if (c->trace->backwards)
            rb__fmt(held, sizeof held, ", once the %llu time%s that went back within a stream (the first at line %llu) "
                    "%s held at the time before", (unsigned long long)c->trace->backwards,
                    c->trace->backwards == 1 ? "" : "s", (unsigned long long)c->trace->backwards_line,
                    c->trace->backwards == 1 ? "was" : "were");
        rb__fmt(why, wl, "the trace has no times to replay (%s%s): record with strace -ttt or -tt, fio's iolog v3, or a "
                "CSV time_ns column", c->trace->has_time ? "its reads of FILE were all at one instant" :
                "its lines carry none", held);
        return RB_EINVAL;
    }
    if (c->timed && ((c->rate > 0 && c->arrivals != RB_ARRIVALS_TRACE) || c->think_ns > 0)) {
        rb__fmt(why, wl, "a timed replay and a %s together: the trace's times are the schedule, give one of them",
                c->think_ns > 0 ? "think time" : "rate");
        return RB_EINVAL;
    }
    if (c->think_ns < 0) {
        rb__fmt(why, wl, "the think time must be positive or 0, not %lld ns", (long long)c->think_ns);
        return RB_EINVAL;
    }
    if (c->rate > 0 && c->think_ns > 0) {
        rb__fmt(why, wl, "a think time and a rate together: the think time paces a closed loop, the rate an open "
                "one (its ops start on a schedule): give one of them");
        return RB_EINVAL;
    }
    if (c->rate > 0 && c->rate * duration_s < 1) {
        rb__fmt(why, wl, "at %g ops/s per thread an iteration of %g s holds no arrival: a higher rate or a longer "
                "iteration", c->rate, duration_s);
        return RB_EINVAL;
    }
    return RB_OK;
}

/* Which file a read goes to (a directory): by size or uniformly; a sequential pattern reads
   every file in name order, so a pick asked with it would be ignored: said instead. */
static int rb__file_pick_check(const rb_config *c, char *why, size_t wl)
{
    if (c->file_pick != RB_PICK_SIZE && c->file_pick != RB_PICK_UNIFORM) {
        rb__fmt(why, wl, "no file pick %d (RB_PICK_SIZE or RB_PICK_UNIFORM)", c->file_pick);
        return RB_EINVAL;
    }
    if (c->file_pick == RB_PICK_UNIFORM && c->pattern == RB_SEQUENTIAL) {
        rb__fmt(why, wl, "a sequential pattern reads every file in name order, one after another: a uniform file "
                "pick does not apply");
        return RB_EINVAL;
    }
    return RB_OK;
}

/* A replay reads the offsets and lengths the trace has: a pattern, an alignment or a read size
   asked beside it would go unused, so each is refused the same way (sizes: the read sizes asked;
   n 0: none). The trace has loaded. */
static int rb__replay_own_reads(const rb_config *c, const uint64_t *sizes, unsigned n, char *why, size_t wl)
{
    char spec[RB_PATTERN_LEN];
    rb_config p = *c;
    unsigned k;
    for (k = 0; sizes && k < n; k++)
        if (sizes[k] != c->trace->max_len) {
            rb__fmt(why, wl, "a replay reads the lengths the trace has (its longest %llu bytes), not a read size of "
                    "%llu", (unsigned long long)c->trace->max_len, (unsigned long long)sizes[k]);
            return RB_EINVAL;
        }
    p.trace = NULL;
    if (c->pattern != RB_RANDOM || c->run_length > 1) {
        rb__fmt(why, wl, "a replay reads the offsets the trace has, not the pattern %s",
                rb_pattern_name(&p, spec, sizeof spec));
        return RB_EINVAL;
    }
    if (c->align > 1) {
        rb__fmt(why, wl, "a replay reads the offsets the trace has, not offsets aligned to %llu bytes",
                (unsigned long long)c->align);
        return RB_EINVAL;
    }
    return RB_OK;
}

static int rb__config_check(const rb_config *c, const rb_strategy *s, char *why, size_t wl)
{
    if (!c || !s) {
        rb__fmt(why, wl, "no %s given (NULL)", !c ? "configuration" : "strategy");
        return RB_EINVAL;
    }
    if (!c->path) { rb__fmt(why, wl, "no file path given (NULL)"); return RB_EINVAL; }
    if (c->duration_ns < 0) {
        rb__fmt(why, wl, "the duration must be positive, not %lld ns", (long long)c->duration_ns);
        return RB_EINVAL;
    }
    if (rb_pattern_check(c, why, wl) != RB_OK || rb__load_check(c, why, wl) != RB_OK ||
        rb__file_pick_check(c, why, wl) != RB_OK)
        return RB_EINVAL;
    if (c->trace && (c->trace->status != RB_OK || !c->trace->nstreams)) {
        rb__fmt(why, wl, "%s", c->trace->status != RB_OK ? c->trace->why : "the trace holds no read");
        return RB_EINVAL;
    }
    if (c->trace && rb__replay_own_reads(c, NULL, 0, why, wl) != RB_OK) return RB_EINVAL;
    if (c->trace && rb__is_dir(c->path)) {   /* a trace's offsets are of one file, not of a directory's joint space */
        rb__fmt(why, wl, "%s is a directory: a trace is replayed on the one file it read", c->path);
        return RB_EINVAL;
    }
    if (c->trace && c->threads > c->trace->reads) {
        rb__fmt(why, wl, "%u threads for the %llu reads of the trace: a thread would have none", c->threads,
                (unsigned long long)c->trace->reads);
        return RB_EINVAL;
    }
    if (!(c->prewarm >= 0 && c->prewarm <= 1)) {
        rb__fmt(why, wl, "the fraction to prewarm must be in [0, 1], not %g", c->prewarm);
        return RB_EINVAL;
    }
    if (c->cache < RB_CACHE_KEEP || c->cache > RB_CACHE_EVICT_EACH) {
        rb__fmt(why, wl, "no cache mode %d (RB_CACHE_KEEP, RB_CACHE_EVICT or RB_CACHE_EVICT_EACH)", c->cache);
        return RB_EINVAL;
    }
    if (c->warmup_ns < 0 && c->warmup_ns != RB_NONE) {
        rb__fmt(why, wl, "the warmup must be positive, 0 (the default) or RB_NONE, not %lld ns", (long long)c->warmup_ns);
        return RB_EINVAL;
    }
    if (c->iodepth > RB_MAX_IODEPTH) {
        rb__fmt(why, wl, "an iodepth of %u is more than the %u reads in flight this library keeps", c->iodepth,
                RB_MAX_IODEPTH);
        return RB_EINVAL;
    }
    if (c->iterations > RB_MAX_ITERATIONS || c->threads > RB_MAX_THREADS) {
        rb__fmt(why, wl, "%u %s is more than the %u this library runs", c->iterations > RB_MAX_ITERATIONS ?
                c->iterations : c->threads, c->iterations > RB_MAX_ITERATIONS ? "iterations" : "threads",
                c->iterations > RB_MAX_ITERATIONS ? RB_MAX_ITERATIONS : RB_MAX_THREADS);
        return RB_EINVAL;
    }
    if (c->observer && c->observer->check && c->observer->check(c->observer, c, why, wl) != RB_OK) return RB_EINVAL;
    return RB_OK;
}

/* Random offsets are multiples of align in [0, size - read_size]: an alignment past that
   leaves offset 0 alone, and every read of the cell would read the same bytes. */
static int rb__align_check(uint64_t align, int pattern, uint64_t size, uint64_t rs, char *why, size_t wl)
{
    if (align <= 1 || pattern == RB_SEQUENTIAL || rs > size || size - rs >= align) return RB_OK;
    rb__fmt(why, wl, "an alignment of %llu leaves one offset (0) in the %llu bytes to read from with %llu-byte "
            "reads: every read would read the same bytes", (unsigned long long)align, (unsigned long long)size,
            (unsigned long long)rs);
    return RB_EINVAL;
}

static void rb__result_reason(rb_result *r, const char *fmt, ...) RB__PRINTF(2, 3);
static void rb__result_reason(rb_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rb__vfmt(r->reason, sizeof r->reason, fmt, ap);
    va_end(ap);
}

/* The groups' and the victim's figures, unknown until measured (a row of no group stays 0). */
static void rb__result_unknown_extras(rb_result *res)
{
    res->together_ratio = res->together_ratio_lo = res->together_ratio_hi = NAN;
    res->paired_ratio = res->paired_lo = res->paired_hi = NAN;
    res->ws_pages = res->ws_evicted = -1;
    res->victim_resident_before = res->victim_resident_after = res->victim_lost = -1;
    res->victim_device_read_bytes = res->victim_recently_evicted = -1;
}

static void rb__result_init(rb_result *res, const rb_config *c, const rb_strategy *s)
{
    unsigned k;
    memset(res, 0, sizeof *res);
    rb_hist_init(&res->lat);
    rb_hist_init(&res->read_lat);
    rb_hist_init(&res->service);
    res->strategy = s->name;
    res->threads = c->threads;
    res->pattern = c->pattern;
    rb_pattern_name(c, res->pattern_spec, sizeof res->pattern_spec);
    res->read_size = c->read_size;
    res->reads_per_op = c->reads_per_op;
    res->verified = c->verify != 0;
    res->cache_bypassed = (s->flags & RB_S_DIRECT) != 0;
    for (k = 0; k < RB_MAX_ITERATIONS; k++) res->iter_pages_touched[k] = -1;
    res->pages_touched = res->hit_rate = res->fault_hit_rate = -1;
    res->resident_before = res->resident_after = res->resident_prepared = -1;
    for (k = 0; k < RB_MAX_ITERATIONS; k++) res->iter_resident_before[k] = -1;
    res->majflt = res->minflt = res->device_read_bytes = -1;
    res->cpu_user_ns_per_read = res->cpu_sys_ns_per_read = -1;
    res->read_amplification = -1;
    res->ops_per_ms_stddev = res->machine_drift = NAN;
    res->per_process_faults = rb__plat_thread_rusage(NULL) == RB_UNSUPPORTED;
    rb__result_unknown_extras(res);
}

/* ==== 1.7 the strategy interface, targets and workers ========================================= */

/*
   madvise wants a page-aligned start; the length it rounds up itself. So: round the start
   down, grow the length by what was cut off, and clamp the end to the mapping (advice past
   the mapping's end is ENOMEM). Every call is counted, and so is every failure. */
RBDEF int rb_page_range(uint64_t off, uint64_t len, uint64_t page, uint64_t map_len,
                        uint64_t *start, uint64_t *alen)
{
    uint64_t s = off & ~(page - 1), e = off + len;
    *start = s;
    *alen = 0;
    if (len == 0 || off >= map_len) return 0;   /* nothing of the range is mapped */
    if (e > map_len || e < off) e = map_len;
    *alen = e - s;
    return 1;
}

RBDEF int rb_worker_advise(rb_worker *w, uint64_t off, uint64_t len, int advice)
{
    uint64_t start, alen;
    if (!rb_page_range(off, len, w->t->page, w->t->map_len, &start, &alen)) return 0;
    w->madvise_calls++;
    if (madvise(w->t->map + start, (size_t)alen, advice) != 0) {
        if (w->madvise_failed++ == 0) w->madvise_errno = errno;
        return -1;
    }
    return 0;
}

/* A directory's offset to its file: the last file starting at or before it (a binary search
   over the bases; a read never crosses a file's end, so its first byte names its file). */
RBDEF unsigned rb_target_file_at(const rb_target *t, uint64_t off, uint64_t *local)
{
    unsigned lo = 0, hi;
    if (t->nfiles < 2 || !t->files) { *local = off; return 0; }
    hi = t->nfiles - 1;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo + 1) / 2;
        if (t->files[mid].base <= off) lo = mid;
        else hi = mid - 1;
    }
    *local = off - t->files[lo].base;
    return lo;
}

RBDEF int rb_worker_fd_at(const rb_worker *w, uint64_t off, uint64_t *local)
{
    unsigned k = rb_target_file_at(w->t, off, local);
    if (w->fds) return w->fds[k];
    if (w->t->files) return w->t->files[k].fd;
    return w->fd >= 0 ? w->fd : w->t->fd;
}

/* --verify: compare what was read with what setup wrote there (in a directory, with the seed
   setup gave that file's name: a read from the wrong file does not match). */
RBDEF void rb_worker_check(rb_worker *w, const unsigned char *p, uint64_t off, size_t len)
{
    uint64_t local = off, seed = w->t->cfg->data_seed;
    if (w->t->files) seed = w->t->files[rb_target_file_at(w->t, off, &local)].data_seed;
    rb_fill_pattern(w->expect, local, len, seed);
    if (memcmp(w->expect, p, len) != 0) w->verify_mismatches++;
}

/* A trace's reads have lengths of their own (w->lens); every other cell reads read_size. */
RBDEF uint64_t rb_worker_read_len(const rb_worker *w, unsigned i)
{
    return w->lens ? w->lens[i] : w->t->cfg->read_size;
}
#define RB__LEN(w, i) ((size_t)rb_worker_read_len((w), (i)))

/* What the runner made for the target besides what the strategy's close undoes (the
   descriptors and the mapping: a custom strategy's close calls a built-in one's): a
   directory's file table and the sampler's per-file part. */
static void rb__target_release(rb_target *t)
{
    unsigned i;
    rb_sampler_free(&t->smp);
    for (i = 0; i < t->nfiles && t->files; i++) free(t->files[i].path);
    free(t->files);
    t->files = NULL;
    t->nfiles = 0;
}

/* A directory: its files read whole, each a sampler of its own (rb_sampler_init_files) over the
   layout rb__open_files made. An alignment is judged against the largest file. */
static int rb__target_sampler_files(rb_target *t, const rb_config *c, int direct, char *why, size_t wl)
{
    uint64_t *sizes = (uint64_t *)malloc(2 * sizeof(uint64_t) * t->nfiles), *bases, largest = 0;
    unsigned i;
    int rc;
    if (!sizes) { rb__fmt(why, wl, "out of memory for %u files", t->nfiles); return RB_ENOMEM; }
    bases = sizes + t->nfiles;
    for (i = 0; i < t->nfiles; i++) {
        sizes[i] = t->files[i].size;
        bases[i] = t->files[i].base;
        largest = RB__MAX(largest, sizes[i]);
    }
    t->size = t->map_len;
    if (c->size) {
        rb__fmt(why, wl, "a directory's files are read whole: a size to read from applies to one file only");
        rc = RB_EINVAL;
    } else {
        rc = rb__align_check(c->align, c->pattern, largest, c->read_size, why, wl);
    }
    if (rc == RB_OK) rc = rb_sampler_init_files(&t->smp, c, sizes, bases, t->nfiles, t->page, direct, why, wl);
    free(sizes);
    return rc;
}

/* Opens the target (the file, and a mapping of this strategy's own) with defaults applied. */
static int rb__target_open(rb_target *t, const rb_config *c, const rb_strategy *s, char *why,
                           size_t wl)
{
    int rc;
    memset(t, 0, sizeof *t);
    t->s = s;
    t->cfg = c;
    t->fd = -1;
    t->page = rb__page_size();
    rc = s->open(t, why, wl);
    if (rc == RB_OK && t->files) {
        rc = rb__target_sampler_files(t, c, (s->flags & RB_S_DIRECT) != 0, why, wl);
    } else if (rc == RB_OK) {
        uint64_t have = t->map_len ? t->map_len : c->size;
        t->size = c->size ? c->size : have;
        if (t->size > have) {
            rb__fmt(why, wl, "the file has %llu bytes, fewer than the %llu asked to read from",
                     (unsigned long long)have, (unsigned long long)t->size);
            rc = RB_ETOOSMALL;
        } else if (t->size < c->read_size) {
            rb__fmt(why, wl, "read size %llu is larger than the %llu bytes to read from",
                     (unsigned long long)c->read_size, (unsigned long long)t->size);
            rc = RB_EINVAL;
        } else {
            rc = rb__align_check(c->align, c->pattern, t->size, c->read_size, why, wl);
        }
        if (rc == RB_OK)
            rc = rb_sampler_init(&t->smp, c, t->size, t->page, (s->flags & RB_S_DIRECT) != 0, why, wl);
    }
    if (rc != RB_OK && s->close) s->close(t);
    if (rc != RB_OK) rb__target_release(t);
    return rc;
}

RBDEF int rb_strategy_probe(const rb_strategy *s, const rb_config *cfg, char *why, size_t whylen)
{
    rb_config c;
    rb_target t;
    int rc;
    why[0] = 0;
    rc = rb__config_check(cfg, s, why, whylen);
    if (rc != RB_OK) return rc;
    rb_config_defaults(cfg, &c);
    rc = rb__target_open(&t, &c, s, why, whylen);
    if (rc == RB_OK && s->close) s->close(&t);
    if (rc == RB_OK) rb__target_release(&t);
    return rc;
}

/* ==== 1.8 runner and its timed loop =========================================================== */

/*
   rb_run in phases: prepare the cache state (rb__prepare_cache), open the target, make the
   worker blocks (rb__threads_make), start them (rb__pool_start, shared with the prefetch
   experiment), coordinate the iterations (rb__coordinate), merge the threads' counters
   (rb__merge), compute the rates (rb__statistics), and decide what the cell's status is
   (rb__verdict).

   A mutex+condvar barrier rather than pthread_barrier_t: macOS has none, and one code path
   is one code path tested. It returns the moment the last arrival let everyone go: that is
   when an iteration starts, for every thread, whoever gets a CPU first. */
typedef struct rb__barrier {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned need, waiting, generation;
    uint64_t released_ns;   /* when the last arrival let everyone go */
} rb__barrier;

static uint64_t rb__barrier_wait(rb__barrier *b)
{
    unsigned gen;
    uint64_t released;
    pthread_mutex_lock(&b->mu);
    gen = b->generation;
    if (++b->waiting == b->need) {
        b->waiting = 0;
        b->generation++;
        b->released_ns = rb__now_ns();
        pthread_cond_broadcast(&b->cv);
    } else {
        while (gen == b->generation) pthread_cond_wait(&b->cv, &b->mu);
    }
    /* No later release can overwrite it yet: that needs this thread to arrive again. */
    released = b->released_ns;
    pthread_mutex_unlock(&b->mu);
    return released;
}

/* One launcher for every set of worker threads (the runner's and the prefetch experiment's):
   n threads that meet the caller on one barrier (need n + 1). When a thread cannot be made,
   the barrier is lowered to the threads already started, so they are let through, and
   `failed` tells them to leave. */
typedef struct rb__pool {
    rb__barrier bar;
    pthread_t *tid;
    unsigned n, started;
    int failed;            /* read by the workers every op: set, everyone leaves */
} rb__pool;

static int rb__pool_start(rb__pool *p, unsigned n, void *(*fn)(void *), void *(*arg)(void *ctx, unsigned i),
                          void *ctx, char *why, size_t wl)
{
    unsigned i;
    memset(p, 0, sizeof *p);
    p->n = n;
    p->bar.need = n + 1;
    p->tid = (pthread_t *)calloc(n ? n : 1, sizeof *p->tid);
    if (!p->tid) { rb__fmt(why, wl, "out of memory for %u threads", n); return RB_ENOMEM; }
    if (pthread_mutex_init(&p->bar.mu, NULL) != 0 || pthread_cond_init(&p->bar.cv, NULL) != 0) {
        rb__fmt(why, wl, "pthread_mutex_init/pthread_cond_init failed");
        free(p->tid);
        p->tid = NULL;
        return RB_ESYS;
    }
    for (i = 0; i < n; i++) {
        int e = pthread_create(&p->tid[i], NULL, fn, arg(ctx, i));
        if (e != 0) {
            RB__STORE(&p->failed, 1);
            pthread_mutex_lock(&p->bar.mu);
            p->bar.need = i + 1;
            pthread_mutex_unlock(&p->bar.mu);
            rb__fmt(why, wl, "pthread_create (thread %u of %u): %s", i + 1, n, strerror(e));
            return RB_ESYS;
        }
        p->started++;
    }
    return RB_OK;
}

/* Joins what was started and frees the pool; safe after a failed start. */
static void rb__pool_join(rb__pool *p)
{
    unsigned i;
    if (!p->tid) return;
    for (i = 0; i < p->started; i++) pthread_join(p->tid[i], NULL);
    pthread_mutex_destroy(&p->bar.mu);
    pthread_cond_destroy(&p->bar.cv);
    free(p->tid);
    p->tid = NULL;
}

/* What a file is: a rename over its path changes dev/ino, truncation or growth the size.
   Checked at every iteration boundary, so the numbers of one cell are of one file. */
typedef struct rb__ident {
    uint64_t dev, ino, size;
} rb__ident;

static int rb__ident_get(const char *path, rb__ident *id)
{
    struct stat st;
    if (stat(path, &st) != 0) return -1;
    id->dev = (uint64_t)st.st_dev;
    id->ino = (uint64_t)st.st_ino;
    id->size = (uint64_t)st.st_size;
    return 0;
}

/* 0: the same file; else a reason names what changed. */
static int rb__ident_changed(const char *path, const rb__ident *was, char *why, size_t wl)
{
    rb__ident now;
    if (rb__ident_get(path, &now) != 0) {
        rb__fmt(why, wl, "file changed during the run: %s: %s", path, strerror(errno));
        return 1;
    }
    if (now.dev != was->dev || now.ino != was->ino) {
        rb__fmt(why, wl, "file changed during the run: %s is another file now (replaced by a rename?)", path);
        return 1;
    }
    if (now.size != was->size) {
        rb__fmt(why, wl, "file changed during the run: %s: its size went from %llu to %llu bytes", path,
                (unsigned long long)was->size, (unsigned long long)now.size);
        return 1;
    }
    return 0;
}

/* Every file of the target (one, or a directory's each), checked the same way. */
static int rb__target_idents(const rb_target *t, rb__ident *ids)
{
    unsigned i;
    if (!t->files) return rb__ident_get(t->cfg->path, ids);
    for (i = 0; i < t->nfiles; i++)
        if (rb__ident_get(t->files[i].path, &ids[i]) != 0) return -1;
    return 0;
}

static int rb__target_changed(const rb_target *t, const rb__ident *ids, char *why, size_t wl)
{
    unsigned i;
    if (!t->files) return rb__ident_changed(t->cfg->path, ids, why, wl);
    for (i = 0; i < t->nfiles; i++)
        if (rb__ident_changed(t->files[i].path, &ids[i], why, wl)) return 1;
    return 0;
}

/*
   The identity a cell takes at its start (rb__ident) catches a change during the cell; this
   one, taken once when the run begins, catches a change between cells: a file replaced,
   truncated or grown, or a directory's set of files changed, after some cells measured it. */
RBDEF void rb_ident_free(rb_ident *id)
{
    unsigned i;
    if (!id) return;
    for (i = 0; id->files && i < id->n; i++) free(id->files[i].path);
    free(id->files);
    memset(id, 0, sizeof *id);
}

/* One file's device, inode and size into f (its path a copy); RB_OK or the status, said. */
static int rb__ident_file(rb_ident_file *f, const char *path, rb_error *err)
{
    char sp[RB__PATH_SHOWN];   /* the path as messages show it (rb__short_path) */
    struct stat st;
    if (stat(path, &st) != 0) {
        int e = errno;
        rb__seterr(err, e == ENOENT || e == ENOTDIR ? RB_ENOFILE : RB_ESYS, e, "stat", "%s: %s",
                   rb__short_path(path, sp), strerror(e));
        return err ? err->status : RB_ESYS;
    }
    if (!(f->path = (char *)malloc(strlen(path) + 1))) {
        rb__seterr(err, RB_ENOMEM, ENOMEM, "malloc", "out of memory");
        return RB_ENOMEM;
    }
    strcpy(f->path, path);
    f->dev = (uint64_t)st.st_dev;
    f->ino = (uint64_t)st.st_ino;
    f->size = (uint64_t)st.st_size;
    return RB_OK;
}

RBDEF int rb_ident_take(rb_ident *id, const char *path, rb_error *err)
{
    rb__dirlist d;
    unsigned i;
    int rc = RB_OK;
    memset(id, 0, sizeof *id);
    if (!path) { rb__seterr(err, RB_EINVAL, 0, "", "no file path given (NULL)"); return RB_EINVAL; }
    if (!rb__is_dir(path)) {
        if (!(id->files = (rb_ident_file *)calloc(1, sizeof *id->files))) {
            rb__seterr(err, RB_ENOMEM, ENOMEM, "calloc", "out of memory");
            return RB_ENOMEM;
        }
        if ((rc = rb__ident_file(&id->files[0], path, err)) != RB_OK) { rb_ident_free(id); return rc; }
        id->n = 1;
        return RB_OK;
    }
    if ((rc = rb__dir_scan(path, &d, err)) != RB_OK) return rc;
    id->dir = 1;
    if (!(id->files = (rb_ident_file *)calloc(d.n, sizeof *id->files))) {
        rb__seterr(err, RB_ENOMEM, ENOMEM, "calloc", "out of memory");
        rc = RB_ENOMEM;
    }
    for (i = 0; rc == RB_OK && i < d.n; i++, id->n++) rc = rb__ident_file(&id->files[i], d.e[i].path, err);
    rb__dirlist_free(&d);
    if (rc != RB_OK) rb_ident_free(id);
    return rc;
}

/* 0: now is what was; else why says the first difference. */
static int rb__ident_differs(const rb_ident *was, const rb_ident *now, const char *path, char *why, size_t wl)
{
    char sp[RB__PATH_SHOWN];   /* a path as messages show it (rb__short_path) */
    unsigned i;
    const char *pre = "file changed since the run started:";
    if (was->dir != now->dir) {
        rb__fmt(why, wl, "%s %s is %s now", pre, rb__short_path(path, sp), now->dir ? "a directory" : "no directory");
        return 1;
    }
    for (i = 0; i < was->n || i < now->n; i++) {
        const rb_ident_file *a = i < was->n ? &was->files[i] : NULL, *b = i < now->n ? &now->files[i] : NULL;
        if (!a || !b || strcmp(a->path, b->path) != 0) {   /* a directory whose files are not those it had */
            const char *odd = !a ? b->path : !b ? a->path : strcmp(a->path, b->path) < 0 ? a->path : b->path;
            int gone = !b || (a && strcmp(a->path, b->path) < 0);
            rb__fmt(why, wl, "%s %s %s (the run started with %u files, %u now)", pre, rb__short_path(odd, sp),
                    gone ? "is no longer one of its files (gone, emptied or no regular file now)" : "is a new file in it",
                    was->n, now->n);
            return 1;
        }
        if (a->dev != b->dev || a->ino != b->ino) {
            rb__fmt(why, wl, "%s %s is another file now (replaced by a rename?)", pre, rb__short_path(a->path, sp));
            return 1;
        }
        if (a->size != b->size) {
            rb__fmt(why, wl, "%s %s: its size went from %llu to %llu bytes", pre, rb__short_path(a->path, sp),
                    (unsigned long long)a->size, (unsigned long long)b->size);
            return 1;
        }
    }
    return 0;
}

RBDEF int rb_ident_check(const rb_ident *id, const char *path, char *why, size_t wl)
{
    rb_ident now;
    rb_error e;
    int changed;
    if (!id || !path) return 0;
    if (rb_ident_take(&now, path, &e) != RB_OK) {
        rb__fmt(why, wl, "file changed since the run started: %s", e.msg);
        return 1;
    }
    changed = rb__ident_differs(id, &now, path, why, wl);
    rb_ident_free(&now);
    return changed;
}

/* The files a cell opened (t, their identities as the cell took them: have) against the run's
   (want). 0: the same. */
static int rb__target_is(const rb_ident *want, const rb_target *t, const rb__ident *have, char *why, size_t wl)
{
    char sp[RB__PATH_SHOWN];   /* a path as messages show it (rb__short_path) */
    unsigned i, n = t->files ? t->nfiles : 1;
    const char *pre = "file changed since the run started:";
    if (!want) return 0;
    if (n != want->n || (t->files != NULL) != (want->dir != 0)) {
        rb__fmt(why, wl, "%s %s holds %u file%s now, %u then", pre, rb__short_path(t->cfg->path, sp), n, n == 1 ? "" : "s",
                want->n);
        return 1;
    }
    for (i = 0; i < n; i++) {
        const rb_ident_file *a = &want->files[i];
        if ((t->files && strcmp(t->files[i].path, a->path) != 0) || have[i].dev != a->dev || have[i].ino != a->ino) {
            rb__fmt(why, wl, "%s %s is another file now (replaced by a rename?)", pre, rb__short_path(a->path, sp));
            return 1;
        }
        if (have[i].size != a->size) {
            rb__fmt(why, wl, "%s %s: its size went from %llu to %llu bytes", pre, rb__short_path(a->path, sp),
                    (unsigned long long)a->size, (unsigned long long)have[i].size);
            return 1;
        }
    }
    return 0;
}

/* One group of a cell's workers (a cell without groups is one group): its strategy, its
   config (the cell's with the group's own settings, defaults applied), its target with a
   mapping of its own (advice is per mapping), where its result goes, and what its reads
   touched. The file, the cache state and the phases' lengths are the cell's, common to all. */
typedef struct rb__part {
    const rb_strategy *s;
    rb_config c;
    rb_target t;
    int opened;
    rb_result *res;
    unsigned first, n;    /* its workers: th[first .. first + n) */
    /* A bit per page of the file its reads touched in this phase (rb__touch), shared by its
       workers, and in any measured phase of the cell; NULL: not counted (out of memory). */
    uint64_t *touched, *seen;
    int64_t iter_touched[RB_MAX_ITERATIONS + 1], iter_cold[RB_MAX_ITERATIONS + 1];   /* -1: unknown */
    /* rb_run_groups' working set of this group (a bit per page): an alone run fills it
       (ws_fill), a together run counts what of it was evicted. NULL: not asked. */
    uint64_t *ws, ws_words;   /* ws_words: its length, at least the cell's bitmaps' */
    int ws_fill;
    rb_trace_read *merged;   /* a replay on another thread count than its streams: every read in trace order */
} rb__part;

struct rb__victim;

/* Shared by a cell's workers and its coordinator; written before the threads start, except
   the pool's failure flag. */
typedef struct rb__run {
    rb__part *parts;
    unsigned nparts, nthreads;
    const rb_config *c;   /* parts[0].c: the file, the cache mode and the phases' lengths */
    rb_result *res;       /* parts[0].res: the cell's own failure goes there first (rb__share_failure) */
    rb__pool pool;
    unsigned first_phase; /* 0 with warmup, else 1 */
    unsigned end_phase;   /* one past the last phase */
    int quit;             /* the coordinator's decision, written only before a start barrier: every
                             thread reads the same value after it (pool.failed may change meanwhile) */
    rb__ident *ident;     /* the files when the cell started: one, or each of a directory's */
    /* A bit per page of the file resident when the phase started (rb__touch_start), the
       coordinator's alone; span: the bytes the bitmaps cover. NULL: not counted. */
    uint64_t *resident, nwords, span;
    unsigned page_shift;  /* log2 of the page: a shift, not a division, per read marked */
    int resident_known[RB_MAX_ITERATIONS + 1];
    void *observed;       /* rb_config.observer's state for this cell */
    int observing;        /* its cell call was made: close it */
    double kernel_ns;     /* the machine kernel's time before the cell, per 2^20 iterations; 0: none */
    volatile uint64_t kernel_sink;
} rb__run;
/* What made a cell cold, per thread: faults (RUSAGE_THREAD) and the bytes this thread made
   the device read (/proc/thread-self/io read_bytes, counted when the I/O is submitted, so
   readahead started by a fault or by MADV_WILLNEED is charged to the thread that caused it). */
typedef struct rb__acct {
    int64_t majflt, minflt, read_bytes, user_ns, sys_ns;
} rb__acct;

static int64_t rb__tv_ns(struct timeval tv) { return (int64_t)tv.tv_sec * 1000000000 + (int64_t)tv.tv_usec * 1000; }

static void rb__acct_sample(rb__acct *a, unsigned index)
{
    struct rusage ru;
    char buf[1024], *p;
    int rc = rb__plat_thread_rusage(&ru);
    a->majflt = a->minflt = a->read_bytes = a->user_ns = a->sys_ns = -1;
    if (rc == RB_UNSUPPORTED) {   /* only per-process figures here: thread 0 samples them for everyone */
        if (index == 0) rc = getrusage(RUSAGE_SELF, &ru) == 0 ? RB_OK : RB_ESYS;
        else a->majflt = a->minflt = a->user_ns = a->sys_ns = 0;
    }
    if (rc == RB_OK) {
        a->majflt = ru.ru_majflt;
        a->minflt = ru.ru_minflt;
        a->user_ns = rb__tv_ns(ru.ru_utime);
        a->sys_ns = rb__tv_ns(ru.ru_stime);
    }
    if (rb__plat_proc_read("/proc/thread-self/io", buf, sizeof buf) > 0 && (p = strstr(buf, "\nread_bytes:")) != NULL)
        a->read_bytes = atoll(p + 12);
}

/* A helper thread's figures (pread-nowait's pool), added to its worker's: faults and CPU
   time from /proc/self/task/TID/stat (clock ticks: 10 ms steps, coarse but not biased over
   an iteration), device bytes from its io. A helper that cannot be read makes the worker's
   figure unknown (-1) rather than smaller than it was (and so does a platform with no /proc,
   where pread-nowait never runs). */
static void rb__acct_add_task(rb__acct *a, int tid)
{
    char path[64], buf[1024], *p = NULL;
    long long minflt = 0, majflt = 0, ut = 0, st = 0, tick = sysconf(_SC_CLK_TCK);
    int got = 0;
    snprintf(path, sizeof path, "/proc/self/task/%d/stat", tid);
    if (rb__plat_proc_read(path, buf, sizeof buf) > 0) {
        p = strrchr(buf, ')');   /* the thread's name may hold spaces and ')': fields follow the last one */
        got = p && tick > 0 && sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %lld %*u %lld %*u %lld %lld", &minflt,
                                      &majflt, &ut, &st) == 4;
    }
    if (!got) a->majflt = a->minflt = a->user_ns = a->sys_ns = -1;
    if (got && a->majflt >= 0) { a->majflt += majflt; a->minflt += minflt; }
    if (got && a->user_ns >= 0) { a->user_ns += ut * (1000000000 / tick); a->sys_ns += st * (1000000000 / tick); }
    snprintf(path, sizeof path, "/proc/self/task/%d/io", tid);
    p = rb__plat_proc_read(path, buf, sizeof buf) > 0 ? strstr(buf, "\nread_bytes:") : NULL;
    if (p && a->read_bytes >= 0) a->read_bytes += atoll(p + 12);
    else a->read_bytes = -1;
}

static void rb__acct_worker(rb__acct *a, const rb_worker *w)
{
    unsigned i;
    rb__acct_sample(a, w->index);
    for (i = 0; i < w->nhelpers; i++) rb__acct_add_task(a, w->helper_tid[i]);
}

/* An open-loop thread's arrivals (rb__worker_phase_open): the intended start of its next op.
   Reset at each phase's start (see there); poisson draws from a generator of its own, seeded
   from (seed, thread), so the offsets' generator draws what it draws in a closed loop. */
typedef struct rb__sched {
    uint64_t start;     /* the phase's start, clock ns */
    uint64_t next;      /* the next op's intended start, clock ns */
    uint64_t k;         /* arrivals scheduled in this phase, the next one included */
    double interval;    /* ns between two arrivals (the mean, for poisson) */
    double offset;      /* uniform: this thread's first arrival after start (threads interleave) */
    double at;          /* the next arrival, ns after start */
    int poisson, trace;  /* trace: a timed replay, each op at its first read's time */
    uint64_t rng[4];
} rb__sched;

/* What rb_sampler_offsets draws from: saved as a phase starts, its offsets can be drawn again
   after it (rb__touch_replay). */
typedef struct rb__draws {
    uint64_t rng[4], cursor, run_next;
    unsigned run_left;
} rb__draws;

/* Each thread's block is allocated on its own, cache-line aligned: the counters a worker
   bumps on every op never share a line with another worker's. Per measured iteration k it
   keeps its ops, and where its window ends: the end of its last counted op. */
typedef struct rb__thread {
    rb_worker w;
    rb__run *run;
    rb__part *part;         /* its group */
    int rc;
    char why[RB_REASON_LEN];
    rb__acct before, after;
    uint64_t iter_ops[RB_MAX_ITERATIONS + 1];
    uint64_t iter_start[RB_MAX_ITERATIONS + 1], iter_end[RB_MAX_ITERATIONS + 1];   /* ns */
    uint64_t iter_inflight[RB_MAX_ITERATIONS + 1];   /* ns the op running at the stop had run; 0: none */
    uint64_t iter_inflight_took[RB_MAX_ITERATIONS + 1];   /* ns that op took in all (it runs to its end) */
    /* when the thread woke in the phase, the barrier released (ns): late, it did not get a CPU
       (rb__statistics); read before the harness's own work of the phase start */
    uint64_t iter_first[RB_MAX_ITERATIONS + 1];
    uint64_t iter_page_reads[RB_MAX_ITERATIONS + 1];   /* pages the issued ops' reads spanned */
    uint64_t iter_issued[RB_MAX_ITERATIONS + 1];       /* ops started: the counted ones and one in flight */
    uint64_t iter_issued_bytes[RB_MAX_ITERATIONS + 1]; /* bytes those ops asked for */
    uint64_t iter_due[RB_MAX_ITERATIONS + 1];          /* open loop: arrivals due in the iteration */
    rb__draws draws_start;  /* the sampler's state as this phase started */
    uint64_t drawn;         /* ops this phase drew offsets for and started */
    int64_t replay_user_ns, replay_sys_ns;   /* CPU the replays took (not the strategy's) */
    rb__sched sched;
    uint64_t iter_bytes[RB_MAX_ITERATIONS + 1];        /* bytes the counted ops read */
    /* A replay: this thread's reads are tr[0], tr[stride], tr[2 stride] ... (n of them): its own
       stream (stride 1), or its share of all of them dealt round-robin; pos is the next one. */
    const rb_trace_read *tr;
    size_t tr_n, tr_stride, tr_pos;
    uint64_t tr_loops;      /* measured iterations only */
    uint64_t tr_shift;      /* a timed replay: the passes over the stream before this one, in ns */
    uint64_t tr_latest;     /* a timed replay: the latest time of this thread's reads */
    uint64_t op_time;       /* a timed replay: the drawn op's first read, ns after the phase's start
                               (never earlier than the op before it: the thread's times go forward) */
    uint64_t *lens;         /* the op's lengths (w.lens) */
    rb_hist hist;
    rb_hist read_hist;      /* per read, for the strategies whose reads outlive their op */
    rb_hist service;        /* open loop: per op from its actual start (hist: from its intended one) */
} rb__thread;

/*
   Per measured iteration: the distinct pages its reads touched, and how many of them were
   not resident when it started. Exact, not a sketch: one bit per page of the file (32 KiB
   for a 1 GiB file, 32 MiB for 1 TiB), shared by the cell's workers. A bit is tested before
   it is set, so a page already marked (every hot page after its first read) costs one plain
   load and no write to a shared cache line; only a first touch pays an atomic OR. The
   coordinator counts and clears the bits between iterations, with every worker parked.
   The marking is done after each iteration, outside its window (rb__touch_replay): marked
   in the timed loop it was part of every op, and of the null strategy's harness cost
   (about 80 -> 250 ns per op of 16 reads). */
static unsigned rb__popcount(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_popcountll(v);
#else
    unsigned n = 0;
    for (; v; v &= v - 1) n++;
    return n;
#endif
}

/* Marks the pages [off, off + len) spans (bits NULL: nothing is counted); returns how many.
   A word at a time: a read's pages are consecutive bits, mostly inside one word. */
static uint64_t rb__touch(uint64_t *bits, uint64_t off, uint64_t len, unsigned page_shift)
{
    uint64_t first = off >> page_shift, last = (off + len - 1) >> page_shift, q = first;
    while (bits && q <= last) {
        uint64_t end = RB__MIN(last, q | 63), width = end - q + 1, *word = &bits[q >> 6];
        uint64_t m = (width == 64 ? ~(uint64_t)0 : ((uint64_t)1 << width) - 1) << (q & 63);
        if ((__atomic_load_n(word, __ATOMIC_RELAXED) & m) != m) __atomic_fetch_or(word, m, __ATOMIC_RELAXED);
        q = end + 1;
    }
    return last - first + 1;
}

static void rb__warn_cell(rb__run *run, const char *fmt, ...);
static void rb__warn_cell(rb__run *run, const char *fmt, ...) RB__PRINTF(2, 3);

static void rb__touch_free(rb__run *run)
{
    unsigned i;
    free(run->resident);
    run->resident = NULL;
    for (i = 0; i < run->nparts; i++) {
        free(run->parts[i].touched);
        free(run->parts[i].seen);
        run->parts[i].touched = run->parts[i].seen = NULL;
    }
}

/* The bitmaps of a cell: allocated once it knows its size; without memory for them the cell
   runs all the same and says what it could not count. */
static void rb__touch_alloc(rb__run *run)
{
    uint64_t pages;
    unsigned k, i;
    int ok;
    run->span = 0;
    for (i = 0; i < run->nparts; i++) {
        rb__part *p = &run->parts[i];
        for (k = 0; k <= RB_MAX_ITERATIONS; k++) p->iter_touched[k] = p->iter_cold[k] = -1;
        run->span = RB__MAX(run->span, p->t.size);
    }
    pages = (run->span + run->parts[0].t.page - 1) / run->parts[0].t.page;
    for (run->page_shift = 0; ((size_t)1 << run->page_shift) < run->parts[0].t.page; run->page_shift++) {}
    run->nwords = (pages + 63) / 64;
    run->resident = (uint64_t *)calloc((size_t)run->nwords, sizeof(uint64_t));
    ok = run->resident != NULL;
    for (i = 0; i < run->nparts; i++) {
        run->parts[i].touched = (uint64_t *)calloc((size_t)run->nwords, sizeof(uint64_t));
        run->parts[i].seen = (uint64_t *)calloc((size_t)run->nwords, sizeof(uint64_t));
        ok = ok && run->parts[i].touched && run->parts[i].seen;
    }
    if (ok) return;
    rb__touch_free(run);
    rb__warn_cell(run, "no memory for the bitmaps of %llu pages: the pages touched and the hit rate are not counted",
                  (unsigned long long)pages);
}

static int rb__resident_bits_at(const char *path, uint64_t size, size_t page, uint64_t *bits, uint64_t first);
/* The target's resident pages as bits over its space (a directory: each file at its base). */
static int rb__target_resident_bits(const rb_target *t, uint64_t span, uint64_t *bits, uint64_t nwords)
{
    unsigned i;
    int rc = 0;
    memset(bits, 0, (size_t)nwords * sizeof(uint64_t));
    if (!t->files) return rb__resident_bits_at(t->cfg->path, span, t->page, bits, 0);
    for (i = 0; i < t->nfiles && rc == 0; i++)
        rc = rb__resident_bits_at(t->files[i].path, t->files[i].size, t->page, bits, t->files[i].base / t->page);
    return rc;
}

/* Before measured phase k (the eviction of evict-each done): what is resident, page by page;
   every group's touched bits start empty. */
static void rb__touch_start(rb__run *run, unsigned k)
{
    unsigned i;
    if (!run->resident) return;
    for (i = 0; i < run->nparts; i++) memset(run->parts[i].touched, 0, (size_t)run->nwords * sizeof(uint64_t));
    run->resident_known[k] = rb__target_resident_bits(&run->parts[0].t, run->span, run->resident, run->nwords) == 0;
}

static void rb__draws_save(const rb_worker *w, rb__draws *d)
{
    memcpy(d->rng, w->rng, sizeof d->rng);
    d->cursor = w->cursor;
    d->run_next = w->run_next;
    d->run_left = w->run_left;
}

static void rb__draws_load(rb_worker *w, const rb__draws *d)
{
    memcpy(w->rng, d->rng, sizeof w->rng);
    w->cursor = d->cursor;
    w->run_next = d->run_next;
    w->run_left = d->run_left;
}

/* a + b, or UINT64_MAX past it: a time that far is never due, and never wraps to "now". */
static uint64_t rb__sat_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

/* A timed replay that reaches its stream's end starts it again one pass later: the pass is the
   trace's time up to the thread's latest read (times count from the trace's first read of
   FILE, so every thread keeps its place in the trace's timeline) plus its mean gap, at least
   1 ms (a stream recorded in an instant does not come due again at once, forever). The
   latest, not the last: a thread dealt reads of several streams (round-robin) may have them
   out of time order. Saturating: a time near 2^64 ns makes the next pass never due. */
static uint64_t rb__trace_period(const rb__thread *th)
{
    uint64_t last = th->tr_latest, first = th->tr[0].time_ns;
    uint64_t period = rb__sat_add(last, th->tr_n > 1 && last > first ? (last - first) / (th->tr_n - 1) : 0);
    return RB__MAX(period, 1000000u);
}

/* A replay's next op: the thread's next n reads of the trace (w->lens their lengths), from its
   first read again when it has read them all (counted in measured phases: trace_loops). */
static void rb__trace_offsets(rb__thread *th, int measured, uint64_t *off, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++) {
        const rb_trace_read *r;
        if (th->tr_pos == th->tr_n) {
            th->tr_pos = 0;
            th->tr_loops += measured != 0;
            th->tr_shift = rb__sat_add(th->tr_shift, rb__trace_period(th));
        }
        r = &th->tr[th->tr_pos++ * th->tr_stride];
        off[i] = r->off;
        th->lens[i] = r->len;
        /* since the trace's first read of FILE; never before the thread's op before it */
        if (i == 0) th->op_time = RB__MAX(th->op_time, rb__sat_add(th->tr_shift, r->time_ns));
    }
}

/* The next op's offsets: the trace's next reads, or the sampler's draw. Returns its bytes. */
static uint64_t rb__draw_op(rb__thread *th, int measured, uint64_t *off, unsigned n)
{
    uint64_t bytes = 0;
    unsigned i;
    if (!th->tr) {
        rb_sampler_offsets(&th->w.t->smp, &th->w, off, n);
        return (uint64_t)n * th->w.t->cfg->read_size;
    }
    rb__trace_offsets(th, measured, off, n);
    for (i = 0; i < n; i++) bytes += th->lens[i];
    return bytes;
}

/* After measured phase p, outside its window, before the phase-end barrier: the phase's
   offsets drawn again from the sampler's state as it began (a draw is a pure function of
   that state), every read's pages marked, and the pages and bytes the issued ops' reads
   spanned. The ops drawn include one in flight at the stop: its reads happened, its time is
   not counted. Its pages are marked, and its faults, device bytes and CPU are in the thread's
   counters, so the per-read figures count its reads too (rb_result.reads_issued).
   Exact as before; what it costs (about what drawing took in the loop) is now time between
   iterations, and the CPU it takes is kept apart so that CPU per read stays the strategy's. */
static void rb__touch_replay(rb__thread *th, unsigned p, uint64_t *off)
{
    rb_worker *w = &th->w;
    rb__run *run = th->run;
    const rb_config *c = w->t->cfg;
    rb__draws end;
    struct rusage a, b;
    uint64_t k, pages = 0, bytes = 0;
    unsigned i, n = c->reads_per_op;
    int timed = rb__plat_thread_rusage(&a) == RB_OK;
    size_t tr_end = th->tr_pos;   /* a replay's position: every phase started at its first read */
    uint64_t shift_end = th->tr_shift, op_time_end = th->op_time;
    rb__draws_save(w, &end);
    rb__draws_load(w, &th->draws_start);
    th->tr_pos = 0;
    th->tr_shift = 0;
    th->op_time = 0;
    for (k = 0; k < th->drawn && !RB__LOAD(&run->pool.failed); k++) {
        bytes += rb__draw_op(th, 0, off, n);
        for (i = 0; i < n; i++) pages += rb__touch(th->part->touched, off[i], rb_worker_read_len(w, i), run->page_shift);
    }
    rb__draws_load(w, &end);
    th->tr_pos = tr_end;
    th->tr_shift = shift_end;
    th->op_time = op_time_end;
    th->iter_page_reads[p] = pages;
    th->iter_issued[p] = th->drawn;
    th->iter_issued_bytes[p] = bytes;
    if (timed && rb__plat_thread_rusage(&b) == RB_OK) {
        th->replay_user_ns += rb__tv_ns(b.ru_utime) - rb__tv_ns(a.ru_utime);
        th->replay_sys_ns += rb__tv_ns(b.ru_stime) - rb__tv_ns(a.ru_stime);
    }
}

/* After measured phase k, per group: its distinct pages, and those not resident when it
   started; its pages join those it read in the cell so far (seen). */
static void rb__tally(rb__run *run, unsigned k)
{
    uint64_t i, d, cold;
    unsigned j;
    if (!run->resident) return;
    for (j = 0; j < run->nparts; j++) {
        rb__part *p = &run->parts[j];
        for (i = 0, d = 0, cold = 0; i < run->nwords; i++) {
            d += rb__popcount(p->touched[i]);
            cold += rb__popcount(p->touched[i] & ~run->resident[i]);
            p->seen[i] |= p->touched[i];
        }
        p->iter_touched[k] = (int64_t)d;
        p->iter_cold[k] = run->resident_known[k] ? (int64_t)cold : -1;
    }
}

/* The end of a group's run (every worker parked, after the last measured iteration): an
   alone run keeps the group's working set, the pages its last iteration read that are still
   resident; a together run counts those of them the group read again that are gone now. */
static void rb__ws_end(rb__run *run)
{
    unsigned j;
    uint64_t i;
    int known, asked = 0;
    for (j = 0; j < run->nparts; j++) asked |= run->parts[j].ws != NULL;
    if (!asked || !run->resident) return;   /* no bitmaps: the figures stay unknown (-1) */
    known = rb__target_resident_bits(&run->parts[0].t, run->span, run->resident, run->nwords) == 0;
    for (j = 0; j < run->nparts; j++) {
        rb__part *p = &run->parts[j];
        uint64_t ws = 0, gone = 0;
        if (!p->ws) continue;
        if (p->ws_words < run->nwords) {   /* the file grew since the run laid it out: the cell fails on it */
            rb__warn(p->res, "the working set's eviction is not counted: the file is larger than when the run began");
            continue;
        }
        if (!known) {
            rb__warn(p->res, "the working set's eviction is not counted: residency cannot be read page by page "
                     "here (mincore would report every page resident to this user)");
            continue;
        }
        for (i = 0; i < run->nwords; i++) {
            if (p->ws_fill) p->ws[i] = p->touched[i] & run->resident[i];
            ws += rb__popcount(p->ws[i]);
            gone += rb__popcount(p->ws[i] & p->seen[i] & ~run->resident[i]);
        }
        p->res->ws_pages = (int64_t)ws;
        if (!p->ws_fill) p->res->ws_evicted = (int64_t)gone;
    }
}

/* A file truncated under a mapping makes the next access to the vanished part raise SIGBUS,
   which would kill the process and every result with it. The mmap strategies' workers arm a
   sigjmp_buf; the handler jumps back to it and the cell ends with RB_ECHANGED. A signal
   handler takes no argument, so the buffer is found through one thread-local pointer: the
   library's only mutable state outside caller-owned structs, and NULL outside an mmap worker,
   a prefetch-experiment worker or a probe's read (a SIGBUS elsewhere gets the default action,
   as it would without readbench). */
static __thread sigjmp_buf *volatile rb__sigbus_jmp;   /* volatile: set just before a plain load
                                                            the compiler would otherwise reorder or
                                                            drop it around */

static void rb__on_sigbus(int sig, siginfo_t *si, void *ctx)
{
    (void)si; (void)ctx;
    if (rb__sigbus_jmp) siglongjmp(*rb__sigbus_jmp, 1);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* The handler, for the time of one experiment that reads a mapping: 1 if installed (then
   restore *old after), 0 if sigaction refused (a truncation would then end the process). */
static int rb__sigbus_install(struct sigaction *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = rb__on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    return sigaction(SIGBUS, &sa, old) == 0;
}

#define RB__SIGBUS_WHY "file changed during the run (SIGBUS reading the mapping: truncated or shrunk by someone else)"

/* --cpus: where the device's interrupt lands decides a depth-1 reader's IOPS (1.6x between
   the two CPUs of the project's VM), so a comparison pins both sides, as fio's cpus_allowed
   does. The coordinator stays unpinned: it sleeps, and must not take a worker's CPU. */
static int rb__pin(unsigned cpu, char *why, size_t wl)
{
    switch (rb__plat_pin_cpu(cpu)) {
    case RB_OK: return RB_OK;
    case RB_EINVAL: rb__fmt(why, wl, "CPU %u is beyond CPU_SETSIZE", cpu); return RB_EINVAL;
    case RB_UNSUPPORTED:
        rb__fmt(why, wl, "pinning threads to CPU %u: not supported on this platform", cpu);
        return RB_UNSUPPORTED;
    default: rb__fmt(why, wl, "cannot run on CPU %u: %s", cpu, strerror(errno)); return RB_EINVAL;
    }
}

RBDEF int rb_cpu_allowed(unsigned cpu) { return rb__plat_cpu_allowed(cpu); }

/* One op: its reads. A read that fails fatally ends the cell for every thread. 0: done. */
/* A row with a hint (rb_strategy.hint): the runner hints each read of the op first, so that
   readahead is in flight for all of them at once (queue depth n), through the row's policy,
   then has the row's read_op read them (it only reads: rb__op_mmap, rb__op_pread). The
   prefetch accounting follows a sampled hint to its read: that read is read alone, after the
   reads before it, and timed; the others go in runs, as the row would have read them. */
static void rb__hint_read(rb_worker *w, const rb_strategy *s, unsigned k, uint64_t off, uint64_t len)
{
    uint64_t start, alen;
    int given;
    if (s->hint == RB_HINT_FADVISE) { rb__worker_fadvise(w, k, off, len); return; }
    if (s->hint == RB_HINT_POPULATE) { rb__populate(w, off, len); return; }   /* counted as madvise calls */
    given = s->policy == RB_PF_ALWAYS ? rb_worker_advise(w, off, len, MADV_WILLNEED) == 0
                                      : rb_prefetch(&w->pf, off, len) == 1;
    if (given && rb_page_range(off, len, w->t->page, w->t->map_len, &start, &alen)) rb__pa_hinted(w, k, start, alen);
}

/* Reads [from, to) of the op through the row (its read i is the op's read from + i). */
static int rb__read_run(rb_worker *w, const rb_strategy *s, const uint64_t *off, unsigned from, unsigned to)
{
    const uint64_t *lens = w->lens;
    int rc;
    if (from >= to) return 0;
    if (lens) w->lens = lens + from;
    rc = s->read_op(w, off + from, to - from);
    w->lens = lens;
    return rc;
}

static int rb__op_hinted(rb_worker *w, const rb_strategy *s, const uint64_t *off, unsigned n)
{
    unsigned i, from = 0;
    int rc = 0;
    for (i = 0; i < n; i++) rb__hint_read(w, s, i, off[i], RB__LEN(w, i));
    for (i = 0; i < n && !rc; i++) {
        if (!w->paf.npending || !rb__pa_pending(w, i)) continue;
        if (!(rc = rb__read_run(w, s, off, from, i))) {
            if (rb__pa_reading(w, i)) {   /* every page in as the read comes: timed, useful or slow */
                uint64_t t0 = rb__now_ns();
                rc = rb__read_run(w, s, off, i, i + 1);
                rb__pa_read_done(w, rb__now_ns() - t0);
            } else {
                rc = rb__read_run(w, s, off, i, i + 1);
            }
        }
        from = i + 1;
    }
    if (!rc) rc = rb__read_run(w, s, off, from, n);
    rb__pa_op_end(w);
    return rc;
}

static int rb__op(rb__thread *th, const uint64_t *off, unsigned n)
{
    const rb_strategy *s = th->part->s;
    if ((s->hint ? rb__op_hinted(&th->w, s, off, n) : s->read_op(&th->w, off, n)) == 0) return 0;
    th->rc = RB_EIO;
    rb__fmt(th->why, sizeof th->why, "a read failed fatally (%s)", strerror(th->w.io_errno));
    RB__STORE(&th->run->pool.failed, 1);
    return -1;
}

/* --think: a closed loop's computation between ops, as a busy wait on the clock (a sleep
   would give the CPU away, and a real program's computation does not), cut at the phase's
   deadline. Returns the clock at its end: the next op's start. */
static uint64_t rb__think(uint64_t until, uint64_t deadline)
{
    uint64_t now;
    until = RB__MIN(until, deadline);
    while ((now = rb__now_ns()) < until) {}
    return now;
}

/* One phase of one worker, closed loop. The window starts when the barrier opened (`start`,
   the same for every thread) and the worker stops itself at start + the phase's length: the
   end of an iteration never waits for the coordinator to get a CPU (256 threads on 2 cores).
   An op that ends past that deadline was in flight at the stop: it is neither counted nor
   put in the histogram, and the thread's window ends where its last counted op ended. This
   is JMH's per-thread window: counting the op in flight without its time over-reports slow
   cells (three 300 ms ops and a fourth in flight in a 1 s window read as 4 ops/s). The loop
   holds the offsets' draw, the op, one clock read and one histogram record; the think time,
   when asked, follows an op's end and is in no op's latency. */
static void rb__worker_phase(rb__thread *th, unsigned p, uint64_t start, uint64_t *off)
{
    rb__run *run = th->run;
    rb_worker *w = &th->w;
    const rb_config *c = w->t->cfg;
    uint64_t deadline = start + (uint64_t)(p ? c->duration_ns : c->warmup_ns), ops = 0, end = start, t0, t1;
    uint64_t think = (uint64_t)c->think_ns, bytes = 0, op_bytes, inflight = 0, took = 0;
    unsigned n = c->reads_per_op;
    for (t0 = rb__now_ns(); t0 < deadline && !RB__LOAD(&run->pool.failed); t0 = t1) {
        op_bytes = rb__draw_op(th, p > 0, off, n);
        th->drawn++;
        if (rb__op(th, off, n) != 0) break;
        t1 = rb__now_ns();
        if (t1 > deadline) { inflight = deadline - t0; took = t1 - t0; break; }   /* in flight at the stop */
        ops++;
        bytes += op_bytes;
        end = t1;
        if (p > 0) rb_hist_record(&th->hist, t1 - t0);
        if (think) t1 = rb__think(t1 + think, deadline);
    }
    th->iter_ops[p] = ops;
    th->iter_bytes[p] = bytes;
    th->iter_start[p] = start;
    th->iter_end[p] = end;
    th->iter_inflight[p] = inflight;
    th->iter_inflight_took[p] = took;
}

/* Open loop: the arrivals of one thread. Each phase starts its schedule afresh at the phase's
   start. Carried over, the arrivals due while the workers were parked between phases (the
   coordinator's eviction and counting, the replay of the touched pages) would come as a burst
   of late ops at the next phase's start, and that iteration would be charged with a queue the
   harness made; a rate that cannot be sustained still shows, as a backlog that grows within
   each iteration. uniform: thread i of n starts i/n of an interval in, so that the threads'
   arrivals interleave rather than come together. poisson: exponential gaps (memoryless, so a
   phase may start anywhere). */
static double rb__sched_gap(rb__sched *q)
{
    return q->poisson ? -log(1.0 - rb__unit(q->rng)) * q->interval : q->interval;
}

static void rb__sched_init(rb__sched *q, const rb_config *c, unsigned index)
{
    q->interval = 1e9 / c->rate;
    q->poisson = c->arrivals == RB_ARRIVALS_POISSON;
    q->trace = c->arrivals == RB_ARRIVALS_TRACE;
    q->offset = q->poisson ? 0 : q->interval * index / c->threads;
    rb__rng_seed(q->rng, c->seed ^ 0x617272697661ULL, index);   /* "arriva": not the offsets' stream */
}

static void rb__sched_reset(rb__sched *q, uint64_t start)
{
    q->start = start;
    q->k = 1;
    q->at = q->poisson ? rb__sched_gap(q) : q->offset;
    q->next = start + (uint64_t)q->at;
}

static void rb__sched_next(rb__sched *q)
{
    if (q->trace) { q->k++; return; }   /* the next op's time is its first read's: set when drawn */
    /* uniform from k, not by adding: no rounding drift over millions of arrivals */
    q->at = q->poisson ? q->at + rb__sched_gap(q) : q->offset + (double)q->k * q->interval;
    q->k++;
    q->next = q->start + (uint64_t)q->at;
}

/* Arrivals due before the deadline: those already scheduled, and the backlog still to come
   (uniform: exactly; poisson: its expected size, the gaps being memoryless). */
static uint64_t rb__sched_due(const rb__sched *q, uint64_t deadline)
{
    if (q->next >= deadline) return q->k - 1;
    return q->k + (uint64_t)((double)(deadline - 1 - q->next) / q->interval);
}

/* Waits for an op's intended start and returns its actual start (at once when late). A
   sleep is cheap but wakes late (Linux's timer slack is 50 us, then the scheduler's delay);
   spinning on the clock is exact but burns the CPU. So a long wait sleeps until RB__SPIN_NS
   before the intended start, in slices of at most 20 ms so that a failed cell is seen, and
   spins the rest: at most 200 us of spinning per op. */
#define RB__SPIN_NS 200000u
static uint64_t rb__wait_until(uint64_t due, int *failed)
{
    uint64_t now = rb__now_ns();
    while (now + RB__SPIN_NS < due && !RB__LOAD(failed)) {
        rb__plat_sleep_until(RB__MIN(due - RB__SPIN_NS, now + 20000000u));
        now = rb__now_ns();
    }
    while (now < due) now = rb__now_ns();
    return now;
}

/* One phase of one worker, open loop: each op has an intended start on the schedule, and
   starts then, or at once when the earlier ones ran late. Its latency runs from the intended
   start (the queue included: a slow op delays the ones behind it, and they count it, as
   wrk2 and HdrHistogram do; timing from the actual start would hide exactly that, the
   "coordinated omission"), its service time from its actual start. The offsets are drawn
   before the wait, out of the service time. The window is the whole phase, since the
   schedule, not the ops, decides when work comes: the achieved rate is ops / duration. An
   op in flight at the deadline is not counted (as closed); arrivals due that never started
   are the backlog, counted in iter_due. */
static void rb__worker_phase_open(rb__thread *th, unsigned p, uint64_t start, uint64_t *off)
{
    rb__run *run = th->run;
    rb_worker *w = &th->w;
    const rb_config *c = w->t->cfg;
    rb__sched *q = &th->sched;
    uint64_t deadline = start + (uint64_t)(p ? c->duration_ns : c->warmup_ns), ops = 0, t0, t1, bytes = 0, op_bytes;
    uint64_t inflight = 0, took = 0;
    unsigned n = c->reads_per_op;
    rb__sched_reset(q, start);
    while (q->next < deadline && !RB__LOAD(&run->pool.failed)) {
        op_bytes = rb__draw_op(th, p > 0, off, n);
        if (c->arrivals == RB_ARRIVALS_TRACE && (q->next = rb__sat_add(start, th->op_time)) >= deadline) break;   /* not due */
        t0 = rb__wait_until(q->next, &run->pool.failed);
        if (t0 >= deadline) break;   /* drawn, never started: not replayed either */
        th->drawn++;
        if (rb__op(th, off, n) != 0) break;
        t1 = rb__now_ns();
        if (t1 > deadline) { inflight = deadline - t0; took = t1 - t0; break; }   /* in flight at the stop */
        ops++;
        bytes += op_bytes;
        if (p > 0) {
            rb_hist_record(&th->hist, t1 - q->next);
            rb_hist_record(&th->service, t1 - t0);
        }
        rb__sched_next(q);
    }
    th->iter_ops[p] = ops;
    th->iter_bytes[p] = bytes;
    th->iter_due[p] = rb__sched_due(q, deadline);
    th->iter_start[p] = start;
    th->iter_end[p] = deadline;
    th->iter_inflight[p] = inflight;
    th->iter_inflight_took[p] = took;
}

/* Phases: warmup (0, optional), then iterations 1..n. Every phase starts and ends on the
   barrier, with the coordinator: between the end of one phase and the start of the next
   every worker is parked, so the coordinator may evict, count residency and check the file.
   Whether to go on is the coordinator's decision (run->quit), made before a start barrier
   and read by everyone after it. */
static void *rb__worker_main(void *arg)
{
    rb__thread *th = (rb__thread *)arg;
    rb__run *run = th->run;
    rb_worker *w = &th->w;
    const rb_config *c = w->t->cfg;
    const rb_strategy *s = th->part->s;
    uint64_t *off = (uint64_t *)malloc(sizeof(uint64_t) * c->reads_per_op);
    volatile uint64_t start;   /* assigned in the loop that holds the sigsetjmp: kept in memory */
    int mapped = (s->flags & RB_S_MMAP) != 0;
    unsigned p, cpu = th->part->first + w->index;   /* the cell's worker number: groups pin on from each other */
    sigjmp_buf jb;

    if (th->tr && off) w->lens = th->lens = (uint64_t *)malloc(sizeof(uint64_t) * c->reads_per_op);
    if (!off || (th->tr && !th->lens)) { th->rc = RB_ENOMEM; rb__fmt(th->why, sizeof th->why, "out of memory"); }
    else if (c->ncpus && c->cpus) th->rc = rb__pin(c->cpus[cpu % c->ncpus], th->why, sizeof th->why);
    if (!th->rc && s->hint == RB_HINT_MADVISE && s->policy != RB_PF_ALWAYS)
        th->rc = rb__thread_prefetcher(w, th->why, sizeof th->why);   /* the row's policy, per reader */
    if (!th->rc && s->thread_init) th->rc = s->thread_init(w, th->why, sizeof th->why);
    rb__pa_follow_init(&w->paf, w->t->map, w->t->page, w->t->fd, w->t->mincore_trusted, c->seed, cpu);
    w->paf.t = w->t;   /* a directory: cachestat asks each hint's own file */
    if (th->rc) RB__STORE(&run->pool.failed, 1);
    rb__barrier_wait(&run->pool.bar);   /* everyone is ready, or everyone leaves */
    for (p = run->first_phase;; p++) {
        start = rb__barrier_wait(&run->pool.bar);   /* phase start: all threads, and the coordinator */
        if (run->quit) break;
        th->iter_first[p] = rb__now_ns();   /* when this thread got a CPU after the release */
        if (p == 1) rb__acct_worker(&th->before, w);
        w->measuring = p > 0;
        rb__draws_save(w, &th->draws_start);
        th->drawn = 0;
        th->tr_pos = 0;   /* every phase replays the trace from its first read */
        th->tr_shift = 0;
        th->op_time = 0;
        if (mapped) {
            if (sigsetjmp(jb, 1) != 0) {   /* back from a SIGBUS in read_op */
                rb__sigbus_jmp = NULL;
                th->rc = RB_ECHANGED;
                rb__fmt(th->why, sizeof th->why, "%s", RB__SIGBUS_WHY);
                RB__STORE(&run->pool.failed, 1);
                goto phase_end;
            }
            rb__sigbus_jmp = &jb;
        }
        if (c->rate > 0) rb__worker_phase_open(th, p, start, off);
        else rb__worker_phase(th, p, start, off);
        rb__sigbus_jmp = NULL;
    phase_end:
        w->measuring = 0;
        if (w->phase_end) w->phase_end(w);   /* reads still in flight: finished, not counted */
        if (p > 0) rb__touch_replay(th, p, off);   /* untimed: the window is over */
        if (p + 1 == run->end_phase) rb__acct_worker(&th->after, w);
        rb__barrier_wait(&run->pool.bar);   /* phase end: nobody reads while the coordinator works */
    }
    if (s->thread_fini) s->thread_fini(w);
    free(off);
    free(th->lens);
    w->lens = th->lens = NULL;
    return NULL;
}

/* Read buffers per thread: a slot per read of the op (at most 4096) for the batch strategies,
   one per read in flight for the queue ones, else one. c has its defaults applied. */
static uint64_t rb__slots(const rb_config *c, const rb_strategy *s)
{
    if (s && (s->flags & RB_S_QUEUE)) return c->iodepth;
    return (s && (s->flags & RB_S_BATCH)) ? RB__MIN(c->reads_per_op, 4096u) : 1u;
}

/* What a cell allocates, computed before it allocates anything: per thread its block, its
   read buffers (rb__slots), the op's offsets and the --verify scratch. The file's pages are
   page cache, not counted here. Saturates. */
RBDEF uint64_t rb_cell_memory(const rb_config *cfg, const rb_strategy *s)
{
    rb_config c;
    uint64_t per, slots;
    rb_config_defaults(cfg, &c);
    slots = rb__slots(&c, s);
    if (c.read_size > UINT64_MAX / 4 / slots) return UINT64_MAX;
    per = sizeof(rb__thread) + c.read_size * slots + (c.verify ? c.read_size : 0) + 16u * (uint64_t)c.reads_per_op;
    return per > UINT64_MAX / c.threads ? UINT64_MAX : per * c.threads;
}

RBDEF int rb_cell_fits(const rb_config *cfg, const rb_strategy *s, char *why, size_t whylen)
{
    uint64_t need = rb_cell_memory(cfg, s), margin;
    int64_t room = rb_mem_available();
    char a[32], b[32], m[32];
    if (room < 0) return RB_OK;   /* unknown here: nothing to judge by */
    /* Only a small slack here, not the hog's margin: a shared machine can be short of memory
       for a while (another process's hog), and refusing a cell of a few KiB then helps no one.
       What this refuses is a cell that cannot fit at all: 32 x 1 GiB on 24 GiB, 16 x 64 MiB
       in a 512 MiB cgroup. */
    margin = (uint64_t)16 << 20;
    if (need <= (uint64_t)room && (uint64_t)room - need >= margin) return RB_OK;
    rb__mem_text(need, a, sizeof a);
    rb__mem_text((uint64_t)room, b, sizeof b);
    rb__mem_text(margin, m, sizeof m);
    rb__fmt(why, whylen, "%u thread%s of %s buffers need %s, more than the %s this process may use less %s "
             "(memory available, cgroup limit included)", cfg->threads ? cfg->threads : 1,
             (cfg->threads ? cfg->threads : 1) == 1 ? "" : "s", s && (s->flags & (RB_S_BATCH | RB_S_QUEUE)) ? "batch" : "read",
             a, b, m);
    return RB_ENOMEM;
}

/* The first failure names the cell's status; every thread is told to leave. */
static void rb__fail(rb__run *run, int status, const char *why)
{
    if (run->res->status == RB_OK) {
        run->res->status = status;
        rb__result_reason(run->res, "%s", why);
    }
    RB__STORE(&run->pool.failed, 1);
}

/* Why pages are cached that should not be: on tmpfs or ramfs the page cache is the file's only
   copy, so nothing can ever be evicted; elsewhere `otherwise` is the likely cause. */
static const char *rb__why_cached(const char *path, const char *otherwise)
{
    rb_residency_info ri;
    if (rb_residency(path, &ri, NULL) == RB_OK && ri.no_backing)
        return "the file is on tmpfs or ramfs: with no backing store its pages cannot be evicted";
    return otherwise;
}

static int64_t rb__resident(const char *path)
{
    rb_residency_info ri;
    if (rb_residency(path, &ri, NULL) != RB_OK || !ri.trusted) return -1;
    return (int64_t)ri.resident;
}

/* Evicts the cell's file between two phases. The workers are parked on the barrier, but
   each group's own mapping still maps the pages it touched, and the kernel skips mapped
   pages: MADV_DONTNEED first drops the mappings' page-table entries (the advice set on them
   stays), then posix_fadvise(DONTNEED) can drop the pages. Pages still under I/O (the
   readahead a fault or a hint started) are locked and survive one eviction: evict again
   until nothing is left, at most 100 times 10 ms, as the probe does. *left: the pages still
   cached (-1: residency cannot be counted here, so one eviction it is). */
static int rb__evict_cell(rb__run *run, int64_t *left, char *why, size_t wl)
{
    rb_error e;
    unsigned tries, i;
    for (tries = 0;; tries++) {
        for (i = 0; i < run->nparts; i++) {
            rb_target *t = &run->parts[i].t;
            if (t->map && madvise(t->map, (size_t)t->map_len, MADV_DONTNEED) != 0) {
                rb__fmt(why, wl, "madvise(MADV_DONTNEED) before eviction: %s", strerror(errno));
                return RB_ESYS;
            }
        }
        if (rb_evict(run->c->path, &e) != RB_OK) {
            rb__fmt(why, wl, "%s", e.msg);
            return e.status;
        }
        *left = rb__resident(run->c->path);
        if (*left <= 0 || tries == 100) return RB_OK;
        rb__sleep_ns(10000000);
    }
}

/* Phase 1: the cache state for the cell, set before the file is opened or mapped (nothing of
   ours maps it yet). Time spent here is reported, never measured. What it left is kept
   apart (resident_prepared): "resident before" is read when measuring starts. */
static int rb__prepare_cache(const rb_config *c, rb_result *res)
{
    if (c->cache != RB_CACHE_KEEP || c->prewarm > 0) {
        rb_error e;
        uint64_t t0 = rb__now_ns();
        int rc = c->pressure && c->prewarm > 0 ? rb_evict(c->path, &e) : RB_OK;   /* see rb_config.pressure */
        if (rc == RB_OK) rc = c->prewarm > 0 ? rb_prewarm(c->path, c->prewarm, c->seed, &e) : rb_evict(c->path, &e);
        if (rc != RB_OK) {
            res->status = rc;
            rb__result_reason(res, "%s", e.msg);
            return rc;
        }
        *(c->prewarm > 0 ? &res->prewarm_seconds : &res->evict_seconds) = (double)(rb__now_ns() - t0) / 1e9;
    }
    res->resident_prepared = rb__resident(c->path);
    if (c->warmup_ns > 0 && (c->cache == RB_CACHE_EVICT || (c->prewarm > 0 && c->prewarm < 1)))
        rb__warn(res, "a warmup ran after the %s: measuring started from the cache state the warmup left, not "
                 "the prepared one", c->cache == RB_CACHE_EVICT && !(c->prewarm > 0) ? "eviction" : "partial prewarm");
    return RB_OK;
}

/* Phase 2: one block per worker of group p, with its buffer faulted in (not inside the
   measurement) and its generator seeded from (seed, index in the group). */
static int rb__threads_make(rb__run *run, rb__part *p, rb__thread **th)
{
    rb_target *t = &p->t;
    const rb_config *c = &p->c;
    unsigned i, n = p->n;
    size_t buf_len = (size_t)(c->read_size * rb__slots(c, p->s));
    for (i = 0; i < n; i++) {
        rb_worker *w;
        th[i] = (rb__thread *)rb__aligned_alloc(64, sizeof(rb__thread));
        if (!th[i]) break;
        memset(th[i], 0, sizeof(rb__thread));
        rb_hist_init(&th[i]->hist);
        rb_hist_init(&th[i]->read_hist);
        rb_hist_init(&th[i]->service);
        if (c->rate > 0) rb__sched_init(&th[i]->sched, c, i);
        th[i]->run = run;
        th[i]->part = p;
        w = &th[i]->w;
        w->t = t;
        w->read_lat = &th[i]->read_hist;
        w->index = i;
        w->fd = -1;
        w->buf_len = buf_len;
        w->buf = (unsigned char *)rb__aligned_alloc(t->page, buf_len);
        if (c->verify) w->expect = (unsigned char *)malloc((size_t)c->read_size);
        if (!w->buf || (c->verify && !w->expect)) break;
        memset(w->buf, 0, buf_len);
        rb_sampler_seed(&t->smp, w, c->seed, i, n);
    }
    if (i == n) return RB_OK;
    p->res->status = RB_ENOMEM;
    rb__result_reason(p->res, "out of memory for %u threads", n);
    return RB_ENOMEM;
}

static void *rb__thread_arg(void *ctx, unsigned i) { return ((rb__thread **)ctx)[i]; }

static int rb__by_line(const void *a, const void *b)
{
    uint64_t x = ((const rb_trace_read *)a)->line, y = ((const rb_trace_read *)b)->line;
    return x < y ? -1 : x > y;
}

/* A replay's reads per thread: with as many threads as the trace has streams, each its own
   stream; with any other count, every read in trace order, dealt round-robin (read j to thread
   j % threads), so each thread still reads its share in the order the trace has it. */
static int rb__trace_assign(rb__part *p, rb__thread **th)
{
    const rb_trace *tr = p->c.trace;
    unsigned n = p->n, i;
    size_t k = 0, j;
    int64_t room;
    if (!tr) return RB_OK;
    if (tr->max_end > p->t.size) {
        p->res->status = RB_EINVAL;
        rb__result_reason(p->res, "the trace reads up to byte %llu, past the %llu bytes to read from",
                          (unsigned long long)tr->max_end, (unsigned long long)p->t.size);
        return RB_EINVAL;
    }
    if (n == tr->nstreams) {
        for (i = 0; i < n; i++) {
            th[i]->tr = tr->streams[i].reads;
            th[i]->tr_n = tr->streams[i].n;
            th[i]->tr_stride = 1;
        }
    } else if (tr->nstreams == 1) {   /* one stream is in trace order already: dealt from it, no copy */
        k = tr->streams[0].n;
        for (i = 0; i < n; i++) {
            th[i]->tr = tr->streams[0].reads + i;
            th[i]->tr_n = (k - i + n - 1) / n;
            th[i]->tr_stride = n;
        }
    } else {   /* every read in trace order: a copy of them all, if it fits */
        room = rb_mem_available();
        if (room >= 0 && (double)tr->reads * sizeof *p->merged > (double)room - (double)rb_mem_margin((uint64_t)room)) {
            char a[32], b[32];
            rb__mem_text((uint64_t)tr->reads * sizeof *p->merged, a, sizeof a);
            rb__mem_text((uint64_t)room, b, sizeof b);
            p->res->status = RB_ENOMEM;
            rb__result_reason(p->res, "dealing the trace's %llu reads of %u streams to %u threads needs a copy of them in "
                              "trace order, %s, more than the %s this process may take less a margin: replay with "
                              "--threads %u (a thread per stream)", (unsigned long long)tr->reads, tr->nstreams, n, a, b,
                              tr->nstreams);
            return RB_ENOMEM;
        }
        if (!(p->merged = (rb_trace_read *)malloc((size_t)tr->reads * sizeof *p->merged))) {
            p->res->status = RB_ENOMEM;
            rb__result_reason(p->res, "out of memory for the trace's %llu reads", (unsigned long long)tr->reads);
            return RB_ENOMEM;
        }
        for (i = 0; i < tr->nstreams; i++) {
            memcpy(p->merged + k, tr->streams[i].reads, tr->streams[i].n * sizeof *p->merged);
            k += tr->streams[i].n;
        }
        qsort(p->merged, k, sizeof *p->merged, rb__by_line);
        for (i = 0; i < n; i++) {
            th[i]->tr = p->merged + i;
            th[i]->tr_n = (k - i + n - 1) / n;
            th[i]->tr_stride = n;
        }
    }
    for (i = 0; i < n; i++)   /* the latest time each thread reads at: its pass's length (rb__trace_period) */
        for (th[i]->tr_latest = 0, j = 0; j < th[i]->tr_n; j++)
            th[i]->tr_latest = RB__MAX(th[i]->tr_latest, th[i]->tr[j * th[i]->tr_stride].time_ns);
    return RB_OK;
}

/* The mmap strategies catch a SIGBUS (see rb__on_sigbus). 1: installed, restore it after. */
static int rb__sigbus_for_cell(rb__run *run, struct sigaction *old)
{
    unsigned i, mapped = 0;
    for (i = 0; i < run->nparts; i++) mapped |= (run->parts[i].s->flags & RB_S_MMAP) != 0;
    if (!mapped) return 0;
    if (rb__sigbus_install(old)) return 1;
    rb__warn_cell(run, "sigaction(SIGBUS): %s: a file truncated during this cell would have ended the process",
                  strerror(errno));
    return 0;
}

/* A warning about the cell (its file, its cache state): every group's row carries it. */
static void rb__warn_cell(rb__run *run, const char *fmt, ...)
{
    char line[RB_REASON_LEN];
    unsigned i;
    va_list ap;
    va_start(ap, fmt);
    rb__vfmt(line, sizeof line, fmt, ap);
    va_end(ap);
    for (i = 0; i < run->nparts; i++) rb__warn(run->parts[i].res, "%s", line);
}

/* A cell whose residency when measuring starts contradicts the state it asked for measures
   another state under its name: it fails (RB_ESTATE) with the reason, rather than print a
   figure nobody can trust (a pressure cell in a memory cgroup measured 100% resident, every
   read a hit, no device byte, and no word of it). The tolerances are fractions of the file,
   not of this machine: the named states (cold 0, half-cold 0.5, warm 1) lie half a file
   apart, so a residency more than RB__STATE_SLACK from its target is nearer another state
   than its own on any machine; smaller misses are warnings (rb__verdict). Pressure promises
   that the file does not fit: all of it but RB__PRESSURE_WHOLE resident is a pressure that
   reached none of its pages (the scenario's own hog leaves room for at most 1/1.2 of it).
   After a warmup (not evict-each) the state is the warmup's, which a warning says. k: the
   measured phase about to start. 1 with why: missed. */
#define RB__STATE_SLACK 0.25
#define RB__PRESSURE_WHOLE 0.001
static int rb__state_missed(const rb__run *run, unsigned k, int64_t resident, char *why, size_t wl)
{
    const rb_config *c = run->c;
    uint64_t pages = run->parts[0].res->file_pages;
    double f = pages ? (double)resident / (double)pages : 0, target = c->prewarm < 1 ? c->prewarm : 1;
    unsigned i, cached = 0;
    for (i = 0; i < run->nparts; i++) cached += !(run->parts[i].s->flags & RB_S_DIRECT);
    if (!cached) return 0;   /* O_DIRECT reads the device whatever is resident: no state to miss */
    if (resident < 0 || !pages) return 0;   /* residency unknown here: nothing to hold it against */
    if (c->cache == RB_CACHE_EVICT_EACH || (c->cache == RB_CACHE_EVICT && !(c->prewarm > 0) && k == 1 &&
                                            run->first_phase == 1)) {
        if (f <= RB__STATE_SLACK) return 0;
        rb__fmt(why, wl, "an evicted file was asked for, but %.1f%% of it was resident as iteration %u began: the "
                "eviction did not happen (%s)", 100 * f, k, rb__why_cached(c->path, "pages locked or mapped by "
                "another process"));
        return 1;
    }
    if (k != 1) return 0;
    if (c->pressure && f >= 1 - RB__PRESSURE_WHOLE) {
        rb__fmt(why, wl, "memory pressure was asked for, but %.1f%% of the file was resident as measuring began: the "
                "pressure reached none of it (%s)", 100 * f, rb__why_cached(c->path, "the memory left holds it all, or "
                "its pages are locked, mapped or charged to another memory cgroup"));
        return 1;
    }
    if (c->pressure || !(c->prewarm > 0) || run->first_phase == 0 || fabs(f - target) <= RB__STATE_SLACK) return 0;
    rb__fmt(why, wl, "a prewarm of %.2f did not happen: %.1f%% of the file was resident as measuring began, over "
            "%.0f points from it (%s)", c->prewarm, 100 * f, 100 * RB__STATE_SLACK, rb__why_cached(c->path, f > target
            ? "pages locked or mapped by another process" : "the file does not fit in the memory left: that is the "
            "pressure state"));
    return 1;
}

/* Between two phases, every worker parked: the file must still be the one the cell started
   with; evict-each evicts for the next phase; and what is resident is counted as the next
   measured iteration starts (the first one's count is "resident before"). k: the phase
   about to start, end_phase when the cell is over (then the groups' working sets and the
   victim's figures are taken, before anything is unmapped). */
/* The cell's rows, for its observer. */
static unsigned rb__rows(rb__run *run, rb_result **rows)
{
    unsigned i;
    for (i = 0; i < run->nparts; i++) rows[i] = run->parts[i].res;
    return run->nparts;
}

static void rb__between_phases(rb__run *run, unsigned k)
{
    const rb_config *c = run->c;
    rb_result *rows[RB_MAX_GROUPS];
    char why[RB_REASON_LEN];
    unsigned i;
    if (k > run->first_phase && rb__target_changed(&run->parts[0].t, run->ident, why, sizeof why)) {
        rb__fail(run, RB_ECHANGED, why);
        return;
    }
    if (k >= 2) rb__tally(run, k - 1);   /* measured phase k - 1 just ended */
    if (k >= run->end_phase) {
        rb__ws_end(run);
        if (run->observing && c->observer->measured) c->observer->measured(run->observed, rows, rb__rows(run, rows));
        return;
    }
    if (c->cache == RB_CACHE_EVICT_EACH) {
        uint64_t t0 = rb__now_ns();
        int64_t left = -1;
        int rc = rb__evict_cell(run, &left, why, sizeof why);
        for (i = 0; i < run->nparts; i++) run->parts[i].res->evict_seconds += (double)(rb__now_ns() - t0) / 1e9;
        if (rc != RB_OK) { rb__fail(run, rc, why); return; }
        if (left > 0)
            rb__warn_cell(run, "eviction left %lld pages cached before %s %u (%s)", (long long)left,
                          k ? "iteration" : "warmup", k, rb__why_cached(c->path, "under I/O, or mapped by another process"));
    }
    if (k >= 1) {
        int64_t r = rb__resident(c->path);
        for (i = 0; i < run->nparts; i++) {
            run->parts[i].res->iter_resident_before[k - 1] = r;
            if (k == 1) run->parts[i].res->resident_before = r;
        }
        if (rb__state_missed(run, k, r, why, sizeof why)) {
            rb__fail(run, RB_ESTATE, why);
            return;
        }
        rb__touch_start(run, k);
        if (k == 1 && run->observing && c->observer->measuring)
            c->observer->measuring(run->observed, rows, rb__rows(run, rows));
    }
}

/* Phase 3: the coordinator meets the workers on the barrier at each phase's start and end.
   It does not end an iteration (the workers stop themselves at the deadline); it watches
   the caller's stop flag and the workers' failure flag in 20 ms slices, so either ends the
   cell early. One coordinator for every group: their phases start and end together. */
static void rb__coordinate(rb__run *run)
{
    const rb_config *c = run->c;
    unsigned k;
    rb__barrier_wait(&run->pool.bar);   /* ready */
    for (k = run->first_phase;; k++) {
        uint64_t until, now;
        if (!RB__LOAD(&run->pool.failed)) rb__between_phases(run, k);
        /* Decided here, read by all after the barrier: a flag set once the barrier opened (the
           stop flag seen by this thread first) must not make some threads skip the phase. */
        run->quit = k >= run->end_phase || RB__LOAD(&run->pool.failed);
        until = rb__barrier_wait(&run->pool.bar) + (uint64_t)(k ? c->duration_ns : c->warmup_ns);
        if (run->quit) break;
        while ((now = rb__now_ns()) < until && !RB__LOAD(&run->pool.failed)) {
            if (c->stop && __atomic_load_n(c->stop, __ATOMIC_RELAXED)) {
                rb__fail(run, RB_EINTR, "interrupted");
                break;
            }
            rb__sleep_ns(RB__MIN(until - now, (uint64_t)20000000));
        }
        rb__barrier_wait(&run->pool.bar);   /* phase end */
    }
}

/* Phase 4: merge after join: nothing was shared while the clock ran. */
static void rb__merge(rb__thread *const *th, unsigned n, rb_result *res, rb__acct *tot, int *any, int *io_errno)
{
    unsigned i;
    tot->majflt = tot->minflt = tot->read_bytes = tot->user_ns = tot->sys_ns = 0;
    *any = 0;
    *io_errno = 0;
    for (i = 0; i < n; i++) {
        const rb_worker *w = &th[i]->w;
        const rb__acct *b = &th[i]->before, *a = &th[i]->after;
        if (th[i]->rc && res->status == RB_OK) {
            res->status = th[i]->rc;
            rb__result_reason(res, "thread %u: %s", i, th[i]->why);
        }
        rb_hist_merge(&res->lat, &th[i]->hist);
        res->madvise_calls += w->madvise_calls + w->pf.st.advises;
        res->madvise_failed += w->madvise_failed + w->pf.st.failed;
        if (!res->madvise_errno) res->madvise_errno = w->madvise_errno ? w->madvise_errno : w->pf.last_errno;
        rb__pf_stats_add(&res->prefetch, &w->pf.st);
        rb__pa_add(&res->prefetch_accounting, &w->pa);
        res->fadvise_calls += w->fadvise_calls;
        res->fadvise_failed += w->fadvise_failed;
        if (!res->fadvise_errno) res->fadvise_errno = w->fadvise_errno;
        res->nowait_reads += w->nowait_reads;
        res->nowait_served += w->nowait_served;
        res->inflight_max = RB__MAX(res->inflight_max, w->inflight_max);
        res->trace_loops += th[i]->tr_loops;
        rb_hist_merge(&res->read_lat, &th[i]->read_hist);
        rb_hist_merge(&res->service, &th[i]->service);
        res->io_errors += w->io_errors;
        res->short_reads += w->short_reads;
        res->verify_mismatches += w->verify_mismatches;
        if (!*io_errno && w->io_errno) *io_errno = w->io_errno;
        if (b->majflt >= 0 && a->majflt >= 0) {
            tot->majflt += a->majflt - b->majflt;
            tot->minflt += a->minflt - b->minflt;
            *any |= 1;
        }
        if (b->read_bytes >= 0 && a->read_bytes >= 0) { tot->read_bytes += a->read_bytes - b->read_bytes; *any |= 2; }
        if (b->user_ns >= 0 && a->user_ns >= 0) {   /* the touched pages' replay is the harness's, not the strategy's */
            tot->user_ns += a->user_ns - b->user_ns - th[i]->replay_user_ns;
            tot->sys_ns += a->sys_ns - b->sys_ns - th[i]->replay_sys_ns;
            *any |= 4;
        }
    }
}

/* Open loop: what was asked, what came due, and whether it was kept up with. A rate is
   called not sustained when the ops served in the measured iterations are fewer than
   RB__SUSTAINED of the arrivals that came due in them: the rest were a backlog at the
   iterations' ends, and the latency from the intended start grew with it. Compared with the
   arrivals rather than with rate x duration, so that a poisson run's own randomness (a few
   percent in a second) is never taken for a backlog. */
#define RB__SUSTAINED 0.95
static void rb__open_loop_figures(const rb_config *c, rb__thread *const *th, rb_result *res)
{
    unsigned k, i;
    res->think_ns = c->think_ns;
    if (!(c->rate > 0)) return;
    res->rate_asked = c->rate * c->threads;
    res->arrivals = c->arrivals;
    for (k = 1; k <= c->iterations; k++)
        for (i = 0; i < c->threads; i++) res->arrivals_due += th[i]->iter_due[k];
    if (res->arrivals_due && (double)res->ops < RB__SUSTAINED * (double)res->arrivals_due)
        rb__warn(res, "the rate was not sustained: %llu of the %llu ops that came due were served (%.0f%%; asked "
                 "%.6g ops/s, achieved %.6g): the rest waited in a backlog that grew through each iteration, and "
                 "the latency from the intended start includes that wait", (unsigned long long)res->ops,
                 (unsigned long long)res->arrivals_due, 100.0 * (double)res->ops / (double)res->arrivals_due,
                 res->rate_asked, res->ops_per_ms * 1000.0);
}

/* How long thread th's unfinished op had run as measured phase k ended, in ns; 0: none. The
   op in flight at the stop, if it started one in k. If it started none (it came back to a CPU
   past the phase's end, or too late to start one: the scheduler lets a thread wait that just
   ran a long op, 128 MiB x 8 reads in 1 ms iterations) while its ops take longer than a phase
   (one in flight at a stop took longer in all, rb__outlasts), it is still inside that time: in
   flight in k too. From when its op before started, if one was in flight as phase k - 1 (the
   warmup for the first) ended, with the pause between the phases (the op's end, the
   coordinator's work) left out and never more than it took; else the whole phase, as long as
   any op that starts in it can have run. A thread none of whose ops outlasted a phase, or
   that never started one, is not (a thread that never got a CPU: starved, not bounded). */
static int rb__outlasts(const rb_config *c, const rb__thread *th)
{
    unsigned p;
    for (p = 0; p <= c->iterations; p++)
        if (th->iter_inflight[p] && th->iter_inflight_took[p] > (uint64_t)c->duration_ns) return 1;
    return 0;
}

static uint64_t rb__inflight(const rb_config *c, const rb__thread *th, unsigned k)
{
    uint64_t d = (uint64_t)c->duration_ns;
    if (th->iter_inflight[k] || th->iter_ops[k]) return th->iter_inflight[k];
    if (!rb__outlasts(c, th)) return 0;
    if (th->iter_inflight[k - 1] && th->iter_inflight_took[k - 1] > d)
        return RB__MIN(th->iter_inflight_took[k - 1], th->iter_inflight[k - 1] + d);
    return d;
}

/* A cell where no op completed inside any measured iteration is still a measurement when
   every thread of every iteration had an op that was running at the stop (rb__inflight): an
   op that had run w ns and was not done takes longer than w, so that thread does under one op
   per w, and each iteration's rate is under the sum of its threads' 1/w, as rb__statistics
   sums rates. That bound ranks the cell ("< X") where "no result" would hide the slowest
   strategy of all. Only that case: a thread that started no op at all (it got no CPU) and was
   inside no earlier op tells nothing about the strategy's speed, and the cell stays
   unmeasured. 1: bounded. */
static int rb__upper_bound(const rb_config *c, rb__thread *const *th, rb_result *res)
{
    unsigned k, i, carried = 0;
    double sum = 0, slowest = 0;
    for (k = 1; k <= c->iterations; k++)
        for (i = 0; i < c->threads; i++)
            if (th[i]->iter_ops[k] || !rb__inflight(c, th[i], k)) return 0;
    for (k = 1; k <= c->iterations; k++) {
        double v = 0;
        for (i = 0; i < c->threads; i++) {
            uint64_t w = rb__inflight(c, th[i], k);
            v += 1e6 / (double)w;
            slowest = RB__MAX(slowest, (double)w / 1e6);
            carried += !th[i]->iter_inflight[k];
        }
        res->iter_ops_per_ms[k - 1] = v;
        sum += v;
    }
    res->rate_upper_bound = 1;
    res->ops_per_ms = sum / c->iterations;
    res->ops_per_ms_stddev = NAN;   /* a spread of bounds measures nothing */
    res->iops = res->ops_per_ms * 1000.0 * c->reads_per_op;
    res->bytes_per_sec = res->iops * (double)c->read_size;
    rb__warn(res, "no op completed inside any measured iteration: every thread's op was still running when its "
             "iteration ended (after up to %.3g ms), so each rate here is an upper bound (under %.3g ops/ms), not a "
             "measurement; longer iterations would measure it", slowest, res->ops_per_ms);
    if (carried)
        rb__warn(res, "%u time%s a thread started no op in an iteration: it came back to a CPU too late to start one, "
                 "still inside the time of an op that outlasts an iteration (counted as running in it, from its "
                 "start, or through the whole iteration)", carried, carried == 1 ? "" : "s");
    return 1;
}

/* Phase 5: the rates. Per measured iteration, each thread's rate is its ops over its own
   window (iteration start to the end of its last counted op) and the cell's rate is the sum
   of its threads' rates, as JMH does. A thread that completed no op in an iteration has no
   window: it adds nothing to that iteration's rate, and a warning says why, from when the
   thread woke in it (the barrier released): past the middle of the iteration (or never), it
   did not get a CPU (more runnable threads than CPUs: 16 null readers on 2 CPUs at 30 ms);
   earlier, its op outlasted the iteration. Returns the thread-iterations without an op that
   were starved; *slow: those whose op outlasted it. A cell where no op completed at all is an
   upper bound when every thread-iteration had an op in flight (rb__upper_bound), a late one
   included if the thread was still inside a long op of the iteration before (rb__inflight).
   The mean and sample standard deviation are over the iterations (one iteration: no spread,
   NAN, printed as null or "-"). */
static unsigned rb__statistics(const rb_config *c, rb__thread *const *th, rb_result *res, unsigned *slow)
{
    unsigned k, i, zero = 0, starved = 0, inside = 0;
    uint64_t fewest = UINT64_MAX, bytes = 0;
    double sum = 0, dev = 0, reads;
    res->iterations = c->iterations;
    for (k = 1; k <= c->iterations; k++) {
        double v = 0, longest = 0;
        for (i = 0; i < c->threads; i++) {
            uint64_t ops = th[i]->iter_ops[k];
            double ms = (double)(th[i]->iter_end[k] - th[i]->iter_start[k]) / 1e6;
            res->reads_issued += th[i]->iter_issued[k] * c->reads_per_op;   /* a thread without a window too */
            res->bytes_issued += th[i]->iter_issued_bytes[k];
            fewest = RB__MIN(fewest, ops);
            if (ops == 0 || ms <= 0) {
                uint64_t late = th[i]->iter_first[k] - th[i]->iter_start[k];
                if (th[i]->iter_first[k] < th[i]->iter_start[k] || 2 * late <= (uint64_t)c->duration_ns) zero++;
                else {
                    starved++;
                    inside += rb__inflight(c, th[i], k) > 0;   /* late, but still inside a long op's time */
                }
                continue;
            }
            v += (double)ops / ms;
            res->ops += ops;
            bytes += th[i]->iter_bytes[k];
            longest = RB__MAX(longest, ms);
        }
        res->iter_ops_per_ms[k - 1] = v;
        res->seconds += longest / 1e3;
        sum += v;
    }
    res->min_thread_ops = fewest;
    res->ops_per_ms = sum / c->iterations;
    for (k = 0; k < c->iterations; k++) dev += (res->iter_ops_per_ms[k] - res->ops_per_ms) * (res->iter_ops_per_ms[k] - res->ops_per_ms);
    res->ops_per_ms_stddev = c->iterations > 1 ? sqrt(dev / (c->iterations - 1)) : NAN;
    res->iops = res->ops_per_ms * 1000.0 * c->reads_per_op;
    reads = (double)res->ops * c->reads_per_op;   /* a replay's reads have their own lengths: their mean */
    res->bytes_per_sec = res->iops * (reads > 0 ? (double)bytes / reads : (double)c->read_size);
    if (res->trace_loops)
        rb__warn(res, "the trace ran out %llu time%s in the measured iterations and started again from its first "
                 "read: parts of it were replayed more than once (a longer trace, or shorter iterations, replay it "
                 "once)", (unsigned long long)res->trace_loops, res->trace_loops == 1 ? "" : "s");
    rb__open_loop_figures(c, th, res);
    if (!res->ops && starved == inside && rb__upper_bound(c, th, res)) {   /* said there */
        *slow = zero;
        return 0;
    }
    if (starved)
        rb__warn(res, "%u time%s a thread completed no op in an iteration: it did not get a CPU in time (it first "
                 "ran past the middle of the iteration, or never: more runnable threads than the %ld CPUs) and added "
                 "nothing to that iteration's rate", starved, starved == 1 ? "" : "s", sysconf(_SC_NPROCESSORS_ONLN));
    if (zero)
        rb__warn(res, "%u time%s a thread completed no op in an iteration (its op outlasted the iteration): it "
                 "added nothing to that iteration's rate", zero, zero == 1 ? "" : "s");
    else if (fewest < RB_FEW_OPS && !starved)
        rb__warn(res, "a thread completed only %llu op%s in an iteration: with fewer than %u, one op more or less "
                 "moves the rate by over 5%%; longer iterations make it finer", (unsigned long long)fewest,
                 fewest == 1 ? "" : "s", RB_FEW_OPS);
    *slow = zero;
    return starved;
}

/* What made the cell cold or warm, from the workers' own counters. Those run from the first
   measured iteration's start to the last one's end, and so hold each iteration's op in flight
   at the stop: per read is per read issued, never per read counted (with 1024 reads per op
   the in-flight op made cold pread's amplification 1.45 against a true 1.28). */
static void rb__accounting(const rb_strategy *s, const rb__acct *tot, int any, rb_result *res)
{
    if (any & 1) { res->majflt = tot->majflt; res->minflt = tot->minflt; }
    if ((any & 4) && res->reads_issued) {
        res->cpu_user_ns_per_read = (double)tot->user_ns / (double)res->reads_issued;
        res->cpu_sys_ns_per_read = (double)tot->sys_ns / (double)res->reads_issued;
    }
    if (any & 2) {
        res->device_read_bytes = tot->read_bytes;
        if (res->bytes_issued && !(s->flags & RB_S_NOIO))
            res->read_amplification = (double)tot->read_bytes / (double)res->bytes_issued;
    }
}

/* What the pattern did to the cache, from the coordinator's counts (rb__tally) and the
   workers' page reads: distinct pages per iteration, and the hit rate. The bitmap, the page
   reads and the major faults all cover the reads issued (the op in flight at each
   iteration's end included): counted over the counted reads alone, cold mmap had 6,020 cold
   pages for 5,840 page reads and a hit rate clamped to 0 beside a fault hit rate of 0.93.
   A page read hits when its page was resident as the iteration started or was read before in it, so each cold page
   costs one miss; what readahead brought in meanwhile counts as a miss here, and as a hit in
   fault_hit_rate (mmap: a read that faulted with I/O is a major fault). */
static void rb__pattern_figures(const rb__part *p, rb__thread *const *th)
{
    const rb_config *c = &p->c;
    const rb_strategy *s = p->s;
    rb_result *res = p->res;
    unsigned k, i, known = 0, cold_known = 1;
    double touched = 0;
    for (k = 1; k <= c->iterations; k++) {
        uint64_t reads = 0;
        for (i = 0; i < c->threads; i++) reads += th[i]->iter_page_reads[k];
        res->page_reads += reads;
        res->iter_pages_touched[k - 1] = p->iter_touched[k];
        if (p->iter_touched[k] >= 0) { touched += (double)p->iter_touched[k]; known++; }
        if (p->iter_cold[k] >= 0) res->cold_pages += (uint64_t)p->iter_cold[k];
        else cold_known = 0;
    }
    res->touched_iterations = known;
    if (known == c->iterations && known) res->pages_touched = touched / known;
    if ((s->flags & RB_S_NOIO) || !res->page_reads) return;   /* the null strategy reads nothing */
    /* O_DIRECT reads the device whatever is cached: residency would call a page read a hit
       that the device served (a half-locked file read 0.507 while every page came from disk) */
    if (cold_known && known == c->iterations && !res->cache_bypassed)
        res->hit_rate = RB__MAX(0.0, 1.0 - (double)res->cold_pages / (double)res->page_reads);
    if ((s->flags & RB_S_MMAP) && res->majflt >= 0 && !res->per_process_faults)
        res->fault_hit_rate = RB__MAX(0.0, 1.0 - (double)res->majflt / (double)res->page_reads);
}

/* Phase 6: the verdict. A number made of failed advice or failed reads is not the number of
   this strategy; a cache state other than the one asked for is said next to the number. */
static void rb__verdict(const rb_config *c, int io_errno, int starved, rb_result *res)
{
    double pages = res->file_pages ? (double)res->file_pages : 1, before = (double)res->resident_before / pages;
    double target = c->prewarm < 1 ? c->prewarm : 1;
    if (res->madvise_failed) {
        res->status = RB_ESYS;
        rb__result_reason(res, "%llu of %llu madvise calls failed (%s)", (unsigned long long)res->madvise_failed,
                          (unsigned long long)res->madvise_calls, strerror(res->madvise_errno));
    } else if (res->fadvise_failed) {
        res->status = RB_ESYS;
        rb__result_reason(res, "%llu of %llu posix_fadvise calls failed (%s)", (unsigned long long)res->fadvise_failed,
                          (unsigned long long)res->fadvise_calls, strerror(res->fadvise_errno));
    } else if (res->prefetch.mincore_failed) {
        res->status = RB_ESYS;
        rb__result_reason(res, "%llu of %llu mincore calls failed (%s)", (unsigned long long)res->prefetch.mincore_failed,
                          (unsigned long long)res->prefetch.mincore_calls, strerror(res->madvise_errno));
    } else if (res->io_errors || res->short_reads) {
        res->status = RB_EIO;
        rb__result_reason(res, "%llu read errors (%s), %llu short reads", (unsigned long long)res->io_errors,
                          io_errno ? strerror(io_errno) : "none", (unsigned long long)res->short_reads);
    } else if (res->verify_mismatches) {
        res->status = RB_EVERIFY;
        rb__result_reason(res, "%llu reads did not match the setup pattern", (unsigned long long)res->verify_mismatches);
    } else if (res->ops == 0 && starved) {   /* not the strategy's time: the threads did not run */
        res->status = RB_EINVAL;
        rb__result_reason(res, "no op completed inside any measured iteration: the threads did not get a CPU in time "
                          "(each first ran past the middle of an iteration, or not at all: more runnable threads than "
                          "the %ld CPUs); nothing was measured: fewer threads, or longer iterations",
                          sysconf(_SC_NPROCESSORS_ONLN));
    } else if (res->ops == 0 && !res->rate_upper_bound) {   /* 0 ops/ms would read as "the slowest strategy" */
        res->status = RB_EINVAL;
        rb__result_reason(res, "no op completed inside any measured iteration (one op takes longer than an "
                          "iteration): nothing was measured");
    }
    if (res->resident_before < 0) return;
    /* a warmup that ran in between reads, and so changes what is resident: the first suspect */
    if (c->prewarm > 0 && fabs(before - target) > 0.02)
        rb__warn(res, "a prewarm of %.2f did not hold: %.1f%% of the file was resident when measuring started "
                 "(%s)", c->prewarm, 100.0 * before, rb__why_cached(c->path, c->warmup_ns <= 0
                 ? "memory pressure, or another process" : before > target
                 ? "the warmup ran after the prewarm and its reads loaded pages: a warmup reads, so it changes what "
                   "is resident"
                 : "the warmup ran after the prewarm: its reads change what is resident (a strategy that drops what it "
                   "read), or memory pressure, or another process"));
    if (c->cache == RB_CACHE_EVICT && !(c->prewarm > 0) && before > 0.02)
        rb__warn(res, "the eviction did not hold: %.1f%% of the file was resident when measuring started (%s)",
                 100.0 * before, rb__why_cached(c->path, "under I/O, or mapped by another process"));
    if (c->cache == RB_CACHE_KEEP && !(c->prewarm > 0) && res->resident_before < (int64_t)res->file_pages)
        rb__warn(res, "the cache was kept and %.1f%% of the file was resident when measuring started: every cell "
                 "reads the same seeded offsets, so later cells read what earlier cells loaded", 100.0 * before);
}

/* A group of the cell: its config checked, defaults applied, its result started. RB_OK, or
   the config's fault in res. */
static int rb__part_init(rb__part *p, const rb_config *cfg, const rb_strategy *s, rb_result *res)
{
    char why[RB_REASON_LEN];
    int rc;
    memset(p, 0, sizeof *p);
    p->s = s;
    p->res = res;
    p->t.fd = -1;
    why[0] = 0;
    rc = rb__config_check(cfg, s, why, sizeof why);
    if (rc != RB_OK) {
        memset(res, 0, sizeof *res);
        rb_hist_init(&res->lat);
        rb_hist_init(&res->read_lat);
        rb_hist_init(&res->service);
        rb__result_unknown_extras(res);
        res->strategy = s ? s->name : "?";
        res->status = rc;
        rb__result_reason(res, "%s", why);
        return rc;
    }
    rb_config_defaults(cfg, &p->c);
    rb__result_init(res, &p->c, s);
    return RB_OK;
}

/* What the groups of a cell allocate together, against what this process may use (one group:
   rb_cell_fits). */
static int rb__parts_fit(const rb__part *parts, unsigned n, char *why, size_t wl)
{
    uint64_t need = 0, margin = (uint64_t)16 << 20;
    int64_t room = rb_mem_available();
    unsigned i;
    char a[32], b[32];
    if (n == 1) return rb_cell_fits(&parts[0].c, parts[0].s, why, wl);
    for (i = 0; i < n; i++) need += RB__MIN(rb_cell_memory(&parts[i].c, parts[i].s), UINT64_MAX / 32);
    if (room < 0 || (need <= (uint64_t)room && (uint64_t)room - need >= margin)) return RB_OK;
    rb__mem_text(need, a, sizeof a);
    rb__mem_text((uint64_t)room, b, sizeof b);
    rb__fmt(why, wl, "the %u groups' buffers need %s, more than the %s this process may use less 16 MiB", n, a, b);
    return RB_ENOMEM;
}

/* A failure of one group (or of the cell) is every group's: the others' numbers were cut
   short with it. Each row keeps its own reason when it has one. */
static void rb__share_failure(rb__part *parts, unsigned n)
{
    unsigned i, j;
    for (i = 0; i < n && parts[i].res->status == RB_OK; i++) {}
    for (j = 0; i < n && j < n; j++) {
        if (parts[j].res->status != RB_OK) continue;
        parts[j].res->status = parts[i].res->status;
        if (n > 1) rb__result_reason(parts[j].res, "group %u: %s", i + 1, parts[i].res->reason);
    }
}

/* Phase 1 of a cell: the cache state (once, for every group), each group's target, and the
   workers' blocks. RB_OK, or the failure in a result. */
static int rb__cell_open(rb__run *run, rb__thread ***thp)
{
    rb__part *parts = run->parts;
    rb_result *res0 = parts[0].res;
    char why[RB_REASON_LEN];
    unsigned i, k;
    int rc;
    if ((rc = rb__parts_fit(parts, run->nparts, why, sizeof why)) != RB_OK) {   /* before allocating any of it */
        res0->status = rc;
        rb__result_reason(res0, "%s", why);
        return rc;
    }
    if (rb_ident_check(run->c->ident, run->c->path, why, sizeof why)) {   /* the run's file, before preparing it */
        res0->status = RB_ECHANGED;
        rb__result_reason(res0, "%s", why);
        return RB_ECHANGED;
    }
    if (rb__prepare_cache(run->c, res0) != RB_OK) return res0->status;
    for (i = 1; i < run->nparts; i++) {   /* the cell's preparation, said in every row */
        rb_result *r = parts[i].res;
        r->evict_seconds = res0->evict_seconds;
        r->prewarm_seconds = res0->prewarm_seconds;
        r->resident_prepared = res0->resident_prepared;
        for (k = 0; k < res0->nwarnings; k++) rb__warn(r, "%s", res0->warnings[k]);
    }
    for (i = 0; i < run->nparts; i++) {
        rb__part *p = &parts[i];
        if ((rc = rb__target_open(&p->t, &p->c, p->s, why, sizeof why)) != RB_OK) {
            p->res->status = rc;
            rb__result_reason(p->res, "%s", why);
            return rc;
        }
        p->opened = 1;
        p->t.res = p->res;
        p->res->file_pages = (p->t.map_len + p->t.page - 1) / p->t.page;   /* a directory: each file's (bases page-aligned) */
        p->res->files = p->t.files ? p->t.nfiles : 1;
        p->res->files_small = p->t.smp.small;
        if (p->t.smp.small)
            rb__warn(p->res, "%u of the %u files are shorter than a read of %llu bytes: never read (their pages are "
                     "counted in the residency)", p->t.smp.small, p->t.nfiles, (unsigned long long)p->c.read_size);
        p->first = run->nthreads;
        p->n = p->c.threads;
        run->nthreads += p->n;
    }
    run->first_phase = run->c->warmup_ns > 0 ? 0 : 1;
    run->end_phase = run->c->iterations + 1;
    run->ident = (rb__ident *)calloc(parts[0].t.files ? parts[0].t.nfiles : 1, sizeof *run->ident);
    if (!run->ident || rb__target_idents(&parts[0].t, run->ident) != 0) {   /* every file of a directory */
        res0->status = run->ident ? RB_ESYS : RB_ENOMEM;
        rb__result_reason(res0, "stat %s: %s", run->c->path, strerror(run->ident ? errno : ENOMEM));
        return res0->status;
    }
    if (rb__target_is(run->c->ident, &parts[0].t, run->ident, why, sizeof why)) {   /* what was opened: the run's */
        res0->status = RB_ECHANGED;
        rb__result_reason(res0, "%s", why);
        return RB_ECHANGED;
    }
    if (!(*thp = (rb__thread **)calloc(run->nthreads, sizeof **thp))) {
        res0->status = RB_ENOMEM;
        rb__result_reason(res0, "out of memory for %u threads", run->nthreads);
        return RB_ENOMEM;
    }
    for (i = 0; i < run->nparts; i++)
        if ((rc = rb__threads_make(run, &parts[i], *thp + parts[i].first)) != RB_OK ||
            (rc = rb__trace_assign(&parts[i], *thp + parts[i].first)) != RB_OK)
            return rc;
    rb__touch_alloc(run);
    return RB_OK;
}

/* Phases 2-3: the observer's cell (rb_config.observer), the workers of every group on one
   barrier, and the one coordinator, until the last iteration or a failure; then everything
   joined, and the observer closed. */
static void rb__cell_execute(rb__run *run, rb__thread **th)
{
    struct sigaction old_bus;
    const rb_observer *o = run->c->observer;
    rb_result *rows[RB_MAX_GROUPS];
    char why[RB_REASON_LEN];
    int rc = RB_OK, bus_installed = rb__sigbus_for_cell(run, &old_bus);
    if (o && o->cell) {
        why[0] = 0;
        run->observing = 1;
        rc = o->cell(o, run->c, &run->observed, why, sizeof why);
    }
    if (rc == RB_OK) rc = rb__pool_start(&run->pool, run->nthreads, rb__worker_main, rb__thread_arg, th, why, sizeof why);
    if (rc != RB_OK) rb__fail(run, rc, why);
    if (run->pool.tid) rb__coordinate(run);   /* no tid: no thread and no barrier either */
    rb__pool_join(&run->pool);
    if (run->observing && o->close) o->close(run->observed, rows, rb__rows(run, rows));
    run->observing = 0;
    run->observed = NULL;
    if (bus_installed && sigaction(SIGBUS, &old_bus, NULL) != 0)
        rb__warn_cell(run, "restoring the caller's SIGBUS handler: %s", strerror(errno));
}

/* Phases 4-6 per group: its threads' counters merged, its rates, what made it cold, what its
   pattern did to the cache, and its verdict. */
static void rb__cell_figures(rb__run *run, rb__thread **th)
{
    int64_t after = rb__resident(run->c->path);
    unsigned i;
    for (i = 0; i < run->nparts; i++) {
        rb__part *p = &run->parts[i];
        rb__acct tot;
        int any_acct, io_errno;
        unsigned starved, slow;
        p->res->resident_after = after;
        /* merged even when the cell failed: its counters (short reads, failed advice) say why */
        rb__merge(th + p->first, p->n, p->res, &tot, &any_acct, &io_errno);
        if (p->res->status != RB_OK) continue;
        starved = rb__statistics(&p->c, th + p->first, p->res, &slow);
        rb__accounting(p->s, &tot, any_acct, p->res);
        rb__pattern_figures(p, th + p->first);
        rb__verdict(&p->c, io_errno, starved && !slow, p->res);
    }
}

static void rb__cell_close(rb__run *run, rb__thread **th)
{
    unsigned i;
    for (i = 0; th && i < run->nthreads; i++) {
        if (!th[i]) continue;
        free(th[i]->w.buf);
        free(th[i]->w.expect);
        free(th[i]);
    }
    free(th);
    rb__touch_free(run);
    free(run->ident);
    run->ident = NULL;
    for (i = 0; i < run->nparts; i++) {
        free(run->parts[i].merged);
        if (run->parts[i].opened && run->parts[i].s->close) run->parts[i].s->close(&run->parts[i].t);
        if (run->parts[i].opened) rb__target_release(&run->parts[i].t);
    }
}

/* The machine's speed. This project's VMs change speed by tens of percent from minute to
   minute (a slow half hour cost 30x CPU per read), and a cell measured while that happened
   describes two machines. A fixed CPU kernel run before and after each cell says when: it
   touches no memory and no file, so the cell's cache state is not disturbed. What it measures
   is what a program beside the cell would get: the kernel's work in a fixed wall-clock window
   of RB__MACHINE_WINDOW_NS, back to back, so that a CPU shared with another program shows
   as the share it leaves (a busy loop on the cell's CPU halves the work). The fastest of 3
   runs of ~1 ms did not: each run fit in one scheduler slice, and a busy loop started beside
   a cell halved its rates while the kernel moved by under 4%. It runs as one copy per worker
   up to the CPUs online, each pinned where that worker is pinned (rb_config.cpus), the copies
   started together; their work is summed: a cell of two threads on two CPUs is slowed by a
   busy loop on either. Cost: 10 ms of wall-clock before and after each cell, and 10 ms of CPU
   per copy each time. On a loaded machine the share moves from window to window, and so do
   the cells' rates: the flag then says so more often, which is what it is for.
   RB_MACHINE_SPIN names a replacement kernel (a test's, to inject a slowdown). */
#ifdef RB_MACHINE_SPIN
uint64_t RB_MACHINE_SPIN(uint64_t n, uint64_t x);
#else
static uint64_t rb__machine_spin(uint64_t n, uint64_t x)
{
    uint64_t i;
    for (i = 0; i < n; i++) x = (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9ULL + i;
    return x;
}
#define RB_MACHINE_SPIN rb__machine_spin
#endif

#define RB__MACHINE_WINDOW_NS 10000000u   /* the kernel's window, before and after each cell */
#define RB__MACHINE_CHUNK 4096u           /* its iterations between two clock reads: ~10 us */
#define RB__MACHINE_COPIES 64u            /* at most this many copies at once */

/* One copy of the kernel: where it runs (-1: anywhere), then its work and its window. */
typedef struct rb__kernel {
    rb__pool *pool;
    int cpu;
    uint64_t iters, ns, sink;
} rb__kernel;

static void *rb__kernel_arg(void *ctx, unsigned i) { return (rb__kernel *)ctx + i; }

/* From the barrier's release (the same instant for every copy) to the window's end: a copy
   that gets its CPU late has done less in it, which is the point. */
static void *rb__kernel_main(void *arg)
{
    rb__kernel *k = (rb__kernel *)arg;
    char why[64];
    uint64_t start, end, now, x = k->sink;
    if (k->cpu >= 0 && rb__pin((unsigned)k->cpu, why, sizeof why) != RB_OK) k->cpu = -1;   /* then anywhere */
    start = rb__barrier_wait(&k->pool->bar);
    end = start + RB__MACHINE_WINDOW_NS;
    do {
        x ^= RB_MACHINE_SPIN(RB__MACHINE_CHUNK, x + k->iters);
        k->iters += RB__MACHINE_CHUNK;
    } while ((now = rb__now_ns()) < end && !RB__LOAD(&k->pool->failed));
    k->ns = now - start;
    k->sink = x;
    return NULL;
}

/* The kernel's time per 2^20 iterations at the pace the copies got, in ns (a copy's own
   time for them: summed work over the copies), or 0 where it could not run (no thread). */
static double rb__machine_time(rb__run *run)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned n = RB__MIN(RB__MIN(run->nthreads, online > 0 ? (unsigned)online : 1u), RB__MACHINE_COPIES), i;
    rb__kernel k[RB__MACHINE_COPIES];
    rb__pool pool;
    char why[RB_REASON_LEN];
    double per_ns = 0;
    int rc;
    n = RB__MAX(n, 1u);
    for (i = 0; i < n; i++) {
        k[i].pool = &pool;
        k[i].cpu = run->c->ncpus && run->c->cpus ? (int)run->c->cpus[i % run->c->ncpus] : -1;   /* as worker i */
        k[i].iters = k[i].ns = 0;
        k[i].sink = i + 1;
    }
    rc = rb__pool_start(&pool, n, rb__kernel_main, rb__kernel_arg, k, why, sizeof why);
    if (!pool.tid) return 0;   /* no thread and no barrier */
    rb__barrier_wait(&pool.bar);   /* go: every copy's window starts now */
    rb__pool_join(&pool);
    if (rc != RB_OK) return 0;     /* fewer copies than asked: not the same measure as the other side's */
    for (i = 0; i < n; i++) {
        if (!k[i].ns) return 0;
        per_ns += (double)k[i].iters / (double)k[i].ns;
        run->kernel_sink ^= k[i].sink;   /* volatile: the compiler may not drop the loop */
    }
    return per_ns > 0 ? (double)n * 1048576.0 / per_ns : 0;
}

/* Before the cell: the kernel's time, kept for after. */
static void rb__machine_before(rb__run *run) { run->kernel_ns = rb__machine_time(run); }

/* After the cell: the same kernel again, into every group's row, and a warning where the
   machine moved. */
static void rb__machine_after(rb__run *run)
{
    double after, drift;
    unsigned i;
    if (!(run->kernel_ns > 0) || !((after = rb__machine_time(run)) > 0)) return;
    drift = after / run->kernel_ns - 1;
    for (i = 0; i < run->nparts; i++) {
        rb_result *r = run->parts[i].res;
        r->machine_before_ns = run->kernel_ns;
        r->machine_after_ns = after;
        r->machine_drift = drift;
        r->machine_moved = fabs(drift) > RB_MACHINE_MOVED;
        if (r->machine_moved)
            rb__warn(r, "the machine moved during this cell: a fixed CPU kernel took %.0f%% %s after it than before "
                     "(%.3g against %.3g ms per 2^20 iterations): its figures describe two machines",
                     100 * fabs(drift), drift > 0 ? "longer" : "less", after / 1e6, run->kernel_ns / 1e6);
    }
}

/* One cell: groups parts[0..n) (initialized by rb__part_init) on one file, at the same time.
   One cell runs one set of threads on one barrier under one coordinator, rather than a
   concurrent rb_run per group meeting at a shared barrier: the groups' iterations then start
   and end at the same instants by construction, one thread prepares the cache, counts
   residency and evicts between phases for all, and nothing about a cell of one group changes. */
static int rb__cell(rb__part *parts, unsigned n)
{
    rb__run run;
    rb__thread **th = NULL;
    unsigned i;
    memset(&run, 0, sizeof run);
    run.parts = parts;
    run.nparts = n;
    run.c = &parts[0].c;
    run.res = parts[0].res;
    for (i = 1; i < n; i++) {   /* what the cell shares, the groups share: the first one's */
        parts[i].c.warmup_ns = run.c->warmup_ns;
        parts[i].c.duration_ns = run.c->duration_ns;
        parts[i].c.iterations = run.c->iterations;
    }
    if (rb__cell_open(&run, &th) == RB_OK) {
        rb__machine_before(&run);
        rb__cell_execute(&run, th);
        rb__machine_after(&run);
        rb__cell_figures(&run, th);
    }
    rb__share_failure(parts, n);
    rb__cell_close(&run, th);
    for (i = 0; i < n; i++)
        if (parts[i].res->status != RB_OK) return parts[i].res->status;
    return RB_OK;
}

RBDEF int rb_run(const rb_config *cfg, const rb_strategy *s, rb_result *res)
{
    rb__part part;
    if (!res) return RB_EINVAL;
    if (rb__part_init(&part, cfg, s, res) != RB_OK) return res->status;
    return rb__cell(&part, 1);
}

/* ==== 1.9 strategies ========================================================================== */

static int rb__open_regular(const char *path, int flags, struct stat *st, rb_error *err);
/* A directory: each file opened (flags as the strategy asks), laid out one after another in
   name order, each at a page boundary. A descriptor per file: a directory of more files than
   the open-file limit allows is said, with the limit to raise. */
static int rb__open_files(rb_target *t, int flags, char *why, size_t wl)
{
    rb__dirlist d;
    rb_error e;
    struct stat st;
    unsigned i;
    uint64_t base = 0;
    int rc = rb__dir_scan(t->cfg->path, &d, &e);
    if (rc != RB_OK) { rb__fmt(why, wl, "%s", e.msg); return rc; }
    t->files = (rb_target_file *)calloc(d.n, sizeof *t->files);
    if (!t->files) { rb__dirlist_free(&d); rb__fmt(why, wl, "out of memory for %u files", d.n); return RB_ENOMEM; }
    t->nfiles = d.n;
    for (i = 0; i < d.n; i++) {
        t->files[i].fd = -1;
        t->files[i].path = d.e[i].path;   /* the target owns the name now */
        d.e[i].path = NULL;
    }
    rb__dirlist_free(&d);
    for (i = 0; i < t->nfiles; i++) {
        rb_target_file *f = &t->files[i];
        if ((f->fd = rb__open_regular(f->path, flags, &st, &e)) < 0) {
            rb__fmt(why, wl, "%s%s", e.msg, e.err == EMFILE ? " (a descriptor per file: raise the open-file limit, "
                    "ulimit -n)" : "");
            return (flags && e.err == EINVAL) ? RB_UNSUPPORTED : e.status;
        }
        f->size = (uint64_t)st.st_size;
        f->base = base;
        f->data_seed = rb_file_seed(t->cfg->data_seed, f->path);
        base += (f->size + t->page - 1) / t->page * t->page;
    }
    t->fd = t->files[0].fd;
    t->map_len = t->files[t->nfiles - 1].base + t->files[t->nfiles - 1].size;
    return RB_OK;
}

static int rb__open_file(rb_target *t, int flags, char *why, size_t wl)
{
    struct stat st;
    rb_error e;
    if (rb__is_dir(t->cfg->path)) return rb__open_files(t, flags, why, wl);
    t->fd = rb__open_regular(t->cfg->path, flags, &st, &e);
    if (t->fd < 0) {
        rb__fmt(why, wl, "%s", e.msg);
        return (flags && e.err == EINVAL) ? RB_UNSUPPORTED : e.status;
    }
    t->map_len = (uint64_t)st.st_size;
    return RB_OK;
}

/* A directory: one range of address space reserved (PROT_NONE), then each file mapped over its
   part of it (MAP_FIXED) at its base. Each file is its own mapping, so advice given over the
   range reaches each file's mapping, and mmap reads need no table: map + offset is the right
   file's byte. The files tile the range (each base is the last end rounded up to the page,
   which the last page's mapping covers), so no reserved page is left between them. */
static int rb__map_files(rb_target *t, char *why, size_t wl)
{
    size_t len = (size_t)((t->map_len + t->page - 1) / t->page * t->page);
    unsigned char *m = (unsigned char *)mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    unsigned i;
    struct stat st;
    if (m == (unsigned char *)MAP_FAILED) {
        rb__fmt(why, wl, "mmap of %llu bytes for %u files: %s", (unsigned long long)len, t->nfiles, strerror(errno));
        return RB_ESYS;
    }
    t->map = m;   /* from here on rb__close_target unmaps the whole range */
    t->mincore_trusted = 1;
    for (i = 0; i < t->nfiles; i++) {
        const rb_target_file *f = &t->files[i];
        if (mmap(m + f->base, (size_t)f->size, PROT_READ, MAP_SHARED | MAP_FIXED, f->fd, 0) == MAP_FAILED) {
            rb__fmt(why, wl, "mmap of %s: %s", f->path, strerror(errno));
            return RB_ESYS;
        }
        if (fstat(f->fd, &st) != 0 || !rb__plat_mincore_trusted(&st, f->path)) t->mincore_trusted = 0;
    }
    return RB_OK;
}

/* A row's advice (RB_ADVICE_*) as the platform's madvise constant. */
static int rb__madv(int advice)
{
    return advice == RB_ADVICE_RANDOM ? MADV_RANDOM : advice == RB_ADVICE_SEQUENTIAL ? MADV_SEQUENTIAL : MADV_NORMAL;
}

static int rb__open_mmap(rb_target *t, char *why, size_t wl)
{
    int rc = rb__open_file(t, 0, why, wl);
    void *m;
    if (rc) return rc;
    if (t->files) {
        if ((rc = rb__map_files(t, why, wl)) != RB_OK) return rc;
        m = t->map;
    } else {
        struct stat st;   /* the rule Linux applies before mincore tells the truth (see rb_residency) */
        m = mmap(NULL, (size_t)t->map_len, PROT_READ, MAP_SHARED, t->fd, 0);
        if (m == MAP_FAILED) {
            rb__fmt(why, wl, "mmap: %s", strerror(errno));
            return RB_ESYS;
        }
        t->map = (unsigned char *)m;
        t->mincore_trusted = fstat(t->fd, &st) == 0 && rb__plat_mincore_trusted(&st, t->cfg->path);
    }
    if (t->s->advice != RB_ADVICE_NORMAL && madvise(m, (size_t)t->map_len, rb__madv(t->s->advice)) != 0) {
        rb__fmt(why, wl, "madvise(%s) on the whole mapping: %s",
                 t->s->advice == RB_ADVICE_RANDOM ? "MADV_RANDOM" : "MADV_SEQUENTIAL", strerror(errno));
        return RB_ESYS;
    }
    return RB_OK;
}

static int rb__op_mmap(rb_worker *w, const uint64_t *off, unsigned n)
{
    const unsigned char *m = w->t->map;
    int verify = w->t->cfg->verify;
    unsigned i;
    for (i = 0; i < n; i++) {
        size_t rs = RB__LEN(w, i);
        memcpy(w->buf, m + off[i], rs);
        w->sink += w->buf[rs - 1];
        if (verify) rb_worker_check(w, w->buf, off[i], rs);
    }
    return 0;
}

static int rb__open_pread(rb_target *t, char *why, size_t wl) { return rb__open_file(t, 0, why, wl); }

/* off: of the target's space (a directory: the file and the place in it from rb_worker_fd_at). */
static int rb__pread_one(rb_worker *w, unsigned char *buf, uint64_t off, size_t rs)
{
    uint64_t at;
    int fd = rb_worker_fd_at(w, off, &at);
    ssize_t r;
    do r = pread(fd, buf, rs, (off_t)at); while (r < 0 && errno == EINTR);
    if (r < 0) { rb__read_error(w, errno); return -1; }
    if ((size_t)r != rs) { w->short_reads++; return -1; }
    rb__read_done(w, buf, off, rs);
    return 0;
}

static int rb__op_pread(rb_worker *w, const uint64_t *off, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++) rb__pread_one(w, w->buf, off[i], RB__LEN(w, i));
    return 0;
}

/* fio's "sync" engine: each thread has its own descriptor, so its file position is its own
   (a directory: one of its own per file, w->fds). */
static int rb__thread_own_fd(rb_worker *w, char *why, size_t wl)
{
    rb_error e;
    unsigned i, n = w->t->nfiles;
    if (w->t->files) {
        if (!(w->fds = (int *)malloc(n * sizeof *w->fds))) { rb__fmt(why, wl, "out of memory"); return RB_ENOMEM; }
        for (i = 0; i < n; i++) w->fds[i] = -1;
        for (i = 0; i < n; i++)
            if ((w->fds[i] = rb__open_regular(w->t->files[i].path, 0, NULL, &e)) < 0) {
                rb__fmt(why, wl, "%s%s", e.msg, e.err == EMFILE ? " (a descriptor per file and thread: raise the "
                        "open-file limit, ulimit -n)" : "");
                return e.status;
            }
        return RB_OK;
    }
    w->fd = rb__open_regular(w->t->cfg->path, 0, NULL, &e);
    if (w->fd < 0) {
        rb__fmt(why, wl, "%s", e.msg);
        return e.status;
    }
    return RB_OK;
}

/* Descriptors opened for reading only: a failed close loses nothing, but is counted as an error
   of the cell all the same (nothing fails silently). */
static void rb__thread_close_fd(rb_worker *w)
{
    unsigned i;
    for (i = 0; w->fds && i < w->t->nfiles; i++)
        if (w->fds[i] >= 0 && close(w->fds[i]) != 0) rb__read_error(w, errno);
    free(w->fds);
    w->fds = NULL;
    if (w->fd >= 0 && close(w->fd) != 0) rb__read_error(w, errno);
    w->fd = -1;
}

static int rb__op_read(rb_worker *w, const uint64_t *off, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++) {
        size_t rs = RB__LEN(w, i);
        ssize_t r;
        uint64_t at;
        int fd = rb_worker_fd_at(w, off[i], &at);   /* this thread's own descriptor (of that file) */
        if (lseek(fd, (off_t)at, SEEK_SET) == (off_t)-1) { rb__read_error(w, errno); continue; }
        do r = read(fd, w->buf, rs); while (r < 0 && errno == EINTR);
        if (r < 0) { rb__read_error(w, errno); continue; }
        if ((size_t)r != rs) { w->short_reads++; continue; }
        w->sink += w->buf[rs - 1];
        if (w->t->cfg->verify) rb_worker_check(w, w->buf, off[i], rs);
    }
    return 0;
}

/* O_DIRECT (F_NOCACHE on macOS). Some filesystems (tmpfs) refuse O_DIRECT at open, others
   only at the first read: one aligned read at open time finds out which. */
static int rb__direct_probe(rb_target *t, char *why, size_t wl)
{
    unsigned char *probe = (unsigned char *)rb__aligned_alloc(t->page, t->page);
    ssize_t r;
    if (!probe) { rb__fmt(why, wl, "out of memory"); return RB_ENOMEM; }
    r = pread(t->fd, probe, t->page, 0);
    free(probe);
    if (r < 0) {
        rb__fmt(why, wl, "direct read refused: %s", strerror(errno));
        return errno == EINVAL ? RB_UNSUPPORTED : RB_ESYS;
    }
    return RB_OK;
}

static int rb__open_direct(rb_target *t, char *why, size_t wl)
{
    int rc;
    const rb_trace *tr = t->cfg->trace;
    if (tr && tr->unaligned) {   /* refused whole: a replay that left reads out would be another trace */
        rb__fmt(why, wl, "direct I/O needs page-aligned reads: %llu of the trace's are not (the first at line %llu)",
                (unsigned long long)tr->unaligned, (unsigned long long)tr->unaligned_line);
        return RB_UNSUPPORTED;
    }
    if (t->cfg->read_size % t->page != 0) {
        rb__fmt(why, wl, "direct I/O needs a read size that is a multiple of the page (%zu)",
                 t->page);
        return RB_UNSUPPORTED;
    }
    if (RB__O_DIRECT) {
        rc = rb__open_file(t, RB__O_DIRECT, why, wl);
        if (rc == RB_UNSUPPORTED)
            rb__fmt(why, wl, "the filesystem refuses O_DIRECT (open: %s)", strerror(EINVAL));
        return rc ? rc : rb__direct_probe(t, why, wl);
    }
    if (rb__plat_nocache(-1) == RB_UNSUPPORTED) {
        rb__fmt(why, wl, "no O_DIRECT in this build (RB_NO_LINUX or no _GNU_SOURCE)");
        return RB_UNSUPPORTED;
    }
    rc = rb__open_file(t, 0, why, wl);   /* macOS: F_NOCACHE on the open descriptor */
    if (rc) return rc;
    if (rb__plat_nocache(t->fd) != RB_OK) {
        rb__fmt(why, wl, "fcntl(F_NOCACHE): %s", strerror(errno));
        return RB_UNSUPPORTED;
    }
    return rb__direct_probe(t, why, wl);
}

/*
   pread-fadvise is mmap-willneed for a program that reads with pread (apache/lucene #13337):
   posix_fadvise(WILLNEED) on every read's range of the op (page-aligned, as for madvise)
   starts asynchronous readahead of all n ranges, then the preads find the I/O in flight.
   mmap-populate is the synchronous counterpart on a mapping: MADV_POPULATE_READ faults every
   read's range in (page tables too) before the reads, so on a cold file it is n blocking
   faults one after the other, each reading around as a NORMAL mapping's fault does.
   pread-dontcache reads through the page cache but drops what it loaded once copied
   (RWF_DONTCACHE, 6.14): pages already cached stay and are served from it.
   Each probe asks the kernel once without touching the file's pages: advice over an empty
   range, or a read at the end of the file (no readahead there). */

/* The file is also mapped, never read through: the accounting asks mincore about it. */
static int rb__open_pread_fadvise(rb_target *t, char *why, size_t wl)
{
    int rc = rb__open_mmap(t, why, wl), e;
    if (rc) return rc;
    e = rb__plat_fadvise_range(t->fd, 0, 0, RB__HINT_NONE);   /* the default advice, over nothing: no change */
    if (e == 0) return RB_OK;
    rb__fmt(why, wl, "posix_fadvise refused: %s", strerror(e));
    return RB_UNSUPPORTED;
}

/* pread-dontneed: the preads, then posix_fadvise(DONTNEED) on each read's page range: a scan
   that gives back what it read (what a careful backup or compaction does), so that it evicts
   nobody else's pages, at the price of dropping pages others had cached in its range too. */
static int rb__op_pread_dontneed(rb_worker *w, const uint64_t *off, unsigned n)
{
    uint64_t start, alen;
    unsigned i;
    int rc = rb__op_pread(w, off, n);
    for (i = 0; i < n; i++) {
        const char *what = "";
        uint64_t at;
        int fd;
        if (!rb_page_range(off[i], rb_worker_read_len(w, i), w->t->page, w->t->map_len, &start, &alen)) continue;
        w->fadvise_calls++;
        fd = rb_worker_fd_at(w, start, &at);   /* a directory: the read's own file */
        if (rb__plat_drop_range(fd, at, alen, &what) != RB_OK && w->fadvise_failed++ == 0)
            w->fadvise_errno = errno;
    }
    return rc;
}

static int rb__open_mmap_populate(rb_target *t, char *why, size_t wl)
{
    int rc = rb__open_mmap(t, why, wl);
    return rc ? rc : rb__populate_probe(t, why, wl);
}

#if defined(RB__HAS_PREADV2)
static ssize_t rb__preadv2(int fd, unsigned char *buf, size_t len, uint64_t off, int flags)
{
    struct iovec iov;
    ssize_t r;
    iov.iov_base = buf;
    iov.iov_len = len;
    do r = preadv2(fd, &iov, 1, (off_t)off, flags); while (r < 0 && errno == EINTR);
    return r;
}

/* One read at the end of the file: the flag is checked before anything else, and there is
   nothing to read or read ahead. 0 or EAGAIN: the flag is taken. */
static int rb__preadv2_probe(rb_target *t, int flags, const char *name, char *why, size_t wl)
{
    unsigned char b[64];
    int e;
    if (rb__preadv2(t->fd, b, sizeof b, t->map_len, flags) >= 0 || errno == EAGAIN) return RB_OK;
    e = errno;
    rb__fmt(why, wl, "the kernel or filesystem refuses preadv2(%s)%s: %s", name,
            flags == RWF_DONTCACHE ? " (uncached reads: Linux 6.14+, ext4, xfs, btrfs...)" : "", strerror(e));
    return e == EOPNOTSUPP || e == EINVAL || e == ENOSYS ? RB_UNSUPPORTED : RB_ESYS;
}

static int rb__open_preadv2(rb_target *t, char *why, size_t wl)
{
    int rc = rb__open_file(t, 0, why, wl);
    if (rc) return rc;
    if (t->s->rwf == RB_RWF_NOWAIT) return rb__preadv2_probe(t, RWF_NOWAIT, "RWF_NOWAIT", why, wl);
    return rb__preadv2_probe(t, RWF_DONTCACHE, "RWF_DONTCACHE", why, wl);
}

static int rb__op_pread_dontcache(rb_worker *w, const uint64_t *off, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++) {
        size_t rs = RB__LEN(w, i);
        uint64_t at;
        int fd = rb_worker_fd_at(w, off[i], &at);
        ssize_t r = rb__preadv2(fd, w->buf, rs, at, RWF_DONTCACHE);
        if (r < 0) rb__read_error(w, errno);
        else if ((size_t)r != rs) w->short_reads++;
        else rb__read_done(w, w->buf, off[i], rs);
    }
    return 0;
}
#else
static int rb__open_preadv2(rb_target *t, char *why, size_t wl)
{
    (void)t;
    rb__fmt(why, wl, "preadv2 with RWF_NOWAIT/RWF_DONTCACHE is Linux-only (and not in this libc's headers)");
    return RB_UNSUPPORTED;
}
#define rb__op_pread_dontcache rb__op_null
#endif

/*
   pread-nowait tries each read with preadv2(RWF_NOWAIT), which copies what is cached and
   answers EAGAIN (or a short read) where it would have to wait for the device. The rest of
   such a read goes to a small pool of helper threads of this worker, which pread it; the
   reader goes on trying the op's other reads meanwhile, and the op ends when the helpers have
   finished its reads. That is the shape of a server that must not block its event loop. Two
   kernel facts shape the numbers: on a miss RWF_NOWAIT starts the readahead before it answers
   EAGAIN (filemap_get_pages), so the helper's pread waits for I/O already started; and a miss
   costs the reader a system call that returns nothing. The result says how many reads were
   served without blocking (nowait_served of nowait_reads, measured iterations only). The
   helpers are part of the worker: their faults, CPU time and device reads are counted with
   its own (their thread ids in w->helper_tid), and they inherit its CPU when pinned. */
#if defined(RB__HAS_PREADV2)
typedef struct rb__nw_task {
    unsigned k;              /* the read of the op */
    uint64_t off;            /* its offset */
    size_t len;              /* its length */
    size_t got;              /* bytes RWF_NOWAIT had copied already */
    ssize_t res;             /* the helper's pread of the rest */
    int err;
} rb__nw_task;

typedef struct rb__nw_pool {
    pthread_mutex_t mu;
    pthread_cond_t work, done;   /* work: a task queued, or quit; done: a task finished or a helper started */
    rb__nw_task *task;           /* this op's hand-offs (reads_per_op of them at most) */
    unsigned queued, taken, finished;
    int quit, ready;             /* ready: mu and the conditions were made (the pool can be torn down) */
    rb_worker *w;
    pthread_t tid[RB_MAX_HELPERS];
    unsigned started, announced;
} rb__nw_pool;

static void *rb__nw_helper(void *arg)
{
    rb__nw_pool *p = (rb__nw_pool *)arg;
    rb_worker *w = p->w;
    size_t rs = (size_t)w->t->cfg->read_size;
    pthread_mutex_lock(&p->mu);
    w->helper_tid[p->announced++] = (int)syscall(SYS_gettid);
    pthread_cond_broadcast(&p->done);
    for (;;) {
        rb__nw_task *t;
        ssize_t r;
        uint64_t at;
        int e, fd;
        while (!p->quit && p->taken == p->queued) pthread_cond_wait(&p->work, &p->mu);
        if (p->quit) break;
        t = &p->task[p->taken++];
        pthread_mutex_unlock(&p->mu);
        fd = rb_worker_fd_at(w, t->off, &at);   /* the worker's target and table: read-only while it runs */
        do r = pread(fd, w->buf + (size_t)t->k * rs + t->got, t->len - t->got, (off_t)(at + t->got));
        while (r < 0 && errno == EINTR);
        e = r < 0 ? errno : 0;
        pthread_mutex_lock(&p->mu);
        t->res = r;
        t->err = e;
        p->finished++;
        pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static void rb__thread_nowait_fini(rb_worker *w)
{
    rb__nw_pool *p = (rb__nw_pool *)w->user;
    unsigned i;
    if (!p) return;
    if (p->ready) {
        pthread_mutex_lock(&p->mu);
        p->quit = 1;
        pthread_cond_broadcast(&p->work);
        pthread_mutex_unlock(&p->mu);
        for (i = 0; i < p->started; i++) pthread_join(p->tid[i], NULL);
        pthread_mutex_destroy(&p->mu);
        pthread_cond_destroy(&p->work);
        pthread_cond_destroy(&p->done);
    }
    free(p->task);
    free(p);
    w->user = NULL;
    w->nhelpers = 0;
}

/* The pool: up to RB_MAX_HELPERS threads (no more than the reads of an op), small stacks
   (a helper only preads), each announcing its thread id before the worker goes on. */
static int rb__thread_nowait(rb_worker *w, char *why, size_t wl)
{
    rb__nw_pool *p = (rb__nw_pool *)calloc(1, sizeof *p);
    unsigned i, n = RB__MIN(RB_MAX_HELPERS, w->t->cfg->reads_per_op);
    pthread_attr_t attr;
    int e = 0;
    if (p) p->task = (rb__nw_task *)calloc(w->buf_len / w->t->cfg->read_size, sizeof *p->task);
    w->user = p;
    if (!p || !p->task) { rb__fmt(why, wl, "out of memory for the helper pool"); return RB_ENOMEM; }
    p->w = w;
    if (pthread_mutex_init(&p->mu, NULL) != 0 || pthread_cond_init(&p->work, NULL) != 0 ||
        pthread_cond_init(&p->done, NULL) != 0) {
        rb__fmt(why, wl, "pthread_mutex_init/pthread_cond_init failed");
        return RB_ESYS;
    }
    p->ready = 1;
    if (pthread_attr_init(&attr) != 0) { rb__fmt(why, wl, "pthread_attr_init failed"); return RB_ESYS; }
    pthread_attr_setstacksize(&attr, (size_t)256 << 10);   /* a failure leaves the default: fine */
    for (i = 0; i < n && e == 0; i++)
        if ((e = pthread_create(&p->tid[i], &attr, rb__nw_helper, p)) == 0) p->started++;
    pthread_attr_destroy(&attr);
    pthread_mutex_lock(&p->mu);
    while (p->announced < p->started) pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
    w->nhelpers = p->started;
    if (e == 0) return RB_OK;
    rb__fmt(why, wl, "pthread_create (helper %u of %u): %s", p->started + 1, n, strerror(e));
    return RB_ESYS;
}

/* Hands the rest of read k to the helpers. */
static void rb__nw_handoff(rb__nw_pool *p, unsigned k, uint64_t off, size_t len, size_t got)
{
    pthread_mutex_lock(&p->mu);
    p->task[p->queued].k = k;
    p->task[p->queued].off = off;
    p->task[p->queued].len = len;
    p->task[p->queued].got = got;
    p->queued++;
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->mu);
}

/* Waits for the op's hand-offs, then counts them as the reader's own reads. */
static void rb__nw_collect(rb_worker *w, rb__nw_pool *p, const uint64_t *off)
{
    size_t rs = (size_t)w->t->cfg->read_size;
    unsigned i;
    pthread_mutex_lock(&p->mu);
    while (p->finished < p->queued) pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
    for (i = 0; i < p->queued; i++) {
        const rb__nw_task *t = &p->task[i];
        if (t->res < 0) rb__read_error(w, t->err);
        else if ((size_t)t->res != t->len - t->got) w->short_reads++;
        else rb__read_done(w, w->buf + (size_t)t->k * rs, off[t->k], t->len);
    }
}

/* One batch: as many reads as the worker has buffer slots (all of an op, up to 4096); they
   are reads base.. of the op (their lengths). */
static void rb__nw_batch(rb_worker *w, rb__nw_pool *p, const uint64_t *off, unsigned base, unsigned n)
{
    size_t rs = (size_t)w->t->cfg->read_size;
    unsigned i;
    pthread_mutex_lock(&p->mu);   /* the helpers are idle: the last batch collected everything */
    p->queued = p->taken = p->finished = 0;
    pthread_mutex_unlock(&p->mu);
    for (i = 0; i < n; i++) {
        unsigned char *buf = w->buf + (size_t)i * rs;
        size_t len = RB__LEN(w, base + i);
        uint64_t at;
        int fd = rb_worker_fd_at(w, off[i], &at);
        ssize_t r = rb__preadv2(fd, buf, len, at, RWF_NOWAIT);
        if (w->measuring) w->nowait_reads++;
        if (r >= 0 && (size_t)r == len) {
            if (w->measuring) w->nowait_served++;
            rb__read_done(w, buf, off[i], len);
        } else if (r >= 0 || errno == EAGAIN) {
            rb__nw_handoff(p, i, off[i], len, r > 0 ? (size_t)r : 0);   /* would block: the rest to a helper */
        } else {
            rb__read_error(w, errno);
        }
    }
    if (p->queued) rb__nw_collect(w, p, off);
}

static int rb__op_pread_nowait(rb_worker *w, const uint64_t *off, unsigned n)
{
    unsigned slots = (unsigned)(w->buf_len / w->t->cfg->read_size), done;
    for (done = 0; done < n; done += slots)
        rb__nw_batch(w, (rb__nw_pool *)w->user, off + done, done, RB__MIN(n - done, slots));
    return 0;
}
#else
#define rb__thread_nowait NULL
#define rb__thread_nowait_fini NULL
#define rb__op_pread_nowait rb__op_null
#endif

/*
   A ring per thread; the op's reads are submitted in one io_uring_enter and all reaped
   before the op ends, so an op is a batch at queue depth reads_per_op. */
#if defined(RB__HAS_URING)
#define RB__URING_MAX 4096u
/* io_uring_submit_and_wait, unless a test puts its own in (RB_TEST_URING_SUBMIT: one that
   makes the kernel take fewer entries than were queued, which a real kernel does rarely). */
#ifndef RB_TEST_URING_SUBMIT
#define RB_TEST_URING_SUBMIT io_uring_submit_and_wait
#endif

/* A worker's ring, set up as fio 3.33's io_uring engine sets up its own (strace shows
   COOP_TASKRUN | SINGLE_ISSUER | DEFER_TASKRUN): one thread submits and reaps, so completions
   are processed when it asks for them rather than by an interrupt of whatever it runs. Without
   them a depth-16 O_DIRECT reader here made 0.82 of fio's reads/s; with them 1.09 (medians of 8
   alternating 3 s turns, noisy). A kernel older than 6.1 refuses the flags (EINVAL): the ring is
   made without them. Made and used only by the worker thread, as SINGLE_ISSUER requires. */
static int rb__ring_init(unsigned depth, struct io_uring *ring)
{
    int r = -EINVAL;
#if defined(IORING_SETUP_DEFER_TASKRUN) && defined(IORING_SETUP_SINGLE_ISSUER) && defined(IORING_SETUP_COOP_TASKRUN)
    r = io_uring_queue_init(depth, ring, IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN);
#endif
    return r == -EINVAL ? io_uring_queue_init(depth, ring, 0) : r;
}

static int rb__open_uring(rb_target *t, char *why, size_t wl)
{
    struct io_uring ring;
    int rc, r;
    if (t->s->flags & RB_S_DIRECT) {
        rc = rb__open_direct(t, why, wl);
    } else {
        rc = rb__open_file(t, 0, why, wl);
    }
    if (rc) return rc;
    r = io_uring_queue_init(4, &ring, 0);   /* disabled kernels say ENOSYS or EPERM here */
    if (r < 0) {
        rb__fmt(why, wl, "io_uring_queue_init: %s", strerror(-r));
        return RB_UNSUPPORTED;
    }
    io_uring_queue_exit(&ring);
    return RB_OK;
}

static int rb__thread_uring(rb_worker *w, char *why, size_t wl)
{
    struct io_uring *ring = (struct io_uring *)calloc(1, sizeof *ring);
    unsigned depth = RB__MIN(w->t->cfg->reads_per_op, RB__URING_MAX);
    int r;
    if (!ring) { rb__fmt(why, wl, "out of memory"); return RB_ENOMEM; }
    r = rb__ring_init(depth, ring);
    if (r < 0) {
        rb__fmt(why, wl, "io_uring_queue_init(%u): %s", depth, strerror(-r));
        free(ring);
        return RB_UNSUPPORTED;
    }
    w->ring = ring;
    return RB_OK;
}

static void rb__thread_uring_fini(rb_worker *w)
{
    if (w->ring) {
        io_uring_queue_exit((struct io_uring *)w->ring);
        free(w->ring);
        w->ring = NULL;
    }
}

static int rb__op_uring(rb_worker *w, const uint64_t *off, unsigned n)
{
    struct io_uring *ring = (struct io_uring *)w->ring;
    size_t rs = (size_t)w->t->cfg->read_size;
    unsigned done = 0;
    while (done < n) {
        unsigned batch = RB__MIN(n - done, RB__URING_MAX), i, reaped = 0, submitted = 0, stalls = 0;
        int r;
        for (i = 0; i < batch; i++) {
            struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
            uint64_t at;
            int fd = rb_worker_fd_at(w, off[done + i], &at);
            if (!sqe) { rb__read_error(w, EBUSY); return -1; }   /* the ring holds a whole batch: never */
            io_uring_prep_read(sqe, fd, w->buf + (size_t)i * rs, (unsigned)RB__LEN(w, done + i), at);
            io_uring_sqe_set_data64(sqe, i);
        }
        /* The kernel may take fewer entries than were queued (io_uring_enter returns how many
           it took: short of memory, or -EAGAIN/-EBUSY with completions to reap first). Waiting
           for `batch` completions after a short submit would wait forever: wait only for what
           was submitted, and submit the rest (still queued in the ring) as it goes. */
        while (reaped < batch) {
            struct io_uring_cqe *cqe;
            unsigned k;
            if (submitted < batch) {
                r = RB_TEST_URING_SUBMIT(ring, 0);   /* io_uring_submit: takes, does not wait */
                if (r > 0) submitted += (unsigned)r;
                else if (r < 0 && r != -EINTR && r != -EAGAIN && r != -EBUSY) { rb__read_error(w, -r); return -1; }
                if (reaped == submitted) {   /* nothing in flight to wait for: try again, bounded */
                    if (++stalls > 1000) { rb__read_error(w, r < 0 ? -r : EAGAIN); return -1; }
                    continue;
                }
            }
            r = io_uring_wait_cqe(ring, &cqe);
            if (r == -EINTR) continue;
            if (r < 0) { rb__read_error(w, -r); return -1; }
            k = (unsigned)io_uring_cqe_get_data64(cqe);
            if (cqe->res < 0) rb__read_error(w, -cqe->res);
            else if ((size_t)cqe->res != RB__LEN(w, done + k)) w->short_reads++;
            else {
                w->sink += w->buf[(size_t)k * rs];
                if (w->t->cfg->verify) rb_worker_check(w, w->buf + (size_t)k * rs, off[done + k], RB__LEN(w, done + k));
            }
            io_uring_cqe_seen(ring, cqe);
            reaped++;
        }
        done += batch;
    }
    return 0;
}
#else
static int rb__open_uring(rb_target *t, char *why, size_t wl)
{
    (void)t;
    rb__fmt(why, wl, "%s", RB__NO_URING_WHY);
    return RB_UNSUPPORTED;
}
#define rb__thread_uring NULL
#define rb__thread_uring_fini NULL
#define rb__op_uring rb__op_null
#endif

/*
   fio's iodepth: the ring is kept at cfg.iodepth reads in flight across op boundaries. An op
   hands its n offsets to the ring as slots free up (each completion frees a slot and the next
   read is queued at once) and ends when its last read is submitted; its reads complete while
   the next op queues. In steady state an op is the time the device takes for n reads at depth
   N. Each read's own latency, from queueing to reaping (fio's slat + clat), goes to the
   per-read histogram. At a phase's end (w->phase_end) the reads in flight are reaped and not
   counted: nothing of a warmup lands in an iteration, or after an eviction. */
#if defined(RB__HAS_URING)
typedef struct rb__qd {
    struct io_uring ring;
    unsigned depth, nfree, pending, inflight;   /* pending: queued, not yet taken by the kernel */
    unsigned *free;          /* free buffer slots, a stack */
    uint64_t *slot_off;      /* per slot: the offset it reads */
    size_t *slot_len;        /* per slot: how many bytes */
    uint64_t *slot_t0;       /* per slot: when its read was queued */
    int ring_ready;
} rb__qd;

static void rb__qd_free(rb__qd *q)
{
    if (!q) return;
    if (q->ring_ready) io_uring_queue_exit(&q->ring);
    free(q->free);
    free(q->slot_off);
    free(q->slot_len);
    free(q->slot_t0);
    free(q);
}

/* A completion: its slot goes back to the stack; its read is checked and timed. */
static void rb__qd_complete(rb_worker *w, rb__qd *q, const struct io_uring_cqe *cqe)
{
    unsigned k = (unsigned)io_uring_cqe_get_data64(cqe);
    size_t rs = (size_t)w->t->cfg->read_size;
    uint64_t now = rb__now_ns();
    if (cqe->res < 0) rb__read_error(w, -cqe->res);
    else if ((size_t)cqe->res != q->slot_len[k]) w->short_reads++;
    else {
        rb__read_done(w, w->buf + (size_t)k * rs, q->slot_off[k], q->slot_len[k]);
        if (w->measuring && w->read_lat) rb_hist_record(w->read_lat, now - q->slot_t0[k]);
    }
    q->inflight--;
    q->free[q->nfree++] = k;
}

/* Waits for one completion when `wait`, then takes every one that is ready. */
static int rb__qd_reap(rb_worker *w, rb__qd *q, int wait)
{
    struct io_uring_cqe *cqe;
    int r;
    if (wait) {
        do r = io_uring_wait_cqe(&q->ring, &cqe); while (r == -EINTR);
        if (r < 0) { rb__read_error(w, -r); return -1; }
    }
    while (io_uring_peek_cqe(&q->ring, &cqe) == 0) {
        rb__qd_complete(w, q, cqe);
        io_uring_cqe_seen(&q->ring, cqe);
    }
    return 0;
}

/* Submits what is queued. The kernel may take fewer (short of memory, or -EAGAIN/-EBUSY with
   completions to reap first): the rest stay queued in the ring for the next call, and with
   nothing in flight to wait for it retries, bounded, as rb__op_uring does. */
static int rb__qd_submit(rb_worker *w, rb__qd *q)
{
    unsigned stalls = 0;
    while (q->pending) {
        int r = io_uring_submit(&q->ring);
        if (r > 0) {
            unsigned took = RB__MIN((unsigned)r, q->pending);
            q->pending -= took;
            q->inflight += took;
            w->inflight_max = RB__MAX(w->inflight_max, q->inflight);
            continue;
        }
        if (r < 0 && r != -EINTR && r != -EAGAIN && r != -EBUSY) { rb__read_error(w, -r); return -1; }
        if (q->inflight) return 0;
        if (++stalls > 1000) { rb__read_error(w, r < 0 ? -r : EAGAIN); return -1; }
    }
    return 0;
}

static int rb__qd_queue(rb_worker *w, rb__qd *q, uint64_t off, size_t len)
{
    size_t rs = (size_t)w->t->cfg->read_size;
    struct io_uring_sqe *sqe = io_uring_get_sqe(&q->ring);
    unsigned k;
    uint64_t at;
    int fd = rb_worker_fd_at(w, off, &at);
    if (!sqe) { rb__read_error(w, EBUSY); return -1; }   /* the ring has an entry per slot: never */
    k = q->free[--q->nfree];
    io_uring_prep_read(sqe, fd, w->buf + (size_t)k * rs, (unsigned)len, at);
    io_uring_sqe_set_data64(sqe, k);
    q->slot_off[k] = off;
    q->slot_len[k] = len;
    q->slot_t0[k] = rb__now_ns();
    q->pending++;
    return 0;
}

static int rb__op_uring_qd(rb_worker *w, const uint64_t *off, unsigned n)
{
    rb__qd *q = (rb__qd *)w->ring;
    unsigned i = 0;
    while (i < n) {
        for (; i < n && q->nfree; i++)
            if (rb__qd_queue(w, q, off[i], RB__LEN(w, i)) != 0) return -1;
        if (rb__qd_submit(w, q) != 0) return -1;
        if (i < n && rb__qd_reap(w, q, q->nfree == 0) != 0) return -1;
    }
    return 0;
}

/* The phase is over: submit what is queued, reap everything in flight (not timed). */
static void rb__qd_drain(rb_worker *w)
{
    rb__qd *q = (rb__qd *)w->ring;
    if (!q || rb__qd_submit(w, q) != 0) return;
    while (q->inflight && rb__qd_reap(w, q, 1) == 0) {}
}

static void rb__thread_uring_qd_fini(rb_worker *w)
{
    rb__qd_drain(w);
    rb__qd_free((rb__qd *)w->ring);
    w->ring = NULL;
}

static int rb__thread_uring_qd(rb_worker *w, char *why, size_t wl)
{
    unsigned depth = w->t->cfg->iodepth, i;
    rb__qd *q = (rb__qd *)calloc(1, sizeof *q);
    int r;
    if (q) {
        q->free = (unsigned *)malloc(depth * sizeof *q->free);
        q->slot_off = (uint64_t *)malloc(depth * sizeof *q->slot_off);
        q->slot_len = (size_t *)malloc(depth * sizeof *q->slot_len);
        q->slot_t0 = (uint64_t *)malloc(depth * sizeof *q->slot_t0);
    }
    if (!q || !q->free || !q->slot_off || !q->slot_len || !q->slot_t0) {
        rb__qd_free(q);
        rb__fmt(why, wl, "out of memory");
        return RB_ENOMEM;
    }
    r = rb__ring_init(depth, &q->ring);
    if (r < 0) {
        rb__qd_free(q);
        rb__fmt(why, wl, "io_uring_queue_init(%u): %s", depth, strerror(-r));
        return RB_UNSUPPORTED;
    }
    q->ring_ready = 1;
    q->depth = depth;
    for (i = 0; i < depth; i++) q->free[q->nfree++] = depth - 1 - i;
    w->ring = q;
    w->phase_end = rb__qd_drain;
    return RB_OK;
}
#else
#define rb__thread_uring_qd NULL
#define rb__thread_uring_qd_fini NULL
#define rb__op_uring_qd rb__op_null
#endif

/*
   No I/O at all: what remains is the harness (offsets, clock, histogram, epoch check). It
   opens the file only to draw offsets from the same range as the others. */
static int rb__op_null(rb_worker *w, const uint64_t *off, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++) w->sink += off[i];
    return 0;
}

/* A failed unmap or close does not change the number, but nothing fails silently: it goes
   into the cell's warnings (or the log, for a probe that has no result). */
static void rb__close_target(rb_target *t)
{
    unsigned i;
    if (t->map && munmap(t->map, (size_t)t->map_len) != 0) {   /* a directory's files: every one */
        if (t->res) rb__warn(t->res, "munmap of the file's mapping: %s", strerror(errno));
        else rb__log(t->cfg, "munmap: %s", strerror(errno));
    }
    if (t->files) t->fd = -1;   /* the first file's, closed below */
    for (i = 0; i < t->nfiles && t->files; i++) {
        if (t->files[i].fd >= 0 && close(t->files[i].fd) != 0) {
            if (t->res) rb__warn(t->res, "close of %s: %s", t->files[i].path, strerror(errno));
            else rb__log(t->cfg, "close of %s: %s", t->files[i].path, strerror(errno));
        }
        t->files[i].fd = -1;
    }
    if (t->fd >= 0 && close(t->fd) != 0) {
        if (t->res) rb__warn(t->res, "close of the file: %s", strerror(errno));
        else rb__log(t->cfg, "close: %s", strerror(errno));
    }
    t->map = NULL;
    t->fd = -1;
}

/* The table. A row never disappears: compiled out or refused here, it says why. Adding a
   strategy is adding a row (and a read_op); the runner, reports, CLI and tests take it up. */
/* name, summary, flags; advice, hint, policy, rwf, arg; open, thread_init, read_op, thread_fini, close */
static const rb_strategy rb__strategy_table[] = {
    {"mmap", "memcpy from a mapping with no advice (MADV_NORMAL: read-around on faults)",
     RB_S_MMAP, RB_ADVICE_NORMAL, RB_HINT_NONE, 0, 0, 0, rb__open_mmap, NULL, rb__op_mmap, NULL, rb__close_target},
    {"mmap-random", "memcpy from its own mapping advised MADV_RANDOM (no readahead)",
     RB_S_MMAP, RB_ADVICE_RANDOM, RB_HINT_NONE, 0, 0, 0, rb__open_mmap, NULL, rb__op_mmap, NULL, rb__close_target},
    {"mmap-sequential", "memcpy from its own mapping advised MADV_SEQUENTIAL",
     RB_S_MMAP, RB_ADVICE_SEQUENTIAL, RB_HINT_NONE, 0, 0, 0, rb__open_mmap, NULL, rb__op_mmap, NULL, rb__close_target},
    {"mmap-willneed", "NORMAL mapping; page-aligned MADV_WILLNEED for every read of the op, then the reads",
     RB_S_MMAP, RB_ADVICE_NORMAL, RB_HINT_MADVISE, RB_PF_ALWAYS, 0, 0, rb__open_mmap, NULL, rb__op_mmap, NULL,
     rb__close_target},
    {"mmap-random-willneed", "MADV_RANDOM mapping; page-aligned MADV_WILLNEED for every read, then the reads",
     RB_S_MMAP, RB_ADVICE_RANDOM, RB_HINT_MADVISE, RB_PF_ALWAYS, 0, 0, rb__open_mmap, NULL, rb__op_mmap, NULL,
     rb__close_target},
    {"mmap-backoff", "NORMAL mapping; WILLNEED through Lucene's power-of-two backoff and mincore gate, a counter per thread (#13381)",
     RB_S_MMAP, RB_ADVICE_NORMAL, RB_HINT_MADVISE, RB_PF_BACKOFF, 0, 0, rb__open_mmap, NULL, rb__op_mmap, NULL,
     rb__close_target},
    {"mmap-random-backoff", "MADV_RANDOM mapping; WILLNEED through Lucene's backoff, a counter per thread (#13381)",
     RB_S_MMAP, RB_ADVICE_RANDOM, RB_HINT_MADVISE, RB_PF_BACKOFF, 0, 0, rb__open_mmap, NULL, rb__op_mmap, NULL,
     rb__close_target},
    {"mmap-backoff-shared", "NORMAL mapping; WILLNEED through Lucene's backoff, one atomic counter for all threads (#15585)",
     RB_S_MMAP, RB_ADVICE_NORMAL, RB_HINT_MADVISE, RB_PF_BACKOFF_SHARED, 0, 0, rb__open_mmap, NULL, rb__op_mmap, NULL,
     rb__close_target},
    {"mmap-random-backoff-shared", "MADV_RANDOM mapping; WILLNEED through Lucene's backoff, one atomic counter (#15585)",
     RB_S_MMAP, RB_ADVICE_RANDOM, RB_HINT_MADVISE, RB_PF_BACKOFF_SHARED, 0, 0, rb__open_mmap, NULL, rb__op_mmap, NULL,
     rb__close_target},
    {"mmap-adaptive", "NORMAL mapping; WILLNEED when this thread's estimated miss rate says it pays",
     RB_S_MMAP, RB_ADVICE_NORMAL, RB_HINT_MADVISE, RB_PF_ADAPTIVE, 0, 0, rb__open_mmap, NULL, rb__op_mmap, NULL,
     rb__close_target},
    {"mmap-random-adaptive", "MADV_RANDOM mapping; WILLNEED when the estimated miss rate says it pays",
     RB_S_MMAP, RB_ADVICE_RANDOM, RB_HINT_MADVISE, RB_PF_ADAPTIVE, 0, 0, rb__open_mmap, NULL, rb__op_mmap, NULL,
     rb__close_target},
    {"mmap-populate", "NORMAL mapping; MADV_POPULATE_READ (a synchronous prefault) on every read's range, then the reads",
     RB_S_MMAP | RB_S_OPTIONAL, RB_ADVICE_NORMAL, RB_HINT_POPULATE, 0, 0, 0, rb__open_mmap_populate, NULL,
     rb__op_mmap, NULL, rb__close_target},
    {"pread", "pread(2) into the thread's buffer, one shared descriptor",
     0, 0, RB_HINT_NONE, 0, 0, 0, rb__open_pread, NULL, rb__op_pread, NULL, rb__close_target},
    {"read", "lseek + read on a per-thread descriptor (fio's sync engine)",
     0, 0, RB_HINT_NONE, 0, 0, 0, rb__open_pread, rb__thread_own_fd, rb__op_read, rb__thread_close_fd, rb__close_target},
    {"pread-fadvise", "posix_fadvise(WILLNEED) on every read's page-aligned range of the op, then the preads",
     RB_S_OPTIONAL, 0, RB_HINT_FADVISE, RB_PF_ALWAYS, 0, 0, rb__open_pread_fadvise, NULL, rb__op_pread, NULL,
     rb__close_target},
    {"pread-nowait", "preadv2(RWF_NOWAIT); a read that would block goes to the worker's helper threads",
     RB_S_OPTIONAL | RB_S_BATCH, 0, RB_HINT_NONE, 0, RB_RWF_NOWAIT, 0, rb__open_preadv2, rb__thread_nowait,
     rb__op_pread_nowait, rb__thread_nowait_fini, rb__close_target},
    {"pread-dontneed", "pread, then posix_fadvise(DONTNEED) on each read's pages: a scan that gives back what it read",
     0, 0, RB_HINT_NONE, 0, 0, 0, rb__open_pread, NULL, rb__op_pread_dontneed, NULL, rb__close_target},
    {"pread-dontcache", "preadv2(RWF_DONTCACHE): buffered, the pages it loaded dropped after the copy (6.14+)",
     RB_S_OPTIONAL, 0, RB_HINT_NONE, 0, RB_RWF_DONTCACHE, 0, rb__open_preadv2, NULL, rb__op_pread_dontcache, NULL,
     rb__close_target},
    {"direct", "pread with O_DIRECT (F_NOCACHE on macOS): page-aligned buffer, offsets and size",
     RB_S_DIRECT, 0, RB_HINT_NONE, 0, 0, 0, rb__open_direct, NULL, rb__op_pread, NULL, rb__close_target},
    {"io_uring", "a ring per thread; the op's reads submitted together, then all reaped",
     RB_S_OPTIONAL | RB_S_BATCH, 0, RB_HINT_NONE, 0, 0, 0, rb__open_uring, rb__thread_uring, rb__op_uring,
     rb__thread_uring_fini, rb__close_target},
    {"io_uring-direct", "io_uring with O_DIRECT",
     RB_S_OPTIONAL | RB_S_BATCH | RB_S_DIRECT, 0, RB_HINT_NONE, 0, 0, 0, rb__open_uring, rb__thread_uring,
     rb__op_uring, rb__thread_uring_fini, rb__close_target},
    {"io_uring-qd", "a ring per thread kept at iodepth reads in flight across ops (fio's iodepth)",
     RB_S_OPTIONAL | RB_S_QUEUE, 0, RB_HINT_NONE, 0, 0, 0, rb__open_uring, rb__thread_uring_qd, rb__op_uring_qd,
     rb__thread_uring_qd_fini, rb__close_target},
    {"io_uring-qd-direct", "io_uring-qd with O_DIRECT",
     RB_S_OPTIONAL | RB_S_QUEUE | RB_S_DIRECT, 0, RB_HINT_NONE, 0, 0, 0, rb__open_uring, rb__thread_uring_qd,
     rb__op_uring_qd, rb__thread_uring_qd_fini, rb__close_target},
    {"null", "no I/O: the harness's own cost per op (offsets, clock, histogram)",
     RB_S_NOIO, 0, RB_HINT_NONE, 0, 0, 0, rb__open_pread, NULL, rb__op_null, NULL, rb__close_target},
};

RBDEF const rb_strategy *rb_strategies(unsigned *count)
{
    if (count) *count = (unsigned)(sizeof rb__strategy_table / sizeof rb__strategy_table[0]);
    return rb__strategy_table;
}

RBDEF const rb_strategy *rb_strategy_find(const char *name)
{
    unsigned i, n;
    const rb_strategy *s = rb_strategies(&n);
    for (i = 0; name && i < n; i++)
        if (strcmp(s[i].name, name) == 0) return &s[i];
    return NULL;
}

/* ==== 1.10 files: content, setup, outputs, directories ======================================== */

/*
   Word i of the file (bytes 8i..8i+7, little-endian) is a pure function of (seed, i):
   setup needs no /dev/urandom, the data is incompressible and never a hole, and any byte
   read later can be checked without keeping a copy. */
RBDEF uint64_t rb_data_word(uint64_t data_seed, uint64_t index)
{
    return rb__mix64(data_seed + (index + 1) * 0x9e3779b97f4a7c15ULL);
}

/* FNV-1a of the name, mixed with the seed: part-0001 and part-0002 hold different bytes. */
RBDEF uint64_t rb_file_seed(uint64_t data_seed, const char *name)
{
    const char *slash = name ? strrchr(name, '/') : NULL;
    const unsigned char *p = (const unsigned char *)(slash ? slash + 1 : name ? name : "");
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; *p; p++) h = (h ^ *p) * 0x100000001b3ULL;
    return rb__mix64(data_seed ^ rb__mix64(h));
}

static int rb__little_endian(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

RBDEF void rb_fill_pattern(void *buf, uint64_t off, size_t len, uint64_t data_seed)
{
    unsigned char *p = (unsigned char *)buf;
    uint64_t i = off / 8;
    size_t k, skip = (size_t)(off % 8);
    if (skip == 0 && rb__little_endian()) {   /* the fast path setup takes */
        for (; len >= 8; len -= 8, p += 8, i++) {
            uint64_t w = rb_data_word(data_seed, i);
            memcpy(p, &w, 8);
        }
    }
    while (len > 0) {
        uint64_t w = rb_data_word(data_seed, i++);
        for (k = skip; k < 8 && len > 0; k++, len--) *p++ = (unsigned char)(w >> (8 * k));
        skip = 0;
    }
}

/*
   A user's files are sacred: nothing readbench writes may land on an input, and a file is
   replaced only atomically and only if it is a regular file. One mechanism does all of it
   (setup, reports, charts): open a temporary file beside the target (same directory, so the
   same filesystem, so rename() is atomic), write, fsync, rename over the target, fsync the
   directory (so the rename itself survives a crash). A failure or a signal before the rename
   removes the temporary and leaves the target byte-identical. Signals are held while the
   temporary is removed, so a second Ctrl-C cannot cut the cleanup short.
   A character device or FIFO (/dev/null, /dev/stdout into a pipe) is a stream, not a file:
   it is written in place when the caller allows it, never renamed over or unlinked. A
   symlink as the last component is refused unless the caller asks to follow it: replacing
   the link would cut it off its target, and writing through it may reach anything. */
static const char *rb__file_kind(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : S_ISLNK(m) ? "a symbolic link"
         : "of an unknown type";
}

static void rb__hold_signals(sigset_t *old)
{
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, old);   /* fails only for an invalid `how` */
}

static void rb__release_signals(const sigset_t *old) { pthread_sigmask(SIG_SETMASK, old, NULL); }

/* The directory part of path into dir ("." when there is none), the last component at *base;
   -1 when there is no last component ("dir/") or dir does not fit. */
static int rb__split_path(const char *path, char *dir, size_t len, const char **base)
{
    const char *slash = strrchr(path, '/');
    size_t n;
    if (!slash) {
        snprintf(dir, len, ".");
        *base = path;
        return *path ? 0 : -1;
    }
    n = slash == path ? 1 : (size_t)(slash - path);
    if (n >= len) return -1;
    memcpy(dir, path, n);
    dir[n] = 0;
    *base = slash + 1;
    return **base ? 0 : -1;
}

RBDEF int rb_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    char da[4096], db[4096];
    const char *ba, *bb;
    int ea, eb;
    if (!a || !b) return 0;
    ea = stat(a, &sa);
    eb = stat(b, &sb);
    if (ea == 0 && eb == 0) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (ea == 0 || eb == 0) return 0;
    /* two outputs not created yet: `x` and `./x` will be the same file */
    if (rb__split_path(a, da, sizeof da, &ba) || rb__split_path(b, db, sizeof db, &bb)) return 0;
    if (strcmp(ba, bb) != 0 || stat(da, &sa) != 0 || stat(db, &sb) != 0) return 0;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Where a write to path goes: o->path is path itself, or a followed symlink's regular target.
   st receives what is there now (st_mode 0: nothing yet). */
static int rb__outfile_target(rb_outfile *o, const char *path, int flags, struct stat *st, rb_error *err)
{
    char sp[RB__PATH_SHOWN], sl[RB__PATH_SHOWN];   /* the path and the link's target, as messages show them */
    char link[1024];
    ssize_t n;
    char *real;
    memset(st, 0, sizeof *st);
    if (strlen(path) >= sizeof o->path) {
        rb__seterr(err, RB_EINVAL, ENAMETOOLONG, "", "%s: path too long", rb__short_path(path, sp));
        return RB_EINVAL;
    }
    snprintf(o->path, sizeof o->path, "%s", path);
    if (lstat(path, st) != 0) {
        if (errno == ENOENT) { memset(st, 0, sizeof *st); return RB_OK; }
        rb__seterr(err, RB_ESYS, errno, "lstat", "cannot stat %s: %s", rb__short_path(path, sp), strerror(errno));
        return RB_ESYS;
    }
    if (!S_ISLNK(st->st_mode)) return RB_OK;
    if ((n = readlink(path, link, sizeof link - 1)) < 0) {
        rb__seterr(err, RB_ESYS, errno, "readlink", "cannot read the link %s: %s", rb__short_path(path, sp),
                   strerror(errno));
        return RB_ESYS;
    }
    link[n] = 0;
    if (!(flags & RB_OUT_FOLLOW)) {
        rb__seterr(err, RB_ENOTREG, 0, "lstat", "%s is a symbolic link to %s: neither replaced nor written through",
                   rb__short_path(path, sp), rb__short_path(link, sl));
        return RB_ENOTREG;
    }
    if (stat(path, st) != 0) {
        rb__seterr(err, errno == ENOENT ? RB_ENOTREG : RB_ESYS, errno, "stat", "%s is a symbolic link to %s: %s",
                   rb__short_path(path, sp), rb__short_path(link, sl), strerror(errno));
        return errno == ENOENT ? RB_ENOTREG : RB_ESYS;
    }
    /* a device or FIFO behind the link (/dev/stdout -> /proc/self/fd/1 -> pipe:[...]) is
       opened by the link's own name: the kernel follows /proc's links, realpath() cannot */
    if (!S_ISREG(st->st_mode)) return RB_OK;
    if (!(real = realpath(path, NULL)) || strlen(real) >= sizeof o->path) {
        rb__seterr(err, RB_ESYS, real ? ENAMETOOLONG : errno, "realpath", "cannot resolve the link %s: %s",
                   rb__short_path(path, sp),
                   strerror(real ? ENAMETOOLONG : errno));
        free(real);
        return RB_ESYS;
    }
    snprintf(o->path, sizeof o->path, "%s", real);
    free(real);
    return RB_OK;
}

/* A character device or FIFO, written in place. O_NONBLOCK: a FIFO that nobody reads would
   block open() forever; ENXIO says so instead. */
static int rb__outfile_stream(rb_outfile *o, rb_error *err)
{
    char sp[RB__PATH_SHOWN];   /* the path as messages show it (rb__short_path) */
    struct stat st;
    int fl, e;
    o->fd = open(o->path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (o->fd < 0) {
        e = errno;
        rb__seterr(err, RB_ESYS, e, "open", "cannot write %s: %s", rb__short_path(o->path, sp),
                   e == ENXIO ? "no process reads that FIFO" : strerror(e));
        return RB_ESYS;
    }
    if (fstat(o->fd, &st) != 0 || (fl = fcntl(o->fd, F_GETFL)) < 0 || fcntl(o->fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        e = errno;
        close(o->fd);
        o->fd = -1;
        rb__seterr(err, RB_ESYS, e, "fcntl", "cannot write %s: %s", rb__short_path(o->path, sp), strerror(e));
        return RB_ESYS;
    }
    if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode)) {   /* swapped since the lstat */
        close(o->fd);
        o->fd = -1;
        rb__seterr(err, RB_ENOTREG, 0, "fstat", "%s changed while it was opened (now %s)", rb__short_path(o->path, sp),
                   rb__file_kind(st.st_mode));
        return RB_ENOTREG;
    }
    o->stream = 1;
    return RB_OK;
}

/* The temporary beside o->path: ".NAME.rb-XXXXXX", created exclusively (never an existing
   file, never through a link). old: the file it will replace (NULL: none), whose permissions
   it keeps whatever the umask, and its owner where this process may give a file away (root;
   anyone else gets EPERM and keeps their own, as cp does). */
static int rb__outfile_temp(rb_outfile *o, const struct stat *old, rb_error *err)
{
    char sp[RB__PATH_SHOWN];   /* the path as messages show it (rb__short_path) */
    char dir[4096];
    const char *base;
    unsigned i;
    int e;
    uint64_t r = rb__mix64(rb__now_ns() ^ ((uint64_t)getpid() << 32));
    if (rb__split_path(o->path, dir, sizeof dir, &base) != 0) {
        rb__seterr(err, RB_EINVAL, 0, "", "%s is not a file name", rb__short_path(o->path, sp));
        return RB_EINVAL;
    }
    for (i = 0; i < 100; i++, r = rb__mix64(r)) {
        snprintf(o->tmp, sizeof o->tmp, "%s/.%.200s.rb-%06llx", dir, base, (unsigned long long)(r & 0xffffff));
        o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, old ? 0600 : 0666);
        if (o->fd >= 0 || errno != EEXIST) break;
    }
    if (o->fd < 0) {
        e = errno;
        o->tmp[0] = 0;
        rb__seterr(err, e == EACCES || e == EROFS ? RB_EPERM : RB_ESYS, e, "open", "cannot write %s: %s",
                   rb__short_path(o->path, sp),
                   strerror(e));
        return err ? err->status : RB_ESYS;
    }
    if (old && ((fchown(o->fd, old->st_uid, old->st_gid) != 0 && errno != EPERM) ||
                fchmod(o->fd, old->st_mode & 07777) != 0)) {
        e = errno;
        rb_outfile_abort(o, NULL);
        rb__seterr(err, RB_ESYS, e, "fchmod", "cannot write %s: %s", rb__short_path(o->path, sp), strerror(e));
        return RB_ESYS;
    }
    return RB_OK;
}

RBDEF int rb_outfile_open(rb_outfile *o, const char *path, int flags, rb_error *err)
{
    char sp[RB__PATH_SHOWN];   /* the path as messages show it (rb__short_path) */
    struct stat st;
    int rc;
    memset(o, 0, sizeof *o);
    o->fd = -1;
    o->flags = flags;
    if (!path || !*path) {
        rb__seterr(err, RB_EINVAL, EINVAL, "", "no file name given");
        return RB_EINVAL;
    }
    if ((rc = rb__outfile_target(o, path, flags, &st, err)) != RB_OK) return rc;
    if (!st.st_mode) return rb__outfile_temp(o, NULL, err);
    if ((S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) && (flags & RB_OUT_STREAM)) return rb__outfile_stream(o, err);
    if (!S_ISREG(st.st_mode)) {
        rb__seterr(err, RB_ENOTREG, 0, "lstat", "%s is %s, not a regular file: only regular files are created "
                   "or replaced", rb__short_path(path, sp), rb__file_kind(st.st_mode));
        return RB_ENOTREG;
    }
    if (!(flags & RB_OUT_REPLACE)) {
        rb__seterr(err, RB_EEXIST, EEXIST, "open", "%s exists (left as it is)", rb__short_path(path, sp));
        return RB_EEXIST;
    }
    return rb__outfile_temp(o, &st, err);
}

/* The temporary takes the target's name. Without RB_OUT_REPLACE, link() (which fails when
   the name was taken meanwhile) instead of rename() (which would replace it); where links
   are not supported, a last check and rename(). */
static int rb__outfile_place(rb_outfile *o, rb_error *err)
{
    char sp[RB__PATH_SHOWN], st_[RB__PATH_SHOWN];   /* the path and the temporary, as messages show them */
    struct stat st;
    int e;
    if (!(o->flags & RB_OUT_REPLACE)) {
        if (link(o->tmp, o->path) == 0) {
            if (unlink(o->tmp) != 0) {
                rb__seterr(err, RB_ESYS, errno, "unlink", "wrote %s, but cannot remove the temporary %s: %s",
                           rb__short_path(o->path, sp), rb__short_path(o->tmp, st_), strerror(errno));
                return RB_ESYS;
            }
            return RB_OK;
        }
        e = errno;
        if (e == EEXIST || lstat(o->path, &st) == 0) {
            rb__seterr(err, RB_EEXIST, EEXIST, "link", "%s was created by another process meanwhile (left as it is)",
                       rb__short_path(o->path, sp));
            return RB_EEXIST;
        }
        if (e != EPERM && e != ENOTSUP && e != EOPNOTSUPP && e != EMLINK && e != ENOSYS) {
            rb__seterr(err, RB_ESYS, e, "link", "cannot create %s: %s", rb__short_path(o->path, sp), strerror(e));
            return RB_ESYS;
        }
    }
    if (rename(o->tmp, o->path) != 0) {
        rb__seterr(err, RB_ESYS, errno, "rename", "cannot rename %s to %s: %s", rb__short_path(o->tmp, st_),
                   rb__short_path(o->path, sp), strerror(errno));
        return RB_ESYS;
    }
    return RB_OK;
}

/* fsync of the directory makes the rename durable. A filesystem that cannot sync a
   directory answers EINVAL: the rename is done all the same, so that is no failure. */
static int rb__fsync_dir(const char *path, rb_error *err)
{
    char sp[RB__PATH_SHOWN], sd[RB__PATH_SHOWN];   /* the path and its directory, as messages show them */
    char dir[4096];
    const char *base;
    int fd, e = 0;
    if (rb__split_path(path, dir, sizeof dir, &base) != 0) return RB_OK;
    if ((fd = open(dir, O_RDONLY | O_CLOEXEC)) < 0) e = errno;
    else {
        if (fsync(fd) != 0 && errno != EINVAL) e = errno;
        if (close(fd) != 0 && !e) e = errno;
    }
    if (!e) return RB_OK;
    rb__seterr(err, RB_ESYS, e, "fsync", "wrote %s, but cannot sync its directory %s: %s", rb__short_path(path, sp),
               rb__short_path(dir, sd), strerror(e));
    return RB_ESYS;
}

RBDEF int rb_outfile_commit(rb_outfile *o, rb_error *err)
{
    char sp[RB__PATH_SHOWN];   /* the path as messages show it (rb__short_path) */
    sigset_t old;
    int rc, e = 0;
    const char *call = "write";
    if (o->fd < 0) {
        rb__seterr(err, RB_EINVAL, EBADF, "", "%s is not open", rb__short_path(o->path, sp));
        return RB_EINVAL;
    }
    errno = 0;
    if (o->f && (fflush(o->f) != 0 || ferror(o->f))) e = errno ? errno : EIO;
    if (!e && !o->stream && fsync(o->fd) != 0) { e = errno; call = "fsync"; }
    if ((o->f ? fclose(o->f) : close(o->fd)) != 0 && !e) { e = errno; call = "close"; }
    o->f = NULL;
    o->fd = -1;
    if (e) {
        rb_outfile_abort(o, NULL);
        rb__seterr(err, RB_ESYS, e, call, "writing %s failed: %s%s", rb__short_path(o->path, sp), strerror(e),
                   o->stream ? "" : " (nothing replaced)");
        return RB_ESYS;
    }
    if (o->stream) return RB_OK;
    rb__hold_signals(&old);
    rc = rb__outfile_place(o, err);
    if (rc != RB_OK) unlink(o->tmp);   /* the error above is the one to report */
    o->tmp[0] = 0;
    rb__release_signals(&old);
    return rc == RB_OK ? rb__fsync_dir(o->path, err) : rc;
}

RBDEF int rb_outfile_abort(rb_outfile *o, rb_error *err)
{
    sigset_t old;
    int rc = RB_OK;
    rb__hold_signals(&old);
    /* the content is being thrown away: a close error changes nothing */
    if (o->f) (void)fclose(o->f);
    else if (o->fd >= 0) (void)close(o->fd);
    o->f = NULL;
    o->fd = -1;
    if (!o->stream && o->tmp[0] && unlink(o->tmp) != 0 && errno != ENOENT) {
        rb__seterr(err, RB_ESYS, errno, "unlink", "cannot remove the temporary %s: %s", o->tmp, strerror(errno));
        rc = RB_ESYS;
    }
    o->tmp[0] = 0;
    rb__release_signals(&old);
    return rc;
}

/*
   Two buffers and a writer thread: while one chunk is being written the next is being
   generated, so setup runs at the disk's speed, not at the disk's plus the generator's.
   Writes are O_DIRECT where the filesystem allows it (like `dd oflag=direct`): they do
   not fill the page cache with the file, so the benchmark starts from a known state. */
#define RB__SETUP_CHUNK ((size_t)8 << 20)

typedef struct rb__writer {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned char *buf[2];
    size_t len[2];
    uint64_t off[2];
    int full[2];
    int done;
    int fd, direct;
    int err;
    const char *call;
} rb__writer;

static void *rb__writer_main(void *arg)
{
    rb__writer *wr = (rb__writer *)arg;
    unsigned slot = 0;
    for (;;) {
        size_t len, done = 0;
        uint64_t off;
        pthread_mutex_lock(&wr->mu);
        while (!wr->full[slot] && !wr->done) pthread_cond_wait(&wr->cv, &wr->mu);
        if (!wr->full[slot]) { pthread_mutex_unlock(&wr->mu); break; }
        len = wr->len[slot];
        off = wr->off[slot];
        pthread_mutex_unlock(&wr->mu);
        if (wr->direct && len % 4096 != 0) {   /* a short tail: O_DIRECT would refuse it */
            if (rb__plat_set_direct(wr->fd, 0) != RB_OK) {
                pthread_mutex_lock(&wr->mu);
                wr->err = errno; wr->call = "fcntl";
                pthread_cond_broadcast(&wr->cv);
                pthread_mutex_unlock(&wr->mu);
                break;
            }
            wr->direct = 0;
        }
        while (done < len) {
            ssize_t r = pwrite(wr->fd, wr->buf[slot] + done, len - done, (off_t)(off + done));
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) break;
            done += (size_t)r;
        }
        pthread_mutex_lock(&wr->mu);
        if (done < len) { wr->err = errno ? errno : EIO; wr->call = "pwrite"; }
        wr->full[slot] = 0;
        pthread_cond_broadcast(&wr->cv);
        pthread_mutex_unlock(&wr->mu);
        if (wr->err) break;
        slot ^= 1u;
    }
    return NULL;
}

/* The new file takes `size` bytes while the old one stays whole until the rename: refuse
   before writing a byte when the filesystem cannot hold them (statvfs counts what this user
   may use, so root's reserve is not promised). A miss is still caught by the write. */
static int rb__setup_room(const rb_outfile *o, uint64_t size, rb_error *err)
{
    char sp[RB__PATH_SHOWN];   /* the path as messages show it (rb__short_path) */
    struct statvfs sv;
    uint64_t avail;
    char need[32], have[32];
    if (fstatvfs(o->fd, &sv) != 0) {
        rb__seterr(err, RB_ESYS, errno, "fstatvfs", "cannot see the free space for %s: %s", rb__short_path(o->path,
                   sp), strerror(errno));
        return RB_ESYS;
    }
    avail = (uint64_t)sv.f_bavail * (uint64_t)sv.f_frsize;
    if (avail >= size || sv.f_blocks == 0) return RB_OK;   /* no blocks at all: ramfs, unlimited */
    rb_format_size(size, need, sizeof need);
    if (avail >= ((uint64_t)1 << 30)) snprintf(have, sizeof have, "%.1f GiB", (double)avail / 1073741824.0);
    else rb_format_size(avail, have, sizeof have);
    rb__seterr(err, RB_ESYS, ENOSPC, "statvfs", "%s needs %s, but its filesystem has only %s free",
               rb__short_path(o->path, sp), need,
               have);
    return RB_ESYS;
}

/* The generator feeds the writer thread two chunks at a time; progress() may stop it. */
static int rb__setup_write(rb__writer *wr, uint64_t size, uint64_t data_seed, rb_progress_fn progress, void *user,
                           rb_error *err, const char *path)
{
    char sp[RB__PATH_SHOWN];   /* the path as messages show it (rb__short_path) */
    pthread_t tid;
    uint64_t off = 0;
    unsigned slot = 0;
    int aborted = 0;
    if (pthread_create(&tid, NULL, rb__writer_main, wr) != 0) {
        rb__seterr(err, RB_ESYS, errno, "pthread_create", "cannot start the writer thread");
        return RB_ESYS;
    }
    while (off < size) {
        size_t len = (size_t)RB__MIN((uint64_t)RB__SETUP_CHUNK, size - off);
        int failed;
        pthread_mutex_lock(&wr->mu);
        while (wr->full[slot] && !wr->err) pthread_cond_wait(&wr->cv, &wr->mu);
        failed = wr->err != 0;
        pthread_mutex_unlock(&wr->mu);
        if (failed) break;
        rb_fill_pattern(wr->buf[slot], off, len, data_seed);
        pthread_mutex_lock(&wr->mu);
        wr->len[slot] = len;
        wr->off[slot] = off;
        wr->full[slot] = 1;
        pthread_cond_broadcast(&wr->cv);
        pthread_mutex_unlock(&wr->mu);
        off += len;
        slot ^= 1u;
        if (progress && progress(off, size, user) != 0) { aborted = 1; break; }
    }
    pthread_mutex_lock(&wr->mu);
    wr->done = 1;
    pthread_cond_broadcast(&wr->cv);
    pthread_mutex_unlock(&wr->mu);
    pthread_join(tid, NULL);
    if (wr->err) {
        rb__seterr(err, RB_ESYS, wr->err, wr->call, "writing %s failed: %s", rb__short_path(path, sp),
                   strerror(wr->err));
        return RB_ESYS;
    }
    if (aborted) {
        rb__seterr(err, RB_EINTR, EINTR, "", "setup of %s interrupted", rb__short_path(path, sp));
        return RB_EINTR;
    }
    return RB_OK;
}

RBDEF int rb_setup_file(const char *path, uint64_t size, uint64_t data_seed, int flags,
                        rb_progress_fn progress, void *user, rb_error *err)
{
    rb__writer wr;
    rb_outfile o;
    rb_error e2;
    struct stat st;
    int rc, existed;

    if (rb__path_missing(path, err)) return RB_EINVAL;
    existed = lstat(path, &st) == 0;
    if (!data_seed) data_seed = RB_DATA_SEED;
    if (size == 0) {
        rb__seterr(err, RB_EINVAL, 0, "", "size must be greater than 0");
        return RB_EINVAL;
    }
    if ((rc = rb_outfile_open(&o, path, flags & (RB_OUT_REPLACE | RB_OUT_FOLLOW), err)) != RB_OK) return rc;
    if ((rc = rb__setup_room(&o, size, err)) != RB_OK) {
        rb_outfile_abort(&o, NULL);
        return rc;
    }
    memset(&wr, 0, sizeof wr);
    wr.fd = o.fd;
    wr.direct = rb__plat_set_direct(o.fd, 1) == RB_OK;   /* tmpfs (before 6.6) and ramfs refuse: buffered */
    wr.buf[0] = (unsigned char *)rb__aligned_alloc(rb__page_size(), RB__SETUP_CHUNK);
    wr.buf[1] = (unsigned char *)rb__aligned_alloc(rb__page_size(), RB__SETUP_CHUNK);
    if (!wr.buf[0] || !wr.buf[1]) {
        rb__seterr(err, RB_ENOMEM, ENOMEM, "posix_memalign", "out of memory");
        rc = RB_ENOMEM;
    } else {
        pthread_mutex_init(&wr.mu, NULL);
        pthread_cond_init(&wr.cv, NULL);
        rc = rb__setup_write(&wr, size, data_seed, progress, user, err, path);
        pthread_mutex_destroy(&wr.mu);
        pthread_cond_destroy(&wr.cv);
    }
    free(wr.buf[0]);
    free(wr.buf[1]);
    if (rc == RB_OK) return rb_outfile_commit(&o, err);   /* the last fsync, then the rename */
    if (rb_outfile_abort(&o, &e2) != RB_OK) {
        if (err) rb__fmt(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg), "; %s", e2.msg);
    } else if (err) {
        rb__fmt(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg), existed ? " (partial file removed, %s "
                "untouched)" : " (partial file removed; no %s made)", path);
    }
    return rc;
}

/*
   Every function that reads the user's file opens it here, and only a regular file passes.
   A FIFO blocks open() until a writer comes (forever, for a benchmark), a device reads
   forever (/dev/zero) or acts on open (a tape rewinds), a directory has no pages to read,
   and a /proc or /sys file has no size and is generated on each read. The type is checked
   with stat() before any open; the open itself is O_NONBLOCK, so a FIFO swapped in after the
   stat cannot block it either, and fstat() checks again that the same regular file opened.
   (rb__file_kind() names a type: see "files readbench writes".) */

/* A pseudo filesystem: its files are made up on read, their size says nothing. */
static const char *rb__pseudo_fs(int fd)
{
    switch (rb__plat_fs_magic(fd)) {
    case 0x9fa0UL: return "procfs";
    case 0x62656572UL: return "sysfs";
    case 0x64626720UL: return "debugfs";
    case 0x74726163UL: return "tracefs";
    case 0x27e0ebUL: case 0x63677270UL: return "cgroupfs";
    case 0x73636673UL: return "securityfs";
    case 0x62656570UL: return "configfs";
    case 0xcafe4a11UL: return "bpffs";
    default: return NULL;   /* 0 included: unknown */
    }
}

static int rb__not_regular(rb_error *err, const char *path, const char *what)
{
    char sp[RB__PATH_SHOWN];   /* the path as messages show it (rb__short_path) */
    rb__seterr(err, RB_ENOTREG, 0, "stat", "%s is not a regular file (it is %s)", rb__short_path(path, sp), what);
    return -1;
}

/* Opens path read-only (plus flags, e.g. O_DIRECT) if it is a regular file; -1 with err set
   otherwise. st, if not NULL, receives the fstat of what was opened. */
static int rb__open_regular(const char *path, int flags, struct stat *st, rb_error *err)
{
    char sp[RB__PATH_SHOWN];   /* the path as messages show it (rb__short_path) */
    struct stat a, b;
    const char *pseudo;
    int fd, e, fl;
    if (rb__path_missing(path, err)) return -1;
    if (stat(path, &a) != 0) {
        e = errno;
        rb__seterr(err, e == ENOENT || e == ENOTDIR ? RB_ENOFILE : e == EACCES ? RB_EPERM : RB_ESYS, e,
                   "stat", "cannot open %s: %s", rb__short_path(path, sp), strerror(e));
        return -1;
    }
    if (!S_ISREG(a.st_mode)) return rb__not_regular(err, path, rb__file_kind(a.st_mode));
    fd = open(path, O_RDONLY | O_NONBLOCK | flags);
    if (fd < 0) {
        e = errno;
        rb__seterr(err, e == ENOENT ? RB_ENOFILE : e == EACCES || e == EPERM ? RB_EPERM : RB_ESYS, e,
                   "open", "cannot open %s: %s", rb__short_path(path, sp), strerror(e));
        return -1;
    }
    if (fstat(fd, &b) != 0) {
        e = errno;
        close(fd);
        rb__seterr(err, RB_ESYS, e, "fstat", "cannot stat %s: %s", rb__short_path(path, sp), strerror(e));
        return -1;
    }
    if (!S_ISREG(b.st_mode) || b.st_dev != a.st_dev || b.st_ino != a.st_ino) {
        close(fd);
        return rb__not_regular(err, path, S_ISREG(b.st_mode) ? "a file that was replaced while it was opened"
                                                             : rb__file_kind(b.st_mode));
    }
    if ((pseudo = rb__pseudo_fs(fd)) != NULL) {
        char what[64];
        close(fd);
        snprintf(what, sizeof what, "a pseudo file of %s, generated on read", pseudo);
        return rb__not_regular(err, path, what);
    }
    /* O_NONBLOCK has no effect on a regular file's reads, but an embedder's later fcntl or a
       filesystem that honors it (some network ones) should see the descriptor as asked. */
    if ((fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        e = errno;
        close(fd);
        rb__seterr(err, RB_ESYS, e, "fcntl", "fcntl %s: %s", rb__short_path(path, sp), strerror(e));
        return -1;
    }
    if (st) *st = b;
    return fd;
}

/* 1: the file starts with the setup pattern of `seed` (rb_fill_pattern), so readbench made it;
   0: it holds something else, or nothing. */
static int rb__setup_made(int fd, uint64_t size, uint64_t seed)
{
    unsigned char got[4096], want[4096];
    size_t n = (size_t)RB__MIN(size, (uint64_t)sizeof got);
    if (n == 0 || pread(fd, got, n, 0) != (ssize_t)n) return 0;
    rb_fill_pattern(want, 0, n, seed);
    return memcmp(got, want, n) == 0;
}

static int rb__is_dir(const char *path)
{
    struct stat st;
    return path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void rb__dirlist_free(rb__dirlist *d)
{
    unsigned i;
    for (i = 0; i < d->n; i++) free(d->e[i].path);
    free(d->e);
    memset(d, 0, sizeof *d);
}

static int rb__entry_cmp(const void *a, const void *b)
{
    return strcmp(((const rb__entry *)a)->path, ((const rb__entry *)b)->path);   /* one prefix: name order */
}

/* One entry of the directory: kept (a regular file with data), counted as left out, or -1
   with err set (lstat failed, too many files, no memory). */
static int rb__dir_take(rb__dirlist *d, const char *dir, const char *name, rb_error *err)
{
    char sp[RB__PATH_SHOWN];   /* the path as messages show it (rb__short_path) */
    size_t l = strlen(dir);
    char *full = (char *)malloc(l + strlen(name) + 2);
    struct stat st;
    if (!full) { rb__seterr(err, RB_ENOMEM, ENOMEM, "malloc", "out of memory"); return -1; }
    sprintf(full, "%s%s%s", dir, l && dir[l - 1] == '/' ? "" : "/", name);
    if (!strcmp(name, RB_SETUP_INCOMPLETE)) { free(full); return 0; }   /* setup's mark, no data to read */
    if (lstat(full, &st) != 0) {
        rb__seterr(err, RB_ESYS, errno, "lstat", "cannot stat %s: %s", rb__short_path(full, sp), strerror(errno));
        free(full);
        return -1;
    }
    if (!S_ISREG(st.st_mode) || st.st_size == 0) {
        *(S_ISLNK(st.st_mode) ? &d->links : S_ISREG(st.st_mode) ? &d->empty : &d->others) += 1;
        free(full);
        return 0;
    }
    if (d->n == RB_MAX_FILES) {
        rb__seterr(err, RB_EINVAL, 0, "readdir", "%s holds more than %u files to read", rb__short_path(dir, sp),
                   RB_MAX_FILES);
        free(full);
        return -1;
    }
    if (d->n == d->cap) {
        unsigned cap = d->cap ? 2 * d->cap : 16;
        rb__entry *e = (rb__entry *)realloc(d->e, cap * sizeof *e);
        if (!e) { free(full); rb__seterr(err, RB_ENOMEM, ENOMEM, "realloc", "out of memory"); return -1; }
        d->e = e;
        d->cap = cap;
    }
    d->e[d->n].path = full;
    d->e[d->n++].size = (uint64_t)st.st_size;
    return 0;
}

/* The files of directory `dir`, or RB_ENOTREG with a line that says what it holds instead
   (the words of a refused non-regular file: a directory with nothing to read is one). */
static int rb__dir_scan(const char *dir, rb__dirlist *d, rb_error *err)
{
    char sp[RB__PATH_SHOWN];   /* the path as messages show it (rb__short_path) */
    DIR *dp;
    struct dirent *de;
    rb_error mine;
    int failed;
    if (!err) err = &mine;   /* the status is needed even when the caller wants no message */
    memset(d, 0, sizeof *d);
    if (!(dp = opendir(dir))) {
        int e = errno;
        rb__seterr(err, e == EACCES ? RB_EPERM : e == ENOENT ? RB_ENOFILE : RB_ESYS, e, "opendir",
                   "cannot read the directory %s: %s", rb__short_path(dir, sp), strerror(e));
        return err->status;
    }
    for (errno = 0; (de = readdir(dp)) != NULL; errno = 0) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
        if (rb__dir_take(d, dir, de->d_name, err) != 0) break;
    }
    failed = de != NULL || errno != 0;   /* taking an entry failed, or readdir did */
    if (de == NULL && errno) rb__seterr(err, RB_ESYS, errno, "readdir", "reading the directory %s: %s",
                                        rb__short_path(dir, sp), strerror(errno));
    closedir(dp);   /* a directory opened for reading: closing it cannot lose data */
    if (failed) { rb__dirlist_free(d); return err->status; }
    if (d->n) {
        qsort(d->e, d->n, sizeof *d->e, rb__entry_cmp);
        return RB_OK;
    }
    if (!d->empty && !d->links && !d->others)
        rb__seterr(err, RB_ENOTREG, 0, "readdir", "%s is not a regular file (it is a directory, and an empty one)",
                   rb__short_path(dir, sp));
    else
        rb__seterr(err, RB_ENOTREG, 0, "readdir", "%s is not a regular file (it is a directory, and holds no regular "
                   "file with data: %u empty, %u symlink%s and %u other entr%s left out)", rb__short_path(dir, sp),
                   d->empty, d->links, d->links == 1 ? "" : "s", d->others, d->others == 1 ? "y" : "ies");
    return RB_ENOTREG;
}

/* A file's figures for rb_check_file: its size, allocation, whether its first head_max bytes
   are zeros, whether setup (with seed) made it. */
static int rb__check_one(const char *path, uint64_t need_size, rb_file_info *info, size_t head_max, uint64_t seed,
                         rb_error *err)
{
    char sp[RB__PATH_SHOWN];   /* the path as messages show it (rb__short_path) */
    struct stat st;
    rb_error e;
    int fd;
    size_t head, i;
    unsigned char *buf;
    ssize_t r;
    memset(info, 0, sizeof *info);
    fd = rb__open_regular(path, 0, &st, &e);
    if (fd < 0) {
        if (err) *err = e;
        return e.status;
    }
    info->files = 1;
    info->size = (uint64_t)st.st_size;
    info->allocated = (uint64_t)st.st_blocks * 512u;
    info->sparse = info->allocated < info->size;
    info->setup_made = rb__setup_made(fd, info->size, seed);
    if (info->size == 0 || info->size < need_size) {
        if (info->size == 0) rb__seterr(err, RB_ETOOSMALL, 0, "fstat", "%s is empty", rb__short_path(path, sp));
        else rb__seterr(err, RB_ETOOSMALL, 0, "fstat", "%s has %llu bytes, fewer than the %llu needed",
                        rb__short_path(path, sp), (unsigned long long)info->size, (unsigned long long)need_size);
        close(fd);
        return RB_ETOOSMALL;
    }
    head = (size_t)RB__MIN(info->size, (uint64_t)head_max);
    buf = (unsigned char *)malloc(head);
    if (!buf) {
        close(fd);
        rb__seterr(err, RB_ENOMEM, ENOMEM, "malloc", "out of memory");
        return RB_ENOMEM;
    }
    r = pread(fd, buf, head, 0);
    if (r < 0) {
        rb__seterr(err, RB_ESYS, errno, "pread", "cannot read %s: %s", rb__short_path(path, sp), strerror(errno));
        free(buf);
        close(fd);
        return RB_ESYS;
    }
    info->zero_head = 1;
    for (i = 0; i < (size_t)r; i++)
        if (buf[i]) { info->zero_head = 0; break; }
    free(buf);
    close(fd);
    return RB_OK;
}

/* setup's mark in dir (see rb_setup_files): the set in it is partial; the mark holds the command
   that completes it. */
static int rb__setup_incomplete(const char *dir, rb_error *err)
{
    char sp[RB__PATH_SHOWN], mark[4200], cmd[300] = "";
    ssize_t n = 0;
    int fd;
    snprintf(mark, sizeof mark, "%s/%s", dir, RB_SETUP_INCOMPLETE);
    if (access(mark, F_OK) != 0) return RB_OK;
    if ((fd = open(mark, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)) >= 0) {
        n = read(fd, cmd, sizeof cmd - 1);
        close(fd);
    }
    cmd[n > 0 ? (size_t)n : 0] = 0;
    cmd[strcspn(cmd, "\n")] = 0;
    rb__seterr(err, RB_EINVAL, 0, "", "%s holds an incomplete set of files: a readbench setup of it did not finish (%s "
               "marks it); complete it with: %s, or delete the mark to read the files as they are",
               rb__short_path(dir, sp), RB_SETUP_INCOMPLETE, cmd[0] ? cmd : "readbench setup DIR SIZE --files N --force");
    return RB_EINVAL;
}

/* A directory: every file checked (a file this user may not read refuses the directory), its
   first 4 KiB looked at (not 1 MiB each: a thousand files would be a gigabyte read). Sparse,
   zeros: if any file is; made by setup: if every file is. */
static int rb__check_dir(const char *path, uint64_t need_size, rb_file_info *info, rb_error *err)
{
    rb__dirlist d;
    rb_file_info one;
    unsigned i;
    int rc;
    memset(info, 0, sizeof *info);
    if ((rc = rb__setup_incomplete(path, err)) != RB_OK) return rc;
    if ((rc = rb__dir_scan(path, &d, err)) != RB_OK) return rc;
    if (need_size) {   /* a part of a file, or one file of some size: not a directory's */
        char sp[RB__PATH_SHOWN];   /* the path as messages show it (rb__short_path) */
        rb__seterr(err, RB_ENOTREG, 0, "", "%s is a directory: this needs one file of %llu bytes or more (a "
                   "directory's files are read whole)", rb__short_path(path, sp), (unsigned long long)need_size);
        rb__dirlist_free(&d);
        return RB_ENOTREG;
    }
    info->setup_made = 1;
    for (i = 0; i < d.n && rc == RB_OK; i++) {
        rc = rb__check_one(d.e[i].path, 0, &one, 4096, rb_file_seed(RB_DATA_SEED, d.e[i].path), err);
        info->size += one.size;
        info->allocated += one.allocated;
        info->sparse |= one.sparse;
        info->zero_head |= one.zero_head;
        info->setup_made &= one.setup_made;
    }
    info->files = d.n;
    rb__dirlist_free(&d);
    return rc;
}

RBDEF int rb_check_file(const char *path, uint64_t need_size, rb_file_info *info, rb_error *err)
{
    rb_file_info mine;
    if (!info) info = &mine;   /* the caller wants only the status */
    if (rb__is_dir(path)) return rb__check_dir(path, need_size, info, err);
    return rb__check_one(path, need_size, info, (size_t)1 << 20, RB_DATA_SEED, err);
}

/* A directory given to a command of one file: which file to name instead, and what reads them all. */
static int rb__one_file_dir(const char *path, const char *command, rb_error *err)
{
    char sp[RB__PATH_SHOWN], first[RB__PATH_SHOWN] = "";
    rb__dirlist d;
    if (rb__dir_scan(path, &d, NULL) == RB_OK) {
        snprintf(first, sizeof first, "%s", rb__short_path(d.e[0].path, sp));
        rb__dirlist_free(&d);
    }
    rb__seterr(err, RB_ENOTREG, 0, "stat", "%s is not a regular file (it is a directory): readbench %s measures one "
               "file%s%s (readbench run and advise read every file of a directory)", rb__short_path(path, sp), command,
               first[0] ? ", such as " : "", first);
    return RB_ENOTREG;
}

RBDEF int rb_check_one_file(const char *path, uint64_t need_size, const char *command, rb_file_info *info,
                            rb_error *err)
{
    if (rb__is_dir(path)) {
        if (info) memset(info, 0, sizeof *info);
        return rb__one_file_dir(path, command ? command : "this", err);
    }
    return rb_check_file(path, need_size, info, err);
}

/* setup DIR SIZE --files N. Every check comes before anything is created, so a refusal leaves
   no directory and no file behind; then each file is written as rb_setup_file writes one (a
   temporary renamed into place), so an interruption leaves whole files only. */
typedef struct rb__setup_many {
    rb_progress_fn fn;
    void *user;
    uint64_t before, total;   /* bytes of the files already written; of all of them */
} rb__setup_many;

static int rb__setup_many_progress(uint64_t done, uint64_t total, void *user)
{
    rb__setup_many *m = (rb__setup_many *)user;
    (void)total;
    return m->fn ? m->fn(m->before + done, m->total, m->user) : 0;
}

/* part-0000 .. part-9999, wider when there are more: name order is the files' order. */
static void rb__part_name(char *buf, size_t len, const char *dir, unsigned i, unsigned n)
{
    size_t l = strlen(dir);
    int width = 1;
    unsigned m;
    for (m = n - 1; m >= 10; m /= 10) width++;
    snprintf(buf, len, "%s%spart-%0*u", dir, l && dir[l - 1] == '/' ? "" : "/", width < 4 ? 4 : width, i);
}

/* What rb_outfile_open would refuse, for every file at once; *fresh: bytes of files that do not
   exist yet (the room they need is new room). */
static int rb__setup_many_check(const char *dir, unsigned n, uint64_t each, int flags, uint64_t *fresh,
                                rb_error *err)
{
    char sp[RB__PATH_SHOWN];   /* the path as messages show it (rb__short_path) */
    char path[4200];
    struct stat st;
    unsigned i;
    *fresh = 0;
    for (i = 0; i < n; i++) {
        rb__part_name(path, sizeof path, dir, i, n);
        if (lstat(path, &st) != 0 || (S_ISLNK(st.st_mode) && (flags & RB_OUT_FOLLOW) && stat(path, &st) != 0)) {
            if (errno == ENOENT) { *fresh += each; continue; }   /* a new file (or a link to where one will be) */
            rb__seterr(err, RB_ESYS, errno, "stat", "cannot stat %s: %s", rb__short_path(path, sp), strerror(errno));
            return RB_ESYS;
        }
        if (S_ISLNK(st.st_mode)) {
            rb__seterr(err, RB_ENOTREG, 0, "lstat", "%s is a symbolic link: not replaced (its target is, when links "
                       "are followed)", rb__short_path(path, sp));
            return RB_ENOTREG;
        }
        if (!S_ISREG(st.st_mode)) {
            rb__seterr(err, RB_ENOTREG, 0, "lstat", "%s is not a regular file (it is %s): not replaced",
                       rb__short_path(path, sp), rb__file_kind(st.st_mode));
            return RB_ENOTREG;
        }
        if (!(flags & RB_OUT_REPLACE)) {
            rb__seterr(err, RB_EEXIST, EEXIST, "", "%s exists", rb__short_path(path, sp));
            return RB_EEXIST;
        }
    }
    return RB_OK;
}

/* setup's mark (on 1: made, holding the command that completes the set; 0: removed). */
static int rb__setup_mark(const char *dir, uint64_t size, unsigned nfiles, int flags, int on, rb_error *err)
{
    char sp[RB__PATH_SHOWN], mark[4200], sz[32], cmd[4400];
    int fd, n, ok;
    snprintf(mark, sizeof mark, "%s/%s", dir, RB_SETUP_INCOMPLETE);
    if (!on) {
        if (unlink(mark) == 0 || errno == ENOENT) return RB_OK;
        rb__seterr(err, RB_ESYS, errno, "unlink", "the files are whole, but removing %s failed: %s", rb__short_path(mark, sp),
                   strerror(errno));
        return RB_ESYS;
    }
    rb_format_size_arg(size, sz, sizeof sz);
    n = snprintf(cmd, sizeof cmd, "readbench setup %s %s --files %u --force%s\n", dir, sz, nfiles,
                 flags & RB_OUT_FOLLOW ? " --follow-symlinks" : "");
    fd = open(mark, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
    n = RB__MIN(n, (int)sizeof cmd - 1);
    ok = fd >= 0 && n > 0 && write(fd, cmd, (size_t)n) == (ssize_t)n;
    if (fd >= 0 && close(fd) != 0) ok = 0;
    if (ok) return RB_OK;
    rb__seterr(err, RB_ESYS, errno, "open", "cannot mark the set incomplete while it is written (%s): %s",
               rb__short_path(mark, sp), strerror(errno));
    return RB_ESYS;
}

/* The directory: there already, or made now (its parent must exist); room for the new bytes. */
static int rb__setup_many_dir(const char *dir, uint64_t fresh, rb_error *err)
{
    char sp[RB__PATH_SHOWN];   /* the path as messages show it (rb__short_path) */
    struct statvfs sv;
    char need[32], have[32];
    uint64_t avail;
    if (statvfs(dir, &sv) != 0) {
        rb__seterr(err, RB_ESYS, errno, "statvfs", "cannot see the free space for %s: %s", rb__short_path(dir, sp),
                   strerror(errno));
        return RB_ESYS;
    }
    avail = (uint64_t)sv.f_bavail * (uint64_t)sv.f_frsize;
    if (avail >= fresh || sv.f_blocks == 0) return RB_OK;   /* no blocks at all: ramfs, unlimited */
    rb_format_size(fresh, need, sizeof need);
    rb_format_size(avail, have, sizeof have);
    rb__seterr(err, RB_ESYS, ENOSPC, "statvfs", "the new files in %s need %s, but its filesystem has only %s free",
               rb__short_path(dir, sp), need, have);
    return RB_ESYS;
}

RBDEF int rb_setup_files(const char *dir, uint64_t size, unsigned nfiles, uint64_t data_seed, int flags,
                         rb_progress_fn progress, void *user, unsigned *others, rb_error *err)
{
    char sp[RB__PATH_SHOWN];   /* the path as messages show it (rb__short_path) */
    char path[4200];
    rb__setup_many m;
    rb__dirlist d;
    struct stat st;
    uint64_t each, fresh;
    unsigned i;
    int rc, made = 0;
    if (others) *others = 0;
    if (rb__path_missing(dir, err)) return RB_EINVAL;
    if (nfiles == 0) return rb_setup_file(dir, size, data_seed, flags, progress, user, err);   /* one file */
    if (!data_seed) data_seed = RB_DATA_SEED;
    each = size / nfiles;
    if (nfiles > RB_MAX_FILES) {
        rb__seterr(err, RB_EINVAL, 0, "", "the number of files must be 1 to %u", RB_MAX_FILES);
        return RB_EINVAL;
    }
    if (each == 0) {
        rb__seterr(err, RB_EINVAL, 0, "", "%llu bytes make no %u files of a byte or more", (unsigned long long)size,
                   nfiles);
        return RB_EINVAL;
    }
    if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
        rb__seterr(err, RB_ENOTREG, 0, "stat", "%s is not a directory (it is %s)", rb__short_path(dir, sp),
                   S_ISREG(st.st_mode) ? "a regular file" : rb__file_kind(st.st_mode));
        return RB_ENOTREG;
    }
    if ((rc = rb__setup_many_check(dir, nfiles, each, flags, &fresh, err)) != RB_OK) return rc;
    if (mkdir(dir, 0777) == 0) made = 1;
    else if (errno != EEXIST) {
        int e = errno;
        rb__seterr(err, e == ENOENT ? RB_EINVAL : e == EACCES ? RB_EPERM : RB_ESYS, e, "mkdir",
                   "cannot create the directory %s: %s", rb__short_path(dir, sp),
                   e == ENOENT ? "its parent does not exist" : strerror(e));
        return err ? err->status : RB_ESYS;
    }
    if ((rc = rb__setup_many_dir(dir, fresh, err)) != RB_OK) {
        if (made && rmdir(dir) != 0 && err)
            rb__fmt(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg), "; the empty directory %s stays",
                    dir);
        return rc;
    }
    if ((rc = rb__setup_mark(dir, size, nfiles, flags, 1, err)) != RB_OK) {
        if (made) rmdir(dir);
        return rc;
    }
    m.fn = progress;
    m.user = user;
    m.total = each * nfiles;
    for (i = 0, m.before = 0; i < nfiles; i++, m.before += each) {
        rb__part_name(path, sizeof path, dir, i, nfiles);
        rc = rb_setup_file(path, each, rb_file_seed(data_seed, path), flags, rb__setup_many_progress, &m, err);
        if (rc != RB_OK) {
            if (err) rb__fmt(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg), "; %u of %u files whole, "
                             "%s marked incomplete (%s): run refuses it until a setup completes", i, nfiles,
                             rb__short_path(dir, sp), RB_SETUP_INCOMPLETE);
            return rc;
        }
    }
    if ((rc = rb__setup_mark(dir, size, nfiles, flags, 0, err)) != RB_OK) return rc;
    if (others && rb__dir_scan(dir, &d, NULL) == RB_OK) {
        *others = d.n > nfiles ? d.n - nfiles : 0;
        rb__dirlist_free(&d);
    }
    return RB_OK;
}

/* ==== 1.11 cache control and memory =========================================================== */

/*
   posix_fadvise(DONTNEED) and drop_caches both skip pages that some process has mapped and
   pages that are dirty: readbench unmaps its own mappings before it evicts (every strategy's
   close() munmaps), and flushes the file first. */
RBDEF int rb_evict(const char *path, rb_error *err)
{
    char sp[RB__PATH_SHOWN];   /* the path as messages show it (rb__short_path) */
    const char *what = "";
    rb_error oe;
    int fd, rc = RB_OK;
    if (rb__is_dir(path)) {   /* every file of it */
        rb__dirlist d;
        unsigned i;
        rc = rb__dir_scan(path, &d, err);
        for (i = 0; rc == RB_OK && i < d.n; i++) rc = rb_evict(d.e[i].path, err);
        rb__dirlist_free(&d);
        return rc;
    }
    fd = rb__open_regular(path, 0, NULL, &oe);
    if (fd < 0) {
        if (err) *err = oe;
        return oe.status;
    }
    if (rb__plat_sync_data(fd) == RB_ESYS && errno != EINVAL) {
        rb__seterr(err, RB_ESYS, errno, "fdatasync", "fdatasync %s: %s", rb__short_path(path, sp), strerror(errno));
        rc = RB_ESYS;
    } else if (rb__plat_drop_range(fd, 0, 0, &what) != RB_OK) {
        int e = errno;
        rb__seterr(err, RB_ESYS, e, what, "%s on %s: %s", what, rb__short_path(path, sp), strerror(e));
        rc = RB_ESYS;
    }
    close(fd);
    return rc;
}

static int rb__load(const char *path, int sequential, rb_error *err);
/* The warm case: read the whole file once through the page cache (what `cat f >/dev/null`
   does), so every page is resident if RAM allows. */
static int rb__load(const char *path, int sequential, rb_error *err);
RBDEF int rb_load(const char *path, rb_error *err) { return rb__load(path, 1, err); }

static int rb__load(const char *path, int sequential, rb_error *err)
{
    char sp[RB__PATH_SHOWN];   /* the path as messages show it (rb__short_path) */
    size_t len = (size_t)4 << 20;
    unsigned char *buf;
    uint64_t off = 0;
    rb_error oe;
    int fd, rc = RB_OK;
    if (rb__is_dir(path)) {   /* every file of it, in name order */
        rb__dirlist d;
        unsigned i;
        rc = rb__dir_scan(path, &d, err);
        for (i = 0; rc == RB_OK && i < d.n; i++) rc = rb__load(d.e[i].path, sequential, err);
        rb__dirlist_free(&d);
        return rc;
    }
    fd = rb__open_regular(path, 0, NULL, &oe);
    if (fd < 0) {
        if (err) *err = oe;
        return oe.status;
    }
    buf = (unsigned char *)malloc(len);
    if (!buf) {
        close(fd);
        rb__seterr(err, RB_ENOMEM, ENOMEM, "malloc", "out of memory");
        return RB_ENOMEM;
    }
    /* a hint: SEQUENTIAL reads ahead in large folios; RANDOM reads just what is asked */
    if (rb__plat_fadvise(fd, sequential ? RB__HINT_SEQUENTIAL : RB__HINT_RANDOM) == RB_ESYS && !sequential) {
        int e = errno;
        rb__seterr(err, RB_ESYS, e, "posix_fadvise", "posix_fadvise(RANDOM) on %s: %s", rb__short_path(path, sp),
                   strerror(e));
        free(buf);
        close(fd);
        return RB_ESYS;
    }
    for (;;) {
        ssize_t r = pread(fd, buf, len, (off_t)off);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            rb__seterr(err, RB_ESYS, errno, "pread", "reading %s: %s", rb__short_path(path, sp), strerror(errno));
            rc = RB_ESYS;
            break;
        }
        if (r == 0) break;
        off += (uint64_t)r;
    }
    free(buf);
    close(fd);
    return rc;
}

/* Every clean page of every file: root's tool, and a platform's own (rb__plat_drop_caches). */
RBDEF int rb_drop_caches(rb_error *err) { return rb__plat_drop_caches(err); }

/* cachestat() (Linux 6.5+) counts a range's cached, dirty and writeback pages in one call.
   mincore() says which pages of a mapping are in the page cache, even pages this process
   never touched. Both refuse to tell a caller that neither owns the file nor may write it:
   Linux's mincore then reports every page resident (so it cannot be used to spy on other
   users' access) and newer kernels' cachestat answer EPERM. That case is marked untrusted
   instead of printed as a number. */
/* tmpfs and ramfs keep a file only in the page cache: there is nothing to evict it to. */
static int rb__no_backing(int fd)
{
    unsigned long magic = rb__plat_fs_magic(fd);
    return magic == 0x01021994UL || magic == 0x858458f6UL;
}

/* The pages of [0, size) of fd that are cached and read in, by mincore over a mapping nothing
   touches: mincore counts a page once its read has completed (the folio is up to date), where
   cachestat counts it as soon as readahead inserts it, before its I/O. RB_OK, or RB_ESYS or
   RB_ENOMEM with errno set and *what the failing call. */
static int rb__mincore_count(int fd, uint64_t size, uint64_t *count, const char **what)
{
    size_t page = rb__page_size(), chunk_pages = (size_t)1 << 16;
    unsigned char *map, *vec;
    uint64_t off;
    int rc = RB_OK;
    *count = 0;
    if (size == 0) return RB_OK;
    map = (unsigned char *)mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, fd, 0);
    if (map == (unsigned char *)MAP_FAILED) { *what = "mmap"; return RB_ESYS; }
    if (!(vec = (unsigned char *)malloc(chunk_pages))) { rc = RB_ENOMEM; *what = "malloc"; errno = ENOMEM; }
    for (off = 0; rc == RB_OK && off < size; off += (uint64_t)chunk_pages * page) {
        size_t len = (size_t)RB__MIN((uint64_t)chunk_pages * page, size - off), i;
        if (rb__plat_mincore(map + off, len, vec) != 0) { rc = RB_ESYS; *what = "mincore"; break; }
        for (i = 0; i < (len + page - 1) / page; i++) *count += vec[i] & 1u;
    }
    free(vec);
    if (munmap(map, (size_t)size) != 0 && rc == RB_OK) { rc = RB_ESYS; *what = "munmap"; }
    return rc;
}

/* A directory's residency: its files', summed; trusted only if every file's is. */
static int rb__residency_dir(const char *path, rb_residency_info *out, rb_error *err)
{
    rb__dirlist d;
    rb_residency_info one;
    unsigned i;
    int rc = rb__dir_scan(path, &d, err);
    memset(out, 0, sizeof *out);
    out->method = "cachestat";
    out->trusted = 1;
    for (i = 0; rc == RB_OK && i < d.n; i++) {
        if ((rc = rb_residency(d.e[i].path, &one, err)) != RB_OK) break;
        out->pages += one.pages;
        out->resident += one.resident;
        out->dirty += one.dirty;
        out->writeback += one.writeback;
        out->trusted &= one.trusted;
        out->no_backing |= one.no_backing;
        if (strcmp(one.method, "cachestat") != 0) out->method = one.method;   /* any file counted by mincore */
    }
    out->files = d.n;
    rb__dirlist_free(&d);
    return rc;
}

RBDEF int rb_residency(const char *path, rb_residency_info *out, rb_error *err)
{
    char sp[RB__PATH_SHOWN];   /* the path as messages show it (rb__short_path) */
    struct stat st;
    size_t page = rb__page_size();
    struct rb__cachestat cs;
    const char *what = "";
    rb_error oe;
    int fd, rc, e;
    if (rb__is_dir(path)) return rb__residency_dir(path, out, err);
    memset(out, 0, sizeof *out);
    out->method = "mincore";
    out->files = 1;
    fd = rb__open_regular(path, 0, &st, &oe);
    if (fd < 0) {
        if (err) *err = oe;
        return oe.status;
    }
    out->trusted = rb__plat_mincore_trusted(&st, path);
    out->no_backing = rb__no_backing(fd);
    out->pages = ((uint64_t)st.st_size + page - 1) / page;
    if (st.st_size == 0) { close(fd); return RB_OK; }
    rc = rb__plat_cachestat(fd, 0, 0, &cs);   /* 0: to the end of the file */
    if (rc == RB_OK) {
        out->resident = cs.nr_cache;
        out->dirty = cs.nr_dirty;
        out->writeback = cs.nr_writeback;
        out->method = "cachestat";
        close(fd);
        return RB_OK;
    }
    if (rc == RB_ESYS && errno == EPERM) out->trusted = 0;   /* and mincore would lie: say so, print nothing */
    rc = rb__mincore_count(fd, (uint64_t)st.st_size, &out->resident, &what);
    e = errno;
    close(fd);
    if (rc != RB_OK) rb__seterr(err, rc, e, what, "%s %s: %s", what, rb__short_path(path, sp), strerror(e));
    return rc;
}

/* Evict path until none of it is cached: pages still under I/O (an asynchronous hint's or a
   fault's readahead) are locked and survive one eviction, so evict again, for up to 2 s. RB_OK
   with *left 0 when it worked; RB_OK with *left > 0 when pages stay (mapped by another process,
   or the file lives in the cache: *no_backing, tmpfs and ramfs); an error (why in err) when the
   eviction fails or the cached pages cannot be counted, or counted truthfully (RB_EPERM). */
RB__TOOL_ONLY static int rb__evict_cold(const char *path, uint64_t *left, int *no_backing, rb_error *err)
{
    unsigned i;
    for (i = 0;; i++) {
        rb_residency_info ri;
        int rc = rb_evict(path, err);
        if (rc == RB_OK) rc = rb_residency(path, &ri, err);
        if (rc != RB_OK) return rc;
        if (!ri.trusted) {
            rb__seterr(err, RB_EPERM, 0, "mincore", "cannot count the file's cached pages truthfully (neither its "
                       "owner nor allowed to write it): the kernel reports every page cached");
            return RB_EPERM;
        }
        *left = ri.resident;
        *no_backing = ri.no_backing;
        if (ri.resident == 0 || ri.no_backing || i == 200) return RB_OK;
        rb__sleep_ns(10000000);
    }
}

/* Page by page, which of the first `size` bytes of path are in the page cache: bit first + i
   of bits (cleared by the caller) for page i. 0: done; -1: not known here (mincore would say "all resident" to this user, see
   rb_residency, or a call failed). A mapping of our own that nothing touches: mincore of a
   file mapping reports the page cache, whether or not any process maps the page. */
static int rb__resident_bits_at(const char *path, uint64_t size, size_t page, uint64_t *bits, uint64_t first)
{
    struct stat st;
    rb_error e;
    size_t chunk = (size_t)1 << 16;
    uint64_t off, pages = (size + page - 1) / page;
    unsigned char *map, *vec;
    int fd = rb__open_regular(path, 0, &st, &e), ok = 1;
    if (fd < 0) return -1;
    if (!rb__plat_mincore_trusted(&st, path) || (uint64_t)st.st_size < size || !size) {
        close(fd);
        return -1;
    }
    map = (unsigned char *)mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == (unsigned char *)MAP_FAILED) return -1;
    vec = (unsigned char *)malloc(chunk);
    ok = vec != NULL;
    for (off = 0; ok && off < pages; off += chunk) {
        size_t n = (size_t)RB__MIN((uint64_t)chunk, pages - off), i;
        size_t len = (size_t)RB__MIN((uint64_t)n * page, size - off * page);
        ok = rb__plat_mincore(map + off * page, len, vec) == 0;
        for (i = 0; ok && i < n; i++)
            if (vec[i] & 1u) bits[(first + off + i) >> 6] |= (uint64_t)1 << ((first + off + i) & 63);
    }
    free(vec);
    if (munmap(map, (size_t)size) != 0) ok = 0;
    return ok ? 0 : -1;
}

/* The same for one file from page 0, bits cleared first. */
RB__TOOL_ONLY static int rb__resident_bits(const char *path, uint64_t size, size_t page, uint64_t *bits)
{
    memset(bits, 0, (size_t)(((size + page - 1) / page + 63) / 64) * sizeof(uint64_t));
    return rb__resident_bits_at(path, size, page, bits, 0);
}

/* --prewarm: load the whole file, then evict a reproducible random (1 - fraction) of its
   pages with posix_fadvise(DONTNEED), runs of evicted pages coalesced into one call. Loading
   everything and evicting some takes seconds; loading a random subset page by page would be
   one random read per page, minutes on a real disk. */
RBDEF int rb_prewarm(const char *path, double fraction, uint64_t seed, rb_error *err)
{
    int rc, fd;
    struct stat st;
    uint64_t pages, i, run = 0, page = rb__page_size(), rng[4], cut;
    rb_residency_info ri;
    if (rb__path_missing(path, err)) return RB_EINVAL;
    if (!(fraction >= 0 && fraction <= 1)) {   /* NaN included */
        rb__seterr(err, RB_EINVAL, EINVAL, "", "the fraction to prewarm must be in [0, 1], not %g", fraction);
        return RB_EINVAL;
    }
    if (rb__is_dir(path)) {   /* the fraction of each file, each its own random choice */
        rb__dirlist d;
        unsigned k;
        rc = rb__dir_scan(path, &d, err);
        for (k = 0; rc == RB_OK && k < d.n; k++) rc = rb_prewarm(d.e[k].path, fraction, seed + k, err);
        rb__dirlist_free(&d);
        return rc;
    }
    rb_error oe;
    if (fraction >= 1.0 && rb_residency(path, &ri, NULL) == RB_OK && ri.trusted && ri.resident == ri.pages)
        return RB_OK;   /* already all resident: reading it again would change nothing */
    if (fraction >= 1.0) return rb_load(path, err);
    /* Evict first and load with readahead off: the page cache then holds the file in small
       folios. A large folio (ext4 and xfs make them on readahead) is evicted whole or not at
       all, so evicting single pages out of one would silently leave them resident. */
    rc = rb_evict(path, err);
    if (rc == RB_OK) rc = rb__load(path, 0, err);
    if (rc != RB_OK) return rc;
    if (fraction < 0) fraction = 0;
    fd = rb__open_regular(path, 0, &st, &oe);
    if (fd < 0) {
        if (err) *err = oe;
        return oe.status;
    }
    pages = ((uint64_t)st.st_size + page - 1) / page;
    cut = (uint64_t)(fraction * 4294967296.0);   /* keep page i when its draw < cut */
    rb__rng_seed(rng, seed, 0x7072657761726dULL);
    for (i = 0; i <= pages; i++) {
        int evict = i < pages && (rb__rng_next(rng) >> 32) >= cut;
        if (evict) { run++; continue; }
        if (run) {
            const char *what = "";
            if (rb__plat_drop_range(fd, (i - run) * page, run * page, &what) != RB_OK) {
                int e = errno;
                rb__seterr(err, RB_ESYS, e, what, "%s: %s", what, strerror(e));
                close(fd);
                return RB_ESYS;
            }
            run = 0;
        }
    }
    close(fd);
    return RB_OK;
}

/*
   A machine with less RAM, made on this one: pin anonymous memory the page cache cannot
   take back. mlock faults every page in; RLIMIT_MEMLOCK is raised where we may. The
   figures come from /proc and /sys: -1 (unknown) where there are none. */
static long long rb__meminfo(const char *key)
{
    FILE *f = rb__plat_proc_fopen("/proc/meminfo");
    char line[256];
    long long v = -1;
    size_t kl = strlen(key);
    if (!f) return -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, kl) == 0 && line[kl] == ':') { v = atoll(line + kl + 1) * 1024; break; }
    fclose(f);
    return v;
}

/*
   Inside a 512 MiB cgroup the host's MemAvailable says 23 GiB: a hog sized from it was
   OOM-killed. The cgroup is found as the kernel describes it: /proc/self/cgroup names the
   process's cgroup per hierarchy ("4:memory:/a/b" in v1, "0::/a/b" in v2), relative to the
   root of the hierarchy's mount, and /proc/self/mountinfo says where that mount is and which
   part of the hierarchy it shows (its root field: a container that mounts its host's
   hierarchy sees "/docker/ID" there). The parsers below are pure functions on that text. */
RBDEF int rb_memcg_path(const char *text, int *version, char *path, size_t len)
{
    const char *line = text, *v2 = NULL;
    size_t v2len = 0;
    *version = 0;
    if (len) path[0] = 0;
    while (line && *line) {
        const char *end = line + strcspn(line, "\n"), *c1 = strchr(line, ':'), *c2;
        if (c1 && c1 < end && (c2 = (const char *)memchr(c1 + 1, ':', (size_t)(end - c1 - 1))) != NULL) {
            const char *p;   /* the controller list between the colons: "memory" as a whole item */
            for (p = c1 + 1; p + 6 <= c2; p++)
                if (!strncmp(p, "memory", 6) && (p == c1 + 1 || p[-1] == ',') && (p + 6 == c2 || p[6] == ','))
                    break;
            if (p + 6 <= c2) {   /* v1's memory controller wins */
                if ((size_t)(end - c2 - 1) >= len) return -1;
                memcpy(path, c2 + 1, (size_t)(end - c2 - 1));
                path[end - c2 - 1] = 0;
                *version = 1;
                return 0;
            }
            if (c2 == c1 + 1 && c1 - line == 1 && line[0] == '0') { v2 = c2 + 1; v2len = (size_t)(end - c2 - 1); }
        }
        line = *end ? end + 1 : NULL;
    }
    if (!v2 || v2len >= len) return -1;   /* a v2 line without a v1 memory line: the unified hierarchy */
    memcpy(path, v2, v2len);
    path[v2len] = 0;
    *version = 2;
    return 0;
}

/* One mountinfo field (space-separated) with its octal escapes (\040 is a space) undone. */
static const char *rb__mi_field(const char *s, char *out, size_t len)
{
    size_t n = 0;
    while (*s == ' ') s++;
    for (; *s && *s != ' ' && *s != '\n'; s++) {
        char c = *s;
        if (c == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
            c = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
            s += 3;
        }
        if (n + 1 < len) out[n++] = c;
    }
    if (len) out[n] = 0;
    return s;
}

RBDEF int rb_memcg_mount(const char *line, int version, const char *path, char *dir, size_t len)
{
    /* "34 30 0:31 /ROOT /MOUNT rw,relatime - cgroup cgroup rw,memory" (v1), "... - cgroup2 ..." */
    char root[1024], mnt[1024], fs[32], src[64], opts[512];
    const char *s = line, *dash = line ? strstr(line, " - ") : NULL, *o;
    size_t rl;
    int i;
    if (len) dir[0] = 0;
    if (!dash || !path || !len) return -1;
    for (i = 0; i < 3; i++) s = rb__mi_field(s, root, sizeof root);   /* id, parent, maj:min */
    s = rb__mi_field(s, root, sizeof root);
    rb__mi_field(s, mnt, sizeof mnt);
    s = rb__mi_field(dash + 3, fs, sizeof fs);
    s = rb__mi_field(s, src, sizeof src);
    rb__mi_field(s, opts, sizeof opts);
    if (version == 2 && strcmp(fs, "cgroup2") != 0) return -1;
    if (version == 1) {   /* a cgroup mount whose super options include "memory" */
        for (o = opts; (o = strstr(o, "memory")) != NULL; o += 6)
            if ((o == opts || o[-1] == ',') && (o[6] == 0 || o[6] == ',')) break;
        if (strcmp(fs, "cgroup") != 0 || !o) return -1;
    }
    if (version != 1 && version != 2) return -1;
    /* the process's cgroup below this mount: the mount shows the hierarchy from `root` down */
    rl = strlen(root);
    if (!strcmp(root, "/")) s = path;
    else if (!strncmp(path, root, rl) && (path[rl] == '/' || path[rl] == 0)) s = path + rl;
    else s = "";   /* not below it (a cgroup namespace): the mount is the process's own cgroup */
    if (!strcmp(s, "/")) s = "";
    if ((size_t)snprintf(dir, len, "%s%s", mnt, s) >= len) { dir[0] = 0; return -1; }
    return 0;
}

RBDEF long long rb_memcg_limit(const char *text)
{
    char *end;
    long long v;
    if (!text) return -2;
    while (*text == ' ') text++;
    if (!strncmp(text, "max", 3)) return -1;   /* v2: no limit */
    errno = 0;
    v = strtoll(text, &end, 10);
    if (end == text || errno || v < 0) return -2;
    /* v1 says "no limit" with the largest page-aligned number (9223372036854771712 with 4 KiB
       pages): no machine has an exabyte, so anything from 2^60 on is "no limit" */
    return v >= (1LL << 60) ? -1 : v;
}

RBDEF long long rb_memcg_stat(const char *text, const char *key)
{
    size_t kl = strlen(key);
    const char *line = text;
    while (line && *line) {
        if (!strncmp(line, key, kl) && line[kl] == ' ') return strtoll(line + kl + 1, NULL, 10);
        line = strchr(line, '\n');
        if (line) line++;
    }
    return -1;
}

/* The room a cgroup leaves: its limit less what is charged to it, plus the page cache among
   the charges (active_file + inactive_file). The kernel reclaims that cache before it lets the
   cgroup pass its limit, as the host's MemAvailable counts reclaimable cache as available: a
   cgroup full of a previous run's cached file still has room for a hog. Never above the
   limit, never below 0. -1: no limit. */
RBDEF long long rb_memcg_room(long long limit, long long usage, long long file_cache)
{
    long long room;
    if (limit < 0) return -1;
    room = limit - (usage > 0 ? usage : 0) + (file_cache > 0 ? file_cache : 0);
    return RB__MAX(0, RB__MIN(room, limit));
}

/* A cgroup file's text ("" where it cannot be read). */
static void rb__memcg_file(const char *dir, const char *name, char *buf, size_t len)
{
    char p[1200];
    buf[0] = 0;
    if ((size_t)snprintf(p, sizeof p, "%s/%s", dir, name) >= sizeof p || rb__plat_proc_read(p, buf, len) < 0) buf[0] = 0;
}

/* The tightest cgroup from the process's own up to the mount's root: an ancestor's limit
   binds its descendants, and its usage counts theirs (and their siblings'). */
static void rb__memcg_walk(rb_memcg *out, const char *mnt)
{
    char dir[1024], text[8192];
    int v2 = out->version == 2;
    snprintf(dir, sizeof dir, "%s", out->dir);
    out->dir[0] = 0;
    for (;;) {
        long long lim, use, cache;
        rb__memcg_file(dir, v2 ? "memory.max" : "memory.limit_in_bytes", text, sizeof text);
        lim = text[0] ? rb_memcg_limit(text) : -2;
        if (lim >= 0) {
            rb__memcg_file(dir, v2 ? "memory.current" : "memory.usage_in_bytes", text, sizeof text);
            use = text[0] ? rb_memcg_limit(text) : -1;
            /* v1's total_* count the whole subtree, as usage_in_bytes does; v2's memory.stat does */
            rb__memcg_file(dir, "memory.stat", text, sizeof text);
            cache = rb_memcg_stat(text, v2 ? "inactive_file" : "total_inactive_file");
            if (cache >= 0 && rb_memcg_stat(text, v2 ? "active_file" : "total_active_file") >= 0)
                cache += rb_memcg_stat(text, v2 ? "active_file" : "total_active_file");
            if (out->room < 0 || rb_memcg_room(lim, use, cache) < out->room) {
                out->limit = lim;
                out->usage = use >= 0 ? use : -1;
                out->file_cache = cache;
                out->room = rb_memcg_room(lim, use, cache);
                snprintf(out->dir, sizeof out->dir, "%s", dir);
            }
        }
        if (strlen(dir) <= strlen(mnt) || !strrchr(dir, '/')) break;
        *strrchr(dir, '/') = 0;
    }
}

RBDEF int rb_memcg_read(rb_memcg *out)
{
    char text[4096], path[1024], *line = NULL, mnt[1024];
    size_t cap = 0;
    FILE *f;
    int found = 0;
    memset(out, 0, sizeof *out);
    out->limit = out->usage = out->file_cache = out->room = -1;
    if (rb__plat_proc_read("/proc/self/cgroup", text, sizeof text) < 0 ||
        rb_memcg_path(text, &out->version, path, sizeof path) != 0)
        return -1;
    if (!(f = rb__plat_proc_fopen("/proc/self/mountinfo"))) return -1;
    while (!found && getline(&line, &cap, f) > 0) {   /* a mount point can make a line of any length */
        found = rb_memcg_mount(line, out->version, path, out->dir, sizeof out->dir) == 0;
        if (found) rb_memcg_mount(line, out->version, "/", mnt, sizeof mnt);   /* the mount point alone */
    }
    free(line);
    fclose(f);
    if (!found) { out->version = 0; return -1; }
    rb__memcg_walk(out, mnt);
    return 0;
}

RBDEF int64_t rb_mem_available(void)
{
    rb_memcg cg;
    long long host = rb__meminfo("MemAvailable");
    rb_memcg_read(&cg);
    return cg.room >= 0 && (host < 0 || cg.room < host) ? cg.room : host;
}

/* What neither a hog nor a cell's buffers may take: 64 MiB plus 1/32 of the room, for the
   kernel, this process's other allocations and whatever else runs here. */
RBDEF uint64_t rb_mem_margin(uint64_t room) { return ((uint64_t)64 << 20) + room / 32; }

/* Is there swap? Without it anonymous memory cannot leave RAM, locked or not. */
static int rb__no_swap(void) { return rb__meminfo("SwapTotal") == 0; }

RBDEF int rb_hog_take(rb_hog *h, uint64_t size, rb_error *err)
{
    struct rlimit rl;
    void *m;
    h->mem = NULL;
    h->size = 0;
    h->locked = 0;
    h->warning[0] = 0;
    if (size == 0) return RB_OK;
    /* Raise the limit where we may; CAP_IPC_LOCK lets mlock past it even where we may not. */
    if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < size) {
        struct rlimit want = rl;
        want.rlim_cur = (rlim_t)size;
        if (want.rlim_max != RLIM_INFINITY && want.rlim_max < size) want.rlim_max = (rlim_t)size;
        if (setrlimit(RLIMIT_MEMLOCK, &want) != 0 && rl.rlim_max != RLIM_INFINITY && rl.rlim_max >= size) {
            want.rlim_max = rl.rlim_max;
            if (setrlimit(RLIMIT_MEMLOCK, &want) != 0) {}   /* mlock below says whether it mattered */
        }
    }
    m = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        rb__seterr(err, RB_ENOMEM, errno, "mmap", "cannot map %llu MiB: %s", (unsigned long long)(size >> 20),
                   strerror(errno));
        return RB_ENOMEM;
    }
    /* Huge pages make pinning 20 GiB take seconds instead of a minute of 4 KiB faults. Only
       a speed-up: where THP is off this fails and the hog is the same, just slower to take. */
    if (rb__plat_hugepages(m, (size_t)size) == RB_ESYS && errno != EINVAL)
        rb__fmt(h->warning, sizeof h->warning, "hog: madvise(MADV_HUGEPAGE): %s (continuing with small pages)",
                strerror(errno));
    if (mlock(m, (size_t)size) == 0) {
        h->locked = 1;
    } else {
        int e = errno;
        if (!(e == EPERM || e == ENOMEM) || !rb__no_swap()) {
            munmap(m, (size_t)size);
            if (getrlimit(RLIMIT_MEMLOCK, &rl) != 0) rl.rlim_cur = 0;
            rb__seterr(err, e == EPERM ? RB_EPERM : RB_ENOMEM, e, "mlock",
                       "cannot lock %llu MiB: %s (RLIMIT_MEMLOCK is %llu KiB: raise it with `ulimit -l`, "
                       "or hog less)", (unsigned long long)(size >> 20), strerror(e),
                       (unsigned long long)(rl.rlim_cur == RLIM_INFINITY ? 0 : rl.rlim_cur >> 10));
            return err ? err->status : RB_ENOMEM;
        }
        /* mlock refused (RLIMIT_MEMLOCK) but there is no swap: touched pages stay resident. */
    }
    {   /* write every page: mlock faulted them in, but a page only read could be the zero page */
        size_t pg = rb__page_size(), i;
        for (i = 0; i < (size_t)size; i += pg) ((volatile unsigned char *)m)[i] = 1;
    }
    h->mem = m;
    h->size = size;
    return RB_OK;
}

/* The memory is forgotten either way: a failed munmap leaves nothing the caller could retry. */
RBDEF int rb_hog_release(rb_hog *h, rb_error *err)
{
    int rc = RB_OK;
    if (h->mem && munmap(h->mem, (size_t)h->size) != 0) {
        rb__seterr(err, RB_ESYS, errno, "munmap", "releasing the hog: %s", strerror(errno));
        rc = RB_ESYS;
    }
    h->mem = NULL;
    h->size = 0;
    return rc;
}

/* ==== 1.12 the matrix ========================================================================= */

/*
   Every cell (strategy x thread count x read size) once per round. With one round the cells
   run in grid order; with more, each round runs them in its own shuffled order (seeded), so
   that a slow minute of the machine lands on different cells each round instead of on one
   strategy, and every cell is prepared afresh (rb_run evicts or prewarms per call). A cell's
   figures merge over its rounds; its samples are every measured iteration of every round. */
typedef struct rb__matrix_store {
    rb_config cfg;                         /* the report's config, defaults applied */
    const rb_strategy *strat[RB_MAX_AXIS];
    const char *names[RB_MAX_AXIS];
    unsigned threads[RB_MAX_AXIS];
    uint64_t sizes[RB_MAX_AXIS];
    rb_result *results, *scratch;
    double *samples;                       /* ncells x per-cell capacity */
    unsigned *order;                       /* rounds x ncells */
    unsigned ns, nt, nz, ncells, rounds, cap;
    int grouped;                           /* rows of a tool's (rb_matrix.hook) */
    char labels[RB_MAX_AXIS][64];          /* their names */
    rb_ident ident;                        /* the file as the run began (cfg.ident, unless the caller's) */
} rb__matrix_store;

static int rb__axis_dup(const void *v, unsigned n, size_t size, unsigned *which)
{
    unsigned i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < i; j++)
            if (!memcmp((const char *)v + (size_t)i * size, (const char *)v + (size_t)j * size, size)) {
                *which = i;
                return 1;
            }
    return 0;
}

/* The axes' own rules: lengths, zeros, duplicates (a duplicate cell would show one value twice). */
static int rb__check_axes(const rb_matrix *m, char *why, size_t wl)
{
    unsigned k;
    if (m->nstrategies > RB_MAX_AXIS || m->nthreads > RB_MAX_AXIS || m->nread_sizes > RB_MAX_AXIS) {
        rb__fmt(why, wl, "at most %u strategies, thread counts and read sizes each", RB_MAX_AXIS);
        return RB_EINVAL;
    }
    for (k = 0; m->strategies && k < m->nstrategies; k++)
        if (!m->strategies[k]) { rb__fmt(why, wl, "strategy %u is NULL", k + 1); return RB_EINVAL; }
    if (m->strategies && rb__axis_dup(m->strategies, m->nstrategies, sizeof *m->strategies, &k)) {
        rb__fmt(why, wl, "strategy '%s' is listed twice", m->strategies[k]->name);
        return RB_EINVAL;
    }
    if (m->threads && rb__axis_dup(m->threads, m->nthreads, sizeof *m->threads, &k)) {
        rb__fmt(why, wl, "thread count %u is listed twice", m->threads[k]);
        return RB_EINVAL;
    }
    if (m->read_sizes && rb__axis_dup(m->read_sizes, m->nread_sizes, sizeof *m->read_sizes, &k)) {
        rb__fmt(why, wl, "read size %llu is listed twice", (unsigned long long)m->read_sizes[k]);
        return RB_EINVAL;
    }
    for (k = 0; m->threads && k < m->nthreads; k++)
        if (!m->threads[k]) { rb__fmt(why, wl, "a thread count must be at least 1"); return RB_EINVAL; }
    for (k = 0; m->read_sizes && k < m->nread_sizes; k++)
        if (!m->read_sizes[k]) { rb__fmt(why, wl, "a read size must be at least 1 byte"); return RB_EINVAL; }
    if (m->rounds > RB_MAX_ROUNDS) { rb__fmt(why, wl, "at most %u rounds", RB_MAX_ROUNDS); return RB_EINVAL; }
    return m->hook && m->hook->check ? m->hook->check(m, 0, why, wl) : RB_OK;
}

/* The matrix's largest cell by the memory it allocates (rb_cell_memory): if it fits, all do. */
static uint64_t rb__largest_cell(const rb_matrix *m, rb_config *cell, const rb_strategy **cs)
{
    unsigned n, i, t, z, ns, nt = m->threads ? m->nthreads : 1, nz = m->read_sizes ? m->nread_sizes : 1;
    const rb_strategy *all = rb_strategies(&n);
    uint64_t most = 0;
    ns = m->strategies ? m->nstrategies : n;
    *cell = m->cfg;
    *cs = NULL;
    for (i = 0; i < ns; i++)
        for (t = 0; t < nt; t++)
            for (z = 0; z < nz; z++) {
                rb_config c = m->cfg;
                const rb_strategy *s = m->strategies ? m->strategies[i] : &all[i];
                uint64_t need;
                if (m->threads) c.threads = m->threads[t];
                if (m->read_sizes) c.read_size = m->read_sizes[z];
                if ((need = rb_cell_memory(&c, s)) > most || !*cs) { most = need; *cell = c; *cs = s; }
            }
    return most;
}

RBDEF uint64_t rb_matrix_memory(const rb_matrix *m)
{
    rb_config c;
    const rb_strategy *s;
    if (m->hook && m->hook->memory) return m->hook->memory(m);
    return rb__largest_cell(m, &c, &s);
}

/* A replay's matrix: a trace that loaded, no read size but its own, a thread count with a read
   for every thread, and no direct strategy named for reads it cannot do. */
static int rb__trace_check(const rb_matrix *m, char *why, size_t wl)
{
    const rb_trace *t = m->cfg.trace;
    unsigned k;
    if (t->status != RB_OK || !t->nstreams) {
        rb__fmt(why, wl, "%s", t->status != RB_OK ? t->why : "the trace holds no read");
        return RB_EINVAL;
    }
    if (rb__replay_own_reads(&m->cfg, m->read_sizes, m->nread_sizes, why, wl) != RB_OK) return RB_EINVAL;
    if (m->cfg.size && t->max_end > m->cfg.size) {
        rb__fmt(why, wl, "the trace reads up to byte %llu, past the %llu bytes to read from",
                (unsigned long long)t->max_end, (unsigned long long)m->cfg.size);
        return RB_EINVAL;
    }
    for (k = 0; m->threads && k < m->nthreads; k++)
        if (m->threads[k] > t->reads) {
            rb__fmt(why, wl, "%u threads for the %llu reads of the trace: a thread would have none", m->threads[k],
                    (unsigned long long)t->reads);
            return RB_EINVAL;
        }
    for (k = 0; m->strategies && k < m->nstrategies && t->unaligned; k++)
        if (m->strategies[k]->flags & RB_S_DIRECT) {
            rb__fmt(why, wl, "'%s' needs page-aligned reads: %llu of the trace's are not (the first at line %llu)",
                    m->strategies[k]->name, (unsigned long long)t->unaligned, (unsigned long long)t->unaligned_line);
            return RB_EINVAL;
        }
    return RB_OK;
}

RBDEF int rb_matrix_check(const rb_matrix *m, char *why, size_t wl)
{
    uint64_t have = m->cfg.size, rs1 = m->cfg.read_size ? m->cfg.read_size : 16384;
    unsigned i, z, nz = m->read_sizes ? m->nread_sizes : 1;
    struct stat st;
    int rc = rb__check_axes(m, why, wl);
    if (rc == RB_OK && m->cfg.trace) rc = rb__trace_check(m, why, wl);
    if (rc == RB_OK) rc = rb_pattern_check(&m->cfg, why, wl);
    if (rc == RB_OK && m->cfg.observer && m->cfg.observer->check)
        rc = m->cfg.observer->check(m->cfg.observer, &m->cfg, why, wl);
    if (rc == RB_OK) rc = rb__load_check(&m->cfg, why, wl);
    if (rc == RB_OK) rc = rb__file_pick_check(&m->cfg, why, wl);
    if (rc != RB_OK) return rc;
    if (m->cfg.trace) rs1 = m->cfg.trace->max_len;
    if (!have && m->cfg.path && stat(m->cfg.path, &st) == 0 && S_ISREG(st.st_mode)) have = (uint64_t)st.st_size;
    if (!have && rb__is_dir(m->cfg.path)) {   /* a directory: a read must fit in its largest file */
        rb__dirlist d;
        if (rb__dir_scan(m->cfg.path, &d, NULL) == RB_OK)
            for (i = 0; i < d.n; i++) have = RB__MAX(have, d.e[i].size);
        rb__dirlist_free(&d);
    }
    if (m->hook) return m->hook->check ? m->hook->check(m, have, why, wl) : RB_OK;
    for (z = 0; z < nz; z++) {
        uint64_t rs = m->read_sizes ? m->read_sizes[z] : rs1;
        if (have && rs > have) {
            rb__fmt(why, wl, "read size %llu is larger than the %llu bytes to read from", (unsigned long long)rs,
                     (unsigned long long)have);
            return RB_EINVAL;
        }
        if (have && rb__align_check(m->cfg.align, m->cfg.pattern, have, rs, why, wl) != RB_OK) return RB_EINVAL;
        /* named on purpose, direct I/O with a read size it cannot do is a mistake; in "every
           strategy" it is a cell that says why */
        for (i = 0; m->strategies && i < m->nstrategies; i++)
            if ((m->strategies[i]->flags & RB_S_DIRECT) && rs % rb__page_size()) {
                rb__fmt(why, wl, "direct I/O needs a read size that is a multiple of the page size (%zu), "
                         "not %llu ('%s')", rb__page_size(), (unsigned long long)rs, m->strategies[i]->name);
                return RB_EINVAL;
            }
    }
    {   /* the buffers of the largest cell, before anything runs (rb_run checks each cell again) */
        rb_config c;
        const rb_strategy *s;
        rb__largest_cell(m, &c, &s);
        return s ? rb_cell_fits(&c, s, why, wl) : RB_OK;
    }
}

RBDEF int rb_percentiles_check(const double *p, unsigned n, char *why, size_t wl)
{
    unsigned i, j;
    if (n > RB_MAX_PERCENTILES) { rb__fmt(why, wl, "at most %u percentiles", RB_MAX_PERCENTILES); return RB_EINVAL; }
    for (i = 0; i < n; i++) {
        if (!(p[i] > 0 && p[i] <= 100)) { rb__fmt(why, wl, "percentiles must be in (0, 100]"); return RB_EINVAL; }
        for (j = 0; j < i; j++)
            if (p[i] == p[j]) { rb__fmt(why, wl, "percentile %.17g is listed twice", p[i]); return RB_EINVAL; }
    }
    return RB_OK;
}

RBDEF void rb_report_free(rb_report *rep)
{
    rb__matrix_store *st = (rb__matrix_store *)rep->owned;
    if (st) {
        free(st->results);
        free(st->scratch);
        free(st->samples);
        free(st->order);
        rb_ident_free(&st->ident);
        free(st);
    }
    memset(rep, 0, sizeof *rep);
}

/* Phase 1: the axes (defaults filled in), the grid of results (every cell "not run" until it
   runs), the sample store and the round orders. */
static int rb__matrix_alloc(const rb_matrix *m, rb__matrix_store *st)
{
    unsigned n, i, k;
    const rb_strategy *all = rb_strategies(&n);
    rb_config_defaults(&m->cfg, &st->cfg);
    st->grouped = m->hook != NULL;
    st->ns = st->grouped ? RB__MIN(m->hook->rows(m, NULL, NULL, NULL), RB_MAX_AXIS)
                         : m->strategies ? m->nstrategies : RB__MIN(n, RB_MAX_AXIS);
    for (i = 0; i < st->ns && !st->grouped; i++) {
        st->strat[i] = m->strategies ? m->strategies[i] : &all[i];
        st->names[i] = st->strat[i]->name;
    }
    st->nt = m->threads && m->nthreads ? m->nthreads : 1;
    for (i = 0; i < st->nt; i++) st->threads[i] = m->threads && m->nthreads ? m->threads[i] : st->cfg.threads;
    st->nz = m->read_sizes && m->nread_sizes ? m->nread_sizes : 1;
    for (i = 0; i < st->nz; i++) st->sizes[i] = m->read_sizes && m->nread_sizes ? m->read_sizes[i] : st->cfg.read_size;
    st->ncells = st->ns * st->nt * st->nz;
    st->rounds = m->rounds ? m->rounds : 1;
    st->cap = st->rounds * st->cfg.iterations;
    st->results = (rb_result *)calloc(st->ncells ? st->ncells : 1, sizeof *st->results);
    st->scratch = (rb_result *)calloc(st->grouped ? st->ncells : 1, sizeof *st->scratch);
    st->samples = (double *)calloc((size_t)(st->ncells ? st->ncells : 1) * st->cap, sizeof *st->samples);
    st->order = (unsigned *)calloc((size_t)(st->ncells ? st->ncells : 1) * st->rounds, sizeof *st->order);
    if (!st->results || !st->scratch || !st->samples || !st->order) return RB_ENOMEM;
    for (i = 0; i < st->ncells; i++) {
        rb_result *x = &st->results[i];
        unsigned t = i % st->nt, s = i / st->nt % st->ns, z = i / st->nt / st->ns;
        x->strategy = st->names[s];
        x->threads = st->threads[t];
        x->read_size = st->sizes[z];
        x->pattern = st->cfg.pattern;
        rb_pattern_name(&st->cfg, x->pattern_spec, sizeof x->pattern_spec);
        for (k = 0; k < RB_MAX_ITERATIONS; k++) x->iter_pages_touched[k] = -1;
        x->pages_touched = x->hit_rate = x->fault_hit_rate = -1;
        x->status = RB_ENOTRUN;
        x->samples = st->samples + (size_t)i * st->cap;
        x->resident_before = x->resident_after = x->majflt = x->minflt = x->device_read_bytes = -1;
        x->read_amplification = x->cpu_user_ns_per_read = x->cpu_sys_ns_per_read = -1;
        x->ops_per_ms_median = x->ci_lo = x->ci_hi = NAN;
        rb__result_unknown_extras(x);
        snprintf(x->reason, sizeof x->reason, "the run was interrupted before this cell");
    }
    if (st->grouped) {   /* the tool's rows, each named */
        m->hook->rows(m, st->results, st->strat, st->labels);
        for (i = 0; i < st->ns; i++) st->names[i] = st->labels[i];
    }
    return RB_OK;
}

/* Grid order for one round, a Fisher-Yates shuffle of it for more (seeded per round). */
static void rb__round_order(const rb__matrix_store *st, uint64_t seed, unsigned round, unsigned *order)
{
    uint64_t rng[4];
    unsigned i;
    for (i = 0; i < st->ncells; i++) order[i] = i;
    if (st->rounds < 2 || st->grouped) return;   /* groups: alone first, then together, each round */
    rb__rng_seed(rng, seed, 0x726f756e64ULL + round);   /* "round" */
    for (i = st->ncells; i > 1; i--) {
        unsigned j = (unsigned)rb__below(rng, i), t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
}

/* The pattern's figures of two rounds: the mean of the distinct pages over all their
   iterations, the hit rates from the summed counts (unknown if either round's was). */
static void rb__merge_touched(rb_result *acc, const rb_result *x)
{
    unsigned n = acc->touched_iterations + x->touched_iterations;
    if (acc->pages_touched >= 0 && x->pages_touched >= 0 && n)
        acc->pages_touched = (acc->pages_touched * acc->touched_iterations + x->pages_touched * x->touched_iterations) / n;
    else
        acc->pages_touched = -1;
    acc->touched_iterations = n;
    acc->page_reads += x->page_reads;
    acc->cold_pages += x->cold_pages;
    if (acc->hit_rate >= 0 && x->hit_rate >= 0 && acc->page_reads)
        acc->hit_rate = RB__MAX(0.0, 1.0 - (double)acc->cold_pages / (double)acc->page_reads);
    else
        acc->hit_rate = -1;
    if (acc->fault_hit_rate >= 0 && x->fault_hit_rate >= 0 && acc->majflt >= 0 && acc->page_reads)
        acc->fault_hit_rate = RB__MAX(0.0, 1.0 - (double)acc->majflt / (double)acc->page_reads);
    else
        acc->fault_hit_rate = -1;
}

/* A figure of two rounds: summed when both are known, else unknown (-1). */
static void rb__sum_known(int64_t *acc, int64_t x) { *acc = *acc >= 0 && x >= 0 ? *acc + x : -1; }

/* The groups' and the victim's figures of two rounds: the damage of each round summed (the
   working set too, so that evicted / working set stays a fraction), residency after the last. */
static void rb__merge_group_victim(rb_result *acc, const rb_result *x)
{
    rb__sum_known(&acc->ws_pages, x->ws_pages);
    rb__sum_known(&acc->ws_evicted, x->ws_evicted);
    acc->victim_reads += x->victim_reads;
    acc->victim_resident_after = x->victim_resident_after;
    rb__sum_known(&acc->victim_lost, x->victim_lost);
    rb__sum_known(&acc->victim_device_read_bytes, x->victim_device_read_bytes);
    rb__sum_known(&acc->victim_recently_evicted, x->victim_recently_evicted);
}

/* Adds one round's measured result of a cell to what its earlier rounds measured. */
static void rb__merge_round(rb_result *acc, const rb_result *x)
{
    double *store = (double *)acc->samples;
    unsigned k, n = acc->nsamples, r = acc->rounds;
    if (!r) {
        *acc = *x;
    } else {
        uint64_t ops = acc->ops + x->ops, issued = acc->reads_issued + x->reads_issued;
        if (acc->cpu_user_ns_per_read >= 0 && x->cpu_user_ns_per_read >= 0 && issued) {   /* per read issued */
            acc->cpu_user_ns_per_read = (acc->cpu_user_ns_per_read * (double)acc->reads_issued +
                                         x->cpu_user_ns_per_read * (double)x->reads_issued) / (double)issued;
            acc->cpu_sys_ns_per_read = (acc->cpu_sys_ns_per_read * (double)acc->reads_issued +
                                        x->cpu_sys_ns_per_read * (double)x->reads_issued) / (double)issued;
        }
        acc->ops = ops;
        acc->rate_upper_bound |= x->rate_upper_bound;   /* a bound among the samples bounds their median */
        acc->reads_issued = issued;
        acc->bytes_issued += x->bytes_issued;
        acc->seconds += x->seconds;
        acc->madvise_calls += x->madvise_calls;
        acc->madvise_failed += x->madvise_failed;
        rb__pf_stats_add(&acc->prefetch, &x->prefetch);
        rb__pa_add(&acc->prefetch_accounting, &x->prefetch_accounting);
        acc->fadvise_calls += x->fadvise_calls;
        acc->fadvise_failed += x->fadvise_failed;
        acc->nowait_reads += x->nowait_reads;
        acc->nowait_served += x->nowait_served;
        acc->inflight_max = RB__MAX(acc->inflight_max, x->inflight_max);
        rb_hist_merge(&acc->read_lat, &x->read_lat);
        acc->io_errors += x->io_errors;
        acc->short_reads += x->short_reads;
        acc->verify_mismatches += x->verify_mismatches;
        rb_hist_merge(&acc->lat, &x->lat);
        rb_hist_merge(&acc->service, &x->service);
        acc->arrivals_due += x->arrivals_due;
        acc->evict_seconds += x->evict_seconds;
        acc->prewarm_seconds += x->prewarm_seconds;
        acc->resident_after = x->resident_after;   /* before: the first round's; after: the last's */
        if (x->machine_before_ns > 0) {   /* the kernel: the round that moved most, its three figures together */
            if (!(acc->machine_before_ns > 0) || fabs(x->machine_drift) > fabs(acc->machine_drift)) {
                acc->machine_before_ns = x->machine_before_ns;
                acc->machine_after_ns = x->machine_after_ns;
                acc->machine_drift = x->machine_drift;
            }
            acc->machine_moved += x->machine_moved;   /* and how many rounds moved */
        }
        for (k = 0; k < x->nwarnings; k++) {       /* each warning once, from whichever round */
            unsigned j, seen = 0;
            for (j = 0; j < acc->nwarnings; j++) seen |= !strcmp(acc->warnings[j], x->warnings[k]);
            if (!seen) rb__warn(acc, "%s", x->warnings[k]);
        }
        acc->warnings_dropped += x->warnings_dropped;
        if (acc->majflt >= 0 && x->majflt >= 0) { acc->majflt += x->majflt; acc->minflt += x->minflt; }
        rb__merge_touched(acc, x);
        rb__merge_group_victim(acc, x);
        if (acc->device_read_bytes >= 0 && x->device_read_bytes >= 0) {
            acc->device_read_bytes += x->device_read_bytes;
            if (acc->read_amplification >= 0 && acc->bytes_issued)
                acc->read_amplification = (double)acc->device_read_bytes / (double)acc->bytes_issued;
        }
    }
    acc->samples = store;
    acc->rounds = r + 1;
    for (k = 0; k < x->iterations; k++) store[n + k] = x->iter_ops_per_ms[k];
    acc->nsamples = n + x->iterations;
}

/* A cell's figures over all its samples: median, interval (from its rounds), outliers; with
   two rounds or more, its mean and spread over them (one round: rb_run's own stand). */
static void rb__cell_stats(rb_result *x)
{
    rb_stats s;
    double sum = 0, sq = 0;
    unsigned k;
    if (x->status != RB_OK || !x->nsamples) return;
    rb_stats_of(x->samples, x->nsamples, x->rounds ? x->rounds : 1, &s);
    x->ops_per_ms_median = s.median;
    x->ci_lo = s.ci_lo;
    x->ci_hi = s.ci_hi;
    x->outliers = s.outliers;
    if (x->rounds < 2) return;
    for (k = 0; k < x->nsamples; k++) { sum += x->samples[k]; sq += x->samples[k] * x->samples[k]; }
    x->ops_per_ms = sum / x->nsamples;
    x->ops_per_ms_stddev = sqrt(RB__MAX(0.0, (sq - sum * sum / x->nsamples) / (x->nsamples - 1)));
    x->iops = x->ops_per_ms * 1000.0 * x->reads_per_op;
    x->bytes_per_sec = x->iops * (double)x->read_size;
}

/* Phase 3: every cell's figures over all its samples. */
static void rb__matrix_stats(rb__matrix_store *st)
{
    unsigned i;
    for (i = 0; i < st->ncells; i++) rb__cell_stats(&st->results[i]);
}

/* Phase 4, two rounds or more: each cell against the best other strategy of its column (the
   highest median among the column's other cells that measured), paired by round. A row that
   does no I/O (null: the harness's own cost) is a reference: never paired, never the best. */
static void rb__matrix_paired(rb__matrix_store *st)
{
    unsigned i, j;
    for (i = 0; i < st->ncells; i++) {
        rb_result *x = &st->results[i], *best = NULL;
        rb_stats p;
        if (x->status != RB_OK || x->rounds < 2 || x->rate_upper_bound) continue;   /* a bound: no ratio to take */
        if (st->strat[(i / st->nt) % st->ns]->flags & RB_S_NOIO) continue;
        for (j = 0; j < st->ncells; j++) {
            rb_result *y = &st->results[j];
            if (j == i || j % st->nt != i % st->nt || j / st->nt / st->ns != i / st->nt / st->ns) continue;
            if (st->strat[(j / st->nt) % st->ns]->flags & RB_S_NOIO) continue;   /* no I/O: a reference, never the best */
            if (y->status == RB_OK && y->nsamples && !y->rate_upper_bound &&
                (!best || y->ops_per_ms_median > best->ops_per_ms_median))
                best = y;   /* the best, whatever its rounds: with fewer than 2 (an interrupt) nothing pairs */
        }
        if (!best || rb_paired_ratio(x, best, &p) < 2) continue;
        x->paired_with = best->strategy;
        x->paired_rounds = p.n;
        x->paired_ratio = p.center;
        x->paired_lo = p.ci_lo;
        x->paired_hi = p.ci_hi;
    }
}

/* A cell's result of this round, taken into what the rounds before measured. */
static void rb__matrix_take(rb_result *acc, const rb_result *x)
{
    if (x->status == RB_OK) {
        rb__merge_round(acc, x);
    } else if (acc->status != RB_OK || x->status != RB_EINTR) {
        double *store = (double *)acc->samples;   /* a failure, or a first round cut short */
        *acc = *x;
        acc->samples = store;
        acc->nsamples = 0;
    }
}

/* One round of a tool's rows (rb_matrix.hook): what it ran, taken into the report's rows.
   Returns nonzero when the caller's stop flag ended it. */
static int rb__matrix_round_hook(const rb_matrix *m, rb__matrix_store *st, unsigned round)
{
    rb_config c = m->cfg;
    unsigned i;
    int rc;
    if (m->cfg.stop && *m->cfg.stop) return 1;
    c.ident = st->cfg.ident;   /* every cell against the file as the run began */
    for (i = 0; i < st->ncells; i++) st->scratch[i].status = RB_ENOTRUN;
    rc = m->hook->round(m, &c, st->scratch, round, st->rounds);
    for (i = 0; i < st->ncells; i++)
        if (st->scratch[i].status != RB_ENOTRUN) rb__matrix_take(&st->results[i], &st->scratch[i]);
    return rc || (m->cfg.stop && *m->cfg.stop);
}

/* Phase 2: one round, the cells in this round's order; a cell that did not measure (cannot
   run here, failed) is not run again. Returns nonzero when the caller's stop flag ended it. */
static int rb__matrix_round(const rb_matrix *m, rb__matrix_store *st, unsigned round, const unsigned *order)
{
    unsigned k;
    for (k = 0; k < st->ncells; k++) {
        unsigned cell = order[k];
        rb_result *acc = &st->results[cell];
        rb_config c = m->cfg;   /* as given: defaults are not idempotent (warmup RB_NONE becomes 0, then 1 s) */
        rb_matrix_event ev;
        if (m->cfg.stop && *m->cfg.stop) return 1;
        if (round > 0 && acc->status != RB_OK) continue;
        c.threads = acc->threads;
        c.read_size = acc->read_size;
        c.ident = st->cfg.ident;   /* every cell against the file as the run began */
        memset(&ev, 0, sizeof ev);
        ev.kind = RB_EVENT_CELL;
        ev.round = round;
        ev.rounds = st->rounds;
        ev.cell = cell;
        ev.cfg = &c;
        ev.strategy = acc->strategy;
        if (m->progress) m->progress(&ev, m->user);
        rb_run(&c, st->strat[cell / st->nt % st->ns], st->scratch);
        ev.kind = RB_EVENT_DONE;
        ev.result = st->scratch;
        if (m->progress) m->progress(&ev, m->user);
        rb__matrix_take(acc, st->scratch);
        if (st->scratch->status == RB_EINTR) return 1;
    }
    return 0;
}

RBDEF int rb_run_matrix(const rb_matrix *m, rb_report *rep)
{
    rb__matrix_store *st = (rb__matrix_store *)calloc(1, sizeof *st);
    uint64_t seed;
    unsigned round;
    int rc, stopped = 0;
    char why[200];
    memset(rep, 0, sizeof *rep);
    if (!st) return RB_ENOMEM;
    rep->owned = st;
    if ((rc = rb__check_axes(m, why, sizeof why)) != RB_OK || (rc = rb__matrix_alloc(m, st)) != RB_OK) {
        rb_report_free(rep);
        return rc;
    }
    if (!st->cfg.ident && rb_ident_take(&st->ident, m->cfg.path, NULL) == RB_OK) st->cfg.ident = &st->ident;
    seed = m->round_seed ? m->round_seed : rb__mix64(st->cfg.seed ^ 0x726f756e64ULL);
    for (round = 0; round < st->rounds && !stopped; round++) {
        unsigned *order = st->order + (size_t)round * st->ncells;
        rb_matrix_event ev;
        rb__round_order(st, seed, round, order);
        memset(&ev, 0, sizeof ev);
        ev.kind = RB_EVENT_ROUND;
        ev.round = round;
        ev.rounds = st->rounds;
        ev.order = order;
        ev.ncells = st->ncells;
        if (m->progress) m->progress(&ev, m->user);
        stopped = st->grouped ? rb__matrix_round_hook(m, st, round) : rb__matrix_round(m, st, round, order);
    }
    rb__matrix_stats(st);
    if (!st->grouped) rb__matrix_paired(st);
    rep->results = st->results;
    rep->count = st->ncells;
    rep->cfg = &st->cfg;
    rep->strategies = st->names;
    rep->nstrategies = st->ns;
    rep->threads = st->threads;
    rep->nthreads = st->nt;
    rep->read_sizes = st->sizes;
    rep->nread_sizes = st->nz;
    rep->rounds = round;   /* the rounds that started: an interrupt may end the run early */
    rep->rounds_asked = st->rounds;
    rep->interrupted = stopped != 0;
    rep->order = st->order;
    rep->round_seed = seed;
    if (st->grouped && m->hook->finish) m->hook->finish(m, st->results, st->ncells, rep);
    return stopped ? RB_EINTR : RB_OK;
}

/* ==== 1.13 statistics ========================================================================= */

/*
   The unit of an interval is what is independent. Iterations inside one round share the
   machine's state (its drift, its cache, its neighbours); the rounds, each cell prepared
   afresh in a shuffled order, are the replicates. So a cell's interval comes from its rounds:
   each round is summarised by the median of its iterations (a stall inside a round moves it
   little), and the interval is Student's t on the logarithms of those round medians, with
   rounds - 1 degrees of freedom. Logarithms because rates drift by factors, not by sums, and
   a ratio of two cells is then a difference. The interval is of the cell's rate over rounds,
   the geometric mean of its round medians (rb_stats.center); the headline median of all
   iterations is descriptive and lies inside it but for freak cases.
   Why t and not a bootstrap: resampling iterations pooled over rounds covered the truth in
   50-77% of simulated cells (it treats shared drift as independent evidence), and a bootstrap
   of 2-5 rounds cannot cover better than the order statistics of so few values (0.50 with 2
   rounds, 0.87 with 4). t on the round medians' logarithms covers 0.94-0.97 in the same
   simulation from 2 rounds on, under lognormal, heavy-tailed and slow-round drift (README,
   "Statistics"; tests/test_stats.c repeats it seeded). Its price is width: 2 rounds give an
   honest interval ten times as wide as 5 do. One round gives no interval, and nothing built
   on one (a verdict, a tie) is claimed.
   Outliers follow Iglewicz and Hoaglin, as hyperfine does: the modified z-score
   0.6745 (x - median) / MAD over 3.5 in absolute value, MAD the median absolute deviation
   (with MAD 0, any value off the median). They are counted, never dropped. */
static int rb__cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of v[0..n), sorting v in place. */
static double rb__median_sort(double *v, unsigned n)
{
    qsort(v, n, sizeof *v, rb__cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The regularized incomplete beta function I_x(a, b) by its continued fraction (modified
   Lentz), which converges fast for x < (a + 1) / (a + b + 2); the symmetry
   I_x(a, b) = 1 - I_{1-x}(b, a) covers the rest. */
static double rb__betacf(double a, double b, double x)
{
    double c = 1, d = 1 - (a + b) * x / (a + 1), h;
    int m;
    d = 1 / (fabs(d) < 1e-300 ? 1e-300 : d);
    h = d;
    for (m = 1; m <= 300; m++) {
        double aa = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)), del;
        d = 1 + aa * d; d = 1 / (fabs(d) < 1e-300 ? 1e-300 : d);
        c = 1 + aa / c; c = fabs(c) < 1e-300 ? 1e-300 : c;
        h *= d * c;
        aa = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
        d = 1 + aa * d; d = 1 / (fabs(d) < 1e-300 ? 1e-300 : d);
        c = 1 + aa / c; c = fabs(c) < 1e-300 ? 1e-300 : c;
        del = d * c;
        h *= del;
        if (fabs(del - 1) < 1e-12) break;
    }
    return h;
}

static double rb__ibeta(double a, double b, double x)
{
    double front;
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(1 - x));
    return x < (a + 1) / (a + b + 2) ? front * rb__betacf(a, b, x) / a : 1 - front * rb__betacf(b, a, 1 - x) / b;
}

/* The 97.5th percentile of Student's t with df degrees of freedom (df may be fractional, as
   Welch's is): the t whose upper tail 0.5 I_{df/(df+t^2)}(df/2, 1/2) is 0.025, by bisection. */
static double rb__t975(double df)
{
    double lo = 0, hi = 1000;
    int k;
    if (!(df >= 1)) df = 1;
    for (k = 0; k < 100; k++) {
        double t = (lo + hi) / 2;
        if (0.5 * rb__ibeta(df / 2, 0.5, df / (df + t * t)) > 0.025) lo = t;
        else hi = t;
    }
    return (lo + hi) / 2;
}

/* The logarithms of the per-round medians of x (rounds of n / rounds samples each, in order)
   into lg[0..rounds), their mean and variance. 0: rounds < 2, uneven rounds, or a round whose
   median is not positive (a rate of zero has no logarithm: nothing to claim). */
static int rb__round_logs(const double *x, unsigned n, unsigned rounds, double *lg, double *tmp, double *mean,
                          double *var)
{
    unsigned r, per = rounds ? n / rounds : 0;
    double m = 0, v = 0;
    if (rounds < 2 || !per || n % rounds) return 0;
    for (r = 0; r < rounds; r++) {
        double md;
        memcpy(tmp, x + (size_t)r * per, (size_t)per * sizeof *tmp);
        md = rb__median_sort(tmp, per);
        if (!(md > 0) || md != md || md > 1e300) return 0;
        lg[r] = log(md);
        m += lg[r];
    }
    m /= rounds;
    for (r = 0; r < rounds; r++) v += (lg[r] - m) * (lg[r] - m);
    *mean = m;
    *var = v / (rounds - 1);
    return 1;
}

/* The t interval of a mean of logarithms, back on the rates' scale. */
static void rb__t_interval(double mean, double var, unsigned k, double df, double *lo, double *hi)
{
    double h = rb__t975(df) * sqrt(var / k);
    *lo = exp(mean - h);
    *hi = exp(mean + h);
}

RBDEF void rb_stats_of(const double *x, unsigned n, unsigned rounds, rb_stats *out)
{
    double *v = n ? (double *)malloc((size_t)n * 3 * sizeof *v) : NULL, *dev, *lg, mad, mean, var;
    unsigned i;
    memset(out, 0, sizeof *out);
    out->n = n;
    out->rounds = rounds;
    out->median = out->center = out->ci_lo = out->ci_hi = NAN;
    if (!v) return;
    dev = v + n;
    lg = dev + n;
    memcpy(v, x, (size_t)n * sizeof *v);
    out->median = rb__median_sort(v, n);
    for (i = 0; i < n; i++) dev[i] = fabs(x[i] - out->median);
    mad = rb__median_sort(dev, n);
    for (i = 0; i < n; i++) out->outliers += 0.6745 * fabs(x[i] - out->median) > 3.5 * mad;
    if (rb__round_logs(x, n, rounds, lg, v, &mean, &var)) {
        out->center = exp(mean);
        rb__t_interval(mean, var, rounds, rounds - 1, &out->ci_lo, &out->ci_hi);
    }
    free(v);
}

/* NEW/BASE of two cells measured in separate runs: Welch's t on the difference of the mean
   logarithms of their round medians (each run keeps its own spread), with Welch-Satterthwaite
   degrees of freedom. The ratio is that of the centers, exp of the difference. Separate runs
   cannot cancel what drifted between them; rb_paired_ratio, inside one run, can. */
RBDEF int rb_ratio_ci(const double *base, unsigned nb, unsigned rounds_b, const double *cur, unsigned nc,
                      unsigned rounds_c, double *ratio, double *lo, double *hi)
{
    double *lg, *tmp, mb, vb, mc, vc, sb, sc, df;
    int ok;
    *ratio = *lo = *hi = NAN;
    if (rounds_b < 2 || rounds_c < 2) return -1;
    lg = (double *)malloc(((size_t)rounds_b + rounds_c + nb + nc) * sizeof *lg);
    if (!lg) return -1;
    tmp = lg + rounds_b + rounds_c;
    ok = rb__round_logs(base, nb, rounds_b, lg, tmp, &mb, &vb) &&
         rb__round_logs(cur, nc, rounds_c, lg + rounds_b, tmp, &mc, &vc);
    free(lg);
    if (!ok) return -1;
    *ratio = exp(mc - mb);
    sb = vb / rounds_b;
    sc = vc / rounds_c;
    df = sb + sc > 0 ? (sb + sc) * (sb + sc) / (sb * sb / (rounds_b - 1) + sc * sc / (rounds_c - 1)) : 1;
    rb__t_interval(mc - mb, sb + sc, 1, df, lo, hi);
    return 0;
}

/* Paired by round. This machine, like any shared one, drifts by tens of percent from minute to
   minute, so the intervals of two cells overlap although one may have been ahead in every
   round. A round runs every cell once, minutes apart at most, in its own shuffled order; the
   ratio of two cells' medians within one round cancels what drifts more slowly than a round,
   and the spread of those ratios over the rounds is what is left: the noise within a round and
   real differences between rounds (the cell's own preparation). The interval is t on the
   logarithms of the per-round ratios. A cell's samples are its measured rounds in order, each
   of the same number of iterations (rb__merge_round); rounds are paired by index, up to the
   fewer of the two. */
static double rb__round_median(const rb_result *x, unsigned round, double *tmp)
{
    unsigned per = x->nsamples / x->rounds;
    memcpy(tmp, x->samples + (size_t)round * per, (size_t)per * sizeof *tmp);
    return rb__median_sort(tmp, per);
}

RBDEF unsigned rb_paired_ratio(const rb_result *a, const rb_result *b, rb_stats *out)
{
    unsigned n = RB__MIN(a->rounds, b->rounds), r, per;
    double *ratio, *tmp;
    rb_stats_of(NULL, 0, 0, out);
    if (a->status != RB_OK || b->status != RB_OK || !a->samples || !b->samples || !n || !a->nsamples || !b->nsamples ||
        a->nsamples % a->rounds || b->nsamples % b->rounds)
        return 0;
    per = RB__MAX(a->nsamples / a->rounds, b->nsamples / b->rounds);
    ratio = (double *)malloc(((size_t)n + per) * sizeof *ratio);
    if (!ratio) return 0;
    tmp = ratio + n;
    for (r = 0; r < n; r++) {
        double mb = rb__round_median(b, r, tmp);
        if (!(mb > 0)) { free(ratio); return 0; }
        ratio[r] = rb__round_median(a, r, tmp) / mb;
    }
    rb_stats_of(ratio, n, n, out);   /* each ratio a round of its own */
    free(ratio);
    return n;
}

/* ==== 1.14 environment ======================================================================== */

/*
   What decides a result and is easy to forget when quoting it. Anything that cannot be
   read (a container without /sys, macOS) stays unknown and prints as null: the /proc and
   /sys readers below fail where there are none (rb__plat_proc_fopen and its kin). */
static int rb__read_text(const char *path, char *buf, size_t len)
{
    ssize_t r = rb__plat_proc_read(path, buf, len);
    if (r < 0) return -1;
    while (r > 0 && (buf[r - 1] == '\n' || buf[r - 1] == ' ')) buf[--r] = 0;
    return 0;
}

static long rb__read_long(const char *path)
{
    char b[64];
    if (rb__read_text(path, b, sizeof b) != 0) return -1;
    return strtol(b, NULL, 10);
}

/* The filesystem type from mountinfo (by device number), and the block device behind it:
   /sys/dev/block/MAJ:MIN is the device or a partition; a partition's queue is its parent's. */
static void rb__env_storage(rb_env *env, const char *path)
{
    struct stat st;
    char p[256], *line = NULL, link[512];
    size_t cap = 0;
    FILE *f;
    unsigned maj, min;
    ssize_t n;
    if (!path || stat(path, &st) != 0) return;
    maj = major(st.st_dev);
    min = minor(st.st_dev);
    f = rb__plat_proc_fopen("/proc/self/mountinfo");
    if (f) {   /* getline: a mount point can make a line of any length */
        while (getline(&line, &cap, f) > 0)
            if (rb_mountinfo_fs(line, maj, min, env->fs, sizeof env->fs) == 0) break;
        free(line);
        fclose(f);
    }
    snprintf(p, sizeof p, "/sys/dev/block/%u:%u", maj, min);
    n = rb__plat_proc_readlink(p, link, sizeof link - 1);
    if (n > 0) {
        const char *base;
        link[n] = 0;
        base = strrchr(link, '/');
        snprintf(env->device, sizeof env->device, "%.63s", base ? base + 1 : link);
    }
    snprintf(p, sizeof p, "/sys/dev/block/%u:%u/queue/read_ahead_kb", maj, min);
    env->read_ahead_kb = rb__read_long(p);
    if (env->read_ahead_kb < 0) {
        snprintf(p, sizeof p, "/sys/dev/block/%u:%u/../queue/read_ahead_kb", maj, min);
        env->read_ahead_kb = rb__read_long(p);
    }
    snprintf(p, sizeof p, "/sys/dev/block/%u:%u/queue/max_sectors_kb", maj, min);
    env->max_sectors_kb = rb__read_long(p);
    if (env->max_sectors_kb < 0) {
        snprintf(p, sizeof p, "/sys/dev/block/%u:%u/../queue/max_sectors_kb", maj, min);
        env->max_sectors_kb = rb__read_long(p);
    }
    snprintf(p, sizeof p, "/sys/dev/block/%u:%u/queue/rotational", maj, min);
    env->rotational = rb__read_long(p);
    if (env->rotational < 0) {
        snprintf(p, sizeof p, "/sys/dev/block/%u:%u/../queue/rotational", maj, min);
        env->rotational = rb__read_long(p);
    }
    /* The CPUs that take the disk's completion interrupts: a depth-1 reader on one of them is
       woken locally, elsewhere by an inter-processor interrupt (1.6x in IOPS on the project's
       VM). The driver node is what the disk's `device` link names (a partition: its parent's). */
    snprintf(p, sizeof p, "/sys/dev/block/%u:%u/device", maj, min);
    n = rb__plat_proc_readlink(p, link, sizeof link - 1);
    if (n <= 0) {
        snprintf(p, sizeof p, "/sys/dev/block/%u:%u/../device", maj, min);
        n = rb__plat_proc_readlink(p, link, sizeof link - 1);
    }
    if (n > 0) {
        const size_t cap = (size_t)1 << 20;   /* /proc/interrupts; a huge machine's is cut off */
        char *text = (char *)malloc(cap);
        const char *base;
        link[n] = 0;
        base = strrchr(link, '/');
        if (text && rb__plat_proc_read("/proc/interrupts", text, cap) > 0)
            rb_irq_cpus(text, base ? base + 1 : link, env->irq_cpus, sizeof env->irq_cpus);
        free(text);
    }
}

RBDEF int rb_mountinfo_fs(const char *line, unsigned maj, unsigned min, char *fs, size_t fslen)
{
    /* "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue":
       the optional fields end at " - "; spaces inside paths are escaped as \040 */
    unsigned a, b;
    const char *t;
    size_t n;
    if (fslen) fs[0] = 0;
    if (!line || !fslen || sscanf(line, "%*d %*d %u:%u", &a, &b) != 2 || a != maj || b != min) return -1;
    t = strstr(line, " - ");
    if (!t) return -1;
    t += 3;
    n = strcspn(t, " \n");
    if (!n) return -1;
    if (n >= fslen) n = fslen - 1;
    memcpy(fs, t, n);
    fs[n] = 0;
    return 0;
}

RBDEF int rb_irq_cpus(const char *text, const char *name, char *out, size_t outlen)
{
    /* header "CPU0 CPU1 ...", then "IRQ: count count ... chip ... action[, action]" */
    unsigned long long sum[256], total = 0;
    unsigned ncpu = 0, k, found = 0;
    size_t nl = strlen(name), used = 0;
    const char *line = text, *p;
    if (outlen) out[0] = 0;
    for (p = text; *p && *p != '\n'; p++)
        if (p[0] == 'C' && p[1] == 'P' && p[2] == 'U' && (p == text || p[-1] == ' ')) ncpu++;
    if (!ncpu || !nl) return -1;
    if (ncpu > 256) ncpu = 256;
    memset(sum, 0, sizeof sum);
    while ((line = strchr(line, '\n')) != NULL) {
        const char *end, *q;
        char *e;
        unsigned long long c[256];
        line++;
        end = strchr(line, '\n');
        if (!end) end = line + strlen(line);
        q = strchr(line, ':');
        if (!q || q > end) continue;
        q++;
        for (k = 0; k < ncpu; k++) {
            c[k] = strtoull(q, &e, 10);
            if (e == q || e > end) break;
            q = e;
        }
        if (k < ncpu) continue;   /* ERR:, MIS: and the like */
        /* the driver node as a word: virtio1-req.0 and nvme0q3 (queue 3) match, virtio10 and
           virtio1x do not */
        for (; q + nl <= end; q++)
            if (strncmp(q, name, nl) == 0 && (q[-1] == ' ' || q[-1] == ',') &&
                !((q[nl] >= '0' && q[nl] <= '9') || (q[nl] >= 'a' && q[nl] <= 'z' && q[nl] != 'q') ||
                  (q[nl] >= 'A' && q[nl] <= 'Z') || q[nl] == '_'))
                break;
        if (q + nl > end) continue;
        for (k = 0; k < ncpu; k++) { sum[k] += c[k]; total += c[k]; }
        found = 1;
    }
    if (!found || !total) return -1;
    for (k = 0; k < ncpu; k++)
        if (sum[k] * 100 >= total && used + 8 < outlen)
            used += (size_t)snprintf(out + used, outlen - used, "%s%u", used ? "," : "", k);
    return 0;
}

/* A warning's threshold: a fault that maps and zeroes a fresh 4 KiB page takes well under a
   microsecond on a native machine; 5 us is over ten times that. The project's VM measured
   20-35 us in its slow periods. */
#define RB__SLOW_TOUCH_NS 5000.0

RBDEF int rb_env_slow_touch_warning(const rb_env *e, char *out, size_t len)
{
    if (len) out[0] = 0;
    if (!(e->page_touch_ns >= RB__SLOW_TOUCH_NS)) return 0;
    /* one line of advise's warnings (RB_REASON_LEN): the why is in README's pitfalls */
    rb__fmt(out, len, "a fresh page took %.1f us to touch (%.2f us again; natively under 1): the hypervisor is in "
            "every new page mapping and every page fault pays it, so mmap and cold figures now are slower than "
            "this machine's own; compare cpu_ns_per_read between runs", e->page_touch_ns / 1000,
            e->page_retouch_ns / 1000);
    return 1;
}

/* The host's share of a page fault, measured: 16 MiB of fresh anonymous memory touched one
   byte per page, then touched again. The first pass pays the kernel's fault and zeroing and,
   on a VM whose memory the host has taken back, the host's fault too; the second pays
   neither. The "slow periods" this project's VM had (warm mmap reads at 40-50 us of CPU each
   instead of 2) were this: 20-35 us per fresh page against 0.03 again, after gigabytes of page
   cache had been evicted and reloaded. 4096 pages: a few ms normally, ~0.1 s when slow. */
static void rb__env_first_touch(rb_env *env)
{
    size_t page = rb__page_size(), len = (size_t)16 << 20, i, n = len / page;
    volatile unsigned char *m;
    uint64_t t0, t1, t2;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    env->page_touch_ns = env->page_retouch_ns = -1;
    if (p == MAP_FAILED) return;   /* unknown, and said so: null in JSON, "not measured" in the banner */
    m = (volatile unsigned char *)p;
    t0 = rb__now_ns();
    for (i = 0; i < len; i += page) m[i] = 1;
    t1 = rb__now_ns();
    for (i = 0; i < len; i += page) m[i] = 2;
    t2 = rb__now_ns();
    if (munmap(p, len) != 0) return;
    env->page_touch_ns = (double)(t1 - t0) / (double)n;
    env->page_retouch_ns = (double)(t2 - t1) / (double)n;
}

/* Everything but the fresh-page touch (the probe asks once per case for the device's facts). */
static void rb__env_base(rb_env *env, const char *path)
{
    struct utsname u;
    struct timespec res;
    struct stat st;
    uint64_t t0, t1;
    int i;
    memset(env, 0, sizeof *env);
    env->ram_total = env->ram_available = env->file_size = -1;
    env->read_ahead_kb = env->rotational = env->fault_around_bytes = env->max_sectors_kb = -1;
    env->cgroup_limit = env->cgroup_usage = -1;
    env->cpus = sysconf(_SC_NPROCESSORS_ONLN);
    env->page_size = (long)rb__page_size();
    env->root = geteuid() == 0;
    if (uname(&u) == 0) {
        snprintf(env->os, sizeof env->os, "%s", u.sysname);
        snprintf(env->kernel, sizeof env->kernel, "%s", u.release);
    }
    env->liburing = RB__BUILT_LIBURING;
    snprintf(env->compiler, sizeof env->compiler, "%s", RB__COMPILER);
    env->flags = RB__BUILD_FLAGS;
    if (path && stat(path, &st) == 0) env->file_size = (long long)st.st_size;
    env->files = env->file_size >= 0;
    if (rb__is_dir(path)) {   /* a directory: its files' bytes */
        rb__dirlist d;
        unsigned k;
        env->file_size = -1;
        env->files = 0;
        if (rb__dir_scan(path, &d, NULL) == RB_OK) {
            for (env->file_size = 0, k = 0; k < d.n; k++) env->file_size += (long long)d.e[k].size;
            env->files = (long)d.n;
        }
        rb__dirlist_free(&d);
    }
    env->clock = "CLOCK_MONOTONIC";
    if (clock_getres(CLOCK_MONOTONIC, &res) == 0)
        env->clock_res_ns = (double)res.tv_sec * 1e9 + (double)res.tv_nsec;
    t0 = rb__now_ns();
    for (i = 0; i < 100000; i++) t1 = rb__now_ns();
    t1 = rb__now_ns();
    env->clock_cost_ns = (double)(t1 - t0) / 100001.0;
    env->page_touch_ns = env->page_retouch_ns = -1;
    {   /* Linux: /proc and /sys (nothing elsewhere) */
        FILE *f = rb__plat_proc_fopen("/proc/cpuinfo");
        char line[512];
        if (f) {
            while (fgets(line, sizeof line, f)) {
                char *c = strchr(line, ':');
                if (strncmp(line, "model name", 10) == 0 && c) {
                    size_t l;
                    snprintf(env->cpu, sizeof env->cpu, "%s", c + 2);
                    l = strlen(env->cpu);
                    if (l && env->cpu[l - 1] == '\n') env->cpu[l - 1] = 0;
                    break;
                }
            }
            fclose(f);
        }
        env->ram_total = rb__meminfo("MemTotal");
        env->ram_available = rb_mem_available();   /* a container's limit included */
        {
            rb_memcg cg;
            if (rb_memcg_read(&cg) == 0 && cg.limit >= 0) { env->cgroup_limit = cg.limit; env->cgroup_usage = cg.usage; }
        }
        if (rb__read_text("/sys/kernel/mm/transparent_hugepage/enabled", line, sizeof line) == 0) {
            char *a = strchr(line, '['), *b = a ? strchr(a, ']') : NULL;
            if (a && b) snprintf(env->thp, sizeof env->thp, "%.*s", (int)(b - a - 1), a + 1);
        }
        /* MGLRU decides which pages pressure evicts (absent before 6.1, or not built in) */
        if (rb__read_text("/sys/kernel/mm/lru_gen/enabled", line, sizeof line) == 0)
            snprintf(env->lru_gen, sizeof env->lru_gen, "%.15s", line);
        env->fault_around_bytes = rb__read_long("/sys/kernel/debug/fault_around_bytes");
        rb__env_storage(env, path);
    }
    rb__plat_sysctl_env(env, path);   /* macOS: sysctl and statfs (nothing elsewhere) */
}

RBDEF void rb_env_collect(rb_env *env, const char *path)
{
    rb__env_base(env, path);
    rb__env_first_touch(env);
}

RBDEF double rb_env_file_ram_ratio(const rb_env *e, const char **what)
{
    int cg = e->cgroup_limit > 0 && (e->ram_total <= 0 || e->cgroup_limit < e->ram_total);
    long long mem = cg ? e->cgroup_limit : e->ram_total;
    if (what) *what = cg ? "the memory cgroup's limit" : "RAM";
    return e->file_size >= 0 && mem > 0 ? (double)e->file_size / (double)mem : -1;
}

#ifdef __cplusplus
}
#endif
#endif /* READBENCH_IMPLEMENTATION: the core */

/* ==== 2 reports (RB_NO_REPORTS leaves them out): what a run says, in every format ============= */
#if !defined(RB_NO_REPORTS)
#ifndef READBENCH_REPORTS_H
#define READBENCH_REPORTS_H
#ifdef __cplusplus
extern "C" {
#endif

/* -- 2.5 progress and the lines around a run (declarations) -- */

/* RB_OK; RB_EINVAL when an output names an input or another output, or lands in an input that
   is a directory (one of its files by any name or link, or a new name in it: the next run of
   it would read that too); RB_ENOTREG when it is a directory, block device or socket. Checked
   before anything is opened. NULLs are skipped. */
RBDEF int rb_check_outputs(const char *const *outputs, unsigned nout, const char *const *inputs, unsigned nin,
                           rb_error *err);

RBDEF FILE *rb_outfile_stdio(rb_outfile *o, rb_error *err);   /* a stdio stream on o->fd */

/* A command's reports: paths[i] (NULL: none) checked against the inputs and each other, then
   opened with a stdio stream each (o[i].f; NULL for none), replacing a regular file, following
   a link, streaming to a device. On failure nothing stays open or created. */
RBDEF int rb_outfiles_open(rb_outfile *o, const char *const *paths, unsigned n, const char *const *inputs,
                           unsigned nin, rb_error *err);

/* keep: commit each (the first error is returned, the others still commit); else abort each. */
RBDEF int rb_outfiles_close(rb_outfile *o, unsigned n, int keep, rb_error *err);

/* Every writer takes one of these (json is 1 so that the old "json flag" calls still mean json). */
enum { RB_FORMAT_TABLE = 0, RB_FORMAT_JSON = 1, RB_FORMAT_MARKDOWN = 2, RB_FORMAT_CSV = 3 };

RBDEF int rb_format_find(const char *name);   /* "table", "json", "markdown", "csv"; -1: none */

RBDEF void rb_report_write(FILE *f, const rb_report *r, int format);

RBDEF void rb_report_table(FILE *f, const rb_report *r, int markdown);

RBDEF void rb_report_csv(FILE *f, const rb_report *r);

RBDEF void rb_report_json(FILE *f, const rb_report *r);

RBDEF void rb_json_string(FILE *f, const char *s);

RBDEF void rb_env_print(FILE *f, const rb_env *env);

/* Charts: a self-contained SVG (no script, no fonts, no dependency). For each strategy a group
   of bars, one per thread count (or per read size when there is one thread count), ops/ms up;
   log_scale: decades on the y axis. Cells that did not run are drawn as dashed stubs naming why.
   title NULL: "readbench"; the subtitle names the kernel, RAM, file/RAM ratio and device (env). */
RBDEF void rb_report_svg(FILE *f, const rb_report *r, const char *title, int log_scale);

/* rb_report_residency(f, path, info, evicted): rb_residency's answer as one line of text; with
   evicted, what an rb_evict left cached and why (dirty, under writeback, or mapped). */
RBDEF void rb_report_residency(FILE *f, const char *path, const rb_residency_info *ri, int evicted);

/* rb_report_list(f, cfg) every strategy, probed with `cfg` on its file: one line each saying:
   whether it runs here and what one op does, or why not (readbench list); stops early when
   cfg->stop is set. */
RBDEF void rb_report_list(FILE *f, const rb_config *cfg);

/* The strategy table's facts as a markdown table (readbench list --format markdown), the one
   source of every strategy table in the docs: each row's flags, advice, hint and policy. */
RBDEF void rb_report_strategies_markdown(FILE *f);

/* The same, as `readbench list` runs it: on cfg->path (checked first), or with no path on a 1 MiB
   file of its own in TMPDIR (else /tmp), never the current directory (it may be read-only, and
   it is the user's), removed after, a stop included. RB_EINTR: cfg->stop ended it. */
RBDEF int rb_report_list_here(FILE *f, const rb_config *cfg, rb_error *err);

/* rb_report_progress(f, ev): a matrix event as progress text: a round's shuffled order (with two
   rounds or more), a cell's name before it runs, then the rest of its line (ops/ms or why not,
   prepare times, residency, amplification). */
RBDEF void rb_report_progress(FILE *f, const rb_matrix_event *ev);

/* Ready-made callbacks writing to the FILE * given as their user pointer (the error stream, say): the
   matrix's progress as rb_report_progress writes it, and rb_config.log's lines as "readbench: LINE". */
RBDEF void rb_report_progress_to(const rb_matrix_event *ev, void *file);

RBDEF void rb_log_to(void *file, const char *line);

/* rb_report_summary(f, report, interrupted, hint), rb_report_title(s, hog_as, buf, len): how a
   matrix run ended (cells failed, cells interrupted, cells with too few ops to time finely, then
   the caller's hint), and a chart's title naming the case measured. rb_report_setup_progress /
   _setup_done, rb_report_hog, rb_report_scenario, rb_report_file say what else a command says;
   rb_report_list_here is `readbench list`; rb_diff_files `readbench diff`. */
/* How a matrix run ended, on f (the error stream): with interrupted (or the report's own flag),
   how many cells finished and how many of them in fewer rounds than asked; else how many failed; then how many cells had a thread with fewer than RB_FEW_OPS ops in an iteration,
   followed by ": hint" (the caller's way to lengthen one; NULL: none). Returns the cells that
   failed (a strategy unsupported here has not failed). */
RBDEF unsigned rb_report_summary(FILE *f, const rb_report *r, int interrupted, const char *hint);

/* rb_setup_file's progress as a bar ("writing: 42% ..."), last: the final call; then its outcome
   (a directory: how many files with data it holds, each of which a run reads). */
RBDEF void rb_report_setup_progress(FILE *f, uint64_t done, uint64_t total, int last);

RBDEF void rb_report_setup_done(FILE *f, const char *path, uint64_t size, double seconds);

/* What rb_check_file found that makes a file's numbers wrong (sparse, zeros), one line each. */
RBDEF void rb_report_file(FILE *f, const char *path, const rb_file_info *info);

/* A FILE refused (rc and err from rb_check_file, rb_check_one_file or rb_probe_check), with the
   command that makes one: missing (and its directory made first when that is missing too), or
   too small (small_hint 1: setup did not make it, so a new file, never --force over it; 2: it
   did; 0: no hint). size: setup's SIZE ("1g"). */
RBDEF void rb_report_refused(FILE *f, int rc, const rb_error *err, const char *path, const char *size, int small_hint);

/* A hog: h NULL before rb_hog_take (the size it pins), then what it got (warnings, room left). */
RBDEF void rb_report_hog(FILE *f, uint64_t size, const rb_hog *h);

#ifdef __cplusplus
}
#endif
#endif /* READBENCH_REPORTS_H */

#if defined(READBENCH_IMPLEMENTATION) && !defined(READBENCH_REPORTS_DONE)
#define READBENCH_REPORTS_DONE
#ifdef __cplusplus
extern "C" {
#endif

/* ==== 2.1 table and markdown ================================================================== */

/*
   Messages hold file names, and a file name is any bytes. Two rules keep every output
   well-formed: the writers replace what is not UTF-8 with U+FFFD (rb__utf8_len decides, for
   JSON and XML alike), and a message cut to fit its buffer is cut between two characters,
   never inside one (rb__fmt), so a long reason does not end in half a character. */
/* Length of the valid UTF-8 sequence at p (1-4), or 0 if the bytes there are not one. */
static int rb__utf8_len(const unsigned char *p)
{
    int n, i;
    if (p[0] < 0x80) return 1;
    if (p[0] >= 0xc2 && p[0] <= 0xdf) n = 2;
    else if (p[0] >= 0xe0 && p[0] <= 0xef) n = 3;
    else if (p[0] >= 0xf0 && p[0] <= 0xf4) n = 4;
    else return 0;
    for (i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80) return 0;
    if (n == 3 && ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0))) return 0;  /* overlong, surrogate */
    if (n == 4 && ((p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90))) return 0;  /* overlong, > U+10FFFF */
    return n;
}

/* A row's name in every table and progress line: its strategy, or "g2 pread (together)". */
/* Group g's spec as given (0-based), from the first of its rows. */
static const char *rb__group_spec(const rb_report *r, unsigned g)
{
    unsigned i;
    for (i = 0; i < r->count; i++)
        if (r->results[i].group == g + 1) return r->results[i].group_spec;
    return "";
}

static const char *rb__label(const rb_result *x, char *buf, size_t len)
{
    if (!x->group) snprintf(buf, len, "%s", x->strategy ? x->strategy : "?");
    else snprintf(buf, len, "g%u %s (%s)", x->group, x->strategy ? x->strategy : "?",
                  x->group_run == RB_RUN_ALONE ? "alone" : "together");
    return buf;
}

/*
   table and markdown: the Lucene PR's shape, strategy rows x thread-count columns of
   ops/ms (or x read-size columns when there is one thread count and several read sizes),
   then a latency table with one row per cell. csv: one row per cell. json: one document. */
static const double rb__default_pct[] = {50, 90, 99, 99.9};

RBDEF const rb_result *rb_report_cell(const rb_report *r, unsigned strategy, unsigned thread, unsigned size)
{
    size_t k;
    if (strategy >= r->nstrategies || thread >= r->nthreads || size >= r->nread_sizes) return NULL;
    k = ((size_t)size * r->nstrategies + strategy) * r->nthreads + thread;
    return k < r->count ? &r->results[k] : NULL;
}

RBDEF int rb_format_find(const char *name)
{
    static const char *const names[] = {"table", "json", "markdown", "csv"};
    int i;
    for (i = 0; name && i < 4; i++)
        if (!strcmp(name, names[i])) return i;
    return -1;
}

/* The shortest spelling that reads back as the same number: 99.9 is "p99.9", 99.90000001 is
   "p99.90000001" (not a second "p99.9"), 99.99999999 is not "p100". */
static void rb__pct_label(double p, char *buf, size_t len)
{
    int prec;
    for (prec = 1; prec < 17; prec++) {
        snprintf(buf, len, "p%.*g", prec, p);
        if (!strchr(buf, 'e') && strtod(buf + 1, NULL) == p) return;   /* "p50", never "p5e+01" */
    }
    snprintf(buf, len, "p%.17g", p);
}

/* Every measured iteration's ops/ms: all rounds of a matrix run, or the one rb_run's. */
static const double *rb__samples(const rb_result *x, unsigned *n)
{
    *n = x->samples ? x->nsamples : x->iterations;
    return x->samples ? x->samples : x->iter_ops_per_ms;
}

/* A cell's headline: the median with the half-width of its 95% interval (the wider side, the
   interval being asymmetric), like JMH's "score +- error"; a report built from rb_run results
   without statistics shows the mean. advise's tables (3.7) still show this; run's grids show
   the interval's two ends (rb__cell_range_text): "79.10 +- 1318.03" of 2 rounds implied a
   negative lower end where the interval was [4.70, 1397]. */
static void rb__cell_text(const rb_result *x, char *buf, size_t len)
{
    double v, hw;
    if (!x || x->status == RB_ENOTRUN) { snprintf(buf, len, x ? "not run" : "-"); return; }
    if (x->status == RB_UNSUPPORTED) { snprintf(buf, len, "n/a"); return; }
    if (x->status == RB_EINTR) { snprintf(buf, len, "interrupted"); return; }
    if (x->status != RB_OK) { snprintf(buf, len, "error"); return; }
    v = x->nsamples ? x->ops_per_ms_median : x->ops_per_ms;
    hw = RB__MAX(x->ci_hi - v, v - x->ci_lo);
    if (x->rate_upper_bound) snprintf(buf, len, v < 1 ? "< %.3g" : "< %.2f", v);   /* no op completed: at most */
    else if (!x->nsamples || x->ci_lo != x->ci_lo) snprintf(buf, len, v < 1 ? "%.3g" : "%.2f", v);
    else snprintf(buf, len, v < 1 ? "%.3g \xc2\xb1 %.2g" : "%.2f \xc2\xb1 %.2f", v, hw);   /* cold cells: 0.0041, not 0.00 */
}

/* One end of an interval, with about 3 significant digits and never an exponent above 1:
   1397, 79.1, 4.70, 0.00412. */
static void rb__end_text(double v, char *buf, size_t len)
{
    double a = fabs(v);
    snprintf(buf, len, a >= 99.95 ? "%.0f" : a >= 9.995 ? "%.1f" : a >= 1 ? "%.2f" : "%.3g", v);
}

/* A cell of run's grids: the median (the mean for rb_run results without statistics) and,
   from two rounds, its 95% interval's two ends, "79.10 [4.70, 1397]": the interval is on the
   logarithms of the round medians, so it is asymmetric about the median (which it need not
   contain), and a "+- h" of its wider side implied a lower end below zero. Otherwise as
   rb__cell_text. */
static void rb__cell_range_text(const rb_result *x, char *buf, size_t len)
{
    char lo[32], hi[32];
    double v;
    rb__cell_text(x, buf, len);
    if (!x || x->status != RB_OK || x->rate_upper_bound || !x->nsamples || x->ci_lo != x->ci_lo) return;
    v = x->ops_per_ms_median;
    rb__end_text(x->ci_lo, lo, sizeof lo);
    rb__end_text(x->ci_hi, hi, sizeof hi);
    snprintf(buf, len, v < 1 ? "%.3g [%s, %s]" : "%.2f [%s, %s]", v, lo, hi);   /* cold cells: 0.0041, not 0.00 */
}

/* A row that is no result, as a line: "error: why", or the status word alone when the reason
   only repeats it (never "interrupted: interrupted"). */
static void rb__status_reason(FILE *f, int status, const char *reason)
{
    const char *w = rb_status_word(status);
    if (!reason || !*reason || !strcmp(reason, w)) fprintf(f, "%s\n", w);
    else fprintf(f, "%s: %s\n", w, reason);
}

/* Columns are as wide as what they show on a terminal: a UTF-8 character ("\xc2\xb1") is one. */
static int rb__dlen(const char *s)
{
    int n = 0;
    for (; *s; s++) n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

/* A result's warnings, the count of dropped ones as a last line: every writer lists them
   the same way. */
static unsigned rb__nwarn(const rb_result *x) { return x->nwarnings + (x->warnings_dropped ? 1u : 0u); }

static const char *rb__warning(const rb_result *x, unsigned k, char *buf, size_t len)
{
    if (k < x->nwarnings) return x->warnings[k];
    snprintf(buf, len, "%u more warnings were not kept", x->warnings_dropped);
    return buf;
}

/* The footnote number of a cell with warnings ("[2]"), "" for a cell without. */
static void rb__warn_mark(const rb_report *r, const rb_result *x, char *buf, size_t len)
{
    unsigned i, n = 0;
    buf[0] = 0;
    if (!x || !rb__nwarn(x)) return;
    for (i = 0; i < r->count && &r->results[i] != x; i++) n += rb__nwarn(&r->results[i]) ? 1u : 0u;
    snprintf(buf, len, " [%u]", n + 1);
}

/* The footnotes: each cell with warnings, numbered as its mark in the tables. */
static void rb__table_warnings(FILE *f, const rb_report *r, int md)
{
    unsigned i, k, n = 0;
    char sz[32], more[64], label[64];
    for (i = 0; i < r->count; i++) {
        const rb_result *x = &r->results[i];
        if (!rb__nwarn(x)) continue;
        if (n++ == 0) fprintf(f, "\n%swarnings%s\n\n", md ? "**" : "", md ? "**" : "");
        rb_format_size(x->read_size, sz, sizeof sz);
        fprintf(f, "%s[%u] %s T%02u %s:\n", md ? "- " : "  ", n, rb__label(x, label, sizeof label), x->threads, sz);
        for (k = 0; k < rb__nwarn(x); k++)
            fprintf(f, "%s%s\n", md ? "  - " : "      ", rb__warning(x, k, more, sizeof more));
    }
}

static void rb__row(FILE *f, int md, const char *const *cells, unsigned n, const int *width)
{
    unsigned i;
    for (i = 0; i < n; i++) {
        int pad = width[i] - rb__dlen(cells[i]);
        if (md) fprintf(f, "| %s ", cells[i]);
        else if (i == 0) fprintf(f, "%s%*s", cells[i], pad > 0 ? pad : 0, "");
        else fprintf(f, "  %*s%s", pad > 0 ? pad : 0, "", cells[i]);
    }
    fprintf(f, md ? "|\n" : "\n");
}

static void rb__rule(FILE *f, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++) fprintf(f, i ? "|---:" : "|---");
    fprintf(f, "|\n");
}

#define RB__LATCOLS (11u + RB_MAX_PERCENTILES)   /* the latency table's columns */

/* One ops/ms grid: a row per strategy, a column per thread count (or per read size when
   by_size), every column as wide as its widest cell. */
#define RB__GRIDCELL 64   /* "0.00412 [0.00398, 0.00425] [12]" and room to spare */
static void rb__grid(FILE *f, const rb_report *r, int md, int by_size, unsigned g)
{
    unsigned ncols = by_size ? r->nread_sizes : r->nthreads, i, j;
    char (*cell)[RB__GRIDCELL] =
        (char (*)[RB__GRIDCELL])calloc((size_t)(r->nstrategies + 1) * (ncols + 1), RB__GRIDCELL);
    const char *cells[RB_MAX_AXIS + 1];
    int width[RB_MAX_AXIS + 1];
    if (!cell || ncols > RB_MAX_AXIS) { free(cell); fprintf(f, "(out of memory)\n"); return; }
    snprintf(cell[0], RB__GRIDCELL, "strategy");
    for (j = 0; j < ncols; j++) {
        if (by_size) rb_format_size(r->read_sizes[j], cell[j + 1], RB__GRIDCELL);
        else snprintf(cell[j + 1], RB__GRIDCELL, "T%02u", r->threads[j]);
    }
    for (i = 0; i < r->nstrategies; i++) {
        char (*row)[RB__GRIDCELL] = cell + (size_t)(i + 1) * (ncols + 1);
        snprintf(row[0], RB__GRIDCELL, "%s", r->strategies[i]);
        for (j = 0; j < ncols; j++) {
            const rb_result *x = by_size ? rb_report_cell(r, i, 0, j) : rb_report_cell(r, i, j, g);
            char mark[16];
            rb__cell_range_text(x, row[j + 1], RB__GRIDCELL);
            rb__warn_mark(r, x, mark, sizeof mark);   /* "0.00333 [12]": see the warnings below */
            snprintf(row[j + 1] + strlen(row[j + 1]), RB__GRIDCELL - strlen(row[j + 1]), "%s", mark);
        }
    }
    for (j = 0; j <= ncols; j++) {
        width[j] = j ? 8 : 0;
        for (i = 0; i <= r->nstrategies; i++)
            width[j] = RB__MAX(width[j], rb__dlen(cell[(size_t)i * (ncols + 1) + j]));
    }
    for (i = 0; i <= r->nstrategies; i++) {
        for (j = 0; j <= ncols; j++) cells[j] = cell[(size_t)i * (ncols + 1) + j];
        rb__row(f, md, cells, ncols + 1, width);
        if (md && i == 0) rb__rule(f, ncols + 1);
    }
    fprintf(f, "\n");
    free(cell);
}

/* What the latency table's title says about the load when it is not the default closed loop:
   where an open loop's latency starts, or the think time left out of it (cells share it). */
static void rb__load_note(const rb_report *r, char *buf, size_t len)
{
    unsigned i;
    buf[0] = 0;
    for (i = 0; i < r->count; i++) {
        const rb_result *x = &r->results[i];
        if (x->status != RB_OK) continue;
        if (x->rate_asked > 0)
            snprintf(buf, len, ", from each op's intended start (open loop: its wait behind late ops included)");
        else if (x->think_ns > 0)
            snprintf(buf, len, "; closed loop with %.6g us of busy think time after each op, not in its latency",
                     (double)x->think_ns / 1e3);
        if (buf[0]) return;
    }
}

/* The latency table: one row per measured cell. Returns how many cells were not measured. */
/* A count, "?" when unknown (-1). */
static void rb__int_cell(int64_t v, char *buf)
{
    if (v >= 0) snprintf(buf, 64, "%lld", (long long)v);
    else snprintf(buf, 64, "?");
}

/* One latency figure in microseconds, "-" when there is none to give. */
static void rb__lat_cell(const rb_hist *h, uint64_t ns, int known, char *buf)
{
    if (rb_hist_total(h) && known) snprintf(buf, 32, "%.2f", (double)ns / 1e3);
    else snprintf(buf, 32, "-");
}

static unsigned rb__table_latency(FILE *f, const rb_report *r, int md, const double *pct, unsigned npct)
{
    unsigned i, notes = 0;
    char lc[RB__LATCOLS][64];   /* 64: the advice column's longest text */
    const char *lcells[RB__LATCOLS];
    int lw[RB__LATCOLS];
    unsigned nl = 0, k;
    char load[128];
    rb__load_note(r, load, sizeof load);
    fprintf(f, "%slatency per op, microseconds%s%s\n\n", md ? "**" : "", load, md ? "**" : "");
    snprintf(lc[nl++], 32, "strategy");
    snprintf(lc[nl++], 32, "threads");
    snprintf(lc[nl++], 32, "read");
    snprintf(lc[nl++], 32, "mean ops/ms");
    snprintf(lc[nl++], 32, "+-sd");
    snprintf(lc[nl++], 32, "outliers");
    snprintf(lc[nl++], 32, "ops");   /* a rate from a handful of ops is coarse: show how many */
    snprintf(lc[nl++], 32, "min");
    snprintf(lc[nl++], 32, "mean");
    for (k = 0; k < npct; k++) rb__pct_label(pct[k], lc[nl++], 32);
    snprintf(lc[nl++], 32, "max");
    snprintf(lc[nl++], 32, "madvise");
    for (k = 0; k < nl; k++) { lcells[k] = lc[k]; lw[k] = RB__MAX(9, (int)strlen(lc[k])); }
    for (i = 0; i < r->nstrategies; i++) lw[0] = RB__MAX(lw[0], (int)strlen(r->strategies[i]));
    rb__row(f, md, lcells, nl, lw);
    if (md) rb__rule(f, nl);
    for (i = 0; i < r->count; i++) {
        const rb_result *x = &r->results[i];
        unsigned c = 0;
        if (x->status != RB_OK) { notes++; continue; }
        rb__label(x, lc[c++], sizeof lc[0]);
        snprintf(lc[c++], 32, "%u", x->threads);
        rb_format_size(x->read_size, lc[c++], 32);
        snprintf(lc[c++], 32, x->ops_per_ms < 1 ? "%s%.3g" : "%s%.2f", x->rate_upper_bound ? "< " : "", x->ops_per_ms);
        if (x->ops_per_ms_stddev != x->ops_per_ms_stddev) snprintf(lc[c++], 32, "-");   /* one iteration */
        else snprintf(lc[c++], 32, x->ops_per_ms_stddev < 1 ? "%.3g" : "%.2f", x->ops_per_ms_stddev);
        if (x->nsamples) snprintf(lc[c++], 32, "%u of %u", x->outliers, x->nsamples);
        else snprintf(lc[c++], 32, "-");
        snprintf(lc[c++], 32, "%llu", (unsigned long long)x->ops);
        rb__lat_cell(&x->lat, x->lat.min, 1, lc[c++]);   /* "-": no op fit in the window */
        rb__lat_cell(&x->lat, (uint64_t)rb_hist_mean(&x->lat), 1, lc[c++]);
        for (k = 0; k < npct; k++)   /* "-": too few ops for this percentile */
            rb__lat_cell(&x->lat, rb_hist_percentile(&x->lat, pct[k]), rb_hist_percentile_known(&x->lat, pct[k]),
                         lc[c++]);
        rb__lat_cell(&x->lat, x->lat.max, 1, lc[c++]);
        if (x->madvise_calls) snprintf(lc[c++], 32, "%llu/%llu fail",
                                       (unsigned long long)x->madvise_calls,
                                       (unsigned long long)x->madvise_failed);
        else if (x->fadvise_calls) snprintf(lc[c++], 64, "%llu/%llu fail (fadvise)",   /* pread-fadvise's calls */
                                            (unsigned long long)x->fadvise_calls,
                                            (unsigned long long)x->fadvise_failed);
        else snprintf(lc[c++], 32, "-");
        rb__row(f, md, lcells, nl, lw);
    }
    return notes;
}

/* The open loop's service time: the rate asked and achieved, the arrivals served, and each op
   from its actual start (the latency table runs from its intended start); shown only when a
   cell ran open loop. */
static void rb__table_open_loop(FILE *f, const rb_report *r, int md, const double *pct, unsigned npct)
{
    char lc[RB__LATCOLS][32];
    const char *lcells[RB__LATCOLS];
    int lw[RB__LATCOLS];
    unsigned i, k, nl = 0, any = 0;
    for (i = 0; i < r->count; i++) any |= r->results[i].status == RB_OK && r->results[i].rate_asked > 0;
    if (!any) return;
    fprintf(f, "\n%sopen loop: rate asked and achieved (ops/s), arrivals served, and service time per op from its "
               "actual start, microseconds%s\n\n", md ? "**" : "", md ? "**" : "");
    snprintf(lc[nl++], 32, "strategy");
    snprintf(lc[nl++], 32, "threads");
    snprintf(lc[nl++], 32, "read");
    snprintf(lc[nl++], 32, "arrivals");
    snprintf(lc[nl++], 32, "asked");
    snprintf(lc[nl++], 32, "achieved");
    snprintf(lc[nl++], 32, "served");
    snprintf(lc[nl++], 32, "min");
    snprintf(lc[nl++], 32, "mean");
    for (k = 0; k < npct; k++) rb__pct_label(pct[k], lc[nl++], 32);
    snprintf(lc[nl++], 32, "max");
    for (k = 0; k < nl; k++) { lcells[k] = lc[k]; lw[k] = RB__MAX(9, (int)strlen(lc[k])); }
    for (i = 0; i < r->nstrategies; i++) lw[0] = RB__MAX(lw[0], (int)strlen(r->strategies[i]));
    rb__row(f, md, lcells, nl, lw);
    if (md) rb__rule(f, nl);
    for (i = 0; i < r->count; i++) {
        const rb_result *x = &r->results[i];
        const rb_hist *h = &x->service;
        unsigned c = 0;
        if (x->status != RB_OK || !(x->rate_asked > 0)) continue;
        snprintf(lc[c++], 32, "%s", x->strategy);
        snprintf(lc[c++], 32, "%u", x->threads);
        rb_format_size(x->read_size, lc[c++], 32);
        snprintf(lc[c++], 32, "%s", rb_arrivals_name(x->arrivals));
        snprintf(lc[c++], 32, "%.6g", x->rate_asked);
        snprintf(lc[c++], 32, "%.6g", x->ops_per_ms * 1000.0);
        if (x->arrivals_due) snprintf(lc[c++], 32, "%.1f%%", 100.0 * (double)x->ops / (double)x->arrivals_due);
        else snprintf(lc[c++], 32, "-");
        rb__lat_cell(h, h->min, 1, lc[c++]);
        rb__lat_cell(h, (uint64_t)rb_hist_mean(h), 1, lc[c++]);
        for (k = 0; k < npct; k++)
            rb__lat_cell(h, rb_hist_percentile(h, pct[k]), rb_hist_percentile_known(h, pct[k]), lc[c++]);
        rb__lat_cell(h, h->max, 1, lc[c++]);
        rb__row(f, md, lcells, nl, lw);
    }
}

/* The latency of each read, for the strategies whose reads outlive their op (io_uring-qd: from
   queueing to reaping); the table is there only when a cell has such figures. */
static void rb__table_read_latency(FILE *f, const rb_report *r, int md, const double *pct, unsigned npct)
{
    char lc[RB__LATCOLS][64];
    const char *lcells[RB__LATCOLS];
    int lw[RB__LATCOLS];
    unsigned i, k, nl = 0, any = 0;
    for (i = 0; i < r->count; i++) any |= r->results[i].status == RB_OK && rb_hist_total(&r->results[i].read_lat) > 0;
    if (!any) return;
    fprintf(f, "\n%slatency per read, microseconds (reads kept in flight across ops: queued to reaped)%s\n\n",
            md ? "**" : "", md ? "**" : "");
    snprintf(lc[nl++], 32, "strategy");
    snprintf(lc[nl++], 32, "threads");
    snprintf(lc[nl++], 32, "read");
    snprintf(lc[nl++], 32, "reads");
    snprintf(lc[nl++], 32, "in flight");   /* at most, per thread: the depth the ring reached */
    snprintf(lc[nl++], 32, "min");
    snprintf(lc[nl++], 32, "mean");
    for (k = 0; k < npct; k++) rb__pct_label(pct[k], lc[nl++], 32);
    snprintf(lc[nl++], 32, "max");
    for (k = 0; k < nl; k++) { lcells[k] = lc[k]; lw[k] = RB__MAX(9, (int)strlen(lc[k])); }
    for (i = 0; i < r->nstrategies; i++) lw[0] = RB__MAX(lw[0], (int)strlen(r->strategies[i]));
    rb__row(f, md, lcells, nl, lw);
    if (md) rb__rule(f, nl);
    for (i = 0; i < r->count; i++) {
        const rb_result *x = &r->results[i];
        const rb_hist *h = &x->read_lat;
        unsigned c = 0;
        if (x->status != RB_OK || !rb_hist_total(h)) continue;
        rb__label(x, lc[c++], sizeof lc[0]);
        snprintf(lc[c++], 32, "%u", x->threads);
        rb_format_size(x->read_size, lc[c++], 32);
        snprintf(lc[c++], 32, "%llu", (unsigned long long)rb_hist_total(h));
        snprintf(lc[c++], 32, "%u", x->inflight_max);
        rb__lat_cell(h, h->min, 1, lc[c++]);
        rb__lat_cell(h, (uint64_t)rb_hist_mean(h), 1, lc[c++]);
        for (k = 0; k < npct; k++)
            rb__lat_cell(h, rb_hist_percentile(h, pct[k]), rb_hist_percentile_known(h, pct[k]), lc[c++]);
        rb__lat_cell(h, h->max, 1, lc[c++]);
        rb__row(f, md, lcells, nl, lw);
    }
}

/* The hints' fate in percent of those classified, redundant/useful/late/wasted ("-": no hint
   classified); a "?" after it: wasted could not be told from late (no cachestat). */
static void rb__pa_cell(const rb_prefetch_accounting *a, char *buf)
{
    uint64_t n = a->sampled - a->failed;
    double d = n ? (double)n : 1;
    if (!n) { snprintf(buf, 32, "-"); return; }
    snprintf(buf, 32, "%.0f/%.0f/%.0f/%.0f%s", 100.0 * (double)a->redundant / d, 100.0 * (double)a->useful / d,
             100.0 * (double)a->late / d, 100.0 * (double)a->wasted / d, a->wasted_unknown ? "?" : "");
}

/* What made each cell warm or cold: residency, faults, device reads, CPU per read, for
   pread-nowait the share of reads RWF_NOWAIT served without blocking, and what became of the
   hints (prefetch accounting). */
#define RB__COLDCOLS 14u
static void rb__table_cold(FILE *f, const rb_report *r, int md)
{
    unsigned i;
    static const char *const head[RB__COLDCOLS] = {"strategy", "threads", "read", "resident", "after", "majflt",
                                                   "minflt", "dev MiB", "amplif", "usr+sys us/read", "evict s",
                                                   "prewarm s", "no-wait", "hints r/u/l/w %"};
    char lc[RB__COLDCOLS][64];
    const char *lcells[RB__COLDCOLS];
    int lw[RB__COLDCOLS];
    unsigned k;
    fprintf(f, "\n%swhat made it cold: page-cache residency before and after, faults and device reads "
               "of the workers while measured%s\n\n", md ? "**" : "", md ? "**" : "");
    for (k = 0; k < RB__COLDCOLS; k++) { lcells[k] = head[k]; lw[k] = RB__MAX(9, (int)strlen(head[k])); }
    for (i = 0; i < r->nstrategies; i++) lw[0] = RB__MAX(lw[0], (int)strlen(r->strategies[i]));
    rb__row(f, md, lcells, RB__COLDCOLS, lw);
    if (md) rb__rule(f, RB__COLDCOLS);
    for (k = 0; k < RB__COLDCOLS; k++) lcells[k] = lc[k];
    for (i = 0; i < r->count; i++) {
        const rb_result *x = &r->results[i];
        double pages = x->file_pages ? (double)x->file_pages : 1;
        if (x->status != RB_OK) continue;
        rb__label(x, lc[0], sizeof lc[0]);
        snprintf(lc[1], 32, "%u", x->threads);
        rb_format_size(x->read_size, lc[2], 32);
        if (x->resident_before >= 0) snprintf(lc[3], 32, "%.1f%%", 100.0 * (double)x->resident_before / pages);
        else snprintf(lc[3], 32, "?");
        if (x->resident_after >= 0) snprintf(lc[4], 32, "%.1f%%", 100.0 * (double)x->resident_after / pages);
        else snprintf(lc[4], 32, "?");
        if (x->majflt >= 0) {
            snprintf(lc[5], 32, "%lld%s", (long long)x->majflt, x->per_process_faults ? "*" : "");
            snprintf(lc[6], 32, "%lld%s", (long long)x->minflt, x->per_process_faults ? "*" : "");
        } else {
            snprintf(lc[5], 32, "?");
            snprintf(lc[6], 32, "?");
        }
        if (x->device_read_bytes >= 0) snprintf(lc[7], 32, "%.1f", (double)x->device_read_bytes / 1048576.0);
        else snprintf(lc[7], 32, "?");
        if (x->read_amplification >= 0) snprintf(lc[8], 32, "%.2f", x->read_amplification);
        else snprintf(lc[8], 32, "-");
        if (x->cpu_user_ns_per_read >= 0)
            snprintf(lc[9], 32, "%.2f+%.2f", x->cpu_user_ns_per_read / 1e3, x->cpu_sys_ns_per_read / 1e3);
        else snprintf(lc[9], 32, "?");
        snprintf(lc[10], 32, "%.3f", x->evict_seconds);
        snprintf(lc[11], 32, "%.2f", x->prewarm_seconds);
        if (x->nowait_reads) snprintf(lc[12], 32, "%.1f%%", 100.0 * (double)x->nowait_served / (double)x->nowait_reads);
        else snprintf(lc[12], 32, "-");
        rb__pa_cell(&x->prefetch_accounting, lc[13]);
        rb__row(f, md, lcells, RB__COLDCOLS, lw);
    }
}

/* What the pattern did to the cache: distinct pages per iteration, and the hit rates. */
static void rb__table_pattern(FILE *f, const rb_report *r, int md)
{
    static const char *const head[] = {"strategy", "threads", "read", "pages/iter", "of file", "hit", "fault hit"};
    char lc[7][64];
    const char *lcells[7];
    int lw[7], bypassed = 0;
    unsigned i, k, any = 0;
    for (i = 0; i < r->count; i++) any |= r->results[i].status == RB_OK && r->results[i].pages_touched >= 0;
    if (!any) return;
    fprintf(f, "\n%swhat the pattern did to the cache: distinct pages read per iteration; page reads that found "
               "their page cached (resident as the iteration began, or read earlier in it); mmap: page reads "
               "without a major fault%s\n\n", md ? "**" : "", md ? "**" : "");
    for (k = 0; k < 7; k++) { lcells[k] = head[k]; lw[k] = RB__MAX(9, (int)strlen(head[k])); }
    for (i = 0; i < r->nstrategies; i++) lw[0] = RB__MAX(lw[0], (int)strlen(r->strategies[i]));
    rb__row(f, md, lcells, 7, lw);
    if (md) rb__rule(f, 7);
    for (k = 0; k < 7; k++) lcells[k] = lc[k];
    for (i = 0; i < r->count; i++) {
        const rb_result *x = &r->results[i];
        if (x->status != RB_OK) continue;
        rb__label(x, lc[0], sizeof lc[0]);
        snprintf(lc[1], 32, "%u", x->threads);
        rb_format_size(x->read_size, lc[2], 32);
        if (x->pages_touched >= 0) {
            snprintf(lc[3], 32, "%.0f", x->pages_touched);
            snprintf(lc[4], 32, "%.1f%%", 100.0 * x->pages_touched / (double)(x->file_pages ? x->file_pages : 1));
        } else {
            snprintf(lc[3], 32, "?");
            snprintf(lc[4], 32, "?");
        }
        if (x->hit_rate >= 0) snprintf(lc[5], 32, "%.1f%%", 100.0 * x->hit_rate);
        else snprintf(lc[5], 32, "%s", x->cache_bypassed ? "-" : "?");
        if (x->fault_hit_rate >= 0) snprintf(lc[6], 32, "%.1f%%", 100.0 * x->fault_hit_rate);
        else snprintf(lc[6], 32, "-");
        rb__row(f, md, lcells, 7, lw);
        bypassed |= x->cache_bypassed;
    }
    if (bypassed)
        fprintf(f, "\nhit \"-\": the row bypasses the page cache (O_DIRECT; F_NOCACHE on macOS): what is resident "
                   "does not say what its reads found, so it has no hit rate\n");
}

/* The files the path holds (1 for a file), as the cells that opened it found them; 0: none did. */
static unsigned rb__report_files(const rb_report *r)
{
    unsigned i, n = 0;
    for (i = 0; i < r->count; i++) n = RB__MAX(n, r->results[i].files);
    return n;
}

/* ", 8 files, 1.00 GiB" after a heading when the path is a directory; "" for one file. */
static void rb__files_heading(const rb_report *r, char *buf, size_t len)
{
    unsigned i, n = rb__report_files(r);
    uint64_t pages = 0;
    double bytes;
    buf[0] = 0;
    if (n < 2) return;
    for (i = 0; i < r->count; i++) pages = RB__MAX(pages, r->results[i].file_pages);
    bytes = r->env && r->env->file_size >= 0 ? (double)r->env->file_size : (double)pages * (double)rb__page_size();
    snprintf(buf, len, ", %u files, %.2f GiB", n, bytes / 1073741824.0);
}

/* A run of groups, one row per group and run: what it is, its rate (median +- interval) and
   latency, together over alone, and its working set and what the others evicted of it. */
#define RB__GROUPCOLS 11u
#define RB__GROUPCELL 96
static void rb__group_cells(const rb_result *x, char (*c)[RB__GROUPCELL])
{
    int ok = x->status == RB_OK;
    char sz[32];
    snprintf(c[0], RB__GROUPCELL, "g%u", x->group);
    snprintf(c[1], RB__GROUPCELL, "%s", x->strategy ? x->strategy : "?");
    snprintf(c[2], RB__GROUPCELL, "%u", x->threads);
    rb_format_size(x->read_size, sz, sizeof sz);
    snprintf(c[3], RB__GROUPCELL, "%s %s", x->pattern_spec, sz);
    snprintf(c[4], RB__GROUPCELL, "%s", x->group_run == RB_RUN_ALONE ? "alone" : "together");
    rb__cell_range_text(x, c[5], RB__GROUPCELL);
    rb__lat_cell(&x->lat, rb_hist_percentile(&x->lat, 50), ok && rb_hist_percentile_known(&x->lat, 50), c[6]);
    rb__lat_cell(&x->lat, rb_hist_percentile(&x->lat, 99), ok && rb_hist_percentile_known(&x->lat, 99), c[7]);
    if (x->together_ratio == x->together_ratio && x->together_ratio_lo == x->together_ratio_lo)
        snprintf(c[8], RB__GROUPCELL, "%.2f [%.2f, %.2f]", x->together_ratio, x->together_ratio_lo, x->together_ratio_hi);
    else if (x->together_ratio == x->together_ratio) snprintf(c[8], RB__GROUPCELL, "%.2f", x->together_ratio);
    else snprintf(c[8], RB__GROUPCELL, "-");
    if (ok && x->ws_pages >= 0) snprintf(c[9], RB__GROUPCELL, "%lld", (long long)x->ws_pages);
    else snprintf(c[9], RB__GROUPCELL, x->group_run == RB_RUN_ALONE || !ok ? "-" : "?");
    if (ok && x->ws_evicted >= 0)
        snprintf(c[10], RB__GROUPCELL, "%lld (%.1f%%)", (long long)x->ws_evicted,
                 x->ws_pages > 0 ? 100.0 * (double)x->ws_evicted / (double)x->ws_pages : 0.0);
    else snprintf(c[10], RB__GROUPCELL, x->group_run == RB_RUN_ALONE || !ok ? "-" : "?");
}

static void rb__table_groups(FILE *f, const rb_report *r, int md)
{
    static const char *const head[RB__GROUPCOLS] = {"group", "strategy", "threads", "pattern, read", "run", "ops/ms",
                                                   "p50 us", "p99 us", "together/alone", "working set", "evicted by others"};
    char c[RB__GROUPCOLS][RB__GROUPCELL];
    const char *cells[RB__GROUPCOLS];
    int w[RB__GROUPCOLS];
    unsigned i, k, pass;
    fprintf(f, "%sreaders that run together: each group alone, then all of them at once on the file; ops/ms higher "
               "is better%s\n\n", md ? "**" : "", md ? "**" : "");
    for (k = 0; k < RB__GROUPCOLS; k++) w[k] = (int)strlen(head[k]);
    for (pass = 0; pass < 2; pass++) {
        if (pass) {
            for (k = 0; k < RB__GROUPCOLS; k++) cells[k] = head[k];
            rb__row(f, md, cells, RB__GROUPCOLS, w);
            if (md) rb__rule(f, RB__GROUPCOLS);
        }
        for (i = 0; i < r->count; i++) {
            rb__group_cells(&r->results[i], c);
            for (k = 0; k < RB__GROUPCOLS; k++) {
                cells[k] = c[k];
                w[k] = RB__MAX(w[k], rb__dlen(c[k]));
            }
            if (pass) rb__row(f, md, cells, RB__GROUPCOLS, w);
        }
    }
    fprintf(f, "\n");
    for (i = 0; i < r->ngroups; i++) fprintf(f, "%sg%u: %s\n", md ? "- " : "  ", i + 1, rb__group_spec(r, i));
    fprintf(f, "\n%sworking set: the pages a group's last alone iteration read that were resident when its alone run "
               "ended; evicted by others: those of them it read again together that were not resident when the "
               "together run ended (-: no alone run; ?: residency cannot be read page by page here)%s\n\n",
            md ? "*" : "  ", md ? "*" : "");
}

/* The victim: what each row's reads cost the file a light reader kept warm (only with one). */
static void rb__table_victim(FILE *f, const rb_report *r, int md)
{
    static const char *const head[] = {"strategy", "victim pages", "resident before", "after", "lost",
                                       "read back MiB", "recently evicted"};
    char lc[7][64];
    const char *lcells[7];
    int lw[7];
    unsigned i, k, any = 0;
    for (i = 0; i < r->count; i++) any |= r->results[i].victim_pages > 0;
    if (!any) return;
    fprintf(f, "\n%sthe victim %s, kept warm by a light reader (1 MiB per 10 ms): its pages resident when measuring "
               "started and ended, lost (resident, then not), what the reader had to read back from the device, "
               "cachestat's recently evicted%s\n\n", md ? "**" : "", r->cfg && r->cfg->victim ? r->cfg->victim : "",
            md ? "**" : "");
    for (k = 0; k < 7; k++) { lcells[k] = head[k]; lw[k] = RB__MAX(9, (int)strlen(head[k])); }
    for (i = 0; i < r->nstrategies; i++) lw[0] = RB__MAX(lw[0], (int)strlen(r->strategies[i]));
    rb__row(f, md, lcells, 7, lw);
    if (md) rb__rule(f, 7);
    for (k = 0; k < 7; k++) lcells[k] = lc[k];
    for (i = 0; i < r->count; i++) {
        const rb_result *x = &r->results[i];
        if (!x->victim_pages) continue;
        rb__label(x, lc[0], sizeof lc[0]);
        snprintf(lc[1], 64, "%llu", (unsigned long long)x->victim_pages);
        rb__int_cell(x->victim_resident_before, lc[2]);
        rb__int_cell(x->victim_resident_after, lc[3]);
        rb__int_cell(x->victim_lost, lc[4]);
        if (x->victim_device_read_bytes >= 0) snprintf(lc[5], 64, "%.1f", (double)x->victim_device_read_bytes / 1048576.0);
        else snprintf(lc[5], 64, "?");
        rb__int_cell(x->victim_recently_evicted, lc[6]);
        rb__row(f, md, lcells, 7, lw);
    }
}

/* A replay's heading line: what of the trace was replayed, and what was left out. */
static void rb__table_trace(FILE *f, const rb_trace *t, int md)
{
    char named[300] = "";
    if (t->named[0]) snprintf(named, sizeof named, ", FILE matched %s as %.200s", rb_trace_match_name(t->match), t->named);
    fprintf(f, "%sreplay of %s (%s%s): %llu reads of FILE in %u stream%s; %llu line%s skipped, %llu failed call%s and "
               "%llu reads of other files left out%s\n\n", md ? "*" : "", t->path[0] ? t->path : "a trace",
            rb_trace_format_name(t->format), named, (unsigned long long)t->reads, t->nstreams, t->nstreams == 1 ? "" : "s",
            (unsigned long long)t->skipped, t->skipped == 1 ? "" : "s", (unsigned long long)t->failed,
            t->failed == 1 ? "" : "s", (unsigned long long)t->other_reads, md ? "*" : "");
    if (t->backwards)
        fprintf(f, "%s%llu read%s recorded at a time before the read ahead of %s in %s stream (the first at line %llu): "
                   "held at that read's time, so a timed replay never goes back%s\n\n", md ? "*" : "",
                (unsigned long long)t->backwards, t->backwards == 1 ? " was" : "s were", t->backwards == 1 ? "it" : "them",
                t->backwards == 1 ? "its" : "their", (unsigned long long)t->backwards_line, md ? "*" : "");
}

/* With rounds: each cell against its column's best other strategy, paired by round. */
static void rb__table_paired(FILE *f, const rb_report *r, int md)
{
    unsigned i, any = 0, w = 8;
    char lab[RB_PATTERN_LEN], sz[32];
    for (i = 0; i < r->count; i++)
        if (r->results[i].status == RB_OK && r->results[i].paired_rounds >= 2) {
            any++;
            w = RB__MAX(w, (unsigned)strlen(rb__label(&r->results[i], lab, sizeof lab)));
        }
    if (!any) return;
    fprintf(f, "%spaired by round: in each round, a cell's median over that of its column's best other strategy "
               "in the same round; their geometric mean over the rounds and its 95%% interval (Student t on the "
               "ratios' logarithms; what drifts more slowly than a round cancels)%s\n\n", md ? "**" : "", md ? "**" : "");
    for (i = 0; i < r->count; i++) {
        const rb_result *x = &r->results[i];
        if (x->status != RB_OK || x->paired_rounds < 2) continue;
        rb_format_size(x->read_size, sz, sizeof sz);
        fprintf(f, "%s%-*s T%02u %8s  %.3f [%.3f, %.3f] of %s, %u rounds\n", md ? "- " : "  ", (int)w,
                rb__label(x, lab, sizeof lab), x->threads, sz, x->paired_ratio, x->paired_lo, x->paired_hi,
                x->paired_with, x->paired_rounds);
    }
    fprintf(f, "\n");
}

/* The rounds asked of a report (rb_report.rounds_asked; 0: those that started), and a cell's
   (rb_run's alone: 1). */
static unsigned rb__rounds_asked(const rb_report *r)
{
    unsigned started = r->rounds ? r->rounds : 1;
    return r->rounds_asked > started ? r->rounds_asked : started;
}

static unsigned rb__cell_rounds(const rb_result *x) { return x->rounds ? x->rounds : 1; }

/* The measured cells with fewer rounds than asked: an interrupt came before their last. */
static unsigned rb__cells_cut_short(const rb_report *r)
{
    unsigned i, n = 0;
    for (i = 0; i < r->count; i++) n += r->results[i].status == RB_OK && rb__cell_rounds(&r->results[i]) < rb__rounds_asked(r);
    return n;
}

/* A run the caller interrupted (rb_report.interrupted), under the grid: in which round, and
   the cells measured in fewer rounds than asked, named, since their figures rest on fewer. */
static void rb__table_interrupted(FILE *f, const rb_report *r, int md)
{
    unsigned i, short_ = rb__cells_cut_short(r), asked = rb__rounds_asked(r), shown = 0, unmeasured = 0;
    char lab[RB_PATTERN_LEN];
    if (!r->interrupted) return;
    for (i = 0; i < r->count; i++) unmeasured += r->results[i].status == RB_EINTR || r->results[i].status == RB_ENOTRUN;
    if (asked < 2 || !short_) {
        fprintf(f, "%sinterrupted: %u of %u cells measured; the others are marked \"interrupted\" or \"not run\"%s\n\n",
                md ? "*" : "", r->count - unmeasured, r->count, md ? "*" : "");
        return;
    }
    fprintf(f, "%sinterrupted in round %u of %u: %u of %u cells have fewer rounds than the %u asked:", md ? "*" : "",
            r->rounds ? r->rounds : 1, asked, short_, r->count, asked);
    for (i = 0; i < r->count && shown < 8; i++) {
        const rb_result *x = &r->results[i];
        if (x->status != RB_OK || rb__cell_rounds(x) >= asked) continue;
        fprintf(f, "%s %s T%02u (%u)", shown++ ? "," : "", rb__label(x, lab, sizeof lab), x->threads, rb__cell_rounds(x));
    }
    fprintf(f, "%s", short_ > shown ? " and more" : "");
    if (unmeasured) fprintf(f, "; %u not measured (\"interrupted\" or \"not run\")", unmeasured);
    fprintf(f, "%s\n\n", md ? "*" : "");
}

/* The cells measured while the machine itself moved (rb_result.machine_moved), named. */
static void rb__table_machine(FILE *f, const rb_report *r, int md)
{
    unsigned i, n = 0, shown = 0;
    char lab[RB_PATTERN_LEN];
    for (i = 0; i < r->count; i++) n += r->results[i].machine_moved > 0;
    if (!n) return;
    fprintf(f, "%sthe machine moved during %u of %u cells: a fixed CPU kernel took more than %.0f%% longer or less "
               "after the cell than before, so these figures describe two machines:", md ? "*" : "", n, r->count,
            100 * RB_MACHINE_MOVED);
    for (i = 0; i < r->count && shown < 8; i++) {
        const rb_result *x = &r->results[i];
        if (!x->machine_moved) continue;
        fprintf(f, "%s %s T%02u (%+.0f%%)", shown++ ? "," : "", rb__label(x, lab, sizeof lab), x->threads,
                100 * x->machine_drift);
    }
    fprintf(f, "%s%s\n\n", n > shown ? " and more" : "", md ? "*" : "");
}

static void rb__report_table(FILE *f, const rb_report *r, int md)
{
    const double *pct = r->percentiles ? r->percentiles : rb__default_pct;
    unsigned npct = r->percentiles ? r->npercentiles : 4, i, g;
    int by_size = r->nthreads == 1 && r->nread_sizes > 1;
    unsigned ngroups = r->ngroups ? 0 : by_size ? 1 : r->nread_sizes;   /* grids by read size; none for groups */
    char sz[32];
    unsigned notes = 0;
    char pat[RB_PATTERN_LEN] = "random", files[64];

    if (r->cfg) rb_pattern_name(r->cfg, pat, sizeof pat);
    rb__files_heading(r, files, sizeof files);
    if (npct > RB_MAX_PERCENTILES) npct = RB_MAX_PERCENTILES;
    if (r->cfg && r->cfg->trace) rb__table_trace(f, r->cfg->trace, md);
    for (g = 0; g < ngroups; g++) {
        uint64_t rs = r->read_sizes[by_size ? 0 : g];
        const rb_result *any = NULL;
        for (i = 0; i < r->count && !any; i++)
            if (r->results[i].read_size == rs && r->results[i].reads_per_op) any = &r->results[i];
        rb_format_size(rs, sz, sizeof sz);
        if (r->cfg && r->cfg->trace)
            fprintf(f, "%sops/ms, higher is better: the trace's reads (up to %s), %u per op%s\n\n", md ? "**" : "", sz,
                    any ? any->reads_per_op : 0, md ? "**" : "");
        else if (by_size)
            fprintf(f, "%sops/ms, higher is better: %s reads, %u thread%s, columns are read sizes%s%s\n\n",
                    md ? "**" : "", pat, r->threads[0], r->threads[0] == 1 ? "" : "s", files, md ? "**" : "");
        else
            fprintf(f, "%sops/ms, higher is better: %s %s reads, %u per op%s%s\n\n", md ? "**" : "", pat,
                    sz, any ? any->reads_per_op : 0, files, md ? "**" : "");
        if (g == 0)
            for (i = 0; i < r->count; i++)
                if (r->results[i].verified) {
                    fprintf(f, "%sverified run: every byte read was compared with the setup pattern; the times "
                               "include the comparison, not comparable for speed%s\n\n", md ? "*" : "", md ? "*" : "");
                    break;
                }
        rb__grid(f, r, md, by_size, g);
    }
    if (r->ngroups) rb__table_groups(f, r, md);
    rb__table_interrupted(f, r, md);
    for (i = 0; i < r->count; i++)
        if (r->results[i].status == RB_OK && r->results[i].rate_upper_bound) {
            fprintf(f, "%s< X: no op completed inside an iteration (each thread's op outlasted it): the rate is "
                       "below X, an upper bound, not a measurement%s\n\n", md ? "*" : "", md ? "*" : "");
            break;
        }
    if (r->rounds > 1)   /* never "over its N rounds" where a cell has fewer */
        fprintf(f, "%s: median of every measured iteration of every round (shuffled order); [lo, hi]: the 95%% "
                   "interval of the cell's rate over %s%u rounds%s (Student t on the logarithms of the round "
                   "medians, so not symmetric about the median; none from 1 round)%s\n\n", md ? "*ops/ms" : "ops/ms",
                rb__cells_cut_short(r) ? "the rounds each cell measured, of the " : "its ", rb__rounds_asked(r),
                rb__cells_cut_short(r) ? " asked (fewer where the interrupt came first: see above)" : "", md ? "*" : "");
    else if (r->count && r->results[0].nsamples)
        fprintf(f, "%s: median of the measured iterations; 1 round%s: too few for an interval (iterations of one "
                   "round share the machine's state); use --rounds 5%s\n\n", md ? "*ops/ms" : "ops/ms",
                rb__rounds_asked(r) > 1 ? " before the interrupt" : "", md ? "*" : "");
    rb__table_paired(f, r, md);
    rb__table_machine(f, r, md);

    notes = rb__table_latency(f, r, md, pct, npct);
    rb__table_open_loop(f, r, md, pct, npct);
    rb__table_read_latency(f, r, md, pct, npct);
    rb__table_cold(f, r, md);
    rb__table_pattern(f, r, md);
    rb__table_victim(f, r, md);
    rb__table_warnings(f, r, md);
    if (notes) {
        fprintf(f, "\n%snot measured%s\n\n", md ? "**" : "", md ? "**" : "");
        for (i = 0; i < r->count; i++) {
            const rb_result *x = &r->results[i];
            if (x->status == RB_OK) continue;
            fprintf(f, "%s%s T%02u %s: ", md ? "- " : "  ", rb__label(x, pat, sizeof pat), x->threads,
                    (rb_format_size(x->read_size, sz, sizeof sz), sz));
            rb__status_reason(f, x->status, x->reason);
        }
    }
}

/* JSON strings are escaped completely: file names can hold quotes, backslashes, newlines,
   and bytes that are not UTF-8 (written as U+FFFD, since JSON text must be UTF-8). */
RBDEF void rb_json_string(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    fputc('"', f);
    for (; *p; p++) {
        if (*p >= 0x80) {
            int n = rb__utf8_len(p);
            if (n == 0) fputs("\\ufffd", f);
            else { fwrite(p, 1, (size_t)n, f); p += n - 1; }
            continue;
        }
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20 || *p == 0x7f) fprintf(f, "\\u%04x", *p);
            else fputc(*p, f);
        }
    }
    fputc('"', f);
}

static void rb__json_num(FILE *f, double v);
static void rb__json_int_or_null(FILE *f, long long v);
static void rb__json_str_or_null(FILE *f, const char *s);
static void rb__env_json(FILE *f, const rb_env *e)
{
    double ratio;
    fprintf(f, "{\"os\": ");
    rb__json_str_or_null(f, e->os);
    fprintf(f, ", \"kernel\": ");
    rb__json_str_or_null(f, e->kernel);
    fprintf(f, ", \"cpu\": ");
    rb__json_str_or_null(f, e->cpu);
    fprintf(f, ", \"cpus\": ");
    rb__json_int_or_null(f, e->cpus);
    fprintf(f, ", \"ram_total\": ");
    rb__json_int_or_null(f, e->ram_total);
    fprintf(f, ", \"ram_available\": ");
    rb__json_int_or_null(f, e->ram_available);
    fprintf(f, ", \"cgroup_memory_limit\": ");
    rb__json_int_or_null(f, e->cgroup_limit);
    fprintf(f, ", \"cgroup_memory_usage\": ");
    rb__json_int_or_null(f, e->cgroup_limit >= 0 ? e->cgroup_usage : -1);
    fprintf(f, ", \"page_size\": %ld, \"file_size\": ", e->page_size);
    rb__json_int_or_null(f, e->file_size);
    fprintf(f, ", \"files\": ");
    rb__json_int_or_null(f, e->files > 0 ? e->files : -1);
    fprintf(f, ", \"file_ram_ratio\": ");
    ratio = rb_env_file_ram_ratio(e, NULL);
    rb__json_num(f, ratio >= 0 ? ratio : NAN);   /* NaN: null */
    fprintf(f, ", \"filesystem\": ");
    rb__json_str_or_null(f, e->fs);
    fprintf(f, ", \"device\": ");
    rb__json_str_or_null(f, e->device);
    fprintf(f, ", \"read_ahead_kb\": ");
    rb__json_int_or_null(f, e->read_ahead_kb);
    fprintf(f, ", \"max_sectors_kb\": ");
    rb__json_int_or_null(f, e->max_sectors_kb);
    fprintf(f, ", \"device_irq_cpus\": ");
    rb__json_str_or_null(f, e->irq_cpus[0] ? e->irq_cpus : NULL);
    fprintf(f, ", \"rotational\": ");
    if (e->rotational < 0) fputs("null", f);
    else fputs(e->rotational ? "true" : "false", f);
    fprintf(f, ", \"transparent_hugepage\": ");
    rb__json_str_or_null(f, e->thp);
    fprintf(f, ", \"lru_gen_enabled\": ");
    rb__json_str_or_null(f, e->lru_gen);
    fprintf(f, ", \"fault_around_bytes\": ");
    rb__json_int_or_null(f, e->fault_around_bytes);
    fprintf(f, ", \"clock\": ");
    rb__json_str_or_null(f, e->clock);
    fprintf(f, ", \"clock_resolution_ns\": ");
    rb__json_num(f, e->clock_res_ns);
    fprintf(f, ", \"clock_cost_ns\": ");
    rb__json_num(f, e->clock_cost_ns);
    fprintf(f, ", \"page_touch_ns\": ");
    rb__json_num(f, e->page_touch_ns >= 0 ? e->page_touch_ns : NAN);   /* NaN: null */
    fprintf(f, ", \"page_retouch_ns\": ");
    rb__json_num(f, e->page_retouch_ns >= 0 ? e->page_retouch_ns : NAN);
    fprintf(f, ", \"compiler\": ");
    rb__json_str_or_null(f, e->compiler);
    fprintf(f, ", \"flags\": ");
    rb__json_str_or_null(f, e->flags);
    fprintf(f, ", \"root\": %s, \"liburing\": %s}", e->root ? "true" : "false",
            e->liburing ? "true" : "false");
}

RBDEF void rb_report_write(FILE *f, const rb_report *r, int format)
{
    if (format == RB_FORMAT_JSON) rb_report_json(f, r);
    else if (format == RB_FORMAT_CSV) rb_report_csv(f, r);
    else rb_report_table(f, r, format == RB_FORMAT_MARKDOWN);
}

/* The banner a table run prints before it (the CLI sends it to the diagnostic stream): the
   facts that explain the numbers. */
static void rb__env_print(FILE *f, const rb_env *e)
{
    char ram[32] = "?", avail[32] = "?", fsz[32] = "?", ra[32], cg[96] = "";
    const char *word;
    double ratio;
    if (e->ram_total > 0) snprintf(ram, sizeof ram, "%.1f GiB", (double)e->ram_total / 1073741824.0);
    if (e->ram_available > 0)
        snprintf(avail, sizeof avail, "%.1f GiB", (double)e->ram_available / 1073741824.0);
    if (e->file_size >= 0) snprintf(fsz, sizeof fsz, "%.2f GiB", (double)e->file_size / 1073741824.0);
    if (e->cgroup_limit >= 0) {   /* a container: what it may take, not what the host has */
        char lim[32], use[32] = "?";
        rb__mem_text((uint64_t)e->cgroup_limit, lim, sizeof lim);
        if (e->cgroup_usage >= 0) rb__mem_text((uint64_t)e->cgroup_usage, use, sizeof use);
        snprintf(cg, sizeof cg, "; memory cgroup limit %s, %s used", lim, use);
    }
    fprintf(f, "# %s %s, %s, %ld cpus, RAM %s (%s available%s), page %ld\n", e->os, e->kernel,
            e->cpu[0] ? e->cpu : "cpu ?", e->cpus, ram, avail, cg, e->page_size);
    if (e->files > 1) fprintf(f, "# %ld files, %s", e->files, fsz);
    else fprintf(f, "# file %s", fsz);
    ratio = rb_env_file_ram_ratio(e, &word);
    if (ratio >= 0) fprintf(f, " (%.2fx %s)", ratio, word);
    if (e->read_ahead_kb >= 0) snprintf(ra, sizeof ra, "%ld", e->read_ahead_kb);
    else snprintf(ra, sizeof ra, "%s", e->device[0] ? "?" : "n/a (no block device)");   /* tmpfs, overlay, ... */
    fprintf(f, " on %s, device %s (interrupts on CPU %s), read_ahead_kb %s, %s, THP %s, MGLRU %s\n",
            e->fs[0] ? e->fs : "?", e->device[0] ? e->device : "?", e->irq_cpus[0] ? e->irq_cpus : "?", ra,
            e->rotational < 0 ? "rotational ?" : e->rotational ? "rotational" : "non-rotational",
            e->thp[0] ? e->thp : "?", !e->lru_gen[0] ? "n/a" : strtoul(e->lru_gen, NULL, 16) ? e->lru_gen : "off");
    fprintf(f, "# clock %s: resolution %.0f ns, %.1f ns per read; %s%s; %s\n", e->clock, e->clock_res_ns,
            e->clock_cost_ns, e->compiler[0] ? e->compiler : "compiler ?", e->liburing ? ", liburing" : "",
            e->root ? "root" : "not root");
    if (e->page_touch_ns < 0) fprintf(f, "# a fresh page's first touch: not measured here\n");
    else fprintf(f, "# a fresh page's first touch: %.2f us (again %.2f us)%s\n", e->page_touch_ns / 1000,
                 e->page_retouch_ns / 1000, e->page_touch_ns >= RB__SLOW_TOUCH_NS ? ": SLOW, see the warning" : "");
    if (e->page_touch_ns >= RB__SLOW_TOUCH_NS) {
        char w[512];
        rb_env_slow_touch_warning(e, w, sizeof w);
        fprintf(f, "# warning: %s\n", w);
    }
}

/* ==== 2.2 CSV ================================================================================= */

static void rb__csv_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* pread-fadvise's calls, pread-nowait's reads and fraction served, io_uring-qd's reads in
   flight at most and latency per read (mean and each percentile): empty where there is none. */
static void rb__csv_strategy_extras(FILE *f, const rb_result *x, const double *pct, unsigned npct)
{
    int ok = x->status == RB_OK, lat = ok && rb_hist_total(&x->read_lat) > 0;
    unsigned k;
    if (ok) fprintf(f, ",%llu,%llu,", (unsigned long long)x->fadvise_calls, (unsigned long long)x->fadvise_failed);
    else fprintf(f, ",,,");
    if (ok && x->nowait_reads)
        fprintf(f, "%llu,%.6f", (unsigned long long)x->nowait_reads, (double)x->nowait_served / (double)x->nowait_reads);
    else fputc(',', f);
    fputc(',', f);
    if (ok && x->inflight_max) fprintf(f, "%u", x->inflight_max);
    if (ok && x->prefetch_accounting.hints) {
        const rb_prefetch_accounting *a = &x->prefetch_accounting;
        fprintf(f, ",%llu,%llu,%llu,%llu,%llu,%llu", (unsigned long long)a->hints, (unsigned long long)a->sampled,
                (unsigned long long)a->redundant, (unsigned long long)a->useful, (unsigned long long)a->late,
                (unsigned long long)a->wasted);
    } else {
        fprintf(f, ",,,,,,");
    }
    fputc(',', f);
    if (lat) fprintf(f, "%.3f", rb_hist_mean(&x->read_lat));
    for (k = 0; k < npct; k++) {
        fputc(',', f);
        if (lat && rb_hist_percentile_known(&x->read_lat, pct[k]))
            fprintf(f, "%llu", (unsigned long long)rb_hist_percentile(&x->read_lat, pct[k]));
    }
}

/* A count or nothing (unknown). */
static void rb__csv_int(FILE *f, int known, int64_t v)
{
    fputc(',', f);
    if (known && v >= 0) fprintf(f, "%lld", (long long)v);
}

/* A group's row: which group, its spec, alone or together, the ratio and the working set; the
   victim's figures. Empty where the row is no group's, or there was no victim. */
static void rb__csv_groups(FILE *f, const rb_result *x)
{
    int ok = x->status == RB_OK, g = x->group > 0, v = ok && x->victim_pages > 0;
    if (g) {
        fprintf(f, ",%u,", x->group);
        rb__csv_string(f, x->group_spec);
        fprintf(f, ",%s,", x->group_run == RB_RUN_ALONE ? "alone" : "together");
    } else {
        fprintf(f, ",,,,");
    }
    if (g && ok && x->together_ratio == x->together_ratio) fprintf(f, "%.6f", x->together_ratio);
    fputc(',', f);
    if (g && ok && x->together_ratio_lo == x->together_ratio_lo) fprintf(f, "%.6f,%.6f", x->together_ratio_lo, x->together_ratio_hi);
    else fputc(',', f);
    rb__csv_int(f, g && ok, x->ws_pages);
    rb__csv_int(f, g && ok, x->ws_evicted);
    rb__csv_int(f, v, (int64_t)x->victim_pages);
    rb__csv_int(f, v, x->victim_resident_before);
    rb__csv_int(f, v, x->victim_resident_after);
    rb__csv_int(f, v, x->victim_lost);
    rb__csv_int(f, v, x->victim_device_read_bytes);
    rb__csv_int(f, v, x->victim_recently_evicted);
    rb__csv_int(f, v, (int64_t)x->victim_reads);
}

/* The load: the open loop's rate asked (ops/s, the cell), arrival process, rate achieved,
   arrivals due and service time (mean, percentiles, max: empty in a closed loop), and the
   think time (0: none). */
static void rb__csv_load(FILE *f, const rb_result *x, const double *pct, unsigned npct)
{
    int ok = x->status == RB_OK, open = ok && x->rate_asked > 0, svc = open && rb_hist_total(&x->service) > 0;
    unsigned k;
    if (open)
        fprintf(f, ",%.6f,%s,%.6f,%llu", x->rate_asked, rb_arrivals_name(x->arrivals), x->ops_per_ms * 1000.0,
                (unsigned long long)x->arrivals_due);
    else
        fprintf(f, ",,,,");
    if (ok) fprintf(f, ",%lld,", (long long)x->think_ns);
    else fprintf(f, ",,");
    if (svc) fprintf(f, "%.3f", rb_hist_mean(&x->service));
    for (k = 0; k < npct; k++) {
        fputc(',', f);
        if (svc && rb_hist_percentile_known(&x->service, pct[k]))
            fprintf(f, "%llu", (unsigned long long)rb_hist_percentile(&x->service, pct[k]));
    }
    fputc(',', f);
    if (svc) fprintf(f, "%llu", (unsigned long long)x->service.max);
}

/* The cell against its column's best other strategy, paired by round: empty without rounds. */
static void rb__csv_paired(FILE *f, const rb_result *x)
{
    if (x->status == RB_OK && x->paired_rounds >= 2 && x->paired_with)
        fprintf(f, ",%s,%u,%.6f,%.6f,%.6f", x->paired_with, x->paired_rounds, x->paired_ratio, x->paired_lo, x->paired_hi);
    else
        fprintf(f, ",,,,,");
    if (x->machine_before_ns > 0)
        fprintf(f, ",%.0f,%.0f,%.6f,%u", x->machine_before_ns, x->machine_after_ns, x->machine_drift, x->machine_moved);
    else
        fprintf(f, ",,,,");
}

static void rb__report_csv(FILE *f, const rb_report *r)
{
    const rb_trace *tr = r->cfg ? r->cfg->trace : NULL;   /* a replay: its counts close every row */
    const double *pct = r->percentiles ? r->percentiles : rb__default_pct;
    unsigned npct = r->percentiles ? r->npercentiles : 4, i, k;
    char lbl[32];
    fprintf(f, "strategy,threads,pattern,read_size,reads_per_op,status,reason,ops,seconds,ops_per_ms,"
               "ops_per_ms_upper_bound,ops_per_ms_stddev,iops,bytes_per_sec,lat_min_ns,lat_mean_ns");
    for (k = 0; k < npct; k++) { rb__pct_label(pct[k], lbl, sizeof lbl); fprintf(f, ",lat_%s_ns", lbl); }
    fprintf(f, ",lat_max_ns,madvise_calls,madvise_failed,io_errors,short_reads,verify_mismatches,"
               "iterations,evict_seconds,prewarm_seconds,file_pages,resident_pages_before,"
               "resident_pages_after,majflt,minflt,device_read_bytes,read_amplification,prefetch_calls,"
               "prefetch_skips,prefetch_mincore_calls,prefetch_advises,prefetch_failed,cpu_user_ns_per_read,"
               "cpu_sys_ns_per_read,ops_per_ms_median,ops_per_ms_ci_lo,ops_per_ms_ci_hi,rounds,outliers,min_thread_ops,prefetch_mincore_failed,"
               "resident_pages_prepared,fadvise_calls,fadvise_failed,nowait_reads,nowait_fraction,inflight_max,"
               "pa_hints,pa_sampled,pa_redundant,pa_useful,pa_late,pa_wasted,read_lat_mean_ns");
    for (k = 0; k < npct; k++) { rb__pct_label(pct[k], lbl, sizeof lbl); fprintf(f, ",read_lat_%s_ns", lbl); }
    fprintf(f, ",rate_asked,arrivals,rate_achieved,arrivals_due,think_ns,service_mean_ns");
    for (k = 0; k < npct; k++) { rb__pct_label(pct[k], lbl, sizeof lbl); fprintf(f, ",service_%s_ns", lbl); }
    fprintf(f, ",service_max_ns");
    fprintf(f, ",pages_touched,hit_rate,fault_hit_rate,files,files_small,group,group_spec,group_run,together_ratio,together_ratio_lo,"
               "together_ratio_hi,ws_pages,ws_evicted,victim_pages,victim_resident_before,victim_resident_after,"
               "victim_lost,victim_device_read_bytes,victim_recently_evicted,victim_reads,paired_with,paired_rounds,"
               "paired_ratio,paired_ci_lo,paired_ci_hi,machine_before_ns,machine_after_ns,machine_drift,"
               "machine_moved_rounds,verified,warnings%s\n",
               tr ? ",trace_reads,trace_skipped,trace_loops" : "");
    for (i = 0; i < r->count; i++) {
        const rb_result *x = &r->results[i];
        int ok = x->status == RB_OK;
        unsigned ns;
        const double *sv = rb__samples(x, &ns);
        fprintf(f, "%s,%u,%s,%llu,%u,%s,", x->strategy, x->threads,
                x->pattern_spec, (unsigned long long)x->read_size, x->reads_per_op, rb_status_word(x->status));
        rb__csv_string(f, x->reason);
        if (ok) {
            fprintf(f, ",%llu,%.6f,%.6f,%d,", (unsigned long long)x->ops, x->seconds, x->ops_per_ms,
                    x->rate_upper_bound);
            if (x->ops_per_ms_stddev == x->ops_per_ms_stddev) fprintf(f, "%.6f", x->ops_per_ms_stddev);
            fprintf(f, ",%.3f,%.3f,", x->iops, x->bytes_per_sec);
            if (rb_hist_total(&x->lat)) fprintf(f, "%llu,%.3f", (unsigned long long)x->lat.min, rb_hist_mean(&x->lat));
            else fputc(',', f);
        } else
            fprintf(f, ",,,,,,,,,");
        for (k = 0; k < npct; k++) {
            if (ok && rb_hist_percentile_known(&x->lat, pct[k]))
                fprintf(f, ",%llu", (unsigned long long)rb_hist_percentile(&x->lat, pct[k]));
            else fprintf(f, ",");
        }
        if (ok) {
            fputc(',', f);
            if (rb_hist_total(&x->lat)) fprintf(f, "%llu", (unsigned long long)x->lat.max);
            fprintf(f, ",%llu,%llu,%llu,%llu,%llu,", (unsigned long long)x->madvise_calls, (unsigned long long)x->madvise_failed,
                    (unsigned long long)x->io_errors, (unsigned long long)x->short_reads,
                    (unsigned long long)x->verify_mismatches);
            for (k = 0; k < ns; k++) fprintf(f, "%s%.6f", k ? ";" : "", sv[k]);
            fprintf(f, ",%.6f,%.6f,%llu,", x->evict_seconds, x->prewarm_seconds, (unsigned long long)x->file_pages);
            if (x->resident_before >= 0) fprintf(f, "%lld", (long long)x->resident_before);
            fputc(',', f);
            if (x->resident_after >= 0) fprintf(f, "%lld", (long long)x->resident_after);
            fputc(',', f);
            if (x->majflt >= 0) fprintf(f, "%lld,%lld", (long long)x->majflt, (long long)x->minflt);
            else fputc(',', f);
            fputc(',', f);
            if (x->device_read_bytes >= 0) fprintf(f, "%lld", (long long)x->device_read_bytes);
            fputc(',', f);
            if (x->read_amplification >= 0) fprintf(f, "%.6f", x->read_amplification);
            fprintf(f, ",%llu,%llu,%llu,%llu,%llu", (unsigned long long)x->prefetch.calls,
                    (unsigned long long)x->prefetch.skips, (unsigned long long)x->prefetch.mincore_calls,
                    (unsigned long long)x->prefetch.advises, (unsigned long long)x->prefetch.failed);
            if (x->cpu_user_ns_per_read >= 0) fprintf(f, ",%.1f,%.1f", x->cpu_user_ns_per_read, x->cpu_sys_ns_per_read);
            else fprintf(f, ",,");
            if (x->nsamples) fprintf(f, ",%.6f", x->ops_per_ms_median);
            else fputc(',', f);
            if (x->nsamples && x->ci_lo == x->ci_lo) fprintf(f, ",%.6f,%.6f", x->ci_lo, x->ci_hi);
            else fprintf(f, ",,");
            fprintf(f, ",%u,", x->rounds ? x->rounds : 1);
            if (x->nsamples) fprintf(f, "%u", x->outliers);
        } else {
            fprintf(f, ",,,,,,,,,,,,,,,,,,,,,,,,,,,,");
        }
        if (ok) fprintf(f, ",%llu,%llu,", (unsigned long long)x->min_thread_ops,
                        (unsigned long long)x->prefetch.mincore_failed);
        else fprintf(f, ",,,");
        if (ok && x->resident_prepared >= 0) fprintf(f, "%lld", (long long)x->resident_prepared);
        rb__csv_strategy_extras(f, x, pct, npct);
        rb__csv_load(f, x, pct, npct);
        fputc(',', f);
        if (ok && x->pages_touched >= 0) fprintf(f, "%.1f", x->pages_touched);
        fputc(',', f);
        if (ok && x->hit_rate >= 0) fprintf(f, "%.6f", x->hit_rate);
        fputc(',', f);
        if (ok && x->fault_hit_rate >= 0) fprintf(f, "%.6f", x->fault_hit_rate);
        if (x->files) fprintf(f, ",%u,%u", x->files, x->files_small);   /* 0: the cell never opened the path */
        else fprintf(f, ",,");
        rb__csv_groups(f, x);
        rb__csv_paired(f, x);
        fprintf(f, ",%d,", x->verified);   /* then the warnings, one quoted field, separated by " | " */
        {
            char more[64], all[RB_MAX_WARNINGS * (RB_REASON_LEN + 3) + 64];
            size_t used = 0;
            all[0] = 0;
            for (k = 0; k < rb__nwarn(x); k++)
                used += (size_t)snprintf(all + used, sizeof all - used, "%s%s", k ? " | " : "",
                                         rb__warning(x, k, more, sizeof more));
            rb__csv_string(f, all);
        }
        if (tr) fprintf(f, ",%llu,%llu,", (unsigned long long)tr->reads, (unsigned long long)tr->skipped);
        if (tr && ok) fprintf(f, "%llu", (unsigned long long)x->trace_loops);
        fprintf(f, "\n");
    }
}

/* ==== 2.3 JSON ================================================================================ */

/* Numbers only: NaN and infinity have no JSON spelling, so they become null. */
static void rb__json_num(FILE *f, double v)
{
    if (v != v || v > 1e300 || v < -1e300) fputs("null", f);
    else fprintf(f, "%.17g", v);
}

/* An interval [lo, hi], or null where it is not known (lo NaN: too few samples). */
static void rb__json_interval(FILE *f, int known, double lo, double hi)
{
    if (!known || lo != lo) { fputs("null", f); return; }
    fputc('[', f);
    rb__json_num(f, lo);
    fputs(", ", f);
    rb__json_num(f, hi);
    fputc(']', f);
}

static void rb__json_str_or_null(FILE *f, const char *s)
{
    if (s && *s) rb_json_string(f, s);
    else fputs("null", f);
}

static void rb__json_int_or_null(FILE *f, long long v)
{
    if (v < 0) fputs("null", f);
    else fprintf(f, "%lld", v);
}

/* The rounds of a matrix run: how many started and were asked, whether the caller interrupted
   it (then the cells with fewer rounds than asked are the ones it cut short), the seed, and the
   order each round ran its cells in. */
static void rb__json_rounds(FILE *f, const rb_report *r)
{
    unsigned k, i, rounds = r->rounds ? r->rounds : 1;
    fprintf(f, ",\n \"scenario\": ");
    rb__json_str_or_null(f, r->scenario);
    fprintf(f, ", \"rounds\": %u, \"rounds_asked\": %u, \"interrupted\": %s, \"round_seed\": %llu, \"order\": ",
            rounds, r->rounds_asked > rounds ? r->rounds_asked : rounds, r->interrupted ? "true" : "false",
            (unsigned long long)r->round_seed);
    if (!r->order) { fputs("null", f); return; }
    fputc('[', f);
    for (k = 0; k < rounds; k++) {
        fprintf(f, "%s[", k ? ", " : "");
        for (i = 0; i < r->count; i++) fprintf(f, "%s%u", i ? ", " : "", r->order[(size_t)k * r->count + i]);
        fputc(']', f);
    }
    fputc(']', f);
}

/* "iterations" and "samples" are the same list (every measured iteration's ops/ms, round by
   round; "iterations" is the older name); the median, its interval and the outliers describe it. */
static void rb__json_cell_stats(FILE *f, const rb_result *x)
{
    unsigned k, n, pass;
    const double *v = rb__samples(x, &n);
    int ok = x->status == RB_OK;
    for (pass = 0; pass < 2; pass++) {
        fprintf(f, pass ? ", \"samples\": [" : ", \"iterations\": [");
        for (k = 0; ok && k < n; k++) {
            if (k) fputs(", ", f);
            rb__json_num(f, v[k]);
        }
        fputc(']', f);
    }
    fprintf(f, ", \"rounds\": %u, \"ops_per_ms_median\": ", ok ? (x->rounds ? x->rounds : 1) : x->rounds);
    if (ok && x->nsamples) rb__json_num(f, x->ops_per_ms_median);
    else fputs("null", f);
    fprintf(f, ", \"ops_per_ms_ci\": ");
    rb__json_interval(f, ok && x->nsamples && !x->rate_upper_bound, x->ci_lo, x->ci_hi);   /* bounds: no interval */
    fprintf(f, ", \"outliers\": ");
    if (ok && x->nsamples) fprintf(f, "%u", x->outliers);
    else fputs("null", f);
    fprintf(f, ", \"paired\": ");
    if (ok && x->paired_rounds >= 2 && x->paired_with) {
        fputs("{\"with\": ", f);
        rb_json_string(f, x->paired_with);
        fprintf(f, ", \"rounds\": %u, \"ratio\": ", x->paired_rounds);
        rb__json_num(f, x->paired_ratio);
        fputs(", \"ci\": ", f);
        rb__json_interval(f, 1, x->paired_lo, x->paired_hi);
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    fprintf(f, ", \"machine_drift\": ");
    if (x->machine_before_ns > 0) {
        fprintf(f, "{\"before_ns\": %.0f, \"after_ns\": %.0f, \"change\": ", x->machine_before_ns, x->machine_after_ns);
        rb__json_num(f, x->machine_drift);
        fprintf(f, ", \"moved_rounds\": %u}", x->machine_moved);
    } else {
        fputs("null", f);
    }
}

/* One row of "results". Every row has every key, whatever its status, so that a reader can
   index any row by any key: a figure that is unknown is null. The rates and latencies of a
   row that is not "ok" are null (they are not this strategy's numbers); the counters that
   explain its status (read errors, failed advice, faults...) are given when the cell was
   measured (iterations > 0), null when it never ran. */
static void rb__json_u64(FILE *f, int known, uint64_t v)
{
    if (known) fprintf(f, "%llu", (unsigned long long)v);
    else fputs("null", f);
}

static void rb__json_num_if(FILE *f, int known, double v)
{
    if (known) rb__json_num(f, v);
    else fputs("null", f);
}

/* The row's "what made it cold" fields: time outside the measurement, residency, faults,
   device bytes and CPU per read; null where the cell measured nothing. */
static void rb__json_coldness(FILE *f, const rb_result *x, int measured, int ok)
{
    unsigned k;
    fprintf(f, ", \"evict_seconds\": ");
    rb__json_num_if(f, measured, x->evict_seconds);
    fprintf(f, ", \"prewarm_seconds\": ");
    rb__json_num_if(f, measured, x->prewarm_seconds);
    fprintf(f, ", \"file_pages\": ");
    rb__json_u64(f, measured, x->file_pages);
    fprintf(f, ", \"resident_pages_before\": ");
    rb__json_int_or_null(f, measured ? x->resident_before : -1);
    fprintf(f, ", \"resident_pages_after\": ");
    rb__json_int_or_null(f, measured ? x->resident_after : -1);
    fprintf(f, ", \"resident_pages_prepared\": ");
    rb__json_int_or_null(f, measured ? x->resident_prepared : -1);
    fprintf(f, ", \"resident_pages_before_each\": ");
    if (ok) {   /* one per measured iteration, null where it could not be counted */
        for (k = 0; k < x->iterations; k++) {
            fputs(k ? ", " : "[", f);
            rb__json_int_or_null(f, x->iter_resident_before[k]);
        }
        fputs(x->iterations ? "]" : "[]", f);
    } else {
        fputs("null", f);
    }
    fprintf(f, ", \"residency_before\": ");
    rb__json_num_if(f, measured && x->resident_before >= 0 && x->file_pages,
                    (double)x->resident_before / (double)(x->file_pages ? x->file_pages : 1));
    fprintf(f, ", \"residency_after\": ");
    rb__json_num_if(f, measured && x->resident_after >= 0 && x->file_pages,
                    (double)x->resident_after / (double)(x->file_pages ? x->file_pages : 1));
    fprintf(f, ", \"residency_prepared\": ");
    rb__json_num_if(f, measured && x->resident_prepared >= 0 && x->file_pages,
                    (double)x->resident_prepared / (double)(x->file_pages ? x->file_pages : 1));
    fprintf(f, ", \"majflt\": ");
    rb__json_int_or_null(f, measured ? x->majflt : -1);
    fprintf(f, ", \"minflt\": ");
    rb__json_int_or_null(f, measured ? x->minflt : -1);
    fprintf(f, ", \"faults_per_process\": %s, \"device_read_bytes\": ",
            !measured ? "null" : x->per_process_faults ? "true" : "false");
    rb__json_int_or_null(f, measured ? x->device_read_bytes : -1);
    fprintf(f, ", \"reads_issued\": ");   /* what the per-read figures divide by */
    rb__json_u64(f, measured, x->reads_issued);
    fprintf(f, ", \"read_amplification\": ");
    rb__json_num_if(f, measured && x->read_amplification >= 0, x->read_amplification);
    fprintf(f, ", \"cpu_ns_per_read\": ");
    if (measured && x->cpu_user_ns_per_read >= 0) {
        fprintf(f, "{\"user\": ");
        rb__json_num(f, x->cpu_user_ns_per_read);
        fprintf(f, ", \"sys\": ");
        rb__json_num(f, x->cpu_sys_ns_per_read);
        fputc('}', f);
    } else {
        fputs("null", f);
    }
}

/* What the pattern did to the cache: null where it was not measured. */
static void rb__json_touched(FILE *f, const rb_result *x, int measured)
{
    unsigned k;
    fprintf(f, ", \"pages_touched\": ");
    rb__json_num_if(f, measured && x->pages_touched >= 0, x->pages_touched);
    fprintf(f, ", \"iter_pages_touched\": ");
    if (measured && x->iterations) {
        for (k = 0; k < x->iterations && k < RB_MAX_ITERATIONS; k++) {
            fputs(k ? ", " : "[", f);
            rb__json_int_or_null(f, x->iter_pages_touched[k]);
        }
        fputc(']', f);
    } else {
        fputs("null", f);
    }
    fprintf(f, ", \"page_reads\": ");
    rb__json_u64(f, measured, x->page_reads);
    fprintf(f, ", \"cold_pages\": ");
    rb__json_u64(f, measured && x->hit_rate >= 0, x->cold_pages);
    fprintf(f, ", \"hit_rate\": ");   /* null: unknown here, or bypasses_cache */
    rb__json_num_if(f, measured && x->hit_rate >= 0, x->hit_rate);
    fprintf(f, ", \"bypasses_cache\": %s", x->cache_bypassed ? "true" : "false");
    fprintf(f, ", \"fault_hit_rate\": ");
    rb__json_num_if(f, measured && x->fault_hit_rate >= 0, x->fault_hit_rate);
}

/* A latency histogram as an object: min, mean, the four standard percentiles, then any
   others asked for, max. With no value in it, min, mean and max are null; a percentile with
   too few values to mean anything (rb_hist_percentile_known) is null. */
static void rb__json_lat(FILE *f, const rb_report *r, const rb_hist *h)
{
    double pcts[4 + RB_MAX_PERCENTILES];
    unsigned np = 0, k;
    char lbl[32];
    int any = rb_hist_total(h) > 0;
    fprintf(f, "{\"min\": ");
    rb__json_u64(f, any, h->min);
    fprintf(f, ", \"mean\": ");
    rb__json_num_if(f, any, rb_hist_mean(h));
    for (k = 0; k < 4; k++) pcts[np++] = rb__default_pct[k];
    for (k = 0; r->percentiles && k < r->npercentiles && np < 4 + RB_MAX_PERCENTILES; k++) {
        unsigned m, dup = 0;
        for (m = 0; m < np; m++) dup |= pcts[m] == r->percentiles[k];
        if (!dup) pcts[np++] = r->percentiles[k];
    }
    for (k = 0; k < np; k++) {
        rb__pct_label(pcts[k], lbl, sizeof lbl);
        fprintf(f, ", \"%s\": ", lbl);
        rb__json_u64(f, rb_hist_percentile_known(h, pcts[k]), rb_hist_percentile(h, pcts[k]));
    }
    fprintf(f, ", \"max\": ");
    rb__json_u64(f, any, h->max);
    fprintf(f, ", \"overflow\": %llu}", (unsigned long long)h->overflow);
}

/* What became of the hints (null for a strategy that gives none): the counts, and each class
   as a fraction of the hints classified. */
static void rb__json_accounting(FILE *f, const rb_prefetch_accounting *a, int ok)
{
    uint64_t n = a->sampled - a->failed;
    double d = n ? (double)n : 1;
    fprintf(f, ", \"prefetch_accounting\": ");
    if (!ok || !a->hints) { fputs("null", f); return; }
    fprintf(f, "{\"hints\": %llu, \"sample_every\": %u, \"sampled\": %llu, \"redundant\": %llu, \"useful\": %llu, "
               "\"late\": %llu, \"late_slow\": %llu, \"slow_floor_ns\": %u, \"wasted\": %llu, \"failed\": %llu, "
               "\"untrusted\": %llu, \"wasted_known\": %s, \"fractions\": ", (unsigned long long)a->hints, RB_PA_EVERY,
            (unsigned long long)a->sampled, (unsigned long long)a->redundant, (unsigned long long)a->useful,
            (unsigned long long)a->late, (unsigned long long)a->late_slow, RB_PA_SLOW_FLOOR_NS,
            (unsigned long long)a->wasted, (unsigned long long)a->failed, (unsigned long long)a->untrusted,
            a->wasted_unknown ? "false" : "true");
    if (!n) { fputs("null}", f); return; }
    fprintf(f, "{\"redundant\": ");
    rb__json_num(f, (double)a->redundant / d);
    fprintf(f, ", \"useful\": ");
    rb__json_num(f, (double)a->useful / d);
    fprintf(f, ", \"late\": ");
    rb__json_num(f, (double)a->late / d);
    fprintf(f, ", \"wasted\": ");
    rb__json_num(f, (double)a->wasted / d);
    fputs("}}", f);
}

/* The new strategies' own figures: posix_fadvise calls (pread-fadvise), the fraction of reads
   RWF_NOWAIT served (pread-nowait), the latency of each read (io_uring-qd); null elsewhere. */
static void rb__json_strategy_extras(FILE *f, const rb_report *r, const rb_result *x, int measured, int ok)
{
    fprintf(f, ", \"fadvise\": ");
    if (measured)
        fprintf(f, "{\"calls\": %llu, \"failed\": %llu}", (unsigned long long)x->fadvise_calls,
                (unsigned long long)x->fadvise_failed);
    else
        fputs("null", f);
    fprintf(f, ", \"nowait_reads\": ");
    rb__json_u64(f, measured && x->nowait_reads, x->nowait_reads);
    fprintf(f, ", \"nowait_fraction\": ");
    rb__json_num_if(f, ok && x->nowait_reads, (double)x->nowait_served / (double)(x->nowait_reads ? x->nowait_reads : 1));
    rb__json_accounting(f, &x->prefetch_accounting, ok);
    fprintf(f, ", \"inflight_max\": ");
    rb__json_u64(f, measured && x->inflight_max, x->inflight_max);
    fprintf(f, ", \"lat_per_read_ns\": ");
    if (ok && rb_hist_total(&x->read_lat)) rb__json_lat(f, r, &x->read_lat);
    else fputs("null", f);
}

/* The row's group (null: no group's row) and the victim's figures (null: no victim). */
static void rb__json_groups(FILE *f, const rb_result *x, int ok)
{
    fprintf(f, ", \"group\": ");
    if (x->group) {
        fprintf(f, "{\"index\": %u, \"of\": %u, \"spec\": ", x->group, x->ngroups);
        rb_json_string(f, x->group_spec);
        fprintf(f, ", \"run\": \"%s\", \"together_ratio\": ", x->group_run == RB_RUN_ALONE ? "alone" : "together");
        rb__json_num_if(f, ok, x->together_ratio);
        fprintf(f, ", \"together_ratio_ci\": ");
        rb__json_interval(f, ok, x->together_ratio_lo, x->together_ratio_hi);
        fprintf(f, ", \"ws_pages\": ");
        rb__json_int_or_null(f, ok ? x->ws_pages : -1);
        fprintf(f, ", \"ws_evicted\": ");
        rb__json_int_or_null(f, ok ? x->ws_evicted : -1);
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    fprintf(f, ", \"victim\": ");
    if (!x->victim_pages || !ok) { fputs("null", f); return; }
    fprintf(f, "{\"pages\": %llu, \"resident_before\": ", (unsigned long long)x->victim_pages);
    rb__json_int_or_null(f, x->victim_resident_before);
    fprintf(f, ", \"resident_after\": ");
    rb__json_int_or_null(f, x->victim_resident_after);
    fprintf(f, ", \"lost\": ");
    rb__json_int_or_null(f, x->victim_lost);
    fprintf(f, ", \"device_read_bytes\": ");
    rb__json_int_or_null(f, x->victim_device_read_bytes);
    fprintf(f, ", \"recently_evicted\": ");
    rb__json_int_or_null(f, x->victim_recently_evicted);
    fprintf(f, ", \"reads\": %llu}", (unsigned long long)x->victim_reads);
}

/* The load: for an open loop the rate asked (ops/s of the cell, and per thread), the arrival
   process, the rate achieved, the arrivals due and the fraction served, and the service time
   per op (lat_ns runs from the intended start); null in a closed loop. think_ns: 0 for none. */
static void rb__json_load(FILE *f, const rb_report *r, const rb_result *x, int ok)
{
    int open = ok && x->rate_asked > 0;
    fprintf(f, ", \"rate\": ");
    if (open) {
        fprintf(f, "{\"asked\": ");
        rb__json_num(f, x->rate_asked);
        fprintf(f, ", \"per_thread\": ");
        rb__json_num(f, x->rate_asked / (x->threads ? x->threads : 1));
        fprintf(f, ", \"arrivals\": \"%s\", \"achieved\": ", rb_arrivals_name(x->arrivals));
        rb__json_num(f, x->ops_per_ms * 1000.0);
        fprintf(f, ", \"arrivals_due\": %llu, \"served\": ", (unsigned long long)x->arrivals_due);
        rb__json_num_if(f, x->arrivals_due > 0, (double)x->ops / (double)(x->arrivals_due ? x->arrivals_due : 1));
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    fprintf(f, ", \"service_ns\": ");
    if (open) rb__json_lat(f, r, &x->service);
    else fputs("null", f);
    fprintf(f, ", \"think_ns\": ");
    rb__json_int_or_null(f, ok ? x->think_ns : -1);
}

static void rb__json_result(FILE *f, const rb_report *r, const rb_result *x)
{
    int ok = x->status == RB_OK, measured = ok || x->iterations > 0;
    unsigned k;
    fprintf(f, "{\"strategy\": ");
    rb_json_string(f, x->strategy);
    fprintf(f, ", \"threads\": %u, \"pattern\": \"%s\", \"read_size\": %llu, \"reads_per_op\": %u, "
               "\"status\": \"%s\", \"reason\": ",
            x->threads, x->pattern_spec, (unsigned long long)x->read_size, x->reads_per_op, rb_status_word(x->status));
    rb__json_str_or_null(f, x->reason);
    fprintf(f, ", \"warnings\": [");
    for (k = 0; k < rb__nwarn(x); k++) {
        char more[64];
        if (k) fputs(", ", f);
        rb_json_string(f, rb__warning(x, k, more, sizeof more));
    }
    fprintf(f, "], \"verified\": %s", x->verified ? "true" : "false");
    rb__json_cell_stats(f, x);
    fprintf(f, ", \"ops\": ");
    rb__json_u64(f, ok, x->ops);
    fprintf(f, ", \"min_thread_ops\": ");
    rb__json_u64(f, ok, x->min_thread_ops);
    fprintf(f, ", \"seconds\": ");
    rb__json_num_if(f, ok, x->seconds);
    fprintf(f, ", \"ops_per_ms\": ");
    rb__json_num_if(f, ok, x->ops_per_ms);
    /* true: no op completed inside an iteration; every rate of the cell (ops_per_ms, the
       median, iterations, iops, bytes_per_sec) is the most it can be, not a measurement */
    fprintf(f, ", \"ops_per_ms_upper_bound\": %s", ok && x->rate_upper_bound ? "true" : "false");
    fprintf(f, ", \"ops_per_ms_stddev\": ");
    rb__json_num_if(f, ok, x->ops_per_ms_stddev);
    fprintf(f, ", \"iops\": ");
    rb__json_num_if(f, ok, x->iops);
    fprintf(f, ", \"bytes_per_sec\": ");
    rb__json_num_if(f, ok, x->bytes_per_sec);
    fprintf(f, ", \"lat_ns\": ");
    if (ok) rb__json_lat(f, r, &x->lat);   /* no op in the window: min, mean and max are null */
    else fputs("null", f);
    fprintf(f, ", \"madvise\": ");
    if (measured)
        fprintf(f, "{\"calls\": %llu, \"failed\": %llu}", (unsigned long long)x->madvise_calls,
                (unsigned long long)x->madvise_failed);
    else
        fputs("null", f);
    fprintf(f, ", \"io_errors\": ");
    rb__json_u64(f, measured, x->io_errors);
    fprintf(f, ", \"short_reads\": ");
    rb__json_u64(f, measured, x->short_reads);
    fprintf(f, ", \"verify_mismatches\": ");
    rb__json_u64(f, measured, x->verify_mismatches);
    fprintf(f, ", \"prefetch\": ");
    if (measured)
        fprintf(f, "{\"calls\": %llu, \"skips\": %llu, \"mincore_calls\": %llu, \"advises\": %llu, \"failed\": %llu, "
                   "\"mincore_failed\": %llu, \"around\": %llu, \"trials\": %llu, \"fills\": %llu, \"sweeps\": %llu}",
                (unsigned long long)x->prefetch.calls, (unsigned long long)x->prefetch.skips,
                (unsigned long long)x->prefetch.mincore_calls, (unsigned long long)x->prefetch.advises,
                (unsigned long long)x->prefetch.failed, (unsigned long long)x->prefetch.mincore_failed,
                (unsigned long long)x->prefetch.around, (unsigned long long)x->prefetch.trials,
                (unsigned long long)x->prefetch.fills, (unsigned long long)x->prefetch.sweeps);
    else
        fputs("null", f);
    rb__json_strategy_extras(f, r, x, measured, ok);
    rb__json_load(f, r, x, ok);
    rb__json_coldness(f, x, measured, ok);
    rb__json_touched(f, x, measured);
    rb__json_groups(f, x, ok);
    fprintf(f, ", \"files\": ");   /* every figure above is summed over them */
    rb__json_u64(f, x->files > 0, x->files);
    fprintf(f, ", \"files_small\": ");
    rb__json_u64(f, x->files > 0, x->files_small);
    if (r->cfg && r->cfg->trace) {
        fprintf(f, ", \"trace_loops\": ");
        rb__json_u64(f, measured, x->trace_loops);
    }
    fputc('}', f);
}

/* A replay's trace in "config": what was read of it, and what was left out. */
static void rb__json_trace(FILE *f, const rb_trace *t)
{
    if (!t) return;
    fprintf(f, ", \"trace\": ");
    rb__json_str_or_null(f, t->path[0] ? t->path : NULL);
    fprintf(f, ", \"trace_format\": \"%s\", \"trace_match\": \"%s\", \"trace_named\": ", rb_trace_format_name(t->format),
            rb_trace_match_name(t->match));
    rb__json_str_or_null(f, t->named[0] ? t->named : NULL);
    fprintf(f, ", \"trace_reads\": %llu, \"trace_skipped\": %llu, \"trace_failed\": %llu, \"trace_other_reads\": %llu, "
               "\"trace_unplaced\": %llu, \"trace_streams\": %u, \"trace_bytes\": %llu, \"trace_timed\": %s, "
               "\"trace_times_backwards\": %llu",
            (unsigned long long)t->reads, (unsigned long long)t->skipped, (unsigned long long)t->failed,
            (unsigned long long)t->other_reads, (unsigned long long)t->unplaced, t->nstreams,
            (unsigned long long)t->bytes, t->has_time ? "true" : "false", (unsigned long long)t->backwards);
}

static void rb__report_json(FILE *f, const rb_report *r)
{
    unsigned i;
    const rb_config *c = r->cfg;
    char pat[RB_PATTERN_LEN];
    fprintf(f, "{\"readbench\": \"%s\",\n \"env\": ", RB_VERSION);
    if (r->env) rb__env_json(f, r->env);
    else fputs("null", f);
    fprintf(f, ",\n \"config\": ");
    if (c) {
        fprintf(f, "{\"path\": ");
        rb__json_str_or_null(f, c->path);
        fprintf(f, ", \"size\": %llu, \"align\": %llu, \"pattern\": \"%s\", \"reads_per_op\": %u, \"seed\": %llu, "
                   "\"warmup_ns\": %lld, \"duration_ns\": %lld, \"iterations\": %u, \"verify\": %s",
                (unsigned long long)c->size, (unsigned long long)c->align, rb_pattern_name(c, pat, sizeof pat),
                c->reads_per_op, (unsigned long long)c->seed, (long long)c->warmup_ns,
                (long long)c->duration_ns, c->iterations, c->verify ? "true" : "false");
        rb__json_trace(f, c->trace);
        {   /* the reads io_uring-qd keeps in flight, by the default's rule when not given */
            rb_config d;
            rb_config_defaults(c, &d);
            fprintf(f, ", \"iodepth\": %u", d.iodepth);
        }
        fprintf(f, ", \"rate\": ");
        rb__json_num_if(f, c->rate > 0, c->rate);
        fprintf(f, ", \"arrivals\": ");
        if (c->rate > 0) fprintf(f, "\"%s\"", rb_arrivals_name(c->arrivals));
        else fputs("null", f);
        fprintf(f, ", \"think_ns\": %lld", (long long)c->think_ns);
        fprintf(f, ", \"files\": ");
        rb__json_u64(f, rb__report_files(r) > 0, rb__report_files(r));
        fprintf(f, ", \"file_pick\": \"%s\"", c->file_pick == RB_PICK_UNIFORM ? "uniform" : "size");
        fprintf(f, ", \"cache\": \"%s\", \"prewarm\": ", c->cache == RB_CACHE_EVICT_EACH ? "evict-each"
                : c->cache == RB_CACHE_EVICT ? "evict" : "keep");
        rb__json_num(f, c->prewarm);
        fprintf(f, ", \"cpus\": ");
        if (c->ncpus && c->cpus) {
            for (i = 0; i < c->ncpus; i++) fprintf(f, "%s%u", i ? ", " : "[", c->cpus[i]);
            fputc(']', f);
        } else {
            fputs("null", f);
        }
        fprintf(f, ", \"threads\": [");
        for (i = 0; i < r->nthreads; i++) fprintf(f, "%s%u", i ? ", " : "", r->threads[i]);
        fprintf(f, "], \"read_sizes\": [");
        for (i = 0; i < r->nread_sizes; i++)
            fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)r->read_sizes[i]);
        fprintf(f, "], \"strategies\": [");
        for (i = 0; i < r->nstrategies; i++) {
            if (i) fputs(", ", f);
            rb_json_string(f, r->strategies[i]);
        }
        fprintf(f, "], \"victim\": ");
        rb__json_str_or_null(f, c->victim);
        fprintf(f, ", \"groups\": ");
        for (i = 0; i < r->ngroups; i++) {
            fprintf(f, "%s{\"index\": %u, \"spec\": ", i ? ", " : "[", i + 1);
            rb_json_string(f, rb__group_spec(r, i));
            fputc('}', f);
        }
        fputs(r->ngroups ? "]" : "null", f);
        fprintf(f, ", \"alone\": ");
        if (r->ngroups) fprintf(f, "\"%s\"", r->alone == RB_ALONE_NO ? "no" : r->alone == RB_ALONE_ONLY ? "only" : "first");
        else fputs("null", f);
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    rb__json_rounds(f, r);
    fprintf(f, ",\n \"results\": [");
    for (i = 0; i < r->count; i++) {
        fputs(i ? ",\n  " : "\n  ", f);
        rb__json_result(f, r, &r->results[i]);
    }
    fprintf(f, "\n ]}\n");
}

/* ==== 2.4 SVG charts ========================================================================== */

/*
   The shape of the Lucene PR's figures: for each strategy a group of bars, one per thread
   count. Every bar carries its number (data-value, and a tooltip), so a picture can be checked
   against the table; the tests check that heights are proportional to those numbers. A cell
   that did not run is drawn as an outlined stub that says why, never dropped: a missing bar
   reads as "slow", a stub marked "unsupported" reads as what it is. Each panel has its own
   scale: a 200 ns hot case and a 100 us cold one cannot share an axis. */
typedef struct rb__bar {
    double v;               /* the bar's value; used only when status == RB_OK */
    double lo, hi;          /* whisker; lo > hi: none */
    int status;             /* RB_OK, RB_UNSUPPORTED or an error */
    int missing;            /* no such cell: the run stopped before it */
    const char *why;
} rb__bar;

typedef struct rb__panel {
    char heading[400];
    const char *const *groups;
    unsigned ngroups, nseries;
    char series[RB_MAX_AXIS][32];
    const rb__bar *bars;    /* [group * nseries + series] */
} rb__panel;

#define RB__SVG_LEFT 84u     /* room for the y axis labels */
#define RB__SVG_RIGHT 24u
#define RB__SVG_BAR 16u      /* the narrowest bar */
#define RB__SVG_GAP 26u      /* between groups */
#define RB__SVG_PLOT 260u    /* the plot's height */
#define RB__SVG_PANEL (28u + RB__SVG_PLOT + 110u)

static const char *const rb__palette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
                                          "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};

/* Text and attribute values. XML 1.0 allows no control character but tab, newline and
   return, and no byte that is not UTF-8 (nor U+FFFE, U+FFFF): one such byte and a parser
   rejects the whole chart. Invalid bytes become U+FFFD, as in the JSON writer. */
static void rb__xml(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    for (; *p; p++) {
        unsigned char c = *p;
        if (c >= 0x80) {
            int n = rb__utf8_len(p);
            if (n == 0 || (n == 3 && p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe)) fputs("\xef\xbf\xbd", f);
            else fwrite(p, 1, (size_t)n, f);
            p += n ? n - 1 : 0;
        } else if (c == '&') fputs("&amp;", f);
        else if (c == '<') fputs("&lt;", f);
        else if (c == '>') fputs("&gt;", f);
        else if (c == '"') fputs("&quot;", f);
        else if (c < 0x20 && c != '\t') fputc(' ', f);   /* not allowed in XML 1.0 */
        else fputc(c, f);
    }
}

/* 1, 2, 2.5, 5 x 10^k at or above m: ticks at fifths of it are round numbers */
static double rb__nice_ceil(double m)
{
    double e = pow(10, floor(log10(m))), x = m / e;
    return e * (x <= 1 ? 1 : x <= 2 ? 2 : x <= 2.5 ? 2.5 : x <= 5 ? 5 : 10);
}

/* decimals for three significant digits, without an exponent: 0.0041, 12.3, 20417 */
static int rb__digits(double v)
{
    int d = 2 - (int)floor(log10(v > 0 ? v : 1));
    return d < 0 ? 0 : d > 6 ? 6 : d;
}

/* wide enough for the widest panel and the subtitle (about 6.2 px per character at 11 px) */
static unsigned rb__svg_width(const rb__panel *p, unsigned n, size_t text_chars)
{
    unsigned i, w = RB__MAX(720, RB__SVG_LEFT + (unsigned)(text_chars * 62 / 10) + RB__SVG_RIGHT);
    for (i = 0; i < n; i++)
        w = RB__MAX(w, RB__SVG_LEFT + p[i].ngroups * (p[i].nseries * RB__SVG_BAR + RB__SVG_GAP) + RB__SVG_RIGHT);
    return w;
}

static double rb__svg_h(double v, double lo, double hi, int log_scale)
{
    double h = log_scale ? RB__SVG_PLOT * log(v / lo) / log(hi / lo) : RB__SVG_PLOT * v / hi;
    return h < 0 ? 0 : h > RB__SVG_PLOT ? RB__SVG_PLOT : h;
}

static void rb__svg_panel(FILE *f, const rb__panel *p, unsigned y0, unsigned width, int log_scale, const char *unit)
{
    unsigned g, s, k, n = p->ngroups * p->nseries;
    double maxv = 0, minv = 0, lo, hi;
    unsigned top = y0 + 28, base = top + RB__SVG_PLOT, right = width - RB__SVG_RIGHT;
    /* groups share the width; bars keep their size and sit in the middle of their group */
    unsigned gw = p->ngroups ? (right - RB__SVG_LEFT) / p->ngroups : 1;
    unsigned bw = p->nseries ? RB__MIN(36u, (gw - RB__SVG_GAP) / p->nseries) : RB__SVG_BAR;
    for (k = 0; k < n; k++) {
        const rb__bar *b = &p->bars[k];
        if (b->missing || b->status != RB_OK || !(b->v > 0)) continue;
        maxv = RB__MAX(maxv, b->lo <= b->hi ? RB__MAX(b->v, b->hi) : b->v);
        if (minv == 0 || b->v < minv) minv = b->v;
    }
    if (maxv <= 0) maxv = minv = 1;
    if (log_scale) {
        /* whole decades, with the lowest bar above the floor so that it is visible */
        lo = pow(10, floor(log10(minv)));
        if (lo >= minv * 0.999) lo /= 10;
        hi = pow(10, ceil(log10(maxv)));
        if (hi <= lo) hi = lo * 10;
    } else {
        lo = 0;
        hi = rb__nice_ceil(maxv * 1.15);   /* headroom for the numbers over the tallest bar */
    }
    fprintf(f, "<g class=\"panel\" data-scale=\"%s\" data-lo=\"%.9g\" data-hi=\"%.9g\" data-base=\"%u\" "
               "data-plot-height=\"%u\">\n", log_scale ? "log" : "linear", lo, hi, base, RB__SVG_PLOT);
    fprintf(f, "<text x=\"%u\" y=\"%u\" font-size=\"13\" font-weight=\"bold\">", RB__SVG_LEFT, y0 + 14);
    rb__xml(f, p->heading);
    fprintf(f, "</text>\n");
    /* grid and y labels */
    if (log_scale) {
        double t;
        for (t = lo; t <= hi * 1.0001; t *= 10) {
            double y = base - rb__svg_h(t, lo, hi, 1);
            fprintf(f, "<line x1=\"%u\" y1=\"%.1f\" x2=\"%u\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                       "<text x=\"%u\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%g</text>\n",
                    RB__SVG_LEFT, y, right, y, RB__SVG_LEFT - 6, y + 4, t);
        }
    } else {
        for (k = 0; k <= 5; k++) {
            double t = hi * k / 5, y = base - rb__svg_h(t, lo, hi, 0);
            fprintf(f, "<line x1=\"%u\" y1=\"%.1f\" x2=\"%u\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                       "<text x=\"%u\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%g</text>\n",
                    RB__SVG_LEFT, y, right, y, RB__SVG_LEFT - 6, y + 4, t);
        }
    }
    fprintf(f, "<text transform=\"translate(18,%u) rotate(-90)\" font-size=\"12\" text-anchor=\"middle\">",
            top + RB__SVG_PLOT / 2);
    rb__xml(f, unit);
    fprintf(f, "%s</text>\n", log_scale ? " (log scale)" : "");
    for (g = 0; g < p->ngroups; g++) {
        unsigned gx = RB__SVG_LEFT + g * gw + (gw - p->nseries * bw) / 2;
        unsigned mid = gx + p->nseries * bw / 2;
        for (s = 0; s < p->nseries; s++) {
            const rb__bar *b = &p->bars[g * p->nseries + s];
            unsigned x = gx + s * bw, w = bw - 2;
            const char *col = rb__palette[s % (sizeof rb__palette / sizeof rb__palette[0])];
            if (!b->missing && b->status == RB_OK && b->v > 0) {
                double h = rb__svg_h(b->v, lo, hi, log_scale);
                fprintf(f, "<rect class=\"bar\" x=\"%u\" y=\"%.2f\" width=\"%u\" height=\"%.2f\" fill=\"%s\" "
                           "data-group=\"", x, base - h, w, h, col);
                rb__xml(f, p->groups[g]);
                fprintf(f, "\" data-series=\"");
                rb__xml(f, p->series[s]);
                fprintf(f, "\" data-value=\"%.9g\"><title>", b->v);
                rb__xml(f, p->groups[g]);
                fprintf(f, " %s: %.4g %s", p->series[s], b->v, unit);
                if (b->lo <= b->hi) fprintf(f, " (whisker %.4g to %.4g)", b->lo, b->hi);
                fprintf(f, "</title></rect>\n");
                if (b->lo <= b->hi) {
                    double y1 = base - rb__svg_h(b->lo > 0 ? b->lo : lo, lo, hi, log_scale);
                    double y2 = base - rb__svg_h(b->hi, lo, hi, log_scale);
                    fprintf(f, "<path class=\"whisker\" d=\"M%u %.1fV%.1fM%u %.1fH%u\" stroke=\"#333\" fill=\"none\"/>\n",
                            x + w / 2, y1, y2, x + 3, y2, x + w - 3);
                }
                {   /* the number, just above the bar or its whisker */
                    double ytop = base - h;
                    if (b->lo <= b->hi) ytop = RB__MIN(ytop, base - rb__svg_h(b->hi, lo, hi, log_scale));
                    fprintf(f, "<text class=\"value\" transform=\"translate(%u,%.1f) rotate(-90)\" "
                               "font-size=\"9\">%.*f</text>\n", x + w / 2 + 3, ytop - 3, rb__digits(b->v), b->v);
                }
            } else {
                const char *what = b->missing ? "not run" : b->status == RB_UNSUPPORTED ? "unsupported"
                                 : b->status == RB_OK ? "zero" : b->status == RB_EINTR ? "interrupted" : "error";
                fprintf(f, "<g class=\"stub\" data-status=\"%s\" data-group=\"", what);
                rb__xml(f, p->groups[g]);
                fprintf(f, "\" data-series=\"");
                rb__xml(f, p->series[s]);
                fprintf(f, "\"><rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"90\" fill=\"none\" stroke=\"%s\" "
                           "stroke-dasharray=\"3,2\"/><text transform=\"translate(%u,%u) rotate(-90)\" "
                           "font-size=\"9\" fill=\"#666\">%s</text><title>",
                        x, base - 90, w, col, x + w / 2 + 3, base - 4, what);
                rb__xml(f, p->groups[g]);
                fprintf(f, " %s: %s%s", p->series[s], what, b->why && *b->why ? ": " : "");
                rb__xml(f, b->why);
                fprintf(f, "</title></g>\n");
            }
        }
        fprintf(f, "<text transform=\"translate(%u,%u) rotate(-35)\" font-size=\"11\" text-anchor=\"end\">", mid,
                base + 14);
        rb__xml(f, p->groups[g]);
        fprintf(f, "</text>\n");
    }
    fprintf(f, "<line x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\" stroke=\"#333\"/>\n</g>\n", RB__SVG_LEFT, base, right,
            base);
}

/* The file, RAM and device a number belongs to: the subtitle every chart carries. */
static void rb__svg_env_line(const rb_env *e, char *buf, size_t len)
{
    const char *word;
    double ratio;
    if (!e) { snprintf(buf, len, "environment not recorded"); return; }
    ratio = rb_env_file_ram_ratio(e, &word);
    snprintf(buf, len, "%s %s \xc2\xb7 %ld CPUs \xc2\xb7 RAM %.1f GiB \xc2\xb7 file %.2f GiB (%.3gx %s) on %s, "
                       "device %s (interrupts on CPU %s), read_ahead_kb %ld",
             e->os, e->kernel, e->cpus, e->ram_total > 0 ? (double)e->ram_total / 1073741824.0 : 0.0,
             e->file_size >= 0 ? (double)e->file_size / 1073741824.0 : 0.0, ratio > 0 ? ratio : 0.0, word,
             e->fs[0] ? e->fs : "?", e->device[0] ? e->device : "?", e->irq_cpus[0] ? e->irq_cpus : "?",
             e->read_ahead_kb);
}

static void rb__svg_doc(FILE *f, const char *title, const char *sub1, const char *sub2, const rb__panel *p,
                        unsigned n, const char *unit, const char *whisker, int log_scale)
{
    unsigned w = rb__svg_width(p, n, RB__MAX(strlen(sub1), strlen(sub2))), h = 104 + n * RB__SVG_PANEL, i, s, x;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" "
               "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n<text x=\"%u\" y=\"28\" font-size=\"18\" "
               "font-weight=\"bold\">", w, h, w, h, RB__SVG_LEFT);
    rb__xml(f, title && *title ? title : "readbench");
    fprintf(f, "</text>\n<text x=\"%u\" y=\"48\" font-size=\"11\" fill=\"#444\">", RB__SVG_LEFT);
    rb__xml(f, sub1);
    fprintf(f, "</text>\n<text x=\"%u\" y=\"63\" font-size=\"11\" fill=\"#444\">", RB__SVG_LEFT);
    rb__xml(f, sub2);
    fprintf(f, "</text>\n<g class=\"legend\">\n");
    /* the series are the same in every panel */
    for (s = 0, x = RB__SVG_LEFT; n && s < p[0].nseries; s++) {
        fprintf(f, "<rect x=\"%u\" y=\"74\" width=\"12\" height=\"12\" fill=\"%s\"/><text x=\"%u\" y=\"85\" "
                   "font-size=\"12\">", x, rb__palette[s % (sizeof rb__palette / sizeof rb__palette[0])], x + 16);
        rb__xml(f, p[0].series[s]);
        fprintf(f, "</text>\n");
        x += 28 + 8 * (unsigned)strlen(p[0].series[s]);
    }
    fprintf(f, "<text x=\"%u\" y=\"85\" font-size=\"11\" fill=\"#444\">", x + 8);
    rb__xml(f, whisker);
    fprintf(f, "; dashed: not measured, with the reason in its tooltip</text>\n</g>\n");
    for (i = 0; i < n; i++) rb__svg_panel(f, &p[i], 100 + i * RB__SVG_PANEL, w, log_scale, unit);
    fprintf(f, "</svg>\n");
}

static void rb__report_svg(FILE *f, const rb_report *r, const char *title, int log_scale)
{
    int by_size = r->nthreads == 1 && r->nread_sizes > 1;
    unsigned npanels = by_size ? 1 : r->nread_sizes, nseries = by_size ? r->nread_sizes : r->nthreads;
    unsigned i, g, s, ng = r->nstrategies;
    int ci = 0;
    rb__panel *p;
    rb__bar *bars;
    char env[1536], cfg[512], sz[32];
    char pat[RB_PATTERN_LEN] = "random";
    if (r->cfg) rb_pattern_name(r->cfg, pat, sizeof pat);
    if (nseries > RB_MAX_AXIS) nseries = RB_MAX_AXIS;   /* rb_matrix_check allows no more */
    p = (rb__panel *)calloc(npanels ? npanels : 1, sizeof *p);
    bars = (rb__bar *)calloc((size_t)(npanels ? npanels : 1) * (ng ? ng : 1) * (nseries ? nseries : 1), sizeof *bars);
    if (!p || !bars) { free(p); free(bars); fprintf(f, "<!-- readbench: out of memory -->\n"); return; }
    for (i = 0; i < npanels; i++) {
        uint64_t rs = r->read_sizes[i];
        rb__panel *q = &p[i];
        const rb_result *any = NULL;
        for (g = 0; g < r->count && !any; g++)
            if (r->results[g].read_size == rs) any = &r->results[g];
        rb_format_size(rs, sz, sizeof sz);
        if (by_size)
            snprintf(q->heading, sizeof q->heading, "%s reads, %u thread%s; bars are read sizes", pat,
                     r->threads[0], r->threads[0] == 1 ? "" : "s");
        else
            snprintf(q->heading, sizeof q->heading, "%s %s reads, %u per op", pat, sz, any ? any->reads_per_op : 0);
        q->groups = r->strategies;
        q->ngroups = ng;
        q->nseries = nseries;
        q->bars = bars + (size_t)i * ng * nseries;
        for (s = 0; s < nseries; s++) {
            if (by_size) rb_format_size(r->read_sizes[s], q->series[s], sizeof q->series[s]);
            else snprintf(q->series[s], sizeof q->series[s], "%u thread%s", r->threads[s],
                          r->threads[s] == 1 ? "" : "s");
        }
        for (g = 0; g < ng; g++)
            for (s = 0; s < nseries; s++) {
                const rb_result *x = by_size ? rb_report_cell(r, g, 0, s) : rb_report_cell(r, g, s, i);
                rb__bar *b = &bars[(size_t)i * ng * nseries + g * nseries + s];
                b->lo = 1;
                b->hi = 0;
                b->status = x ? x->status : RB_ENOTRUN;
                b->missing = !x || x->status == RB_ENOTRUN;
                b->why = x ? x->reason : "the run stopped before this cell";
                if (!x || x->status != RB_OK) continue;
                b->v = x->ops_per_ms;
                if (x->nsamples) {   /* the median and its 95% interval */
                    b->v = x->ops_per_ms_median;
                    if (x->ci_lo == x->ci_lo) { b->lo = x->ci_lo; b->hi = x->ci_hi; }
                    ci = 1;
                } else if (x->iterations > 1) { b->lo = x->ops_per_ms - x->ops_per_ms_stddev; b->hi = x->ops_per_ms + x->ops_per_ms_stddev; }
            }
    }
    rb__svg_env_line(r->env, env, sizeof env);
    if (r->cfg) {
        const rb_config *c = r->cfg;
        char pw[48] = "";
        if (c->prewarm > 0) snprintf(pw, sizeof pw, ", prewarm %.2f", c->prewarm);
        snprintf(cfg, sizeof cfg, "cache %s%s \xc2\xb7 %u x %.2g s per cell after %.2g s warmup%s \xc2\xb7 readbench %s",
                 c->cache == RB_CACHE_EVICT_EACH ? "evicted before every iteration"
                 : c->cache == RB_CACHE_EVICT ? "evicted before each cell" : "kept", pw, c->iterations,
                 (double)c->duration_ns / 1e9, c->warmup_ns > 0 ? (double)c->warmup_ns / 1e9 : 0.0,
                 c->align ? ", aligned" : "", RB_VERSION);
    } else {
        snprintf(cfg, sizeof cfg, "readbench %s", RB_VERSION);
    }
    rb__svg_doc(f, title, env, cfg, p, npanels, "ops/ms, higher is better",
                ci ? "bar: median of the iterations; whisker: the 95% interval over the rounds"
                   : "whisker: \xc2\xb1" "1 sd of the iterations", log_scale);
    free(p);
    free(bars);
}

/* ==== 2.5 progress and the lines around a run ================================================= */

/* 1: the directory of `path`'s last component is the directory ds describes. */
static int rb__parent_is(const char *path, const struct stat *ds)
{
    char dir[4096];
    const char *base;
    struct stat st;
    return rb__split_path(path, dir, sizeof dir, &base) == 0 && stat(dir, &st) == 0 && st.st_dev == ds->st_dev &&
           st.st_ino == ds->st_ino;
}

/* 1: the output `out` would write into the input directory `dir` (ds: its stat): a name in it
   (one of its files, or a new one that the next run of it would read as one), a link whose
   target is in it, or a hard link elsewhere to one of its entries. A directory as FILE is read
   as its files, so each of them is an input as much as a single FILE is. */
static int rb__lands_in_dir(const char *out, const char *dir, const struct stat *ds)
{
    struct stat os, es;
    DIR *dp;
    struct dirent *de;
    char *real, full[4352];
    int inside = rb__parent_is(out, ds);
    if (inside || stat(out, &os) != 0) return inside;   /* nothing there yet: only its name can be inside */
    if ((real = realpath(out, NULL)) != NULL) {         /* a link's target, wherever the link is */
        inside = rb__parent_is(real, ds);
        free(real);
    }
    if (inside || !S_ISREG(os.st_mode) || !(dp = opendir(dir))) return inside;
    while (!inside && (de = readdir(dp)) != NULL) {     /* a hard link from elsewhere */
        snprintf(full, sizeof full, "%s/%s", dir, de->d_name);
        inside = lstat(full, &es) == 0 && es.st_dev == os.st_dev && es.st_ino == os.st_ino;
    }
    closedir(dp);
    return inside;
}

RBDEF int rb_check_outputs(const char *const *outs, unsigned nout, const char *const *ins, unsigned nin,
                           rb_error *err)
{
    unsigned i, k;
    struct stat st;
    for (i = 0; i < nout; i++) {
        if (!outs[i]) continue;
        if (stat(outs[i], &st) == 0 && !S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode)) {
            rb__seterr(err, RB_ENOTREG, 0, "stat", "%s is %s: an output must be a regular file, a character "
                       "device or a FIFO", outs[i], rb__file_kind(st.st_mode));
            return RB_ENOTREG;
        }
        for (k = 0; k < nin; k++) {
            if (ins[k] && rb_same_file(outs[i], ins[k])) {
                rb__seterr(err, RB_EINVAL, 0, "stat", "%s is the input file %s: writing there would destroy it",
                           outs[i], ins[k]);
                return RB_EINVAL;
            }
            if (ins[k] && stat(ins[k], &st) == 0 && S_ISDIR(st.st_mode) && rb__lands_in_dir(outs[i], ins[k], &st)) {
                rb__seterr(err, RB_EINVAL, 0, "stat", "%s is in the input directory %s, whose files are read: writing "
                           "there would destroy one of them or add one; write it elsewhere", outs[i], ins[k]);
                return RB_EINVAL;
            }
        }
        for (k = 0; k < i; k++)
            if (outs[k] && rb_same_file(outs[i], outs[k])) {
                rb__seterr(err, RB_EINVAL, 0, "stat", "%s and %s are the same file: one output would replace "
                           "the other", outs[k], outs[i]);
                return RB_EINVAL;
            }
    }
    return RB_OK;
}

RBDEF FILE *rb_outfile_stdio(rb_outfile *o, rb_error *err)
{
    char sp[RB__PATH_SHOWN];   /* the path as messages show it (rb__short_path) */
    if (!o->f && o->fd >= 0 && !(o->f = fdopen(o->fd, "w")))
        rb__seterr(err, RB_ESYS, errno, "fdopen", "cannot write %s: %s", rb__short_path(o->path, sp), strerror(errno));
    return o->f;
}

RBDEF int rb_outfiles_open(rb_outfile *o, const char *const *paths, unsigned n, const char *const *inputs,
                           unsigned nin, rb_error *err)
{
    unsigned i;
    int rc;
    for (i = 0; i < n; i++) {
        memset(&o[i], 0, sizeof o[i]);
        o[i].fd = -1;
    }
    rc = rb_check_outputs(paths, n, inputs, nin, err);
    for (i = 0; i < n && rc == RB_OK; i++)
        if (paths[i] && (rc = rb_outfile_open(&o[i], paths[i], RB_OUT_REPLACE | RB_OUT_FOLLOW | RB_OUT_STREAM, err))
                            == RB_OK && !rb_outfile_stdio(&o[i], err))
            rc = RB_ESYS;
    if (rc != RB_OK) rb_outfiles_close(o, n, 0, NULL);
    return rc;
}

RBDEF int rb_outfiles_close(rb_outfile *o, unsigned n, int keep, rb_error *err)
{
    unsigned i;
    int rc = RB_OK, r;
    for (i = 0; i < n; i++) {
        if (!keep || o[i].fd < 0) r = rb_outfile_abort(&o[i], rc == RB_OK ? err : NULL);
        else r = rb_outfile_commit(&o[i], rc == RB_OK ? err : NULL);
        if (rc == RB_OK) rc = r;
    }
    return rc;
}

static void rb__report_residency(FILE *f, const char *name, const rb_residency_info *ri, int evicted)
{
    unsigned long long pages = ri->pages, res = ri->resident, dirty = ri->dirty, wb = ri->writeback;
    char path[4200];   /* a directory: its name and how many files the counts sum */
    if (ri->files > 1) snprintf(path, sizeof path, "%s (%u files)", name, ri->files);
    else snprintf(path, sizeof path, "%s", name);
    if (evicted) {   /* what is left, and the reason the kernel kept it */
        if (!ri->trusted) fprintf(f, "%s: evicted; residency cannot be trusted (not owner, not writable)\n", path);
        else if (!res) fprintf(f, "%s: evicted; 0 of %llu pages cached\n", path, pages);
        else if (dirty || wb)
            fprintf(f, "%s: evicted; %llu of %llu pages still cached: %llu dirty and %llu under writeback cannot be "
                    "dropped until written\n", path, res, pages, dirty, wb);
        else if (ri->no_backing)
            fprintf(f, "%s: on tmpfs/ramfs the page cache is the file's only copy: nothing can be evicted (%llu of "
                    "%llu pages cached)\n", path, res, pages);
        else fprintf(f, "%s: evicted; %llu of %llu pages still cached: pages some process maps are never evicted "
                     "(check with lsof/fuser)\n", path, res, pages);
        return;
    }
    if (!ri->trusted) {
        fprintf(f, "%s: residency cannot be trusted: this user neither owns the file nor may write it, so the "
                "kernel reports every page cached (mincore) or refuses (cachestat)\n", path);
        return;
    }
    fprintf(f, "%s: %llu of %llu pages cached (%.1f%%)", path, res, pages,
            pages ? 100.0 * (double)res / (double)pages : 0.0);
    if (!strcmp(ri->method, "cachestat")) fprintf(f, ", %llu dirty, %llu under writeback", dirty, wb);
    fprintf(f, " [%s]\n", ri->method);
}

RBDEF void rb_report_list(FILE *f, const rb_config *cfg)
{
    unsigned n, i;
    const rb_strategy *s = rb_strategies(&n);
    char why[256];
    fprintf(f, "%-22s %-4s %s\n", "strategy", "here", "what one op does / why not");
    for (i = 0; i < n && !(cfg->stop && *cfg->stop); i++) {
        int rc = rb_strategy_probe(&s[i], cfg, why, sizeof why);
        fprintf(f, "%-22s %-4s %s\n", s[i].name, rc == RB_OK ? "yes" : "no", rc == RB_OK ? s[i].summary : why);
    }
}

RBDEF void rb_report_strategies_markdown(FILE *f)
{
    static const char *const advice[] = {"NORMAL", "RANDOM", "SEQUENTIAL"};
    static const char *const hint[] = {"-", "MADV_WILLNEED", "POSIX_FADV_WILLNEED", "MADV_POPULATE_READ"};
    static const char *const rwf[] = {"", "RWF_NOWAIT", "RWF_DONTCACHE"};
    unsigned n, i;
    const rb_strategy *s = rb_strategies(&n);
    fprintf(f, "| strategy | reads | mapping advice | before the reads, each read | policy | one op |\n"
               "|---|---|---|---|---|---|\n");
    for (i = 0; i < n; i++) {
        const rb_strategy *x = &s[i];
        const char *pol = x->hint == RB_HINT_MADVISE ? rb_prefetch_policy_name(x->policy) : NULL;
        fprintf(f, "| `%s` | %s%s%s%s%s | %s | %s | %s | %s |\n", x->name,
                x->flags & RB_S_NOIO ? "none" : x->flags & RB_S_MMAP ? "mapping" : "descriptor",
                x->flags & RB_S_DIRECT ? ", O_DIRECT" : "", x->flags & RB_S_QUEUE ? ", queued" : "",
                x->rwf > 0 && x->rwf < 3 ? ", " : "", x->rwf > 0 && x->rwf < 3 ? rwf[x->rwf] : "",
                x->flags & RB_S_MMAP && x->advice >= 0 && x->advice < 3 ? advice[x->advice] : "-",
                x->hint >= 0 && x->hint < 4 ? hint[x->hint] : "?", pol ? pol : "-", x->summary);
    }
}

static int rb__stop_asked(uint64_t done, uint64_t total, void *stop)
{
    (void)done;
    (void)total;
    return stop && *(volatile int *)stop;
}

RBDEF int rb_report_list_here(FILE *f, const rb_config *cfg, rb_error *err)
{
    rb_config c = *cfg;
    const char *td = getenv("TMPDIR");
    char tmp[4096];
    int fd, rc;
    if (cfg->path) {   /* only a regular file: a FIFO would block the probe's open */
        if ((rc = rb_check_file(cfg->path, 0, NULL, err)) != RB_OK) return rc;
    } else {   /* a small file of our own, so direct and io_uring are probed for real */
        snprintf(tmp, sizeof tmp, "%s/readbench-probe-XXXXXX", td && *td ? td : "/tmp");
        if ((fd = mkstemp(tmp)) < 0) {
            rb__seterr(err, RB_ESYS, errno, "mkstemp", "cannot create %s: %s", tmp, strerror(errno));
            return RB_ESYS;
        }
        close(fd);
        if ((rc = rb_setup_file(tmp, 1 << 20, 0, RB_OUT_REPLACE, rb__stop_asked, (void *)cfg->stop, err)) != RB_OK) {
            if (unlink(tmp) != 0) rb__seterr(err, rc, errno, "unlink", "cannot remove %s: %s", tmp, strerror(errno));
            return rc;
        }
        c.path = tmp;
    }
    rb_report_list(f, &c);
    if (!cfg->path && unlink(tmp) != 0) {
        rb__seterr(err, RB_ESYS, errno, "unlink", "cannot remove %s: %s", tmp, strerror(errno));
        return RB_ESYS;
    }
    return cfg->stop && *cfg->stop ? RB_EINTR : RB_OK;
}

static void rb__report_progress(FILE *f, const rb_matrix_event *ev)
{
    const rb_result *r = ev->result;
    const rb_config *c = ev->cfg;
    unsigned k;
    if (ev->kind == RB_EVENT_ROUND) {
        if (ev->rounds < 2) return;
        fprintf(f, "readbench: round %u of %u, cells in this order:", ev->round + 1, ev->rounds);
        for (k = 0; k < ev->ncells; k++) fprintf(f, "%s%u", k ? "," : " ", ev->order[k]);
        fprintf(f, "\n");
    } else if (ev->kind == RB_EVENT_CELL) {
        fprintf(f, "%-22s T%02u %6llu B ... ", ev->strategy, c->threads, (unsigned long long)c->read_size);
    } else {
        if (r->status == RB_OK && r->rate_upper_bound)
            fprintf(f, "  < %.3g ops/ms (an upper bound: no op completed inside an iteration)", r->ops_per_ms);
        else if (r->status == RB_OK) fprintf(f, "%10.2f ops/ms", r->ops_per_ms);
        else fprintf(f, "%s: %s", r->status == RB_UNSUPPORTED ? "unsupported" : "ERROR", r->reason);
        if (r->prewarm_seconds > 0) fprintf(f, "  (prewarm %.2f s)", r->prewarm_seconds);
        if (r->evict_seconds > 0) fprintf(f, "  (evict %.3f s)", r->evict_seconds);
        if (r->status == RB_OK && r->resident_before >= 0 && r->file_pages)
            fprintf(f, "  resident %.1f%% -> %.1f%%", 100.0 * (double)r->resident_before / (double)r->file_pages,
                    100.0 * (double)r->resident_after / (double)r->file_pages);
        if (r->read_amplification >= 0) fprintf(f, "  amplification %.2f", r->read_amplification);
        if (r->status == RB_OK && r->hit_rate >= 0 && r->page_reads) fprintf(f, "  hit %.1f%%", 100.0 * r->hit_rate);
        if (r->status == RB_OK && r->victim_pages && r->victim_lost >= 0)
            fprintf(f, "  victim lost %lld of %llu pages", (long long)r->victim_lost, (unsigned long long)r->victim_pages);
        fprintf(f, "\n");   /* a prewarm that did not hold is in the result's warnings */
    }
}

/* Interrupted and not run are not failures, nor is a strategy this machine cannot run. */
static unsigned rb__report_summary(FILE *f, const rb_report *r, int interrupted, const char *hint)
{
    unsigned i, done = 0, failed = 0, few = 0, short_ = rb__cells_cut_short(r);
    for (i = 0; i < r->count; i++) {
        int st = r->results[i].status;
        done += st != RB_ENOTRUN && st != RB_EINTR;
        failed += st != RB_OK && st != RB_UNSUPPORTED && st != RB_EINTR && st != RB_ENOTRUN;
        few += st == RB_OK && r->results[i].min_thread_ops < RB_FEW_OPS;
    }
    if (interrupted || r->interrupted) {
        fprintf(f, "readbench: interrupted: %u of %u cells finished", done, r->count);
        if (short_)   /* finished, but not every round: the report names them */
            fprintf(f, ", %u of them in fewer rounds than the %u asked (stopped in round %u)", short_,
                    rb__rounds_asked(r), r->rounds ? r->rounds : 1);
        if (done < r->count) fprintf(f, "; the others are marked \"interrupted\" or \"not run\" in the report");
        fprintf(f, "\n");
    }
    else if (failed)
        fprintf(f, "readbench: %u cell%s failed (see above)\n", failed, failed == 1 ? "" : "s");
    if (few)
        fprintf(f, "readbench: %u cell%s had a thread with fewer than %u ops in an iteration (see the warnings)%s%s\n",
                few, few == 1 ? "" : "s", RB_FEW_OPS, hint ? ": " : "", hint ? hint : "");
    return failed;
}

static void rb__report_setup_progress(FILE *f, uint64_t done, uint64_t total, int last)
{
    fprintf(f, "\rwriting: %3.0f%% (%llu of %llu MiB)", total ? 100.0 * (double)done / (double)total : 100.0,
            (unsigned long long)(done >> 20), (unsigned long long)(total >> 20));
    if (done == total || last) fprintf(f, "\n");
}

static void rb__report_setup_done(FILE *f, const char *path, uint64_t size, double s)
{
    char sz[32], files[96] = "";
    rb__dirlist d;
    if (rb__is_dir(path) && rb__dir_scan(path, &d, NULL) == RB_OK) {   /* other files there are read too: say so */
        snprintf(files, sizeof files, "; it holds %u file%s with data, which a run on it reads", d.n, d.n == 1 ? "" : "s");
        rb__dirlist_free(&d);
    }
    rb_format_size(size, sz, sizeof sz);
    fprintf(f, "readbench: wrote %s to %s in %.2f s (%.0f MiB/s)%s\n", sz, path, s, (double)size / 1048576.0 / s, files);
}

static void rb__report_file(FILE *f, const char *path, const rb_file_info *info)
{
    if (info->sparse)
        fprintf(f, "readbench: warning: %s is sparse (%llu of %llu bytes allocated): holes are never read from the "
                "device, so its numbers will be wrong\n", path, (unsigned long long)info->allocated,
                (unsigned long long)info->size);
    if (info->zero_head)
        fprintf(f, "readbench: warning: the first MiB of %s is all zeros: a file of zeros (or holes) is not a "
                "benchmark file; make one with readbench setup\n", path);
}

static void rb__report_refused(FILE *f, int rc, const rb_error *err, const char *path, const char *size, int small_hint)
{
    char dir[4096];
    const char *base;
    struct stat st;
    if (rc == RB_ETOOSMALL && small_hint == 1)
        fprintf(f, "readbench: %s, and readbench setup did not make it; make a new file with: readbench setup NEW_FILE %s\n",
                err->msg, size);
    else if (rc == RB_ENOFILE && !rb__split_path(path, dir, sizeof dir, &base) && stat(dir, &st) != 0)
        fprintf(f, "readbench: %s; its directory %s does not exist either: create both with: mkdir -p %s && readbench "
                "setup %s %s\n", err->msg, dir, dir, path, size);   /* setup makes no parent directory */
    else if (rc == RB_ENOFILE || (rc == RB_ETOOSMALL && small_hint))
        fprintf(f, "readbench: %s; create it with: readbench setup %s %s%s\n", err->msg, path, size,
                rc == RB_ETOOSMALL ? " --force" : "");
    else fprintf(f, "readbench: %s\n", err->msg);
}

static void rb__report_hog(FILE *f, uint64_t size, const rb_hog *h)
{
    if (!h) { fprintf(f, "readbench: pinning %.2f GiB of memory (mlock)...\n", (double)size / 1073741824.0); return; }
    if (h->warning[0]) fprintf(f, "readbench: %s\n", h->warning);
    if (!h->locked)
        fprintf(f, "readbench: hog: mlock refused (RLIMIT_MEMLOCK, see `ulimit -l`); there is no swap, so the "
                "touched memory stays resident all the same\n");
    fprintf(f, "readbench: pinned %.2f GiB; %.2f GiB left available\n", (double)size / 1073741824.0,
            (double)rb_mem_available() / 1073741824.0);
}

/* The public writers: each runs in the C locale (see rb__numloc_enter). */
RBDEF void rb_report_table(FILE *f, const rb_report *r, int md) { RB__IN_C_LOCALE(rb__report_table(f, r, md)); }
RBDEF void rb_report_csv(FILE *f, const rb_report *r) { RB__IN_C_LOCALE(rb__report_csv(f, r)); }
RBDEF void rb_report_json(FILE *f, const rb_report *r) { RB__IN_C_LOCALE(rb__report_json(f, r)); }
RBDEF void rb_env_print(FILE *f, const rb_env *e) { RB__IN_C_LOCALE(rb__env_print(f, e)); }
RBDEF void rb_report_progress(FILE *f, const rb_matrix_event *ev) { RB__IN_C_LOCALE(rb__report_progress(f, ev)); }
RBDEF void rb_report_progress_to(const rb_matrix_event *ev, void *file) { rb_report_progress((FILE *)file, ev); }
RBDEF void rb_log_to(void *file, const char *line) { fprintf((FILE *)file, "readbench: %s\n", line); }
RBDEF void rb_report_residency(FILE *f, const char *path, const rb_residency_info *ri, int evicted)
{
    RB__IN_C_LOCALE(rb__report_residency(f, path, ri, evicted));
}
RBDEF void rb_report_svg(FILE *f, const rb_report *r, const char *title, int log_scale)
{
    RB__IN_C_LOCALE(rb__report_svg(f, r, title, log_scale));
}
RBDEF unsigned rb_report_summary(FILE *f, const rb_report *r, int interrupted, const char *hint)
{
    unsigned failed;
    RB__IN_C_LOCALE(failed = rb__report_summary(f, r, interrupted, hint));
    return failed;
}
RBDEF void rb_report_setup_progress(FILE *f, uint64_t done, uint64_t total, int last)
{
    RB__IN_C_LOCALE(rb__report_setup_progress(f, done, total, last));
}
RBDEF void rb_report_setup_done(FILE *f, const char *path, uint64_t size, double seconds)
{
    RB__IN_C_LOCALE(rb__report_setup_done(f, path, size, seconds));
}
RBDEF void rb_report_hog(FILE *f, uint64_t size, const rb_hog *h) { RB__IN_C_LOCALE(rb__report_hog(f, size, h)); }
RBDEF void rb_report_file(FILE *f, const char *path, const rb_file_info *info)
{
    RB__IN_C_LOCALE(rb__report_file(f, path, info));
}
RBDEF void rb_report_refused(FILE *f, int rc, const rb_error *err, const char *path, const char *size, int small_hint)
{
    RB__IN_C_LOCALE(rb__report_refused(f, rc, err, path, size, small_hint));
}

#ifdef __cplusplus
}
#endif
#endif /* READBENCH_REPORTS_DONE */
#endif /* RB_NO_REPORTS */

/* ==== 3 tools (RB_NO_TOOLS leaves them out): they reach a run through the core's hooks ======== */
#if !defined(RB_NO_TOOLS)
#ifndef READBENCH_TOOLS_H
#define READBENCH_TOOLS_H
#ifdef __cplusplus
extern "C" {
#endif

/* -- 3.1 traces: strace, fio iolog and CSV read into a replay (declarations) -- */

typedef struct rb_trace_options {
    const char *file;      /* FILE: the reads kept are its (strace and iolog name their files) */
    uint64_t file_size;    /* reads must end inside it; 0: the size of `file` */
    int format;            /* RB_TRACE_AUTO (from the content), _STRACE, _IOLOG or _CSV */
    int skip_bad;          /* count and leave out the lines that cannot be read, instead of stopping */
} rb_trace_options;

/* rb_trace_load(t, trace, opts), rb_trace_parse(t, text, len, opts), rb_trace_free(t): a recorded
   trace (strace -f output, fio's iolog v2 and v3, or CSV offset,length[,thread[,time_ns]]) as
   streams of FILE's reads, each an (offset, length, time, line); rb_config.trace replays it in
   rb_run, a thread per stream or all of them dealt round-robin. A bad line or a read past FILE's
   end: an error naming the line, or with skip_bad counted. A custom strategy reads
   rb_worker_read_len(w, i) bytes for read i. */
/* RB_OK or the status in t (t->why); free with rb_trace_free in every case. */
RBDEF int rb_trace_load(rb_trace *t, const char *trace_path, const rb_trace_options *o);

RBDEF int rb_trace_parse(rb_trace *t, const char *text, size_t len, const rb_trace_options *o);

RBDEF void rb_trace_free(rb_trace *t);

RBDEF int rb_trace_format_find(const char *name);      /* RB_TRACE_*; -1: no such format */

/* -- 3.2 reader groups and the victim (declarations) -- */

typedef struct rb_group {
    const rb_strategy *s;          /* every group names its strategy */
    unsigned threads;              /* 0: the cell's (and so for every 0 below) */
    uint64_t read_size;
    unsigned reads_per_op, iodepth;
    uint64_t align;
    int has_pattern;               /* 1: pattern .. contiguous are the group's own */
    int pattern;
    double pattern_arg[2];
    unsigned run_length;
    int contiguous;
    char spec[RB_GROUP_SPEC_LEN];  /* as given: what the outputs show */
} rb_group;

/* SPEC: comma-separated key=value pairs with the run settings' names (strategy, threads,
   pattern, read-size, reads-per-op, iodepth, align), each value taken by rb_settings_set's
   rules. RB_EINVAL: why is one line naming `as`, the group's number (index, 1-based) and the key. */
RBDEF int rb_parse_group(const char *spec, unsigned index, const char *as, rb_group *g, char *why, size_t whylen);

/* The config group `index` (0-based) runs with: the cell's, with the group's own settings; its
   offsets are seeded from (seed, index), so that two groups of one pattern do not read the same. */
RBDEF void rb_group_config(const rb_config *cell, const rb_group *g, unsigned index, rb_config *out);

/* The rows rb_run_groups writes: per group its alone row (unless RB_ALONE_NO), then its
   together row (unless RB_ALONE_ONLY). */
RBDEF unsigned rb_group_rows(unsigned ngroups, int alone);

/* rb_run_groups(cfg, groups, n, alone, results), rb_parse_group(spec, index, as, group, why, len):
   readers that run together: each group (its own strategy, threads, pattern, read size) alone,
   then all at once on one file under one barrier and one coordinator, a row each: ops/ms and
   latency alone and together, their ratio, and the pages of each group's working set the others
   evicted. rb_config.victim names a second file a light reader keeps warm during any cell; the
   result says what the cell evicted of it (rb_victim_check refuses the benchmark file itself). */
/* Runs groups g[0..n) as rb_group_rows(n, alone) results into out. RB_OK when every row
   measured; else the first row's failure (RB_EINTR when cfg->stop ended it). */
RBDEF int rb_run_groups(const rb_config *cfg, const rb_group *g, unsigned n, int alone, rb_result *out);

/* cfg->victim, if any: an existing non-empty regular file that is not cfg->path (by device and
   inode, through links). RB_OK, or an error with why. */
RBDEF int rb_victim_check(const rb_config *cfg, char *why, size_t whylen);

/* The victim, a cell observer: a second file a light reader keeps warm during each cell (1 MiB
   per 10 ms after one whole pass before measuring); each row says what the cell's reads
   evicted of it. Opened read-only; never the file measured (the cell fails with RB_EINVAL).
   rb_victim_attach sets c->observer (and c->victim, for the reports) to v, which must outlive
   the runs; path NULL: none. */
typedef struct rb_victim {
    rb_observer observer;
    const char *path;
} rb_victim;

RBDEF void rb_victim_attach(rb_config *c, rb_victim *v, const char *path);

/* Readers that run together as a matrix's rows: each round one rb_run_groups of groups[0..n)
   (no strategy list; at most one thread count and one read size, the groups' defaults).
   rb_groups_attach sets m->hook to g, which must outlive the run; n 0: none. */
typedef struct rb_groups_matrix {
    rb_matrix_hook hook;
    const rb_group *groups;
    unsigned n;
    int alone;                   /* RB_ALONE_FIRST (0), RB_ALONE_NO or RB_ALONE_ONLY */
} rb_groups_matrix;

RBDEF void rb_groups_attach(rb_matrix *m, rb_groups_matrix *g, const rb_group *groups, unsigned n, int alone);

/* -- 3.3 the prefetch experiment (declarations) -- */

/* The prefetch-overhead experiment (Lucene's PrefetchBench): per op, 3 random 16-byte reads
   from clones of one input; even ops hint all 3 through the policy first, odd ops do not;
   `ops` ops per thread. fits: a 16 MiB slice, read into the cache first; else the whole
   file, evicted first. Latency of ops with and without prefetch go to separate histograms.
   Each result also says the residency of the range read (file or slice) before and after,
   and how many reads hit: every read's page is checked with mincore before the op, outside
   its timed part. "Not cached" caps the ops so that the pages the run loads stay under 5%
   of the file (a RANDOM mapping loads one page per read); where that cannot hold (a NORMAL
   mapping reads around each fault, a small file) the measured hits say so in `warning`. */
typedef struct rb_pfx_config {
    const char *path;
    unsigned threads;       /* 0: 1 (Lucene's concurrent variant used 10) */
    unsigned ops;           /* per thread; 0: 100000 */
    uint64_t slice;         /* the "fits" slice; 0: 16 MiB */
    int normal_mapping;     /* 0: the mapping is MADV_RANDOM (see rb_prefetch_experiment) */
    uint64_t seed;
    volatile int *stop;     /* set and nonzero: the case running ends "interrupted" at its threads' next
                               256th op, a later one is "not run" (rb_prefetch_experiments) */
} rb_pfx_config;

typedef struct rb_pfx_result {
    int policy, fits;
    unsigned threads, ops;
    int status;
    char reason[RB_REASON_LEN];
    double seconds, prepare_seconds;   /* prepare (prewarm or evict) is never measured */
    rb_hist with, without;             /* per-op latency, ns */
    rb_prefetch_stats st;
    unsigned ops_asked;                /* before "not cached" capped ops (see above) */
    double resident_before, resident_after;   /* fraction of the range's pages; -1: unknown */
    uint64_t reads_checked, reads_hit; /* reads whose page was checked, and found resident */
    char warning[RB_REASON_LEN];       /* "" or why the figures are not what the case means */
    rb_prefetch_accounting prefetch_accounting;   /* what became of the hints (see rb_prefetch_accounting) */
} rb_pfx_result;

/* rb_prefetch_experiment(cfg, policy, fits, result): Lucene's PrefetchBench: the cost of a hint
   when data is cached and its benefit when it is not, per policy. */
RBDEF int rb_prefetch_experiment(const rb_pfx_config *c, int policy, int fits, rb_pfx_result *out);

/* rb_report_prefetch_progress(f, policy, fits, result): the experiment's progress line: with
   result NULL, the policy and case before it runs; then the p50s with and without the hint, or why
   not. */
RBDEF void rb_report_prefetch_progress(FILE *f, int policy, int fits, const rb_pfx_result *r);

RBDEF void rb_report_prefetch(FILE *f, const rb_pfx_result *r, unsigned n, int format, const rb_env *env);

/* The prefetch experiment: a panel for "fits" and one for "not cached", a group per policy,
   bars p50 with and without prefetch, whiskers up to p90. */
RBDEF void rb_report_prefetch_svg(FILE *f, const rb_pfx_result *r, unsigned n, const char *title, int log_scale,
                                  const rb_env *env);

/* The prefetch experiment's settings (keys threads, ops, policies, advice), the same way. */
typedef struct rb_pfx_settings {
    rb_pfx_config cfg;
    int policies[RB_PF_COUNT]; unsigned npolicies;   /* 0: every policy, in the table's order */
} rb_pfx_settings;

RBDEF int rb_pfx_settings_set(rb_pfx_settings *s, const char *key, const char *value, const char *as, char *why,
                              size_t whylen);

/* Every policy of s, each not cached then fitting in the cache: two results per policy into out
   (2 * RB_PF_COUNT at most), rb_report_prefetch_progress lines on progress (NULL: none).
   Returns how many results; *failed: how many did not run. */
RBDEF unsigned rb_prefetch_experiments(const rb_pfx_settings *s, rb_pfx_result *out, FILE *progress,
                                       unsigned *failed);

/* -- 3.4 the readahead probe (declarations) -- */

/* The readahead probe: what one cold read makes the kernel load, by advice and mapping.
   Each case starts from an evicted file and counts the pages one read (or each of the last
   reads) adds to the page cache around it, against what this machine's read_ahead_kb
   predicts. Cases 1-11 are numbered as in the Lucene discussion; then pread, pread after
   fadvise RANDOM and SEQUENTIAL, and O_DIRECT; then what hints over large ranges load, hints
   and advice on a file that is also mapped, the pread readahead window's growth, and reclaim
   advice (MADV_COLD, MADV_PAGEOUT) on a range mapped twice. */
#define RB_PROBE_CASES 23

#define RB_PROBE_SERIES 8     /* pread-window: pages added by each of the first 8 reads */

typedef struct rb_probe_result {
    int id;                   /* 1..23; 12.. are named */
    const char *name;         /* "1" .. "11", "pread", "pread-fadv-random", ..., "willneed-64m" */
    const char *description;
    const char *reasoning;    /* why the expected count is what it is, one line */
    long expected_pages, observed_pages;   /* observed: per read, the last read(s) of the case; for
                                              the hint cases the pages the hint added, for the
                                              reclaim cases the pages that left the cache */
    int agrees;
    int folio_effect;         /* observed and expected differ by a power of two */
    int status;               /* RB_OK, RB_UNSUPPORTED, or an error */
    char reason[RB_REASON_LEN];
    unsigned nseries;         /* pread-window: RB_PROBE_SERIES; else 0 */
    long expected_series[RB_PROBE_SERIES], observed_series[RB_PROBE_SERIES];   /* pages per read */
} rb_probe_result;

/* rb_probe(path, case, result): the readahead probe: the pages one cold read adds to the page
   cache, per advice and mapping (cases 1-11 of the Lucene discussion, pread, fadvise, O_DIRECT),
   against what read_ahead_kb predicts; no perf, no root. Then what one WILLNEED over 64 MiB and 1
   GiB loads (the cap of max(read_ahead_kb, max_sectors_kb)), fadvise on a mapped file, two
   mappings of one descriptor, the pread window's growth over 8 reads, and MADV_COLD / MADV_PAGEOUT
   on a range mapped twice, each with its reasoning. rb_probe_check(path, case, err) says
   beforehand, without reading the file, whether it is a regular file large enough for the case. */
RBDEF int rb_probe(const char *path, int id, rb_probe_result *out);

RBDEF const char *rb_probe_case_name(int id);   /* "1".."11", "pread", ...; NULL if no such case */

/* Whether path can be probed by case id (0: by the cases that need the least) without reading
   it: a regular file (RB_ENOTREG, RB_ENOFILE) of the size the case needs (RB_ETOOSMALL). */
RBDEF int rb_probe_check(const char *path, int id, rb_error *err);

/* Case id, or every case (id 0), into out (RB_PROBE_CASES at most); *failed: the cases that could
   not run (unsupported here is not a failure); *disagree: those that ran and did not match. */
RBDEF unsigned rb_probe_cases(const char *path, int id, rb_probe_result *out, unsigned *failed, unsigned *disagree);

RBDEF void rb_report_probe(FILE *f, const rb_probe_result *r, unsigned n, int format, const rb_env *env);

/* A probe case by its name ("1".."11", "pread", ...): its id, or 0 with why listing the names. */
RBDEF int rb_probe_case_find(const char *name, char *why, size_t whylen);

/* -- 3.5 warm-up methods (declarations) -- */

/*
   How long each way of making a cold file resident takes, and how much of the file it loads
   (readbench warmup). Every method starts from an evicted file. */
enum {
    RB_WARM_READ = 0,            /* read() of the whole file */
    RB_WARM_WILLNEED = 1,        /* one madvise(MADV_WILLNEED) over the whole mapping */
    RB_WARM_WILLNEED_CHUNKED = 2,/* madvise(MADV_WILLNEED) over each chunk in turn */
    RB_WARM_FADVISE = 3,         /* posix_fadvise(POSIX_FADV_WILLNEED) over the whole file */
    RB_WARM_MAP_POPULATE = 4,    /* mmap(MAP_POPULATE) */
    RB_WARM_POPULATE_READ = 5,   /* madvise(MADV_POPULATE_READ) over the whole mapping */
    RB_WARM_TOUCH = 6,           /* a read of one byte of every page of a mapping */
    RB_WARM_COUNT = 7
};

typedef struct rb_warmup_config {
    const char *path;
    uint64_t chunk;               /* willneed-chunked: bytes per call, a multiple of the page; 0: 2 MiB */
    int methods[RB_WARM_COUNT];   /* RB_WARM_*, run in this order */
    unsigned nmethods;            /* 0: every method */
    int64_t settle_ns;            /* the asynchronous hints: wait at most this for their reads; 0: 10 s */
    volatile int *stop;           /* set and nonzero: the method running is "interrupted", later ones "not run" */
    /* Called as each method starts, before its eviction (NULL: none): the caller's progress. */
    void (*progress)(void *user, const struct rb_warmup_result *x);
    void *user;
} rb_warmup_config;

typedef struct rb_warmup_result {
    int method;                   /* RB_WARM_* */
    const char *name, *what;      /* "willneed", "one madvise(MADV_WILLNEED) over the whole mapping" */
    int status;                   /* RB_OK, RB_UNSUPPORTED (why in reason), RB_ENOTRUN, or an error */
    char reason[RB_REASON_LEN];   /* why not; or what to know (eviction failed, still reading at the cap) */
    int evicted;                  /* the file was wholly evicted before the method ran */
    uint64_t resident_before;     /* its pages that stayed cached (0 when evicted) */
    double call_seconds;          /* the call(s) themselves */
    double seconds;               /* until the pages were read in: later than the call for the hints */
    int settled;                  /* 0: the hint's reads were still completing when the wait ended */
    uint64_t pages, resident;     /* the file's pages; those cached and read in at the end */
    double residency;             /* resident / pages */
    double expected;              /* the residency the kernel's rules predict; -1: unknown */
    double gb_per_s;              /* bytes made resident per second (1e9 bytes) */
    int64_t device_read_bytes;    /* bytes this thread made the device read; -1 unknown */
    unsigned calls, failed_calls;
} rb_warmup_result;

typedef struct rb_warmup_run {
    rb_warmup_result results[RB_WARM_COUNT];
    unsigned n, failed;           /* rows; rows that failed (unsupported or not run is no failure) */
    const char *path;
    uint64_t size, chunk;         /* the file's bytes; willneed-chunked's chunk */
    uint64_t cap;                 /* what one WILLNEED loads at most here, bytes; 0: unknown */
    double settle_seconds;        /* the wait's cap */
    rb_env env;
} rb_warmup_run;

RBDEF const char *rb_warmup_method_name(int method);   /* "read", "willneed", ...; NULL: none */

RBDEF int rb_warmup_method_find(const char *name);     /* RB_WARM_*; -1: none */

/* One setting in words: "chunk" (a size) or "methods" (a list of names, each once); RB_EINVAL
   with why, naming the setting as the caller spells it (as, "--chunk"). */
RBDEF int rb_warmup_set(rb_warmup_config *c, const char *key, const char *value, const char *as, char *why,
                        size_t whylen);

/* rb_warmup(config, run, err), rb_warmup_write(f, run, format), rb_warmup_svg(f, run, title): how
   long each way of making a cold file resident takes and how much it loads: read, one
   MADV_WILLNEED, WILLNEED chunk by chunk, FADV_WILLNEED, MAP_POPULATE, MADV_POPULATE_READ,
   touching every page; each from an evicted file, the hints timed to the call and to their reads'
   end. */
/* RB_OK (each method's outcome in its row), RB_EINTR when c->stop ended it, or an error about
   the file (why in err): not a regular file, empty, not readable. The file is the one found at
   the start (device, inode, size) after every method: a row during which it changed is an
   error (RB_ECHANGED), and the rows after it are not run. A row that c->stop interrupted is
   RB_EINTR: its figures are not a result. */
RBDEF int rb_warmup(const rb_warmup_config *c, rb_warmup_run *out, rb_error *err);

RBDEF void rb_warmup_write(FILE *f, const rb_warmup_run *r, int format);   /* RB_FORMAT_TABLE or _JSON */

RBDEF void rb_warmup_svg(FILE *f, const rb_warmup_run *r, const char *title);

/* -- 3.6 the JSON reader and diff (declarations) -- */

enum { RB_JSON_NULL, RB_JSON_FALSE, RB_JSON_TRUE, RB_JSON_NUMBER, RB_JSON_STRING, RB_JSON_ARRAY, RB_JSON_OBJECT };

typedef struct rb_json {
    int type;                    /* RB_JSON_* */
    double num;                  /* NUMBER */
    char *str;                   /* STRING, decoded to UTF-8 */
    const char *key;             /* the member's name, inside an object */
    struct rb_json *child, *next;   /* ARRAY, OBJECT: the first element; then its siblings */
    unsigned n;                  /* ARRAY, OBJECT: how many elements */
} rb_json;

/* rb_json_parse / rb_json_load / rb_json_get, rb_diff_make, rb_report_diff: read a JSON report
   back (a small parser: depth-limited, never reads past the end) and compare two runs cell by
   cell: ratio, interval and verdict (faster, slower, no significant difference within 1%). */
/* NULL on malformed input (why: the byte offset and what was expected); never reads past len. */
RBDEF rb_json *rb_json_parse(const char *text, size_t len, char *why, size_t whylen);

RBDEF rb_json *rb_json_load(const char *path, char *why, size_t whylen);   /* a regular file only */

RBDEF void rb_json_free(rb_json *v);

RBDEF const rb_json *rb_json_get(const rb_json *obj, const char *key);

/* A readbench run report read back: NULL with why (naming path) when it cannot be read, is not
   JSON, or lacks what a comparison needs. */
RBDEF rb_json *rb_json_load_report(const char *path, char *why, size_t whylen);

/* Separate runs: a change whose whole interval is not beyond 10% is no verdict. Two runs made
   at different times differ by what the machine did between them, which no interval of either
   run can see (identical fio runs differ by 13-16% on this project's VMs; readbench's own A/A
   in README, "Statistics"). Configurations compared inside one run, paired by round, cancel
   that drift and are judged against RB_PAIRED_NOISE. */
#define RB_DIFF_NOISE 0.10

enum { RB_DIFF_FASTER, RB_DIFF_SLOWER, RB_DIFF_SAME, RB_DIFF_NOT_COMPARABLE, RB_DIFF_BASE_ONLY, RB_DIFF_NEW_ONLY };

typedef struct rb_diff_row {
    char strategy[64], pattern[RB_PATTERN_LEN], scenario[32];
    unsigned threads;
    uint64_t read_size;
    int cache;
    double prewarm;
    double base_median, new_median;   /* ops/ms; NaN when that side has no measured cell */
    double ratio, lo, hi;             /* new/base and its 95% interval; NaN when not comparable */
    double machine_ratio;             /* the machine kernel's time new/base (rb_result.machine_*); NaN: unknown */
    double band;                      /* faster or slower: the interval wholly beyond 1 +- band */
    int verdict;                      /* RB_DIFF_* */
    char note[160];                   /* why a pair is not comparable, or what the verdict rests on */
} rb_diff_row;

typedef struct rb_diff {
    rb_diff_row *rows;
    unsigned n;
} rb_diff;

/* Compares a base report (parsed) with a new one, parsed (cur) or in memory (cur_report);
   with neither (and d NULL), only checks that base is a run report. RB_EINVAL with why when
   a document is not a readbench run report. */
RBDEF int rb_diff_make(const rb_json *base, const rb_json *cur, const rb_report *cur_report,
                       rb_diff *d, char *why, size_t whylen);

RBDEF void rb_diff_free(rb_diff *d);

/* Two saved run reports compared (readbench diff): RB_EINVAL with why naming the file that is not
   one, RB_ENOMEM. */
RBDEF int rb_diff_files(const char *base_path, const char *new_path, rb_diff *d, char *why, size_t whylen);

RBDEF void rb_report_diff(FILE *f, const rb_diff *d, int format, const char *base_name, const char *new_name);

/* A report just run next to a saved one (base, rb_json_load_report): the diff, "this run" as NEW.
   RB_OK, or the reason in why. */
RBDEF int rb_report_baseline(FILE *f, const rb_json *base, const rb_report *r, int format, const char *base_name,
                             char *why, size_t whylen);

/* -- 3.7 advise (declarations) -- */

/*
   A decision, not a table: every strategy that runs here, in every cache state the program
   may meet (the scenario presets: warm, half-cold, cold, pressure) at each thread count; each
   cell as a fraction of the best in its column (the regret table); the safe choice is the
   strategy whose worst column is best. Differences inside the measurement's intervals are
   ties, said as ties. rb_advise_decide is a pure function of the results (tested on
   synthetic ones); rb_advise measures them within a time budget. */
enum { RB_STATE_WARM = 0, RB_STATE_HALF_COLD = 1, RB_STATE_COLD = 2, RB_STATE_PRESSURE = 3, RB_STATE_COUNT = 4 };

RBDEF const char *rb_state_name(int state);   /* "warm", "half-cold", "cold", "pressure"; NULL: none */

RBDEF int rb_state_find(const char *name);     /* RB_STATE_*; -1: no such state */

#define RB_ADVISE_MAX_CONDITIONS 16   /* columns: states x thread counts */

#define RB_ADVISE_MAX_LINES 24        /* verdict, reasons, warnings: lines each */

typedef struct rb_advise_input {
    const rb_result *const *cells;   /* [strategy * nconditions + condition]; NULL or not RB_OK: not measured */
    const char *const *strategies; unsigned nstrategies;   /* rows */
    const char *const *conditions; unsigned nconditions;   /* columns: "warm", "cold T02" */
    const char *const *missing;   /* per column, why nothing was measured there; NULL or "": not said */
    const rb_env *env;            /* for the environment warnings; NULL: none */
    uint64_t read_size;           /* 0: 16 KiB */
    unsigned max_threads;         /* the largest thread count measured */
    int lru_gen;                  /* the multi-generational LRU: 1 on, 0 off, -1 unknown */
    /* per row, its strategy's RB_S_* flags; NULL: each row's found by name (rb_strategy_find).
       A row that does no I/O (RB_S_NOIO: the harness's own cost) is a reference, never ranked. */
    const unsigned *flags;
} rb_advise_input;

typedef struct rb_advice {
    unsigned nstrategies, nconditions;
    /* each cell's median over the best median of its column; NaN: not measured */
    double fraction[RB_MAX_AXIS][RB_ADVISE_MAX_CONDITIONS];
    /* 1: not significantly slower than the column's best (the best itself included);
       0: significantly slower; -1: not measured */
    signed char tied[RB_MAX_AXIS][RB_ADVISE_MAX_CONDITIONS];
    /* 1: it shares fewer than 2 rounds with its column's best, too few to tell them apart: it
       counts as tied, and the verdict says the tie is unresolved, not measured */
    unsigned char unresolved[RB_MAX_AXIS][RB_ADVISE_MAX_CONDITIONS];
    unsigned nunresolved;
    int best[RB_ADVISE_MAX_CONDITIONS];   /* the strategy with the highest median; -1: column empty */
    double worst[RB_MAX_AXIS];            /* the lowest fraction over the measured columns; NaN: none,
                                             or a column where the others measured and it did not */
    int worst_condition[RB_MAX_AXIS];     /* where; -1 */
    int safe;                             /* the best worst case: the choice when the state is unknown; -1 */
    unsigned char safe_tied[RB_MAX_AXIS]; /* 1: its worst case is not significantly below the safe choice's */
    unsigned measured;                    /* columns with at least one measured cell */
    char verdict[RB_ADVISE_MAX_LINES][RB_REASON_LEN];
    unsigned nverdict;
    char reasons[RB_ADVISE_MAX_LINES][RB_REASON_LEN];    /* one line each, from the deciding cells */
    unsigned nreasons;
    char warnings[RB_ADVISE_MAX_LINES][RB_REASON_LEN];   /* the environment that decides the answer */
    unsigned nwarnings;
    /* 1: the row does no I/O: shown for reference, never a column's best nor the safe choice
       (its fractions NaN, tied -1) */
    unsigned char reference[RB_MAX_AXIS];
    /* 1: the cell's figure is an upper bound (rb_result.rate_upper_bound: no op completed
       inside an iteration), and so is its fraction: ranked as that bound, never a best */
    unsigned char upper[RB_MAX_AXIS][RB_ADVISE_MAX_CONDITIONS];
    /* the worst case is at most worst[s]: 1 it comes from an upper-bound cell ("< 2%"), 2 an
       upper-bound cell of another column might be lower still ("<= 40%"); 0 as measured */
    unsigned char worst_upper[RB_MAX_AXIS];
    /* per column, "" or why strategies (not references) have no ranked figure there (the
       budget left it out, a failure, only upper bounds): the verdict names each such column */
    char gap[RB_ADVISE_MAX_CONDITIONS][RB_REASON_LEN];
} rb_advice;

/* rb_advise_decide(in, advice): the decision as a pure function of results (strategies x columns,
   a column a cache state at a thread count): each cell as a fraction of its column's best (the
   regret table), the safe choice (the best worst case), the best per column, ties where the
   intervals cannot separate two cells, a reason per deciding cell from its own fields, and the
   environment that decides the answer (read_ahead_kb, THP, MGLRU, file/RAM, interrupts on one CPU,
   threads above the CPUs). */
/* RB_OK, or RB_EINVAL for more rows or columns than rb_advice holds. */
RBDEF int rb_advise_decide(const rb_advise_input *in, rb_advice *out);

/* The plan: what the first round of an advise can hold of its budget, preparation included.
   A cell costs its measured iterations plus what preparing its cache state takes (a half-cold
   or pressure cell reloads the whole file first), and a state may cost something once per
   round (pressure pins its memory). One round claims nothing (no interval: rb_stats_of), so
   every cell needs a second and a useful interval a third: round 1 aims at RB_ADVISE_SHARE of
   the budget; past that the measured time per iteration shrinks to RB_ADVISE_MIN_DURATION,
   then round 1 may take RB_ADVISE_ROUND1 of the budget (room for one more round), then the
   dearest states are measured at their largest thread count only, then the dearest states
   are left out (one always stays). The cheapest state runs first, so an expensive one cannot
   starve it (costs within 5% of the budget of each other keep the order they were listed in). */
#define RB_ADVISE_SHARE (1.0 / 3)

#define RB_ADVISE_ROUND1 0.5

#define RB_ADVISE_MIN_DURATION 0.1   /* seconds per iteration, when the plan chooses */

#define RB_ADVISE_MAX_DURATION 1.0

typedef struct rb_advise_cost {
    int state;               /* RB_STATE_* */
    double round_s;          /* once per round of the state, before its cells (pressure's pinning) */
    double cell_s;           /* per cell besides its measured iterations: preparing the state, counting pages */
    int measured;            /* 1: measured by this run's cells; 0: an estimate */
} rb_advise_cost;

typedef struct rb_advise_plan_input {
    double budget_s;                   /* what the round may spend */
    double share;                      /* round 1's aim, a fraction of budget_s; 0: RB_ADVISE_SHARE */
    unsigned nstrategies;              /* cells per column */
    const unsigned *threads; unsigned nthreads;   /* a column per thread count, in each state */
    unsigned iterations;               /* per cell */
    double duration_s;                 /* per iteration; 0: the plan chooses (MIN to MAX_DURATION) */
    const rb_advise_cost *costs; unsigned nstates;
} rb_advise_plan_input;

typedef struct rb_advise_plan {
    double duration_s;                 /* per iteration */
    double aim_s, estimate_s;          /* round 1's aim; what it takes as planned */
    unsigned order[RB_STATE_COUNT];    /* the states kept (indices into costs), cheapest first */
    unsigned nkept;
    unsigned threads[RB_STATE_COUNT];  /* per state: nthreads, 1 (the largest thread count only), 0 (left out) */
    char cut[RB_STATE_COUNT][RB_REASON_LEN];   /* per state: why it was shortened or left out; "" */
    int fits;                          /* 0: even the cheapest state at one thread count is over budget_s */
    char note[RB_REASON_LEN];          /* round 1 past its aim, or not fitting at all; "" */
} rb_advise_plan;

/* rb_advise_plan_round(in, plan): what round 1 of an advise can hold of a budget, as a pure
   function of each state's costs (per cell besides its iterations, per round): the time per
   iteration, the order (cheapest state first), and what is cut to fit, in a fixed order (later
   rounds, then the dearest states' thread counts, then the dearest states), each cut with its
   reason. */
/* RB_OK, or RB_EINVAL for an input with nothing to plan (no state, strategy, thread count or
   iteration). A pure function of its input. */
RBDEF int rb_advise_plan_round(const rb_advise_plan_input *in, rb_advise_plan *out);

typedef struct rb_advise_config {
    rb_config cfg;                /* path, pattern, read size, reads per op, seed, stop, log; the cache
                                     state, warmup, iterations and duration are advise's (below) */
    const rb_strategy *const *strategies; unsigned nstrategies;   /* NULL: every one that does I/O */
    const unsigned *threads; unsigned nthreads;   /* NULL: 1 and the number of CPUs */
    const int *states; unsigned nstates;           /* NULL: warm, half-cold, cold, pressure */
    int64_t budget_ns;            /* 0: 3 minutes; preparation included (rb_advise_plan_round) */
    unsigned max_rounds;          /* 0: 8; at most 50 */
    int quick;                    /* the first run's short advise: warm and cold, the main strategy
                                     families, a 70 s budget (for fields left zero) */
    rb_matrix_fn progress;        /* each cell, through rb_run_matrix; may be NULL */
    void *user;
} rb_advise_config;

typedef struct rb_advise_run {
    rb_advice advice;
    rb_env env;
    rb_config cfg;                /* as run, defaults applied (iterations and duration per cell) */
    unsigned nstrategies, nconditions, nthreads, nstates;
    const char *strategies[RB_MAX_AXIS];
    unsigned threads[RB_MAX_AXIS];
    int states[RB_STATE_COUNT];
    char condition_names[RB_ADVISE_MAX_CONDITIONS][32];
    const char *conditions[RB_ADVISE_MAX_CONDITIONS];
    char missing[RB_ADVISE_MAX_CONDITIONS][RB_REASON_LEN];   /* "" or why the column was not measured */
    char skipped[RB_ADVISE_MAX_LINES][RB_REASON_LEN];        /* strategies that cannot run here, and why */
    unsigned nskipped;
    rb_result *cells;             /* [strategy * nconditions + condition], owned */
    double *samples;              /* owned: every cell's ops/ms samples */
    unsigned rounds;              /* rounds started (the first covers every cell the plan kept) */
    double seconds, budget_seconds;   /* spent (setup included) and the budget */
    int interrupted;
    /* The budget: the plan made before round 1 (from estimates), what each state got (it is
       planned again before each state, from what the states before it measured) and why. */
    rb_advise_plan plan;
    unsigned order[RB_STATE_COUNT], norder;   /* states (indices into states) in the order they ran */
    unsigned state_threads[RB_STATE_COUNT];   /* thread counts each state was measured at: nthreads, 1, 0 */
    char state_cut[RB_STATE_COUNT][RB_REASON_LEN];   /* why a state was shortened or left out; "" */
    char budget_lines[RB_ADVISE_MAX_LINES][RB_REASON_LEN];   /* the basis of the estimates, what ran past them */
    unsigned nbudget_lines;
} rb_advise_run;

/* rb_advise(config, run, err), rb_advise_free(run): measures what rb_advise_decide needs: every
   strategy that can run here (the others listed with why) in the cache states warm, half-cold,
   cold and pressure (the presets of `run --scenario`) at each thread count, through rb_run_matrix,
   within a time budget that includes preparing the states: round 1 planned from a timed read of
   the file, and planned again before each state from what the states before it measured, then
   rounds of only the cells still tied with the best of their column while the budget lasts. No
   cell starts past the budget; what was cut and why is in the result. A state that cannot be made
   here (no memory to pin) is said in its columns. */
/* RB_OK; RB_EINVAL (why in err) for settings that cannot be an advise; RB_ENOMEM; RB_EINTR when
   cfg.stop ended it (what was measured is decided on). Free with rb_advise_free in every case. */
RBDEF int rb_advise(const rb_advise_config *ac, rb_advise_run *out, rb_error *err);

RBDEF void rb_advise_free(rb_advise_run *r);

/* rb_advise_write(f, run, format), rb_advise_svg(f, run, title): the regret table, verdict,
   reasons and warnings as a table, markdown or JSON (each a field); the heat map (strategies x
   columns, colour the fraction of the best, the number in every cell). */
/* RB_FORMAT_TABLE, RB_FORMAT_MARKDOWN or RB_FORMAT_JSON: the regret table, verdict, reasons
   and warnings. */
RBDEF void rb_advise_write(FILE *f, const rb_advise_run *r, int format);

/* The regret table as an SVG heat map: strategies x columns, colour the fraction of the best
   (log scale), the number written in every cell. title NULL: "readbench advise". */
RBDEF void rb_advise_svg(FILE *f, const rb_advise_run *r, const char *title);

/* -- 3.8 settings from text, the scenarios and the CLI's commands (declarations) -- */

/* rb_parse_pattern(spec, cfg, why, len), rb_pattern_check(cfg, ...), rb_pattern_name(cfg, buf,
   len): access patterns as fio's random_distribution names them: zipf:THETA, pareto:H,
   normal:SIGMA, plus hotset:FRACTION:PROB, random, sequential; runs:N[:PATTERN] makes each drawn
   offset the start of N back-to-back reads; :contiguous keeps hot blocks in rank order instead of
   scattered by a seeded permutation. The canonical name is what outputs show. */
RBDEF int rb_parse_pattern(const char *spec, rb_config *c, char *why, size_t whylen);

/* rb_hog_plan(spec, file_size, reserve, &size, why, whylen), rb_mem_margin(room): the hog's size
   for "SIZE" or "auto:R" (leave file_size / R available), never more than the room less
   rb_mem_margin (64 MiB + 1/32 of the room) less `reserve`; a fixed size above that is RB_ENOMEM. */
RBDEF int rb_hog_plan(const char *spec, uint64_t file_size, uint64_t reserve, uint64_t *size, char *why,
                      size_t whylen);

/* rb_parse_size / rb_parse_duration / rb_parse_u64 / rb_parse_uint_list / rb_parse_size_list /
   rb_parse_rate: the CLI's parsers, public so embedders and the tests share them. */
RBDEF int rb_parse_size(const char *s, uint64_t *out);

RBDEF int rb_parse_u64(const char *s, uint64_t *out);   /* decimal digits only: "010" is ten */

RBDEF int rb_parse_duration(const char *s, int64_t *out_ns);   /* RB_EINVAL malformed, RB_ERANGE too large */

RBDEF int rb_parse_uint_list(const char *s, unsigned *out, unsigned cap, unsigned *n);

RBDEF int rb_parse_size_list(const char *s, uint64_t *out, unsigned cap, unsigned *n);

RBDEF int rb_parse_double_list(const char *s, double *out, unsigned cap, unsigned *n);

/* "OPS[:uniform|:poisson]": an open-loop rate, ops per second per thread in (0, RB_MAX_RATE], into
   c->rate and c->arrivals (uniform when not said); RB_EINVAL with the reason (one line) otherwise. */
RBDEF int rb_parse_rate(const char *spec, rb_config *c, char *why, size_t whylen);

/* Prefetch policy names, each known and listed once, at most cap (RB_PF_COUNT: all of them). */
RBDEF int rb_parse_policy_list(const char *s, int *out, unsigned cap, unsigned *n);

/*
   What a command line (or a job file) says, one setting at a time, checked against the
   library's rules here and nowhere else. Keys: strategies (a list, or "all"), threads,
   read-size, reads-per-op, iodepth, pattern, size, warmup, duration, iterations, rounds, align, seed,
   cpus, verify (no value), percentiles, rate, think, cache, prewarm, hog, scenario, group (once per
   group), alone, victim, trace, trace-format, skip-bad. A message names the
   setting as the caller spells it (`as`: "--threads" for a CLI; NULL: the key itself); the
   library names no flag of its own. A value is kept by pointer where it stays text (hog). */
typedef struct rb_scenario {
    const char *name;            /* "warm", "pressure", "half-cold", "cold", "sequential-cold" */
    double prewarm;              /* rb_config.prewarm; 0: left as it is */
    int cache;                   /* rb_config.cache (RB_CACHE_KEEP: left as it is) */
    int pattern;                 /* rb_config.pattern (RB_RANDOM: left as it is) */
    const char *hog;             /* an rb_hog_plan spec ("auto:1.2"), or NULL */
    const char *note;            /* what it makes of the page cache, or NULL */
} rb_scenario;

/* rb_scenarios(&n), rb_scenario_find(name): the Lucene cases as presets (warm, pressure,
   half-cold, cold, sequential-cold): a table of what each makes of the page cache, with no warmup
   (it would change the state the preset made). */
RBDEF const rb_scenario *rb_scenarios(unsigned *count);

RBDEF const rb_scenario *rb_scenario_find(const char *name);   /* NULL: no such scenario */

typedef struct rb_settings {
    rb_config cfg;                                 /* every cell's settings */
    const rb_strategy *strategies[RB_MAX_AXIS]; unsigned nstrategies;   /* 0: every strategy */
    unsigned threads[RB_MAX_AXIS]; unsigned nthreads;                  /* 0: 1, 4, 8, 16 */
    uint64_t read_sizes[RB_MAX_AXIS]; unsigned nread_sizes;             /* 0: 16 KiB */
    unsigned cpus[RB_MAX_AXIS];                    /* cfg.ncpus of them; see rb_settings_matrix */
    double percentiles[RB_MAX_PERCENTILES + 1]; unsigned npercentiles;  /* 0: 50, 90, 99, 99.9 */
    unsigned rounds;                               /* 0: 1 */
    const char *hog;                               /* an rb_hog_plan spec, or NULL */
    const rb_scenario *scenario;                   /* the last scenario set, or NULL */
    int states[RB_MAX_AXIS]; unsigned nstates;     /* advise's cache states (RB_STATE_*); 0: all */
    int64_t budget_ns;                             /* advise's time budget; 0: its default */
    rb_group groups[RB_MAX_GROUPS]; unsigned ngroups;   /* "group", once per group */
    int alone;                                     /* "alone": RB_ALONE_* */
    const char *trace_path;                        /* a replay's trace (kept by pointer) */
    rb_trace_options trace_opts;                   /* its format and skip_bad; file: cfg.path */
    rb_trace trace;                                /* loaded by rb_settings_matrix or _advise; cfg.trace */
    rb_victim victim;                              /* cfg.victim's observer (rb_settings_matrix) */
    rb_groups_matrix gm;                           /* the groups' matrix hook (rb_settings_matrix) */
    int trace_loaded;
} rb_settings;

/* rb_settings_set(s, key, value, as, why, whylen), rb_settings_matrix(s, m): a run described in
   words, one setting at a time ("threads", "1,4"; "scenario", "cold"), each checked against the
   library's rules here and nowhere else; a refusal says why, naming the setting as the caller
   spells it (`as`, "--threads"). rb_pfx_settings_set likewise for the prefetch experiment. */
/* RB_OK; RB_OK with why not empty: taken with a change to tell the user (an absurd thread count
   is capped); RB_EINVAL: why is the one line that says what is wrong (an unknown key too). */
RBDEF int rb_settings_set(rb_settings *s, const char *key, const char *value, const char *as, char *why,
                          size_t whylen);

/* Every key rb_settings_set takes, documented once: what its value looks like ("" for none: a
   switch), which commands of a driver use it (RB_FOR_*), a heading when it starts a group (or
   NULL), and its help (more lines after each '\n'). A driver builds its options and its help
   text from this table, so a new setting is one row here and no change to the driver. */
enum { RB_FOR_RUN = 1u << 0, RB_FOR_ADVISE = 1u << 1 };

typedef struct rb_setting_doc {
    const char *key, *value;
    unsigned uses;
    const char *heading, *help;
} rb_setting_doc;

RBDEF const rb_setting_doc *rb_settings_docs(unsigned *count);

RBDEF const rb_setting_doc *rb_settings_doc_find(const char *key);   /* NULL: no such setting */

/* The readbench CLI's commands, a bit each, and every option of its own (not a setting above)
   with the commands that take it: the driver's parser asks these tables which options a
   command takes and whether one takes a value ("" for none), and its --help, whole or one
   command's (readbench run --help), is written from them and the settings' table. */
enum {
    RB_CMD_RUN = 1u << 0, RB_CMD_REPLAY = 1u << 1, RB_CMD_ADVISE = 1u << 2, RB_CMD_SETUP = 1u << 3,
    RB_CMD_LIST = 1u << 4, RB_CMD_DROP = 1u << 5, RB_CMD_RESIDENCY = 1u << 6, RB_CMD_HOG = 1u << 7,
    RB_CMD_PREFETCH = 1u << 8, RB_CMD_DIFF = 1u << 9, RB_CMD_PROBE = 1u << 10, RB_CMD_WARMUP = 1u << 11
};

typedef struct rb_command_doc {
    const char *name;          /* "run" */
    unsigned cmd;              /* RB_CMD_* */
    const char *args;          /* what follows the name: "FILE [options]" */
    const char *help;          /* what it does (more lines after each '\n') */
    unsigned settings;         /* RB_FOR_* of the settings it takes; 0: none */
} rb_command_doc;

typedef struct rb_option_doc {
    const char *name, *value;  /* "output", "FILE" ("" for none: a switch); a choice: "table|json" */
    unsigned cmds;             /* RB_CMD_* of the commands that take it */
    const char *help;
} rb_option_doc;

/* rb_command_docs(&n), rb_option_docs(&n), rb_help_write(f, command): the CLI's commands and its
   own options (beside the settings), each with the commands that take it: a driver's parser and
   its --help, whole or one command's, come from these tables and rb_settings_docs. rb_parse_number
   is the one rule every number of an option follows. */
RBDEF const rb_command_doc *rb_command_docs(unsigned *count);

RBDEF const rb_command_doc *rb_command_doc_find(const char *name);   /* NULL: no such command */

RBDEF const rb_option_doc *rb_option_docs(unsigned *count);

RBDEF const rb_option_doc *rb_option_doc_find(const char *name, unsigned cmd);   /* NULL: cmd does not take it */

/* The help: every command and the run's options (command NULL), or one command's usage and
   every option it takes. Nonzero: a write failed, or there is no such command. */
RBDEF int rb_help_write(FILE *f, const char *command);

/* One decimal number, the rule of every number a setting or option takes: digits, then a
   fraction (.5) and an exponent (e3) where fraction is nonzero; no sign, no hex, no space.
   RB_OK or RB_EINVAL; the C locale's point whatever the caller's locale. */
RBDEF int rb_parse_number(const char *s, int fraction, double *out);

/* The matrix s describes: the default axes filled into s, m's axes and cfg.cpus pointing into s.
   With a trace set, it is loaded here for cfg.path (once; a trace that cannot be replayed
   carries its reason, which rb_matrix_check and rb_run give), and the defaults are the trace's:
   a thread per stream, the read size its longest read. */
RBDEF void rb_settings_matrix(rb_settings *s, rb_matrix *m);

RBDEF void rb_settings_free(rb_settings *s);   /* what the settings loaded (the trace) */

/* The report's fields the settings decide that rb_run_matrix does not: percentiles, scenario. */
RBDEF void rb_settings_report(const rb_settings *s, rb_report *rep);

/* A chart's title naming the case measured: the scenario, or what the settings make of the page
   cache; a hog is named in parentheses as the caller spells that setting (hog_as: "--hog"). */
RBDEF void rb_report_title(const rb_settings *s, const char *hog_as, char *buf, size_t len);

/* What s's scenario set, as the settings are now: each of its settings with the caller's prefix
   ("--": "--hog auto:1.2"), and those given after it in its place ("--hog 64m ... replaces its
   --hog auto:1.2"), the scenario's note only when nothing replaced what it describes. Nothing
   without a scenario. */
RBDEF void rb_report_scenario(FILE *f, const rb_settings *s, const char *prefix);

/* Cache-state names, each known and listed once, at most cap. */
RBDEF int rb_parse_state_list(const char *s, int *out, unsigned cap, unsigned *n);

/* The advise s describes (cfg, strategies, threads, states, budget; ac's other fields zero), or
   RB_EINVAL with why (advise measures one read size; a trace that cannot be replayed). A trace
   is loaded here for s->cfg.path (set it first) and replayed in every state. ac points into s. */
RBDEF int rb_settings_advise(rb_settings *s, rb_advise_config *ac, char *why, size_t whylen);

#ifdef __cplusplus
}
#endif
#endif /* READBENCH_TOOLS_H */

#if defined(READBENCH_IMPLEMENTATION) && !defined(READBENCH_TOOLS_DONE)
#define READBENCH_TOOLS_DONE
#ifdef __cplusplus
extern "C" {
#endif

/* ==== 3.1 traces: strace, fio iolog and CSV read into a replay ================================ */

/*
   A trace is read a MiB at a time, line by line (any length up to 16 MiB; a NUL byte makes a
   line binary junk, not text), into records: one per read, an rb_trace_read (32 bytes), with
   its file (an index into the names the trace used; kept only for formats that name files)
   and its stream (pid or thread, by first appearance; kept only once a second one shows up),
   4 bytes each. FILE is looked for among the names only at the end, since how it matches (as
   given, the same file here, the same base name) depends on every name the trace holds; then
   FILE's reads become the streams in place: the records are compacted and, with more than
   one stream, permuted into stream order, so the streams are slices of the records' one
   block and no read is ever held twice.
   Memory: the records must fit in what this process may take when the load starts
   (rb_mem_available: a memory cgroup's limit included, less rb_mem_margin). Checked as they
   grow, so a trace too large is refused with a line that says so instead of being killed by
   the OOM killer; and once the first MiB of a trace file has been read, from the reads it
   held, so that a trace several times too large is refused at once instead of after parsing
   most of it.
   strace: one table of descriptors for the whole trace, since the threads of a process share
   theirs (a trace of processes that open different files on the same numbers is better
   recorded with -ff, a file per process). Each descriptor points to an open file whose
   position read and lseek move, and dup's copies share it, as the kernel's do. lseek's return
   value is the new position, whatever its whence (SET, CUR, END, DATA, HOLE). A read whose
   file or position the trace never said (a descriptor opened before strace attached, without
   -y) is counted apart, never guessed. */
#define RB__TR_MAX_LINE ((size_t)16 << 20)
#define RB__TR_CHUNK ((size_t)1 << 20)          /* a trace file is read this much at a time */
#define RB__TR_MAX_FD (1u << 20)          /* a descriptor past this is no real one */
#define RB__TR_NOFILE 0xffffffffu         /* a CSV read: the trace names no file */

typedef struct rb__tr_ofd { unsigned file; int pos_known; uint64_t pos; } rb__tr_ofd;   /* an open file */
typedef struct rb__tr_pending { uint64_t pid, time; char *text; } rb__tr_pending;        /* <unfinished ...> */

/* 64-bit keys to indices by open addressing: pids to streams, names' hashes to names. */
typedef struct rb__tr_map { uint64_t *key; unsigned *val; size_t cap, n; } rb__tr_map;

typedef struct rb__tr {
    rb_trace *t;
    const rb_trace_options *o;
    char tname[RB__PATH_SHOWN];   /* the trace as messages name it */
    uint64_t line;
    int stop;                     /* a bad line without skip_bad, or out of memory */
    int format, iolog_version, csv_started;
    char *buf;                    /* the current line, NUL-terminated */
    size_t bufcap;
    rb_trace_read *rd;            /* the records: offset, length, time (absolute until the end), line */
    unsigned *rfile;              /* each record's file; NULL: every one RB__TR_NOFILE (CSV) */
    unsigned *rstream;            /* each record's stream; NULL: every one stream 0 */
    size_t nrec, caprd, capfile, capstream;
    int64_t room;                 /* the bytes the records may take (rb__tr_room); -1: unknown, not
                                     checked; -2: not read yet (a small trace never reads it) */
    char **names;                 /* the files the trace named */
    size_t nnames, capnames;
    rb__tr_map name_map, pid_map;
    uint64_t *sid;                /* stream ids by first appearance */
    size_t nsid, capsid;
    int *fd;                      /* descriptor -> open file; -1: none */
    size_t nfd;
    rb__tr_ofd *ofd;
    size_t nofd, capofd;
    rb__tr_pending *pend;
    size_t npend, cappend;
    uint64_t time, day;           /* the current line's time; strace -t/-tt: days passed */
    int have_time;
    char path[4352];              /* a path argument, unescaped */
} rb__tr;

static int rb__isdigit(int c) { return c >= '0' && c <= '9'; }
static int rb__isspace(int c) { return c == ' ' || c == '\t' || c == '\r'; }

/* Room for need elements of size elem in *p (doubling); -1 when there is none (or it overflows). */
static int rb__grow(void *pp, size_t *cap, size_t need, size_t elem)
{
    void **p = (void **)pp, *q;
    size_t c = *cap ? *cap : 16;
    if (need <= *cap) return 0;
    while (c < need) {
        if (c > ((size_t)-1) / 2 / elem) return -1;
        c *= 2;
    }
    if (!(q = realloc(*p, c * elem))) return -1;
    *p = q;
    *cap = c;
    return 0;
}

static void rb__tr_nomem(rb__tr *p)
{
    if (p->stop) return;
    p->t->status = RB_ENOMEM;
    rb__fmt(p->t->why, sizeof p->t->why, "out of memory reading the trace %s (line %llu)", p->tname,
            (unsigned long long)p->line);
    p->stop = 1;
}

/* A line (or a read of it) that cannot be replayed: with skip_bad counted and left out, else
   the trace's error, naming the line. fatal: an error even with skip_bad (a file that is no
   trace of this format at all). */
static void rb__tr_say(rb__tr *p, uint64_t line, int fatal, const char *fmt, va_list ap)
{
    char msg[RB_REASON_LEN];
    if (p->stop) return;
    rb__vfmt(msg, sizeof msg, fmt, ap);
    if (p->o->skip_bad && !fatal) {
        if (p->t->skipped++ == 0)
            rb__fmt(p->t->first_skipped, sizeof p->t->first_skipped, "line %llu: %s", (unsigned long long)line, msg);
        return;
    }
    p->t->status = RB_EINVAL;
    rb__fmt(p->t->why, sizeof p->t->why, "%s:%llu: %s", p->tname, (unsigned long long)line, msg);
    p->stop = 1;
}

static void rb__tr_bad(rb__tr *p, uint64_t line, const char *fmt, ...) RB__PRINTF(3, 4);
static void rb__tr_bad(rb__tr *p, uint64_t line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rb__tr_say(p, line, 0, fmt, ap);
    va_end(ap);
}

static void rb__tr_fatal(rb__tr *p, uint64_t line, const char *fmt, ...) RB__PRINTF(3, 4);
static void rb__tr_fatal(rb__tr *p, uint64_t line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rb__tr_say(p, line, 1, fmt, ap);
    va_end(ap);
}

static uint64_t rb__tr_hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL;   /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

/* The slot of key in m (its value, or where it goes). The map is never full: it grows first. */
static size_t rb__tr_slot(const rb__tr_map *m, uint64_t key, const rb__tr *p, const char *name)
{
    size_t i = (size_t)(rb__mix64(key) & (m->cap - 1));
    for (;; i = (i + 1) & (m->cap - 1)) {
        if (m->val[i] == 0) return i;
        if (m->key[i] == key && (!name || !strcmp(p->names[m->val[i] - 1], name))) return i;
    }
}

/* Doubles the map when half full (values are index + 1; 0 is an empty slot). */
static int rb__tr_map_room(rb__tr_map *m, const rb__tr *p, int names)
{
    rb__tr_map n;
    size_t i;
    if (m->cap && (m->n + 1) * 2 <= m->cap) return 0;
    n.cap = m->cap ? m->cap * 2 : 64;
    n.n = m->n;
    n.key = (uint64_t *)calloc(n.cap, sizeof *n.key);
    n.val = (unsigned *)calloc(n.cap, sizeof *n.val);
    if (!n.key || !n.val) { free(n.key); free(n.val); return -1; }
    for (i = 0; i < m->cap; i++)
        if (m->val[i]) {
            size_t j = rb__tr_slot(&n, m->key[i], p, names ? p->names[m->val[i] - 1] : NULL);
            n.key[j] = m->key[i];
            n.val[j] = m->val[i];
        }
    free(m->key);
    free(m->val);
    *m = n;
    return 0;
}

/* The index of a file name, added at its first use; RB__TR_NOFILE when out of memory. */
static unsigned rb__tr_name(rb__tr *p, const char *name)
{
    uint64_t h = rb__tr_hash(name);
    size_t i;
    char *copy = NULL;
    if (rb__tr_map_room(&p->name_map, p, 1) != 0) { rb__tr_nomem(p); return RB__TR_NOFILE; }
    i = rb__tr_slot(&p->name_map, h, p, name);
    if (p->name_map.val[i]) return p->name_map.val[i] - 1;
    if (p->nnames >= RB__TR_NOFILE - 1 || rb__grow(&p->names, &p->capnames, p->nnames + 1, sizeof *p->names) != 0 ||
        !(copy = (char *)malloc(strlen(name) + 1))) {
        rb__tr_nomem(p);
        return RB__TR_NOFILE;
    }
    strcpy(copy, name);
    p->names[p->nnames] = copy;
    p->name_map.key[i] = h;
    p->name_map.val[i] = (unsigned)++p->nnames;
    p->name_map.n++;
    return (unsigned)p->nnames - 1;
}

/* The stream of a pid or thread id, by first appearance; (unsigned)-1 when out of memory. */
static unsigned rb__tr_stream(rb__tr *p, uint64_t id)
{
    size_t i;
    if (rb__tr_map_room(&p->pid_map, p, 0) != 0) { rb__tr_nomem(p); return (unsigned)-1; }
    i = rb__tr_slot(&p->pid_map, id, p, NULL);
    if (p->pid_map.val[i]) return p->pid_map.val[i] - 1;
    if (rb__grow(&p->sid, &p->capsid, p->nsid + 1, sizeof *p->sid) != 0) { rb__tr_nomem(p); return (unsigned)-1; }
    p->sid[p->nsid] = id;
    p->pid_map.key[i] = id;
    p->pid_map.val[i] = (unsigned)++p->nsid;
    p->pid_map.n++;
    return (unsigned)p->nsid - 1;
}

/* What the records may take: what this process may take when first asked (a memory cgroup's
   limit included) less the margin; -1 when that is unknown. */
static int64_t rb__tr_room(rb__tr *p)
{
    int64_t room;
    if (p->room != -2) return p->room;
    room = rb_mem_available();
    if (room < 0) return p->room = -1;
    return p->room = (uint64_t)room > rb_mem_margin((uint64_t)room) ? room - (int64_t)rb_mem_margin((uint64_t)room) : 0;
}

/* The bytes a record takes: its read, and its file and stream where they are kept. */
static size_t rb__tr_rec_size(const rb__tr *p)
{
    return sizeof(rb_trace_read) + (p->rfile ? sizeof *p->rfile : 0) + (p->rstream ? sizeof *p->rstream : 0);
}

/* The records would not fit (need bytes): the load stops with a line that says so. holds:
   how many reads the trace was found to hold ("400000 reads by line 400012"). */
static void rb__tr_too_big(rb__tr *p, double need, const char *holds)
{
    char n[32], r[32];
    if (p->stop) return;
    rb__mem_text((uint64_t)need, n, sizeof n);
    rb__mem_text((uint64_t)p->room, r, sizeof r);
    p->t->status = RB_ENOMEM;
    rb__fmt(p->t->why, sizeof p->t->why, "the trace %s is too large to load: %s, %s at %zu bytes each, more than "
            "the %s this process may take (cgroup limit included); replay a part (head -n)", p->tname, holds, n,
            rb__tr_rec_size(p), r);
    p->stop = 1;
}

/* Room for one more record in each array kept (grown together, doubling); -1 when there is
   none. A first file other than none, or a first stream other than 0, starts its array. */
static int rb__tr_rec_room(rb__tr *p, unsigned file, unsigned st)
{
    uint32_t i, n = (uint32_t)p->nrec;   /* below 2^32 (rb__tr_read) */
    if (file != RB__TR_NOFILE && !p->rfile) {
        if (rb__grow(&p->rfile, &p->capfile, p->caprd ? p->caprd : n + 1, sizeof *p->rfile) != 0) return -1;
        for (i = 0; i < n; i++) p->rfile[i] = RB__TR_NOFILE;
    }
    if (st != 0 && !p->rstream) {
        if (rb__grow(&p->rstream, &p->capstream, p->caprd ? p->caprd : n + 1, sizeof *p->rstream) != 0) return -1;
        for (i = 0; i < n; i++) p->rstream[i] = 0;
    }
    if (rb__grow(&p->rd, &p->caprd, n + 1, sizeof *p->rd) != 0) return -1;
    if (p->rfile && rb__grow(&p->rfile, &p->capfile, n + 1, sizeof *p->rfile) != 0) return -1;
    if (p->rstream && rb__grow(&p->rstream, &p->capstream, n + 1, sizeof *p->rstream) != 0) return -1;
    return 0;
}

/* A read of the trace: len bytes at off of `file`, by stream `id`, at the current line. */
static void rb__tr_read(rb__tr *p, unsigned file, uint64_t id, uint64_t off, uint64_t len)
{
    rb_trace_read *r;
    unsigned st;
    if (len > RB_TRACE_MAX_READ) {
        rb__tr_bad(p, p->line, "a read of %llu bytes: more than the 1 GiB a replay reads at once", (unsigned long long)len);
        return;
    }
    if (off > UINT64_MAX - len) {
        rb__tr_bad(p, p->line, "a read of %llu bytes at offset %llu passes 2^64", (unsigned long long)len,
                   (unsigned long long)off);
        return;
    }
    st = rb__tr_stream(p, id);
    if (st == (unsigned)-1) return;   /* out of memory: said */
    if (p->nrec >= (size_t)UINT32_MAX - 1) {   /* a stream's records are permuted by 32-bit places */
        rb__tr_fatal(p, p->line, "more than %u reads: too many to replay", UINT32_MAX - 2);
        return;
    }
    if (p->nrec && !(p->nrec & 0xffff) && rb__tr_room(p) >= 0 &&
        (double)(p->nrec + 1) * (double)rb__tr_rec_size(p) > (double)p->room) {
        char holds[96];
        snprintf(holds, sizeof holds, "%llu reads by line %llu", (unsigned long long)p->nrec + 1,
                 (unsigned long long)p->line);
        rb__tr_too_big(p, (double)(p->nrec + 1) * (double)rb__tr_rec_size(p), holds);
        return;
    }
    if (rb__tr_rec_room(p, file, st) != 0) { rb__tr_nomem(p); return; }
    r = &p->rd[p->nrec];
    r->off = off;
    r->len = len;
    r->time_ns = p->time;
    r->line = p->line;
    if (p->rfile) p->rfile[p->nrec] = file;
    if (p->rstream) p->rstream[p->nrec] = st;
    p->nrec++;
}

/* Decimal digits only, the whole of [s, s + n): 0, or -1 (empty, another character, past 2^64). */
static int rb__tr_u64(const char *s, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    size_t i;
    if (n == 0 || n > 20) return -1;
    for (i = 0; i < n; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (d > 9 || v > (UINT64_MAX - d) / 10) return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

/* [s, s + n) with the blanks around it cut. */
static void rb__tr_trim(const char **s, size_t *n)
{
    while (*n && rb__isspace((unsigned char)**s)) { (*s)++; (*n)--; }
    while (*n && rb__isspace((unsigned char)(*s)[*n - 1])) (*n)--;
}

/*
   A line: [pid] [time] then a call NAME(ARGS) = RET [ERRNO (text)] [<duration>], or the start
   of one (NAME(ARGS <unfinished ...>), or its end (<... NAME resumed>REST), or an exit or a
   signal (+++ ... +++, --- ... ---). The start and the end of a call are joined by pid. */
#define RB__TR_ARGS 8
typedef struct rb__tr_call {
    char name[32];
    const char *arg[RB__TR_ARGS];
    size_t alen[RB__TR_ARGS];
    unsigned nargs;
    int has_ret;                 /* 0: "= ?" (the call never returned: exit, a killed thread) */
    int64_t ret;
    const char *errname;         /* after "-1 ": EBADF ...; "" */
} rb__tr_call;

/* Splits NAME(ARGS) = RET: 0, or -1 with what is wrong in why. Strings ("..." with escapes),
   brackets and -y's <path> annotations are skipped whole, so a comma inside one splits nothing. */
static int rb__tr_split(const char *s, rb__tr_call *c, const char **why)
{
    size_t n = 0;
    int depth = 0, str = 0, ann = 0;
    const char *q, *start;
    memset(c, 0, sizeof *c);
    c->errname = "";
    while ((rb__isdigit((unsigned char)s[n]) || (s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') ||
            s[n] == '_' || s[n] == '?') && n < sizeof c->name - 1)
        n++;
    if (n == 0 || s[n] != '(') { *why = "not a system call, an exit or a signal (strace output?)"; return -1; }
    memcpy(c->name, s, n);
    start = s + n + 1;
    for (q = start;; q++) {
        if (!*q) { *why = "the call's arguments do not end (a cut line?)"; return -1; }
        if (str) {
            if (*q == '\\' && q[1]) q++;
            else if (*q == '"') str = 0;
            continue;
        }
        if (ann) { if (*q == '>') ann = 0; continue; }
        if (*q == '"') str = 1;
        else if (*q == '<' && q > start && rb__isdigit((unsigned char)q[-1])) ann = 1;
        else if (*q == '[' || *q == '{' || *q == '(') depth++;
        else if ((*q == ']' || *q == '}') && depth > 0) depth--;
        else if (*q == ')' && depth > 0) depth--;
        else if ((*q == ',' && depth == 0) || *q == ')') {
            if (c->nargs < RB__TR_ARGS && (q > start || c->nargs || *q == ',')) {
                c->arg[c->nargs] = start;
                c->alen[c->nargs++] = (size_t)(q - start);
            }
            if (*q == ')') break;
            start = q + 1;
        }
    }
    for (q++; rb__isspace((unsigned char)*q); q++) {}
    if (*q != '=') { *why = "no '= RESULT' after the call"; return -1; }
    for (q++; rb__isspace((unsigned char)*q); q++) {}
    if (*q == '?') return 0;
    {
        int neg = *q == '-';
        uint64_t v;
        const char *d = q + neg;
        size_t k = 0;
        while (rb__isdigit((unsigned char)d[k])) k++;
        if (rb__tr_u64(d, k, &v) != 0 || v > (uint64_t)INT64_MAX) { *why = "a malformed result after '='"; return -1; }
        c->has_ret = 1;
        c->ret = neg ? -(int64_t)v : (int64_t)v;
        for (d += k; rb__isspace((unsigned char)*d); d++) {}
        if (neg) c->errname = d;
    }
    return 0;
}

/* Argument i as a number (blanks around it allowed); -1: missing or malformed. */
static int rb__tr_arg_u64(const rb__tr_call *c, unsigned i, uint64_t *v)
{
    const char *s;
    size_t n;
    if (i >= c->nargs) return -1;
    s = c->arg[i];
    n = c->alen[i];
    rb__tr_trim(&s, &n);
    return rb__tr_u64(s, n, v);
}

/* A string argument ("..." with strace's escapes) into p->path; -1: not a whole string; -2: a
   path longer than p->path holds. */
static int rb__tr_arg_path(rb__tr *p, const rb__tr_call *c, unsigned i)
{
    const char *s, *end;
    size_t n, k = 0;
    if (i >= c->nargs) return -1;
    s = c->arg[i];
    n = c->alen[i];
    rb__tr_trim(&s, &n);
    if (n < 2 || s[0] != '"') return -1;
    end = s + n;
    for (s++; s < end && *s != '"'; s++) {
        int ch = (unsigned char)*s;
        if (ch == '\\' && s + 1 < end) {
            ch = (unsigned char)*++s;
            if (ch >= '0' && ch <= '7') {   /* \ooo */
                int v = 0, d;
                for (d = 0; d < 3 && s < end && *s >= '0' && *s <= '7'; d++) v = v * 8 + (*s++ - '0');
                s--;
                ch = v & 0xff;
            } else if (ch == 'x' && s + 2 < end) {
                unsigned v = 0, d;
                for (d = 0; d < 2; d++) {
                    int h = (unsigned char)*++s;
                    v = v * 16 + (unsigned)(rb__isdigit(h) ? h - '0' : (h | 32) >= 'a' && (h | 32) <= 'f' ? (h | 32) - 'a' + 10 : 0);
                }
                ch = (int)v;
            } else {
                ch = ch == 'n' ? '\n' : ch == 't' ? '\t' : ch == 'r' ? '\r' : ch == 'v' ? '\v' : ch == 'f' ? '\f' : ch;
            }
        }
        if (ch == 0) return -1;   /* a path holds no NUL */
        if (k + 1 >= sizeof p->path) return -2;
        p->path[k++] = (char)ch;
    }
    if (s >= end) return -1;
    p->path[k] = 0;
    return 0;
}

/* Argument i as a descriptor: its number, and with -y the path strace wrote after it
   (3</var/db/x>) as a file index (else RB__TR_NOFILE). -1: not a descriptor. */
static int rb__tr_arg_fd(rb__tr *p, const rb__tr_call *c, unsigned i, uint64_t *fd, unsigned *named)
{
    const char *s, *a;
    size_t n, k = 0;
    *named = RB__TR_NOFILE;
    if (i >= c->nargs) return -1;
    s = c->arg[i];
    n = c->alen[i];
    rb__tr_trim(&s, &n);
    while (k < n && rb__isdigit((unsigned char)s[k])) k++;
    if (rb__tr_u64(s, k, fd) != 0) return -1;
    if (k == n) return 0;
    if (s[k] != '<' || s[n - 1] != '>' || n - k - 2 >= sizeof p->path) return -1;
    a = s + k + 1;
    memcpy(p->path, a, n - k - 2);
    p->path[n - k - 2] = 0;
    if (p->path[0] == '/') *named = rb__tr_name(p, p->path);   /* a file; sockets and pipes are not paths */
    return 0;
}

/* The open file of descriptor fd, or -1. */
static int rb__tr_ofd_of(const rb__tr *p, uint64_t fd)
{
    return fd < p->nfd ? p->fd[fd] : -1;
}

/* Descriptor fd now refers to open file k (-1: to nothing we know). */
static void rb__tr_set_fd(rb__tr *p, uint64_t fd, int k)
{
    size_t old = p->nfd, i;
    if (fd >= RB__TR_MAX_FD) {
        rb__tr_bad(p, p->line, "descriptor %llu: past the %u a process may have", (unsigned long long)fd, RB__TR_MAX_FD);
        return;
    }
    if (fd >= p->nfd) {
        if (k < 0) return;
        if (rb__grow(&p->fd, &p->nfd, (size_t)fd + 1, sizeof *p->fd) != 0) { rb__tr_nomem(p); return; }
        for (i = old; i < p->nfd; i++) p->fd[i] = -1;
    }
    p->fd[fd] = k;
}

/* A new open file of `file` at position 0 (known: pos_known). Its index, or -1. */
static int rb__tr_new_ofd(rb__tr *p, unsigned file, int pos_known)
{
    if (p->nofd >= (size_t)INT32_MAX || rb__grow(&p->ofd, &p->capofd, p->nofd + 1, sizeof *p->ofd) != 0) {
        rb__tr_nomem(p);
        return -1;
    }
    p->ofd[p->nofd].file = file;
    p->ofd[p->nofd].pos = 0;
    p->ofd[p->nofd].pos_known = pos_known;
    return (int)p->nofd++;
}

/* open, openat, creat: the descriptor returned refers to a new open file at position 0. A path
   relative to a directory descriptor (openat(5, "x")) is joined to that directory's path when
   the trace named it; relative to AT_FDCWD it stays as the trace has it. */
static void rb__tr_open(rb__tr *p, const rb__tr_call *c, int at)
{
    char dir[4352];
    unsigned file;
    int k;
    dir[0] = 0;
    if (at && c->nargs > 0) {
        uint64_t dfd;
        unsigned named;
        if (rb__tr_arg_fd(p, c, 0, &dfd, &named) == 0) {
            int d = rb__tr_ofd_of(p, dfd);
            unsigned f = named != RB__TR_NOFILE ? named : d >= 0 ? p->ofd[d].file : RB__TR_NOFILE;
            if (f != RB__TR_NOFILE) snprintf(dir, sizeof dir, "%s", p->names[f]);
        }
    }
    if ((k = rb__tr_arg_path(p, c, at ? 1 : 0)) != 0) {
        if (k == -2)
            rb__tr_bad(p, p->line, "%s of a path longer than %u bytes: more than any path can be (PATH_MAX is 4096)",
                       c->name, (unsigned)sizeof p->path - 1);
        else rb__tr_bad(p, p->line, "%s without a path string", c->name);
        return;
    }
    if (!c->has_ret || c->ret < 0) return;   /* failed: no descriptor */
    if (dir[0] && p->path[0] != '/') {
        char joined[sizeof p->path];
        if ((size_t)snprintf(joined, sizeof joined, "%s/%s", dir, p->path) < sizeof joined) strcpy(p->path, joined);
    }
    file = rb__tr_name(p, p->path);
    if (file == RB__TR_NOFILE || (k = rb__tr_new_ofd(p, file, 1)) < 0) return;
    rb__tr_set_fd(p, (uint64_t)c->ret, k);
}

/* close, dup, dup2, dup3, fcntl(F_DUPFD[_CLOEXEC]). A close that failed with EBADF closed nothing;
   any other failure still released the descriptor (Linux). */
static void rb__tr_fds(rb__tr *p, const rb__tr_call *c)
{
    uint64_t fd, dummy;
    unsigned named;
    if (rb__tr_arg_fd(p, c, 0, &fd, &named) != 0) {
        rb__tr_bad(p, p->line, "%s: a malformed descriptor", c->name);
        return;
    }
    if (!strcmp(c->name, "close")) {
        if (!(c->has_ret && c->ret < 0 && !strncmp(c->errname, "EBADF", 5))) rb__tr_set_fd(p, fd, -1);
        return;
    }
    if (!strcmp(c->name, "fcntl") || !strcmp(c->name, "fcntl64")) {
        const char *cmd = c->nargs > 1 ? c->arg[1] : "";
        while (rb__isspace((unsigned char)*cmd)) cmd++;
        if (strncmp(cmd, "F_DUPFD", 7) != 0) return;   /* F_DUPFD and F_DUPFD_CLOEXEC make a copy */
    } else if (strcmp(c->name, "dup") && rb__tr_arg_fd(p, c, 1, &dummy, &named) != 0) {
        rb__tr_bad(p, p->line, "%s: a malformed descriptor", c->name);
        return;
    }
    if (c->has_ret && c->ret >= 0) rb__tr_set_fd(p, (uint64_t)c->ret, rb__tr_ofd_of(p, fd));
}

/* The open file a read or lseek on descriptor fd uses: the table's, or (with -y, a descriptor
   the trace never opened) a new one for the named file, its position unknown. -1: none. */
static const char *rb__base(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

static int rb__tr_ofd_for(rb__tr *p, uint64_t fd, unsigned named)
{
    int k = rb__tr_ofd_of(p, fd);
    /* -y names the file by its absolute path where the open may have named it relatively: the
       table stands unless the names disagree (a close or a reuse the trace did not show) */
    if (named != RB__TR_NOFILE && (k < 0 || strcmp(rb__base(p->names[p->ofd[k].file]), rb__base(p->names[named])))) {
        if ((k = rb__tr_new_ofd(p, named, 0)) >= 0) rb__tr_set_fd(p, fd, k);
    }
    return k;
}

/* preadv/preadv2/readv's bytes asked for: the sum of the iov_len= of its iovec array. 0; 1: not
   written out (strace shows an address for a failed call); -1: a malformed length. */
static int rb__tr_iov_sum(const rb__tr_call *c, uint64_t *sum)
{
    const char *s = c->nargs > 1 ? c->arg[1] : "", *end = s + (c->nargs > 1 ? c->alen[1] : 0), *q;
    size_t n = (size_t)(end - s);
    *sum = 0;
    rb__tr_trim(&s, &n);
    end = s + n;
    if (!n || s[0] != '[') return 1;
    for (q = s; q < end && (q = strstr(q, "iov_len=")) != NULL && q < end;) {
        uint64_t v;
        size_t k = 0;
        q += 8;
        while (q + k < end && rb__isdigit((unsigned char)q[k])) k++;
        if (rb__tr_u64(q, k, &v) != 0 || *sum > UINT64_MAX - v) return -1;
        *sum += v;
        q += k;
    }
    return 0;
}

/* The reads: pread64/pread and preadv/preadv2 at the offset they name (preadv2's -1: at the
   position, as readv), read/readv at the open file's position, which they move. The length
   replayed is what the call returned: a read past the end returns less than it asked for. */
static void rb__tr_reads(rb__tr *p, const rb__tr_call *c, uint64_t pid)
{
    int pv = !strncmp(c->name, "preadv", 6), positioned = pv || !strncmp(c->name, "pread", 5), k;
    uint64_t fd, asked = 0, off = 0;
    unsigned named, file;
    int have_asked = pv || !strcmp(c->name, "readv") ? rb__tr_iov_sum(c, &asked) : rb__tr_arg_u64(c, 2, &asked);
    if (rb__tr_arg_fd(p, c, 0, &fd, &named) != 0 || have_asked < 0) {
        rb__tr_bad(p, p->line, "%s: a malformed %s", c->name, have_asked < 0 ? "length" : "descriptor");
        return;
    }
    have_asked = have_asked == 0;
    if (positioned && rb__tr_arg_u64(c, 3, &off) != 0) {
        const char *s = c->nargs > 3 ? c->arg[3] : "";
        size_t n = c->nargs > 3 ? c->alen[3] : 0;
        rb__tr_trim(&s, &n);
        if (!(pv && n == 2 && !memcmp(s, "-1", 2))) { rb__tr_bad(p, p->line, "%s: a malformed offset", c->name); return; }
        positioned = 0;   /* preadv2(fd, iov, n, -1, flags): the current position */
    }
    if (!c->has_ret || c->ret <= 0) { p->t->failed++; return; }   /* failed, or at the end: no data */
    if (have_asked && (uint64_t)c->ret > asked) {
        rb__tr_bad(p, p->line, "%s returned %lld bytes, more than the %llu it asked for", c->name, (long long)c->ret,
                   (unsigned long long)asked);
        return;
    }
    k = rb__tr_ofd_for(p, fd, named);
    file = k >= 0 ? p->ofd[k].file : RB__TR_NOFILE;
    if (!positioned) {
        if (k < 0 || !p->ofd[k].pos_known) { p->t->unplaced++; return; }
        off = p->ofd[k].pos;
        p->ofd[k].pos += (uint64_t)c->ret;
    }
    if (file == RB__TR_NOFILE) { p->t->unplaced++; return; }
    rb__tr_read(p, file, pid, off, (uint64_t)c->ret);
}

/* lseek and _llseek: the position they return (_llseek writes it in its 4th argument, [N]). */
static void rb__tr_seek(rb__tr *p, const rb__tr_call *c)
{
    uint64_t fd, pos;
    unsigned named;
    int k;
    if (rb__tr_arg_fd(p, c, 0, &fd, &named) != 0) { rb__tr_bad(p, p->line, "%s: a malformed descriptor", c->name); return; }
    if (!c->has_ret || c->ret < 0) return;
    if (!strcmp(c->name, "_llseek")) {
        const char *s = c->nargs > 3 ? c->arg[3] : "";
        size_t n = c->nargs > 3 ? c->alen[3] : 0;
        rb__tr_trim(&s, &n);
        if (n < 3 || s[0] != '[' || s[n - 1] != ']' || rb__tr_u64(s + 1, n - 2, &pos) != 0) {
            rb__tr_bad(p, p->line, "_llseek: a malformed result position");
            return;
        }
    } else {
        pos = (uint64_t)c->ret;
    }
    if ((k = rb__tr_ofd_for(p, fd, named)) < 0) return;
    p->ofd[k].pos = pos;
    p->ofd[k].pos_known = 1;
}

static void rb__tr_call_do(rb__tr *p, const char *text, uint64_t pid)
{
    rb__tr_call c;
    const char *why = "", *n;
    if (rb__tr_split(text, &c, &why) != 0) { rb__tr_bad(p, p->line, "%s", why); return; }
    n = c.name;
    if (!strcmp(n, "openat") || !strcmp(n, "open") || !strcmp(n, "creat")) rb__tr_open(p, &c, !strcmp(n, "openat"));
    else if (!strcmp(n, "close") || !strcmp(n, "dup") || !strcmp(n, "dup2") || !strcmp(n, "dup3") ||
             !strcmp(n, "fcntl") || !strcmp(n, "fcntl64"))
        rb__tr_fds(p, &c);
    else if (!strcmp(n, "pread64") || !strcmp(n, "pread") || !strcmp(n, "preadv") || !strcmp(n, "preadv2") ||
             !strcmp(n, "read") || !strcmp(n, "readv"))
        rb__tr_reads(p, &c, pid);
    else if (!strcmp(n, "lseek") || !strcmp(n, "_llseek"))
        rb__tr_seek(p, &c);
    /* every other call (strace traces what it was told to) says nothing about FILE's reads */
}

/* A timestamp: -t/-tt (HH:MM:SS[.frac], the time of day; a day is added when it goes back by
   more than 12 hours), -ttt (seconds since 1970) or -r (seconds since the previous line, summed).
   Returns its length, 0 when s holds none. */
static size_t rb__tr_time(rb__tr *p, const char *s)
{
    uint64_t part[3] = {0, 0, 0}, frac = 0, scale = 1000000000, ns;
    unsigned nparts = 0, fd = 0;
    size_t k = 0;
    for (;;) {
        size_t d = 0;
        while (rb__isdigit((unsigned char)s[k + d])) d++;
        if (d == 0 || d > 12 || nparts == 3) return 0;
        rb__tr_u64(s + k, d, &part[nparts++]);
        k += d;
        if (s[k] != ':') break;
        k++;
    }
    if (nparts == 2) return 0;
    if (s[k] == '.') {
        for (k++; rb__isdigit((unsigned char)s[k]); k++, fd++)
            if (fd < 9) { frac = frac * 10 + (uint64_t)(s[k] - '0'); scale /= 10; }
        frac *= scale;
    }
    if (!rb__isspace((unsigned char)s[k])) return 0;
    if (nparts == 3) {
        ns = ((part[0] * 60 + part[1]) * 60 + part[2]) * 1000000000 + frac + p->day;
        if (p->have_time && ns + 43200000000000ULL < p->time) { p->day += 86400000000000ULL; ns += 86400000000000ULL; }
        p->time = ns;
    } else if (part[0] >= 100000000) {
        p->time = part[0] * 1000000000 + frac;   /* -ttt */
    } else {
        p->time += part[0] * 1000000000 + frac;  /* -r: since the previous line */
    }
    p->have_time = 1;
    return k;
}

/* The start of a call that another thread's line interrupted: kept until its resumed> line. */
static void rb__tr_unfinished(rb__tr *p, uint64_t pid, const char *s, size_t n)
{
    rb__tr_pending *q;
    size_t i;
    for (i = 0; i < p->npend && p->pend[i].pid != pid; i++) {}
    if (i == p->npend) {
        if (rb__grow(&p->pend, &p->cappend, p->npend + 1, sizeof *p->pend) != 0) { rb__tr_nomem(p); return; }
        p->pend[p->npend].text = NULL;
        p->pend[p->npend++].pid = pid;
    }
    q = &p->pend[i];
    free(q->text);   /* a start never resumed (the thread was killed): the newer one wins */
    if (!(q->text = (char *)malloc(n + 1))) { rb__tr_nomem(p); return; }
    memcpy(q->text, s, n);
    q->text[n] = 0;
    q->time = p->time;
}

/* <... NAME resumed>REST: the call is its start joined with REST, at the start's time. */
static void rb__tr_resumed(rb__tr *p, uint64_t pid, const char *s)
{
    const char *name = s + 4, *end;
    size_t i, n, m;
    char *joined;
    while (rb__isspace((unsigned char)*name)) name++;
    end = strstr(name, " resumed>");
    if (!end) { rb__tr_bad(p, p->line, "a '<...' line without 'resumed>'"); return; }
    for (i = 0; i < p->npend && p->pend[i].pid != pid; i++) {}
    n = (size_t)(end - name);
    if (i == p->npend || !p->pend[i].text || strncmp(p->pend[i].text, name, n) || p->pend[i].text[n] != '(') {
        rb__tr_bad(p, p->line, "%.*s resumed, but no unfinished %.*s of pid %llu came before", (int)RB__MIN(n, 32), name,
                   (int)RB__MIN(n, 32), name, (unsigned long long)pid);
        return;
    }
    s = end + 9;
    m = strlen(p->pend[i].text);
    if (!(joined = (char *)malloc(m + strlen(s) + 1))) { rb__tr_nomem(p); return; }
    memcpy(joined, p->pend[i].text, m);
    strcpy(joined + m, s);
    free(p->pend[i].text);
    p->pend[i].text = NULL;
    {
        uint64_t now = p->time;
        p->time = p->pend[i].time;
        rb__tr_call_do(p, joined, pid);
        p->time = now;
    }
    free(joined);
}

static void rb__tr_strace_line(rb__tr *p, char *s)
{
    uint64_t pid = 0;
    size_t k, n;
    while (rb__isspace((unsigned char)*s)) s++;
    if (!*s) return;
    if (!strncmp(s, "[pid", 4)) {   /* strace -f without -o: [pid N] */
        for (s += 4; *s == ' '; s++) {}
        for (k = 0; rb__isdigit((unsigned char)s[k]); k++) {}
        if (rb__tr_u64(s, k, &pid) != 0 || s[k] != ']') { rb__tr_bad(p, p->line, "a malformed [pid N]"); return; }
        s += k + 1;
    } else {   /* -f with -o: the pid first, alone (a time has ':' or '.') */
        for (k = 0; rb__isdigit((unsigned char)s[k]); k++) {}
        if (k && rb__isspace((unsigned char)s[k]) && rb__tr_u64(s, k, &pid) == 0) s += k;
    }
    while (rb__isspace((unsigned char)*s)) s++;
    if (rb__isdigit((unsigned char)*s)) s += rb__tr_time(p, s);
    while (rb__isspace((unsigned char)*s)) s++;
    if (!strncmp(s, "+++", 3) || !strncmp(s, "---", 3) || !strncmp(s, "strace: ", 8)) return;   /* exits, signals */
    if (!strncmp(s, "<...", 4)) { rb__tr_resumed(p, pid, s); return; }
    n = strlen(s);
    while (n && rb__isspace((unsigned char)s[n - 1])) n--;
    if (n >= 16 && !memcmp(s + n - 16, "<unfinished ...>", 16)) {
        n -= 16;
        while (n && rb__isspace((unsigned char)s[n - 1])) n--;
        if (n == 0 || s[0] == '(') { rb__tr_bad(p, p->line, "an unfinished call without a name"); return; }
        rb__tr_unfinished(p, pid, s, n);
        return;
    }
    rb__tr_call_do(p, s, pid);
}

/*
   iolog (fio --write_iolog): a first line "fio version 2 iolog" or "fio version 3 iolog", then
   FILE ACTION [OFFSET LENGTH], version 3 with the microseconds since the job started first.
   add, open and close name files; read is a read; write, trim, sync, datasync and wait are not
   reads and are passed over. CSV: offset,length[,thread[,time_ns]], decimal, a header line of
   those names allowed first, blank lines and # comments anywhere. */
static void rb__tr_iolog_line(rb__tr *p, char *s)
{
    static const char *const others[] = {"write", "trim", "sync", "datasync", "wait", "sync_file_range"};
    char *tok[6];
    unsigned n = 0, i = 0, k;
    uint64_t off, len;
    while (*s) {
        while (rb__isspace((unsigned char)*s)) s++;
        if (!*s) break;
        if (n == 6 && !p->iolog_version) break;   /* no header: said below */
        if (n == 6) { rb__tr_bad(p, p->line, "more fields than an iolog line has"); return; }
        tok[n++] = s;
        while (*s && !rb__isspace((unsigned char)*s)) s++;
        if (*s) *s++ = 0;
    }
    if (n == 0) return;
    if (!p->iolog_version) {
        if (n == 4 && !strcmp(tok[0], "fio") && !strcmp(tok[1], "version") && !strcmp(tok[3], "iolog") &&
            (!strcmp(tok[2], "2") || !strcmp(tok[2], "3"))) {
            p->iolog_version = tok[2][0] - '0';
            return;
        }
        rb__tr_fatal(p, p->line, "not a fio iolog: the first line must be 'fio version 2 iolog' or 'fio version 3 iolog'");
        return;
    }
    if (p->iolog_version == 3) {
        uint64_t us;
        if (rb__tr_u64(tok[0], strlen(tok[0]), &us) != 0 || us > UINT64_MAX / 1000) {
            rb__tr_bad(p, p->line, "a malformed timestamp '%.32s'", tok[0]);
            return;
        }
        p->time = us * 1000;
        p->have_time = 1;
        i = 1;
    }
    if (n < i + 2) { rb__tr_bad(p, p->line, "an iolog line needs a file name and an action"); return; }
    if (!strcmp(tok[i + 1], "add") || !strcmp(tok[i + 1], "open") || !strcmp(tok[i + 1], "close")) {
        if (n != i + 2) rb__tr_bad(p, p->line, "'%s' takes no offset or length", tok[i + 1]);
        return;
    }
    for (k = 0; k < sizeof others / sizeof others[0]; k++)
        if (!strcmp(tok[i + 1], others[k])) return;
    if (strcmp(tok[i + 1], "read") != 0) { rb__tr_bad(p, p->line, "unknown iolog action '%.32s'", tok[i + 1]); return; }
    if (n != i + 4 || rb__tr_u64(tok[i + 2], strlen(tok[i + 2]), &off) != 0 ||
        rb__tr_u64(tok[i + 3], strlen(tok[i + 3]), &len) != 0) {
        rb__tr_bad(p, p->line, "a read needs a decimal offset and length");
        return;
    }
    if (len == 0) { p->t->failed++; return; }
    k = rb__tr_name(p, tok[i]);
    if (k != RB__TR_NOFILE) rb__tr_read(p, k, 0, off, len);
}

static void rb__tr_csv_line(rb__tr *p, char *s)
{
    static const char *const cols[] = {"offset", "length", "thread", "time_ns"};
    const char *f[4];
    size_t fl[4], n = strlen(s);
    unsigned nf = 0, k;
    uint64_t v[4] = {0, 0, 0, 0};
    rb__tr_trim((const char **)&s, &n);
    if (n == 0 || s[0] == '#') return;
    for (;;) {
        const char *c = (const char *)memchr(s, ',', n);
        size_t l = c ? (size_t)(c - s) : n;
        if (nf == 4) { rb__tr_bad(p, p->line, "more than the 4 fields offset,length,thread,time_ns"); return; }
        f[nf] = s;
        fl[nf] = l;
        rb__tr_trim(&f[nf], &fl[nf]);
        nf++;
        if (!c) break;
        n -= l + 1;
        s += l + 1;
    }
    if (!p->csv_started++ && !rb__isdigit((unsigned char)f[0][0]) && f[0][0] != '-' && f[0][0] != '+') {   /* a header */
        for (k = 0; k < nf; k++)
            if (fl[k] != strlen(cols[k]) || memcmp(f[k], cols[k], fl[k])) {
                rb__tr_bad(p, p->line, "a CSV header must be offset,length[,thread[,time_ns]]");
                return;
            }
        if (nf >= 2) return;
    }
    if (nf < 2) { rb__tr_bad(p, p->line, "a CSV line needs at least offset,length"); return; }
    for (k = 0; k < nf; k++)
        if (rb__tr_u64(f[k], fl[k], &v[k]) != 0) {
            if (f[k][0] == '-') rb__tr_bad(p, p->line, "a negative %s '%.*s' (a count of bytes, 0 or more)", cols[k],
                                           (int)RB__MIN(fl[k], 32), f[k]);
            else rb__tr_bad(p, p->line, "a malformed %s '%.*s' (decimal digits only)", cols[k], (int)RB__MIN(fl[k], 32), f[k]);
            return;
        }
    if (v[1] == 0) { rb__tr_bad(p, p->line, "a read of 0 bytes"); return; }
    if (nf == 4) { p->time = v[3]; p->have_time = 1; }
    rb__tr_read(p, RB__TR_NOFILE, v[2], v[0], v[1]);
}

/* The format of a trace from its first line that says anything. */
static int rb__tr_detect(const char *s)
{
    while (rb__isspace((unsigned char)*s)) s++;
    if (!*s || *s == '#') return RB_TRACE_AUTO;   /* not yet */
    if (!strncmp(s, "fio version", 11)) return RB_TRACE_IOLOG;
    if (!strchr(s, '(') && strchr(s, ',')) return RB_TRACE_CSV;
    return RB_TRACE_STRACE;
}

/* Every line, in order, into records (or the first bad one into t->why). */
static void rb__tr_lines(rb__tr *p, const char *text, size_t len)
{
    size_t pos = 0;
    while (pos < len && !p->stop) {
        const char *s = text + pos, *nl = (const char *)memchr(s, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - s) : len - pos;
        pos += n + 1;
        p->line++;
        if (n && s[n - 1] == '\r') n--;
        if (p->line == 1 && n >= 3 && !memcmp(s, "\xef\xbb\xbf", 3)) { s += 3; n -= 3; }   /* a UTF-8 BOM: no text */
        if (n > RB__TR_MAX_LINE) { rb__tr_bad(p, p->line, "a line of %zu bytes: longer than 16 MiB", n); continue; }
        if (memchr(s, 0, n)) { rb__tr_bad(p, p->line, "binary data (a NUL byte), not a line of text"); continue; }
        if (rb__grow(&p->buf, &p->bufcap, n + 1, 1) != 0) { rb__tr_nomem(p); break; }
        memcpy(p->buf, s, n);
        p->buf[n] = 0;
        if (p->format == RB_TRACE_AUTO) p->format = rb__tr_detect(p->buf);
        if (p->format == RB_TRACE_STRACE) rb__tr_strace_line(p, p->buf);
        else if (p->format == RB_TRACE_IOLOG) rb__tr_iolog_line(p, p->buf);
        else if (p->format == RB_TRACE_CSV) rb__tr_csv_line(p, p->buf);
    }
    p->t->lines = p->line;
}

/*
   The names the trace gave are compared with FILE as given (exact), then as files of this
   machine (the same device and inode: a relative name is taken from the current directory,
   a link followed), then by base name alone (the trace was recorded elsewhere). The first
   rule that finds a name with reads decides; names of different files that share FILE's base
   name are ambiguous, and said so. */
static int rb__tr_matches(const rb__tr *p, int rule, size_t i)
{
    const char *name = p->names[i], *file = p->o->file;
    if (rule == RB_MATCH_EXACT) return !strcmp(name, file);
    if (rule == RB_MATCH_SAME_FILE) return rb_same_file(name, file) == 1 && access(name, F_OK) == 0;
    return !strcmp(rb__base(name), rb__base(file));
}

/* What the trace reads instead, for the message that says FILE is not among it: the three
   names with the most reads. */
static void rb__tr_others(const rb__tr *p, const uint64_t *per, char *buf, size_t len)
{
    size_t used = 0, i, shown;
    unsigned char *done = (unsigned char *)calloc(p->nnames ? p->nnames : 1, 1);
    buf[0] = 0;
    for (shown = 0; done && shown < 3; shown++) {
        size_t best = p->nnames;
        int w;
        for (i = 0; i < p->nnames; i++)
            if (per[i] && !done[i] && (best == p->nnames || per[i] > per[best])) best = i;
        if (best == p->nnames) break;
        done[best] = 1;
        w = snprintf(buf + used, len - used, "%s%.60s (%llu read%s)", shown ? ", " : "", p->names[best],
                     (unsigned long long)per[best], per[best] == 1 ? "" : "s");
        if (w < 0 || (size_t)w >= len - used) break;
        used += (size_t)w;
    }
    free(done);
}

/* Two names of one file as far as the names tell: equal, or one the other's tail at a '/'
   ("test.db" and "/var/db/test.db": a relative open, then the absolute one sqlite3 makes). */
static int rb__tr_same_tail(const char *a, const char *b)
{
    size_t la, lb;
    while (!strncmp(a, "./", 2)) a += 2;
    while (!strncmp(b, "./", 2)) b += 2;
    la = strlen(a);
    lb = strlen(b);
    if (la > lb) { const char *t = a; size_t l = la; a = b; b = t; la = lb; lb = l; }
    return !strcmp(b + lb - la, a) && (la == lb || (a[0] != '/' && b[lb - la - 1] == '/'));
}

/* Marks keep[i] for FILE's names; RB_MATCH_* or -1 with t->why said. */
static int rb__tr_match(rb__tr *p, const uint64_t *per, unsigned char *keep)
{
    rb_trace *t = p->t;
    char buf[RB__PATH_SHOWN], others[200];
    const char *fs;
    size_t i, j, found = 0, first = 0;
    int rule;
    uint64_t total = 0;
    for (rule = RB_MATCH_EXACT; rule <= RB_MATCH_BASENAME && !found; rule++)
        for (i = 0; i < p->nnames; i++)
            if (per[i] && rb__tr_matches(p, rule, i)) {
                if (!found++) first = i;
                keep[i] = 1;
            }
    rule--;
    /* A name that ends another at a '/' ("test.db", "/var/db/test.db") is taken for the same file:
       the trace does not say the program's directory. Not transitively: keep[] is 1 for a name
       the rule found, 2 for one added so. */
    for (i = 0; found && i < p->nnames; i++)
        for (j = 0; per[i] && !keep[i] && j < p->nnames; j++)
            if (keep[j] == 1 && rb__tr_same_tail(p->names[i], p->names[j])) {
                keep[i] = 2;
                found++;
            }
    /* Two names kept that need not be one file (two base names alike, or a relative name
       that ends two paths) are ambiguous: which file the reads were of, the trace cannot say. */
    for (i = 0; found > 1 && i < p->nnames; i++)
        for (j = i + 1; keep[i] && j < p->nnames; j++)
            if (keep[j] && !(rule != RB_MATCH_BASENAME && keep[i] == 1 && keep[j] == 1) &&
                !rb__tr_same_tail(p->names[i], p->names[j])) {
                rb__fmt(t->why, sizeof t->why, "%s: the trace reads two files FILE may be (%.80s, %.80s): name FILE "
                        "as the trace does", p->tname, p->names[i], p->names[j]);
                return -1;
            }
    if (found) {   /* named: the longest of its names (the absolute one, where there is one) */
        for (i = first + 1; i < p->nnames; i++)
            if (keep[i] && strlen(p->names[i]) > strlen(p->names[first])) first = i;
        snprintf(t->named, sizeof t->named, "%s", p->names[first]);
        return rule;
    }
    for (i = 0; i < p->nnames; i++) total += per[i];
    fs = rb__short_path(p->o->file, buf);
    if (total) {
        rb__tr_others(p, per, others, sizeof others);
        rb__fmt(t->why, sizeof t->why, "%s: none of its %llu reads is of %s (not by path, not by name): it reads %s",
                p->tname, (unsigned long long)total, fs, others);
    } else {
        rb__fmt(t->why, sizeof t->why, "%s: no read of a file in %llu lines (%llu reads on descriptors it never "
                "opened, %llu failed)", p->tname, (unsigned long long)p->line, (unsigned long long)t->unplaced,
                (unsigned long long)t->failed);
    }
    return -1;
}

/* FILE's reads, checked against its end, into one stream per pid or thread (numbered by
   their first read of FILE), times counted from the first read, in place (see "traces"): the
   records are compacted to FILE's, then permuted into stream order (stable: each stream keeps
   the trace's order), the streams slices of one block the trace owns (t->block).
   A time earlier than the one before it in the same stream (a clock stepped back, a CSV
   written by hand) is held at the one before it, and counted (t->backwards): a timed replay
   runs each thread's reads in their order, never back in time. */
static void rb__tr_streams(rb__tr *p, const unsigned char *keep, uint64_t size)
{
    rb_trace *t = p->t;
    size_t i, j = 0, *start = NULL;
    unsigned *num = (unsigned *)malloc((p->nsid ? p->nsid : 1) * sizeof *num), s;
    uint64_t t0 = UINT64_MAX, page = (uint64_t)rb__page_size(), *last = NULL;
    char buf[RB__PATH_SHOWN];
    const char *fs = rb__short_path(p->o->file ? p->o->file : "FILE", buf);
    for (i = 0; num && i < p->nsid; i++) num[i] = (unsigned)-1;
    for (i = 0; num && i < p->nrec && !p->stop; i++) {   /* compact: FILE's reads inside it, renumbered */
        unsigned file = p->rfile ? p->rfile[i] : RB__TR_NOFILE, st = p->rstream ? p->rstream[i] : 0;
        const rb_trace_read r = p->rd[i];
        if (file != RB__TR_NOFILE && (file >= p->nnames || !keep[file])) { t->other_reads++; continue; }
        if (r.off + r.len > size) {
            rb__tr_bad(p, r.line, "a read of %llu bytes at %llu ends past the end of %s (%llu bytes)",
                       (unsigned long long)r.len, (unsigned long long)r.off, fs, (unsigned long long)size);
            continue;   /* left out (skip_bad) */
        }
        if (num[st] == (unsigned)-1) num[st] = t->nstreams++;
        t0 = RB__MIN(t0, r.time_ns);
        p->rd[j] = r;
        if (p->rstream) p->rstream[j] = num[st];
        j++;
    }
    if (!num) { rb__tr_nomem(p); return; }
    p->nrec = j;
    t->reads = j;
    if (!p->stop && t->reads == 0) {
        t->status = RB_EINVAL;
        rb__fmt(t->why, sizeof t->why, "%s: no read of %s is left: all %llu were skipped (the first: %s)", p->tname, fs,
                (unsigned long long)t->skipped, t->first_skipped);
        p->stop = 1;
    }
    if (!p->stop) {
        t->streams = (rb_trace_stream *)calloc(t->nstreams, sizeof *t->streams);
        start = (size_t *)calloc((size_t)t->nstreams + 1, sizeof *start);
        last = (uint64_t *)calloc(t->nstreams, sizeof *last);
        if (!t->streams || !start || !last) rb__tr_nomem(p);
    }
    for (i = 0; !p->stop && i < p->nsid; i++)
        if (num[i] != (unsigned)-1) t->streams[num[i]].id = p->sid[i];
    for (i = 0; !p->stop && i < p->nrec; i++) {   /* times from the first read, never back within a stream */
        rb_trace_read *r = &p->rd[i];
        s = p->rstream ? p->rstream[i] : 0;
        r->time_ns = p->have_time ? r->time_ns - t0 : 0;
        if (r->time_ns < last[s]) {
            if (t->backwards++ == 0) t->backwards_line = r->line;
            r->time_ns = last[s];
        }
        last[s] = r->time_ns;
        start[s + 1]++;
        t->bytes += r->len;
        t->max_len = RB__MAX(t->max_len, r->len);
        t->max_end = RB__MAX(t->max_end, r->off + r->len);
        if ((r->off | r->len) % page && t->unaligned++ == 0) t->unaligned_line = r->line;
    }
    for (s = 0; !p->stop && s < t->nstreams; s++) start[s + 1] += start[s];
    if (!p->stop && p->rstream && t->nstreams > 1) {
        /* each record's place, its stream's next slot (stable), into rstream; then each record
           swapped to its place, every swap placing one for good: O(reads), no second copy */
        for (i = 0; i < p->nrec; i++) p->rstream[i] = (unsigned)start[p->rstream[i]]++;
        for (i = 0; i < p->nrec; i++)
            while (p->rstream[i] != i) {
                size_t d = p->rstream[i];
                rb_trace_read tr = p->rd[d];
                p->rd[d] = p->rd[i];
                p->rd[i] = tr;
                p->rstream[i] = p->rstream[d];
                p->rstream[d] = (unsigned)d;
            }
        for (s = t->nstreams; s > 0; s--) start[s] = start[s - 1];   /* each stream's first again */
        start[0] = 0;
    }
    if (!p->stop) {
        rb_trace_read *shrunk = (rb_trace_read *)realloc(p->rd, p->nrec * sizeof *p->rd);
        t->block = shrunk ? shrunk : p->rd;   /* the trace owns the records now */
        p->rd = NULL;
        for (s = 0; s < t->nstreams; s++) {
            t->streams[s].reads = t->block + start[s];
            t->streams[s].n = start[s + 1] - start[s];
        }
    }
    free(num);
    free(start);
    free(last);
}

/* FILE is no file a trace's reads can be of (a directory: its files' joint space is no
   offset a program read at). RB_ENOTREG, said. */
static void rb__trace_not_file(rb_trace *t, const char *file, const struct stat *st)
{
    char fs[RB__PATH_SHOWN];
    t->status = RB_ENOTREG;
    if (S_ISDIR(st->st_mode))
        rb__fmt(t->why, sizeof t->why, "%s is a directory: a trace is replayed on the one file it read (name that file, "
                "not its directory)", rb__short_path(file, fs));
    else
        rb__fmt(t->why, sizeof t->why, "%s is %s: a trace is replayed on a regular file", rb__short_path(file, fs),
                rb__file_kind(st->st_mode));
}

static void rb__tr_finish(rb__tr *p)
{
    rb_trace *t = p->t;
    uint64_t size = p->o->file_size, *per;
    unsigned char *keep;
    size_t i;
    struct stat st;
    char fs[RB__PATH_SHOWN];
    t->format = p->format ? p->format : RB_TRACE_STRACE;
    t->has_time = p->have_time;
    if (p->stop) return;
    if (!p->o->file && p->format != RB_TRACE_CSV) {
        t->status = RB_EINVAL;
        rb__fmt(t->why, sizeof t->why, "%s names files: which one is FILE? (none given)", p->tname);
        return;
    }
    if (!size && !p->o->file) size = UINT64_MAX;   /* a CSV checked against no file */
    if (!size && p->o->file) {
        if (stat(p->o->file, &st) != 0) {
            t->status = errno == ENOENT ? RB_ENOFILE : RB_ESYS;
            rb__fmt(t->why, sizeof t->why, "cannot replay on %s: %s", rb__short_path(p->o->file, fs), strerror(errno));
            return;
        }
        if (!S_ISREG(st.st_mode)) {   /* made a directory since the load began */
            rb__trace_not_file(t, p->o->file, &st);
            return;
        }
        size = (uint64_t)st.st_size;
    }
    per = (uint64_t *)calloc(p->nnames ? p->nnames : 1, sizeof *per);
    keep = (unsigned char *)calloc(p->nnames ? p->nnames : 1, 1);
    if (!per || !keep) rb__tr_nomem(p);
    for (i = 0; per && keep && p->rfile && i < p->nrec; i++)
        if (p->rfile[i] != RB__TR_NOFILE) per[p->rfile[i]]++;
    if (!p->stop && p->format != RB_TRACE_CSV) {
        int m = rb__tr_match(p, per, keep);
        if (m < 0) { t->status = RB_EINVAL; p->stop = 1; }
        else t->match = m;
    }
    if (!p->stop && p->format == RB_TRACE_CSV && p->nrec == 0) {
        t->status = RB_EINVAL;
        rb__fmt(t->why, sizeof t->why, "%s: no read in %llu lines", p->tname, (unsigned long long)p->line);
        p->stop = 1;
    }
    if (!p->stop) rb__tr_streams(p, keep, size);
    free(per);
    free(keep);
}

static void rb__tr_free(rb__tr *p)
{
    size_t i;
    for (i = 0; i < p->nnames; i++) free(p->names[i]);
    for (i = 0; i < p->npend; i++) free(p->pend[i].text);
    free(p->names);
    free(p->pend);
    free(p->buf);
    free(p->rd);
    free(p->rfile);
    free(p->rstream);
    free(p->sid);
    free(p->fd);
    free(p->ofd);
    free(p->name_map.key);
    free(p->name_map.val);
    free(p->pid_map.key);
    free(p->pid_map.val);
}

/* Before any line: the options, FILE (a file: a directory's inode size is no end a read can be
   checked against), and the memory the records may take (the room, less the margin). 0: go on;
   -1: t says why. */
static int rb__trace_begin(rb__tr *p, rb_trace *t, const rb_trace_options *o, const char *shown)
{
    struct stat st;
    memset(p, 0, sizeof *p);
    p->t = t;
    p->o = o;
    p->room = -2;
    snprintf(p->tname, sizeof p->tname, "%s", shown);
    if (o->format < RB_TRACE_AUTO || o->format >= RB_TRACE_FORMATS) {
        t->status = RB_EINVAL;
        rb__fmt(t->why, sizeof t->why, "no trace format %d (auto, strace, iolog or csv)", o->format);
        return -1;
    }
    if (o->file && stat(o->file, &st) == 0 && !S_ISREG(st.st_mode)) {
        rb__trace_not_file(t, o->file, &st);
        return -1;
    }
    p->format = o->format;
    return 0;
}

static int rb__trace_end(rb__tr *p)
{
    rb_trace *t = p->t;
    t->lines = p->line;
    rb__tr_finish(p);
    rb__tr_free(p);
    if (t->status != RB_OK) rb_trace_free(t);
    return t->status;
}

static int rb__trace_text(rb_trace *t, const char *text, size_t len, const rb_trace_options *o, const char *shown)
{
    rb__tr p;
    if (rb__trace_begin(&p, t, o, shown) != 0) return t->status;
    rb__tr_lines(&p, text, len);
    return rb__trace_end(&p);
}

RBDEF int rb_trace_parse(rb_trace *t, const char *text, size_t len, const rb_trace_options *o)
{
    rb_trace_options none;
    memset(&none, 0, sizeof none);
    if (!o) o = &none;
    memset(t, 0, sizeof *t);
    return rb__trace_text(t, text ? text : "", text ? len : 0, o, "the trace");
}

/* After `done` of the trace file's `total` bytes (a MiB at least): the reads so far, scaled to
   the whole file, against the room. Twice the room, not once: the reads need not be spread
   evenly (a strace's first MiB may be its program starting), and the exact check as the
   records grow (rb__tr_read) still stops a trace that does not fit. */
static void rb__tr_project(rb__tr *p, uint64_t done, uint64_t total)
{
    double reads, need;
    char holds[160], a[32], b[32];
    if (p->stop || !p->nrec || done >= total || done < RB__TR_CHUNK || rb__tr_room(p) < 0) return;
    reads = (double)p->nrec * (double)total / (double)done;
    need = reads * (double)rb__tr_rec_size(p);
    if (need <= 2.0 * (double)p->room) return;
    rb__mem_text(done, a, sizeof a);
    rb__mem_text(total, b, sizeof b);
    snprintf(holds, sizeof holds, "about %.0f reads (%llu in its first %s of %s)", reads, (unsigned long long)p->nrec,
             a, b);
    rb__tr_too_big(p, need, holds);
}

/* The trace is read a chunk at a time (a regular file only: a FIFO would be read once and be
   gone), each chunk's whole lines parsed as they come: the text is never held whole. */
RBDEF int rb_trace_load(rb_trace *t, const char *path, const rb_trace_options *o)
{
    rb_error e;
    struct stat st;
    rb__tr p;
    char *buf = NULL, shown[RB__PATH_SHOWN];
    size_t cap = RB__TR_CHUNK, have = 0, k;
    uint64_t done = 0;
    int fd, e2 = 0, eof = 0, skipping = 0;
    rb_trace_options none;
    memset(&none, 0, sizeof none);
    if (!o) o = &none;
    memset(t, 0, sizeof *t);
    snprintf(t->path, sizeof t->path, "%s", path ? path : "");
    fd = rb__open_regular(path, 0, &st, &e);
    if (fd < 0) {
        t->status = e.status;
        rb__fmt(t->why, sizeof t->why, "the trace: %s", e.msg);
        return t->status;
    }
    if (rb__trace_begin(&p, t, o, rb__short_path(path, shown)) != 0) {
        close(fd);
        return t->status;
    }
    if (!(buf = (char *)malloc(cap))) rb__tr_nomem(&p);
    while (!p.stop && !eof) {
        ssize_t r;
        char *nl = NULL;
        if (have == cap && cap < RB__TR_MAX_LINE + 2) {   /* a long line: room for it, up to the longest */
            char *b = (char *)realloc(buf, RB__MIN(2 * cap, RB__TR_MAX_LINE + 2));
            if (!b) { rb__tr_nomem(&p); break; }
            buf = b;
            cap = RB__MIN(2 * cap, RB__TR_MAX_LINE + 2);
        } else if (have == cap) {   /* longer than any line: said, and passed over to its end */
            rb__tr_bad(&p, ++p.line, "a line longer than 16 MiB");
            skipping = 1;
            have = 0;
            continue;
        }
        r = read(fd, buf + have, cap - have);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) { e2 = errno; break; }
        eof = r == 0;   /* also a file that shrank: what was read is the trace */
        done += (uint64_t)r;
        if (skipping && r > 0) {
            char *end = (char *)memchr(buf, '\n', (size_t)r);
            if (!end) continue;   /* still inside the long line */
            have = (size_t)r - (size_t)(end + 1 - buf);
            memmove(buf, end + 1, have);
            skipping = 0;
        } else if (!skipping) {
            have += (size_t)r;
        }
        for (k = have; k > 0 && !nl; k--)
            if (buf[k - 1] == '\n') nl = buf + k - 1;
        if (eof) {
            if (have && !skipping) rb__tr_lines(&p, buf, have);
            have = 0;
        } else if (nl) {
            size_t whole = (size_t)(nl + 1 - buf);
            rb__tr_lines(&p, buf, whole);
            memmove(buf, nl + 1, have - whole);
            have -= whole;
        }
        rb__tr_project(&p, done, (uint64_t)st.st_size);
    }
    free(buf);
    if (close(fd) != 0 && !e2) e2 = errno;
    if (e2 && !p.stop) {
        t->status = RB_ESYS;
        rb__fmt(t->why, sizeof t->why, "reading the trace %s: %s", rb__short_path(path, shown), strerror(e2));
        p.stop = 1;
    }
    return rb__trace_end(&p);
}

RBDEF void rb_trace_free(rb_trace *t)
{
    unsigned i;
    for (i = 0; !t->block && t->streams && i < t->nstreams; i++) free(t->streams[i].reads);
    free(t->block);
    free(t->streams);
    t->block = NULL;
    t->streams = NULL;
    t->nstreams = 0;
}

RBDEF int rb_trace_format_find(const char *name)
{
    int f;
    for (f = 0; name && f < RB_TRACE_FORMATS; f++)
        if (!strcmp(name, rb__trace_formats[f])) return f;
    return -1;
}

/* ==== 3.2 reader groups and the victim ======================================================== */

/* What a caller can get wrong in an rb_config before anything is opened. A negative duration
   would wrap to a deadline in the past: every iteration would end at once and report 0 ops/ms
   with status ok. */
/* 1 (why said): the victim is the file measured, or one of the files of the directory measured
   (the same device and inode, through any link), whose reads would be the cell's own. */
static int rb__victim_measured(const rb_config *c, char *why, size_t wl)
{
    rb__dirlist d;
    unsigned i;
    int same = 0;
    if (rb_same_file(c->victim, c->path)) {
        rb__fmt(why, wl, "the victim %s is the file being measured (the same device and inode): it must be another file",
                c->victim);
        return 1;
    }
    if (!rb__is_dir(c->path) || rb__dir_scan(c->path, &d, NULL) != RB_OK) return 0;
    for (i = 0; i < d.n && !same; i++) same = rb_same_file(c->victim, d.e[i].path);
    rb__dirlist_free(&d);
    if (same)
        rb__fmt(why, wl, "the victim %s is one of the files of %s, which the cells read: it must be a file outside the "
                "set measured", c->victim, c->path);
    return same;
}

/*
   A second file some other program of the machine keeps using (another index, a database's
   hot table), read by a light reader while the cell runs: one whole pass loads it before the
   measurement, then 1 MiB every 10 ms (at most 100 MiB/s: enough to keep its pages recently
   used, too little to be a load of its own), wrapping. What the cell's reads cost it: its
   pages resident when measuring started and not when it ended (a lower bound: the light
   reader reads some back), the bytes the light reader had to read back from the device
   meanwhile (each evicted page it came to), and cachestat's recently evicted pages at the end. */
#define RB__VICTIM_CHUNK ((size_t)65536)
typedef struct rb__victim {
    const char *path;
    int fd;
    uint64_t size;
    pthread_t thread;
    int started;
    int tid, loaded, err, stop;   /* tid, loaded, err: the reader's; stop: the coordinator's (atomics) */
    uint64_t reads, reads_before; /* reads: the reader's count (atomic) */
    uint64_t *before;             /* resident when measuring started; NULL: unknown */
    int64_t io_before;
} rb__victim;

static int rb__victim_read(rb__victim *v, unsigned char *buf, uint64_t off)
{
    ssize_t r;
    do r = pread(v->fd, buf, RB__VICTIM_CHUNK, (off_t)off); while (r < 0 && errno == EINTR);
    if (r < 0) { RB__STORE(&v->err, errno ? errno : EIO); return -1; }
    __atomic_fetch_add(&v->reads, 1, __ATOMIC_RELAXED);
    return 0;
}

static void *rb__victim_main(void *arg)
{
    rb__victim *v = (rb__victim *)arg;
    unsigned char *buf = (unsigned char *)malloc(RB__VICTIM_CHUNK);
    uint64_t off;
    unsigned k;
    RB__STORE(&v->tid, rb__plat_tid());
    if (!buf) { RB__STORE(&v->err, ENOMEM); return NULL; }
    for (off = 0; off < v->size && !RB__LOAD(&v->stop); off += RB__VICTIM_CHUNK)
        if (rb__victim_read(v, buf, off) != 0) goto out;
    RB__STORE(&v->loaded, 1);
    for (off = 0; !RB__LOAD(&v->stop);) {
        for (k = 0; k < 16; k++, off = off + RB__VICTIM_CHUNK < v->size ? off + RB__VICTIM_CHUNK : 0)
            if (rb__victim_read(v, buf, off) != 0) goto out;
        rb__sleep_ns(10000000);
    }
out:
    free(buf);
    return NULL;
}

/* Opens the victim and starts its reader; returns once the reader's first pass loaded it. */
static int rb__victim_start(rb__victim *v, const char *path, volatile int *stop, char *why, size_t wl)
{
    struct stat st;
    rb_error e;
    int rc;
    v->path = path;
    v->tid = -1;
    v->io_before = -1;
    if ((v->fd = rb__open_regular(path, 0, &st, &e)) < 0) { rb__fmt(why, wl, "victim: %s", e.msg); return e.status; }
    v->size = (uint64_t)st.st_size;
    if (!v->size) { rb__fmt(why, wl, "victim: %s is empty", path); return RB_EINVAL; }
    if ((rc = pthread_create(&v->thread, NULL, rb__victim_main, v)) != 0) {
        rb__fmt(why, wl, "pthread_create (the victim's reader): %s", strerror(rc));
        return RB_ESYS;
    }
    v->started = 1;
    while (!RB__LOAD(&v->loaded) && !RB__LOAD(&v->err)) {
        if (stop && __atomic_load_n(stop, __ATOMIC_RELAXED)) { rb__fmt(why, wl, "interrupted"); return RB_EINTR; }
        rb__sleep_ns(1000000);
    }
    if (!RB__LOAD(&v->err)) return RB_OK;
    rb__fmt(why, wl, "reading the victim %s: %s", path, strerror(RB__LOAD(&v->err)));
    return RB_ESYS;
}

/* The observer's cell: the victim may not be the file measured, nor one of its directory's. */
static int rb__victim_cell(const rb_observer *o, const rb_config *c, void **state, char *why, size_t wl)
{
    const rb_victim *vv = (const rb_victim *)o->user;
    rb__victim *v = (rb__victim *)calloc(1, sizeof *v);
    rb_config with = *c;
    *state = v;
    if (!v) { rb__fmt(why, wl, "out of memory for the victim"); return RB_ENOMEM; }
    v->fd = -1;
    with.victim = vv->path;
    if (rb__victim_measured(&with, why, wl)) return RB_EINVAL;
    return rb__victim_start(v, vv->path, c->stop, why, wl);
}

/* Stops the reader and closes the victim; a failed close is said in every row. */
static void rb__victim_close(void *state, rb_result *const *rows, unsigned n)
{
    rb__victim *v = (rb__victim *)state;
    unsigned i;
    if (!v) return;
    if (v->started) {
        RB__STORE(&v->stop, 1);
        pthread_join(v->thread, NULL);
    }
    if (v->fd >= 0 && close(v->fd) != 0)
        for (i = 0; i < n; i++) rb__warn(rows[i], "close of the victim: %s", strerror(errno));
    free(v->before);
    free(v);
}

/* What a thread of this process made the device read so far (/proc/self/task/TID/io); -1: unknown. */
static int64_t rb__task_read_bytes(int tid)
{
    char path[64], buf[1024], *p;
    if (tid < 0) return -1;
    snprintf(path, sizeof path, "/proc/self/task/%d/io", tid);
    if (rb__plat_proc_read(path, buf, sizeof buf) <= 0 || !(p = strstr(buf, "\nread_bytes:"))) return -1;
    return atoll(p + 12);
}

/* As the first measured iteration starts: the victim's resident pages, and the reader's count. */
static void rb__victim_mark(void *state, rb_result *const *rows, unsigned n)
{
    rb__victim *v = (rb__victim *)state;
    size_t page = rb__page_size();
    uint64_t words = (v->size / page + 64) / 64;
    int64_t r;
    unsigned i;
    v->before = (uint64_t *)calloc((size_t)words, sizeof(uint64_t));
    if (v->before && rb__resident_bits(v->path, v->size, page, v->before) != 0) {
        free(v->before);
        v->before = NULL;
    }
    r = rb__resident(v->path);
    for (i = 0; i < n; i++) rows[i]->victim_resident_before = r;
    v->io_before = rb__task_read_bytes(RB__LOAD(&v->tid));
    v->reads_before = __atomic_load_n(&v->reads, __ATOMIC_RELAXED);
}

/* As the last measured iteration ended: what the cell's reads cost the victim. */
static void rb__victim_end(void *state, rb_result *const *rows, unsigned n)
{
    rb__victim *v = (rb__victim *)state;
    size_t page = rb__page_size();
    uint64_t words = (v->size / page + 64) / 64, i, lost = 0;
    uint64_t *after = (uint64_t *)calloc((size_t)words, sizeof(uint64_t));
    int64_t io, r;
    struct rb__cachestat cs;
    unsigned j;
    int known = after && v->before && rb__resident_bits(v->path, v->size, page, after) == 0;
    if (known)
        for (i = 0; i < words; i++) lost += rb__popcount(v->before[i] & ~after[i]);
    r = rb__resident(v->path);
    io = rb__task_read_bytes(RB__LOAD(&v->tid));
    for (j = 0; j < n; j++) {
        rb_result *res = rows[j];
        if (!known)
            rb__warn(res, "the victim's lost pages are not counted: its residency cannot be read page by page here");
        res->victim_pages = (v->size + page - 1) / page;
        res->victim_reads = __atomic_load_n(&v->reads, __ATOMIC_RELAXED) - v->reads_before;
        res->victim_resident_after = r;
        res->victim_lost = known ? (int64_t)lost : -1;
        res->victim_device_read_bytes = io >= 0 && v->io_before >= 0 ? io - v->io_before : -1;
        res->victim_recently_evicted = rb__plat_cachestat(v->fd, 0, 0, &cs) == RB_OK ? (int64_t)cs.nr_recently_evicted : -1;
    }
    free(after);
}

static int rb__victim_check(const rb_observer *o, const rb_config *c, char *why, size_t wl)
{
    rb_config with = *c;
    with.victim = ((const rb_victim *)o->user)->path;
    return rb_victim_check(&with, why, wl);
}

RBDEF void rb_victim_attach(rb_config *c, rb_victim *v, const char *path)
{
    memset(v, 0, sizeof *v);
    v->path = path;
    v->observer.check = rb__victim_check;
    v->observer.cell = rb__victim_cell;
    v->observer.measuring = rb__victim_mark;
    v->observer.measured = rb__victim_end;
    v->observer.close = rb__victim_close;
    v->observer.user = v;
    c->observer = path ? &v->observer : NULL;
    c->victim = path;
}

/*
   rb_run_groups: each group alone, then all of them in one cell (rb__cell: one barrier, one
   coordinator, one cache preparation), each group's row its own. Every run starts from the
   same cache state: an eviction or a prewarm is made again by each cell; a kept cache is read
   page by page before the first run and brought back before each later one. */
RBDEF unsigned rb_group_rows(unsigned ngroups, int alone) { return alone == RB_ALONE_FIRST ? 2 * ngroups : ngroups; }

static unsigned rb__group_row(unsigned i, int kind, int alone)
{
    return alone == RB_ALONE_FIRST ? 2 * i + (kind == RB_RUN_TOGETHER) : i;
}

RBDEF void rb_group_config(const rb_config *cell, const rb_group *g, unsigned index, rb_config *out)
{
    *out = *cell;
    if (g->threads) out->threads = g->threads;
    if (g->read_size) out->read_size = g->read_size;
    if (g->reads_per_op) out->reads_per_op = g->reads_per_op;
    if (g->iodepth) out->iodepth = g->iodepth;
    if (g->align) out->align = g->align;
    if (g->has_pattern) {
        out->pattern = g->pattern;
        out->pattern_arg[0] = g->pattern_arg[0];
        out->pattern_arg[1] = g->pattern_arg[1];
        out->run_length = g->run_length;
        out->contiguous = g->contiguous;
    }
    out->seed = rb__mix64(cell->seed ^ (0x67726f7570ULL + index));   /* "group" */
}

/* A group's row before it runs: what it will be (strategy, threads, pattern...), not run yet. */
static void rb__group_row_init(rb_result *x, const rb_config *cell, const rb_group *g, unsigned i, unsigned n, int kind)
{
    rb_config c, d;
    unsigned k;
    rb_group_config(cell, g, i, &c);
    rb_config_defaults(&c, &d);
    memset(x, 0, sizeof *x);
    rb_hist_init(&x->lat);
    rb_hist_init(&x->read_lat);
    rb__result_unknown_extras(x);
    x->strategy = g->s ? g->s->name : "?";
    x->threads = d.threads;
    x->read_size = d.read_size;
    x->reads_per_op = d.reads_per_op;
    x->pattern = d.pattern;
    rb_pattern_name(&d, x->pattern_spec, sizeof x->pattern_spec);
    for (k = 0; k < RB_MAX_ITERATIONS; k++) x->iter_pages_touched[k] = x->iter_resident_before[k] = -1;
    x->pages_touched = x->hit_rate = x->fault_hit_rate = -1;
    x->resident_before = x->resident_after = x->resident_prepared = x->majflt = x->minflt = x->device_read_bytes = -1;
    x->read_amplification = x->cpu_user_ns_per_read = x->cpu_sys_ns_per_read = -1;
    x->ops_per_ms_stddev = x->ops_per_ms_median = x->ci_lo = x->ci_hi = NAN;
    x->group = i + 1;
    x->ngroups = n;
    x->group_run = kind;
    snprintf(x->group_spec, sizeof x->group_spec, "%s", g->spec);
    x->status = RB_ENOTRUN;
    snprintf(x->reason, sizeof x->reason, "the run was interrupted before this row");
}

/* Brings the file's page cache back to a snapshot (a bit per resident page) as rb_prewarm
   makes its fraction: evict, load it whole without readahead (small folios, so that single
   pages can go), then drop the runs of pages the snapshot did not hold. */
static int rb__restore_bits(const char *path, const uint64_t *bits, uint64_t first, uint64_t pages, rb_error *err)
{
    uint64_t i, run = 0, page = rb__page_size();
    int fd, rc = rb_evict(path, err);
    if (rc == RB_OK) rc = rb__load(path, 0, err);
    if (rc != RB_OK) return rc;
    if ((fd = rb__open_regular(path, 0, NULL, err)) < 0) return err->status;
    for (i = 0; i <= pages; i++) {
        const char *what = "";
        if (i < pages && !((bits[(first + i) >> 6] >> ((first + i) & 63)) & 1u)) { run++; continue; }
        if (run && rb__plat_drop_range(fd, (i - run) * page, run * page, &what) != RB_OK) {
            int e = errno;
            rb__seterr(err, RB_ESYS, e, what, "%s: %s", what, strerror(e));
            close(fd);
            return RB_ESYS;
        }
        run = 0;
    }
    close(fd);
    return RB_OK;
}

/* One rb_run_groups: its groups, where the rows go, the working sets and the kept state. */
typedef struct rb__groups {
    const rb_config *cfg;
    const rb_group *g;
    unsigned n, runs;
    int alone;
    rb_result *out;
    rb__part *parts;
    uint64_t **ws, words, pages;   /* per group its working set (alone first); NULL: none */
    uint64_t bytes;                /* one file: the bytes the bitmaps cover (--size, or its size) */
    uint64_t *keep;                /* the kept cache state (cache kept, no prewarm); NULL: none */
    int keep_known;
    rb__dirlist dir;               /* FILE a directory: its files, laid out as a cell lays them out
                                      (rb__open_files: name order, each at a page boundary) */
    rb_matrix_fn progress;
    void *user;
    unsigned round, rounds;
} rb__groups;

static void rb__groups_event(const rb__groups *G, int kind, const rb_config *c, const rb_result *x)
{
    rb_matrix_event ev;
    char label[64];
    if (!G->progress) return;
    memset(&ev, 0, sizeof ev);
    ev.kind = kind;
    ev.round = G->round;
    ev.rounds = G->rounds;
    ev.cell = (unsigned)(x - G->out);
    ev.cfg = c;
    ev.strategy = rb__label(x, label, sizeof label);
    ev.result = kind == RB_EVENT_DONE ? x : NULL;
    G->progress(&ev, G->user);
}

/* The bitmaps' layout of G's file: one file from page 0, or a directory's files each at its
   page-aligned base, as a cell's target places them (rb__open_files), so that a group's
   working set and the kept state line up with the cell's own bitmaps. Returns the pages. */
static uint64_t rb__groups_layout(rb__groups *G)
{
    struct stat st;
    uint64_t size = G->cfg->size, page = rb__page_size(), span = 0;
    unsigned i;
    if (rb__is_dir(G->cfg->path) && rb__dir_scan(G->cfg->path, &G->dir, NULL) == RB_OK) {
        for (i = 0; i < G->dir.n; i++) span += (G->dir.e[i].size + page - 1) / page * page;
        return span / page;
    }
    if (!size && G->cfg->path && stat(G->cfg->path, &st) == 0 && S_ISREG(st.st_mode)) size = (uint64_t)st.st_size;
    G->bytes = size;
    return (size + page - 1) / page;
}

/* The kept state: read (rb__resident_bits) or brought back (rb__restore_bits), per file. */
static int rb__groups_keep_bits(rb__groups *G)
{
    uint64_t page = rb__page_size(), base = 0;
    unsigned i;
    int rc = 0;
    if (!G->dir.n) return rb__resident_bits(G->cfg->path, G->bytes, page, G->keep);
    memset(G->keep, 0, (size_t)G->words * sizeof(uint64_t));
    for (i = 0; i < G->dir.n && rc == 0; i++) {
        rc = rb__resident_bits_at(G->dir.e[i].path, G->dir.e[i].size, page, G->keep, base / page);
        base += (G->dir.e[i].size + page - 1) / page * page;
    }
    return rc;
}

static int rb__groups_restore_bits(const rb__groups *G, rb_error *err)
{
    uint64_t page = rb__page_size(), base = 0;
    unsigned i;
    int rc = RB_OK;
    if (!G->dir.n) return rb__restore_bits(G->cfg->path, G->keep, 0, G->pages, err);
    for (i = 0; i < G->dir.n && rc == RB_OK; i++) {
        rc = rb__restore_bits(G->dir.e[i].path, G->keep, base / page, (G->dir.e[i].size + page - 1) / page, err);
        base += (G->dir.e[i].size + page - 1) / page * page;
    }
    return rc;
}

/* A kept cache: the state the first run found, brought back before every later run (said in
   the rows when it cannot be). */
static void rb__groups_restore(rb__groups *G, rb_result *res0)
{
    rb_error e;
    uint64_t t0 = rb__now_ns();
    if (!(G->cfg->cache == RB_CACHE_KEEP && !(G->cfg->prewarm > 0)) || G->runs == 0) return;
    if (!G->keep_known)
        rb__warn(res0, "the cache was kept: this run started from what the run before it left (the first run's "
                 "cache state cannot be read page by page here to bring it back)");
    else if (rb__groups_restore_bits(G, &e) != RB_OK)
        rb__warn(res0, "bringing back the first run's cache state failed (%s): this run started from another", e.msg);
    res0->prewarm_seconds = (double)(rb__now_ns() - t0) / 1e9;
}

/* Groups [first, first + count) in one cell, alone (count 1) or together. */
static int rb__groups_one(rb__groups *G, unsigned first, unsigned count, int kind)
{
    unsigned i;
    int rc = RB_OK;
    for (i = 0; i < count; i++) {
        unsigned gi = first + i;
        rb_result *res = &G->out[rb__group_row(gi, kind, G->alone)];
        rb__part *p = &G->parts[i];
        int64_t alone_ws = G->alone == RB_ALONE_FIRST ? G->out[rb__group_row(gi, RB_RUN_ALONE, G->alone)].ws_pages : -1;
        rb_config c;
        rb_group_config(G->cfg, &G->g[gi], gi, &c);
        if (rb__part_init(p, &c, G->g[gi].s, res) != RB_OK) rc = res->status;
        res->group = gi + 1;
        res->ngroups = G->n;
        res->group_run = kind;
        snprintf(res->group_spec, sizeof res->group_spec, "%s", G->g[gi].spec);
        p->ws = G->ws && (kind == RB_RUN_ALONE || alone_ws >= 0) ? G->ws[gi] : NULL;
        p->ws_words = G->words;
        p->ws_fill = kind == RB_RUN_ALONE;
    }
    if (rc == RB_OK) {
        rb__groups_restore(G, G->parts[0].res);
        rb__groups_event(G, RB_EVENT_CELL, &G->parts[0].c, G->parts[0].res);
        rc = rb__cell(G->parts, count);
    } else {
        rb__share_failure(G->parts, count);
    }
    G->runs++;
    for (i = 0; i < count; i++) {
        if (i) rb__groups_event(G, RB_EVENT_CELL, &G->parts[i].c, G->parts[i].res);
        rb__groups_event(G, RB_EVENT_DONE, &G->parts[i].c, G->parts[i].res);
    }
    return rc;
}

/* Per group, its rate together over its rate alone. Both rows run in every round, alone then
   together, so they pair by round (rb_paired_ratio): the ratio and its interval from two
   rounds on; with one round, the ratio of the medians (of a matrix run) or of the means (of a
   lone rb_run_groups), with no interval. */
static void rb__group_ratios(rb_result *out, unsigned n, int alone)
{
    unsigned i;
    for (i = 0; alone == RB_ALONE_FIRST && i < n; i++) {
        const rb_result *a = &out[2 * i];
        rb_result *t = &out[2 * i + 1];
        rb_stats p;
        t->together_ratio = t->together_ratio_lo = t->together_ratio_hi = NAN;
        if (a->status != RB_OK || t->status != RB_OK) continue;
        if (rb_paired_ratio(t, a, &p) >= 2) {
            t->together_ratio = p.center;
            t->together_ratio_lo = p.ci_lo;
            t->together_ratio_hi = p.ci_hi;
        } else if (a->nsamples && t->nsamples && a->ops_per_ms_median > 0) {
            t->together_ratio = t->ops_per_ms_median / a->ops_per_ms_median;
        } else if (a->ops_per_ms > 0) {
            t->together_ratio = t->ops_per_ms / a->ops_per_ms;
        }
    }
}

/* The working sets and the kept state: bitmaps over the file's pages. RB_ENOMEM or RB_OK. */
static int rb__groups_alloc(rb__groups *G)
{
    unsigned i;
    G->pages = rb__groups_layout(G);   /* a directory: its files' joint space, not its inode's size */
    G->words = (G->pages + 63) / 64 + 1;
    if (!(G->parts = (rb__part *)calloc(G->n, sizeof *G->parts))) return RB_ENOMEM;
    if (G->alone == RB_ALONE_FIRST) {
        if (!(G->ws = (uint64_t **)calloc(G->n, sizeof *G->ws))) return RB_ENOMEM;
        for (i = 0; i < G->n; i++)
            if (!(G->ws[i] = (uint64_t *)calloc((size_t)G->words, sizeof(uint64_t)))) return RB_ENOMEM;
    }
    if (G->cfg->cache == RB_CACHE_KEEP && !(G->cfg->prewarm > 0) && rb_group_rows(G->n, G->alone) > 1 && G->pages) {
        if (!(G->keep = (uint64_t *)calloc((size_t)G->words, sizeof(uint64_t)))) return RB_ENOMEM;
        G->keep_known = rb__groups_keep_bits(G) == 0;
    }
    return RB_OK;
}

static void rb__groups_free(rb__groups *G)
{
    unsigned i;
    for (i = 0; G->ws && i < G->n; i++) free(G->ws[i]);
    free(G->ws);
    free(G->keep);
    rb__dirlist_free(&G->dir);
    free(G->parts);
}

/* Every row of G: the alone runs, then the together run; a stop ends it between runs. */
static int rb__groups_run(rb__groups *G)
{
    unsigned i, k, rows = rb_group_rows(G->n, G->alone);
    int rc = RB_OK, first = RB_OK;
    for (i = 0; i < G->n; i++)
        for (k = RB_RUN_ALONE; k <= RB_RUN_TOGETHER; k++)
            if ((k == RB_RUN_ALONE) ? G->alone != RB_ALONE_NO : G->alone != RB_ALONE_ONLY)
                rb__group_row_init(&G->out[rb__group_row(i, (int)k, G->alone)], G->cfg, &G->g[i], i, G->n, (int)k);
    if (rb__groups_alloc(G) != RB_OK) {
        for (i = 0; i < rows; i++) {
            G->out[i].status = RB_ENOMEM;
            snprintf(G->out[i].reason, sizeof G->out[i].reason, "out of memory for the groups' bitmaps");
        }
        rb__groups_free(G);
        return RB_ENOMEM;
    }
    for (i = 0; G->alone != RB_ALONE_NO && i < G->n && rc != RB_EINTR; i++) {
        if (G->cfg->stop && *G->cfg->stop) break;
        rc = rb__groups_one(G, i, 1, RB_RUN_ALONE);
        if (first == RB_OK) first = rc;
    }
    if (G->alone != RB_ALONE_ONLY && rc != RB_EINTR && !(G->cfg->stop && *G->cfg->stop)) {
        rc = rb__groups_one(G, 0, G->n, RB_RUN_TOGETHER);
        if (first == RB_OK) first = rc;
    }
    rb__group_ratios(G->out, G->n, G->alone);
    rb__groups_free(G);
    for (i = 0; i < rows && first == RB_OK; i++)
        if (G->out[i].status != RB_OK) first = G->out[i].status;   /* the rows a stop left unrun */
    return first;
}

/* What cannot be a run of groups: too many or none, an unknown alone mode, a group with no strategy. */
static int rb__groups_check(const rb_group *g, unsigned n, int alone, char *why, size_t wl)
{
    unsigned i;
    if (n == 0 || n > RB_MAX_GROUPS) { rb__fmt(why, wl, "1 to %u groups, not %u", RB_MAX_GROUPS, n); return RB_EINVAL; }
    if (alone < RB_ALONE_FIRST || alone > RB_ALONE_ONLY) { rb__fmt(why, wl, "no alone mode %d", alone); return RB_EINVAL; }
    for (i = 0; i < n; i++)
        if (!g[i].s) { rb__fmt(why, wl, "group %u names no strategy", i + 1); return RB_EINVAL; }
    return RB_OK;
}

RBDEF int rb_run_groups(const rb_config *cfg, const rb_group *g, unsigned n, int alone, rb_result *out)
{
    rb__groups G;
    char why[RB_REASON_LEN];
    if (!cfg || !g || !out) return RB_EINVAL;
    if (rb__groups_check(g, n, alone, why, sizeof why) != RB_OK) return RB_EINVAL;
    memset(&G, 0, sizeof G);
    G.cfg = cfg;
    G.g = g;
    G.n = n;
    G.alone = alone;
    G.out = out;
    G.rounds = 1;
    return rb__groups_run(&G);
}

RBDEF int rb_victim_check(const rb_config *c, char *why, size_t wl)
{
    rb_file_info info;
    rb_error e;
    int rc;
    if (!c || !c->victim) return RB_OK;
    if (!*c->victim) { rb__fmt(why, wl, "the victim needs a file name"); return RB_EINVAL; }
    if ((rc = rb_check_file(c->victim, 1, &info, &e)) != RB_OK) { rb__fmt(why, wl, "victim: %s", e.msg); return rc; }
    if (c->path && rb__victim_measured(c, why, wl)) return RB_EINVAL;
    return RB_OK;
}

/*
   Each round of the matrix is one rb_run_groups of the groups (each alone, then together); the
   matrix keeps the rounds and the statistics, and the rows are the groups'. */
static const rb_groups_matrix *rb__gm(const rb_matrix *m) { return (const rb_groups_matrix *)m->hook->user; }

/* The cell config of a run of groups: the matrix's, with its one thread count and read size. */
static void rb__groups_cell_config(const rb_matrix *m, rb_config *c)
{
    *c = m->cfg;
    if (m->threads && m->nthreads) c->threads = m->threads[0];
    if (m->read_sizes && m->nread_sizes) c->read_size = m->read_sizes[0];
}

/* Every group's read size against the file (have, when known) and its strategy, and the
   memory of all groups together (the together run's). */
static int rb__groups_matrix_check(const rb_matrix *m, uint64_t have, char *why, size_t wl)
{
    const rb_groups_matrix *g = rb__gm(m);
    rb_config cell, c, d;
    unsigned i;
    uint64_t need = 0, margin = (uint64_t)16 << 20;
    int64_t room = rb_mem_available();
    char a[32], b[32];
    int rc;
    if (m->strategies) { rb__fmt(why, wl, "groups name their own strategies: no strategy list with groups"); return RB_EINVAL; }
    if ((m->threads && m->nthreads > 1) || (m->read_sizes && m->nread_sizes > 1)) {
        rb__fmt(why, wl, "with groups, one thread count and one read size at most (each group's default; a group "
                "sets its own)");
        return RB_EINVAL;
    }
    if ((rc = rb__groups_check(g->groups, g->n, g->alone, why, wl)) != RB_OK || !have) return rc;
    rb__groups_cell_config(m, &cell);
    for (i = 0; i < g->n; i++) {
        rb_group_config(&cell, &g->groups[i], i, &c);
        rb_config_defaults(&c, &d);
        if (rb_pattern_check(&d, why, wl) != RB_OK) return RB_EINVAL;
        if (d.read_size > have) {
            rb__fmt(why, wl, "group %u: read size %llu is larger than the %llu bytes to read from", i + 1,
                    (unsigned long long)d.read_size, (unsigned long long)have);
            return RB_EINVAL;
        }
        if ((g->groups[i].s->flags & RB_S_DIRECT) && d.read_size % rb__page_size()) {
            rb__fmt(why, wl, "group %u: direct I/O needs a read size that is a multiple of the page size (%zu), not %llu",
                    i + 1, rb__page_size(), (unsigned long long)d.read_size);
            return RB_EINVAL;
        }
        if (rb__align_check(d.align, d.pattern, have, d.read_size, why, wl) != RB_OK) return RB_EINVAL;
        need += RB__MIN(rb_cell_memory(&c, g->groups[i].s), UINT64_MAX / 32);
    }
    if (room < 0 || (need <= (uint64_t)room && (uint64_t)room - need >= margin)) return RB_OK;
    rb__mem_text(need, a, sizeof a);
    rb__mem_text((uint64_t)room, b, sizeof b);
    rb__fmt(why, wl, "the groups' buffers need %s, more than the %s this process may use less 16 MiB", a, b);
    return RB_ENOMEM;
}

/* The together run: every group's buffers at once. */
static uint64_t rb__groups_matrix_memory(const rb_matrix *m)
{
    const rb_groups_matrix *g = rb__gm(m);
    rb_config c, cell;
    uint64_t need = 0;
    unsigned i;
    rb__groups_cell_config(m, &cell);
    for (i = 0; i < g->n && i < RB_MAX_GROUPS; i++) {
        rb_group_config(&cell, &g->groups[i], i, &c);
        need += RB__MIN(rb_cell_memory(&c, g->groups[i].s), UINT64_MAX / 32);
    }
    return need;
}

/* The rows as rb_run_groups writes them, each named (rb__label). */
static unsigned rb__groups_matrix_rows(const rb_matrix *m, rb_result *rows, const rb_strategy **strat, char (*labels)[64])
{
    const rb_groups_matrix *g = rb__gm(m);
    rb_config cell;
    unsigned i, k;
    if (!rows) return rb_group_rows(g->n, g->alone);
    rb__groups_cell_config(m, &cell);
    for (i = 0; i < g->n; i++)
        for (k = RB_RUN_ALONE; k <= RB_RUN_TOGETHER; k++) {
            unsigned row = rb__group_row(i, (int)k, g->alone);
            rb_result *x = &rows[row];
            double *store = (double *)x->samples;
            if ((k == RB_RUN_ALONE) ? g->alone == RB_ALONE_NO : g->alone == RB_ALONE_ONLY) continue;
            rb__group_row_init(x, &cell, &g->groups[i], i, g->n, (int)k);
            x->samples = store;
            strat[row] = g->groups[i].s;
            rb__label(x, labels[row], sizeof labels[row]);
        }
    return rb_group_rows(g->n, g->alone);
}

/* One round: one rb_run_groups (alone runs, then together) into out. */
static int rb__groups_matrix_round(const rb_matrix *m, const rb_config *cell, rb_result *out, unsigned round,
                                   unsigned rounds)
{
    const rb_groups_matrix *g = rb__gm(m);
    rb__groups G;
    rb_config c;
    rb__groups_cell_config(m, &c);
    c.ident = cell->ident;
    memset(&G, 0, sizeof G);
    G.cfg = &c;
    G.g = g->groups;
    G.n = g->n;
    G.alone = g->alone;
    G.out = out;
    G.progress = m->progress;
    G.user = m->user;
    G.round = round;
    G.rounds = rounds;
    return rb__groups_run(&G) == RB_EINTR;
}

/* After the last round: each together row over its alone row, and the groups for the report. */
static void rb__groups_matrix_finish(const rb_matrix *m, rb_result *rows, unsigned nrows, rb_report *rep)
{
    const rb_groups_matrix *g = rb__gm(m);
    (void)nrows;
    rb__group_ratios(rows, g->n, g->alone);
    rep->ngroups = g->n;
    rep->alone = g->alone;
}

RBDEF void rb_groups_attach(rb_matrix *m, rb_groups_matrix *g, const rb_group *groups, unsigned n, int alone)
{
    memset(g, 0, sizeof *g);
    g->groups = groups;
    g->n = n;
    g->alone = alone;
    g->hook.check = rb__groups_matrix_check;
    g->hook.memory = rb__groups_matrix_memory;
    g->hook.rows = rb__groups_matrix_rows;
    g->hook.round = rb__groups_matrix_round;
    g->hook.finish = rb__groups_matrix_finish;
    g->hook.user = g;
    m->hook = groups && n ? &g->hook : NULL;
}

/* ==== 3.3 the prefetch experiment ============================================================= */

/*
   The mapping is MADV_RANDOM unless asked otherwise: Lucene read a 100 GB file with 128 KiB
   readahead; with a 4 GiB file and an 8 MiB read_ahead_kb, NORMAL read-around would cache
   the whole file within a few hundred faults and the "does not fit" case would turn warm. */
typedef struct rb__pfx_thread {
    rb__barrier *bar;      /* the pool's: the threads start together (rb__pool_start) */
    const rb_pfx_config *c;
    unsigned index;
    unsigned char *map;
    uint64_t len;
    rb_prefetcher pf;
    rb_prefetch_accounting pa;   /* what became of this clone's hints */
    rb__pa_follow paf;
    rb_hist with, without;
    uint64_t sink;
    int check_hits;         /* mincore tells the truth here: count the reads that hit */
    uint64_t checked, hit;
    int changed;            /* a SIGBUS: the file was truncated under the mapping */
    unsigned done;          /* ops completed; fewer than asked: stopped (rb_pfx_config.stop) */
} rb__pfx_thread;

/* Before the op's hints and outside its timing: was each read's page resident? */
static void rb__pfx_count_hits(rb__pfx_thread *th, const uint64_t *off)
{
    size_t page = th->pf.page;
    unsigned j;
    for (j = 0; j < 3; j++) {
        int r = rb__mincore_resident((void *)(uintptr_t)page, th->map + off[j] / page * page, 1);
        if (r < 0) continue;
        th->checked++;
        th->hit += r == 1;
    }
}

/* The accounting follows the experiment's hints as it follows a run's, but its checks are
   not what the experiment measures (the cost of a hint, a few hundred ns when cached): each
   helper returns the ns it spent on the accounting, which the op's time leaves out. */
static uint64_t rb__pfx_hinted(rb__pfx_thread *th, unsigned j, uint64_t off)
{
    uint64_t start, alen, t0;
    if (!rb__pa_follows_next(&th->paf)) {   /* counted, not followed */
        rb__pa_hint(&th->pa, &th->paf, j, 0, 0);
        return 0;
    }
    t0 = rb__now_ns();
    if (rb_page_range(off, 1, th->pf.page, th->len, &start, &alen)) rb__pa_hint(&th->pa, &th->paf, j, start, alen);
    return rb__now_ns() - t0;
}

/* Read j (16 bytes at off[j]) into b, classifying its hint if it was followed; the read
   itself stays in the op's time. */
static uint64_t rb__pfx_read(rb__pfx_thread *th, unsigned j, uint64_t off, unsigned char *b)
{
    uint64_t t0 = rb__now_ns(), r0, r1;
    int timed = rb__pa_read_start(&th->pa, &th->paf, j);
    r0 = rb__now_ns();
    memcpy(b, th->map + off, 16);
    r1 = rb__now_ns();
    if (timed) rb__pa_read_end(&th->pa, &th->paf, r1 - r0);
    return (r0 - t0) + (rb__now_ns() - r1);
}

static void *rb__pfx_main(void *arg)
{
    rb__pfx_thread *th = (rb__pfx_thread *)arg;
    uint64_t rng[4], off[3];
    unsigned char b[3][16];
    unsigned it, j;
    sigjmp_buf jb;
    rb__rng_seed(rng, th->c->seed, 1000 + th->index);
    rb__barrier_wait(th->bar);
    if (sigsetjmp(jb, 1) != 0) {   /* back from a SIGBUS in the copy below */
        rb__sigbus_jmp = NULL;
        th->changed = 1;
        return NULL;
    }
    rb__sigbus_jmp = &jb;
    for (it = 0; it < th->c->ops; it++) {
        int prefetch = (it & 1u) == 0;
        uint64_t t0, t1;
        if ((it & 255u) == 0 && th->c->stop && __atomic_load_n(th->c->stop, __ATOMIC_RELAXED)) break;
        for (j = 0; j < 3; j++) off[j] = rb__below(rng, th->len - 16);
        if (th->check_hits) rb__pfx_count_hits(th, off);
        t0 = rb__now_ns();
        for (j = 0; prefetch && j < 3; j++)
            if (rb_prefetch(&th->pf, off[j], 1) == 1) t0 += rb__pfx_hinted(th, j, off[j]);
        for (j = 0; j < 3; j++) {
            if (th->paf.npending) t0 += rb__pfx_read(th, j, off[j], b[j]);
            else memcpy(b[j], th->map + off[j], 16);
            th->sink += b[j][15];
        }
        t1 = rb__now_ns();
        rb__pa_end(&th->pa, &th->paf);
        rb_hist_record(prefetch ? &th->with : &th->without, t1 - t0);
    }
    th->done = it;
    rb__sigbus_jmp = NULL;
    return NULL;
}

/* What a caller can get wrong before anything is opened: policy 99 used to run as "always". */
static int rb__pfx_check(const rb_pfx_config *cfg, int policy, int fits, rb_pfx_result *out)
{
    if (cfg && cfg->path && policy >= 0 && policy < RB_PF_COUNT && (fits == 0 || fits == 1)) return RB_OK;
    memset(out, 0, sizeof *out);
    out->policy = policy;
    out->fits = fits;
    out->status = RB_EINVAL;
    if (!cfg || !cfg->path) rb__fmt(out->reason, sizeof out->reason, "no %s given (NULL)", cfg ? "file path" : "configuration");
    else if (policy < 0 || policy >= RB_PF_COUNT)
        rb__fmt(out->reason, sizeof out->reason, "no prefetch policy %d (0..%d)", policy, RB_PF_COUNT - 1);
    else rb__fmt(out->reason, sizeof out->reason, "fits must be 0 (not cached) or 1 (fits), not %d", fits);
    return RB_EINVAL;
}

/* The fraction of [map, map + len)'s pages in the page cache; -1 if mincore cannot tell. */
static double rb__pfx_residency(const unsigned char *map, uint64_t len, int trusted)
{
    return trusted ? rb__mincore_fraction((void *)(uintptr_t)rb__page_size(), map, (size_t)len) : -1;
}

/* "Not cached" must stay cold: the run loads at most threads x ops x 3 pages on a RANDOM
   mapping (a read or a one-page hint each), so ops per thread stay under 5% of the file's
   pages / (3 x threads); later reads then hit at most 5% (about half that on average). */
static unsigned rb__pfx_cold_ops(unsigned ops, unsigned threads, uint64_t len)
{
    uint64_t cap = len / 20 / (3 * (uint64_t)rb__page_size() * threads);
    return cap < ops ? (unsigned)RB__MAX(cap, (uint64_t)1) : ops;
}

/* The figures after the run, and whether the case was what its name says; a failed hint or
   residency check fails the case (its numbers would describe hints that were not given). */
static void rb__pfx_verdict(rb_pfx_result *out, rb__pfx_thread **th, unsigned n, const unsigned char *map,
                            uint64_t len, int trusted)
{
    unsigned i;
    int e0 = 0;
    out->resident_after = rb__pfx_residency(map, len, trusted);
    for (i = 0; i < n; i++) {
        out->reads_checked += th[i]->checked;
        out->reads_hit += th[i]->hit;
    }
    if (!trusted)
        rb__fmt(out->warning, sizeof out->warning, "residency and hits unknown: mincore would report every "
                "page resident to a user who neither owns nor may write the file");
    else if (!out->fits && out->reads_checked && out->reads_hit * 20 >= out->reads_checked)
        rb__fmt(out->warning, sizeof out->warning, "not cached, yet %.1f%% of the reads hit (5%% or more): "
                "the file is too small for %u ops per thread%s", 100.0 * (double)out->reads_hit / (double)out->reads_checked,
                out->ops, out->ops < out->ops_asked ? " (already capped)" : "");
    else if (out->fits && out->reads_checked && out->reads_hit * 20 < out->reads_checked * 19)
        rb__fmt(out->warning, sizeof out->warning, "fits, yet only %.1f%% of the reads hit: the prewarm did not hold",
                100.0 * (double)out->reads_hit / (double)out->reads_checked);
    if (!out->st.failed && !out->st.mincore_failed) return;
    out->status = RB_ESYS;
    for (i = 0; i < n && !e0; i++) e0 = th[i]->pf.last_errno;
    rb__fmt(out->reason, sizeof out->reason, "%llu madvise and %llu mincore calls failed (%s)",
             (unsigned long long)out->st.failed, (unsigned long long)out->st.mincore_failed, strerror(e0));
}

static void *rb__pfx_arg(void *ctx, unsigned i) { return ((rb__pfx_thread **)ctx)[i]; }

/* Phase 1: the cache state the case names (evicted; for "fits" the slice read back in), set
   before the mapping exists so nothing of ours maps the file yet; then the mapping. NULL with
   out->status set when something fails. */
static unsigned char *rb__pfx_prepare(rb_pfx_config *c, int fits, rb_pfx_result *out, uint64_t *len_out,
                                      int *trusted, int *fd_out)
{
    rb_error e;
    struct stat st;
    uint64_t len, t0;
    unsigned char *map;
    int fd = rb__open_regular(c->path, 0, &st, &e);
    if (fd < 0) {
        out->status = e.status;
        rb__fmt(out->reason, sizeof out->reason, "%s", e.msg);
        return NULL;
    }
    *trusted = rb__plat_mincore_trusted(&st, c->path);
    len = fits ? RB__MIN(c->slice, (uint64_t)st.st_size) : (uint64_t)st.st_size;
    if (!fits) out->ops = c->ops = rb__pfx_cold_ops(c->ops, c->threads, len);
    if (len < 4096) {
        close(fd);
        out->status = RB_ETOOSMALL;
        rb__fmt(out->reason, sizeof out->reason, "the file is too small for this experiment");
        return NULL;
    }
    t0 = rb__now_ns();
    if (rb_evict(c->path, &e) != RB_OK) {
        close(fd);
        out->status = e.status;
        rb__fmt(out->reason, sizeof out->reason, "%s", e.msg);
        return NULL;
    }
    if (fits) {   /* read the slice into the cache */
        unsigned char *buf = (unsigned char *)malloc(1 << 20);
        uint64_t o;
        for (o = 0; buf && o < len; o += 1 << 20)
            if (pread(fd, buf, (size_t)RB__MIN((uint64_t)1 << 20, len - o), (off_t)o) < 0) break;
        free(buf);
    }
    out->prepare_seconds = (double)(rb__now_ns() - t0) / 1e9;
    map = (unsigned char *)mmap(NULL, (size_t)len, PROT_READ, MAP_SHARED, fd, 0);
    if (map == (unsigned char *)MAP_FAILED) {
        out->status = RB_ESYS;
        rb__fmt(out->reason, sizeof out->reason, "mmap: %s", strerror(errno));
        close(fd);
        return NULL;
    }
    if (!c->normal_mapping && madvise(map, (size_t)len, MADV_RANDOM) != 0) {
        out->status = RB_ESYS;
        rb__fmt(out->reason, sizeof out->reason, "madvise(MADV_RANDOM): %s", strerror(errno));
        munmap(map, (size_t)len);
        close(fd);
        return NULL;
    }
    *len_out = len;
    *fd_out = fd;   /* kept open for the accounting's cachestat */
    return map;
}

/* Phase 2: a block per thread (cache-line aligned), each reading through its own clone:
   backoff's counter is the clone's (#13381), backoff-shared's the file's (#15585). NULL
   entries where memory ran out; NULL if even the array did not fit. */
static rb__pfx_thread **rb__pfx_threads_make(const rb_pfx_config *c, int policy, unsigned char *map,
                                             uint64_t len, int trusted, int fd, rb__pool *pool, uint64_t *counter)
{
    rb__pfx_thread **th = (rb__pfx_thread **)calloc(c->threads, sizeof *th);
    unsigned i;
    for (i = 0; th && i < c->threads; i++) {
        th[i] = (rb__pfx_thread *)rb__aligned_alloc(64, sizeof(rb__pfx_thread));
        if (!th[i]) break;
        memset(th[i], 0, sizeof(rb__pfx_thread));
        th[i]->bar = &pool->bar;
        th[i]->c = c;
        th[i]->index = i;
        th[i]->map = map;
        th[i]->len = len;
        rb_hist_init(&th[i]->with);
        rb_hist_init(&th[i]->without);
        rb_prefetcher_init(&th[i]->pf, policy, map, len, counter);
        th[i]->pf.trust_mincore = trusted;
        th[i]->check_hits = trusted;
        rb__pa_follow_init(&th[i]->paf, map, th[i]->pf.page, fd, trusted, c->seed, 1000 + i);
    }
    return th;
}

/* Phase 3: the threads run (released together, timed from the barrier to the last join);
   a thread that could not be made ends the case, the started ones run and are dropped. */
static void rb__pfx_run(rb_pfx_result *out, rb__pool *pool, rb__pfx_thread **th, unsigned n)
{
    struct sigaction old_bus;
    int bus = rb__sigbus_install(&old_bus), rc;
    char why[RB_REASON_LEN];
    uint64_t t0;
    unsigned i;
    if ((rc = rb__pool_start(pool, n, rb__pfx_main, rb__pfx_arg, th, why, sizeof why)) != RB_OK) {
        out->status = rc;
        rb__fmt(out->reason, sizeof out->reason, "%s", why);
    }
    if (pool->tid) rb__barrier_wait(&pool->bar);   /* no tid: no thread and no barrier either */
    t0 = rb__now_ns();
    rb__pool_join(pool);
    out->seconds = (double)(rb__now_ns() - t0) / 1e9;
    if (bus && sigaction(SIGBUS, &old_bus, NULL) != 0 && out->status == RB_OK) {
        out->status = RB_ESYS;
        rb__fmt(out->reason, sizeof out->reason, "restoring the SIGBUS handler: %s", strerror(errno));
    }
    for (i = 0; out->status == RB_OK && i < n; i++)
        if (th[i]->changed) {
            out->status = RB_ECHANGED;
            rb__fmt(out->reason, sizeof out->reason, "%s", RB__SIGBUS_WHY);
        }
    for (i = 0; out->status == RB_OK && i < n; i++)
        if (th[i]->done < out->ops) {   /* the stop flag: part of the ops is no result */
            out->status = RB_EINTR;
            rb__fmt(out->reason, sizeof out->reason, "stopped by a signal after %u of its %u ops per thread: not a "
                    "result", th[i]->done, out->ops);
        }
}

/* Phase 4: the threads' histograms and counters into the result. */
static void rb__pfx_merge(rb_pfx_result *out, rb__pfx_thread **th, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++) {
        rb_hist_merge(&out->with, &th[i]->with);
        rb_hist_merge(&out->without, &th[i]->without);
        rb__pf_stats_add(&out->st, &th[i]->pf.st);
        rb__pa_add(&out->prefetch_accounting, &th[i]->pa);
    }
}

RBDEF int rb_prefetch_experiment(const rb_pfx_config *cfg, int policy, int fits, rb_pfx_result *out)
{
    rb_pfx_config c;
    rb__pool pool;
    rb__pfx_thread **th;
    struct { char before[64]; uint64_t v; char after[56]; } counter;   /* backoff-shared's: a line of its own */
    uint64_t len = 0;
    unsigned char *map;
    unsigned i;
    int trusted = 0, fd = -1;

    if (!out) return RB_EINVAL;
    if (rb__pfx_check(cfg, policy, fits, out) != RB_OK) return RB_EINVAL;
    memset(&counter, 0, sizeof counter);
    c = *cfg;
    if (!c.threads) c.threads = 1;
    if (!c.ops) c.ops = 100000;
    if (!c.slice) c.slice = (uint64_t)16 << 20;
    memset(out, 0, sizeof *out);
    out->policy = policy;
    out->fits = fits;
    out->threads = c.threads;
    out->ops = out->ops_asked = c.ops;
    out->resident_before = out->resident_after = -1;
    rb_hist_init(&out->with);
    rb_hist_init(&out->without);
    if ((map = rb__pfx_prepare(&c, fits, out, &len, &trusted, &fd)) == NULL) return out->status;
    out->resident_before = rb__pfx_residency(map, len, trusted);
    th = rb__pfx_threads_make(&c, policy, map, len, trusted, fd, &pool, &counter.v);
    for (i = 0; th && i < c.threads && th[i]; i++) {}
    if (!th || i < c.threads) {
        out->status = RB_ENOMEM;
        rb__fmt(out->reason, sizeof out->reason, "out of memory");
    } else {
        rb__pfx_run(out, &pool, th, c.threads);
        if (out->status == RB_OK) {
            rb__pfx_merge(out, th, c.threads);
            rb__pfx_verdict(out, th, c.threads, map, len, trusted);
        }
    }
    for (i = 0; th && i < c.threads; i++) free(th[i]);
    free(th);
    if (munmap(map, (size_t)len) != 0 && out->status == RB_OK) {
        out->status = RB_ESYS;
        rb__fmt(out->reason, sizeof out->reason, "munmap: %s", strerror(errno));
    }
    if (close(fd) != 0 && out->status == RB_OK) {
        out->status = RB_ESYS;
        rb__fmt(out->reason, sizeof out->reason, "close: %s", strerror(errno));
    }
    return out->status;
}

/* Every policy of the settings, each not cached then fitting in the cache, with its progress. */
RBDEF unsigned rb_prefetch_experiments(const rb_pfx_settings *s, rb_pfx_result *out, FILE *progress,
                                       unsigned *failed)
{
    unsigned i, n = 0, np = s->npolicies ? s->npolicies : (unsigned)RB_PF_COUNT;
    int fits, st;
    *failed = 0;
    for (i = 0; i < np; i++)
        for (fits = 0; fits < 2; fits++) {
            int policy = s->npolicies ? s->policies[i] : (int)i;
            if (s->cfg.stop && *s->cfg.stop) {   /* interrupted: the rest is said, not run */
                memset(&out[n], 0, sizeof out[n]);
                out[n].policy = policy;
                out[n].fits = fits;
                out[n].status = RB_ENOTRUN;
                out[n].resident_before = out[n].resident_after = -1;
                rb_hist_init(&out[n].with);
                rb_hist_init(&out[n].without);
                rb__fmt(out[n].reason, sizeof out[n].reason, "the experiment was interrupted before this case");
                n++;
                continue;
            }
            if (progress) rb_report_prefetch_progress(progress, policy, fits, NULL);
            rb_prefetch_experiment(&s->cfg, policy, fits, &out[n]);
            if (progress) rb_report_prefetch_progress(progress, policy, fits, &out[n]);
            st = out[n++].status;
            *failed += st != RB_OK && st != RB_EINTR && st != RB_ENOTRUN;
        }
    return n;
}

/* A fraction (unknown below 0: null) as JSON, and as a table cell in percent. */
static void rb__pfx_json_fraction(FILE *f, const char *key, double v)
{
    fprintf(f, ", \"%s\": ", key);
    if (v < 0) fputs("null", f);
    else rb__json_num(f, v);
}

static void rb__pfx_pct_cell(FILE *f, double v)
{
    if (v < 0) fprintf(f, " %6s", "?");
    else fprintf(f, " %5.1f%%", 100.0 * v);
}

/* Residency before and after, and the reads that hit (the case's own figures, in both rows). */
static void rb__report_pfx_hits_json(FILE *f, const rb_pfx_result *x)
{
    fprintf(f, ", \"ops_asked\": %u", x->ops_asked);
    rb__pfx_json_fraction(f, "resident_before", x->resident_before);
    rb__pfx_json_fraction(f, "resident_after", x->resident_after);
    fprintf(f, ", \"reads_checked\": %llu, \"reads_hit\": %llu", (unsigned long long)x->reads_checked,
            (unsigned long long)x->reads_hit);
    rb__pfx_json_fraction(f, "hit_fraction", x->reads_checked ? (double)x->reads_hit / (double)x->reads_checked : -1);
    fputs(", \"warning\": ", f);
    rb__json_str_or_null(f, x->warning);
}

/* The prefetch experiment's report: one row per (policy, fits), with and without prefetch
   side by side (table), or one JSON row per (policy, fits, prefetch). */
static void rb__report_prefetch(FILE *f, const rb_pfx_result *r, unsigned n, int format, const rb_env *env)
{
    static const double pct[] = {50, 90, 99};
    unsigned i, k, w;
    char cell[32];
    if (format == RB_FORMAT_JSON) {
        for (i = 0, k = 0; i < n; i++) k |= r[i].status == RB_EINTR || r[i].status == RB_ENOTRUN;
        fprintf(f, "{\"readbench\": \"%s\", \"experiment\": \"prefetch\", \"interrupted\": %s,\n \"env\": ", RB_VERSION,
                k ? "true" : "false");
        if (env) rb__env_json(f, env);
        else fputs("null", f);
        fprintf(f, ",\n \"results\": [");
        for (i = 0; i < n; i++)
            for (w = 0; w < 2; w++) {
                const rb_hist *h = w ? &r[i].without : &r[i].with;
                fprintf(f, "%s\n  {\"policy\": \"%s\", \"fits\": %s, \"prefetch\": %s, \"threads\": %u, "
                           "\"ops\": %llu, \"status\": \"%s\", \"reason\": ",
                        i || w ? "," : "", rb_prefetch_policy_name(r[i].policy), r[i].fits ? "true" : "false",
                        w ? "false" : "true", r[i].threads, (unsigned long long)rb_hist_total(h),
                        rb_status_word(r[i].status));
                rb__json_str_or_null(f, r[i].reason);
                if (r[i].status != RB_OK) {   /* every key in every row: unknown is null */
                    fprintf(f, ", \"lat_ns\": null, \"calls\": null, \"skips\": null, \"mincore_calls\": null, "
                               "\"advises\": null, \"failed\": null, \"mincore_failed\": null, \"seconds\": null, "
                               "\"ops_asked\": null, \"resident_before\": null, \"resident_after\": null, "
                               "\"reads_checked\": null, \"reads_hit\": null, \"hit_fraction\": null, \"warning\": null, "
                               "\"prefetch_accounting\": null}");
                    continue;
                }
                fprintf(f, ", \"lat_ns\": {\"min\": %llu, \"mean\": ", (unsigned long long)h->min);
                rb__json_num(f, rb_hist_mean(h));
                for (k = 0; k < 3; k++)
                    fprintf(f, ", \"p%g\": %llu", pct[k], (unsigned long long)rb_hist_percentile(h, pct[k]));
                fprintf(f, ", \"p99.9\": %llu, \"max\": %llu}", (unsigned long long)rb_hist_percentile(h, 99.9),
                        (unsigned long long)h->max);
                fprintf(f, ", \"calls\": %llu, \"skips\": %llu, \"mincore_calls\": %llu, \"advises\": %llu, "
                           "\"failed\": %llu, \"mincore_failed\": %llu, \"seconds\": ",
                        (unsigned long long)r[i].st.calls, (unsigned long long)r[i].st.skips,
                        (unsigned long long)r[i].st.mincore_calls, (unsigned long long)r[i].st.advises,
                        (unsigned long long)r[i].st.failed, (unsigned long long)r[i].st.mincore_failed);
                rb__json_num(f, r[i].seconds);
                rb__report_pfx_hits_json(f, &r[i]);
                rb__json_accounting(f, &r[i].prefetch_accounting, !w);   /* the hinted ops' row has the hints */
                fputc('}', f);
            }
        fprintf(f, "\n ]}\n");
        return;
    }
    fprintf(f, "prefetch overhead: per op 3 random 16-byte reads; even ops hint all 3 first, odd ops do not;\n"
               "ops per thread in the ops column (not cached: capped to stay cold), %u thread%s; latency per op in ns;\n"
               "resident: of the range read, before and after; hits: reads whose page was resident before the op;\n"
               "hints r/u/l/w: what became of the hints, in %% of those followed (one in %u): redundant, useful, late, "
               "wasted\n\n",
            n ? r[0].threads : 0, n && r[0].threads == 1 ? "" : "s", RB_PA_EVERY);
    fprintf(f, "%-18s %-11s | %9s %9s %9s | %9s %9s %9s | %8s %8s %8s %8s %6s | %7s %7s %7s %7s | %s\n", "policy",
            "data", "with p50", "p90", "p99", "w/o p50", "p90", "p99", "calls", "skips", "mincore", "advises", "failed",
            "ops", "res bef", "res aft", "hits", "hints r/u/l/w %");
    for (i = 0; i < n; i++) {
        fprintf(f, "%-18s %-11s | ", rb_prefetch_policy_name(r[i].policy), r[i].fits ? "fits" : "not cached");
        if (r[i].status != RB_OK) { rb__status_reason(f, r[i].status, r[i].reason); continue; }
        for (k = 0; k < 3; k++) fprintf(f, "%9llu ", (unsigned long long)rb_hist_percentile(&r[i].with, pct[k]));
        fprintf(f, "| ");
        for (k = 0; k < 3; k++) fprintf(f, "%9llu ", (unsigned long long)rb_hist_percentile(&r[i].without, pct[k]));
        fprintf(f, "| %8llu %8llu %8llu %8llu %6llu", (unsigned long long)r[i].st.calls,
                (unsigned long long)r[i].st.skips, (unsigned long long)r[i].st.mincore_calls,
                (unsigned long long)r[i].st.advises, (unsigned long long)r[i].st.failed);
        fprintf(f, " | %7u", r[i].ops);
        rb__pfx_pct_cell(f, r[i].resident_before);
        rb__pfx_pct_cell(f, r[i].resident_after);
        rb__pfx_pct_cell(f, r[i].reads_checked ? (double)r[i].reads_hit / (double)r[i].reads_checked : -1);
        rb__pa_cell(&r[i].prefetch_accounting, cell);
        fprintf(f, " | %s", cell);
        if (r[i].st.mincore_failed) fprintf(f, " (%llu mincore failed)", (unsigned long long)r[i].st.mincore_failed);
        fputc('\n', f);
        if (r[i].warning[0]) fprintf(f, "  warning: %s\n", r[i].warning);
    }
}

/* The panel's heading names what became of each policy's hints (prefetch accounting):
   "hints redundant/useful/late/wasted %: always 0/62/38/0, ..." after the panel's own words. */
static void rb__pfx_svg_hints(rb__panel *p, const rb_pfx_result *x)
{
    char cell[32];
    size_t len = strlen(p->heading);
    if (x->status != RB_OK || !x->prefetch_accounting.hints || len + 2 >= sizeof p->heading) return;
    rb__pa_cell(&x->prefetch_accounting, cell);
    snprintf(p->heading + len, sizeof p->heading - len, "%s%s %s", strstr(p->heading, "hints redundant/") ? ", "
             : " \xc2\xb7 hints redundant/useful/late/wasted %: ", rb_prefetch_policy_name(x->policy), cell);
}

static void rb__report_prefetch_svg(FILE *f, const rb_pfx_result *r, unsigned n, const char *title,
                                    int log_scale, const rb_env *env)
{
    /* panels: fits, not cached; groups: the policies in the order they ran; bars: with, without */
    const char *groups[RB_PF_COUNT];
    int gpol[RB_PF_COUNT];
    rb__bar bars[2][RB_PF_COUNT * 2];
    rb__panel p[2];
    unsigned ng = 0, i, k, w;
    char envl[1536], cfg[512];
    memset(p, 0, sizeof p);
    memset(bars, 0, sizeof bars);
    for (i = 0; i < n; i++) {
        for (k = 0; k < ng && gpol[k] != r[i].policy; k++) {}
        if (k == ng && ng < RB_PF_COUNT) {
            gpol[ng] = r[i].policy;
            groups[ng++] = rb_prefetch_policy_name(r[i].policy);
        }
    }
    for (k = 0; k < 2; k++) {
        snprintf(p[k].heading, sizeof p[k].heading, "%s", k == 0 ? "data fits in the page cache (a 16 MiB slice, "
                 "read in first)" : "data not cached (the whole file, evicted first)");
        p[k].groups = groups;
        p[k].ngroups = ng;
        p[k].nseries = 2;
        snprintf(p[k].series[0], sizeof p[k].series[0], "with prefetch");
        snprintf(p[k].series[1], sizeof p[k].series[1], "without");
        p[k].bars = bars[k];
        for (i = 0; i < ng * 2; i++) { bars[k][i].missing = 1; bars[k][i].why = "not run"; }
    }
    for (i = 0; i < n; i++) {
        unsigned panel = r[i].fits ? 0 : 1;
        for (k = 0; k < ng && gpol[k] != r[i].policy; k++) {}
        if (k == ng) continue;
        rb__pfx_svg_hints(&p[panel], &r[i]);
        for (w = 0; w < 2; w++) {
            rb__bar *b = &bars[panel][k * 2 + w];
            const rb_hist *h = w ? &r[i].without : &r[i].with;
            b->status = r[i].status;
            b->missing = 0;
            b->why = r[i].reason;
            b->lo = 1;
            b->hi = 0;
            if (r[i].status != RB_OK || !rb_hist_total(h)) continue;
            /* p99 stays in the table: one descheduled op would set the scale and flatten the bars */
            b->v = b->lo = (double)rb_hist_percentile(h, 50) / 1e3;
            b->hi = (double)rb_hist_percentile(h, 90) / 1e3;
        }
    }
    rb__svg_env_line(env, envl, sizeof envl);
    snprintf(cfg, sizeof cfg, "per op 3 random 16-byte reads; even ops hint all 3 through the policy first, odd ops "
             "do not \xc2\xb7 %u ops per thread, %u thread%s \xc2\xb7 readbench %s", n ? r[0].ops : 0,
             n ? r[0].threads : 0, n && r[0].threads == 1 ? "" : "s", RB_VERSION);
    rb__svg_doc(f, title && *title ? title : "readbench prefetch: the cost and benefit of a hint", envl, cfg, p, 2,
                "latency per op, \xc2\xb5s, lower is better", "bar: p50; whisker: up to p90", log_scale);
}

static void rb__report_prefetch_progress(FILE *f, int policy, int fits, const rb_pfx_result *x)
{
    if (!x) fprintf(f, "%-18s %-11s ... ", rb_prefetch_policy_name(policy), fits ? "fits" : "not cached");
    else if (x->status != RB_OK) fprintf(f, "ERROR: %s\n", x->reason);
    else fprintf(f, "p50 %llu ns with, %llu ns without (%.1f s; %s %.2f s; %llu of %llu reads hit)%s%s\n",
                 (unsigned long long)rb_hist_percentile(&x->with, 50),
                 (unsigned long long)rb_hist_percentile(&x->without, 50), x->seconds,
                 fits ? "prewarm" : "evict", x->prepare_seconds, (unsigned long long)x->reads_hit,
                 (unsigned long long)x->reads_checked, x->warning[0] ? ": " : "", x->warning);
}

/* ==== 3.4 the readahead probe ================================================================= */

/*
   Reads touch the first byte of a page. Measured reads are 32 MiB apart and each is counted
   over a window from 12 MiB before it to 20 MiB after it (read-around is centered on the
   fault, SEQUENTIAL reads ahead of it), so no read ever sees another's readahead. The 100
   warm-up misses of cases 9-11 go to the first 1.6 GiB of the file, 16 MiB apart; the counted
   reads to the rest (from 1632 MiB on: such cases need a 2 GiB file). Counting uses cachestat over the window (mincore where cachestat
   is missing), so it needs neither perf nor root. */
#define RB__PROBE_MIB ((uint64_t)1 << 20)

typedef struct rb__probe {
    const char *path;
    uint64_t size;
    long ra_pages;            /* read_ahead_kb / page, -1 unknown */
    size_t page;
    int fds[2];
    unsigned char *maps[2];
    char why[RB_REASON_LEN];
    int changed;              /* a read raised SIGBUS: the file was truncated under the mapping */
    long cap_pages;           /* what one WILLNEED loads at most: max(ra_pages, max_sectors_kb in pages) */
    long expected2;           /* the cases with a second count: what it should be */
    int owner;                /* may write the file or owns it: MADV_PAGEOUT reclaims its pages */
} rb__probe;

/* The cached pages of [lo, hi); -1 if they cannot be counted. */
static long rb__probe_count_range(rb__probe *pr, uint64_t lo, uint64_t hi)
{
    hi = RB__MIN(pr->size, hi);
    {   /* cachestat where the kernel has it */
        struct rb__cachestat cs;
        int fd = rb__open_regular(pr->path, 0, NULL, NULL);
        if (fd >= 0 && rb__plat_cachestat(fd, lo, hi - lo, &cs) == RB_OK) { close(fd); return (long)cs.nr_cache; }
        if (fd >= 0) close(fd);
    }
    {   /* else mincore over a mapping of the window */
        int fd = rb__open_regular(pr->path, 0, NULL, NULL);
        size_t n = (size_t)((hi - lo) / pr->page), i;
        unsigned char *m, *vec = (unsigned char *)malloc(n ? n : 1);
        long c = 0;
        if (fd < 0 || !vec) { if (fd >= 0) close(fd); free(vec); return -1; }
        m = (unsigned char *)mmap(NULL, (size_t)(hi - lo), PROT_READ, MAP_SHARED, fd, (off_t)lo);
        close(fd);
        if (m == (unsigned char *)MAP_FAILED) { free(vec); return -1; }
        if (rb__plat_mincore(m, (size_t)(hi - lo), vec) != 0) c = -1;
        for (i = 0; c >= 0 && i < n; i++) c += vec[i] & 1u;
        munmap(m, (size_t)(hi - lo));
        free(vec);
        return c;
    }
}

/* The window one read at pos is counted over. */
static long rb__probe_count(rb__probe *pr, uint64_t pos)
{
    return rb__probe_count_range(pr, pos > 12 * RB__PROBE_MIB ? pos - 12 * RB__PROBE_MIB : 0, pos + 20 * RB__PROBE_MIB);
}

static int rb__probe_advise(rb__probe *pr, int k, int advice)
{
    if (madvise(pr->maps[k], (size_t)pr->size, advice) != 0) {
        rb__fmt(pr->why, sizeof pr->why, "madvise: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* Mapping k: its own open (its own struct file, so its own readahead state), advised. */
static int rb__probe_map(rb__probe *pr, int k, int advice)
{
    rb_error e;
    pr->fds[k] = rb__open_regular(pr->path, 0, NULL, &e);
    if (pr->fds[k] < 0) { rb__fmt(pr->why, sizeof pr->why, "%s", e.msg); return -1; }
    pr->maps[k] = (unsigned char *)mmap(NULL, (size_t)pr->size, PROT_READ, MAP_SHARED, pr->fds[k], 0);
    if (pr->maps[k] == (unsigned char *)MAP_FAILED) {
        pr->maps[k] = NULL;
        rb__fmt(pr->why, sizeof pr->why, "mmap: %s", strerror(errno));
        return -1;
    }
    return rb__probe_advise(pr, k, advice);
}

/* Mapping k made from mapping 0's descriptor: one struct file, so one readahead state
   (file->f_ra) under two mappings, each with its own advice. */
static int rb__probe_map_shared(rb__probe *pr, int k, int advice)
{
    pr->maps[k] = (unsigned char *)mmap(NULL, (size_t)pr->size, PROT_READ, MAP_SHARED, pr->fds[0], 0);
    if (pr->maps[k] == (unsigned char *)MAP_FAILED) {
        pr->maps[k] = NULL;
        rb__fmt(pr->why, sizeof pr->why, "mmap: %s", strerror(errno));
        return -1;
    }
    return rb__probe_advise(pr, k, advice);
}

static void rb__probe_unmap(rb__probe *pr)
{
    int k;
    for (k = 0; k < 2; k++) {
        if (pr->maps[k]) munmap(pr->maps[k], (size_t)pr->size);
        if (pr->fds[k] >= 0) close(pr->fds[k]);
        pr->maps[k] = NULL;
        pr->fds[k] = -1;
    }
}

/* A read of the byte at pos through mapping k: 0, or -1 after a SIGBUS (pos is past the
   file's end now: truncated under the mapping). */
static int rb__probe_read_byte(rb__probe *pr, int k, uint64_t pos)
{
    volatile unsigned char sink;
    sigjmp_buf jb;
    if (sigsetjmp(jb, 1) != 0) {   /* back from a SIGBUS */
        rb__sigbus_jmp = NULL;
        pr->changed = 1;
        rb__fmt(pr->why, sizeof pr->why, "%s", RB__SIGBUS_WHY);
        return -1;
    }
    rb__sigbus_jmp = &jb;
    sink = ((volatile unsigned char *)pr->maps[k])[pos];
    rb__sigbus_jmp = NULL;
    (void)sink;
    return 0;
}

/* One cold read through mapping k at pos: the pages it added around pos. */
static long rb__probe_touch(rb__probe *pr, int k, uint64_t pos)
{
    long before = rb__probe_count(pr, pos), after;
    if (rb__probe_read_byte(pr, k, pos) != 0) return -1;
    after = rb__probe_count(pr, pos);
    return before < 0 || after < 0 ? -1 : after - before;
}

/* Every page of [lo, hi) read through mapping k: the pages that added. */
static long rb__probe_touch_range(rb__probe *pr, int k, uint64_t lo, uint64_t hi)
{
    long before = rb__probe_count_range(pr, lo, hi), after;
    uint64_t pos;
    for (pos = lo; pos < hi; pos += pr->page)
        if (rb__probe_read_byte(pr, k, pos) != 0) return -1;
    after = rb__probe_count_range(pr, lo, hi);
    return before < 0 || after < 0 ? -1 : after - before;
}

/* A pread of one byte (a page with direct) through a fresh descriptor, after the hint
   (RB__HINT_*; where the platform has none the read goes unhinted). */
static long rb__probe_pread(rb__probe *pr, int hint, int direct, uint64_t pos)
{
    long before, after;
    unsigned char *buf = (unsigned char *)rb__aligned_alloc(pr->page, pr->page);
    int fd;
    ssize_t r;
    rb_error e;
    if (!buf) return -1;
    fd = rb__open_regular(pr->path, direct ? RB__O_DIRECT : 0, NULL, &e);
    if (fd < 0) { rb__fmt(pr->why, sizeof pr->why, "%s", e.msg); free(buf); return -2; }
    if (hint && rb__plat_fadvise(fd, hint) == RB_ESYS) {
        rb__fmt(pr->why, sizeof pr->why, "posix_fadvise failed");
        close(fd);
        free(buf);
        return -1;
    }
    before = rb__probe_count(pr, pos);
    r = pread(fd, buf, direct ? pr->page : 1, (off_t)pos);
    after = rb__probe_count(pr, pos);
    close(fd);
    free(buf);
    if (r < 0) { rb__fmt(pr->why, sizeof pr->why, "pread: %s", strerror(errno)); return -2; }
    return before < 0 || after < 0 ? -1 : after - before;
}

static const struct { const char *name, *description; } rb__probe_cases[RB_PROBE_CASES] = {
    {"1", "two mappings (two opens): RANDOM then SEQUENTIAL; read via RANDOM"},
    {"2", "two mappings (two opens): RANDOM then SEQUENTIAL; read via SEQUENTIAL"},
    {"3", "two mappings: SEQUENTIAL then RANDOM; read via SEQUENTIAL"},
    {"4", "two mappings: SEQUENTIAL then RANDOM; read via RANDOM"},
    {"5", "one mapping advised RANDOM, then SEQUENTIAL (last advice wins); read"},
    {"6", "one mapping advised SEQUENTIAL, then RANDOM; read"},
    {"7", "as 5, then the SEQUENTIAL user goes away (no re-advice); read"},
    {"8", "as 6, then the RANDOM user goes away; read"},
    {"9", "one NORMAL mapping: 100 cold reads, then 5 more (pages per read of the 5)"},
    {"10", "one SEQUENTIAL mapping: 100 cold reads, then 5 more"},
    {"11", "NORMAL and SEQUENTIAL mappings: 100 cold reads via NORMAL, then 5 via NORMAL and 5 via SEQUENTIAL"},
    {"pread", "pread of one byte, fresh descriptor"},
    {"pread-fadv-random", "pread after posix_fadvise(RANDOM)"},
    {"pread-fadv-sequential", "pread after posix_fadvise(SEQUENTIAL)"},
    {"direct", "pread with O_DIRECT (bypasses the page cache)"},
    {"willneed-64m", "one MADV_WILLNEED over the first 64 MiB of a NORMAL mapping: pages it loads"},
    {"willneed-1g", "one MADV_WILLNEED over the first 1 GiB of a NORMAL mapping: pages it loads"},
    {"fadvise-mapped", "POSIX_FADV_WILLNEED over 4 MiB of a file also mapped RANDOM; then every page read via the mapping"},
    {"one-fd-random", "two mappings of one descriptor: RANDOM, then SEQUENTIAL; read via RANDOM"},
    {"one-fd-sequential", "two mappings of one descriptor: RANDOM, then SEQUENTIAL; read via SEQUENTIAL"},
    {"pread-window", "8 sequential preads of read_ahead_kb/8 from the file's start: pages each adds"},
    {"cold-mapped-twice", "MADV_COLD on 4 MiB mapped twice (two RANDOM mappings, every page read): pages evicted"},
    {"pageout-mapped-twice", "MADV_PAGEOUT on 4 MiB mapped twice: pages evicted; then with one mapping left"},
};

RBDEF const char *rb_probe_case_name(int id)
{
    return id >= 1 && id <= RB_PROBE_CASES ? rb__probe_cases[id - 1].name : NULL;
}

/* Cases 9-11 put 100 warm-up misses 16 MiB apart before the counted reads: a 2 GiB file;
   willneed-1g hints the first 1 GiB. */
static uint64_t rb__probe_need(int id)
{
    return (id >= 9 && id <= 11 ? (uint64_t)2048 : id == 17 ? 1024 : 64) * RB__PROBE_MIB;
}

RBDEF int rb_probe_check(const char *path, int id, rb_error *err)
{
    char sp[RB__PATH_SHOWN];   /* the path as messages show it (rb__short_path) */
    struct stat st;
    rb_error e;
    int fd = rb__is_dir(path) ? -1 : rb__open_regular(path, 0, &st, &e);
    if (fd < 0 && rb__is_dir(path)) return rb__one_file_dir(path, "probe", err);
    if (fd < 0) {
        if (err) *err = e;
        return e.status;
    }
    close(fd);
    if ((uint64_t)st.st_size < rb__probe_need(id)) {
        rb__seterr(err, RB_ETOOSMALL, 0, "stat", "%s has %llu bytes: the probe%s%s needs %llu MiB",
                   rb__short_path(path, sp),
                   (unsigned long long)st.st_size, id ? " case " : "", id ? rb_probe_case_name(id) : "",
                   (unsigned long long)(rb__probe_need(id) >> 20));
        return RB_ETOOSMALL;
    }
    return RB_OK;
}

static long rb__probe_mean(rb__probe *pr, int k, uint64_t first, unsigned n)
{
    long total = 0, c;
    unsigned i;
    for (i = 0; i < n; i++) {
        if ((c = rb__probe_touch(pr, k, first + (uint64_t)i * 32 * RB__PROBE_MIB)) < 0) return -1;
        total += c;
    }
    return (total + (long)n / 2) / (long)n;
}

/* Phase 1 of a case: start from nothing cached (rb__evict_cold: pages still under I/O from the
   previous case's readahead survive one eviction). */
static int rb__probe_cold(const char *path, rb_probe_result *out)
{
    rb_error e;
    uint64_t left = 0;
    int no_backing = 0, rc = rb__evict_cold(path, &left, &no_backing, &e);
    if (rc != RB_OK) {
        out->status = rc == RB_EPERM ? RB_ESYS : rc;
        rb__fmt(out->reason, sizeof out->reason, "%s", e.msg);
    } else if (left && no_backing) {   /* no cold read can be made of a file that lives in the cache */
        out->status = RB_UNSUPPORTED;
        rb__fmt(out->reason, sizeof out->reason, "the file is on tmpfs or ramfs: the page cache is its only "
                "copy, so it cannot be evicted and no read of it is cold");
    } else if (left) {
        out->status = RB_ESYS;
        rb__fmt(out->reason, sizeof out->reason, "eviction did not evict: %llu pages stay cached (mapped by "
                "another process?)", (unsigned long long)left);
    }
    return out->status;
}

/* Last phase: observed against expected; a power-of-two mismatch is the folio effect (the
   page cache allocating large folios), not a wrong rule. */
static void rb__probe_verdict(const rb__probe *pr, int id, long obs, long obs2, long seq, rb_probe_result *out)
{
    unsigned i;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (out->expected_pages < 0) {
        out->status = RB_UNSUPPORTED;
        rb__fmt(out->reason, sizeof out->reason, "read_ahead_kb is unknown here: no expectation to compare with");
    }
    out->observed_pages = obs;
    out->agrees = obs == out->expected_pages;
    if (id == 11) {   /* both halves must agree: report the NORMAL half, say the other */
        out->agrees = obs == out->expected_pages && obs2 == seq;
        rb__fmt(out->reason, sizeof out->reason, "via NORMAL %ld pages per read, via SEQUENTIAL %ld", obs, obs2);
    }
    if (out->status != RB_OK) return;
    if (id == 18 || id == 22 || id == 23) {
        /* MADV_PAGEOUT skips pages not yet on an LRU list: a CPU's batch of up to 31 new pages
           waits there until drained, and madvise drains only the calling CPU's */
        long slack = id == 23 && cpus > 1 ? 31 * (cpus - 1) : 0;
        out->agrees = obs == out->expected_pages && obs2 <= pr->expected2 && obs2 + slack >= pr->expected2;
        if (id == 18)
            rb__fmt(out->reason, sizeof out->reason, "then the mapped reads added %ld pages (expected %ld)", obs2, pr->expected2);
        else
            rb__fmt(out->reason, sizeof out->reason, "mapped twice %ld pages left the cache; with one mapping left "
                    "%ld (expected %ld%s)", obs, obs2, pr->expected2, slack ? ", less up to 31 per other CPU" : "");
    }
    if (out->nseries) {   /* pread-window: each read's count must match */
        size_t n = 0;
        for (i = 0; i < out->nseries; i++) out->agrees &= out->expected_series[i] == out->observed_series[i];
        n += (size_t)snprintf(out->reason, sizeof out->reason, "pages per read: expected");
        for (i = 0; i < out->nseries && n < sizeof out->reason; i++)
            n += (size_t)snprintf(out->reason + n, sizeof out->reason - n, " %ld", out->expected_series[i]);
        for (i = 0; i < out->nseries && n < sizeof out->reason; i++)
            n += (size_t)snprintf(out->reason + n, sizeof out->reason - n, "%s %ld", i ? "" : ", observed",
                                  out->observed_series[i]);
    }
    if (!out->agrees && obs > 0 && out->expected_pages > 0) {
        long a = RB__MAX(obs, out->expected_pages), b = RB__MIN(obs, out->expected_pages);
        out->folio_effect = a % b == 0 && ((a / b) & (a / b - 1)) == 0;
    }
}

/* The window sizes of mm/readahead.c: get_init_ra_size (a first read of r pages opens a window
   of 4x, 2x, or the maximum) and get_next_ra_size (each next window 4x, 2x, then the maximum). */
static long rb__ra_init(long r, long max)
{
    long n = 1;
    while (n < r) n *= 2;   /* roundup_pow_of_two */
    return n <= max / 32 ? n * 4 : n <= max / 4 ? n * 2 : max;
}

static long rb__ra_next(long cur, long max) { return cur < max / 16 ? cur * 4 : cur <= max / 2 ? cur * 2 : max; }

/* The pages each of n sequential reads of r pages from the file's start adds, by the rules of
   mm/readahead.c (page_cache_sync_ra, page_cache_async_ra) with small folios: a read that misses
   opens a window of rb__ra_init(the rest of the read) pages there, its PG_readahead mark where
   the read ends (async_size = size - request, or half the window); a read that reaches the mark
   starts the next window where this one ends, rb__ra_next() pages, marked at its first page. */
static void rb__ra_series(long r, long max, unsigned n, long *out)
{
    long start = 0, size = 0, mark = -1, end = 0, p;
    unsigned i;
    for (i = 0; i < n; i++) {
        long a = (long)i * r, b = a + r, added = 0;
        for (p = a; p < b; p++) {
            if (p >= end) {   /* a miss: the file's start, or a sequential miss */
                long req = b - p;
                start = p;
                size = rb__ra_init(req, max);
                mark = start + size - (size > req ? size - req : size / 2);
                added += start + size - end;
                end = start + size;
            } else if (p == mark) {
                start += size;
                size = rb__ra_next(size, max);
                mark = start;
                added += size;
                end = start + size;
            }
        }
        out[i] = added;
    }
}

/* pread-window: 8 sequential preads of read_ahead_kb / 8 from the file's start through a fresh
   descriptor, the pages each adds (counted over the whole file) against rb__ra_series. */
static int rb__probe_window(rb__probe *pr, long seq, rb_probe_result *out, long *obs)
{
    long r = seq >= 8 ? seq / 8 : 1, before, after;
    unsigned i;
    unsigned char *buf;
    rb_error e;
    int fd, fail = 0;
    out->reasoning = "the first read opens a window of get_init_ra_size() (2-4x the read) marked PG_readahead where "
                     "the read ends; each read that reaches a mark starts the next window, get_next_ra_size() (2-4x, "
                     "up to read_ahead_kb) (mm/readahead.c page_cache_sync_ra, page_cache_async_ra)";
    out->expected_pages = -1;
    if (seq <= 0) return 0;   /* no read_ahead_kb: the verdict says so */
    out->nseries = RB_PROBE_SERIES;
    rb__ra_series(r, seq, RB_PROBE_SERIES, out->expected_series);
    for (i = 0, out->expected_pages = 0; i < RB_PROBE_SERIES; i++) out->expected_pages += out->expected_series[i];
    if ((uint64_t)out->expected_pages * pr->page > pr->size) {
        out->status = RB_UNSUPPORTED;
        rb__fmt(out->reason, sizeof out->reason, "file too small for the windows of read_ahead_kb %ld", seq * (long)pr->page / 1024);
        return 0;
    }
    if (!(buf = (unsigned char *)malloc((size_t)r * pr->page))) { rb__fmt(pr->why, sizeof pr->why, "out of memory"); return 1; }
    if ((fd = rb__open_regular(pr->path, 0, NULL, &e)) < 0) { rb__fmt(pr->why, sizeof pr->why, "%s", e.msg); free(buf); return 1; }
    for (i = 0, *obs = 0; !fail && i < RB_PROBE_SERIES; i++) {
        before = rb__probe_count_range(pr, 0, pr->size);
        if (pread(fd, buf, (size_t)r * pr->page, (off_t)((uint64_t)i * (uint64_t)r * pr->page)) < 0) {
            rb__fmt(pr->why, sizeof pr->why, "pread: %s", strerror(errno));
            fail = 1;
        }
        after = rb__probe_count_range(pr, 0, pr->size);
        if (before < 0 || after < 0) fail = 1;
        out->observed_series[i] = after - before;
        *obs += after - before;
    }
    close(fd);
    free(buf);
    return fail;
}

/* cold-mapped-twice, pageout-mapped-twice: 4 MiB in the middle read through two RANDOM mappings
   of one descriptor (small folios, each page mapped twice), then the advice through the first:
   the pages that left the cache; then, the second mapping gone, the same advice again. */
static int rb__probe_reclaim(rb__probe *pr, int pageout, uint64_t mid, rb_probe_result *out, long *obs, long *obs2)
{
    uint64_t range = 4 * RB__PROBE_MIB;
    long before, after;
    int pass, rc;
    out->expected_pages = 0;
    pr->expected2 = pageout && pr->owner ? (long)(range / pr->page) : 0;
    out->reasoning = pageout ? "MADV_PAGEOUT reclaims only pages its mapping maps alone: a page mapped twice, even by "
                               "one process, is skipped (folio_mapcount != folio_nr_pages in mm/madvise.c "
                               "madvise_cold_or_pageout_pte_range); with one mapping left it reclaims them (if the "
                               "caller owns or may write the file)"
                             : "MADV_COLD only deactivates (the pages move to the inactive list and stay cached "
                               "until reclaim needs memory) and skips pages mapped twice (mm/madvise.c "
                               "madvise_cold_or_pageout_pte_range): nothing leaves the cache";
    if (rb__probe_map(pr, 0, MADV_RANDOM) || rb__probe_map_shared(pr, 1, MADV_RANDOM)) return 1;
    if (rb__probe_touch_range(pr, 0, mid, mid + range) < 0 || rb__probe_touch_range(pr, 1, mid, mid + range) < 0)
        return 1;
    for (pass = 0; pass < 2; pass++) {
        if (pass == 1 && munmap(pr->maps[1], (size_t)pr->size) != 0) {
            rb__fmt(pr->why, sizeof pr->why, "munmap: %s", strerror(errno));
            return 1;
        }
        if (pass == 1) pr->maps[1] = NULL;
        before = rb__probe_count_range(pr, mid, mid + range);
        rc = rb__plat_reclaim_advice(pr->maps[0] + mid, (size_t)range, pageout);
        if (rc == RB_UNSUPPORTED) {
            out->status = RB_UNSUPPORTED;
            rb__fmt(out->reason, sizeof out->reason, "no %s here (Linux 5.4+)", pageout ? "MADV_PAGEOUT" : "MADV_COLD");
            return 0;
        }
        if (rc != RB_OK) {
            rb__fmt(pr->why, sizeof pr->why, "madvise(%s): %s", pageout ? "MADV_PAGEOUT" : "MADV_COLD", strerror(errno));
            return 1;
        }
        after = rb__probe_count_range(pr, mid, mid + range);
        if (before < 0 || after < 0) return 1;
        *(pass ? obs2 : obs) = before - after;
    }
    return 0;
}

/* Cases 16-23: what a hint over a large range loads, a hint on a file that is also mapped, two
   mappings of one descriptor, the pread window's growth, reclaim advice on a range mapped twice.
   As rb__probe_case: 1 if a step failed, 0 with out->status RB_UNSUPPORTED if it cannot run. */
static int rb__probe_case_more(rb__probe *pr, int id, uint64_t mid, long seq, rb_probe_result *out, long *obs,
                               long *obs2)
{
    uint64_t range = (id == 16 ? 64 : id == 17 ? 1024 : 4) * RB__PROBE_MIB, at = id <= 17 ? 0 : mid;
    long pages = (long)(range / pr->page), before;
    int e;
    switch (id) {
    case 16: case 17: case 18:
        out->expected_pages = pr->cap_pages < 0 ? -1 : RB__MIN(pages, pr->cap_pages);
        pr->expected2 = out->expected_pages < 0 ? -1 : pages - out->expected_pages;
        out->reasoning = id <= 17 ? "madvise(WILLNEED) is vfs_fadvise(WILLNEED) (mm/madvise.c madvise_willneed), and "
                                    "force_page_cache_ra() caps a request at max(io_pages, ra_pages) = max(max_sectors_kb, "
                                    "read_ahead_kb), read in 2 MiB chunks (mm/readahead.c): the rest of the range is not loaded"
                                  : "fadvise acts on the file's page cache, whoever maps it: WILLNEED loads up to max("
                                    "max_sectors_kb, read_ahead_kb) of the range (mm/fadvise.c generic_fadvise -> "
                                    "force_page_cache_ra), and the RANDOM mapping's faults then read only what it left";
        if (rb__probe_map(pr, 0, id <= 17 ? MADV_NORMAL : MADV_RANDOM)) return 1;
        before = rb__probe_count_range(pr, at, at + range);
        e = id <= 17 ? (madvise(pr->maps[0], (size_t)range, MADV_WILLNEED) == 0 ? 0 : errno)
                     : rb__plat_fadvise_range(pr->fds[0], at, range, RB__HINT_WILLNEED);
        if (e == ENOSYS && id == 18) {
            out->status = RB_UNSUPPORTED;
            rb__fmt(out->reason, sizeof out->reason, "no posix_fadvise on this platform");
            return 0;
        }
        if (e) { rb__fmt(pr->why, sizeof pr->why, "%s(WILLNEED): %s", id <= 17 ? "madvise" : "posix_fadvise", strerror(e)); return 1; }
        *obs = before < 0 ? -1 : rb__probe_count_range(pr, at, at + range) - before;
        if (id == 18) *obs2 = rb__probe_touch_range(pr, 0, at, at + range);
        return *obs < 0 || (id == 18 && *obs2 < 0);
    case 19: case 20:
        out->expected_pages = id == 19 ? 1 : seq;
        out->reasoning = id == 19 ? "advice is per mapping (VM_RAND_READ on its VMA, mm/madvise.c), though both mappings "
                                    "share the descriptor's readahead state (file->f_ra): the faulting page only"
                                  : "advice is per mapping (VM_SEQ_READ), the readahead state per open file: SEQUENTIAL "
                                    "reads read_ahead_kb from the fault on (mm/filemap.c do_sync_mmap_readahead)";
        if (rb__probe_map(pr, 0, MADV_RANDOM) || rb__probe_map_shared(pr, 1, MADV_SEQUENTIAL)) return 1;
        *obs = rb__probe_touch(pr, id == 19 ? 0 : 1, mid);
        return *obs < 0;
    case 21:
        return rb__probe_window(pr, seq, out, obs);
    default:
        return rb__probe_reclaim(pr, id == 23, mid, out, obs, obs2);
    }
}

/* One case: its expected count and why, then its reads; 1 if a step failed, 0 with
   out->status RB_UNSUPPORTED if the case cannot run here. The expected counts come from the
   kernel's rules (mm/filemap.c, mm/readahead.c): a RANDOM
   mapping reads the faulting page only; SEQUENTIAL reads ra_pages from the fault on; NORMAL
   reads ra_pages around the fault until the file has missed more than 100 times
   (mmap_miss, kept per open file), then the faulting page only; the last advice given to
   a mapping is the one that holds; a standalone small pread reads what it asked. */
static int rb__probe_case(rb__probe *pr, int id, uint64_t mid, long seq, int fault_around, rb_probe_result *out,
                          long *obs, long *obs2)
{
    unsigned i;
    int fail = 0;
    if (id >= 16) return rb__probe_case_more(pr, id, mid, seq, out, obs, obs2);
    switch (id) {
    case 1: case 2: case 3: case 4: {
        /* 1, 2: RANDOM opened first, then SEQUENTIAL; 3, 4: the other order */
        int first = id <= 2 ? MADV_RANDOM : MADV_SEQUENTIAL, second = id <= 2 ? MADV_SEQUENTIAL : MADV_RANDOM;
        int via_random = id == 1 || id == 4, k = (via_random ? MADV_RANDOM : MADV_SEQUENTIAL) == first ? 0 : 1;
        out->expected_pages = via_random ? 1 : seq;
        out->reasoning = via_random ? "advice is per mapping: the RANDOM mapping reads the faulting page only"
                                    : "advice is per mapping: the SEQUENTIAL one reads read_ahead_kb from the fault on";
        fail = rb__probe_map(pr, 0, first) || rb__probe_map(pr, 1, second);
        if (!fail) *obs = rb__probe_touch(pr, k, mid);
        break;
    }
    case 5: case 7:
        out->expected_pages = seq;
        out->reasoning = "one mapping keeps the last advice (SEQUENTIAL) until someone advises it again";
        fail = rb__probe_map(pr, 0, MADV_RANDOM) || rb__probe_advise(pr, 0, MADV_SEQUENTIAL);
        if (!fail && id == 7) fail = rb__probe_touch(pr, 0, mid - 32 * RB__PROBE_MIB) < 0;   /* the user's read */
        if (!fail) *obs = rb__probe_touch(pr, 0, mid);
        break;
    case 6: case 8:
        out->expected_pages = 1;
        out->reasoning = "one mapping keeps the last advice (RANDOM): the faulting page only";
        fail = rb__probe_map(pr, 0, MADV_SEQUENTIAL) || rb__probe_advise(pr, 0, MADV_RANDOM);
        if (!fail && id == 8) fail = rb__probe_touch(pr, 0, mid - 32 * RB__PROBE_MIB) < 0;
        if (!fail) *obs = rb__probe_touch(pr, 0, mid);
        break;
    case 9: case 10: case 11:
        /* mmap_miss (per open file) stops NORMAL read-around past 100 misses, but the pages
           fault-around maps right after a read-around count as hits and pay the misses back
           (filemap_map_pages); with fault-around on, isolated cold faults never reach 100. */
        out->expected_pages = id == 10 || fault_around ? seq : 1;
        out->reasoning = id == 10 ? "SEQUENTIAL faults never consult mmap_miss: read_ahead_kb every time"
                       : fault_around ? "fault-around maps pages the read-around just loaded, each a hit against "
                                        "mmap_miss, so 100 isolated misses never stop read-around"
                                      : "fault-around is off: after 100 misses (mmap_miss > 100) NORMAL read-around "
                                        "stops: one page";
        fail = rb__probe_map(pr, 0, id == 10 ? MADV_SEQUENTIAL : MADV_NORMAL);
        if (!fail && id == 11) fail = rb__probe_map(pr, 1, MADV_SEQUENTIAL);
        for (i = 0; !fail && i < 100; i++)
            fail = rb__probe_touch(pr, 0, 16 * RB__PROBE_MIB * (i + 1)) < 0;
        /* counted reads past the warm-up misses (the last at 1600 MiB, plus its readahead) */
        if (!fail) *obs = rb__probe_mean(pr, 0, 1632 * RB__PROBE_MIB, 5);
        if (!fail && id == 11) *obs2 = rb__probe_mean(pr, 1, (1632 + 5 * 32) * RB__PROBE_MIB, 5);
        if (id == 11) out->reasoning = "SEQUENTIAL reads read_ahead_kb whatever NORMAL's mmap_miss says "
                                       "(it is per open file, and never consulted for SEQUENTIAL)";
        break;
    default:
        if (id == 15 && !RB__O_DIRECT) {
            out->status = RB_UNSUPPORTED;
            rb__fmt(out->reason, sizeof out->reason, "no O_DIRECT in this build");
            return 0;
        } else if (id == 15) {
            out->expected_pages = 0;
            out->reasoning = "O_DIRECT reads into the caller's buffer, past the page cache";
            *obs = rb__probe_pread(pr, RB__HINT_NONE, 1, mid);
        } else {
            out->expected_pages = 1;
            out->reasoning = id == 12 ? "a standalone small random read is read as is (no readahead state yet)"
                           : id == 13 ? "FADV_RANDOM forces reading exactly what was asked"
                                      : "FADV_SEQUENTIAL doubles the window, but a first read in the middle "
                                        "is still a standalone random read";
            *obs = rb__probe_pread(pr, id == 13 ? RB__HINT_RANDOM : id == 14 ? RB__HINT_SEQUENTIAL : RB__HINT_NONE, 0, mid);
        }
        if (*obs == -2) fail = 1;
    }
    return fail;
}

static void rb__env_base(rb_env *env, const char *path);   /* below, with rb_env_collect */

RBDEF int rb_probe(const char *path, int id, rb_probe_result *out)
{
    rb__probe pr;
    rb_env env;
    rb_error e;
    struct stat st;
    uint64_t mid;
    long seq, obs = -1, obs2 = -1;
    int idx = id - 1, fail, fault_around, bus;
    struct sigaction old_bus;

    memset(out, 0, sizeof *out);
    memset(&pr, 0, sizeof pr);
    pr.fds[0] = pr.fds[1] = -1;
    if (idx < 0 || idx >= RB_PROBE_CASES) { out->status = RB_EINVAL; rb__fmt(out->reason, sizeof out->reason, "no case %d", id); return RB_EINVAL; }
    if (!path) { out->status = RB_EINVAL; rb__fmt(out->reason, sizeof out->reason, "no file path given (NULL)"); return RB_EINVAL; }
    out->id = id;
    out->name = rb__probe_cases[idx].name;
    out->description = rb__probe_cases[idx].description;
    {   /* a FIFO or a device would block or read forever: only a regular file is probed */
        int fd = rb__open_regular(path, 0, &st, &e);
        if (fd < 0) { out->status = e.status; rb__fmt(out->reason, sizeof out->reason, "%s", e.msg); return out->status; }
        close(fd);
    }
    pr.path = path;
    pr.size = (uint64_t)st.st_size;
    pr.page = rb__page_size();
    rb__env_base(&env, path);
    pr.ra_pages = env.read_ahead_kb >= 0 ? env.read_ahead_kb * 1024 / (long)pr.page : -1;
    seq = pr.ra_pages;
    /* force_page_cache_ra's cap: bdi->io_pages is max_sectors_kb in pages (block/blk-settings.c) */
    pr.cap_pages = seq < 0 ? -1 : RB__MAX(seq, env.max_sectors_kb > 0 ? env.max_sectors_kb * 1024 / (long)pr.page : 0);
    pr.owner = rb__plat_mincore_trusted(&st, path);   /* owner, root, or may write: can_do_file_pageout */
    fault_around = env.fault_around_bytes < 0 || env.fault_around_bytes > (long)pr.page;   /* default 64 KiB */
    mid = (pr.size / 2) & ~(uint64_t)(pr.page - 1);
    if (pr.size < rb__probe_need(id)) {
        char need[32];
        rb_format_size(rb__probe_need(id), need, sizeof need);
        out->status = RB_UNSUPPORTED;
        rb__fmt(out->reason, sizeof out->reason, "file too small: case %s needs %s", out->name, need);
        return out->status;
    }
    if (rb__probe_cold(path, out) != RB_OK) return out->status;

    bus = (id <= 11 || (id >= 16 && id != 21)) && rb__sigbus_install(&old_bus);   /* those that read a mapping:
                                                                                     truncated, RB_ECHANGED */
    fail = rb__probe_case(&pr, id, mid, seq, fault_around, out, &obs, &obs2);
    rb__probe_unmap(&pr);
    if (bus && sigaction(SIGBUS, &old_bus, NULL) != 0 && !fail) {
        fail = 1;
        rb__fmt(pr.why, sizeof pr.why, "restoring the SIGBUS handler: %s", strerror(errno));
    }
    if (out->status != RB_OK) return out->status;   /* the case cannot run here */
    if (fail || obs < 0) {
        out->status = pr.changed ? RB_ECHANGED : RB_ESYS;
        rb__fmt(out->reason, sizeof out->reason, "%s", pr.why[0] ? pr.why : "could not count cached pages");
        return out->status;
    }
    rb__probe_verdict(&pr, id, obs, obs2, seq, out);
    return out->status;
}

/* The cases in order (or one), counting the failures and the disagreements. */
RBDEF unsigned rb_probe_cases(const char *path, int id, rb_probe_result *out, unsigned *failed, unsigned *disagree)
{
    unsigned n = 0;
    int i;
    *failed = *disagree = 0;
    for (i = id ? id : 1; i <= (id ? id : RB_PROBE_CASES); i++, n++) {
        rb_probe(path, i, &out[n]);
        if (out[n].status != RB_OK && out[n].status != RB_UNSUPPORTED) ++*failed;
        else if (out[n].status == RB_OK && !out[n].agrees) ++*disagree;
    }
    return n;
}

/* pread-window's pages per read, as a JSON array; null for the other cases. */
static void rb__probe_json_series(FILE *f, const rb_probe_result *x, const long *v)
{
    unsigned i;
    if (x->status != RB_OK || !x->nseries) { fputs("null", f); return; }
    for (i = 0; i < x->nseries; i++) fprintf(f, "%s%ld", i ? ", " : "[", v[i]);
    fputc(']', f);
}

/* The readahead probe: expected against observed pages per case (json: one document). */
static void rb__probe_json(FILE *f, const rb_probe_result *r, unsigned n, const rb_env *env)
{
    unsigned i;
    fprintf(f, "{\"readbench\": \"%s\", \"experiment\": \"probe\", \"read_ahead_kb\": ", RB_VERSION);
    rb__json_int_or_null(f, env ? env->read_ahead_kb : -1);
    fprintf(f, ", \"page_size\": %ld,\n \"results\": [", env ? env->page_size : (long)rb__page_size());
    for (i = 0; i < n; i++) {
        const rb_probe_result *x = &r[i];
        fprintf(f, "%s\n  {\"case\": ", i ? "," : "");
        if (x->id <= 11) fprintf(f, "%d", x->id);
        else rb_json_string(f, x->name);
        fprintf(f, ", \"description\": ");
        rb_json_string(f, x->description);
        fprintf(f, ", \"status\": \"%s\", \"expected_pages\": ", rb_status_word(x->status));
        if (x->status == RB_OK)
            fprintf(f, "%ld, \"observed_pages\": %ld, \"agrees\": %s, \"folio_effect\": %s", x->expected_pages,
                    x->observed_pages, x->agrees ? "true" : "false", x->folio_effect ? "true" : "false");
        else
            fprintf(f, "null, \"observed_pages\": null, \"agrees\": null, \"folio_effect\": null");
        fprintf(f, ", \"expected_series\": ");
        rb__probe_json_series(f, x, x->expected_series);
        fprintf(f, ", \"observed_series\": ");
        rb__probe_json_series(f, x, x->observed_series);
        fprintf(f, ", \"reasoning\": ");
        rb_json_string(f, x->reasoning);
        fprintf(f, ", \"note\": ");
        rb_json_string(f, x->reason);
        fputc('}', f);
    }
    fprintf(f, "\n ]}\n");
}

RBDEF void rb_report_probe(FILE *f, const rb_probe_result *r, unsigned n, int format, const rb_env *env)
{
    unsigned i;
    long ra = env ? env->read_ahead_kb : -1, page = env ? env->page_size : (long)rb__page_size();
    if (format == RB_FORMAT_JSON) { rb__probe_json(f, r, n, env); return; }
    if (ra >= 0)
        fprintf(f, "pages one cold read adds to the page cache (read_ahead_kb %ld = %ld pages of %ld bytes)\n\n",
                ra, ra * 1024 / page, page);
    else
        fprintf(f, "pages one cold read adds to the page cache (read_ahead_kb n/a: no block device; pages of %ld "
                "bytes)\n\n", page);
    fprintf(f, "%-22s %8s %8s %-6s  %s\n", "case", "expected", "observed", "agrees", "description / reasoning");
    for (i = 0; i < n; i++) {
        if (r[i].status != RB_OK) {
            fprintf(f, "%-22s %8s %8s %-6s  %s: %s\n", r[i].name, "-", "-", "-", r[i].description, r[i].reason);
            continue;
        }
        fprintf(f, "%-22s %8ld %8ld %-6s  %s\n", r[i].name, r[i].expected_pages, r[i].observed_pages,
                r[i].agrees ? "yes" : r[i].folio_effect ? "folio" : "NO", r[i].description);
        fprintf(f, "%-22s %8s %8s %-6s  -> %s%s%s\n", "", "", "", "", r[i].reasoning, r[i].reason[0] ? "; " : "",
                r[i].reason);
    }
}

/* ==== 3.5 warm-up methods ===================================================================== */

/*
   A program that warms a file before serving from it picks one of these, and they differ by
   more than speed: a single MADV_WILLNEED or POSIX_FADV_WILLNEED over a large range loads only
   its first max(read_ahead_kb, max_sectors_kb). Both become force_page_cache_ra() (mm/madvise.c
   madvise_willneed -> vfs_fadvise -> mm/fadvise.c generic_fadvise), which caps the request at
   max(bdi->io_pages, ra->ra_pages) and reads it in 2 MiB chunks (mm/readahead.c). WILLNEED
   chunk by chunk loads it all when a chunk is within that cap. The hints are asynchronous: the
   call returns once the reads are submitted, so a hint's row has two times, the call's and the
   time until its pages were read in. That is found by polling mincore every millisecond (it
   counts a page once its read completed; cachestat counts it when readahead inserts it, before
   the read) until it reaches cachestat's count (every submitted read done) or stops growing
   for 200 ms, within the settle cap (10 s). read, MAP_POPULATE, MADV_POPULATE_READ and touching
   each page return with their pages read. Each row starts from an evicted file, checked. */
static const struct { const char *name, *what; int async; } rb__warm_methods[RB_WARM_COUNT] = {
    {"read", "read() of the whole file, 4 MiB at a time (FADV_SEQUENTIAL)", 0},
    {"willneed", "one madvise(MADV_WILLNEED) over the whole mapping", 1},
    {"willneed-chunked", "madvise(MADV_WILLNEED) over each chunk of the mapping in turn", 1},
    {"fadvise", "one posix_fadvise(POSIX_FADV_WILLNEED) over the whole file", 1},
    {"map-populate", "mmap(MAP_POPULATE) of the whole file", 0},
    {"populate-read", "madvise(MADV_POPULATE_READ) over the whole mapping", 0},
    {"touch", "a read of one byte of every page of a NORMAL mapping", 0},
};
#define RB__WARM_CHUNK ((uint64_t)2 << 20)

RBDEF const char *rb_warmup_method_name(int m) { return m >= 0 && m < RB_WARM_COUNT ? rb__warm_methods[m].name : NULL; }

RBDEF int rb_warmup_method_find(const char *name)
{
    int m;
    for (m = 0; name && m < RB_WARM_COUNT; m++)
        if (!strcmp(name, rb__warm_methods[m].name)) return m;
    return -1;
}

RBDEF int rb_warmup_set(rb_warmup_config *c, const char *key, const char *value, const char *as, char *why,
                        size_t whylen)
{
    uint64_t v;
    size_t page = rb__page_size();
    if (!as) as = key;
    if (whylen) why[0] = 0;
    if (!strcmp(key, "chunk")) {
        if (rb_parse_size(value, &v) != RB_OK || v == 0 || v % page) {
            rb__fmt(why, whylen, "%s must be a size that is a multiple of the page (%lu bytes), not '%s'", as,
                    (unsigned long)page, value);
            return RB_EINVAL;
        }
        c->chunk = v;
        return RB_OK;
    }
    if (!strcmp(key, "methods")) {
        const char *p = value;
        c->nmethods = 0;
        while (p) {
            char name[32];
            size_t n = strcspn(p, ",");
            int m, k, dup = 0;
            snprintf(name, sizeof name, "%.*s", (int)RB__MIN(n, sizeof name - 1), p);
            m = n < sizeof name ? rb_warmup_method_find(name) : -1;
            for (k = 0; m >= 0 && k < (int)c->nmethods; k++) dup |= c->methods[k] == m;
            if (m < 0 || dup) {
                rb__fmt(why, whylen, "%s: %s '%.*s' (methods: read, willneed, willneed-chunked, fadvise, map-populate, "
                        "populate-read, touch; each once)", as, m < 0 ? "no method" : "twice", (int)RB__MIN(n, 64), p);
                c->nmethods = 0;
                return RB_EINVAL;
            }
            c->methods[c->nmethods++] = m;
            p = p[n] ? p + n + 1 : NULL;
        }
        return RB_OK;
    }
    rb__fmt(why, whylen, "no warm-up setting %s", as);
    return RB_EINVAL;
}

typedef struct rb__warm {
    const char *path;
    uint64_t size, chunk;
    size_t page;
    int fd;
} rb__warm;

static unsigned char rb__warm_touch_pages(const unsigned char *map, uint64_t size, size_t page)
{
    unsigned char sink = 0;
    uint64_t off;
    for (off = 0; off < size; off += page) sink ^= ((const volatile unsigned char *)map)[off];
    return sink;
}

/* touch: every page read through the mapping, a truncation (SIGBUS) caught. */
static int rb__warm_touch_guarded(const unsigned char *map, const rb__warm *w, rb_warmup_result *x)
{
    sigjmp_buf jb;
    if (sigsetjmp(jb, 1) != 0) {
        rb__sigbus_jmp = NULL;
        rb__fmt(x->reason, sizeof x->reason, "%s", RB__SIGBUS_WHY);
        return RB_ECHANGED;
    }
    rb__sigbus_jmp = &jb;
    (void)rb__warm_touch_pages(map, w->size, w->page);
    rb__sigbus_jmp = NULL;
    return RB_OK;
}

static int rb__warm_touch(const unsigned char *map, const rb__warm *w, rb_warmup_result *x)
{
    struct sigaction old;
    int bus = rb__sigbus_install(&old), rc = rb__warm_touch_guarded(map, w, x);
    if (bus && sigaction(SIGBUS, &old, NULL) != 0 && rc == RB_OK) {
        rb__fmt(x->reason, sizeof x->reason, "restoring the SIGBUS handler: %s", strerror(errno));
        rc = RB_ESYS;
    }
    return rc;
}

/* The methods that need no mapping: read and fadvise. */
static int rb__warm_call_file(const rb__warm *w, rb_warmup_result *x)
{
    rb_error err;
    int e;
    x->calls = 1;
    if (x->method == RB_WARM_READ) {
        if (rb__load(w->path, 1, &err) == RB_OK) return RB_OK;
        rb__fmt(x->reason, sizeof x->reason, "%s", err.msg);
        return err.status;
    }
    if ((e = rb__plat_fadvise_range(w->fd, 0, 0, RB__HINT_WILLNEED)) == 0) return RB_OK;
    x->failed_calls = 1;
    if (e == ENOSYS) rb__fmt(x->reason, sizeof x->reason, "no posix_fadvise on this platform");
    else rb__fmt(x->reason, sizeof x->reason, "posix_fadvise(WILLNEED): %s", strerror(e));
    return e == ENOSYS ? RB_UNSUPPORTED : RB_ESYS;
}

/* The method's call(s). A mapping it made is left in *map (w->size bytes) for the caller to
   measure residency before it unmaps. RB_OK, RB_UNSUPPORTED or an error, why in x->reason. */
static int rb__warm_call(const rb__warm *w, rb_warmup_result *x, unsigned char **map)
{
    int m = x->method, flags = m == RB_WARM_MAP_POPULATE ? rb__plat_map_populate() : 0, rc;
    size_t len = (size_t)w->size;
    uint64_t off;
    if (m == RB_WARM_READ || m == RB_WARM_FADVISE) return rb__warm_call_file(w, x);
    if (m == RB_WARM_MAP_POPULATE && !flags) {
        rb__fmt(x->reason, sizeof x->reason, "no MAP_POPULATE on this platform (Linux only)");
        return RB_UNSUPPORTED;
    }
    x->calls = 1;
    *map = (unsigned char *)mmap(NULL, len, PROT_READ, MAP_SHARED | flags, w->fd, 0);
    if (*map == (unsigned char *)MAP_FAILED) {
        *map = NULL;
        x->failed_calls = 1;
        rb__fmt(x->reason, sizeof x->reason, "mmap%s: %s", flags ? "(MAP_POPULATE)" : "", strerror(errno));
        return RB_ESYS;
    }
    if (m == RB_WARM_MAP_POPULATE) return RB_OK;
    if (m == RB_WARM_TOUCH) return rb__warm_touch(*map, w, x);
    if (m == RB_WARM_POPULATE_READ) {
        if ((rc = rb__plat_populate_read(*map, len)) == RB_OK) return RB_OK;
        x->failed_calls = 1;
        if (rc == RB_UNSUPPORTED) rb__fmt(x->reason, sizeof x->reason, "no MADV_POPULATE_READ in this kernel or build (Linux 5.14+)");
        else rb__fmt(x->reason, sizeof x->reason, "madvise(MADV_POPULATE_READ): %s", strerror(errno));
        return rc;
    }
    x->calls = 0;   /* the hints: the whole mapping at once, or chunk by chunk */
    for (off = 0; off < w->size; off += m == RB_WARM_WILLNEED ? w->size : w->chunk) {
        x->calls++;
        if (madvise(*map + off, m == RB_WARM_WILLNEED ? len : (size_t)RB__MIN(w->chunk, w->size - off), MADV_WILLNEED) != 0 &&
            x->failed_calls++ == 0)
            rb__fmt(x->reason, sizeof x->reason, "madvise(MADV_WILLNEED): %s", strerror(errno));
    }
    return x->failed_calls ? RB_ESYS : RB_OK;
}

/* A hint's time to residency (see the section's comment): from t0 to the last time the count of
   read-in pages grew, once they all are, or it stopped growing for 200 ms, or the cap. */
static void rb__warm_settle(const rb__warm *w, const rb_warmup_config *c, uint64_t t0, uint64_t t1,
                            rb_warmup_result *x)
{
    uint64_t cap = c->settle_ns > 0 ? (uint64_t)c->settle_ns : (uint64_t)10000000000ULL, last = t1, got = 0, n, now;
    struct rb__cachestat cs;
    const char *what = "";
    x->settled = 0;
    for (;;) {
        if (rb__mincore_count(w->fd, w->size, &n, &what) != RB_OK) break;
        now = rb__now_ns();
        if (n > got) { got = n; last = now; }
        if ((rb__plat_cachestat(w->fd, 0, 0, &cs) == RB_OK && got >= cs.nr_cache) || now - last >= 200000000ULL) {
            x->settled = 1;
            break;
        }
        if (now - t0 >= cap || (c->stop && *c->stop)) break;
        rb__sleep_ns(1000000);
    }
    x->seconds = (double)(last - t0) / 1e9;
    if (!x->settled)
        rb__fmt(x->reason, sizeof x->reason, "its reads were still completing when the wait ended (%.0f s)",
                (double)cap / 1e9);
}

/* What residency the kernel's rules predict: everything, but a hint loads at most `cap` per call. */
static double rb__warm_expected(int m, uint64_t size, uint64_t chunk, uint64_t cap)
{
    uint64_t off, got = 0;
    if (m != RB_WARM_WILLNEED && m != RB_WARM_WILLNEED_CHUNKED && m != RB_WARM_FADVISE) return 1.0;
    if (!cap) return -1;
    if (m != RB_WARM_WILLNEED_CHUNKED) return size <= cap ? 1.0 : (double)cap / (double)size;
    for (off = 0; off < size; off += chunk) got += RB__MIN(RB__MIN(chunk, size - off), cap);
    return (double)got / (double)size;
}

/* One row: evict (and check), the call(s), the wait for an asynchronous hint, then what it made
   resident and what the device read. */
static void rb__warm_one(const rb__warm *w0, const rb_warmup_config *c, rb_warmup_result *x)
{
    rb__warm w = *w0;
    rb_error e;
    rb__acct a0, a1;
    unsigned char *map = NULL;
    uint64_t t0, t1, left = 0;
    const char *what = "";
    int no_backing = 0, rc = rb__evict_cold(w.path, &left, &no_backing, &e);
    if (rc != RB_OK) { x->status = rc; rb__fmt(x->reason, sizeof x->reason, "%s", e.msg); return; }
    x->resident_before = left;
    x->evicted = left == 0;
    if ((w.fd = rb__open_regular(w.path, 0, NULL, &e)) < 0) { x->status = e.status; rb__fmt(x->reason, sizeof x->reason, "%s", e.msg); return; }
    rb__acct_sample(&a0, 0);
    t0 = rb__now_ns();
    rc = rb__warm_call(&w, x, &map);
    t1 = rb__now_ns();
    x->call_seconds = x->seconds = (double)(t1 - t0) / 1e9;
    x->settled = 1;
    if (rc == RB_OK && rb__warm_methods[x->method].async) rb__warm_settle(&w, c, t0, t1, x);
    rb__acct_sample(&a1, 0);
    x->device_read_bytes = a0.read_bytes >= 0 && a1.read_bytes >= 0 ? a1.read_bytes - a0.read_bytes : -1;
    if (rc == RB_OK && rb__mincore_count(w.fd, w.size, &x->resident, &what) != RB_OK) {
        rb__fmt(x->reason, sizeof x->reason, "counting the cached pages: %s: %s", what, strerror(errno));
        rc = RB_ESYS;
    }
    if (map && munmap(map, (size_t)w.size) != 0 && rc == RB_OK) {
        rb__fmt(x->reason, sizeof x->reason, "munmap: %s", strerror(errno));
        rc = RB_ESYS;
    }
    close(w.fd);
    x->status = rc;
    x->residency = x->pages ? (double)x->resident / (double)x->pages : 0;
    if (x->seconds > 0)
        x->gb_per_s = (double)RB__MIN(x->resident * w.page, w.size) / x->seconds / 1e9;
    if (rc == RB_OK && left)
        rb__fmt(x->reason, sizeof x->reason, "eviction left %llu pages cached (%s): this row did not start cold",
                (unsigned long long)left, no_backing ? "the file is on tmpfs or ramfs" : "mapped by another process?");
}

RBDEF int rb_warmup(const rb_warmup_config *c, rb_warmup_run *out, rb_error *err)
{
    rb__warm w;
    rb__ident id;
    struct stat st;
    char why[RB_REASON_LEN];
    unsigned i, n;
    int fd, changed = 0;
    memset(out, 0, sizeof *out);
    if (rb__path_missing(c->path, err)) return RB_EINVAL;
    for (i = 0; i < c->nmethods && i < RB_WARM_COUNT; i++)
        if (!rb_warmup_method_name(c->methods[i])) {
            rb__seterr(err, RB_EINVAL, 0, "", "no warm-up method %d", c->methods[i]);
            return RB_EINVAL;
        }
    if ((fd = rb__open_regular(c->path, 0, &st, err)) < 0) return err ? err->status : RB_ESYS;
    close(fd);
    id.dev = (uint64_t)st.st_dev;   /* the file every row must find: checked after each */
    id.ino = (uint64_t)st.st_ino;
    id.size = (uint64_t)st.st_size;
    if (st.st_size == 0) {
        rb__seterr(err, RB_ETOOSMALL, 0, "stat", "the file is empty: nothing to warm");
        return RB_ETOOSMALL;
    }
    memset(&w, 0, sizeof w);
    w.path = out->path = c->path;
    w.size = out->size = (uint64_t)st.st_size;
    w.page = rb__page_size();
    w.chunk = out->chunk = c->chunk ? c->chunk : RB__WARM_CHUNK;
    out->settle_seconds = c->settle_ns > 0 ? (double)c->settle_ns / 1e9 : 10.0;
    rb_env_collect(&out->env, c->path);
    if (out->env.read_ahead_kb >= 0)   /* force_page_cache_ra's cap (see above) */
        out->cap = (uint64_t)RB__MAX(out->env.read_ahead_kb, out->env.max_sectors_kb) * 1024;
    n = c->nmethods ? RB__MIN(c->nmethods, (unsigned)RB_WARM_COUNT) : (unsigned)RB_WARM_COUNT;
    for (i = 0; i < n; i++) {
        rb_warmup_result *x = &out->results[out->n++];
        x->method = c->nmethods ? c->methods[i] : (int)i;
        x->name = rb__warm_methods[x->method].name;
        x->what = rb__warm_methods[x->method].what;
        x->pages = (w.size + w.page - 1) / w.page;
        x->expected = rb__warm_expected(x->method, w.size, w.chunk, out->cap);
        x->device_read_bytes = -1;
        if ((c->stop && *c->stop) || changed) {
            x->status = RB_ENOTRUN;
            rb__fmt(x->reason, sizeof x->reason, changed ? "the file changed before it ran" : "interrupted before it ran");
            continue;
        }
        if (c->progress) c->progress(c->user, x);
        rb__warm_one(&w, c, x);
        if ((changed = rb__ident_changed(c->path, &id, why, sizeof why)) != 0) {   /* its figures are of no one file */
            x->status = RB_ECHANGED;
            rb__fmt(x->reason, sizeof x->reason, "%s", why);
        } else if (c->stop && *c->stop && x->status != RB_UNSUPPORTED) {
            x->status = RB_EINTR;
            rb__fmt(x->reason, sizeof x->reason, "stopped by a signal while it ran: its figures are not a result");
        }
        if (x->status != RB_OK && x->status != RB_UNSUPPORTED && x->status != RB_EINTR) out->failed++;
    }
    return c->stop && *c->stop ? RB_EINTR : RB_OK;
}

/*
   A row per method: the call's time, the time until its pages were read in, GB/s, the
   residency reached against the kernel's prediction, and the device bytes. The chart: per
   method a bar for the call and one for the time to residency (the hints' differ). */
static void rb__warmup_table(FILE *f, const rb_warmup_run *r)
{
    char sz[32], cap[32] = "unknown", ch[32];
    unsigned i;
    rb_format_size(r->size, sz, sizeof sz);
    rb_format_size(r->chunk, ch, sizeof ch);
    if (r->cap) rb_format_size(r->cap, cap, sizeof cap);
    fprintf(f, "warming %s (%s, %llu pages), each method from an evicted file; one WILLNEED loads at most %s here "
               "(max of read_ahead_kb and max_sectors_kb); chunk %s\n\n", r->path, sz,
            (unsigned long long)(r->n ? r->results[0].pages : 0), cap, ch);
    fprintf(f, "%-17s %9s %11s %8s %10s %9s %11s\n", "method", "call s", "resident s", "GB/s", "residency", "expected",
            "device MiB");
    for (i = 0; i < r->n; i++) {
        const rb_warmup_result *x = &r->results[i];
        char exp[16] = "?", dev[24] = "?";
        if (x->status != RB_OK) {
            fprintf(f, "%-17s ", x->name);
            rb__status_reason(f, x->status, x->reason);
            continue;
        }
        if (x->expected >= 0) snprintf(exp, sizeof exp, "%.1f%%", 100 * x->expected);
        if (x->device_read_bytes >= 0) snprintf(dev, sizeof dev, "%.1f", (double)x->device_read_bytes / 1048576.0);
        fprintf(f, "%-17s %9.4f %11.4f %8.2f %9.1f%% %9s %11s%s%s\n", x->name, x->call_seconds, x->seconds, x->gb_per_s,
                100 * x->residency, exp, dev, x->reason[0] ? "  " : "", x->reason);
    }
    fprintf(f, "\n");
    for (i = 0; i < r->n; i++) fprintf(f, "%-17s %s\n", r->results[i].name, r->results[i].what);
}

static void rb__warmup_json(FILE *f, const rb_warmup_run *r)
{
    unsigned i;
    fprintf(f, "{\"readbench\": \"%s\", \"experiment\": \"warmup\", \"file\": ", RB_VERSION);
    rb_json_string(f, r->path);
    fprintf(f, ", \"size\": %llu, \"chunk\": %llu, \"willneed_cap_bytes\": ", (unsigned long long)r->size,
            (unsigned long long)r->chunk);
    rb__json_int_or_null(f, r->cap ? (long long)r->cap : -1);
    fprintf(f, ", \"settle_cap_seconds\": ");
    rb__json_num(f, r->settle_seconds);
    fprintf(f, ",\n \"env\": ");
    rb__env_json(f, &r->env);
    fprintf(f, ",\n \"results\": [");
    for (i = 0; i < r->n; i++) {
        const rb_warmup_result *x = &r->results[i];
        int ok = x->status == RB_OK;
        fprintf(f, "%s\n  {\"method\": ", i ? "," : "");
        rb_json_string(f, x->name);
        fprintf(f, ", \"description\": ");
        rb_json_string(f, x->what);
        fprintf(f, ", \"status\": \"%s\", \"seconds\": ", rb_status_word(x->status));
        rb__json_num_if(f, ok, x->seconds);
        fprintf(f, ", \"call_seconds\": ");
        rb__json_num_if(f, ok, x->call_seconds);
        fprintf(f, ", \"settled\": %s, \"gb_per_s\": ", !ok ? "null" : x->settled ? "true" : "false");
        rb__json_num_if(f, ok, x->gb_per_s);
        fprintf(f, ", \"residency\": ");
        rb__json_num_if(f, ok, x->residency);
        fprintf(f, ", \"resident_pages\": ");
        rb__json_int_or_null(f, ok ? (long long)x->resident : -1);
        fprintf(f, ", \"pages\": %llu, \"expected_residency\": ", (unsigned long long)x->pages);
        rb__json_num_if(f, x->expected >= 0, x->expected);
        fprintf(f, ", \"device_read_bytes\": ");
        rb__json_int_or_null(f, ok ? x->device_read_bytes : -1);
        fprintf(f, ", \"evicted\": %s, \"resident_before\": %llu, \"calls\": %u, \"failed_calls\": %u, \"note\": ",
                x->status == RB_ENOTRUN ? "null" : x->evicted ? "true" : "false",
                (unsigned long long)x->resident_before, x->calls, x->failed_calls);
        rb_json_string(f, x->reason);
        fputc('}', f);
    }
    fprintf(f, "\n ]}\n");
}

static void rb__warmup_svg(FILE *f, const rb_warmup_run *r, const char *title)
{
    char groups[RB_WARM_COUNT][48], env[1536], cfg[256], sz[32], ch[32];
    const char *gp[RB_WARM_COUNT];
    rb__bar bars[RB_WARM_COUNT * 2];
    rb__panel p;
    unsigned i, s;
    memset(&p, 0, sizeof p);
    memset(bars, 0, sizeof bars);
    for (i = 0; i < r->n; i++) {
        const rb_warmup_result *x = &r->results[i];
        if (x->status == RB_OK) snprintf(groups[i], sizeof groups[i], "%s (%.0f%%)", x->name, 100 * x->residency);
        else snprintf(groups[i], sizeof groups[i], "%s", x->name);
        gp[i] = groups[i];
        for (s = 0; s < 2; s++) {
            rb__bar *b = &bars[i * 2 + s];
            b->status = x->status;
            b->why = x->reason;
            b->lo = 1;
            b->hi = 0;
            b->v = s ? x->seconds : x->call_seconds;
        }
    }
    rb_format_size(r->size, sz, sizeof sz);
    rb_format_size(r->chunk, ch, sizeof ch);
    snprintf(p.heading, sizeof p.heading, "making a %s file resident, from evicted (the residency reached in brackets)", sz);
    p.groups = gp;
    p.ngroups = r->n;
    p.nseries = 2;
    snprintf(p.series[0], sizeof p.series[0], "the call");
    snprintf(p.series[1], sizeof p.series[1], "until resident");
    p.bars = bars;
    rb__svg_env_line(&r->env, env, sizeof env);
    snprintf(cfg, sizeof cfg, "willneed-chunked: %s per call \xc2\xb7 the hints' reads waited for up to %.0f s "
             "\xc2\xb7 readbench %s", ch, r->settle_seconds, RB_VERSION);
    rb__svg_doc(f, title && *title ? title : "readbench warmup: how long each way of making a file resident takes",
                env, cfg, &p, 1, "seconds, lower is better", "a bar per time", 0);
}

/* ==== 3.6 the JSON reader and diff ============================================================ */

/*
   Just what readbench's own documents need: objects, arrays, strings (escapes and \u, with
   surrogate pairs, decoded to UTF-8), numbers, true, false, null. Recursive descent with a
   depth limit, every node malloc'd and freed by rb_json_free; malformed input returns NULL
   with the byte offset and what was expected, and never reads past the end. */
#define RB__JSON_DEPTH 64

typedef struct rb__jp {
    const char *s;
    size_t n, i;
    char *why;
    size_t wl;
} rb__jp;

static rb_json *rb__jvalue(rb__jp *p, int depth);
static rb_json *rb__jvalue(rb__jp *p, int depth);

static rb_json *rb__jfail(rb__jp *p, const char *what)
{
    if (p->why && !p->why[0]) snprintf(p->why, p->wl, "malformed JSON at byte %zu: %s", p->i, what);
    return NULL;
}

static void rb__jspace(rb__jp *p)
{
    while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' || p->s[p->i] == '\r'))
        p->i++;
}

static rb_json *rb__jnode(rb__jp *p, int type)
{
    rb_json *v = (rb_json *)calloc(1, sizeof *v);
    if (!v) return rb__jfail(p, "out of memory");
    v->type = type;
    return v;
}

static int rb__jhex4(rb__jp *p, unsigned *u)
{
    unsigned k;
    *u = 0;
    if (p->n - p->i < 4) return -1;
    for (k = 0; k < 4; k++) {
        char c = p->s[p->i++];
        *u <<= 4;
        if (c >= '0' && c <= '9') *u |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') *u |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') *u |= (unsigned)(c - 'A' + 10);
        else return -1;
    }
    return 0;
}

static size_t rb__utf8_put(char *o, unsigned u)
{
    if (u < 0x80) { o[0] = (char)u; return 1; }
    if (u < 0x800) { o[0] = (char)(0xc0 | (u >> 6)); o[1] = (char)(0x80 | (u & 0x3f)); return 2; }
    if (u < 0x10000) {
        o[0] = (char)(0xe0 | (u >> 12)); o[1] = (char)(0x80 | ((u >> 6) & 0x3f)); o[2] = (char)(0x80 | (u & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | (u >> 18)); o[1] = (char)(0x80 | ((u >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((u >> 6) & 0x3f)); o[3] = (char)(0x80 | (u & 0x3f));
    return 4;
}

/* One \u escape (the backslash and u already read), a surrogate pair taken whole; a lone
   surrogate becomes U+FFFD. */
static int rb__jescape_u(rb__jp *p, unsigned *u)
{
    unsigned lo;
    if (rb__jhex4(p, u)) return -1;
    if (*u >= 0xd800 && *u < 0xdc00 && p->n - p->i >= 6 && p->s[p->i] == '\\' && p->s[p->i + 1] == 'u') {
        size_t back = p->i;
        p->i += 2;
        if (rb__jhex4(p, &lo)) return -1;
        if (lo >= 0xdc00 && lo < 0xe000) { *u = 0x10000 + ((*u - 0xd800) << 10) + (lo - 0xdc00); return 0; }
        p->i = back;
    }
    if (*u >= 0xd800 && *u < 0xe000) *u = 0xfffd;
    return 0;
}

/* A string at p->i (the opening quote): decoded into a new buffer, never longer than its source. */
static char *rb__jstring(rb__jp *p)
{
    size_t start = ++p->i, o = 0;
    char *out;
    while (p->i < p->n && p->s[p->i] != '"') p->i += p->s[p->i] == '\\' ? 2 : 1;
    if (p->i >= p->n) { rb__jfail(p, "a string that never ends"); return NULL; }
    out = (char *)malloc(p->i - start + 1);
    if (!out) { rb__jfail(p, "out of memory"); return NULL; }
    for (p->i = start; p->s[p->i] != '"';) {
        unsigned char c = (unsigned char)p->s[p->i++];
        unsigned u;
        if (c < 0x20) { free(out); rb__jfail(p, "a control character inside a string"); return NULL; }
        if (c != '\\') { out[o++] = (char)c; continue; }
        c = (unsigned char)p->s[p->i++];
        switch (c) {
        case '"': case '\\': case '/': out[o++] = (char)c; break;
        case 'b': out[o++] = '\b'; break;
        case 'f': out[o++] = '\f'; break;
        case 'n': out[o++] = '\n'; break;
        case 'r': out[o++] = '\r'; break;
        case 't': out[o++] = '\t'; break;
        case 'u':   /* 6 source bytes give at most 3 (or 12 give 4): the buffer suffices */
            if (rb__jescape_u(p, &u)) { free(out); rb__jfail(p, "a bad \\u escape"); return NULL; }
            o += rb__utf8_put(out + o, u);
            break;
        default: free(out); rb__jfail(p, "an unknown escape"); return NULL;
        }
    }
    p->i++;
    out[o] = 0;
    return out;
}

/* A number in JSON's own grammar, read with strtod (the caller holds the C locale). */
static rb_json *rb__jnumber(rb__jp *p)
{
    size_t a = p->i, k;
    char buf[64];
    rb_json *v;
    if (p->i < p->n && p->s[p->i] == '-') p->i++;
    if (p->i < p->n && p->s[p->i] == '0') p->i++;
    else if (p->i < p->n && p->s[p->i] >= '1' && p->s[p->i] <= '9') while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9') p->i++;
    else return rb__jfail(p, "a value");
    if (p->i < p->n && p->s[p->i] == '.') {
        k = ++p->i;
        while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9') p->i++;
        if (p->i == k) return rb__jfail(p, "digits after the decimal point");
    }
    if (p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
        p->i++;
        if (p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-')) p->i++;
        k = p->i;
        while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9') p->i++;
        if (p->i == k) return rb__jfail(p, "digits in the exponent");
    }
    if (p->i - a >= sizeof buf) return rb__jfail(p, "a number of at most 63 characters");
    memcpy(buf, p->s + a, p->i - a);
    buf[p->i - a] = 0;
    if (!(v = rb__jnode(p, RB_JSON_NUMBER))) return NULL;
    v->num = strtod(buf, NULL);
    return v;
}

/* The members of an object or the elements of an array, after its opening bracket. */
static rb_json *rb__jcontainer(rb__jp *p, int depth, int object)
{
    rb_json *v = rb__jnode(p, object ? RB_JSON_OBJECT : RB_JSON_ARRAY), **tail;
    char close = object ? '}' : ']';
    if (!v) return NULL;
    tail = &v->child;
    p->i++;
    rb__jspace(p);
    if (p->i < p->n && p->s[p->i] == close) { p->i++; return v; }
    for (;;) {
        char *key = NULL;
        rb_json *e;
        rb__jspace(p);
        if (object) {
            if (p->i >= p->n || p->s[p->i] != '"' || !(key = rb__jstring(p))) { rb_json_free(v); return rb__jfail(p, "a member name"); }
            rb__jspace(p);
            if (p->i >= p->n || p->s[p->i] != ':') { free(key); rb_json_free(v); return rb__jfail(p, "':'"); }
            p->i++;
        }
        if (!(e = rb__jvalue(p, depth + 1))) { free(key); rb_json_free(v); return NULL; }
        e->key = key;
        *tail = e;
        tail = &e->next;
        v->n++;
        rb__jspace(p);
        if (p->i < p->n && p->s[p->i] == ',') { p->i++; continue; }
        if (p->i < p->n && p->s[p->i] == close) { p->i++; return v; }
        rb_json_free(v);
        return rb__jfail(p, object ? "',' or '}'" : "',' or ']'");
    }
}

static rb_json *rb__jvalue(rb__jp *p, int depth)
{
    static const char *const words[] = {"null", "false", "true"};
    int k;
    rb__jspace(p);
    if (depth > RB__JSON_DEPTH) return rb__jfail(p, "at most 64 levels of nesting");
    if (p->i >= p->n) return rb__jfail(p, "a value, not the end");
    if (p->s[p->i] == '{' || p->s[p->i] == '[') return rb__jcontainer(p, depth, p->s[p->i] == '{');
    if (p->s[p->i] == '"') {
        rb_json *v;
        char *str = rb__jstring(p);
        if (!str) return NULL;
        if (!(v = rb__jnode(p, RB_JSON_STRING))) { free(str); return NULL; }
        v->str = str;
        return v;
    }
    for (k = 0; k < 3; k++) {
        size_t l = strlen(words[k]);
        if (p->n - p->i >= l && !memcmp(p->s + p->i, words[k], l)) {
            p->i += l;
            return rb__jnode(p, k == 0 ? RB_JSON_NULL : k == 1 ? RB_JSON_FALSE : RB_JSON_TRUE);
        }
    }
    return rb__jnumber(p);
}

RBDEF rb_json *rb_json_parse(const char *text, size_t len, char *why, size_t wl)
{
    rb__jp p;
    rb_json *v = NULL;
    p.s = text;
    p.n = text ? len : 0;
    p.i = 0;
    p.why = wl ? why : NULL;
    p.wl = wl;
    if (p.why) why[0] = 0;
    RB__IN_C_LOCALE(v = rb__jvalue(&p, 0));
    if (v) {
        rb__jspace(&p);
        if (p.i != p.n) { rb_json_free(v); v = rb__jfail(&p, "the end after the document"); }
    }
    return v;
}

RBDEF void rb_json_free(rb_json *v)
{
    while (v) {   /* siblings in a loop, children by recursion: depth is bounded by the parser */
        rb_json *next = v->next;
        rb_json_free(v->child);
        free(v->str);
        free((char *)v->key);
        free(v);
        v = next;
    }
}

RBDEF const rb_json *rb_json_get(const rb_json *obj, const char *key)
{
    const rb_json *e;
    if (!obj || obj->type != RB_JSON_OBJECT) return NULL;
    for (e = obj->child; e; e = e->next)
        if (e->key && !strcmp(e->key, key)) return e;
    return NULL;
}

/*
   Cells match by (strategy, threads, read size, pattern, cache, prewarm, scenario). For each
   pair: NEW/BASE of the cells' rates over their rounds with a 95% Welch interval
   (rb_ratio_ci), and a verdict: faster when the whole interval is above 1 + RB_DIFF_NOISE,
   slower when below 1 / (1 + RB_DIFF_NOISE), otherwise no significant difference. Needs two
   rounds a side: iterations of one round are not replicates. Two runs made at different
   times cannot cancel what the machine did between them, which is why the noise band is wide
   (RB_DIFF_NOISE); the report says so, and that configurations measured inside one run,
   paired by round, can resolve less. Where both runs timed the machine kernel, a row says
   when the machine itself was more than RB_MACHINE_MOVED faster or slower in one of them. */
typedef struct rb__dcell {
    const char *strategy, *pattern, *status, *scenario;
    unsigned threads;
    uint64_t read_size;
    int cache;
    double prewarm;
    const double *samples;   /* into the caller's storage */
    unsigned nsamples, rounds;
    int bound;               /* the figure is an upper bound (rb_result.rate_upper_bound) */
    double machine_ns;       /* the machine kernel's time around the cell (mean of before and after); 0: unknown */
    char label[64];          /* a group's row: its name, "g2 pread (together)", as strategy */
} rb__dcell;

static const char *rb__cache_word(int c)
{
    return c == RB_CACHE_EVICT_EACH ? "evict-each" : c == RB_CACHE_EVICT ? "evict" : "keep";
}

static int rb__dmatch(const rb__dcell *a, const rb__dcell *b)
{
    return !strcmp(a->strategy, b->strategy) && a->threads == b->threads && a->read_size == b->read_size &&
           !strcmp(a->pattern, b->pattern) && a->cache == b->cache && a->prewarm == b->prewarm &&
           !strcmp(a->scenario, b->scenario);
}

/* A member that must be there with this type, or a reason. */
static const rb_json *rb__jneed(const rb_json *o, const char *key, int type, char *why, size_t wl)
{
    const rb_json *v = rb_json_get(o, key);
    if (v && (v->type == type || (type == RB_JSON_FALSE && v->type == RB_JSON_TRUE))) return v;
    snprintf(why, wl, "not a readbench run report: \"%s\" is %s", key, v ? "of the wrong type" : "missing");
    return NULL;
}

/* A rate no machine reaches: ops/ms past this (10^12 ops/s) is no measurement. */
#define RB__DIFF_MAX_RATE 1e9
#define RB__DIFF_ALL_ZERO "every sample 0 ops/ms (no op finished): no ratio"

/* The samples of result x (the k-th): "samples", or the older "iterations" where there is no
   "samples"; an array of rates each, or a reason. NULL with why empty: neither is there. */
static const rb_json *rb__dsamples(const rb_json *x, unsigned k, char *why, size_t wl)
{
    const rb_json *v = rb_json_get(x, "samples"), *it = rb_json_get(x, "iterations"), *e;
    const char *key = v ? "samples" : "iterations";
    unsigned i = 0;
    if (wl) why[0] = 0;
    if (!v) v = it;
    if (!v) return NULL;
    if (v->type != RB_JSON_ARRAY || (it && it->type != RB_JSON_ARRAY)) {
        snprintf(why, wl, "not a readbench run report: result %u: \"%s\" is not an array of ops/ms", k + 1,
                 v->type != RB_JSON_ARRAY ? key : "iterations");
        return NULL;
    }
    for (e = v->child; e; e = e->next, i++)
        if (e->type != RB_JSON_NUMBER || !(e->num >= 0 && e->num <= RB__DIFF_MAX_RATE)) {
            const rb_json *s = rb_json_get(x, "strategy");
            char what[48];
            if (e->type == RB_JSON_NUMBER) snprintf(what, sizeof what, "%.6g", e->num);
            else snprintf(what, sizeof what, "not a number");
            snprintf(why, wl, "not a readbench run report: result %u (%.60s): %s value %u is %s: a rate is a number "
                     "of ops/ms from 0 to %g", k + 1, s && s->type == RB_JSON_STRING ? s->str : "?", key, i + 1, what,
                     RB__DIFF_MAX_RATE);
            return NULL;
        }
    return v;
}

/* 1: n samples, every one 0: a cell that measured nothing a ratio could be made of. */
static int rb__dall_zero(const double *x, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++)
        if (x[i] != 0) return 0;
    return n > 0;
}

static int rb__dcell_cmp(const void *a, const void *b)
{
    const rb__dcell *x = *(const rb__dcell *const *)a, *y = *(const rb__dcell *const *)b;
    int c = strcmp(x->strategy, y->strategy);
    if (!c) c = strcmp(x->pattern, y->pattern);
    if (!c) c = x->threads < y->threads ? -1 : x->threads > y->threads;
    if (!c) c = x->read_size < y->read_size ? -1 : x->read_size > y->read_size;
    if (!c) c = x < y ? -1 : x > y;   /* the report's order among equals */
    return c;
}

/* A report holds each cell once: the same cell twice would pair one copy and leave the other
   "only in base". RB_EINVAL names the two results. */
static int rb__dcells_unique(const rb__dcell *c, unsigned n, char *why, size_t wl)
{
    const rb__dcell **p = (const rb__dcell **)malloc((n ? n : 1) * sizeof *p);
    unsigned i;
    int rc = RB_OK;
    if (!p) { snprintf(why, wl, "out of memory"); return RB_ENOMEM; }
    for (i = 0; i < n; i++) p[i] = &c[i];
    qsort(p, n, sizeof *p, rb__dcell_cmp);
    for (i = 1; i < n && rc == RB_OK; i++)
        if (rb__dmatch(p[i - 1], p[i])) {
            snprintf(why, wl, "not a readbench run report: results %u and %u are the same cell (%.60s, %u thread%s, "
                     "%llu-byte reads, %.60s): a report holds each cell once", (unsigned)(p[i - 1] - c) + 1,
                     (unsigned)(p[i] - c) + 1, p[i]->strategy, p[i]->threads, p[i]->threads == 1 ? "" : "s",
                     (unsigned long long)p[i]->read_size, p[i]->pattern);
            rc = RB_EINVAL;
        }
    free(p);
    return rc;
}

/* The cells of a parsed report; samples are copied into *store (freed by the caller). Samples
   must be rates (finite, 0 or more, below RB__DIFF_MAX_RATE), and no cell may be there twice:
   anything else is no report of readbench's (RB_EINVAL, naming the result). */
static int rb__dcells_json(const rb_json *doc, rb__dcell **out, unsigned *n, double **store, char *why, size_t wl)
{
    const rb_json *cfg = rb__jneed(doc, "config", RB_JSON_OBJECT, why, wl), *res, *x, *v;
    const rb_json *sc = rb_json_get(doc, "scenario");
    size_t total = 0, used = 0;
    unsigned k = 0;
    int cache = RB_CACHE_KEEP;
    double prewarm = 0;
    if (!cfg || !(res = rb__jneed(doc, "results", RB_JSON_ARRAY, why, wl))) return RB_EINVAL;
    if ((v = rb_json_get(cfg, "cache")) && v->type == RB_JSON_STRING)
        cache = !strcmp(v->str, "evict-each") ? RB_CACHE_EVICT_EACH : !strcmp(v->str, "evict") ? RB_CACHE_EVICT : RB_CACHE_KEEP;
    if ((v = rb_json_get(cfg, "prewarm")) && v->type == RB_JSON_NUMBER) prewarm = v->num;
    for (x = res->child; x; x = x->next, k++)   /* counted as they are copied below: the same array each */
        if ((v = rb__dsamples(x, k, why, wl)) != NULL) total += v->n;
        else if (why[0]) return RB_EINVAL;
    k = 0;
    *out = (rb__dcell *)calloc(res->n ? res->n : 1, sizeof **out);
    *store = (double *)calloc(total ? total : 1, sizeof **store);
    if (!*out || !*store) { snprintf(why, wl, "out of memory"); return RB_ENOMEM; }
    for (x = res->child; x; x = x->next, k++) {
        rb__dcell *c = &(*out)[k];
        const rb_json *s, *t, *r, *p, *st, *e;
        if (!(s = rb__jneed(x, "strategy", RB_JSON_STRING, why, wl)) || !(t = rb__jneed(x, "threads", RB_JSON_NUMBER, why, wl)) ||
            !(r = rb__jneed(x, "read_size", RB_JSON_NUMBER, why, wl)) || !(p = rb__jneed(x, "pattern", RB_JSON_STRING, why, wl)) ||
            !(st = rb__jneed(x, "status", RB_JSON_STRING, why, wl)))
            return RB_EINVAL;
        c->strategy = s->str;
        if ((v = rb_json_get(x, "group")) && v->type == RB_JSON_OBJECT) {   /* a group's rows pair by group and run */
            const rb_json *gi = rb_json_get(v, "index"), *gr = rb_json_get(v, "run");
            if (gi && gi->type == RB_JSON_NUMBER && gr && gr->type == RB_JSON_STRING) {
                if (!(gi->num >= 1 && gi->num <= RB_MAX_GROUPS && gi->num == floor(gi->num))) {
                    snprintf(why, wl, "not a readbench run report: result %u: group index %.6g is no group's number "
                             "(1 to %u)", k + 1, gi->num, (unsigned)RB_MAX_GROUPS);
                    return RB_EINVAL;
                }
                snprintf(c->label, sizeof c->label, "g%u %s (%s)", (unsigned)gi->num, s->str, gr->str);
                c->strategy = c->label;
            }
        }
        c->threads = t->num >= 0 && t->num < 1e9 ? (unsigned)t->num : 0;
        c->read_size = r->num >= 0 && r->num < 1e18 ? (uint64_t)r->num : 0;
        c->pattern = p->str;
        c->status = st->str;
        c->scenario = sc && sc->type == RB_JSON_STRING ? sc->str : "";
        c->cache = cache;
        c->prewarm = prewarm;
        c->samples = *store + used;
        c->rounds = (v = rb_json_get(x, "rounds")) && v->type == RB_JSON_NUMBER && v->num >= 1 && v->num <= RB_MAX_ROUNDS
                        ? (unsigned)v->num : 1;
        c->bound = (v = rb_json_get(x, "ops_per_ms_upper_bound")) && v->type == RB_JSON_TRUE;
        if ((v = rb_json_get(x, "machine_drift")) && v->type == RB_JSON_OBJECT) {
            const rb_json *mb = rb_json_get(v, "before_ns"), *ma = rb_json_get(v, "after_ns");
            if (mb && ma && mb->type == RB_JSON_NUMBER && ma->type == RB_JSON_NUMBER && mb->num > 0 && ma->num > 0 &&
                mb->num < 1e15 && ma->num < 1e15)
                c->machine_ns = (mb->num + ma->num) / 2;
        }
        v = rb__dsamples(x, k, why, wl);
        for (e = v ? v->child : NULL; e && used < total; e = e->next) (*store)[used++] = e->num, c->nsamples++;
        if (!strcmp(c->status, "ok") && rb__dall_zero(c->samples, c->nsamples)) c->status = RB__DIFF_ALL_ZERO;
    }
    *n = k;
    return rb__dcells_unique(*out, k, why, wl);
}

/* The cells of a report in memory (a run that just ended). */
static int rb__dcells_report(const rb_report *r, rb__dcell **out, unsigned *n)
{
    unsigned i;
    *out = (rb__dcell *)calloc(r->count ? r->count : 1, sizeof **out);
    if (!*out) return RB_ENOMEM;
    for (i = 0; i < r->count; i++) {
        const rb_result *x = &r->results[i];
        rb__dcell *c = &(*out)[i];
        c->strategy = x->group ? rb__label(x, c->label, sizeof c->label) : x->strategy;
        c->threads = x->threads;
        c->read_size = x->read_size;
        c->pattern = x->pattern_spec;
        c->status = rb_status_word(x->status);
        c->scenario = r->scenario ? r->scenario : "";
        c->cache = r->cfg ? r->cfg->cache : RB_CACHE_KEEP;
        c->prewarm = r->cfg ? r->cfg->prewarm : 0;
        c->samples = x->status == RB_OK ? rb__samples(x, &c->nsamples) : NULL;
        c->rounds = x->samples && x->rounds ? x->rounds : 1;
        c->bound = x->rate_upper_bound;
        c->machine_ns = x->machine_before_ns > 0 ? (x->machine_before_ns + x->machine_after_ns) / 2 : 0;
        if (x->status != RB_OK) c->nsamples = 0;
        if (x->status == RB_OK && rb__dall_zero(c->samples, c->nsamples)) c->status = RB__DIFF_ALL_ZERO;
    }
    *n = r->count;
    return RB_OK;
}

/* One row of the comparison: a pair, or a cell that only one side has (b or c NULL). */
/* A side whose figure is an upper bound (no op completed inside an iteration: "under X"): no
   ratio, but a collapse is still a verdict. New under X is slower when X lies below the
   whole interval of base (less the band); base under X and new above it, faster. */
static void rb__diff_bound(rb_diff_row *d, const rb__dcell *b, const rb__dcell *c, const rb_stats *sb, const rb_stats *sc)
{
    d->ratio = d->base_median > 0 ? d->new_median / d->base_median : NAN;
    if (b->bound && c->bound) {
        snprintf(d->note, sizeof d->note, "both sides are upper bounds (no op completed inside an iteration): no ratio");
    } else if (c->bound) {
        if (sb->ci_lo == sb->ci_lo && d->new_median < sb->ci_lo / (1 + d->band)) d->verdict = RB_DIFF_SLOWER;
        snprintf(d->note, sizeof d->note, "new is an upper bound (under %.3g ops/ms: no op completed inside an "
                 "iteration)%s", d->new_median, sb->ci_lo == sb->ci_lo ? "" : "; base has too few rounds to compare");
    } else {
        if (sc->ci_lo == sc->ci_lo && sc->ci_lo > d->base_median * (1 + d->band)) d->verdict = RB_DIFF_FASTER;
        snprintf(d->note, sizeof d->note, "base is an upper bound (under %.3g ops/ms: no op completed inside an "
                 "iteration)%s", d->base_median, sc->ci_lo == sc->ci_lo ? "" : "; new has too few rounds to compare");
    }
    if (d->verdict == RB_DIFF_NOT_COMPARABLE && !(b->bound && c->bound) && sb->ci_lo == sb->ci_lo && sc->ci_lo == sc->ci_lo)
        d->verdict = RB_DIFF_SAME;
}

static void rb__diff_row(rb_diff_row *d, const rb__dcell *b, const rb__dcell *c)
{
    const rb__dcell *any = b ? b : c;
    rb_stats sb, sc;
    memset(d, 0, sizeof *d);
    if (!any) return;   /* neither side: nothing to describe (the callers never ask) */
    snprintf(d->strategy, sizeof d->strategy, "%s", any->strategy);
    snprintf(d->pattern, sizeof d->pattern, "%s", any->pattern);
    snprintf(d->scenario, sizeof d->scenario, "%s", any->scenario);
    d->threads = any->threads;
    d->read_size = any->read_size;
    d->cache = any->cache;
    d->prewarm = any->prewarm;
    d->base_median = d->new_median = d->ratio = d->lo = d->hi = d->machine_ratio = NAN;
    d->verdict = !b ? RB_DIFF_NEW_ONLY : !c ? RB_DIFF_BASE_ONLY : RB_DIFF_NOT_COMPARABLE;
    if (b && strcmp(b->status, "ok")) snprintf(d->note, sizeof d->note, "base: %s", b->status);
    else if (c && strcmp(c->status, "ok")) snprintf(d->note, sizeof d->note, "new: %s", c->status);
    if (b && !strcmp(b->status, "ok")) { rb_stats_of(b->samples, b->nsamples, b->rounds, &sb); d->base_median = sb.median; }
    if (c && !strcmp(c->status, "ok")) { rb_stats_of(c->samples, c->nsamples, c->rounds, &sc); d->new_median = sc.median; }
    if (!b || !c || d->note[0]) return;
    d->machine_ratio = b->machine_ns > 0 && c->machine_ns > 0 ? c->machine_ns / b->machine_ns : NAN;
    d->band = RB_DIFF_NOISE;
    if (b->bound || c->bound) { rb__diff_bound(d, b, c, &sb, &sc); return; }
    if (rb_ratio_ci(b->samples, b->nsamples, b->rounds, c->samples, c->nsamples, c->rounds, &d->ratio, &d->lo, &d->hi) != 0) {
        unsigned r = RB__MIN(b->rounds, c->rounds);
        if (r < 2)
            snprintf(d->note, sizeof d->note, "%u round%s: too few for an interval or a verdict; use --rounds 5",
                     r, r == 1 ? "" : "s");
        else
            snprintf(d->note, sizeof d->note, "a round without a positive rate, or rounds of unequal length: no interval");
        if (b->nsamples && c->nsamples && d->base_median > 0) d->ratio = d->new_median / d->base_median;
        return;
    }
    d->verdict = d->lo > 1 + d->band ? RB_DIFF_FASTER : d->hi < 1 / (1 + d->band) ? RB_DIFF_SLOWER : RB_DIFF_SAME;
    if (d->machine_ratio == d->machine_ratio && fabs(log(d->machine_ratio)) > log(1 + RB_MACHINE_MOVED))
        snprintf(d->note, sizeof d->note, "the machine itself was %.0f%% %s in new (a fixed CPU kernel): a CPU-bound "
                 "cell moves with it", 100 * (d->machine_ratio > 1 ? d->machine_ratio - 1 : 1 / d->machine_ratio - 1),
                 d->machine_ratio > 1 ? "slower" : "faster");
}

/* Pairs every base cell with its match in new, then lists the new cells nobody matched. */
static int rb__diff_cells(const rb__dcell *b, unsigned nb, const rb__dcell *c, unsigned nc, rb_diff *d)
{
    unsigned i, j;
    char *used = (char *)calloc(nc ? nc : 1, 1);
    d->rows = (rb_diff_row *)calloc((size_t)nb + nc + 1, sizeof *d->rows);
    d->n = 0;
    if (!used || !d->rows) { free(used); free(d->rows); d->rows = NULL; return RB_ENOMEM; }
    for (i = 0; i < nb; i++) {
        for (j = 0; j < nc && (used[j] || !rb__dmatch(&b[i], &c[j])); j++) {}
        if (j < nc) used[j] = 1;
        rb__diff_row(&d->rows[d->n++], &b[i], j < nc ? &c[j] : NULL);
    }
    for (j = 0; j < nc; j++)
        if (!used[j]) rb__diff_row(&d->rows[d->n++], NULL, &c[j]);
    free(used);
    return RB_OK;
}

/* A whole file, read through the same regular-file gate as the benchmark file. */
static char *rb__slurp(const char *path, size_t *len, rb_error *err)
{
    struct stat st;
    int fd = rb__open_regular(path, 0, &st, err);
    char *buf;
    size_t got = 0;
    if (fd < 0) return NULL;
    if ((uint64_t)st.st_size > ((uint64_t)1 << 30)) {
        close(fd);
        rb__seterr(err, RB_EINVAL, 0, "", "%s is %llu bytes: not a readbench report", path, (unsigned long long)st.st_size);
        return NULL;
    }
    buf = (char *)malloc((size_t)st.st_size + 1);
    while (buf && got < (size_t)st.st_size) {
        ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) { rb__seterr(err, RB_ESYS, r < 0 ? errno : 0, "read", "cannot read %s: %s", path, r < 0 ? strerror(errno) : "it shrank"); free(buf); buf = NULL; break; }
        got += (size_t)r;
    }
    if (!buf && got == 0 && err && err->status == RB_OK) rb__seterr(err, RB_ENOMEM, 0, "", "out of memory reading %s", path);
    if (close(fd) != 0 && buf) { rb__seterr(err, RB_ESYS, errno, "close", "cannot close %s: %s", path, strerror(errno)); free(buf); return NULL; }
    if (buf) { buf[got] = 0; *len = got; }
    return buf;
}

RBDEF rb_json *rb_json_load(const char *path, char *why, size_t wl)
{
    rb_error err;
    size_t len = 0;
    char *text, reason[RB_REASON_LEN];
    rb_json *doc;
    memset(&err, 0, sizeof err);
    if (!(text = rb__slurp(path, &len, &err))) { snprintf(why, wl, "%s", err.msg); return NULL; }
    doc = rb_json_parse(text, len, reason, sizeof reason);
    free(text);
    if (!doc) snprintf(why, wl, "%s: %s", path, reason);
    return doc;
}

RBDEF rb_json *rb_json_load_report(const char *path, char *why, size_t wl)
{
    char reason[RB_REASON_LEN];
    rb_json *doc = rb_json_load(path, why, wl);
    if (!doc || rb_diff_make(doc, NULL, NULL, NULL, reason, sizeof reason) == RB_OK) return doc;
    snprintf(why, wl, "%s: %s", path, reason);   /* a missing key: which file lacks it */
    rb_json_free(doc);
    return NULL;
}

RBDEF int rb_diff_make(const rb_json *base, const rb_json *cur, const rb_report *cur_report,
                       rb_diff *d, char *why, size_t wl)
{
    rb__dcell *b = NULL, *c = NULL;
    double *sb = NULL, *sc = NULL;
    unsigned nb = 0, nc = 0;
    int rc;
    if (d) memset(d, 0, sizeof *d);
    rc = rb__dcells_json(base, &b, &nb, &sb, why, wl);
    if (rc == RB_OK && (cur || cur_report))
        rc = cur ? rb__dcells_json(cur, &c, &nc, &sc, why, wl) : rb__dcells_report(cur_report, &c, &nc);
    if (rc == RB_OK && d && (cur || cur_report)) rc = rb__diff_cells(b, nb, c, nc, d);
    if (rc == RB_ENOMEM) snprintf(why, wl, "out of memory");
    free(b); free(c); free(sb); free(sc);
    return rc;
}

RBDEF void rb_diff_free(rb_diff *d)
{
    free(d->rows);
    memset(d, 0, sizeof *d);
}

RBDEF int rb_report_baseline(FILE *f, const rb_json *base, const rb_report *r, int format, const char *base_name,
                             char *why, size_t wl)
{
    rb_diff d;
    int rc = rb_diff_make(base, NULL, r, &d, why, wl);
    if (rc == RB_OK) rb_report_diff(f, &d, format, base_name, "this run");
    rb_diff_free(&d);
    return rc;
}

RBDEF int rb_diff_files(const char *base_path, const char *new_path, rb_diff *d, char *why, size_t wl)
{
    rb_json *base = rb_json_load_report(base_path, why, wl), *cur = base ? rb_json_load_report(new_path, why, wl) : NULL;
    int rc = cur ? rb_diff_make(base, cur, NULL, d, why, wl) : RB_EINVAL;   /* rows own their text */
    if (!cur) memset(d, 0, sizeof *d);
    rb_json_free(base);
    rb_json_free(cur);
    return rc;
}

static const char *const rb__diff_drift_note =
    "base and new are separate runs: what the machine did between them (its speed drifts by tens of percent "
    "between minutes on a shared VM) is in the ratio and cannot cancel; to resolve smaller differences, measure "
    "the configurations in one run (strategies, threads and read sizes are its axes) with --rounds 5 and read "
    "its paired-by-round ratios";

static const char *rb__verdict_word(int v)
{
    static const char *const words[] = {"faster", "slower", "no significant difference", "not comparable",
                                        "only in base", "only in new"};
    return v >= 0 && v <= RB_DIFF_NEW_ONLY ? words[v] : "?";
}

static void rb__diff_json(FILE *f, const rb_diff *d, const char *base_name, const char *new_name)
{
    unsigned i;
    fprintf(f, "{\"readbench\": \"%s\", \"diff\": {\"base\": ", RB_VERSION);
    rb__json_str_or_null(f, base_name);
    fprintf(f, ", \"new\": ");
    rb__json_str_or_null(f, new_name);
    fprintf(f, ", \"noise\": %g, \"note\": ", RB_DIFF_NOISE);
    rb_json_string(f, rb__diff_drift_note);
    fprintf(f, "},\n \"cells\": [");
    for (i = 0; i < d->n; i++) {
        const rb_diff_row *x = &d->rows[i];
        fprintf(f, "%s\n  {\"strategy\": ", i ? "," : "");
        rb_json_string(f, x->strategy);
        fprintf(f, ", \"threads\": %u, \"read_size\": %llu, \"pattern\": ", x->threads, (unsigned long long)x->read_size);
        rb_json_string(f, x->pattern);
        fprintf(f, ", \"cache\": \"%s\", \"prewarm\": ", rb__cache_word(x->cache));
        rb__json_num(f, x->prewarm);
        fprintf(f, ", \"scenario\": ");
        rb__json_str_or_null(f, x->scenario);
        fprintf(f, ", \"base_median\": ");
        rb__json_num(f, x->base_median);
        fprintf(f, ", \"new_median\": ");
        rb__json_num(f, x->new_median);
        fprintf(f, ", \"ratio\": ");
        rb__json_num(f, x->ratio);
        fprintf(f, ", \"ratio_ci\": ");
        rb__json_interval(f, 1, x->lo, x->hi);
        fprintf(f, ", \"machine_ratio\": ");
        rb__json_num(f, x->machine_ratio);
        fprintf(f, ", \"band\": ");
        rb__json_num(f, x->band > 0 ? x->band : NAN);
        fprintf(f, ", \"verdict\": \"%s\", \"note\": ", rb__verdict_word(x->verdict));
        rb__json_str_or_null(f, x->note);
        fputc('}', f);
    }
    fprintf(f, "\n ]}\n");
}

static void rb__diff_table(FILE *f, const rb_diff *d, int md, const char *base_name, const char *new_name)
{
    static const char *const head[] = {"strategy", "threads", "read", "pattern", "cache", "base ops/ms",
                                       "new ops/ms", "new/base", "95% interval", "verdict"};
    char c[10][192];
    const char *cells[10];
    int w[10];
    unsigned i, k, pass;
    fprintf(f, "%sreadbench diff: %s -> %s%s\n\n", md ? "**" : "", base_name ? base_name : "base",
            new_name ? new_name : "new", md ? "**" : "");
    for (k = 0; k < 10; k++) w[k] = rb__dlen(head[k]);
    for (pass = 0; pass < 2; pass++) {   /* widths first, then the rows */
        if (pass) {
            for (k = 0; k < 10; k++) cells[k] = head[k];
            rb__row(f, md, cells, 10, w);
            if (md) rb__rule(f, 10);
        }
        for (i = 0; i < d->n; i++) {
            const rb_diff_row *x = &d->rows[i];
            snprintf(c[0], 192, "%s", x->strategy);
            snprintf(c[1], 192, "%u", x->threads);
            rb_format_size(x->read_size, c[2], 192);
            snprintf(c[3], 192, "%s", x->pattern);
            if (x->prewarm > 0) snprintf(c[4], 192, "%s, prewarm %.2g", rb__cache_word(x->cache), x->prewarm);
            else snprintf(c[4], 192, "%s", rb__cache_word(x->cache));
            snprintf(c[5], 192, x->base_median == x->base_median ? "%.4g" : "-", x->base_median);
            snprintf(c[6], 192, x->new_median == x->new_median ? "%.4g" : "-", x->new_median);
            snprintf(c[7], 192, x->ratio == x->ratio ? "%.3f" : "-", x->ratio);
            if (x->lo == x->lo) snprintf(c[8], 192, "[%.3f, %.3f]", x->lo, x->hi);
            else snprintf(c[8], 192, "-");
            snprintf(c[9], 192, "%s%s%s", rb__verdict_word(x->verdict), x->note[0] ? ": " : "", x->note);
            for (k = 0; k < 10; k++) {
                cells[k] = c[k];
                if (!pass) w[k] = RB__MAX(w[k], rb__dlen(c[k]));
            }
            if (pass) rb__row(f, md, cells, 10, w);
        }
    }
    fprintf(f, "\n%snew/base: ratio of the cells' rates over their rounds (geometric means of the round medians), "
               "higher is faster; its 95%% interval is Welch's t on the round medians' logarithms; faster or slower: "
               "the whole interval is more than %.0f%% away from 1%s\n", md ? "*" : "", 100 * RB_DIFF_NOISE, md ? "*" : "");
    fprintf(f, "%s%s%s\n", md ? "*" : "", rb__diff_drift_note, md ? "*" : "");
}

static void rb__report_diff(FILE *f, const rb_diff *d, int format, const char *base_name, const char *new_name)
{
    if (format == RB_FORMAT_JSON) rb__diff_json(f, d, base_name, new_name);
    else rb__diff_table(f, d, format == RB_FORMAT_MARKDOWN, base_name, new_name);
}

RBDEF void rb_report_diff(FILE *f, const rb_diff *d, int format, const char *base_name, const char *new_name)
{
    RB__IN_C_LOCALE(rb__report_diff(f, d, format, base_name, new_name));
}

/* ==== 3.7 advise ============================================================================== */

/*
   The question a user brings is "which one should my program use?", and the cache state
   it will meet is usually unknown: a strategy that wins warm and collapses cold (plain mmap
   with 8 MiB read-around) is a bet, not an answer. So every cell becomes a fraction of the
   best cell of its column (the regret table), each strategy's worst fraction over the
   columns is its worst case, and the safe choice is the strategy whose worst case is best
   (minimax regret). A difference decides only when the measurement can tell it: the cells of
   a column ran in the same rounds, so two differ significantly when the interval of their
   ratio paired by round lies wholly beyond RB_PAIRED_NOISE; otherwise they are a tie (or, with
   fewer than 2 rounds in common, unresolved), and the verdict names every strategy in it
   rather than picking one. A
   column nothing could be measured in (pressure where no memory can be pinned) is named and
   left out: the verdict covers the rest. */
static const char *const rb__state_names[RB_STATE_COUNT] = {"warm", "half-cold", "cold", "pressure"};

RBDEF const char *rb_state_name(int state)
{
    return state >= 0 && state < RB_STATE_COUNT ? rb__state_names[state] : NULL;
}

RBDEF int rb_state_find(const char *name)
{
    int k;
    for (k = 0; name && k < RB_STATE_COUNT; k++)
        if (!strcmp(rb__state_names[k], name)) return k;
    return -1;
}

static int rb__name_list(const char *s, const char *const *names, unsigned count, int *out, unsigned cap, unsigned *n);
RBDEF int rb_parse_state_list(const char *s, int *out, unsigned cap, unsigned *n)
{
    return rb__name_list(s, rb__state_names, RB_STATE_COUNT, out, cap, n);
}

/* A cell's headline figure (the median of a matrix run; the mean of a lone rb_run). */
static double rb__adv_value(const rb_result *x) { return x->nsamples ? x->ops_per_ms_median : x->ops_per_ms; }

static const rb_result *rb__adv_cell(const rb_advise_input *in, unsigned s, unsigned c)
{
    const rb_result *x = in->cells[(size_t)s * in->nconditions + c];
    return x && x->status == RB_OK && rb__adv_value(x) == rb__adv_value(x) ? x : NULL;
}

/* 1: b is not significantly slower than a (the faster one); 0: it is; 2: they cannot be told
   apart yet. Both were measured in the same rounds of one run, so they pair by round
   (rb_paired_ratio): b is slower when the interval of b/a lies wholly below 1 - RB_PAIRED_NOISE.
   Cells with fewer than 2 rounds in common have no interval: unresolved, which counts as a
   tie (the next round measures them again, rb__adv_contested) and the verdict says so. */
static int rb__adv_tied(const rb_result *a, const rb_result *b)
{
    rb_stats p;
    if (a == b) return 1;
    if (b->rate_upper_bound) {   /* under X: slower only when X is below a's whole interval */
        if (a->ci_lo != a->ci_lo) return 2;
        return !(rb__adv_value(b) < a->ci_lo * (1 - RB_PAIRED_NOISE));
    }
    if (rb_paired_ratio(b, a, &p) < 2 || p.ci_hi != p.ci_hi) return 2;
    return !(p.ci_hi < 1 - RB_PAIRED_NOISE);
}

/* A fraction as the tables print it: "100%", "62%", "0.46%", "0.021%". */
static void rb__adv_pct(double f, char *buf, size_t len)
{
    if (f != f) snprintf(buf, len, "-");
    else if (f >= 0.1) snprintf(buf, len, "%.0f%%", 100 * f);
    else snprintf(buf, len, "%.2g%%", 100 * f);
}

/* The same, said as the most it can be (rb_advice.worst_upper, .upper): "< 2%", "<= 40%". */
static void rb__adv_pct_up(double f, int upper, char *buf, size_t len)
{
    char p[16];
    rb__adv_pct(f, p, sizeof p);
    snprintf(buf, len, "%s%s", f != f ? "" : upper == 1 ? "< " : upper == 2 ? "<= " : "", p);
}

/* 1: the row's strategy does no I/O (RB_S_NOIO), from the caller's flags or the table's row:
   what it measures is the harness's own cost, so it is a reference, never a choice. */
static int rb__adv_noio(const rb_advise_input *in, unsigned s)
{
    const rb_strategy *st;
    if (in->flags) return (in->flags[s] & RB_S_NOIO) != 0;
    st = rb_strategy_find(in->strategies[s]);
    return st && (st->flags & RB_S_NOIO);
}

static void rb__adv_line(char (*lines)[RB_REASON_LEN], unsigned *n, const char *fmt, ...) RB__PRINTF(3, 4);
static void rb__adv_line(char (*lines)[RB_REASON_LEN], unsigned *n, const char *fmt, ...)
{
    va_list ap;
    if (*n >= RB_ADVISE_MAX_LINES) return;
    va_start(ap, fmt);
    rb__vfmt(lines[(*n)++], RB_REASON_LEN, fmt, ap);
    va_end(ap);
}

/* Phase 1, per column: the best median, each cell's fraction of it, and who is tied with it.
   A reference row (no I/O) is not ranked. An upper-bound cell ranks as its bound (its
   fraction is at most that) but is never the best: what it measured is only "under X". */
static void rb__adv_columns(const rb_advise_input *in, rb_advice *a)
{
    unsigned s, c;
    int t;
    for (s = 0; s < in->nstrategies; s++) a->reference[s] = (unsigned char)rb__adv_noio(in, s);
    for (c = 0; c < in->nconditions; c++) {
        const rb_result *best = NULL;
        a->best[c] = -1;
        for (s = 0; s < in->nstrategies; s++) {
            const rb_result *x = rb__adv_cell(in, s, c);
            if (x && !a->reference[s] && !x->rate_upper_bound && (!best || rb__adv_value(x) > rb__adv_value(best))) {
                best = x;
                a->best[c] = (int)s;
            }
        }
        a->measured += best != NULL;
        for (s = 0; s < in->nstrategies; s++) {
            const rb_result *x = rb__adv_cell(in, s, c);
            a->fraction[s][c] = NAN;
            a->tied[s][c] = -1;
            a->upper[s][c] = x && x->rate_upper_bound;
            if (!x || !best || a->reference[s]) continue;
            a->fraction[s][c] = rb__adv_value(best) > 0 ? rb__adv_value(x) / rb__adv_value(best) : 1;
            t = rb__adv_tied(best, x);
            a->tied[s][c] = (signed char)(t != 0);
            a->unresolved[s][c] = t == 2;
            a->nunresolved += t == 2;
        }
    }
}

/* Phase 2: each strategy's worst case over the measured columns, with an interval (the
   lowest lower bound and the lowest upper bound of its cells, over each column's best median),
   then the safe choice and who ties with it. A strategy missing from a column that others
   measured has no worst case: it cannot be the safe choice. An upper-bound cell decides as
   its bound (regret at least the best over X) and its interval reaches down to 0: the worst
   case it gives is at most that, and whatever it ties with is said as a tie. A cell without
   an interval (one round) cannot be ordered against anything: such a strategy ties with the
   safe choice. */
static void rb__adv_worst(const rb_advise_input *in, rb_advice *a)
{
    double lo[RB_MAX_AXIS], hi[RB_MAX_AXIS];
    unsigned char noci[RB_MAX_AXIS];
    unsigned s, c;
    a->safe = -1;
    for (s = 0; s < in->nstrategies; s++) {
        int bounded = 0;
        a->worst[s] = lo[s] = hi[s] = NAN;
        noci[s] = 0;
        a->worst_condition[s] = -1;
        a->worst_upper[s] = 0;
        for (c = 0; c < in->nconditions && !a->reference[s]; c++) {
            const rb_result *x = rb__adv_cell(in, s, c), *b;
            double m, l, h;
            if (a->best[c] < 0) continue;
            if (!x) { a->worst[s] = NAN; a->worst_condition[s] = (int)c; break; }
            b = rb__adv_cell(in, (unsigned)a->best[c], c);
            m = rb__adv_value(b) > 0 ? rb__adv_value(b) : 1;
            l = x->rate_upper_bound ? 0 : x->ci_lo == x->ci_lo ? x->ci_lo / m : a->fraction[s][c];
            h = !x->rate_upper_bound && x->ci_hi == x->ci_hi ? x->ci_hi / m : a->fraction[s][c];
            noci[s] |= !x->rate_upper_bound && x->ci_lo != x->ci_lo;
            if (a->worst_condition[s] < 0 || a->fraction[s][c] < a->worst[s]) {
                a->worst[s] = a->fraction[s][c];
                a->worst_condition[s] = (int)c;
            }
            bounded |= x->rate_upper_bound;
            lo[s] = lo[s] == lo[s] ? RB__MIN(lo[s], l) : l;
            hi[s] = hi[s] == hi[s] ? RB__MIN(hi[s], h) : h;
        }
        if (a->worst[s] == a->worst[s] && bounded)
            a->worst_upper[s] = a->upper[s][a->worst_condition[s]] ? 1 : 2;
        if (a->worst[s] == a->worst[s] && (a->safe < 0 || a->worst[s] > a->worst[a->safe])) a->safe = (int)s;
    }
    for (s = 0; a->safe >= 0 && s < in->nstrategies; s++)
        a->safe_tied[s] = (int)s != a->safe && a->worst[s] == a->worst[s] &&
                          (noci[s] || noci[a->safe] || hi[s] >= lo[a->safe]);
}

/* "a, b and 2 more": the strategies with flag set, except `but`. */
static void rb__adv_names(const rb_advise_input *in, const unsigned char *flag, int but, char *buf, size_t len)
{
    unsigned s, n = 0, total = 0;
    buf[0] = 0;
    for (s = 0; s < in->nstrategies; s++) total += flag[s] && (int)s != but;
    for (s = 0; s < in->nstrategies; s++) {
        size_t l = strlen(buf);
        if (!flag[s] || (int)s == but) continue;
        if (n == 4 && total > 5) { rb__fmt(buf + l, len - l, " and %u more", total - 4); return; }
        rb__fmt(buf + l, len - l, "%s%s", n ? ", " : "", in->strategies[s]);
        n++;
    }
}

/* The cells measured while the machine itself moved (rb_result.machine_moved): a verdict that
   rests on them rests on two machines. */
static void rb__adv_moved(const rb_advise_input *in, rb_advice *a)
{
    unsigned s, c, n = 0;
    char names[160] = "";
    for (s = 0; s < in->nstrategies; s++)
        for (c = 0; c < in->nconditions; c++) {
            const rb_result *x = rb__adv_cell(in, s, c);
            size_t l = strlen(names);
            if (!x || !x->machine_moved) continue;
            if (n++ < 4) rb__fmt(names + l, sizeof names - l, "%s%s %s", l ? ", " : "", in->strategies[s], in->conditions[c]);
        }
    if (n)
        rb__adv_line(a->verdict, &a->nverdict, "the machine moved during %u cell%s (a fixed CPU kernel took more than "
                     "%.0f%% longer or less after %s than before): %s%s; %s figures describe two machines", n,
                     n == 1 ? "" : "s", 100 * RB_MACHINE_MOVED, n == 1 ? "it" : "each", names, n > 4 ? " and more" : "",
                     n == 1 ? "its" : "their");
}

/* Phase 3a: every column where a strategy (not a reference) has no ranked figure is named
   with why (the budget left it out, a failure, only upper bounds there), so that a verdict
   covering fewer columns than the table has, or a strategy missing from one, is never
   silent. A column with no best: the verdict covers the others. One with: whoever is
   missing from it cannot be the safe choice. */
static void rb__adv_gaps(const rb_advise_input *in, rb_advice *a)
{
    unsigned s, c;
    char names[160];
    unsigned char flag[RB_MAX_AXIS];
    for (c = 0; c < in->nconditions; c++) {
        const char *why = NULL, *given = in->missing && in->missing[c] && *in->missing[c] ? in->missing[c] : NULL;
        unsigned n = 0, bounds = 0;
        for (s = 0; s < in->nstrategies; s++) {
            const rb_result *x = in->cells[(size_t)s * in->nconditions + c];
            flag[s] = !a->reference[s] && a->tied[s][c] < 0;
            n += flag[s];
            if (flag[s] && a->upper[s][c]) bounds++;
            else if (flag[s] && !why && x && x->status != RB_OK && x->reason[0]) why = x->reason;
        }
        if (!n) continue;
        if (a->best[c] >= 0) {
            rb__adv_names(in, flag, -1, names, sizeof names);
            rb__fmt(a->gap[c], RB_REASON_LEN, "not measured for %s (%s)", names, why ? why : "no result");
            rb__adv_line(a->verdict, &a->nverdict, "%s: %s, so %s cannot be the safe choice", in->conditions[c],
                         a->gap[c], n == 1 ? "it" : "they");
            continue;
        }
        if (given || !bounds)
            rb__fmt(a->gap[c], RB_REASON_LEN, "not measured (%s)", given ? given : why ? why : "no strategy ran");
        else rb__fmt(a->gap[c], RB_REASON_LEN, "nothing to rank: %s (no op completed inside an iteration)",
                     bounds == n ? "every figure there is an upper bound" : "its figures are upper bounds or failures");
        rb__adv_line(a->verdict, &a->nverdict, "%s: %s; the verdict covers the other %u column%s", in->conditions[c],
                     a->gap[c], a->measured, a->measured == 1 ? "" : "s");
    }
    rb__adv_names(in, a->reference, -1, names, sizeof names);
    if (names[0])
        rb__adv_line(a->verdict, &a->nverdict, "%s: no I/O (the harness's own cost), shown for reference: never "
                     "ranked, never a choice", names);
}

/* Phase 3: the verdict, in words. */
static void rb__adv_verdict(const rb_advise_input *in, rb_advice *a)
{
    unsigned s, c, any = 0;
    char names[160], p[24], q[24];
    unsigned char flag[RB_MAX_AXIS];
    for (s = 0; s < in->nstrategies; s++)
        for (c = 0; c < in->nconditions; c++) any += rb__adv_cell(in, s, c) != NULL;
    if (!any) {
        rb__adv_line(a->verdict, &a->nverdict, "nothing was measured: no verdict");
        return;
    }
    rb__adv_gaps(in, a);
    if (!a->measured) {
        rb__adv_line(a->verdict, &a->nverdict, "no strategy could be ranked in any column: no verdict");
        return;
    }
    if (a->safe < 0) {
        rb__adv_line(a->verdict, &a->nverdict, "no strategy was measured in every column: no safe choice");
    } else {
        rb__adv_pct_up(a->worst[a->safe], a->worst_upper[a->safe], p, sizeof p);
        rb__adv_names(in, a->safe_tied, a->safe, names, sizeof names);
        rb__adv_line(a->verdict, &a->nverdict, "safe choice when the cache state is unknown: %s (at worst %s of the "
                     "best, %s)%s%s%s", in->strategies[a->safe], p, in->conditions[a->worst_condition[a->safe]],
                     names[0] ? "; tied within the intervals with " : "", names,
                     names[0] ? ": the measurements cannot order them" : "");
    }
    rb__adv_moved(in, a);
    if (a->nunresolved)
        rb__adv_line(a->verdict, &a->nverdict, "not resolved: %u cell%s shared fewer than 2 rounds with the best of "
                     "%s column, too few for an interval, so %s as tied; an interval needs 2 rounds and a useful one "
                     "5 (a larger --budget runs more)", a->nunresolved, a->nunresolved == 1 ? "" : "s",
                     a->nunresolved == 1 ? "its" : "their", a->nunresolved == 1 ? "it counts" : "they count");
    for (c = 0; c < in->nconditions; c++) {
        int b = a->best[c];
        const rb_result *bx;
        char tail[160] = "";
        if (b < 0) continue;
        bx = rb__adv_cell(in, (unsigned)b, c);
        for (s = 0; s < in->nstrategies; s++) flag[s] = a->tied[s][c] == 1;
        rb__adv_names(in, flag, b, names, sizeof names);
        if (a->safe >= 0 && a->safe != b) {
            rb__adv_pct_up(a->fraction[a->safe][c], a->upper[a->safe][c], q, sizeof q);
            rb__fmt(tail, sizeof tail, "; the safe choice reaches %s of it (%s)", q,
                    a->unresolved[a->safe][c] ? "not resolved: too few rounds"
                    : a->tied[a->safe][c] == 1 ? "a tie: inside the intervals" : "significant");
        }
        rb__adv_line(a->verdict, &a->nverdict, "best %s: %s, %.3g ops/ms%s%s%s", in->conditions[c], in->strategies[b],
                     rb__adv_value(bx), names[0] ? ", tied with " : "", names, tail);
    }
    /* a column's winner whose worst case is far below: the bet it is */
    for (s = 0; s < in->nstrategies; s++) {
        int wins = -1;
        for (c = 0; c < in->nconditions && wins < 0; c++)
            if (a->best[c] == (int)s) wins = (int)c;
        if (wins < 0 || (int)s == a->safe || !(a->worst[s] < 0.5) || a->worst_condition[s] < 0) continue;
        rb__adv_pct_up(a->worst[s], a->worst_upper[s], p, sizeof p);
        rb__adv_line(a->verdict, &a->nverdict, "%s is the best in %s but falls to %s of the best in %s: a bet on "
                     "the cache state", in->strategies[s], in->conditions[wins], p,
                     in->conditions[a->worst_condition[s]]);
    }
}

/* One reason: what a cell measured that explains its place (device bytes per read and read
   amplification, faults, skipped hints, residency, time per op), from the result's fields. */
static void rb__adv_reason(const rb_advise_input *in, const rb_advice *a, unsigned s, unsigned c, char *buf, size_t len)
{
    const rb_result *x = rb__adv_cell(in, s, c);
    /* per read issued, as the cell's own per-read figures (rb_result.reads_issued): the op in flight
       at each iteration's end is in the device bytes and faults */
    double reads = !x ? 0 : x->reads_issued ? (double)x->reads_issued : (double)x->ops * (x->reads_per_op ? x->reads_per_op : 1);
    char p[24], sz[32], rs[32];
    size_t l;
    if (!x) return;
    rb__adv_pct_up(a->fraction[s][c], a->upper[s][c], p, sizeof p);
    rb__fmt(buf, len, "%s, %s (%s of the best): ", in->strategies[s], in->conditions[c], p);
    l = strlen(buf);
    if (x->rate_upper_bound && rb__adv_value(x) > 0) {   /* under X ops/ms summed over threads: ops over threads/X */
        rb__fmt(buf + l, len - l, "no op completed inside an iteration: under %.3g ops/ms, each op taking over ~%.3g ms",
                rb__adv_value(x), (x->threads ? x->threads : 1) / rb__adv_value(x));
    } else if (x->device_read_bytes == 0) {
        rb__fmt(buf + l, len - l, "the device read nothing (every read from the page cache)");
    } else if (x->device_read_bytes > 0 && reads > 0) {
        double per = (double)x->device_read_bytes / reads;
        if (per >= 1048576) rb__fmt(sz, sizeof sz, "%.3g MiB", per / 1048576);
        else if (per >= 1024) rb__fmt(sz, sizeof sz, "%.3g KiB", per / 1024);
        else rb__fmt(sz, sizeof sz, "%.0f B", per);
        rb_format_size(x->read_size, rs, sizeof rs);
        rb__fmt(buf + l, len - l, "each %s read made the device read %s", rs, sz);
        l = strlen(buf);
        if (x->read_amplification >= 0) rb__fmt(buf + l, len - l, " (amplification %.3g", x->read_amplification);
        l = strlen(buf);
        if (x->read_amplification > 4 && in->env && in->env->read_ahead_kb > 0)
            rb__fmt(buf + l, len - l, ", read_ahead_kb %ld", in->env->read_ahead_kb);
        l = strlen(buf);
        if (x->read_amplification >= 0) rb__fmt(buf + l, len - l, ")");
    }
    l = strlen(buf);
    if (x->prefetch.calls > 0)
        rb__fmt(buf + l, len - l, "; skipped %.0f%% of its hints", 100.0 * (double)x->prefetch.skips / (double)x->prefetch.calls);
    l = strlen(buf);
    if (x->majflt >= 0 && reads > 0)
        rb__fmt(buf + l, len - l, "%s %.2g major faults per read", x->prefetch.calls > 0 ? " while there were" : ";",
                (double)x->majflt / reads);
    l = strlen(buf);
    if (x->resident_before >= 0 && x->file_pages)
        rb__fmt(buf + l, len - l, "; %.0f%% of the file resident at the start",
                100.0 * (double)x->resident_before / (double)x->file_pages);
    l = strlen(buf);
    if (rb_hist_total(&x->lat)) {
        double us = rb_hist_mean(&x->lat) / 1e3;
        rb__fmt(buf + l, len - l, us < 1000 ? "; %.3g us per op" : "; %.3g ms per op", us < 1000 ? us : us / 1e3);
    }
    l = strlen(buf);
    if (l >= 2 && !strcmp(buf + l - 2, ": ")) rb__fmt(buf + l, len - l, "no coldness figures were recorded");
}

/* Phase 4: the reasons, from the cells that decide: the safe choice at its worst, and each
   column's winner at its own worst (why it is not the safe choice, or why it is). */
static void rb__adv_reasons(const rb_advise_input *in, rb_advice *a)
{
    unsigned char done[RB_MAX_AXIS];
    unsigned c, k;
    memset(done, 0, sizeof done);
    for (k = 0; k <= in->nconditions; k++) {
        int s = k == 0 ? a->safe : a->best[k - 1];
        if (s < 0 || done[s] || a->worst_condition[s] < 0) continue;
        done[s] = 1;
        c = (unsigned)a->worst_condition[s];
        if (!rb__adv_cell(in, (unsigned)s, c)) {
            const rb_result *x = in->cells[(size_t)s * in->nconditions + c];
            rb__adv_line(a->reasons, &a->nreasons, "%s, %s: not measured (%s), so it cannot be the safe choice",
                         in->strategies[s], in->conditions[c], x && x->reason[0] ? x->reason : "no result");
            continue;
        }
        if (a->nreasons < RB_ADVISE_MAX_LINES)
            rb__adv_reason(in, a, (unsigned)s, c, a->reasons[a->nreasons++], RB_REASON_LEN);
    }
}

/* Phase 5: the environment that decides the answer here and may differ where it will run. */
static void rb__adv_warnings(const rb_advise_input *in, rb_advice *a)
{
    const rb_env *e = in->env;
    const char *word;
    double ratio;
    uint64_t rs = in->read_size ? in->read_size : 16384;
    char sz[32], rsz[32];
    if (e && e->read_ahead_kb > 0 && (uint64_t)e->read_ahead_kb * 1024 >= 8 * rs) {
        rb_format_size((uint64_t)e->read_ahead_kb * 1024, sz, sizeof sz);
        rb_format_size(rs, rsz, sizeof rsz);
        rb__adv_line(a->warnings, &a->nwarnings, "read_ahead_kb is %ld: a cold fault on a NORMAL mapping reads up to "
                     "%s around it, %.0fx the %s read; with a smaller read_ahead_kb plain mmap loses less when reads miss",
                     e->read_ahead_kb, sz, (double)e->read_ahead_kb * 1024 / (double)rs, rsz);
    }
    if (e && !strcmp(e->thp, "always"))
        rb__adv_line(a->warnings, &a->nwarnings, "transparent huge pages are 'always' here: faults and memory pressure "
                     "behave differently under 'madvise' or 'never'; compare on the production setting");
    if (in->lru_gen == 1)
        rb__adv_line(a->warnings, &a->nwarnings, "the multi-generational LRU is on (/sys/kernel/mm/lru_gen/enabled): "
                     "which pages pressure evicts differs from the classic LRU, and so may the half-cold and "
                     "pressure columns on a kernel without it");
    if (e && (ratio = rb_env_file_ram_ratio(e, &word)) >= 0) {
        if (ratio < 0.5)
            rb__adv_line(a->warnings, &a->nwarnings, "the file is %.2gx %s: it can stay cached, so a program that "
                         "has memory to spare sees the warm column; the others are what it meets after a restart or "
                         "when other data takes the memory", ratio, word);
        else if (ratio > 1)
            rb__adv_line(a->warnings, &a->nwarnings, "the file is %.2gx %s: it cannot all stay cached, and the warm "
                         "column is out of reach for reads spread over it", ratio, word);
    }
    if (e && e->irq_cpus[0] && !strpbrk(e->irq_cpus, ",-") && e->cpus > 1)
        rb__adv_line(a->warnings, &a->nwarnings, "the disk's interrupts all go to CPU %s: a reader waiting on the "
                     "disk is faster on that CPU than on the others, so unpinned cold figures wander with the "
                     "scheduler", e->irq_cpus);
    if (e && e->page_touch_ns >= RB__SLOW_TOUCH_NS) {
        char w[512];
        rb_env_slow_touch_warning(e, w, sizeof w);
        rb__adv_line(a->warnings, &a->nwarnings, "%s", w);
    }
    if (e && e->cpus > 0 && in->max_threads > (unsigned)e->cpus)
        rb__adv_line(a->warnings, &a->nwarnings, "%u threads on %ld CPUs: columns above %ld threads measure the "
                     "scheduler as much as the read path", in->max_threads, e->cpus, e->cpus);
}

RBDEF int rb_advise_decide(const rb_advise_input *in, rb_advice *out)
{
    memset(out, 0, sizeof *out);
    out->safe = -1;
    if (in->nstrategies > RB_MAX_AXIS || in->nconditions > RB_ADVISE_MAX_CONDITIONS) return RB_EINVAL;
    out->nstrategies = in->nstrategies;
    out->nconditions = in->nconditions;
    rb__adv_columns(in, out);
    rb__adv_worst(in, out);
    rb__adv_verdict(in, out);
    rb__adv_reasons(in, out);
    rb__adv_warnings(in, out);
    return RB_OK;
}

/*
   A budget is a promise the user plans around, and the measured iterations are the small
   part of an advise: on a 4 GiB file every half-cold and pressure cell reloads the whole file
   before it measures, and an advise that sized only its iterations took 484 s of a 180 s
   budget. So round 1 is planned from what each cell costs, preparation included, before it
   starts, and planned again before each state from what the states before it measured
   (rb_advise below); what the budget cannot hold is cut in a fixed order and said, never
   silently: the time per iteration, then the later rounds, then the thread counts of the
   dearest states, then the dearest states. */
static double rb__plan_state_s(const rb_advise_plan_input *in, unsigned k, unsigned nt, double d)
{
    const rb_advise_cost *c = &in->costs[k];
    return nt ? c->round_s + (double)in->nstrategies * nt * (c->cell_s + in->iterations * d) : 0;
}

static double rb__plan_total(const rb_advise_plan_input *in, const rb_advise_plan *p)
{
    double t = 0;
    unsigned k;
    for (k = 0; k < in->nstates; k++) t += rb__plan_state_s(in, k, p->threads[k], p->duration_s);
    return t;
}

/* 1: state a costs more than state b as planned, by more than RB__PLAN_TIE of the budget (a
   difference the estimates cannot tell, such as warm's and cold's, is no order). */
#define RB__PLAN_TIE 0.05
static int rb__plan_dearer(const rb_advise_plan_input *in, const rb_advise_plan *p, unsigned a, unsigned b)
{
    return rb__plan_state_s(in, a, p->threads[a], p->duration_s) >
           rb__plan_state_s(in, b, p->threads[b], p->duration_s) + RB__PLAN_TIE * in->budget_s;
}

/* The states kept, by what they cost as planned: dearest first (dir 1) or cheapest first (-1).
   Costs that tie keep the order the states were listed in (dearest first: the reverse), so
   the states named first run first and are cut last. Returns how many. */
static unsigned rb__plan_sorted(const rb_advise_plan_input *in, const rb_advise_plan *p, int dir, unsigned *by)
{
    unsigned i, j, n = 0;
    for (i = 0; i < in->nstates; i++) {
        unsigned k = dir > 0 ? in->nstates - 1 - i : i;
        if (p->threads[k]) by[n++] = k;
    }
    for (i = 1; i < n; i++)   /* insertion sort: ties keep their order, and n is at most 4 */
        for (j = i; j > 0; j--) {
            unsigned t = by[j];
            if (dir > 0 ? !rb__plan_dearer(in, p, by[j], by[j - 1]) : !rb__plan_dearer(in, p, by[j - 1], by[j])) break;
            by[j] = by[j - 1];
            by[j - 1] = t;
        }
    return n;
}

static const char *rb__plan_basis(const rb_advise_cost *c) { return c->measured ? "measured" : "estimated"; }

/* Phase 3: the dearest states at their largest thread count only, until round 1 fits. */
static void rb__plan_cut_threads(const rb_advise_plan_input *in, rb_advise_plan *p)
{
    unsigned by[RB_STATE_COUNT], n = rb__plan_sorted(in, p, 1, by), i, t, top = 0;
    if (in->nthreads < 2) return;
    for (t = 1; t < in->nthreads; t++)
        if (in->threads[t] > in->threads[top]) top = t;
    for (i = 0; i < n && rb__plan_total(in, p) > in->budget_s * RB_ADVISE_ROUND1; i++) {
        const rb_advise_cost *c = &in->costs[by[i]];
        rb__fmt(p->cut[by[i]], RB_REASON_LEN, "%s: measured at T%02u only, to fit the budget: its %u cells would take "
                "~%.3g s (each %u x %.2g s measured plus ~%.2g s preparing the state, %s)", rb_state_name(c->state),
                in->threads[top], in->nstrategies * p->threads[by[i]],
                rb__plan_state_s(in, by[i], p->threads[by[i]], p->duration_s), in->iterations, p->duration_s,
                c->cell_s, rb__plan_basis(c));
        p->threads[by[i]] = 1;
    }
}

/* Phase 4: the dearest states left out, until round 1 fits; one always stays. */
static void rb__plan_leave_out(const rb_advise_plan_input *in, rb_advise_plan *p)
{
    unsigned by[RB_STATE_COUNT], n = rb__plan_sorted(in, p, 1, by), i;
    for (i = 0; i + 1 < n; i++) {
        const rb_advise_cost *c = &in->costs[by[i]];
        double total = rb__plan_total(in, p), its = rb__plan_state_s(in, by[i], p->threads[by[i]], p->duration_s);
        if (total <= in->budget_s * RB_ADVISE_ROUND1) return;
        rb__fmt(p->cut[by[i]], RB_REASON_LEN, "%s: left out to fit the budget: its %u cells would take ~%.3g s (each "
                "%u x %.2g s measured plus ~%.2g s preparing the state, %s) and %.3g s were left for it",
                rb_state_name(c->state), in->nstrategies * p->threads[by[i]], its, in->iterations, p->duration_s,
                c->cell_s, rb__plan_basis(c), RB__MAX(0.0, in->budget_s * RB_ADVISE_ROUND1 - (total - its)));
        p->threads[by[i]] = 0;
    }
}

/* Phase 5: a state shortened before another was left out gets its thread counts back if
   they fit now, cheapest first. */
static void rb__plan_restore(const rb_advise_plan_input *in, rb_advise_plan *p)
{
    unsigned by[RB_STATE_COUNT], n = rb__plan_sorted(in, p, -1, by), i;
    for (i = 0; i < n; i++) {
        if (p->threads[by[i]] != 1 || in->nthreads < 2) continue;
        p->threads[by[i]] = in->nthreads;
        if (rb__plan_total(in, p) > in->budget_s * RB_ADVISE_ROUND1) p->threads[by[i]] = 1;
        else p->cut[by[i]][0] = 0;
    }
}

RBDEF int rb_advise_plan_round(const rb_advise_plan_input *in, rb_advise_plan *p)
{
    unsigned k;
    double fixed = 0, per = 0, prep = 0;
    memset(p, 0, sizeof *p);
    if (!in || !in->costs || !in->nstates || in->nstates > RB_STATE_COUNT || !in->nstrategies || !in->threads ||
        !in->nthreads || !in->iterations || !(in->budget_s >= 0))
        return RB_EINVAL;
    p->aim_s = in->budget_s * (in->share > 0 && in->share <= 1 ? in->share : RB_ADVISE_SHARE);
    for (k = 0; k < in->nstates; k++) {
        p->threads[k] = in->nthreads;
        fixed += rb__plan_state_s(in, k, in->nthreads, 0);
        per += (double)in->nstrategies * in->nthreads * in->iterations;
    }
    /* Phase 1: the time per iteration that fills the aim. Phase 2 needs no code: past the
       aim, round 1 may take the whole budget before anything is cut. */
    p->duration_s = in->duration_s > 0 ? in->duration_s
                    : RB__MAX(RB__MIN((p->aim_s - fixed) / per, RB_ADVISE_MAX_DURATION), RB_ADVISE_MIN_DURATION);
    rb__plan_cut_threads(in, p);
    rb__plan_leave_out(in, p);
    rb__plan_restore(in, p);
    p->nkept = rb__plan_sorted(in, p, -1, p->order);
    p->estimate_s = rb__plan_total(in, p);
    p->fits = p->estimate_s <= in->budget_s * RB_ADVISE_ROUND1;
    for (k = 0; k < in->nstates; k++) prep += rb__plan_state_s(in, k, p->threads[k], 0);
    if (!p->fits) {
        const rb_advise_cost *c = &in->costs[p->order[0]];
        rb__fmt(p->note, sizeof p->note, "the budget (%.3g s) cannot hold even %s at one thread count twice (one "
                "round claims nothing): ~%.3g s a round (%u cells, each %u x %.2g s measured plus ~%.2g s preparing "
                "the state, %s); it runs anyway, past the budget", in->budget_s, rb_state_name(c->state), p->estimate_s, in->nstrategies, in->iterations,
                p->duration_s, c->cell_s, rb__plan_basis(c));
    } else if (p->estimate_s > p->aim_s * (1 + 1e-9)) {   /* not a rounding error of the aim filled */
        rb__fmt(p->note, sizeof p->note, "round 1 takes ~%.3g s of the %.3g s budget, past its aim of %.3g s "
                "(preparing the states takes ~%.2g s of it): room for one more round, too few for useful intervals",
                p->estimate_s, in->budget_s, p->aim_s, prep);
    }
    return RB_OK;
}

/*
   Every strategy that can run here, in each cache state at each thread count, as the
   scenario presets set them (below: the same settings as `run --scenario`). A budget buys
   rounds: the first runs every cell the plan kept (above; a state at a time, so the pressure
   state pins its memory once per round, and a cell at a time through rb_run_matrix, so no
   cell starts past the budget), the later ones only the cells still tied with the best of
   their column, because only those can change the verdict; a column whose best stands apart
   is done. Each later round runs when what its state's cells measured says it fits in what
   is left of the budget. The states are the scenario table's (rb_scenarios): an advise
   measures exactly what `run --scenario` measures. */
/* The first run's short list: one of each family (plain and RANDOM mappings, WILLNEED always,
   adaptive and Lucene's backoff, the system calls, the ring, direct I/O). */
static const char *const rb__adv_quick[] = {"mmap", "mmap-random", "mmap-random-willneed", "mmap-random-adaptive",
                                            "mmap-backoff", "pread", "io_uring", "direct"};
#define RB__ADV_BUDGET_NS ((int64_t)180 * 1000000000)
#define RB__ADV_QUICK_BUDGET_NS ((int64_t)70 * 1000000000)
#define RB__ADV_ROUNDS 8u
#define RB__ADV_MAX_ROUNDS 50u   /* the sample store is rounds x iterations per cell */

typedef struct rb__adv {
    const rb_advise_config *ac;
    rb_advise_run *r;
    rb_config base;                       /* as given, plus advise's iterations, duration, no warmup */
    const rb_strategy *strat[RB_MAX_AXIS];
    unsigned char want[RB_MAX_AXIS * RB_ADVISE_MAX_CONDITIONS];   /* [s * nc + c]: run this round */
    rb_advise_cost cost[RB_STATE_COUNT];  /* per state: estimated until its cells ran, then measured */
    /* What the estimates start from (rb__adv_probe), refined as cells run (rb__adv_learn). */
    double load_s;         /* reading the whole file from the device; -1: unknown */
    double count_s;        /* counting the file's resident pages once */
    double base_s;         /* a cell's own cost besides preparing its state and its iterations */
    double cold_fraction;  /* of the file not resident at the start: what the warm state loads once */
    double pin_s;          /* pinning the pressure state's memory */
    /* per state, every cell so far: its time besides the iterations, and the preparation's part */
    double extra_s[RB_STATE_COUNT], prewarm_s[RB_STATE_COUNT], evict_s[RB_STATE_COUNT], hog_s[RB_STATE_COUNT];
    unsigned ran[RB_STATE_COUNT];
    uint64_t deadline;     /* no cell starts past it */
    unsigned unrun;        /* cells of round 1 the deadline stopped */
    unsigned max_rounds, cap;
    uint64_t seed, t0;
    int lru_gen;
    rb_ident ident;        /* the file as the advise began: every cell is checked against it */
    char changed[RB_REASON_LEN];   /* a cell found the file changed: why (the advise stops, no verdict) */
} rb__adv;

static int rb__adv_lru_gen(void)   /* -1: unknown (no /sys here) */
{
    char b[32];
    if (rb__read_text("/sys/kernel/mm/lru_gen/enabled", b, sizeof b) != 0) return -1;
    return strtoul(b, NULL, 16) != 0;   /* "0x0007": a mask of its features, 0 off */
}

/* Setup, phase 1: the states and thread counts (the columns) and the strategies (the rows);
   a strategy that cannot run here is listed with its reason instead. */
static int rb__adv_axes(rb__adv *v, rb_error *err)
{
    const rb_advise_config *ac = v->ac;
    rb_advise_run *r = v->r;
    unsigned i, k, n, nc = 0;
    const rb_strategy *all = rb_strategies(&n);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    char why[RB_REASON_LEN];
    static const int quick_states[2] = {RB_STATE_WARM, RB_STATE_COLD};
    static const int all_states[RB_STATE_COUNT] = {RB_STATE_WARM, RB_STATE_HALF_COLD, RB_STATE_COLD, RB_STATE_PRESSURE};
    const int *st = ac->states ? ac->states : ac->quick ? quick_states : all_states;
    unsigned nst = ac->states ? ac->nstates : ac->quick ? 2 : RB_STATE_COUNT;
    for (i = 0; i < nst; i++) {
        for (k = 0; k < i && nst <= RB_STATE_COUNT; k++)
            if (st[k] == st[i]) break;
        if (nst > RB_STATE_COUNT || !rb_state_name(st[i]) || k < i) {
            rb__seterr(err, RB_EINVAL, 0, "", "the cache states must be warm, half-cold, cold or pressure, each once");
            return RB_EINVAL;
        }
        r->states[r->nstates++] = st[i];
    }
    if (ac->threads) {
        if (!ac->nthreads || ac->nthreads > RB_MAX_AXIS) {
            rb__seterr(err, RB_EINVAL, 0, "", "1 to %u thread counts", RB_MAX_AXIS);
            return RB_EINVAL;
        }
        for (r->nthreads = 0; r->nthreads < ac->nthreads; r->nthreads++) r->threads[r->nthreads] = ac->threads[r->nthreads];
    } else {
        r->threads[0] = 1;
        r->nthreads = 1;
        if (cpus > 1) r->threads[r->nthreads++] = (unsigned)RB__MIN(cpus, (long)RB_MAX_THREADS);
    }
    if (!r->nstates || r->nstates * r->nthreads > RB_ADVISE_MAX_CONDITIONS) {
        rb__seterr(err, RB_EINVAL, 0, "", "at most %u columns (cache states x thread counts), not %u",
                   RB_ADVISE_MAX_CONDITIONS, r->nstates * r->nthreads);
        return RB_EINVAL;
    }
    r->nconditions = r->nstates * r->nthreads;
    for (k = 0; k < r->nstates; k++)
        for (i = 0; i < r->nthreads; i++, nc++) {
            if (r->nthreads == 1) snprintf(r->condition_names[nc], 32, "%s", rb_state_name(r->states[k]));
            else snprintf(r->condition_names[nc], 32, "%s T%02u", rb_state_name(r->states[k]), r->threads[i]);
            r->conditions[nc] = r->condition_names[nc];
        }
    n = ac->strategies ? ac->nstrategies : ac->quick ? (unsigned)(sizeof rb__adv_quick / sizeof *rb__adv_quick) : n;
    for (i = 0; i < n; i++) {
        const rb_strategy *s = ac->strategies ? ac->strategies[i] : ac->quick ? rb_strategy_find(rb__adv_quick[i]) : &all[i];
        int rc;
        if (!s || (!ac->strategies && (s->flags & RB_S_NOIO))) continue;
        if ((rc = rb_strategy_probe(s, &v->base, why, sizeof why)) == RB_UNSUPPORTED) {
            rb__adv_line(r->skipped, &r->nskipped, "%s: %s", s->name, why);
            continue;
        }
        if (rc != RB_OK) { rb__seterr(err, rc, 0, "", "%s", why); return rc; }
        if (r->nstrategies == RB_MAX_AXIS) { rb__seterr(err, RB_EINVAL, 0, "", "at most %u strategies", RB_MAX_AXIS); return RB_EINVAL; }
        v->strat[r->nstrategies] = s;
        r->strategies[r->nstrategies++] = s->name;
    }
    if (!r->nstrategies) { rb__seterr(err, RB_UNSUPPORTED, 0, "", "no strategy can run here"); return RB_UNSUPPORTED; }
    return RB_OK;
}

/* Setup, phase 2: the settings every cell shares, the matrix's own checks (with the shortest
   time per iteration until the plan chooses one), the store. */
static int rb__adv_setup(rb__adv *v, rb_error *err)
{
    const rb_advise_config *ac = v->ac;
    rb_advise_run *r = v->r;
    rb_matrix m;
    char why[RB_REASON_LEN];
    unsigned i, ncells;
    int64_t budget = ac->budget_ns > 0 ? ac->budget_ns : ac->quick ? RB__ADV_QUICK_BUDGET_NS : RB__ADV_BUDGET_NS;
    int rc;
    if ((rc = rb_check_file(ac->cfg.path, ac->cfg.size, NULL, err)) != RB_OK) return rc;
    v->base = ac->cfg;
    v->base.warmup_ns = RB_NONE;   /* a warmup would change the state each preset prepared */
    v->base.iterations = ac->cfg.iterations ? ac->cfg.iterations : 3;
    v->base.cache = RB_CACHE_KEEP;
    v->base.prewarm = 0;
    if ((rc = rb__adv_axes(v, err)) != RB_OK) return rc;
    ncells = r->nstrategies * r->nconditions;
    if (!ac->cfg.duration_ns) v->base.duration_ns = (int64_t)(RB_ADVISE_MIN_DURATION * 1e9);   /* until planned */
    memset(&m, 0, sizeof m);
    m.cfg = v->base;
    m.strategies = v->strat;
    m.nstrategies = r->nstrategies;
    m.threads = r->threads;
    m.nthreads = r->nthreads;
    if ((rc = rb_matrix_check(&m, why, sizeof why)) != RB_OK) { rb__seterr(err, rc, 0, "", "%s", why); return rc; }
    rb_config_defaults(&v->base, &r->cfg);
    r->budget_seconds = (double)budget / 1e9;
    v->max_rounds = ac->max_rounds ? RB__MIN(ac->max_rounds, RB__ADV_MAX_ROUNDS) : RB__ADV_ROUNDS;
    v->cap = v->max_rounds * r->cfg.iterations;
    v->seed = rb__mix64(r->cfg.seed ^ 0x616476697365ULL);   /* "advise" */
    v->lru_gen = rb__adv_lru_gen();
    r->cells = (rb_result *)calloc(ncells, sizeof *r->cells);
    r->samples = (double *)calloc((size_t)ncells * v->cap, sizeof *r->samples);
    if (!r->cells || !r->samples) { rb__seterr(err, RB_ENOMEM, ENOMEM, "calloc", "out of memory"); return RB_ENOMEM; }
    for (i = 0; i < ncells; i++) {
        rb_result *x = &r->cells[i];
        x->strategy = r->strategies[i / r->nconditions];
        x->threads = r->threads[i % r->nconditions % r->nthreads];
        x->read_size = r->cfg.read_size;
        x->pattern = r->cfg.pattern;
        x->status = RB_ENOTRUN;
        x->samples = r->samples + (size_t)i * v->cap;
        x->resident_before = x->resident_after = x->majflt = x->minflt = x->device_read_bytes = -1;
        x->read_amplification = x->cpu_user_ns_per_read = x->cpu_sys_ns_per_read = -1;
        x->ops_per_ms_median = x->ci_lo = x->ci_hi = NAN;
        snprintf(x->reason, sizeof x->reason, "the run ended before this cell");
    }
    rb_env_collect(&r->env, ac->cfg.path);
    return RB_OK;
}

/* How fast this process faults in fresh anonymous memory (bytes/s; 0: unknown): what pinning
   the pressure state's memory costs, page by page. */
static double rb__adv_fault_rate(void)
{
    size_t len = (size_t)32 << 20, page = (size_t)rb__page_size(), i;
    uint64_t t = rb__now_ns();
    volatile unsigned char *m = (volatile unsigned char *)malloc(len);
    double s;
    if (!m) return 0;
    for (i = 0; i < len; i += page) m[i] = 1;   /* volatile: the stores cannot be optimized away */
    free((void *)m);
    s = (double)(rb__now_ns() - t) / 1e9;
    return s > 0 ? (double)len / s : 0;
}

/* The pressure state's memory to pin (0: none; an error: the state cannot be made here, why). */
static int rb__adv_hog_size(rb__adv *v, const rb_scenario *p, uint64_t *size, char *why, size_t wl)
{
    rb_advise_run *r = v->r;
    rb_matrix m;
    memset(&m, 0, sizeof m);
    m.cfg = v->base;
    m.strategies = v->strat;
    m.nstrategies = r->nstrategies;
    m.threads = r->threads;
    m.nthreads = r->nthreads;
    return rb_hog_plan(p->hog, r->env.file_size > 0 ? (uint64_t)r->env.file_size : 0, rb_matrix_memory(&m), size, why,
                       wl);
}

/* The device's read rate over the file's first n bytes, evicted and then read in 4 MiB preads
   as rb_load reads the whole file: seconds to read all size bytes, or -1 with why. */
static double rb__adv_load_time(const char *path, uint64_t size, uint64_t n, char *why, size_t wl)
{
    uint64_t off = 0, t;
    size_t len = (size_t)4 << 20;
    unsigned char *buf;
    const char *what = "";
    rb_error e;
    double s;
    int fd = rb__open_regular(path, 0, NULL, &e);
    if (fd < 0) { rb__fmt(why, wl, "%s", e.msg); return -1; }
    if (!(buf = (unsigned char *)malloc(len))) { close(fd); rb__fmt(why, wl, "out of memory"); return -1; }
    if (rb__plat_sync_data(fd) == RB_ESYS && errno != EINVAL) {   /* dirty pages are not dropped */
        rb__fmt(why, wl, "fdatasync: %s", strerror(errno));
        n = 0;
    } else if (rb__plat_drop_range(fd, 0, n, &what) != RB_OK) {
        rb__fmt(why, wl, "%s: %s", what, strerror(errno));
        n = 0;
    }
    t = rb__now_ns();
    while (off < n) {
        ssize_t got = pread(fd, buf, (size_t)RB__MIN((uint64_t)len, n - off), (off_t)off);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
            rb__fmt(why, wl, "pread: %s", got < 0 ? strerror(errno) : "the file got shorter");
            break;
        }
        off += (uint64_t)got;
    }
    s = (double)(rb__now_ns() - t) / 1e9;
    free(buf);
    close(fd);
    return n && off == n ? s * (double)size / (double)n : -1;
}

/* A state's costs before its cells ran (the plan's estimate): every cell counts the resident
   pages before each iteration and around them; a cold cell also evicts before each; a
   half-cold cell evicts and reloads the whole file, and so does a pressure cell (the pinned
   memory left no room to keep it), whose state first pins its memory; the warm state loads
   what is not resident once. An unknown whole-file read counts as nothing: the first state
   that reloads it measures it. */
static void rb__adv_estimate(rb__adv *v, unsigned k)
{
    rb_advise_cost *c = &v->cost[k];
    int st = v->r->states[k];
    double load = RB__MAX(v->load_s, 0.0);
    if (c->measured) return;
    c->state = st;
    c->round_s = st == RB_STATE_PRESSURE ? v->pin_s : st == RB_STATE_WARM ? load * v->cold_fraction : 0;
    c->cell_s = v->base_s + (st == RB_STATE_HALF_COLD || st == RB_STATE_PRESSURE ? load : 0) +
                (st == RB_STATE_COLD ? (v->base.iterations + 1) * v->count_s : 0);
}

/* Before anything runs, what the first plan starts from: one count of the resident pages (and
   what is not resident), the whole file's read time from a 16 MiB sample, and the pressure
   state's pinning (its size at the rate this process faults in memory). Each basis is said. */
static void rb__adv_probe(rb__adv *v)
{
    rb_advise_run *r = v->r;
    uint64_t size = r->env.file_size > 0 ? (uint64_t)r->env.file_size : 0, t = rb__now_ns(), pin = 0;
    uint64_t pages = (size + rb__page_size() - 1) / rb__page_size(), sample = RB__MIN(size, (uint64_t)16 << 20);
    int64_t res = rb__resident(v->base.path);
    double rate;
    char why[RB_REASON_LEN] = "", sz[32], ssz[32];
    unsigned k;
    v->count_s = (double)(rb__now_ns() - t) / 1e9;
    v->cold_fraction = res >= 0 && pages ? 1.0 - RB__MIN((double)res / (double)pages, 1.0) : 1.0;
    v->base_s = (v->base.iterations + 3) * v->count_s;
    v->load_s = rb__adv_load_time(v->base.path, size, sample, why, sizeof why);
    rb_format_size(size, sz, sizeof sz);
    rb_format_size(sample, ssz, sizeof ssz);
    if (v->load_s >= 0)
        rb__adv_line(r->budget_lines, &r->nbudget_lines, "estimates before a state ran: reading the whole file (%s) "
                     "takes ~%.3g s (timed over its first %s), counting its resident pages %.3g s", sz, v->load_s,
                     ssz, v->count_s);
    else
        rb__adv_line(r->budget_lines, &r->nbudget_lines, "the file's read time could not be measured (%s): the plan "
                     "counts its reloads once a state measured them", why);
    for (k = 0; k < r->nstates; k++)
        if (r->states[k] == RB_STATE_PRESSURE && rb__adv_hog_size(v, rb_scenario_find("pressure"), &pin, why,
                                                                   sizeof why) == RB_OK && pin) {
            rate = rb__adv_fault_rate();
            v->pin_s = rate > 0 ? (double)pin / rate : 0;
        }
    for (k = 0; k < r->nstates; k++) rb__adv_estimate(v, k);
}

/* One cell, once, through rb_run_matrix, merged into the run's cell as rb_run_matrix merges
   its rounds; what it cost besides its iterations is added to its state's tally. */
static int rb__adv_one(rb__adv *v, const rb_config *cfg, unsigned k, unsigned s, unsigned c)
{
    rb_advise_run *r = v->r;
    rb_result *acc = &r->cells[(size_t)s * r->nconditions + c];
    rb_matrix m;
    rb_report rep;
    uint64_t t = rb__now_ns();
    int rc;
    memset(&m, 0, sizeof m);
    m.cfg = *cfg;
    m.strategies = &v->strat[s];
    m.nstrategies = 1;
    m.threads = &r->threads[c % r->nthreads];
    m.nthreads = 1;
    m.rounds = 1;
    m.progress = v->ac->progress;
    m.user = v->ac->user;
    rc = rb_run_matrix(&m, &rep);
    if (rep.count && rep.results[0].status == RB_ECHANGED) {   /* no verdict from cells of two files */
        snprintf(v->changed, sizeof v->changed, "%s", rep.results[0].reason);
        rc = RB_ECHANGED;
    }
    if (rep.count) {
        const rb_result *x = &rep.results[0];
        if (x->status == RB_OK) {
            rb__merge_round(acc, x);
            rb__cell_stats(acc);
        } else if (acc->status != RB_OK) {   /* a failure, or a first round cut short */
            double *store = (double *)acc->samples;
            *acc = *x;
            acc->samples = store;
            acc->nsamples = acc->rounds = 0;
        }
        v->extra_s[k] += (double)(rb__now_ns() - t) / 1e9 - r->cfg.iterations * ((double)r->cfg.duration_ns / 1e9);
        v->prewarm_s[k] += x->prewarm_seconds;
        v->evict_s[k] += x->evict_seconds;
        v->ran[k]++;
    }
    rb_report_free(&rep);
    return rc;
}

/* One column's wanted strategies, once each, in an order shuffled per round and column. No
   cell starts past the deadline: the budget is overrun by at most the cell running when it
   passed, and a cell never run says why. */
static int rb__adv_batch(rb__adv *v, const rb_config *cfg, unsigned k, unsigned c)
{
    rb_advise_run *r = v->r;
    unsigned idx[RB_MAX_AXIS], n = 0, s, i;
    uint64_t rng[4];
    int rc = RB_OK;
    for (s = 0; s < r->nstrategies; s++)
        if (v->want[s * r->nconditions + c]) idx[n++] = s;
    rb__rng_seed(rng, v->seed, ((uint64_t)r->rounds << 8) + c);
    for (i = n; i > 1; i--) {
        unsigned j = (unsigned)rb__below(rng, i), t = idx[i - 1];
        idx[i - 1] = idx[j];
        idx[j] = t;
    }
    for (i = 0; i < n && rc == RB_OK; i++) {
        rb_result *acc = &r->cells[(size_t)idx[i] * r->nconditions + c];
        if (rb__now_ns() < v->deadline) {
            rc = rb__adv_one(v, cfg, k, idx[i], c);
        } else if (acc->status == RB_ENOTRUN) {
            snprintf(acc->reason, sizeof acc->reason, "the budget ran out before this cell");
            v->unrun++;
        }
    }
    return rc;
}

/* Pins the pressure state's memory (none when the file alone is already past what is
   available). An error: the state cannot be made here, and its columns say why. */
static int rb__adv_hog(rb__adv *v, const rb_scenario *p, unsigned k, rb_hog *hog)
{
    rb_advise_run *r = v->r;
    rb_error e;
    uint64_t size = 0;
    char why[RB_REASON_LEN] = "";
    unsigned t;
    int rc = rb__adv_hog_size(v, p, &size, why, sizeof why);
    if (rc == RB_OK && size) {
        rc = rb_hog_take(hog, size, &e);
        if (rc != RB_OK) rb__fmt(why, sizeof why, "%s", e.msg);
        else if (hog->warning[0]) rb__log(&r->cfg, "advise: %s", hog->warning);
    } else if (rc == RB_OK && why[0]) {
        rb__log(&r->cfg, "advise: pressure: %s", why);
    }
    for (t = 0; rc != RB_OK && t < r->nthreads; t++)
        if (!r->missing[k * r->nthreads + t][0])
            rb__fmt(r->missing[k * r->nthreads + t], RB_REASON_LEN, "no memory pressure here: %s", why);
    return rc;
}

/* The largest thread count's index: the column a shortened state keeps. */
static unsigned rb__adv_top(const rb_advise_run *r)
{
    unsigned t, top = 0;
    for (t = 1; t < r->nthreads; t++)
        if (r->threads[t] > r->threads[top]) top = t;
    return top;
}

/* One state's columns (those the plan gave it), each with the cells wanted this round; the
   pinning's time is the state's cost per round. */
static int rb__adv_state(rb__adv *v, unsigned k)
{
    rb_advise_run *r = v->r;
    const rb_scenario *p = rb_scenario_find(rb_state_name(r->states[k]));
    rb_config c = v->base;
    rb_hog hog;
    rb_error e;
    unsigned t, top = rb__adv_top(r);
    uint64_t t0 = rb__now_ns();
    int rc = RB_OK;
    if (!p) return RB_EINVAL;   /* every state is a scenario of the table */
    c.prewarm = p->prewarm;
    c.cache = p->cache;
    c.pressure = p->hog != NULL;
    memset(&hog, 0, sizeof hog);
    if (p->hog && rb__adv_hog(v, p, k, &hog) != RB_OK) return RB_OK;   /* said in its columns */
    v->hog_s[k] = (double)(rb__now_ns() - t0) / 1e9;
    for (t = 0; t < r->nthreads && rc == RB_OK; t++)
        if (r->state_threads[k] == r->nthreads || t == top) rc = rb__adv_batch(v, &c, k, k * r->nthreads + t);
    t0 = rb__now_ns();
    if (hog.mem && rb_hog_release(&hog, &e) != RB_OK) rb__log(&r->cfg, "advise: %s", e.msg);
    v->hog_s[k] += (double)(rb__now_ns() - t0) / 1e9;
    return rc;
}

/* What state k's cells measured becomes its cost, and refines the estimates of the states
   not run yet: a cell's own cost (its time besides iterations and preparation) and the whole
   file's read time (what a half-cold or pressure cell's preparation is). The warm state's
   preparation loads the file once, so it is not a cost of its every cell. */
static void rb__adv_learn(rb__adv *v, unsigned k)
{
    rb_advise_cost *c = &v->cost[k];
    double n = (double)v->ran[k];
    int st = v->r->states[k];
    unsigned j;
    if (!v->ran[k]) return;
    c->state = st;
    c->round_s = v->hog_s[k];
    c->cell_s = RB__MAX(0.0, (v->extra_s[k] - (st == RB_STATE_WARM ? v->prewarm_s[k] : 0)) / n);
    c->measured = 1;
    v->base_s = RB__MAX(0.0, (v->extra_s[k] - v->prewarm_s[k] - v->evict_s[k]) / n);
    if (st == RB_STATE_HALF_COLD || st == RB_STATE_PRESSURE) v->load_s = v->prewarm_s[k] / n;
    for (j = 0; j < v->r->nstates; j++) rb__adv_estimate(v, j);
}

/* Plans the states not run yet (done: a bit per state; idx maps the plan's states to the
   run's) in what is left of the budget. The first plan chooses the time per iteration and
   aims at a share of the budget; later ones keep that time and may take all that is left. */
static void rb__adv_plan(rb__adv *v, unsigned done, rb_advise_plan *p, unsigned *idx)
{
    rb_advise_run *r = v->r;
    rb_advise_cost c[RB_STATE_COUNT];
    rb_advise_plan_input in;
    unsigned k, n = 0;
    for (k = 0; k < r->nstates; k++)
        if (!((done >> k) & 1u)) { idx[n] = k; c[n++] = v->cost[k]; }
    memset(&in, 0, sizeof in);
    in.budget_s = RB__MAX(0.0, r->budget_seconds - (double)(rb__now_ns() - v->t0) / 1e9);
    in.share = done ? 1 : 0;
    in.nstrategies = r->nstrategies;
    in.threads = r->threads;
    in.nthreads = r->nthreads;
    in.iterations = v->base.iterations;
    in.duration_s = done || v->ac->cfg.duration_ns ? (double)v->base.duration_ns / 1e9 : 0;
    in.costs = c;
    in.nstates = n;
    rb_advise_plan_round(&in, p);
}

/* The verdict on what is measured so far (rb_advise_decide over the run's cells). */
static void rb__adv_decide_now(rb__adv *v)
{
    rb_advise_run *r = v->r;
    const rb_result *cells[RB_MAX_AXIS * RB_ADVISE_MAX_CONDITIONS];
    const char *missing[RB_ADVISE_MAX_CONDITIONS];
    unsigned flags[RB_MAX_AXIS];
    rb_advise_input in;
    unsigned i;
    for (i = 0; i < r->nstrategies * r->nconditions; i++) cells[i] = &r->cells[i];
    for (i = 0; i < r->nstrategies; i++) flags[i] = v->strat[i]->flags;   /* the rows' own, custom ones too */
    for (i = 0; i < r->nconditions; i++) missing[i] = r->missing[i];
    memset(&in, 0, sizeof in);
    in.cells = cells;
    in.strategies = r->strategies;
    in.nstrategies = r->nstrategies;
    in.conditions = r->conditions;
    in.nconditions = r->nconditions;
    in.missing = missing;
    in.env = &r->env;
    in.read_size = r->cfg.read_size;
    for (i = 0; i < r->nthreads; i++) in.max_threads = RB__MAX(in.max_threads, r->threads[i]);
    in.lru_gen = v->lru_gen;
    in.flags = flags;
    rb_advise_decide(&in, &r->advice);
}

/* The cells of state k still tied with their column's best (a column with one such cell, its
   best, is settled): they are what the next round runs. Returns how many. */
static unsigned rb__adv_contested(rb__adv *v, unsigned k)
{
    rb_advise_run *r = v->r;
    const rb_advice *a = &r->advice;
    unsigned s, t, n = 0;
    for (t = 0; t < r->nthreads; t++) {
        unsigned c = k * r->nthreads + t, tied = 0;
        for (s = 0; s < r->nstrategies; s++) tied += a->tied[s][c] == 1;
        for (s = 0; s < r->nstrategies; s++) {
            v->want[s * r->nconditions + c] = tied > 1 && a->tied[s][c] == 1;
            n += v->want[s * r->nconditions + c];
        }
    }
    return n;
}

/* What a state makes of the page cache, for the progress lines. */
static const char *rb__adv_what(int state)
{
    const rb_scenario *p = rb_scenario_find(rb_state_name(state));
    return p && p->note ? p->note : p && p->cache == RB_CACHE_EVICT_EACH ? "evicted before every iteration" : "";
}

/* The first plan, before anything runs: the time per iteration it chose becomes every cell's,
   and the order, what it shortened or left out and why are said now (progress) and kept. */
static void rb__adv_begin(rb__adv *v)
{
    rb_advise_run *r = v->r;
    const rb_advise_plan *p = &r->plan;
    unsigned idx[RB_STATE_COUNT], k;
    char names[64] = "";
    rb__adv_probe(v);
    rb__adv_plan(v, 0, &r->plan, idx);
    if (!v->ac->cfg.duration_ns) v->base.duration_ns = (int64_t)(p->duration_s * 1e9 + 0.5);
    rb_config_defaults(&v->base, &r->cfg);
    for (k = 0; k < p->nkept; k++)
        rb__fmt(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? ", " : "",
                rb_state_name(r->states[p->order[k]]));
    rb__log(&r->cfg, "advise: plan: round 1 ~%.3g s of the %.3g s budget (aim %.3g s), each cell %u x %.3g s; "
            "states in this order: %s", p->estimate_s, r->budget_seconds, p->aim_s, r->cfg.iterations,
            (double)r->cfg.duration_ns / 1e9, names);
    for (k = 0; k < r->nstates; k++)
        if (p->cut[k][0]) rb__log(&r->cfg, "advise: %s", p->cut[k]);
    if (p->note[0]) rb__log(&r->cfg, "advise: %s", p->note);
}

/* Round 1, state by state: the first state is the first plan's cheapest; before each later
   one, the states still to run are planned again in what is left of the budget, from what
   the states before measured, and the cheapest runs at the thread counts its plan gave it.
   Only the first plan may run past the budget (when nothing fits, its cheapest state, said). */
static int rb__adv_first_round(rb__adv *v)
{
    rb_advise_run *r = v->r;
    uint64_t end = v->t0 + (uint64_t)(r->budget_seconds * 1e9);
    unsigned done = 0, j, k, idx[RB_STATE_COUNT];
    int rc = RB_OK;
    memset(v->want, 1, sizeof v->want);
    r->rounds = 1;
    for (k = 0; k < r->nstates; k++) idx[k] = k;
    while (rc == RB_OK && r->norder < r->nstates) {
        rb_advise_plan p = r->plan;
        if (r->norder) rb__adv_plan(v, done, &p, idx);
        for (j = 0; j < r->nstates - r->norder; j++) snprintf(r->state_cut[idx[j]], RB_REASON_LEN, "%s", p.cut[j]);
        k = idx[p.order[0]];
        if (r->norder && !p.fits) {
            const rb_advise_cost *c = &v->cost[k];
            rb__fmt(r->state_cut[k], RB_REASON_LEN, "%s: left out: the %.3g s left of the budget cannot hold it even "
                    "at one thread count (~%.3g s; %s)", rb_state_name(r->states[k]), p.aim_s, p.estimate_s,
                    c->measured ? "measured" : "estimated");
            break;
        }
        r->state_threads[k] = p.threads[p.order[0]];
        v->deadline = !r->norder && !p.fits ? UINT64_MAX : end;
        rb__log(&r->cfg, "advise: round 1, %s (%s): %u strateg%s x %u thread count%s", rb_state_name(r->states[k]),
                rb__adv_what(r->states[k]), r->nstrategies, r->nstrategies == 1 ? "y" : "ies", r->state_threads[k],
                r->state_threads[k] == 1 ? "" : "s");
        rc = rb__adv_state(v, k);
        rb__adv_learn(v, k);
        done |= 1u << k;
        r->order[r->norder++] = k;
    }
    v->deadline = end;
    return rc;
}

/* The columns the plan left unmeasured say so (the budget lines say why). */
static void rb__adv_mark_cut(rb__adv *v)
{
    rb_advise_run *r = v->r;
    unsigned k, t, top = rb__adv_top(r);
    for (k = 0; k < r->nstates; k++)
        for (t = 0; t < r->nthreads; t++) {
            char *m = r->missing[k * r->nthreads + t];
            if (m[0] || !r->state_cut[k][0]) continue;
            if (!r->state_threads[k]) rb__fmt(m, RB_REASON_LEN, "left out to fit the budget");
            else if (r->state_threads[k] == 1 && t != top)
                rb__fmt(m, RB_REASON_LEN, "measured at T%02u only, to fit the budget", r->threads[top]);
        }
}

/* Later rounds run only the contested cells of each state (in the order round 1 ran them,
   cheapest first), when what the state measured says they fit in what is left. */
static int rb__adv_rounds(rb__adv *v)
{
    rb_advise_run *r = v->r;
    unsigned i, round;
    int rc = rb__adv_first_round(v);
    rb__adv_mark_cut(v);
    for (round = 1; round < v->max_rounds && rc == RB_OK; round++) {
        unsigned ran = 0;
        rb__adv_decide_now(v);
        r->rounds = round + 1;
        for (i = 0; i < r->norder && rc == RB_OK; i++) {
            unsigned k = r->order[i], n = rb__adv_contested(v, k);
            const rb_advise_cost *c = &v->cost[k];
            double spent = (double)(rb__now_ns() - v->t0) / 1e9;
            double need = c->round_s + n * (c->cell_s + r->cfg.iterations * (double)r->cfg.duration_ns / 1e9);
            if (!n || spent + need > r->budget_seconds) continue;
            rb__log(&r->cfg, "advise: round %u, %s: %u cell%s still tied with the best of their column", round + 1,
                    rb_state_name(r->states[k]), n, n == 1 ? "" : "s");
            rc = rb__adv_state(v, k);
            rb__adv_learn(v, k);
            ran += n;
        }
        if (!ran) { r->rounds = round; break; }
    }
    if (v->unrun)
        rb__adv_line(r->budget_lines, &r->nbudget_lines, "the budget ran out before %u cell%s of round 1 (the "
                     "estimates were short): %s not measured", v->unrun, v->unrun == 1 ? "" : "s",
                     v->unrun == 1 ? "it is" : "they are");
    return rc;
}

static void rb__settings_trace(rb_settings *s);
RBDEF int rb_settings_advise(rb_settings *s, rb_advise_config *ac, char *why, size_t wl)
{
    memset(ac, 0, sizeof *ac);
    if (s->nread_sizes > 1) {
        rb__fmt(why, wl, "advise measures one read size, not %u", s->nread_sizes);
        return RB_EINVAL;
    }
    rb__settings_trace(s);   /* a replay in every state: the trace for cfg.path, its threads and lengths */
    if (s->cfg.trace && s->trace.status != RB_OK) {
        rb__fmt(why, wl, "%s", s->trace.why);
        return RB_EINVAL;
    }
    if (s->cfg.trace && rb__replay_own_reads(&s->cfg, s->read_sizes, s->nread_sizes, why, wl) != RB_OK) return RB_EINVAL;
    ac->cfg = s->cfg;
    ac->cfg.read_size = s->nread_sizes ? s->read_sizes[0] : 0;
    ac->strategies = s->nstrategies ? s->strategies : NULL;
    ac->nstrategies = s->nstrategies;
    ac->threads = s->nthreads ? s->threads : NULL;
    ac->nthreads = s->nthreads;
    ac->states = s->nstates ? s->states : NULL;
    ac->nstates = s->nstates;
    ac->budget_ns = s->budget_ns;
    return RB_OK;
}

RBDEF int rb_advise(const rb_advise_config *ac, rb_advise_run *r, rb_error *err)
{
    rb__adv *v = (rb__adv *)calloc(1, sizeof *v);
    rb_error e;
    int rc;
    memset(r, 0, sizeof *r);
    r->advice.safe = -1;
    if (!err) err = &e;
    memset(err, 0, sizeof *err);
    if (!v) { rb__seterr(err, RB_ENOMEM, ENOMEM, "calloc", "out of memory"); return RB_ENOMEM; }
    v->ac = ac;
    v->r = r;
    if (!ac || !ac->cfg.path) {
        rb__seterr(err, RB_EINVAL, 0, "", "no file path given (NULL)");
        free(v);
        return RB_EINVAL;
    }
    v->t0 = rb__now_ns();   /* the budget holds everything from here: setup, probe, preparation */
    rc = rb__adv_setup(v, err);
    if (rc == RB_OK && !ac->cfg.ident && (rc = rb_ident_take(&v->ident, ac->cfg.path, err)) == RB_OK)
        v->base.ident = &v->ident;   /* the file as the advise found it: every cell is checked against it */
    if (rc == RB_OK) {
        rb__adv_begin(v);
        rc = rb__adv_rounds(v);
        r->seconds = (double)(rb__now_ns() - v->t0) / 1e9;
        r->interrupted = rc == RB_EINTR;
        if (rc == RB_ECHANGED)
            rb__seterr(err, rc, 0, "", "%s: no verdict (the cells before measured another file)", v->changed);
        else if (rc != RB_OK && rc != RB_EINTR) rb__seterr(err, rc, 0, "", "%s", rb_status_string(rc));
        rb__adv_decide_now(v);
    }
    r->cfg.ident = ac->cfg.ident;   /* not this call's own, which ends here */
    rb_ident_free(&v->ident);
    free(v);
    return rc;
}

RBDEF void rb_advise_free(rb_advise_run *r)
{
    free(r->cells);
    free(r->samples);
    r->cells = NULL;
    r->samples = NULL;
}

/*
   The regret table (ops/ms with its interval and the fraction of the column's best, the
   worst fraction last), then the verdict, the reasons and the environment, one line each. */
static const rb_result *rb__adv_run_cell(const rb_advise_run *r, unsigned s, unsigned c)
{
    return &r->cells[(size_t)s * r->nconditions + c];
}

static void rb__adv_cell_text(const rb_advise_run *r, unsigned s, unsigned c, char *buf, size_t len)
{
    const rb_advice *a = &r->advice;
    char v[48], p[24];
    rb__cell_text(rb__adv_run_cell(r, s, c), v, sizeof v);
    if (a->tied[s][c] < 0) { snprintf(buf, len, "%s", v); return; }
    rb__adv_pct_up(a->fraction[s][c], a->upper[s][c], p, sizeof p);
    rb__fmt(buf, len, "%s  %s%s", v, p, a->best[c] == (int)s ? " *" : a->tied[s][c] == 1 ? " =" : "  ");
}

static void rb__adv_lines(FILE *f, int md, const char *heading, const char (*lines)[RB_REASON_LEN], unsigned n)
{
    unsigned i;
    if (!n) return;
    fprintf(f, "\n%s%s%s\n%s", md ? "**" : "", heading, md ? "**" : "", md ? "\n" : "");
    for (i = 0; i < n; i++) fprintf(f, "%s%s\n", md ? "- " : "  ", lines[i]);
}

static void rb__adv_grid(FILE *f, const rb_advise_run *r, int md)
{
    unsigned nc = r->nconditions + 2, s, c;
    char (*cell)[64] = (char (*)[64])calloc((size_t)(r->nstrategies + 1) * nc, 64);
    const char *cells[RB_ADVISE_MAX_CONDITIONS + 2];
    int width[RB_ADVISE_MAX_CONDITIONS + 2];
    if (!cell) { fprintf(f, "(out of memory)\n"); return; }
    snprintf(cell[0], 64, "strategy");
    for (c = 0; c < r->nconditions; c++) snprintf(cell[c + 1], 64, "%s", r->conditions[c]);
    snprintf(cell[nc - 1], 64, "worst");
    for (s = 0; s < r->nstrategies; s++) {
        char (*row)[64] = cell + (size_t)(s + 1) * nc;
        const rb_advice *a = &r->advice;
        snprintf(row[0], 64, "%s%s", r->strategies[s], a->reference[s] ? " (reference)" : "");
        for (c = 0; c < r->nconditions; c++) rb__adv_cell_text(r, s, c, row[c + 1], 64);
        if (a->reference[s]) snprintf(row[nc - 1], 64, "no I/O: never ranked");
        else rb__adv_pct_up(a->worst[s], a->worst_upper[s], row[nc - 1], 64);
        if (a->worst_condition[s] >= 0 && a->worst[s] == a->worst[s])
            rb__fmt(row[nc - 1] + strlen(row[nc - 1]), 64 - strlen(row[nc - 1]), " %s%s", r->conditions[a->worst_condition[s]],
                     (int)s == a->safe ? " (safe)" : a->safe_tied[s] ? " (= safe)" : "");
    }
    for (c = 0; c < nc; c++) {
        width[c] = 0;
        for (s = 0; s <= r->nstrategies; s++) width[c] = RB__MAX(width[c], rb__dlen(cell[(size_t)s * nc + c]));
    }
    for (s = 0; s <= r->nstrategies; s++) {
        for (c = 0; c < nc; c++) cells[c] = cell[(size_t)s * nc + c];
        rb__row(f, md, cells, nc, width);
        if (md && s == 0) rb__rule(f, nc);
    }
    free(cell);
}

/* The budget's lines: what was spent of it, the order the states ran in, what the plan cut
   and why, the basis of the estimates. Returns how many. */
static unsigned rb__adv_budget_text(const rb_advise_run *r, char (*l)[RB_REASON_LEN])
{
    unsigned n = 0, k;
    char names[64] = "";
    for (k = 0; k < r->norder; k++)
        rb__fmt(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? ", " : "",
                rb_state_name(r->states[r->order[k]]));
    rb__adv_line(l, &n, "%.3g s spent of a %.3g s budget (setup and preparation included); round 1 planned at "
                 "~%.3g s (its aim: %.3g s); the states ran in this order: %s", r->seconds, r->budget_seconds,
                 r->plan.estimate_s, r->plan.aim_s, names[0] ? names : "none");
    if (r->plan.note[0]) rb__adv_line(l, &n, "%s", r->plan.note);
    for (k = 0; k < r->nstates; k++)
        if (r->state_cut[k][0]) rb__adv_line(l, &n, "%s", r->state_cut[k]);
    for (k = 0; k < r->nbudget_lines; k++) rb__adv_line(l, &n, "%s", r->budget_lines[k]);
    return n;
}

static void rb__advise_table(FILE *f, const rb_advise_run *r, int md)
{
    char rs[32], pat[96], budget[RB_ADVISE_MAX_LINES][RB_REASON_LEN];
    unsigned nb = rb__adv_budget_text(r, budget), s, c;
    int upper = 0, reference = 0;
    rb_format_size(r->cfg.read_size, rs, sizeof rs);
    fprintf(f, "%sreadbench advise%s: %s %s reads, %u per op; ops/ms (median \xc2\xb1 95%% interval) and the %% of the "
               "best in its column\n\n", md ? "**" : "", md ? "**" : "", rb_pattern_name(&r->cfg, pat, sizeof pat), rs,
            r->cfg.reads_per_op);
    if (r->cfg.trace) rb__table_trace(f, r->cfg.trace, md);
    rb__adv_grid(f, r, md);
    for (s = 0; s < r->nstrategies; s++) {
        for (c = 0; c < r->nconditions; c++) upper |= r->advice.upper[s][c];
        reference |= r->advice.reference[s];
    }
    fprintf(f, "\n%s the best of its column; = tied with it (inside the intervals); worst: the lowest %% over the "
               "columns%s%s%s\n", md ? "_\\*" : "*", upper ? "; < X: an upper bound (no op completed inside an "
               "iteration), ranked as X; <= X: a bound elsewhere may be lower" : "", reference ? "; (reference): "
               "does no I/O, shown, never ranked" : "", md ? "_" : "");
    rb__adv_lines(f, md, "verdict", r->advice.verdict, r->advice.nverdict);
    rb__adv_lines(f, md, "why", r->advice.reasons, r->advice.nreasons);
    rb__adv_lines(f, md, "environment", r->advice.warnings, r->advice.nwarnings);
    rb__adv_lines(f, md, "cannot run here", r->skipped, r->nskipped);
    rb__adv_lines(f, md, "budget", (const char (*)[RB_REASON_LEN])budget, nb);
    fprintf(f, "\n%s%u round%s in %.0f s (budget %.0f s): the first ran every cell the budget held, later ones only "
               "the cells tied with the best of their column; each cell %u x %.2g s per round, no warmup (each state "
               "is prepared before every cell)%s%s\n", md ? "*" : "", r->rounds, r->rounds == 1 ? "" : "s", r->seconds,
            r->budget_seconds, r->cfg.iterations, (double)r->cfg.duration_ns / 1e9,
            r->interrupted ? "; interrupted: the verdict covers what was measured" : "", md ? "*" : "");
}

static void rb__adv_json_lines(FILE *f, const char *key, const char (*lines)[RB_REASON_LEN], unsigned n)
{
    unsigned i;
    fprintf(f, ",\n \"%s\": [", key);
    for (i = 0; i < n; i++) {
        fputs(i ? ", " : "", f);
        rb_json_string(f, lines[i]);
    }
    fputc(']', f);
}

static void rb__adv_json_cell(FILE *f, const rb_advise_run *r, unsigned s, unsigned c)
{
    const rb_result *x = rb__adv_run_cell(r, s, c);
    const rb_advice *a = &r->advice;
    unsigned k;
    char more[64];
    fprintf(f, "%s{\"condition\": ", c ? ", " : "");
    rb_json_string(f, r->conditions[c]);
    fprintf(f, ", \"status\": \"%s\", \"reason\": ", rb_status_word(x->status));
    rb__json_str_or_null(f, x->status == RB_OK ? NULL : x->reason);
    fprintf(f, ", \"ops_per_ms_median\": ");
    rb__json_num(f, x->status == RB_OK ? rb__adv_value(x) : NAN);
    /* true: no op completed inside an iteration; the median and the fraction are the most
       they can be, and there is no interval */
    fprintf(f, ", \"upper_bound\": %s", x->status == RB_OK && x->rate_upper_bound ? "true" : "false");
    fprintf(f, ", \"ops_per_ms_ci\": [");
    rb__json_num(f, x->status == RB_OK && !x->rate_upper_bound ? x->ci_lo : NAN);
    fputs(", ", f);
    rb__json_num(f, x->status == RB_OK && !x->rate_upper_bound ? x->ci_hi : NAN);
    fprintf(f, "], \"fraction_of_best\": ");
    rb__json_num(f, a->fraction[s][c]);
    fprintf(f, ", \"best\": %s, \"tied_with_best\": %s, \"resolved\": %s, \"samples\": %u, \"rounds\": %u, "
               "\"read_amplification\": ", a->best[c] == (int)s ? "true" : "false", a->tied[s][c] == 1 ? "true" : "false",
            a->unresolved[s][c] ? "false" : "true", x->nsamples, x->rounds);
    rb__json_num(f, x->status == RB_OK && x->read_amplification >= 0 ? x->read_amplification : NAN);
    fprintf(f, ", \"device_read_bytes\": ");
    rb__json_int_or_null(f, x->status == RB_OK ? x->device_read_bytes : -1);
    fprintf(f, ", \"majflt\": ");
    rb__json_int_or_null(f, x->status == RB_OK ? x->majflt : -1);
    fprintf(f, ", \"warnings\": [");
    for (k = 0; k < rb__nwarn(x); k++) {
        fputs(k ? ", " : "", f);
        rb_json_string(f, rb__warning(x, k, more, sizeof more));
    }
    fputs("]}", f);
}

/* "not_measured": each column where strategies have no ranked figure, which, and why (the
   verdict's lines say the same in words). */
static void rb__adv_json_gaps(FILE *f, const rb_advise_run *r)
{
    const rb_advice *a = &r->advice;
    unsigned s, c, n = 0, k;
    fprintf(f, ", \"not_measured\": [");
    for (c = 0; c < r->nconditions; c++) {
        if (!a->gap[c][0]) continue;
        fprintf(f, "%s{\"condition\": ", n++ ? ", " : "");
        rb_json_string(f, r->conditions[c]);
        fprintf(f, ", \"strategies\": [");
        for (s = 0, k = 0; s < r->nstrategies; s++)
            if (!a->reference[s] && a->tied[s][c] < 0) { fputs(k++ ? ", " : "", f); rb_json_string(f, r->strategies[s]); }
        fprintf(f, "], \"reason\": ");
        rb_json_string(f, a->gap[c]);
        fputc('}', f);
    }
    fputc(']', f);
}

/* "budget": the figures, the order the states ran in, each state's thread counts and why it
   was cut (null: it was not), and the lines the table prints. */
static void rb__adv_json_budget(FILE *f, const rb_advise_run *r)
{
    char l[RB_ADVISE_MAX_LINES][RB_REASON_LEN];
    unsigned n = rb__adv_budget_text(r, l), k, t, top = rb__adv_top(r);
    fprintf(f, ",\n \"budget\": {\"seconds\": ");
    rb__json_num(f, r->budget_seconds);
    fprintf(f, ", \"spent\": ");
    rb__json_num(f, r->seconds);
    fprintf(f, ", \"round1_aim\": ");
    rb__json_num(f, r->plan.aim_s);
    fprintf(f, ", \"round1_planned\": ");
    rb__json_num(f, r->plan.estimate_s);
    fprintf(f, ", \"fits\": %s, \"order\": [", r->plan.fits ? "true" : "false");
    for (k = 0; k < r->norder; k++) fprintf(f, "%s\"%s\"", k ? ", " : "", rb_state_name(r->states[r->order[k]]));
    fprintf(f, "], \"states\": [");
    for (k = 0; k < r->nstates; k++) {
        unsigned w = 0;
        fprintf(f, "%s{\"state\": \"%s\", \"threads\": [", k ? ", " : "", rb_state_name(r->states[k]));
        for (t = 0; t < r->nthreads; t++)
            if (r->state_threads[k] == r->nthreads || (r->state_threads[k] == 1 && t == top))
                fprintf(f, "%s%u", w++ ? ", " : "", r->threads[t]);
        fprintf(f, "], \"cut\": ");
        rb__json_str_or_null(f, r->state_cut[k][0] ? r->state_cut[k] : NULL);
        fputc('}', f);
    }
    fputc(']', f);
    rb__adv_json_lines(f, "lines", (const char (*)[RB_REASON_LEN])l, n);
    fputc('}', f);
}

static void rb__advise_json(FILE *f, const rb_advise_run *r)
{
    const rb_advice *a = &r->advice;
    unsigned s, c, k;
    char pat[96];
    fprintf(f, "{\"readbench_advise\": 1, \"version\": \"%s\", \"file\": ", RB_VERSION);
    rb__json_str_or_null(f, r->cfg.path);
    fprintf(f, ",\n \"config\": {\"pattern\": ");
    rb_json_string(f, rb_pattern_name(&r->cfg, pat, sizeof pat));
    fprintf(f, ", \"read_size\": %llu, \"reads_per_op\": %u, \"iterations\": %u, \"duration_s\": ",
            (unsigned long long)r->cfg.read_size, r->cfg.reads_per_op, r->cfg.iterations);
    rb__json_num(f, (double)r->cfg.duration_ns / 1e9);
    fprintf(f, ", \"budget_s\": ");
    rb__json_num(f, r->budget_seconds);
    rb__json_trace(f, r->cfg.trace);
    fprintf(f, ", \"seed\": %llu, \"threads\": [", (unsigned long long)r->cfg.seed);
    for (k = 0; k < r->nthreads; k++) fprintf(f, "%s%u", k ? ", " : "", r->threads[k]);
    fprintf(f, "], \"states\": [");
    for (k = 0; k < r->nstates; k++) fprintf(f, "%s\"%s\"", k ? ", " : "", rb_state_name(r->states[k]));
    fprintf(f, "]},\n \"env\": ");
    rb__env_json(f, &r->env);
    fprintf(f, ",\n \"rounds\": %u, \"seconds\": ", r->rounds);
    rb__json_num(f, r->seconds);
    fprintf(f, ", \"interrupted\": %s,\n \"conditions\": [", r->interrupted ? "true" : "false");
    for (c = 0; c < r->nconditions; c++) {
        fprintf(f, "%s{\"name\": ", c ? ", " : "");
        rb_json_string(f, r->conditions[c]);
        fprintf(f, ", \"state\": \"%s\", \"threads\": %u, \"measured\": %s, \"missing\": ",
                rb_state_name(r->states[c / r->nthreads]), r->threads[c % r->nthreads], a->best[c] >= 0 ? "true" : "false");
        rb__json_str_or_null(f, a->best[c] >= 0 ? NULL : r->missing[c][0] ? r->missing[c] : "no strategy ran");
        fputc('}', f);
    }
    fprintf(f, "],\n \"table\": [");
    for (s = 0; s < r->nstrategies; s++) {
        fprintf(f, "%s\n  {\"strategy\": ", s ? "," : "");
        rb_json_string(f, r->strategies[s]);
        fprintf(f, ", \"cells\": [");
        for (c = 0; c < r->nconditions; c++) rb__adv_json_cell(f, r, s, c);
        fprintf(f, "], \"reference\": %s, \"worst_fraction\": ", a->reference[s] ? "true" : "false");
        rb__json_num(f, a->worst[s]);
        fprintf(f, ", \"worst_upper_bound\": %s", a->worst_upper[s] ? "true" : "false");
        fprintf(f, ", \"worst_condition\": ");
        rb__json_str_or_null(f, a->worst_condition[s] >= 0 ? r->conditions[a->worst_condition[s]] : NULL);
        fputc('}', f);
    }
    fprintf(f, "],\n \"verdict\": {\"safe_choice\": ");
    rb__json_str_or_null(f, a->safe >= 0 ? r->strategies[a->safe] : NULL);
    fprintf(f, ", \"safe_tied\": [");
    for (s = 0, k = 0; s < r->nstrategies; s++)
        if (a->safe_tied[s]) { fputs(k++ ? ", " : "", f); rb_json_string(f, r->strategies[s]); }
    fprintf(f, "], \"best\": [");
    for (c = 0; c < r->nconditions; c++) {
        fprintf(f, "%s{\"condition\": ", c ? ", " : "");
        rb_json_string(f, r->conditions[c]);
        fprintf(f, ", \"strategy\": ");
        rb__json_str_or_null(f, a->best[c] >= 0 ? r->strategies[a->best[c]] : NULL);
        fprintf(f, ", \"tied\": [");
        for (s = 0, k = 0; s < r->nstrategies; s++)
            if (a->tied[s][c] == 1 && (int)s != a->best[c]) { fputs(k++ ? ", " : "", f); rb_json_string(f, r->strategies[s]); }
        fputs("]}", f);
    }
    fputc(']', f);
    rb__adv_json_gaps(f, r);
    rb__adv_json_lines(f, "lines", a->verdict, a->nverdict);
    fputc('}', f);
    rb__adv_json_lines(f, "reasons", a->reasons, a->nreasons);
    rb__adv_json_lines(f, "warnings", a->warnings, a->nwarnings);
    rb__adv_json_lines(f, "cannot_run", r->skipped, r->nskipped);
    rb__adv_json_budget(f, r);
    fprintf(f, "\n}\n");
}

/* The heat map: a row per strategy, a column per cache state and thread count, the worst
   last. Colour is the fraction of the column's best on a log scale (red at 0.1% and below,
   yellow at 3%, green at 100%): the cells that matter differ by 10x and 100x, which a linear
   scale would paint all the same red. Every cell writes its fraction and its ops/ms. */
#define RB__HEAT_W 118u
#define RB__HEAT_H 34u

static void rb__adv_colour(double f, char *buf, size_t len)
{
    static const int stop[3][3] = {{0xd7, 0x30, 0x27}, {0xfe, 0xe0, 0x8b}, {0x1a, 0x98, 0x50}};
    double t = f > 0 ? 1 + log10(f) / 3 : 0, u;
    int k, i, rgb[3];
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    k = t < 0.5 ? 0 : 1;
    u = (t - 0.5 * k) * 2;
    for (i = 0; i < 3; i++) rgb[i] = (int)(stop[k][i] + (stop[k + 1][i] - stop[k][i]) * u + 0.5);
    snprintf(buf, len, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

static void rb__adv_svg_cell(FILE *f, unsigned x, unsigned y, double frac, const char *big, const char *small,
                             const char *tip)
{
    char col[16] = "#eeeeee";
    if (frac == frac) rb__adv_colour(frac, col, sizeof col);
    fputs("<g><title>", f);
    rb__xml(f, tip);
    fprintf(f, "</title><rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" fill=\"%s\" stroke=\"white\"/>"
               "<text x=\"%u\" y=\"%u\" font-size=\"12\" text-anchor=\"middle\" font-weight=\"bold\">", x, y,
            RB__HEAT_W, RB__HEAT_H, col, x + RB__HEAT_W / 2, y + 15);
    rb__xml(f, big);
    fprintf(f, "</text><text x=\"%u\" y=\"%u\" font-size=\"10\" text-anchor=\"middle\">", x + RB__HEAT_W / 2, y + 28);
    rb__xml(f, small);
    fprintf(f, "</text></g>\n");
}

static void rb__advise_svg(FILE *f, const rb_advise_run *r, const char *title)
{
    const rb_advice *a = &r->advice;
    unsigned s, c, name = 60, left, w, h, y0 = 112;
    char env[1536], big[32], small[64], tip[RB_REASON_LEN + 96];
    for (s = 0; s < r->nstrategies; s++) name = RB__MAX(name, 7 * (unsigned)strlen(r->strategies[s]));
    left = 16 + name;
    w = RB__MAX(720u, left + (r->nconditions + 1) * RB__HEAT_W + 24);
    h = y0 + (r->nstrategies + 1) * RB__HEAT_H + 40 + 15 * (RB__MIN(a->nverdict, 6u) + 1);
    rb__svg_env_line(&r->env, env, sizeof env);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" "
               "height=\"%u\" viewBox=\"0 0 %u %u\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n<text x=\"16\" y=\"28\" font-size=\"18\" "
               "font-weight=\"bold\">", w, h, w, h);
    rb__xml(f, title && *title ? title : "readbench advise");
    fprintf(f, "</text>\n<text x=\"16\" y=\"48\" font-size=\"11\" fill=\"#444\">");
    rb__xml(f, env);
    fprintf(f, "</text>\n<text x=\"16\" y=\"64\" font-size=\"11\" fill=\"#444\">each cell: %% of the best ops/ms in "
               "its column (colour, log scale: red 0.1%%, yellow 3%%, green 100%%) and its median ops/ms; grey: not "
               "measured</text>\n");
    for (c = 0; c <= r->nconditions; c++) {
        fprintf(f, "<text x=\"%u\" y=\"%u\" font-size=\"12\" text-anchor=\"middle\" font-weight=\"bold\">",
                left + c * RB__HEAT_W + RB__HEAT_W / 2, y0 - 8);
        rb__xml(f, c < r->nconditions ? r->conditions[c] : "worst");
        fprintf(f, "</text>\n");
    }
    for (s = 0; s < r->nstrategies; s++) {
        unsigned y = y0 + s * RB__HEAT_H;
        fprintf(f, "<text x=\"%u\" y=\"%u\" font-size=\"12\" text-anchor=\"end\"%s>", left - 8, y + 21,
                (int)s == a->safe ? " font-weight=\"bold\"" : "");
        rb__xml(f, r->strategies[s]);
        fprintf(f, "</text>\n");
        for (c = 0; c < r->nconditions; c++) {
            const rb_result *x = rb__adv_run_cell(r, s, c);
            rb__adv_pct_up(a->fraction[s][c], a->upper[s][c], big, sizeof big);
            rb__cell_text(x, small, sizeof small);
            if (a->tied[s][c] < 0) snprintf(big, sizeof big, "%s", x->status == RB_UNSUPPORTED ? "n/a" : "-");
            rb__fmt(tip, sizeof tip, "%s, %s: %s%s%s", r->strategies[s], r->conditions[c], small,
                    x->status == RB_OK ? " ops/ms" : ": ", x->status == RB_OK ? "" : x->reason);
            rb__adv_svg_cell(f, left + c * RB__HEAT_W, y, a->fraction[s][c], big, small, tip);
        }
        rb__adv_pct_up(a->worst[s], a->worst_upper[s], big, sizeof big);
        snprintf(small, sizeof small, "%s", a->reference[s] ? "reference: no I/O" : a->worst_condition[s] >= 0 ?
                 r->conditions[a->worst_condition[s]] : "");
        rb__fmt(tip, sizeof tip, "%s: worst %s (%s)", r->strategies[s], big, small);
        rb__adv_svg_cell(f, left + r->nconditions * RB__HEAT_W, y, a->worst[s], big, small, tip);
    }
    for (c = 0; c < RB__MIN(a->nverdict, 6u); c++) {
        fprintf(f, "<text x=\"16\" y=\"%u\" font-size=\"11\">", y0 + r->nstrategies * RB__HEAT_H + 28 + 15 * c);
        rb__xml(f, a->verdict[c]);
        fprintf(f, "</text>\n");
    }
    fprintf(f, "</svg>\n");
}

RBDEF void rb_advise_write(FILE *f, const rb_advise_run *r, int format)
{
    if (format == RB_FORMAT_JSON) RB__IN_C_LOCALE(rb__advise_json(f, r));
    else RB__IN_C_LOCALE(rb__advise_table(f, r, format == RB_FORMAT_MARKDOWN));
}

RBDEF void rb_advise_svg(FILE *f, const rb_advise_run *r, const char *title)
{
    RB__IN_C_LOCALE(rb__advise_svg(f, r, title));
}

/* ==== 3.8 settings from text, the scenarios and the CLI's commands ============================ */

/* spec: "SIZE" or "auto:R" (pin what leaves file_size / R available); reserve: what the run
   will still allocate beside the hog. The hog never takes more than the room minus the margin
   minus reserve: an "auto:inf" once pinned 23.19 GiB and left 10 MiB. */
RBDEF int rb_hog_plan(const char *spec, uint64_t file_size, uint64_t reserve, uint64_t *size, char *why,
                      size_t whylen)
{
    int64_t room = rb_mem_available();
    uint64_t cap = 0, margin = room > 0 ? rb_mem_margin((uint64_t)room) : 0;
    char a[32], b[32], m[32];
    *size = 0;
    if (whylen) why[0] = 0;
    if (room >= 0) cap = (uint64_t)room > margin + reserve ? (uint64_t)room - margin - reserve : 0;
    rb__mem_text(room > 0 ? (uint64_t)room : 0, a, sizeof a);
    rb__mem_text(margin, m, sizeof m);
    if (spec && strncmp(spec, "auto:", 5) == 0) {
        double r = 0, target;
        unsigned n;
        if (rb_parse_double_list(spec + 5, &r, 1, &n) != RB_OK || !(r > 0) || !isfinite(r)) {
            rb__fmt(why, whylen, "the ratio of '%s' must be a finite positive number", spec);
            return RB_EINVAL;
        }
        if (room < 0) { rb__fmt(why, whylen, "the available memory is unknown here"); return RB_UNSUPPORTED; }
        target = (double)room - (double)file_size / r;
        if (target <= 0) {
            rb__fmt(why, whylen, "nothing to pin: the file is already %.2fx the %s available", (double)file_size / (double)room, a);
            return RB_OK;
        }
        *size = RB__MIN((uint64_t)target, cap) & ~(((uint64_t)1 << 20) - 1);
        if ((uint64_t)target > cap) {
            rb__mem_text(*size, b, sizeof b);
            rb__fmt(why, whylen, "capped at %s: %s available (cgroup limit included), less a %s margin%s", b, a, m,
                     reserve ? " and the run's buffers" : "");
        }
        return RB_OK;
    }
    if (!spec || rb_parse_size(spec, size) != RB_OK || *size == 0) {
        *size = 0;
        rb__fmt(why, whylen, "malformed size '%s'", spec ? spec : "(null)");
        return RB_EINVAL;
    }
    if (room >= 0 && *size > cap) {
        rb__mem_text(*size, b, sizeof b);
        rb__mem_text(cap, m, sizeof m);
        rb__fmt(why, whylen, "a hog of %s is more than the %s this process may pin (%s available, cgroup limit "
                 "included, less a safety margin%s)", b, m, a, reserve ? " and the run's buffers" : "");
        *size = 0;
        return RB_ENOMEM;
    }
    return RB_OK;
}

/*
   Strict: a trailing letter, an empty list item, a sign, or an overflow is an error, never
   a silent zero. Sizes are binary (16k = 16384), as in fio and dd. */
static int rb__lower(int c) { return (c >= 'A' && c <= 'Z') ? c + 32 : c; }

RBDEF int rb_parse_size(const char *s, uint64_t *out)
{
    uint64_t v = 0, mult = 1;
    const char *p = s;
    if (!s || *p < '0' || *p > '9') return RB_EINVAL;
    for (; *p >= '0' && *p <= '9'; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10) return RB_EINVAL;
        v = v * 10 + d;
    }
    if (*p) {
        switch (rb__lower(*p)) {
        case 'b': mult = 1; break;
        case 'k': mult = (uint64_t)1 << 10; break;
        case 'm': mult = (uint64_t)1 << 20; break;
        case 'g': mult = (uint64_t)1 << 30; break;
        case 't': mult = (uint64_t)1 << 40; break;
        default: return RB_EINVAL;
        }
        p++;
        if (mult > 1) {   /* k, kb, kib (any case) all mean 1024 */
            if (rb__lower(*p) == 'i' && rb__lower(p[1]) == 'b') p += 2;
            else if (rb__lower(*p) == 'b') p++;
        }
        if (*p) return RB_EINVAL;
    }
    if (v > UINT64_MAX / mult) return RB_EINVAL;
    *out = v * mult;
    return RB_OK;
}

/* A seed, a count: decimal digits and nothing else. strtoull(s, 0) would read "010" as
   octal 8 and refuse "08"; a leading zero means nothing here, and "0x10" is an error. */
RBDEF int rb_parse_u64(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    const char *p = s;
    if (!s || !*s) return RB_EINVAL;
    for (; *p; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (*p < '0' || *p > '9' || v > (UINT64_MAX - d) / 10) return RB_EINVAL;
        v = v * 10 + d;
    }
    *out = v;
    return RB_OK;
}

/* 500ms, 0.2s, 5s, 1m, 250us, 100ns; a bare number is seconds. */
RBDEF int rb_parse_duration(const char *s, int64_t *out_ns)
{
    double v = 0, frac = 0.1, unit = 1e9;
    const char *p = s;
    int digits = 0;
    if (!s) return RB_EINVAL;
    for (; *p >= '0' && *p <= '9'; p++, digits++) v = v * 10 + (*p - '0');
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++, digits++, frac /= 10) v += (*p - '0') * frac;
    if (!digits) return RB_EINVAL;
    if (*p) {
        if (strcmp(p, "ns") == 0) unit = 1;
        else if (strcmp(p, "us") == 0) unit = 1e3;
        else if (strcmp(p, "ms") == 0) unit = 1e6;
        else if (strcmp(p, "s") == 0) unit = 1e9;
        else if (strcmp(p, "m") == 0 || strcmp(p, "min") == 0) unit = 60e9;
        else if (strcmp(p, "h") == 0) unit = 3600e9;
        else return RB_EINVAL;
    }
    v *= unit;
    if (v > 9e18) return RB_ERANGE;   /* well formed, but past int64 nanoseconds (285 years) */
    *out_ns = (int64_t)(v + 0.5);
    return RB_OK;
}

/* Splits a comma list into items handed to one parser: "1,,4", ",4" and "4," are errors. */
static int rb__list(const char *s, unsigned cap, unsigned *n, void *out,
                    int (*one)(const char *item, void *out, unsigned i))
{
    char item[64];
    unsigned count = 0;
    const char *p = s;
    if (!s || !*s) return RB_EINVAL;
    for (;;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (len == 0 || len >= sizeof item || count >= cap) return RB_EINVAL;
        memcpy(item, p, len);
        item[len] = 0;
        if (one(item, out, count) != RB_OK) return RB_EINVAL;
        count++;
        if (!c) break;
        p = c + 1;
    }
    *n = count;
    return RB_OK;
}

static int rb__one_uint(const char *item, void *out, unsigned i)
{
    uint64_t v = 0;
    const char *p = item;
    if (!*p) return RB_EINVAL;
    for (; *p; p++) {
        if (*p < '0' || *p > '9') return RB_EINVAL;
        v = v * 10 + (unsigned)(*p - '0');
        if (v > 0xffffffffu) return RB_EINVAL;
    }
    ((unsigned *)out)[i] = (unsigned)v;
    return RB_OK;
}

static int rb__one_size(const char *item, void *out, unsigned i)
{
    return rb_parse_size(item, &((uint64_t *)out)[i]);
}

/* The one grammar of a number: digits, with fraction also [.digits][(e|E)[+|-]digits]. Checked
   before strtod, which would also take a sign, spaces before, hex ("0x10" as 16), "inf" and
   "nan"; the C locale's point whatever the caller's locale. */
RBDEF int rb_parse_number(const char *s, int fraction, double *out)
{
    const char *p = s;
    char *end = NULL;
    double v = 0;
    if (!s || !rb__isdigit((unsigned char)*p)) return RB_EINVAL;
    while (rb__isdigit((unsigned char)*p)) p++;
    if (fraction && *p == '.')
        for (p++; rb__isdigit((unsigned char)*p); p++) {}
    if (fraction && (*p == 'e' || *p == 'E')) {
        p += p[1] == '+' || p[1] == '-' ? 2 : 1;
        if (!rb__isdigit((unsigned char)*p)) return RB_EINVAL;
        while (rb__isdigit((unsigned char)*p)) p++;
    }
    if (*p) return RB_EINVAL;
    RB__IN_C_LOCALE(v = strtod(s, &end));
    if (!end || *end || !isfinite(v)) return RB_EINVAL;
    *out = v;
    return RB_OK;
}

static int rb__one_double(const char *item, void *out, unsigned i)
{
    return rb_parse_number(item, 1, &((double *)out)[i]);
}

RBDEF int rb_parse_uint_list(const char *s, unsigned *out, unsigned cap, unsigned *n)
{
    return rb__list(s, cap, n, out, rb__one_uint);
}

RBDEF int rb_parse_size_list(const char *s, uint64_t *out, unsigned cap, unsigned *n)
{
    return rb__list(s, cap, n, out, rb__one_size);
}

/* Names from a table ("always,backoff", "warm,cold"): strict like every list, each name known
   and listed once; out gets their indices in the table. */
typedef struct rb__name_table {
    const char *const *names;
    unsigned count;
    int *out;
} rb__name_table;

static int rb__one_name(const char *item, void *ctx, unsigned i)
{
    const rb__name_table *t = (const rb__name_table *)ctx;
    unsigned k, j;
    for (k = 0; k < t->count && strcmp(t->names[k], item) != 0; k++) {}
    if (k == t->count) return RB_EINVAL;
    for (j = 0; j < i; j++)
        if (t->out[j] == (int)k) return RB_EINVAL;
    t->out[i] = (int)k;
    return RB_OK;
}

static int rb__name_list(const char *s, const char *const *names, unsigned count, int *out, unsigned cap, unsigned *n)
{
    rb__name_table t;
    t.names = names;
    t.count = count;
    t.out = out;
    return rb__list(s, cap, n, &t, rb__one_name);
}

RBDEF int rb_parse_policy_list(const char *s, int *out, unsigned cap, unsigned *n)
{
    return rb__name_list(s, rb__pf_names, RB_PF_COUNT, out, cap, n);
}

RBDEF int rb_parse_double_list(const char *s, double *out, unsigned cap, unsigned *n)
{
    int rc;
    RB__IN_C_LOCALE(rc = rb__list(s, cap, n, out, rb__one_double));   /* strtod reads the locale's point */
    return rc;
}

/* --pattern SPEC: random | sequential | zipf:THETA | pareto:H | normal:SIGMA |
   hotset:FRACTION:PROB, a skewed one optionally followed by :contiguous, and runs:N or
   runs:N:PATTERN in front of any but sequential. Numbers in the C locale ("1.2" under de_DE
   too); a sign is allowed so that "zipf:-1" is refused for its range, not its spelling. */
static int rb__pattern_number(const char *tok, const char *what, double *out, char *why, size_t wl)
{
    double v = 0;
    if (rb_parse_number(tok + (*tok == '-'), 1, &v) != RB_OK) {
        rb__fmt(why, wl, "%s: '%s' is not a number", what, tok);
        return RB_EINVAL;
    }
    *out = *tok == '-' ? -v : v;
    return RB_OK;
}

RBDEF int rb_parse_pattern(const char *spec, rb_config *c, char *why, size_t wl)
{
    static const char *const usage[RB_PATTERN_COUNT] = {"random", "sequential", "zipf:THETA", "pareto:H",
                                                        "normal:SIGMA", "hotset:FRACTION:PROB"};
    char buf[128], *tok[8], *q;
    unsigned n = 1, i = 0, j, need;
    uint64_t run = 1;
    rb_config t = *c;
    int p;
    if (!spec || !*spec || strlen(spec) >= sizeof buf) {
        rb__fmt(why, wl, "a pattern is random, sequential, zipf:THETA, pareto:H, normal:SIGMA or hotset:FRACTION:PROB");
        return RB_EINVAL;
    }
    memcpy(buf, spec, strlen(spec) + 1);
    tok[0] = buf;
    for (q = buf; *q; q++)
        if (*q == ':') {
            *q = 0;
            if (n == 8) { rb__fmt(why, wl, "pattern '%s' has too many parts", spec); return RB_EINVAL; }
            tok[n++] = q + 1;
        }
    if (!strcmp(tok[0], "runs")) {
        if (n < 2 || rb_parse_u64(tok[1], &run) != RB_OK || run < 1 || run > RB_MAX_RUN) {
            rb__fmt(why, wl, "runs:N needs N, the reads of one run, from 1 to %u: not '%s'", RB_MAX_RUN, n < 2 ? "" : tok[1]);
            return RB_EINVAL;
        }
        i = 2;
    }
    for (p = 0; i < n && p < RB_PATTERN_COUNT && strcmp(tok[i], rb__pattern_names[p]); p++) {}
    if (i == n) p = RB_RANDOM;   /* runs:N alone: uniform starts */
    else if (p == RB_PATTERN_COUNT) {
        rb__fmt(why, wl, "no access pattern '%s': random, sequential, zipf:THETA, pareto:H, normal:SIGMA, "
                "hotset:FRACTION:PROB, runs:N[:PATTERN]; add :contiguous to keep hot blocks together", tok[i]);
        return RB_EINVAL;
    }
    need = p == RB_HOTSET ? 2 : p >= RB_ZIPF ? 1 : 0;
    for (j = 0; j < need; j++) {
        if (i + 1 + j >= n) { rb__fmt(why, wl, "%s needs %s", rb__pattern_names[p], usage[p]); return RB_EINVAL; }
        if (rb__pattern_number(tok[i + 1 + j], usage[p], &t.pattern_arg[j], why, wl) != RB_OK) return RB_EINVAL;
    }
    if (!need) t.pattern_arg[0] = t.pattern_arg[1] = 0;
    if (need == 1) t.pattern_arg[1] = 0;
    t.contiguous = 0;
    for (j = i + 1 + need; j < n; j++) {
        if (p >= RB_ZIPF && !t.contiguous && !strcmp(tok[j], "contiguous")) { t.contiguous = 1; continue; }
        rb__fmt(why, wl, "pattern '%s': unexpected ':%s' (%s%s)", spec, tok[j], usage[p],
                p >= RB_ZIPF ? "[:contiguous]" : "");
        return RB_EINVAL;
    }
    t.pattern = p;
    t.run_length = (unsigned)run;
    if (rb_pattern_check(&t, why, wl) != RB_OK) return RB_EINVAL;
    c->pattern = t.pattern;
    c->pattern_arg[0] = t.pattern_arg[0];
    c->pattern_arg[1] = t.pattern_arg[1];
    c->run_length = t.run_length;
    c->contiguous = t.contiguous;
    return RB_OK;
}

RBDEF int rb_parse_rate(const char *spec, rb_config *c, char *why, size_t wl)
{
    char num[64];
    int ok = 0;
    const char *colon = spec ? strchr(spec, ':') : NULL;
    size_t len = colon ? (size_t)(colon - spec) : spec ? strlen(spec) : 0;
    double v = 0;
    int arrivals = RB_ARRIVALS_UNIFORM;
    if (colon && !strcmp(colon + 1, "poisson")) arrivals = RB_ARRIVALS_POISSON;
    else if (colon && strcmp(colon + 1, "uniform") != 0) {
        rb__fmt(why, wl, "a rate's arrivals are uniform or poisson, not '%s' (in '%s')", colon + 1, spec);
        return RB_EINVAL;
    }
    if (len > 0 && len < sizeof num) {
        memcpy(num, spec, len);
        num[len] = 0;
        ok = rb_parse_number(num, 1, &v) == RB_OK;
    }
    if (!ok || !(v > 0 && v <= RB_MAX_RATE)) {
        rb__fmt(why, wl, "a rate is ops per second per thread, a number above 0 and at most %g, then "
                "optionally :uniform or :poisson: not '%s'", RB_MAX_RATE, spec ? spec : "");
        return RB_EINVAL;
    }
    c->rate = v;
    c->arrivals = arrivals;
    return RB_OK;
}

/*
   Every rule about what a setting may be lives here once: the CLI only finds the key for an
   option, and rb_run and rb_matrix_check still refuse what an embedder sets directly. The
   scenarios are the Lucene cases as presets; none sets a warmup, which would change the state
   the preset prepared before measuring starts. */
static const rb_scenario rb__scenarios[] = {
    {"warm", 1, RB_CACHE_KEEP, RB_RANDOM, NULL, "every page resident"},
    {"pressure", 1, RB_CACHE_KEEP, RB_RANDOM, "auto:1.2", "the file is 1.2x the memory left; the cache keeps what fits"},
    {"half-cold", 0.5, RB_CACHE_KEEP, RB_RANDOM, NULL, "half the pages resident"},
    {"cold", 0, RB_CACHE_EVICT_EACH, RB_RANDOM, NULL, NULL},
    {"sequential-cold", 0, RB_CACHE_EVICT_EACH, RB_SEQUENTIAL, NULL, NULL},
};

RBDEF const rb_scenario *rb_scenarios(unsigned *count)
{
    if (count) *count = (unsigned)(sizeof rb__scenarios / sizeof rb__scenarios[0]);
    return rb__scenarios;
}

RBDEF const rb_scenario *rb_scenario_find(const char *name)
{
    unsigned i, n;
    const rb_scenario *t = rb_scenarios(&n);
    for (i = 0; name && i < n; i++)
        if (!strcmp(t[i].name, name)) return &t[i];
    return NULL;
}

/* A table's names for a message: "a, b or c" (last: " or "), or "a, b, c" (last: ", "). */
static void rb__names(char *buf, size_t len, const char *const *names, size_t stride, unsigned n, const char *last)
{
    size_t used = 0;
    unsigned i;
    buf[0] = 0;
    for (i = 0; i < n && used < len; i++) {
        const char *name = *(const char *const *)((const char *)names + i * stride);
        int w = snprintf(buf + used, len - used, "%s%s", i == 0 ? "" : i + 1 == n ? last : ", ", name);
        used += w > 0 ? (size_t)w : 0;
    }
}

/* A count in [lo, hi]. */
static int rb__set_uint(const char *as, const char *v, unsigned lo, unsigned hi, unsigned *out, char *why, size_t wl)
{
    unsigned n, x;
    if (!rb_parse_uint_list(v, &x, 1, &n) && x >= lo && x <= hi) { *out = x; return RB_OK; }
    rb__fmt(why, wl, "%s must be %u..%u: '%s'", as, lo, hi, v);
    return RB_EINVAL;
}

/* A duration: malformed and too large are different mistakes, said as such. */
static int rb__set_duration(const char *as, const char *v, int64_t *ns, char *why, size_t wl)
{
    int rc = rb_parse_duration(v, ns);
    if (rc == RB_ERANGE) rb__fmt(why, wl, "%s is too large: '%s'", as, v);
    else if (rc) rb__fmt(why, wl, "malformed duration '%s': a number and ns, us, ms, s, m or h, e.g. 500ms", v);
    return rc ? RB_EINVAL : RB_OK;
}

/* "all", or strategy names, each known, none empty. */
static int rb__set_strategies(rb_settings *s, const char *v, char *why, size_t wl)
{
    const char *p = v;
    s->nstrategies = 0;
    if (!strcmp(v, "all")) return RB_OK;
    for (;;) {
        char name[64];
        size_t len = strcspn(p, ",");
        const rb_strategy *st;
        if (len == 0) break;   /* an empty item: "", ",a", "a,,b", "a," */
        snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), p);
        if (len >= sizeof name || !(st = rb_strategy_find(name))) {
            rb__fmt(why, wl, "unknown strategy '%s'", name);
            return RB_EINVAL;
        }
        if (s->nstrategies == RB_MAX_AXIS) { rb__fmt(why, wl, "too many strategies: '%s'", v); return RB_EINVAL; }
        s->strategies[s->nstrategies++] = st;
        if (!p[len]) return RB_OK;
        p += len + 1;
    }
    rb__fmt(why, wl, "malformed strategy list '%s'", v);
    return RB_EINVAL;
}

/* Thread counts: at least 1; past RB_MAX_THREADS absurd rather than wrong, so capped and said. */
static int rb__set_threads(rb_settings *s, const char *v, char *why, size_t wl)
{
    unsigned k, n;
    if (rb_parse_uint_list(v, s->threads, RB_MAX_AXIS, &n)) { rb__fmt(why, wl, "malformed thread list '%s'", v); return RB_EINVAL; }
    s->nthreads = n;
    for (k = 0; k < n; k++)
        if (s->threads[k] == 0) { rb__fmt(why, wl, "thread count must be at least 1: '%s'", v); return RB_EINVAL; }
    for (k = 0; k < n; k++)
        if (s->threads[k] > RB_MAX_THREADS) {
            rb__fmt(why, wl, "%u threads is more than this tool runs; capped at %u", s->threads[k], RB_MAX_THREADS);
            s->threads[k] = RB_MAX_THREADS;
        }
    return RB_OK;
}

static int rb__set_read_sizes(rb_settings *s, const char *v, char *why, size_t wl)
{
    unsigned k;
    if (rb_parse_size_list(v, s->read_sizes, RB_MAX_AXIS, &s->nread_sizes)) {
        rb__fmt(why, wl, "malformed size list '%s'", v);
        return RB_EINVAL;
    }
    for (k = 0; k < s->nread_sizes; k++)
        if (s->read_sizes[k] == 0 || s->read_sizes[k] > ((uint64_t)1 << 30)) {
            rb__fmt(why, wl, "read size must be between 1 byte and 1 GiB: '%s'", v);
            return RB_EINVAL;
        }
    return RB_OK;
}

/* CPUs to pin to: each one this process may run on, or pinning refused where it cannot be. */
static int rb__set_cpus(rb_settings *s, const char *as, const char *v, char *why, size_t wl)
{
    unsigned k;
    if (rb_parse_uint_list(v, s->cpus, RB_MAX_AXIS, &s->cfg.ncpus)) {
        rb__fmt(why, wl, "malformed CPU list '%s'", v);
        return RB_EINVAL;
    }
    for (k = 0; k < s->cfg.ncpus; k++) {
        int ok = rb_cpu_allowed(s->cpus[k]);
        if (ok < 0) rb__fmt(why, wl, "%s: pinning threads to CPUs is not supported here (CPU %u)", as, s->cpus[k]);
        else if (!ok) rb__fmt(why, wl, "%s: CPU %u is not one this process may run on (see taskset -p)", as, s->cpus[k]);
        if (ok <= 0) return RB_EINVAL;
    }
    return RB_OK;
}

static int rb__set_choice(const char *as, const char *v, const char *const *names, unsigned n, int *out,
                          char *why, size_t wl)
{
    char list[128];
    unsigned i;
    for (i = 0; i < n; i++)
        if (!strcmp(v, names[i])) { *out = (int)i; return RB_OK; }
    rb__names(list, sizeof list, names, sizeof *names, n, " or ");
    rb__fmt(why, wl, "%s must be %s, not '%s'", as, list, v);
    return RB_EINVAL;
}

static int rb__set_scenario(rb_settings *s, const char *v, char *why, size_t wl)
{
    unsigned n;
    const rb_scenario *sc = rb_scenario_find(v), *all = rb_scenarios(&n);
    char list[128];
    if (!sc) {
        rb__names(list, sizeof list, &all[0].name, sizeof *all, n, " or ");
        rb__fmt(why, wl, "scenario must be %s, not '%s'", list, v);
        return RB_EINVAL;
    }
    if (sc->prewarm > 0) s->cfg.prewarm = sc->prewarm;
    if (sc->cache != RB_CACHE_KEEP) s->cfg.cache = sc->cache;
    if (sc->pattern != RB_RANDOM) {   /* the preset's pattern whole: no runs or parameters of another */
        s->cfg.pattern = sc->pattern;
        s->cfg.run_length = 0;
        s->cfg.contiguous = 0;
    }
    if (sc->hog) s->hog = sc->hog;
    s->cfg.pressure = sc->hog != NULL;   /* its memory is pinned so that the file does not fit */
    s->cfg.warmup_ns = RB_NONE;
    s->scenario = sc;
    return RB_OK;
}

static int rb__set_groups(rb_settings *s, const char *key, const char *v, const char *as, char *why, size_t wl);
static int rb__set_groups(rb_settings *s, const char *key, const char *v, const char *as, char *why, size_t wl);
/* A replay's trace is read when the settings become a matrix or an advise (rb__settings_trace):
   FILE may come after it on a command line, and its format and skip-bad too. */
static void rb__settings_untrace(rb_settings *s)
{
    if (s->trace_loaded) rb_trace_free(&s->trace);
    s->trace_loaded = 0;
    s->cfg.trace = NULL;
}

static int rb__set_trace(rb_settings *s, const char *key, const char *v, const char *as, char *why, size_t wl)
{
    int f;
    if (!strcmp(key, "skip-bad")) s->trace_opts.skip_bad = 1;
    else if (!strcmp(key, "timed")) s->cfg.timed = 1;
    else if (!strcmp(key, "trace") && !*v) {
        rb__fmt(why, wl, "%s needs a trace file", as);
        return RB_EINVAL;
    } else if (!strcmp(key, "trace")) {
        s->trace_path = v;
    } else if (!strcmp(key, "trace-format")) {
        if ((f = rb_trace_format_find(v)) < 0) {
            rb__fmt(why, wl, "%s must be auto, strace, iolog or csv, not '%s'", as, v);
            return RB_EINVAL;
        }
        s->trace_opts.format = f;
    } else {
        rb__fmt(why, wl, "no setting '%s'", key);
        return RB_EINVAL;
    }
    rb__settings_untrace(s);
    return RB_OK;
}

/* Loads the trace for cfg.path once; its defaults: a thread per stream, its longest read. */
static void rb__settings_trace(rb_settings *s)
{
    if (!s->trace_path || s->trace_loaded) return;
    s->trace_opts.file = s->cfg.path;
    s->trace_opts.file_size = 0;
    rb_trace_load(&s->trace, s->trace_path, &s->trace_opts);
    s->trace_loaded = 1;
    s->cfg.trace = &s->trace;
    if (s->trace.status != RB_OK) return;
    if (!s->nthreads) {
        s->threads[0] = RB__MIN(s->trace.nstreams, RB_MAX_THREADS);
        s->nthreads = 1;
    }
    if (!s->nread_sizes) {
        s->read_sizes[0] = s->trace.max_len;
        s->nread_sizes = 1;
    }
}

RBDEF void rb_settings_free(rb_settings *s) { rb__settings_untrace(s); }

/* The axes and lists (the keys that are not one number of rb_config). */
static int rb__set_list(rb_settings *s, const char *key, const char *v, const char *as, char *why, size_t wl)
{
    if (!strcmp(key, "strategies")) return rb__set_strategies(s, v, why, wl);
    if (!strcmp(key, "threads")) return rb__set_threads(s, v, why, wl);
    if (!strcmp(key, "read-size")) return rb__set_read_sizes(s, v, why, wl);
    if (!strcmp(key, "cpus")) return rb__set_cpus(s, as, v, why, wl);
    if (!strcmp(key, "scenario")) return rb__set_scenario(s, v, why, wl);
    if (!strcmp(key, "rounds")) return rb__set_uint(as, v, 1, RB_MAX_ROUNDS, &s->rounds, why, wl);
    if (!strcmp(key, "percentiles")) {
        if (!rb_parse_double_list(v, s->percentiles, RB_MAX_PERCENTILES + 1, &s->npercentiles))
            return rb_percentiles_check(s->percentiles, s->npercentiles, why, wl);
        rb__fmt(why, wl, "malformed percentile list '%s'", v);
        return RB_EINVAL;
    }
    if (!strcmp(key, "states")) {
        if (!rb_parse_state_list(v, s->states, RB_STATE_COUNT, &s->nstates)) return RB_OK;
        s->nstates = 0;
        rb__fmt(why, wl, "%s takes warm, half-cold, cold and pressure, each at most once: not '%s'", as, v);
        return RB_EINVAL;
    }
    if (!strcmp(key, "budget")) {
        if (rb__set_duration(as, v, &s->budget_ns, why, wl) != RB_OK) return RB_EINVAL;
        if (s->budget_ns >= 1000000000) return RB_OK;
        rb__fmt(why, wl, "%s must be at least 1s, e.g. 90s or 3m: not '%s'", as, v);
        return RB_EINVAL;
    }
    if (!strcmp(key, "hog")) {
        if (*v) { s->hog = v; return RB_OK; }
        rb__fmt(why, wl, "%s needs a size", as);
        return RB_EINVAL;
    }
    return rb__set_groups(s, key, v, as, why, wl);
}

/* The readers that run together: a group per "group", how the alone runs go, the victim. */
static int rb__set_groups(rb_settings *s, const char *key, const char *v, const char *as, char *why, size_t wl)
{
    static const char *const alone[] = {"first", "no", "only"};
    if (!strcmp(key, "group")) {
        if (s->ngroups == RB_MAX_GROUPS) { rb__fmt(why, wl, "%s: at most %u groups", as, RB_MAX_GROUPS); return RB_EINVAL; }
        if (rb_parse_group(v, s->ngroups + 1, as, &s->groups[s->ngroups], why, wl) != RB_OK) return RB_EINVAL;
        s->ngroups++;
        return RB_OK;
    }
    if (!strcmp(key, "alone")) return rb__set_choice(as, v, alone, 3, &s->alone, why, wl);
    if (!strcmp(key, "victim")) {
        if (*v) { s->cfg.victim = v; return RB_OK; }
        rb__fmt(why, wl, "%s needs a file", as);
        return RB_EINVAL;
    }
    return rb__set_trace(s, key, v, as, why, wl);
}

/* One key=value of a group: the value by the run setting's own rule (rb_settings_set on a
   scratch), then kept as the group's. */
static int rb__group_key(rb_group *g, const char *key, const char *v, char *why, size_t wl)
{
    static const char *const keys[] = {"strategy", "threads", "pattern", "read-size", "reads-per-op", "iodepth", "align"};
    rb_settings tmp;
    unsigned k;
    char list[128];
    for (k = 0; k < sizeof keys / sizeof keys[0] && strcmp(keys[k], key); k++) {}
    if (k == sizeof keys / sizeof keys[0] && strcmp(key, "strategies")) {
        rb__names(list, sizeof list, keys, sizeof *keys, sizeof keys / sizeof keys[0], " or ");
        if (rb_settings_doc_find(key)) rb__fmt(why, wl, "'%s' is the cell's, shared by every group: a group sets %s", key, list);
        else rb__fmt(why, wl, "no key '%s' in a group: %s", key, list);
        return RB_EINVAL;
    }
    memset(&tmp, 0, sizeof tmp);
    if (rb_settings_set(&tmp, k == 0 || k == sizeof keys / sizeof keys[0] ? "strategies" : key, v, key, why, wl) != RB_OK)
        return RB_EINVAL;
    if (k == 0 || k == sizeof keys / sizeof keys[0]) {
        if (tmp.nstrategies != 1) { rb__fmt(why, wl, "%s takes one strategy, not '%s'", key, v); return RB_EINVAL; }
        g->s = tmp.strategies[0];
    } else if (k == 1) {
        g->threads = tmp.threads[0];
    } else if (k == 2) {
        g->has_pattern = 1;
        g->pattern = tmp.cfg.pattern;
        g->pattern_arg[0] = tmp.cfg.pattern_arg[0];
        g->pattern_arg[1] = tmp.cfg.pattern_arg[1];
        g->run_length = tmp.cfg.run_length;
        g->contiguous = tmp.cfg.contiguous;
    } else if (k == 3) {
        g->read_size = tmp.read_sizes[0];
    } else if (k == 4) {
        g->reads_per_op = tmp.cfg.reads_per_op;
    } else if (k == 5) {
        g->iodepth = tmp.cfg.iodepth;
    } else {
        g->align = tmp.cfg.align;
    }
    return RB_OK;
}

RBDEF int rb_parse_group(const char *spec, unsigned index, const char *as, rb_group *g, char *why, size_t wl)
{
    const char *p = spec ? spec : "";
    char key[32], val[RB_GROUP_SPEC_LEN], inner[RB_REASON_LEN], seen[8][32];
    unsigned nseen = 0, k;
    memset(g, 0, sizeof *g);
    why[0] = 0;
    if (!as) as = "group";
    if (strlen(p) >= sizeof g->spec) {
        rb__fmt(why, wl, "%s %u is longer than %u characters", as, index, RB_GROUP_SPEC_LEN - 1);
        return RB_EINVAL;
    }
    snprintf(g->spec, sizeof g->spec, "%s", p);
    for (;;) {
        size_t len = strcspn(p, ","), klen = strcspn(p, "=");
        if (klen >= len || klen == 0 || klen >= sizeof key) {
            rb__fmt(why, wl, "%s %u: '%.*s' is not key=value (e.g. strategy=pread,threads=4)", as, index,
                    (int)RB__MIN(len, (size_t)64), p);
            return RB_EINVAL;
        }
        snprintf(key, sizeof key, "%.*s", (int)klen, p);
        if (!strcmp(key, "strategies")) snprintf(key, sizeof key, "strategy");
        for (k = 0; k < nseen && strcmp(seen[k], key); k++) {}
        if (k < nseen) { rb__fmt(why, wl, "%s %u: %s is given twice", as, index, key); return RB_EINVAL; }
        if (nseen < 8) snprintf(seen[nseen++], sizeof seen[0], "%s", key);
        snprintf(val, sizeof val, "%.*s", (int)(len - klen - 1), p + klen + 1);
        if (rb__group_key(g, key, val, inner, sizeof inner) != RB_OK) {
            if (!strncmp(inner, key, strlen(key))) rb__fmt(why, wl, "%s %u: %s", as, index, inner);
            else rb__fmt(why, wl, "%s %u: %s: %s", as, index, key, inner);
            return RB_EINVAL;
        }
        if (!p[len]) break;
        p += len + 1;   /* past the comma: an item must follow */
    }
    if (!g->s) { rb__fmt(why, wl, "%s %u names no strategy (strategy=NAME)", as, index); return RB_EINVAL; }
    return RB_OK;
}

RBDEF int rb_settings_set(rb_settings *s, const char *key, const char *v, const char *as, char *why, size_t wl)
{
    static const char *const caches[] = {"keep", "evict", "evict-each"}, *const picks[] = {"size", "uniform"};
    rb_config *c = &s->cfg;
    uint64_t u;
    double d;
    unsigned n;
    int rc = RB_OK;
    why[0] = 0;
    if (!as) as = key;
    if (!v) v = "";
    if (!strcmp(key, "verify")) c->verify = 1;
    else if (!strcmp(key, "reads-per-op")) rc = rb__set_uint(as, v, 1, 65536, &c->reads_per_op, why, wl);
    else if (!strcmp(key, "iodepth")) rc = rb__set_uint(as, v, 1, RB_MAX_IODEPTH, &c->iodepth, why, wl);
    else if (!strcmp(key, "iterations")) rc = rb__set_uint(as, v, 1, RB_MAX_ITERATIONS, &c->iterations, why, wl);
    else if (!strcmp(key, "pattern")) rc = rb_parse_pattern(v, c, why, wl);   /* the spec's own words */
    else if (!strcmp(key, "cache")) rc = rb__set_choice(as, v, caches, 3, &c->cache, why, wl);
    else if (!strcmp(key, "file-pick")) rc = rb__set_choice(as, v, picks, 2, &c->file_pick, why, wl);
    else if (!strcmp(key, "size")) {
        if (rb_parse_size(v, &u) || u == 0) { rb__fmt(why, wl, "malformed size '%s'", v); rc = RB_EINVAL; }
        else c->size = u;
    } else if (!strcmp(key, "prewarm")) {
        if (rb_parse_double_list(v, &d, 1, &n) || d > 1) {
            rb__fmt(why, wl, "%s needs a fraction in [0, 1], not '%s'", as, v);
            rc = RB_EINVAL;
        } else if ((c->prewarm = d) == 0) c->cache = RB_CACHE_EVICT;   /* nothing resident is an eviction */
    } else if (!strcmp(key, "align")) {
        if (rb_parse_size(v, &u) || u == 0 || (u & (u - 1))) {
            rb__fmt(why, wl, "%s must be a power of two: '%s'", as, v);
            rc = RB_EINVAL;
        } else c->align = u;
    } else if (!strcmp(key, "seed")) {
        if (rb_parse_u64(v, &c->seed)) { rb__fmt(why, wl, "malformed seed '%s' (decimal digits only)", v); rc = RB_EINVAL; }
    } else if (!strcmp(key, "warmup")) {
        if ((rc = rb__set_duration(as, v, &c->warmup_ns, why, wl)) == RB_OK && !c->warmup_ns) c->warmup_ns = RB_NONE;
    } else if (!strcmp(key, "rate")) {
        if ((rc = rb_parse_rate(v, c, why, wl)) != RB_OK) {
            char reason[RB_REASON_LEN];
            snprintf(reason, sizeof reason, "%s", why);
            rb__fmt(why, wl, "%s: %s", as, reason);
        }
    } else if (!strcmp(key, "think")) {
        rc = rb__set_duration(as, v, &c->think_ns, why, wl);
    } else if (!strcmp(key, "duration")) {
        int64_t ns;
        if ((rc = rb__set_duration(as, v, &ns, why, wl)) == RB_OK && ns < 1000000) {
            rb__fmt(why, wl, "%s must be at least 1ms: '%s'", as, v);
            rc = RB_EINVAL;
        } else if (rc == RB_OK) c->duration_ns = ns;
    } else rc = rb__set_list(s, key, v, as, why, wl);
    return rc;
}

#define RB__RA (RB_FOR_RUN | RB_FOR_ADVISE)
static const rb_setting_doc rb__setting_docs[] = {
    {"strategies", "LIST|all", RB__RA, NULL, "which strategies (default all; see `readbench list`)"},
    {"threads", "LIST", RB__RA, NULL, "thread counts (default 1,4,8,16)"},
    {"read-size", "LIST", RB__RA, NULL, "bytes per read (default 16k); with one thread count the columns become read sizes"},
    {"reads-per-op", "N", RB_FOR_RUN, NULL, "reads per op (default 16 random, 128 sequential); ops/ms counts ops"},
    {"iodepth", "N", RB_FOR_RUN, NULL, "reads io_uring-qd keeps in flight per thread (default: reads per op; at most 4096)"},
    {"pattern", "P", RB__RA, NULL,
     "random (default), sequential, zipf:THETA, pareto:H, normal:SIGMA or\n"
     "hotset:FRACTION:PROB (:contiguous keeps hot blocks together); runs:N[:P]: each\n"
     "drawn offset starts N back-to-back reads, e.g. runs:16:zipf:1.2"},
    {"size", "SIZE", RB_FOR_RUN, NULL, "read only the first SIZE bytes of FILE (default: all of it)"},
    {"file-pick", "size|uniform", RB__RA, NULL,
     "FILE a directory (every regular file in it): a read picks a file in proportion\n"
     "to its size (default) or uniformly, then an offset in it by the pattern"},
    {"warmup", "TIME", RB_FOR_RUN, NULL,
     "warmup per cell, e.g. 500ms, 1s; 0 for none (default 1s; none after --cache evict\n"
     "or with --prewarm below 1, where it would undo the prepared state)"},
    {"duration", "TIME", RB_FOR_RUN, NULL, "one measured iteration (default 1s)"},
    {"iterations", "N", RB_FOR_RUN, NULL, "measured iterations per cell (default 5, at most 100)"},
    {"rounds", "N", RB_FOR_RUN, NULL, "the whole matrix N times in shuffled order; cells show median +- 95% CI"},
    {"align", "SIZE", RB_FOR_RUN, NULL, "random offsets are multiples of SIZE (default: unaligned; fio aligns to bs)"},
    {"seed", "N", RB__RA, NULL, "offsets seed (default 0)"},
    {"cpus", "LIST", RB_FOR_RUN, NULL, "pin worker i to CPU LIST[i % n] (fio's cpus_allowed); default: unpinned"},
    {"verify", "", RB_FOR_RUN, NULL, "check every byte read against the setup pattern"},
    {"percentiles", "LIST", RB_FOR_RUN, NULL, "latency percentiles (default 50,90,99,99.9)"},
    {"rate", "OPS[:poisson]", RB_FOR_RUN, "load (default: closed loop, each op as soon as the last one ended)",
     "open loop: OPS ops/s per thread, each op started at its intended time whatever\n"
     "the earlier ones took (:uniform, the default, a fixed interval; :poisson random\n"
     "gaps); latency from the intended start, service time beside it"},
    {"think", "TIME", RB_FOR_RUN, NULL, "closed loop: busy computation of TIME after each op, not in its latency"},
    {"cache", "C", RB_FOR_RUN, "cache and memory (time spent here is shown, never measured)",
     "keep (default), evict (before each cell), evict-each (before every iteration)"},
    {"prewarm", "F", RB_FOR_RUN, NULL, "make fraction F (0..1) of the file's pages resident before each cell, the rest not"},
    {"hog", "SIZE|auto:R", RB_FOR_RUN, NULL, "pin SIZE of memory for the run; auto:R leaves available memory = file size / R"},
    {"scenario", "S", RB_FOR_RUN, NULL,
     "warm, pressure, half-cold, cold or sequential-cold (the Lucene cases; prints what it sets)"},
    {"group", "SPEC", RB_FOR_RUN, "readers that run together",
     "one kind of reader, repeatable: key=value pairs of strategy, threads, pattern,\n"
     "read-size, reads-per-op, iodepth, align (the rest: the options above), e.g.\n"
     "strategy=pread,threads=1,pattern=sequential,read-size=1m; all groups run at once\n"
     "on FILE, each a row of its own"},
    {"alone", "first|no|only", RB_FOR_RUN, NULL,
     "with groups: each group alone before they run together (first, the default; the\n"
     "ratio together/alone and the working set the others evicted), not at all, or only"},
    {"victim", "FILE", RB_FOR_RUN, NULL,
     "another file a light reader keeps warm during each cell (1 MiB per 10 ms): how much\n"
     "of it the cell's reads evicted"},
    {"states", "LIST", RB_FOR_ADVISE, NULL, "advise's cache states: warm, half-cold, cold, pressure (default all)"},
    {"budget", "TIME", RB_FOR_ADVISE, NULL, "advise's time budget, preparing the states included; at least 1s (default 3m)"},
    {"trace", "TRACE", RB__RA, "trace replay (readbench replay TRACE FILE is run FILE --trace TRACE)",
     "replay TRACE's reads of FILE instead of a pattern, each of its threads on its\n"
     "own (default threads: its streams): strace -f output, a fio iolog (v2, v3) or\n"
     "CSV offset,length[,thread[,time_ns]]; --threads N deals them round-robin"},
    {"trace-format", "F", RB__RA, NULL, "auto (default: from the content), strace, iolog or csv"},
    {"skip-bad", "", RB__RA, NULL, "leave out (and count) the trace's bad lines and reads past FILE's end"},
    {"timed", "", RB_FOR_RUN, NULL,
     "replay at the trace's own times (open loop: each op starts when its first read\n"
     "was recorded, latency from then), not back to back; the trace needs times"},
};
#undef RB__RA

RBDEF const rb_setting_doc *rb_settings_docs(unsigned *count)
{
    if (count) *count = (unsigned)(sizeof rb__setting_docs / sizeof rb__setting_docs[0]);
    return rb__setting_docs;
}

RBDEF const rb_setting_doc *rb_settings_doc_find(const char *key)
{
    unsigned i, n;
    const rb_setting_doc *d = rb_settings_docs(&n);
    for (i = 0; key && i < n; i++)
        if (!strcmp(d[i].key, key)) return &d[i];
    return NULL;
}

/*
   The commands in the order the whole help lists them; the options each command takes beside
   the settings (run, replay, advise). A number anywhere is decimal (rb_parse_number). */
#define RB__OUT_CMDS (RB_CMD_RUN | RB_CMD_REPLAY | RB_CMD_ADVISE | RB_CMD_PREFETCH | RB_CMD_PROBE | RB_CMD_WARMUP)
#define RB__SVG_CMDS (RB_CMD_RUN | RB_CMD_REPLAY | RB_CMD_ADVISE | RB_CMD_PREFETCH | RB_CMD_WARMUP)
static const rb_command_doc rb__command_docs[] = {
    {"run", RB_CMD_RUN, "FILE [options]",
     "measure the read strategies on FILE (a directory: every regular file in it); `run`\n"
     "may be left out: readbench FILE [options]", RB_FOR_RUN},
    {"replay", RB_CMD_REPLAY, "TRACE FILE [options]",
     "replay a recorded trace's reads of FILE (strace, fio iolog, CSV): run FILE --trace TRACE", RB_FOR_RUN},
    {"advise", RB_CMD_ADVISE, "FILE [options]",
     "which strategy to use: every one in every cache state (warm, half-cold, cold,\n"
     "pressure) within the budget (default 3m), the regret table, the safe choice and the\n"
     "best per state, and why", RB_FOR_ADVISE},
    {"setup", RB_CMD_SETUP, "FILE SIZE [--force] [--follow-symlinks] [--files N]",
     "write a benchmark file (content checkable with --verify); --files N: N files of\n"
     "SIZE/N in the directory FILE (run reads them all; an interrupted setup leaves the\n"
     "set marked incomplete, and run refuses it until a setup completes)", 0},
    {"list", RB_CMD_LIST, "[FILE]", "every strategy, and whether it runs here", 0},
    {"drop", RB_CMD_DROP, "[FILE]", "evict FILE from the page cache; no FILE: drop all caches (root)", 0},
    {"residency", RB_CMD_RESIDENCY, "FILE", "how much of FILE is in the page cache", 0},
    {"hog", RB_CMD_HOG, "SIZE", "pin SIZE of memory until Ctrl-C", 0},
    {"prefetch", RB_CMD_PREFETCH, "FILE [options]",
     "the prefetch-overhead experiment (Lucene's PrefetchBench) per policy: always,\n"
     "backoff, backoff-nomincore, adaptive, backoff-shared; one file", 0},
    {"diff", RB_CMD_DIFF, "BASE.json NEW.json [--format table|markdown|json]",
     "per cell NEW/BASE of the median ops/ms, its 95% interval, and a verdict", 0},
    {"probe", RB_CMD_PROBE, "FILE [options]", "what one cold read makes the kernel load, by advice and mapping; one file", 0},
    {"warmup", RB_CMD_WARMUP, "FILE [options]",
     "each way of making FILE resident, from evicted: its time and how much it loads; one file", 0},
};

static const rb_option_doc rb__option_docs[] = {
    {"format", "table|markdown|csv|json", RB_CMD_RUN | RB_CMD_REPLAY, "the report's format (default table)"},
    {"format", "table|markdown|json", RB_CMD_ADVISE | RB_CMD_DIFF, "the report's format (default table)"},
    {"format", "table|json", RB_CMD_PREFETCH | RB_CMD_PROBE | RB_CMD_WARMUP, "the report's format (default table)"},
    {"format", "table|markdown", RB_CMD_LIST,
     "table (default): whether each strategy runs here; markdown: the rows' facts, probing nothing"},
    {"output", "FILE", RB__OUT_CMDS, "write the report there instead of stdout"},
    {"baseline", "FILE.json", RB_CMD_RUN | RB_CMD_REPLAY,
     "after the results, compare with an earlier --format json run (see diff)"},
    {"quiet", "", RB_CMD_RUN | RB_CMD_REPLAY | RB_CMD_ADVISE, "no progress lines on stderr"},
    {"svg", "FILE", RB__SVG_CMDS, "also draw the results as an SVG chart"},
    {"title", "TEXT", RB__SVG_CMDS, "the chart's title"},
    {"log", "", RB_CMD_RUN | RB_CMD_REPLAY | RB_CMD_PREFETCH, "the chart on a log scale"},
    {"threads", "N", RB_CMD_PREFETCH, "threads reading at once (default 1)"},
    {"ops", "N", RB_CMD_PREFETCH, "ops per thread (default 100000; fewer when not cached, to stay cold)"},
    {"policies", "LIST", RB_CMD_PREFETCH, "always, backoff, backoff-nomincore, adaptive, backoff-shared (default all)"},
    {"advice", "random|normal", RB_CMD_PREFETCH, "the mapping's advice (default random)"},
    {"case", "N|NAME", RB_CMD_PROBE, "one case: 1..11, or a name the table shows (default every case)"},
    {"force", "", RB_CMD_SETUP, "replace a regular file (atomically: a temporary renamed over it)"},
    {"follow-symlinks", "", RB_CMD_SETUP, "FILE a symbolic link: replace its target"},
    {"files", "N", RB_CMD_SETUP, "N files of SIZE/N in the directory FILE (made if missing), part-0000 ..."},
    {"chunk", "SIZE", RB_CMD_WARMUP, "willneed-chunked: bytes per call, a multiple of the page (default 2m)"},
    {"methods", "LIST", RB_CMD_WARMUP,
     "read, willneed, willneed-chunked, fadvise, map-populate, populate-read, touch\n(default all)"},
};
#undef RB__OUT_CMDS
#undef RB__SVG_CMDS

RBDEF const rb_command_doc *rb_command_docs(unsigned *count)
{
    if (count) *count = (unsigned)(sizeof rb__command_docs / sizeof rb__command_docs[0]);
    return rb__command_docs;
}

RBDEF const rb_command_doc *rb_command_doc_find(const char *name)
{
    unsigned i, n;
    const rb_command_doc *d = rb_command_docs(&n);
    for (i = 0; name && i < n; i++)
        if (!strcmp(d[i].name, name)) return &d[i];
    return NULL;
}

RBDEF const rb_option_doc *rb_option_docs(unsigned *count)
{
    if (count) *count = (unsigned)(sizeof rb__option_docs / sizeof rb__option_docs[0]);
    return rb__option_docs;
}

RBDEF const rb_option_doc *rb_option_doc_find(const char *name, unsigned cmd)
{
    unsigned i, n;
    const rb_option_doc *d = rb_option_docs(&n);
    for (i = 0; name && i < n; i++)
        if ((d[i].cmds & cmd) && !strcmp(d[i].name, name)) return &d[i];
    return NULL;
}

/* One option: "  --key VALUE" padded to 26 columns, its help's lines under one another. */
static void rb__help_option(FILE *f, const char *key, const char *value, const char *help)
{
    char left[64];
    size_t l;
    const char *h = help;
    snprintf(left, sizeof left, "--%s%s%s", key, *value ? " " : "", value);
    fprintf(f, "  %-23s", left);
    if (strlen(left) > 23) fprintf(f, "\n%25s", "");
    for (; *h; h += l + (h[l] != 0))
        fprintf(f, "%s%.*s\n", h == help ? " " : "                          ", (int)(l = strcspn(h, "\n")), h);
}

/* A command's usage line and what it does, its lines indented under it. */
static void rb__help_command(FILE *f, const rb_command_doc *d, const char *lead)
{
    const char *h = d->help;
    size_t l;
    fprintf(f, "%sreadbench %s%s%s\n", lead, !strcmp(d->name, "run") ? "[run]" : d->name, *d->args ? " " : "", d->args);
    for (; *h; h += l + (h[l] != 0)) fprintf(f, "      %.*s\n", (int)(l = strcspn(h, "\n")), h);
}

/* The settings for (RB_FOR_*) and the options for cmd, each with its heading if it has one. */
static void rb__help_options(FILE *f, unsigned uses, unsigned cmd)
{
    unsigned i, n;
    const rb_setting_doc *s = rb_settings_docs(&n);
    const rb_option_doc *o;
    fprintf(f, "\noptions (--name VALUE or --name=VALUE; lists are comma-separated; sizes take k/m/g/t or\n"
               "KiB/MiB/GiB/TiB; times ns, us, ms, s, m or h; numbers are decimal: 16, 0.5, 1e3, never\n"
               "0x10, a sign or a space):\n");
    for (i = 0; uses && i < n; i++) {
        if (!(s[i].uses & uses)) continue;
        if (s[i].heading) fprintf(f, "\n%s:\n", s[i].heading);
        rb__help_option(f, s[i].key, s[i].value, s[i].help);
    }
    o = rb_option_docs(&n);
    if (uses) fprintf(f, "\noutputs:\n");
    for (i = 0; i < n; i++)
        if (o[i].cmds & cmd) rb__help_option(f, o[i].name, o[i].value, o[i].help);
    fprintf(f, "  %-23s this help\n", "--help, -h");
}

RBDEF int rb_help_write(FILE *f, const char *command)
{
    unsigned i, n;
    const rb_command_doc *d = rb_command_docs(&n), *one = command ? rb_command_doc_find(command) : NULL;
    if (command && !one) return RB_EINVAL;
    if (one) {
        rb__help_command(f, one, "usage: ");
        rb__help_options(f, one->settings, one->cmd);
        return ferror(f) ? RB_ESYS : RB_OK;
    }
    fprintf(f, "usage: readbench COMMAND ...    (readbench COMMAND --help: that command and its options)\n\n"
               "  readbench\n      create ./readbench.dat (1 GiB) if missing, run a short advise on it\n");
    for (i = 0; i < n; i++) rb__help_command(f, &d[i], "  ");
    fprintf(f, "\nrun and replay take every option below; advise the ones its --help lists\n");
    rb__help_options(f, RB_FOR_RUN | RB_FOR_ADVISE, RB_CMD_RUN);
    return ferror(f) ? RB_ESYS : RB_OK;
}

RBDEF void rb_settings_matrix(rb_settings *s, rb_matrix *m)
{
    static const unsigned threads[] = {1, 4, 8, 16};
    rb__settings_trace(s);
    if (!s->nthreads) {   /* groups: one thread each unless a group says otherwise */
        memcpy(s->threads, threads, sizeof threads);
        s->nthreads = s->ngroups ? 1 : 4;
    }
    if (!s->nread_sizes) { s->read_sizes[0] = 16384; s->nread_sizes = 1; }
    memset(m, 0, sizeof *m);
    m->cfg = s->cfg;
    m->cfg.cpus = s->cfg.ncpus ? s->cpus : NULL;
    m->strategies = s->nstrategies ? s->strategies : NULL;
    m->nstrategies = s->nstrategies;
    m->threads = s->threads;
    m->nthreads = s->nthreads;
    m->read_sizes = s->read_sizes;
    m->nread_sizes = s->nread_sizes;
    m->rounds = s->rounds;
    rb_groups_attach(m, &s->gm, s->groups, s->ngroups, s->alone);
    if (s->cfg.victim) rb_victim_attach(&m->cfg, &s->victim, s->cfg.victim);
}

RBDEF void rb_settings_report(const rb_settings *s, rb_report *rep)
{
    rep->percentiles = s->npercentiles ? s->percentiles : NULL;
    rep->npercentiles = s->npercentiles;
    rep->scenario = s->scenario ? s->scenario->name : NULL;
}

RBDEF int rb_pfx_settings_set(rb_pfx_settings *s, const char *key, const char *v, const char *as, char *why,
                              size_t wl)
{
    static const char *const advice[] = {"random", "normal"};
    why[0] = 0;
    if (!as) as = key;
    if (!v) v = "";
    if (!strcmp(key, "threads")) return rb__set_uint(as, v, 1, RB_MAX_THREADS, &s->cfg.threads, why, wl);
    if (!strcmp(key, "ops")) return rb__set_uint(as, v, 1, ~0u, &s->cfg.ops, why, wl);
    if (!strcmp(key, "advice")) return rb__set_choice(as, v, advice, 2, &s->cfg.normal_mapping, why, wl);
    if (!strcmp(key, "policies")) {
        char list[128];
        if (!rb_parse_policy_list(v, s->policies, RB_PF_COUNT, &s->npolicies)) return RB_OK;
        rb__names(list, sizeof list, rb__pf_names, sizeof *rb__pf_names, RB_PF_COUNT, ", ");
        rb__fmt(why, wl, "%s: each of %s at most once, no empty item: not '%s'", as, list, v);
        s->npolicies = 0;
        return RB_EINVAL;
    }
    rb__fmt(why, wl, "no setting '%s'", key);
    return RB_EINVAL;
}

RBDEF int rb_probe_case_find(const char *name, char *why, size_t wl)
{
    int id;
    size_t n;
    for (id = 1; id <= RB_PROBE_CASES; id++)
        if (name && !strcmp(rb_probe_case_name(id), name)) return id;
    n = (size_t)snprintf(why, wl, "no probe case '%.64s' (1..11", name ? name : "");
    for (id = 12; id <= RB_PROBE_CASES && n < wl; id++)
        n += (size_t)snprintf(why + n, wl - n, ", %s", rb_probe_case_name(id));
    if (n < wl) snprintf(why + n, wl - n, ")");
    return 0;
}

static void rb__report_title(const rb_settings *s, const char *hog_as, char *buf, size_t len)
{
    const rb_config *c = &s->cfg;
    char hog[RB_REASON_LEN] = "", state[64], pat[RB_PATTERN_LEN];
    rb__pattern_format(c, pat, sizeof pat);   /* in the C locale already (rb_report_title) */
    if (s->hog) snprintf(hog, sizeof hog, ", under memory pressure (%s %s)", hog_as ? hog_as : "hog", s->hog);
    if (s->scenario) {
        snprintf(buf, len, "readbench, scenario %s: %s reads%s", s->scenario->name, pat, hog);
        return;
    }
    if (c->cache == RB_CACHE_EVICT_EACH) snprintf(state, sizeof state, "cold (evicted before every iteration)");
    else if (c->prewarm >= 1) snprintf(state, sizeof state, "warm (every page resident)");
    else if (c->prewarm > 0) snprintf(state, sizeof state, "%.0f%% of the pages resident", 100 * c->prewarm);
    else if (c->cache == RB_CACHE_EVICT) snprintf(state, sizeof state, "evicted before each cell");
    else snprintf(state, sizeof state, "page cache as found");
    snprintf(buf, len, "readbench: %s reads, %s%s", pat, state, hog);
}

/* One setting a scenario set: into set when it stands, into replaced when a value given after
   the scenario took its place. 1: replaced. */
static int rb__scenario_setting(char *set, char *replaced, size_t len, const char *prefix, const char *key,
                                const char *theirs, const char *now)
{
    size_t l;
    if (!strcmp(theirs, now)) {
        l = strlen(set);
        snprintf(set + l, len - l, " %s%s %s", prefix, key, theirs);
        return 0;
    }
    l = strlen(replaced);
    snprintf(replaced + l, len - l, "; %s%s %s, given after it, replaces its %s%s %s", prefix, key, now, prefix, key,
             theirs);
    return 1;
}

/* The settings compared with the scenario's own: `--scenario pressure --hog 64m` pins 64 MiB,
   and this line said it set --hog auto:1.2 (and that the file is 1.2x the memory left). */
static void rb__report_scenario(FILE *f, const rb_settings *s, const char *prefix)
{
    static const char *const caches[] = {"keep", "evict", "evict-each"};
    const rb_scenario *sc = s->scenario;
    const rb_config *c = &s->cfg;
    char set[512] = "", replaced[512] = "", a[64], b[64];
    int moved = 0;
    if (!sc) return;
    prefix = prefix ? prefix : "";
    if (sc->hog)
        moved |= rb__scenario_setting(set, replaced, sizeof set, prefix, "hog", sc->hog, s->hog ? s->hog : "none");
    if (sc->prewarm > 0) {
        snprintf(a, sizeof a, "%g", sc->prewarm);
        snprintf(b, sizeof b, "%g", c->prewarm);
        moved |= rb__scenario_setting(set, replaced, sizeof set, prefix, "prewarm", a, b);
    }
    if (sc->cache != RB_CACHE_KEEP)
        moved |= rb__scenario_setting(set, replaced, sizeof set, prefix, "cache", caches[sc->cache % 3],
                                      caches[(unsigned)c->cache % 3]);
    if (sc->pattern != RB_RANDOM)
        moved |= rb__scenario_setting(set, replaced, sizeof set, prefix, "pattern", rb__pattern_names[sc->pattern],
                                      rb_pattern_name(c, b, sizeof b));
    if (c->warmup_ns == RB_NONE) snprintf(b, sizeof b, "0");
    else snprintf(b, sizeof b, "%gms", (double)c->warmup_ns / 1e6);
    moved |= rb__scenario_setting(set, replaced, sizeof set, prefix, "warmup", "0", b);
    fprintf(f, "readbench: scenario %s sets%s%s%s%s%s\n", sc->name, set[0] ? set : " nothing", replaced,
            sc->note && !moved ? " (" : "", sc->note && !moved ? sc->note : "", sc->note && !moved ? ")" : "");
}

/* The tools' public writers, each in the C locale (see rb__numloc_enter). */
static void rb__warmup_svg(FILE *f, const rb_warmup_run *r, const char *title);
static void rb__warmup_table(FILE *f, const rb_warmup_run *r);
static void rb__warmup_json(FILE *f, const rb_warmup_run *r);
static void rb__report_scenario(FILE *f, const rb_settings *s, const char *prefix);
static void rb__report_title(const rb_settings *s, const char *hog_as, char *buf, size_t len);
RBDEF void rb_report_prefetch_progress(FILE *f, int policy, int fits, const rb_pfx_result *r)
{
    RB__IN_C_LOCALE(rb__report_prefetch_progress(f, policy, fits, r));
}
RBDEF void rb_report_prefetch(FILE *f, const rb_pfx_result *r, unsigned n, int format, const rb_env *env)
{
    RB__IN_C_LOCALE(rb__report_prefetch(f, r, n, format, env));
}
RBDEF void rb_report_prefetch_svg(FILE *f, const rb_pfx_result *r, unsigned n, const char *title, int log_scale,
                                  const rb_env *env)
{
    RB__IN_C_LOCALE(rb__report_prefetch_svg(f, r, n, title, log_scale, env));
}
RBDEF void rb_report_title(const rb_settings *s, const char *hog_as, char *buf, size_t len)
{
    RB__IN_C_LOCALE(rb__report_title(s, hog_as, buf, len));
}
RBDEF void rb_report_scenario(FILE *f, const rb_settings *s, const char *prefix)
{
    RB__IN_C_LOCALE(rb__report_scenario(f, s, prefix));
}
RBDEF void rb_warmup_write(FILE *f, const rb_warmup_run *r, int format)
{
    if (format == RB_FORMAT_JSON) RB__IN_C_LOCALE(rb__warmup_json(f, r));
    else RB__IN_C_LOCALE(rb__warmup_table(f, r));
}
RBDEF void rb_warmup_svg(FILE *f, const rb_warmup_run *r, const char *title)
{
    RB__IN_C_LOCALE(rb__warmup_svg(f, r, title));
}

#ifdef __cplusplus
}
#endif
#endif /* READBENCH_TOOLS_DONE */
#endif /* RB_NO_TOOLS */

/*
------------------------------------------------------------------------------
MIT License

Copyright (c) 2026 the readbench authors

Permission is hereby granted, free of charge, to any person obtaining a copy of
this software and associated documentation files (the "Software"), to deal in
the Software without restriction, including without limitation the rights to
use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies
of the Software, and to permit persons to whom the Software is furnished to do
so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
------------------------------------------------------------------------------
*/
