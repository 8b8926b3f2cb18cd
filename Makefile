# swift-web-image: the front door for every routine task.
#   make run     the demo: serve the sample images on loopback, load them cold, then warm
#                from memory and from disk, print the timings, write a contact sheet
#   make test    build and run the whole test suite under AddressSanitizer (installs the C
#                libraries first), a load run under LeakSanitizer, then the consumer check;
#                FILTER=... runs only the tests it names
#   make consumer-check   scratch apps that take one module each must resolve to the
#                library alone, build and run
#   make bench   run the benchmarks in release mode, each beside the bare C library or a
#                peer, and write the report: Benchmarks/RESULTS.md, RESULTS.json, results.svg
#   make bench-quick   the same with 3 rounds, a smoke run: its report goes to
#                Benchmarks/.build/quick-report
#   make test-tsan   the test suite under ThreadSanitizer, in its own build directory;
#                FILTER=... runs only the tests it names
#   make test-repeat N=20 [FILTER=...] [SANITIZER=thread]   the suite (or the tests FILTER
#                names) N times in a row: failures counted per test
#   make build-release   the library, the tools and the benchmarks in release mode
#   make deps    install the Debian packages the build needs, when missing
#   make fuzz    run each libFuzzer target for FUZZ_SECONDS (default 180), seeded from ../shared/corpus
#                and from files with one structure repeated; an input that takes 1 s is a finding
#   make load    10,000 loads over 1,000 URLs, 64 at once, random cancels; checked (release)
#   make load-valgrind   a 1,000-load run under valgrind: no leak, no memory error
#   make docs    the DocC documentation of every module (docc), warnings as
#                errors, combined into .build-docs/WebImage.doccarchive
#   make docs-check   compile every ```swift example of README.md and of the DocC catalogs
#   make lint    check every tracked Swift file against .swift-format (apple/swift-format),
#                then every tracked text file for words that say when instead of why
#   make format  rewrite them in that format

SWIFT ?= swift
# The packages behind the system library targets (see the providers in Package.swift and
# Tools/Package.swift), by the names Debian 12 and Ubuntu 24.04 both use (all in Ubuntu's
# main component); Homebrew's names on a Mac. curl (the program) is a client in the test
# server's own tests and a peer in the transport benchmarks.
APT_PACKAGES := pkg-config libpng-dev libjpeg-dev libturbojpeg0-dev libgif-dev libwebp-dev \
	libavif-dev liblcms2-dev libcurl4-openssl-dev libssl-dev zlib1g-dev libhiredis-dev curl
BREW_PACKAGES := pkg-config libpng jpeg-turbo giflib webp libavif curl openssl@3 hiredis
PKG_CONFIG_NAMES := libpng16 libjpeg libturbojpeg libgif libwebp libwebpdemux libwebpmux libavif lcms2 libcurl openssl zlib hiredis
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all build build-release run test test-deps test-repeat lint format consumer-check test-tsan bench bench-quick bench-deps bench-peers deps load load-valgrind fuzz docs docs-check clean

all: build

deps:
	@if pkg-config --exists $(PKG_CONFIG_NAMES) 2>/dev/null && command -v curl >/dev/null; then \
		echo "deps: $(PKG_CONFIG_NAMES) present"; \
	elif command -v apt-get >/dev/null; then \
		echo "deps: installing $(APT_PACKAGES)"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $(APT_PACKAGES); \
	elif command -v brew >/dev/null; then \
		echo "deps: installing $(BREW_PACKAGES)"; \
		brew install $(BREW_PACKAGES); \
	else \
		echo "deps: install $(PKG_CONFIG_NAMES) (development files) with your package manager" >&2; exit 1; \
	fi

