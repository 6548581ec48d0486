# readbench: make (the CLI), make test, make test-core (the core alone), make check (sanitizers),
# make bench, make install.
CC      ?= cc
CXX     ?= c++
PREFIX  ?= /usr/local
WARN    := -std=c99 -Wall -Wextra -pedantic
CFLAGS  ?= -O2 -g
# liburing is optional: found, it turns on the io_uring strategies; missing, they say why.
URING   := $(shell printf '\043include <liburing.h>\nint main(void){struct io_uring r; return io_uring_queue_init(1,&r,0);}\n' | \
             $(CC) -x c - -luring -o /dev/null 2>/dev/null && echo 1)
ifeq ($(URING),1)
URING_CFLAGS := -DREADBENCH_LIBURING
URING_LIBS   := -luring
endif
ALL_CFLAGS = $(WARN) $(CFLAGS) $(URING_CFLAGS) -DRB_BUILD_FLAGS='"$(CFLAGS) $(URING_CFLAGS)"'
LIBS    = -lpthread -lm $(URING_LIBS)

TESTS   := $(wildcard tests/test_*.c)
# The test binary is built from one object per file, in parallel (make test asks for as many
# jobs as CPUs): tu_impl.c, the implementation, and main.c are most of the compile time, so
# make test starts those two first.
TEST_OBJS := tests/tu_impl.o $(TESTS:.c=.o)
NPROC   := $(shell nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
# The compiler and flags the test objects were built with: a change (make check's sanitizers,
# CC=clang) rebuilds them all rather than linking objects of two builds.
TEST_STAMP := tests/.build-flags
ifneq ($(file <$(TEST_STAMP)),$(CC) $(ALL_CFLAGS))
$(file >$(TEST_STAMP),$(CC) $(ALL_CFLAGS))
endif
$(TEST_STAMP): ;
# The stamp's rule above is a file with a slash in its name, which make would take for the
# default goal: `make` alone builds the CLI.
.DEFAULT_GOAL := all

.PHONY: all test test-core test-core-build test-core-compile check bench compare charts install clean examples fuzz cppcheck valgrind

all: readbench

readbench: main.c readbench.h
	$(CC) $(ALL_CFLAGS) -o $@ main.c $(LIBS)

# The test binary runs every test_*.c; it needs the CLI (for the CLI tests) and the C++
# compile test next to it.
tests/%.o: tests/%.c tests/rbtest.h readbench.h $(TEST_STAMP)
	$(CC) $(ALL_CFLAGS) -DREADBENCH_INTERNAL -Itests -I. -c -o $@ $<

tests/run_tests: $(TEST_OBJS)
	$(CC) $(ALL_CFLAGS) -o $@ $(TEST_OBJS) $(LIBS)

# No C++ compiler: the test says so and skips. A C++ compiler that rejects the header: an error.
CXX_BUILD = $(CXX) -std=c++11 -Wall -Wextra -pedantic -Werror $(URING_CFLAGS) -I. -o $@ tests/cpp_compile.cpp $(LIBS)
tests/cpp_compile: tests/cpp_compile.cpp readbench.h
	@if command -v $(CXX) >/dev/null 2>&1; then echo '$(CXX_BUILD)' && $(CXX_BUILD); \
	else echo "no C++ compiler ($(CXX)): tests/cpp_compile skipped"; fi

# The suites run in parallel processes (tests/test_main.c); the last line is the sum.
test:
	@$(MAKE) --no-print-directory -j$(NPROC) tests/tu_impl.o readbench tests/run_tests tests/cpp_compile
	cd tests && ./run_tests

# The core alone (the header with RB_NO_REPORTS and RB_NO_TOOLS, as examples/core_only.c has
# it): it compiles warning-free as C99 and C++11 with gcc and clang (a compiler that is not
# installed is skipped, said), also in the portable mode and with liburing when found; a test
# binary whose implementation is the core alone runs the suites that need no more (those
# tests/test_main.c lists above its #ifndef; their tests of the reports or tools are left out),
# and examples/core_only.c builds. The CLI tests among them run ../readbench, the whole CLI.
# Objects in tests/core/, apart from make test's; the last line is the sum, as make test's.
CORE_DEFS    := -DRB_NO_REPORTS -DRB_NO_TOOLS
CORE_SUITES  := hist setup runner cache safety counting stats strategies openloop files compile
CORE_OBJS    := $(patsubst %,tests/core/%.o,tu_impl test_main $(addprefix test_,$(CORE_SUITES)))
CORE_CFLAGS   = $(ALL_CFLAGS) -Werror $(CORE_DEFS)
CORE_STAMP   := tests/.core-build-flags
ifneq ($(file <$(CORE_STAMP)),$(CC) $(CORE_CFLAGS))
$(file >$(CORE_STAMP),$(CC) $(CORE_CFLAGS))
endif
$(CORE_STAMP): ;
CORE_COMPILERS := "gcc -std=c99" "clang -std=c99" "g++ -x c++ -std=c++11" "clang++ -x c++ -std=c++11"

tests/core/%.o: tests/%.c tests/rbtest.h readbench.h $(CORE_STAMP)
	@mkdir -p tests/core
	$(CC) $(CORE_CFLAGS) -DREADBENCH_INTERNAL -Itests -I. -c -o $@ $<

tests/run_core_tests: $(CORE_OBJS)
	$(CC) $(CORE_CFLAGS) -o $@ $(CORE_OBJS) $(LIBS)

tests/core/core_only: examples/core_only.c readbench.h
	@mkdir -p tests/core
	$(CC) $(WARN) $(CFLAGS) -Werror -I. -o $@ examples/core_only.c -lpthread -lm

test-core-compile:
	@mkdir -p tests/core
	@printf '#define READBENCH_IMPLEMENTATION\n#include "readbench.h"\n' > tests/core/header.c
	@for cc in $(CORE_COMPILERS); do \
	  if ! command -v $${cc%% *} >/dev/null 2>&1; then echo "$${cc%% *} is not installed: its core-only compile checks skipped"; continue; fi; \
	  for d in "" -DRB_NO_LINUX $(URING_CFLAGS); do \
	    echo "$$cc $(CORE_DEFS) $$d -Wall -Wextra -pedantic -Werror -fsyntax-only"; \
	    $$cc $(CORE_DEFS) $$d -Wall -Wextra -pedantic -Werror -fsyntax-only -I. tests/core/header.c || exit 1; \
	  done; \
	done

test-core: test-core-build
	cd tests && ./run_core_tests
test-core-build: test-core-compile
	@$(MAKE) --no-print-directory -j$(NPROC) tests/core/tu_impl.o readbench tests/run_core_tests tests/cpp_compile tests/core/core_only

# ASan+UBSan over the whole suite, then TSan over the threaded runner tests.
check:
	$(MAKE) clean-tests
	$(MAKE) -j$(NPROC) tests/run_tests readbench CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
	cd tests && ASAN_OPTIONS=detect_leaks=1 ./run_tests
	$(MAKE) clean-tests
	$(MAKE) -j$(NPROC) tests/run_tests CFLAGS="-O1 -g -fsanitize=thread"
	cd tests && RB_TESTS=runner ./run_tests
	$(MAKE) clean-tests

# The examples, each a single file that embeds the header.
EXAMPLES := $(patsubst %.c,%.bin,$(wildcard examples/*.c))
examples: $(EXAMPLES)
examples/%.bin: examples/%.c readbench.h
	$(CC) $(WARN) $(CFLAGS) -I. -o $@ $< -lpthread -lm

clean-tests:
	rm -f tests/run_tests tests/*.o tests/cpp_compile readbench tests/fuzz/fuzz_cli tests/fuzz/fuzz_json tests/fuzz/fuzz_diff tests/fuzz/fuzz_trace examples/*.bin
	rm -rf tests/run_core_tests tests/core

# libFuzzer (clang): the option/size/duration/list parsers, the JSON writer, the JSON reader and the trace
# parsers (strace, iolog, CSV), FUZZ_SECONDS each.
FUZZ_SECONDS ?= 30
FUZZ_FLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I.
fuzz:
	mkdir -p tests/fuzz/corpus-cli tests/fuzz/corpus-json tests/fuzz/corpus-diff tests/fuzz/corpus-trace
	clang $(FUZZ_FLAGS) -o tests/fuzz/fuzz_cli tests/fuzz/fuzz_cli.c -lpthread -lm
	clang $(FUZZ_FLAGS) -o tests/fuzz/fuzz_json tests/fuzz/fuzz_json.c -lpthread -lm
	clang $(FUZZ_FLAGS) -o tests/fuzz/fuzz_diff tests/fuzz/fuzz_diff.c -lpthread -lm
	clang $(FUZZ_FLAGS) -o tests/fuzz/fuzz_trace tests/fuzz/fuzz_trace.c -lpthread -lm
	tests/fuzz/fuzz_cli -max_total_time=$(FUZZ_SECONDS) -close_fd_mask=2 tests/fuzz/corpus-cli tests/fuzz/seeds
	tests/fuzz/fuzz_json -max_total_time=$(FUZZ_SECONDS) tests/fuzz/corpus-json tests/fuzz/seeds
	tests/fuzz/fuzz_diff -max_total_time=$(FUZZ_SECONDS) tests/fuzz/corpus-diff tests/fuzz/seeds
	tests/fuzz/fuzz_trace -max_total_time=$(FUZZ_SECONDS) tests/fuzz/corpus-trace tests/traces

# Static analysis with the settings committed here.
cppcheck:
	cppcheck --quiet --error-exitcode=1 --enable=warning,performance,portability --std=c99 \
	  --inline-suppr -D__linux__ -DREADBENCH_IMPLEMENTATION -I. main.c

# valgrind memcheck over a short real run (every strategy, 2 threads).
valgrind: readbench
	./readbench setup /tmp/readbench-vg.dat 16m --force
	valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite -q \
	  ./readbench run /tmp/readbench-vg.dat --threads 2 --warmup 0 --duration 100ms --iterations 1 --quiet >/dev/null; \
	  rc=$$?; rm -f /tmp/readbench-vg.dat; exit $$rc

bench: readbench
	bash bench/bench.sh

# readbench's strategies next to fio's engines (needs fio; a 4 GiB file under /var/tmp, removed after).
compare: readbench
	python3 bench/compare.py --out bench/results/compare-$$(date +%F).md

# The sample charts in bench/results (and PNG screenshots in bench/out where chromium is installed).
charts: readbench
	bash bench/charts.sh

install: readbench
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include
	install -m 755 readbench $(DESTDIR)$(PREFIX)/bin/readbench
	install -m 644 readbench.h $(DESTDIR)$(PREFIX)/include/readbench.h

clean: clean-tests
	rm -f readbench.dat
