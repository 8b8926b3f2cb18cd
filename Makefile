# swift-web-image: the front door for every routine task.
#   make run     the demo: serve the sample images on loopback, load them cold, then warm
#                from memory and from disk, print the timings, write a contact sheet
#   make test    build and run the whole test suite (installs the C libraries first)
#   make bench   run the benchmarks in release mode, each beside the bare C library
#   make bench-quick   the same with 3 rounds: a smoke run
#   make test-tsan   the test suite under the thread sanitizer (its own build directory)
#   make deps    install the Debian packages the build needs, when missing

SWIFT ?= swift
# Debian packages behind the system library targets (see Package.swift providers).
# curl (the program) is a peer in the transport benchmarks and a client in the test
# server's own tests.
APT_PACKAGES := pkg-config libpng-dev libjpeg62-turbo-dev libturbojpeg0-dev libgif-dev \
	libcurl4-openssl-dev libssl-dev zlib1g-dev curl
PKG_CONFIG_NAMES := libpng16 libjpeg libturbojpeg libgif libcurl openssl zlib
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all build run test test-tsan bench bench-quick deps clean

all: build

deps:
	@if pkg-config --exists $(PKG_CONFIG_NAMES) 2>/dev/null && command -v curl >/dev/null; then \
		echo "deps: $(PKG_CONFIG_NAMES) present"; \
	else \
		echo "deps: installing $(APT_PACKAGES)"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $(APT_PACKAGES); \
	fi

build: deps
	$(SWIFT) build

# The main job: the project's own sample images served on 127.0.0.1 and loaded through
# the whole pipeline (network, memory, disk); see `webimage demo --help`.
RUN_DIR := .build/run
run: deps
	$(SWIFT) build -c release --product webimage
	rm -rf $(RUN_DIR) && mkdir -p $(RUN_DIR)
	.build/release/webimage demo --out $(RUN_DIR)

test: deps
	$(SWIFT) build --build-tests -Xswiftc -warnings-as-errors
	$(SWIFT) test --skip-build

# The thread sanitizer needs its own build of everything; it lives beside the normal one.
# WEBIMAGE_TSAN swaps Synchronization.Mutex (futex calls the sanitizer cannot see on
# Linux) for a pthread mutex it can: see Modules/Core/Concurrency/Locked.swift.
# TSAN_FILTER narrows the run, for example TSAN_FILTER=WebImageOperationsTests.
TSAN_SCRATCH := .build-tsan
TSAN_FLAGS := --sanitize=thread --scratch-path $(TSAN_SCRATCH) -Xswiftc -DWEBIMAGE_TSAN
TSAN_FILTER ?=
test-tsan: deps
	$(SWIFT) build --build-tests $(TSAN_FLAGS)
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
		$(SWIFT) test --skip-build $(TSAN_FLAGS) $(if $(TSAN_FILTER),--filter '$(TSAN_FILTER)')

bench: deps
	cd Benchmarks && $(SWIFT) run -c release WebImageBenchmarks

bench-quick: deps
	cd Benchmarks && $(SWIFT) run -c release WebImageBenchmarks --quick

clean:
	rm -rf .build $(TSAN_SCRATCH) Benchmarks/.build