# What only the test suite needs: real servers and tools the integration tests run on
# 127.0.0.1 or in network namespaces they make. Each feature's line is its own; a test
# whose program is missing skips with a message, so a user's clone still runs the rest.
REACHABILITY_TEST_PACKAGES := iproute2 python3
REVOCATION_TEST_PACKAGES := nginx openssl faketime
AUTHENTICATION_TEST_PACKAGES := krb5-kdc krb5-admin-server krb5-user apache2-bin libapache2-mod-auth-gssapi
SHARED_CACHE_TEST_PACKAGES := redis-server redis-tools
# ICC profiles (Adobe RGB, ProPhoto, Wide Gamut, a red/green swap) the colour tests convert.
COLOR_TEST_PACKAGES := colord-data
TEST_APT_PACKAGES := $(strip $(REACHABILITY_TEST_PACKAGES) $(REVOCATION_TEST_PACKAGES) $(AUTHENTICATION_TEST_PACKAGES) \
	$(SHARED_CACHE_TEST_PACKAGES) $(COLOR_TEST_PACKAGES))
test-deps: deps
	@missing=$$(for p in $(TEST_APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -z "$$missing" ]; then \
		echo "test-deps: $(TEST_APT_PACKAGES) present"; \
	elif command -v apt-get >/dev/null; then \
		echo "test-deps: installing" $$missing; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	else \
		echo "test-deps: without apt-get, the tests that need" $$missing "skip"; \
	fi

build: deps
	$(SWIFT) build
	$(SWIFT) build --package-path Tools

# The main job: the project's own sample images served on 127.0.0.1 and loaded through
# the whole pipeline (network, memory, disk); see `webimage demo --help`.
RUN_DIR := .build/run
run: deps
	$(SWIFT) build --package-path Tools -c release --product webimage
	rm -rf $(RUN_DIR) && mkdir -p $(RUN_DIR)
	Tools/.build/release/webimage demo --out $(RUN_DIR)

# The suite is the nested package Tests/ (the library's own manifest depends on nothing;
# the loopback server's SwiftNIO comes in through Tools/). The programs the tests run as
# second processes are built into the same folder, beside the test bundle.
TESTS_PACKAGE := --package-path Tests
TEST_PROGRAMS := webimage webimage-load
# $(call build-suite,FLAGS): the tests and the programs they run, one build folder.
define build-suite
	$(SWIFT) build $(TESTS_PACKAGE) --build-tests $(1)
	$(foreach program,$(TEST_PROGRAMS),$(SWIFT) build $(TESTS_PACKAGE) --product $(program) $(1) &&) true
endef
# The suites that run other programs (webimage, ip, nginx, openssl, a Kerberos realm,
# redis-server) wait for them on the test pool's threads; run beside the rest on two
# cores, those waits starved the others' timing (a 120 s transfer budget ran out once).
# So they run second, on their own.
PROGRAM_SUITES := WebImageToolTests|WebImageReachabilityTests|RevocationTests|WebImageSharedCacheTests
# What every build of the suite passes: line tables only for debug info, which is what a
# sanitizer's report and a crash's backtrace read, at less compile time than full debug
# info. (The index store stays: SwiftPM's test discovery on Linux reads it.)
BUILD_SPEED_FLAGS := -Xswiftc -gline-tables-only
# The suite's own build: under AddressSanitizer, so that every run of the suite checks
# memory too. Every step that builds in Tests/.build (the suite, the documentation's
# examples, the documentation itself, test-repeat) passes exactly these flags, so the
# library is compiled once for all of them. The build also emits each module's symbol
# graph as it compiles (public symbols, synthesized members and extension blocks, as
# swift-docc-plugin asks for), which `make docs` turns into the documentation.
SYMBOL_GRAPHS := Tests/.build/symbol-graphs
SUITE_BUILD_FLAGS := --sanitize=address $(BUILD_SPEED_FLAGS) -Xswiftc -warnings-as-errors \
	-Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc $(CURDIR)/$(SYMBOL_GRAPHS) \
	-Xswiftc -symbol-graph-minimum-access-level -Xswiftc public -Xswiftc -emit-extension-block-symbols
SUITE_BUILD := Tests/.build/debug
# $(call run-suite,LOG NAME,COMMAND): the command's output also kept in .build/test-logs;
# on failure it ends with the failing tests, a crash's first frames and the tests that
# never finished (Tools/Scripts/TestRun/run-suite.py), where a CI log's tail shows them.
run-suite = python3 Tools/Scripts/TestRun/run-suite.py --log .build/test-logs/$(1).log -- $(2)
# Tests run in parallel, at most SANITIZER_WIDTH at once (Swift Testing's
# SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH): the instrumented code is several times
# slower, and a width of four keeps 2 cores busy without starving the tests that wait on
# a server.
SANITIZER_WIDTH ?= 4
SANITIZER_PARALLEL := SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(SANITIZER_WIDTH)
# FILTER=... narrows a run of `make test` or `make test-tsan` to the tests it names;
# without it the suites run in two parts, the ones that run other programs second.
FILTER ?=
# $(call run-tests,ENVIRONMENT,BUILD FLAGS,LOG NAME): the built suite, in its parts.
run-part = $(SANITIZER_PARALLEL) $(1) $(call run-suite,$(4),$(SWIFT) test $(TESTS_PACKAGE) --skip-build $(2) $(3))
run-tests = $(if $(FILTER),$(call run-part,$(1),$(2),--filter '$(FILTER)',$(3)),$(call run-part,$(1),$(2),--skip '$(PROGRAM_SUITES)',$(3)) \
	&& $(call run-part,$(1),$(2),--filter '$(PROGRAM_SUITES)',$(3)-programs))
# The test process runs without the leak check: Foundation's Process and FileHandle,
# which the tests use to run programs, and XCTest's own objects are reported at its exit,
# so its report would say nothing about this library. The leak check runs over a load run
# of the whole pipeline instead. Tools/TestSupport/Sanitizers/asan.supp names the one
# error suppressed: an over-read inside Foundation's Process.run(), fixed upstream after
# Swift 6.3.1.
ASAN_TEST_OPTIONS := ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:suppressions=$(CURDIR)/Tools/TestSupport/Sanitizers/asan.supp"
ASAN_LOAD_ARGS := --loads 3000 --urls 500 --concurrency 64 --cancel-share 0.2 --timeout 600
# LeakSanitizer over a load run of the whole pipeline (3,000 loads over 500 URLs, a fifth
# of them cancelled).
ASAN_LOAD_RUN := ASAN_OPTIONS="detect_leaks=1:halt_on_error=1" \
	LSAN_OPTIONS="suppressions=$(CURDIR)/Tools/TestSupport/Sanitizers/lsan.supp:print_suppressions=0" \
	$(SUITE_BUILD)/webimage-load $(ASAN_LOAD_ARGS)
# The suite under AddressSanitizer, then the load run, then the consumer check: the
# library as an app sees it. With FILTER, only the tests it names.
test: test-deps
	$(call build-suite,$(SUITE_BUILD_FLAGS))
	$(call run-tests,$(ASAN_TEST_OPTIONS),$(SUITE_BUILD_FLAGS),test)
	$(if $(FILTER),,$(ASAN_LOAD_RUN))
	$(if $(FILTER),,$(MAKE) consumer-check)

# The library as an app sees it: two scratch apps outside the repository, one taking
# WebImageDecoding alone and one WebImageCache alone, depend on this package by path; the
# check fails if resolving them pulls any other package (a tooling dependency leaking
# back into the root manifest), then builds and runs each (Tools/Scripts/ConsumerCheck).
consumer-check: deps
	SWIFT="$(SWIFT)" Tools/Scripts/ConsumerCheck/consumer-check.sh

# ThreadSanitizer over every test, in the same two parts and the same width as `make
# test`, in a build folder of its own (a sanitizer needs its own build of everything).
# WEBIMAGE_TSAN swaps Synchronization.Mutex (futex calls the sanitizer cannot see on
# Linux) for a pthread mutex it can: see Modules/Concurrency/Locking/Locked.swift.
# Tools/TestSupport/Sanitizers/tsan.supp is where a report in a system library would be
# suppressed, with its reason; it suppresses nothing.
TSAN_SCRATCH := .build-tsan
TSAN_FLAGS := --sanitize=thread --scratch-path $(TSAN_SCRATCH) $(BUILD_SPEED_FLAGS) -Xswiftc -DWEBIMAGE_TSAN
TSAN_TEST_OPTIONS := TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$(CURDIR)/Tools/TestSupport/Sanitizers/tsan.supp"
test-tsan: test-deps
	$(call build-suite,$(TSAN_FLAGS))
	$(call run-tests,$(TSAN_TEST_OPTIONS),$(TSAN_FLAGS),test-tsan)

# The suite, or the tests FILTER names, N times in a row with failures counted per test
# (Tools/Scripts/TestRepeat/test-repeat.py): a flaky test shows as failing some runs. Builds
# once, in the configuration SANITIZER picks (empty: the suite's own, under
# AddressSanitizer; thread: ThreadSanitizer's), and runs the built bundle itself; each
# run's output is kept under .build/test-repeat.
N ?= 10
SANITIZER ?=
REPEAT_FLAGS := $(if $(filter thread,$(SANITIZER)),$(TSAN_FLAGS),$(SUITE_BUILD_FLAGS))
REPEAT_BUNDLE := $(if $(filter thread,$(SANITIZER)),$(TSAN_SCRATCH)/debug,$(SUITE_BUILD))/swift-web-image-testsPackageTests.xctest
test-repeat: test-deps
	$(call build-suite,$(REPEAT_FLAGS))
	$(SANITIZER_PARALLEL) $(ASAN_TEST_OPTIONS) $(TSAN_TEST_OPTIONS) \
		python3 Tools/Scripts/TestRepeat/test-repeat.py --bundle $(REPEAT_BUNDLE) --runs $(N) --filter '$(FILTER)' \
		--logs .build/test-repeat

# The release build: the benchmarks package, and with it the library and the tools'
# modules it runs, as `make bench` builds them; then the tooling package's `webimage`
# program (the proxy among its commands) in the same build folder, so the library is
# compiled once.
build-release: deps
	$(SWIFT) build --package-path Benchmarks -c release
	$(SWIFT) build --package-path Benchmarks -c release --product webimage

# What only the benchmarks need: TurboJPEG, the bare library the JPEG baselines call, and
# programs they run beside ours on the same files (djpeg, pngcrush -n; without them those
# rows are skipped with a message). On Ubuntu these are in the universe component.
BENCH_APT_PACKAGES := libjpeg-turbo-progs pngcrush libturbojpeg0-dev wrk redis-server redis-tools
bench-deps: deps
	@if command -v djpeg >/dev/null && command -v pngcrush >/dev/null && command -v wrk >/dev/null && command -v redis-benchmark >/dev/null && pkg-config --exists libturbojpeg; then \
		echo "bench-deps: djpeg, pngcrush, wrk, redis and libturbojpeg present"; \
	else \
		echo "bench-deps: installing $(BENCH_APT_PACKAGES)"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $(BENCH_APT_PACKAGES); \
	fi

# The Python peers some rows are measured beside (Pillow, pyvips, aiohttp from PyPI), for
# the user: a row whose modules are missing is left out with a message, so a failed
# install stops nothing. Debian's Python needs --break-system-packages for --user installs.
BENCH_PIP_PACKAGES := pillow pyvips pyvips-binary aiohttp thumbor
bench-peers:
	@if python3 -c "import PIL, pyvips, aiohttp, thumbor.server" 2>/dev/null; then \
		echo "bench-peers: Pillow, pyvips, aiohttp and thumbor present"; \
	else \
		echo "bench-peers: installing $(BENCH_PIP_PACKAGES) for this user"; \
		python3 -m pip install --quiet --user $(BENCH_PIP_PACKAGES) 2>/dev/null \
		|| python3 -m pip install --quiet --user --break-system-packages $(BENCH_PIP_PACKAGES) \
		|| echo "bench-peers: could not install them; the Python rows will be left out"; \
	fi

# The proxy case runs the release `webimage proxy` as a server process of its own.
# `make bench` writes its report beside the benchmarks (Benchmarks/RESULTS.md, RESULTS.json,
# results.svg: the committed report); `make bench-quick` writes its own under
# Benchmarks/.build/quick-report, and the program refuses to write a quick run over a full one's.
bench: bench-deps bench-peers
	$(SWIFT) build --package-path Tools -c release --product webimage
	cd Benchmarks && $(SWIFT) build -c release --product ProxyParserBenchmark
	cd Benchmarks && $(SWIFT) run -c release WebImageBenchmarks --report .

bench-quick: bench-deps bench-peers
	$(SWIFT) build --package-path Tools -c release --product webimage
	cd Benchmarks && $(SWIFT) build -c release --product ProxyParserBenchmark
	cd Benchmarks && $(SWIFT) run -c release WebImageBenchmarks --quick --report .build/quick-report

# The load run: every load completes exactly once with the right image, nothing
# is left in the registry or downloader, peak RSS stays under the bound (see
# Tools/TestSupport/Load/LoadOptions.swift).
LOAD_ARGS := --loads 10000 --urls 1000 --concurrency 64 --cancel-share 0.2
load: deps
	$(SWIFT) build --package-path Tools -c release --product webimage-load
	Tools/.build/release/webimage-load $(LOAD_ARGS)

# A smaller load run under valgrind: fails on a definite leak or any memory error.
# valgrind 3.19 cannot read the toolchain's DWARF 5, so it runs a copy without debug
# info (symbol names stay). Tools/TestSupport/Sanitizers/valgrind.supp says what it suppresses.
LOAD_VALGRIND := .build/load-valgrind
load-valgrind: deps
	$(SWIFT) build --package-path Tools -c release --product webimage-load
	mkdir -p $(LOAD_VALGRIND)
	objcopy --strip-debug Tools/.build/release/webimage-load $(LOAD_VALGRIND)/webimage-load
	valgrind --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=1 \
		--suppressions=Tools/TestSupport/Sanitizers/valgrind.supp \
		$(LOAD_VALGRIND)/webimage-load --loads 1000 --urls 200 --concurrency 64 --timeout 600 --max-rss-mib 2048

# libFuzzer with AddressSanitizer, in its own build directory. The C shims are
# instrumented too (-fsanitize=fuzzer-no-link); the system codecs are not. Each target
# runs in turn, seeded from the shared corpus, with its working corpus, crash inputs
# and log under .build-fuzz (see Tools/TestSupport/Fuzz/run-fuzz.sh). The image targets also start
# from the scaling tests' files (one structure repeated to about 1 MB), which the fuzzer
# binary writes into their corpus folders. Slowness is a finding, as a hang would be: inputs go
# up to FUZZ_MAX_LEN (1 MiB), and one that takes FUZZ_TIMEOUT (1 s) is saved as a
# timeout or slow unit. A crash, timeout or slow unit fails the run: turn its input into
# a regression under Tests/FuzzingTests/Regressions/<target>/.
# FUZZ_TARGETS narrows the run, e.g. FUZZ_TARGETS="png gif" FUZZ_SECONDS=60.
FUZZ_SCRATCH := .build-fuzz
FUZZ_SECONDS ?= 180
FUZZ_TIMEOUT ?= 1
FUZZ_MAX_LEN ?= 1048576
FUZZ_TARGETS ?= png jpeg gif webp avif incremental sniff headers
fuzz: deps
	$(SWIFT) build --package-path Tools -c release --scratch-path $(FUZZ_SCRATCH) --product webimage-fuzz \
		-Xswiftc -sanitize=fuzzer,address -Xswiftc -DWEBIMAGE_FUZZ -Xcc -fsanitize=fuzzer-no-link,address
	FUZZ_BIN=$(FUZZ_SCRATCH)/release/webimage-fuzz FUZZ_DIR=$(FUZZ_SCRATCH) FUZZ_CORPUS=../shared/corpus \
		FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_TIMEOUT=$(FUZZ_TIMEOUT) FUZZ_MAX_LEN=$(FUZZ_MAX_LEN) \
		FUZZ_TARGETS="$(FUZZ_TARGETS)" Tools/TestSupport/Fuzz/run-fuzz.sh

# The DocC catalogs (Modules/*/<Module>.docc) and the symbols' own comments, combined
# into .build-docs/WebImage.doccarchive. The symbol graphs come from the suite's build
# (SUITE_BUILD_FLAGS), so after `make test` this builds nothing; each module is converted
# against the archives of the modules it depends on, then all are merged
# (Tools/Scripts/Docs/build-docs.py). Every warning (a broken link, an undocumented parameter) is
# an error.
DOCS_SCRATCH := .build-docs
DOCS_TARGETS := WebImageCore WebImageConcurrency WebImageResources WebImageHTTP WebImageDecoding WebImageWebP WebImageAVIF WebImageColor WebImageEncoding WebImageCache WebImageTransport WebImageSecurity \
	WebImageCallbackRegistry WebImageOperations WebImageManager WebImageReachability WebImageSharedCache WebImage
DOCS_ARCHIVE := $(DOCS_SCRATCH)/WebImage.doccarchive
docs: deps
	$(SWIFT) build $(TESTS_PACKAGE) --target WebImage $(SUITE_BUILD_FLAGS)
	python3 Tools/Scripts/Docs/build-docs.py --symbol-graphs $(SYMBOL_GRAPHS) --scratch $(DOCS_SCRATCH) --output $(DOCS_ARCHIVE) \
		$(DOCS_TARGETS)

# The tree's format and swift-format's lint rules (.swift-format: 4 spaces, 140 columns,
# ordered imports), on every tracked Swift file of the three packages. `swift format`
# ships with the toolchain.
# Then Tools/Scripts/Lint/history-words.py over every tracked text file (sources, test names,
# Markdown and DocC, this Makefile, scripts): shipped text says what the code does and
# why, never when. A tracker's issue number, or the stop, session or wave of work a
# change came from, fails with file:line:column; the git history says when. Technical
# words pass (a TLS session, URLSession, "stop" and "issue" as verbs, Issue.record), and
# so does a link to an upstream tracker; the script's header has the exact rule.
SWIFT_SOURCES = $(shell git ls-files '*.swift')
lint:
	@echo "swift format lint --strict: $(words $(SWIFT_SOURCES)) files"
	@$(SWIFT) format lint --strict --parallel $(SWIFT_SOURCES)
	@python3 Tools/Scripts/Lint/history-words.py
format:
	@echo "swift format format --in-place: $(words $(SWIFT_SOURCES)) files"
	@$(SWIFT) format format --in-place --parallel $(SWIFT_SOURCES)

# Every ```swift block of README.md and of the catalogs, each in a file of its own, built
# as the test package's WebImageDocsExamples target with the suite's flags, so the library
# the suite built is reused (see Tools/Scripts/DocsCheck/docs-check.py).
docs-check: deps
	python3 Tools/Scripts/DocsCheck/docs-check.py -- $(SUITE_BUILD_FLAGS)

clean:
	rm -rf .build $(TSAN_SCRATCH) $(FUZZ_SCRATCH) $(DOCS_SCRATCH) Tools/.build Tests/.build Benchmarks/.build Integrations/.build
