# snapmap: `make run` (the main job) and `make test` do all the set-up on a fresh Debian 12 machine.
SWIFT ?= swift
# Release binaries carry the Swift runtime and Foundation: a command starts without resolving thousands of
# symbols across shared libraries. Both products take the flag (switching it rebuilds every module).
RELEASE := -c release --static-swift-stdlib
RELEASE_BIN := .build/release/snapmap
OUT ?= out

.PHONY: setup build binary basemap run test test-wide faults faults-redis bench clean

# `make bench NAME…` runs only the benchmarks named after it (`make bench live`, `make bench live redis`): those
# words are names passed to snapmap-bench, not targets of their own.
BENCHES := $(filter-out setup build binary basemap run test test-wide faults faults-redis bench clean,$(MAKECMDGOALS))
ifneq ($(filter bench,$(MAKECMDGOALS)),)
.PHONY: $(BENCHES)
$(BENCHES):
	@:
endif

setup:
	@scripts/setup.sh
	@scripts/python-setup.sh

build: setup
	@$(MAKE) --no-print-directory binary

# The release binary alone, on a machine that already has the build packages (deploy/Containerfile builds it so).
binary:
	$(SWIFT) build $(RELEASE) --product snapmap

basemap: build
	$(RELEASE_BIN) import-basemap

run: basemap
	@mkdir -p $(OUT)
	$(RELEASE_BIN) render --layers base,heat,pins --clock scene --out $(OUT)/williamsburg.png --layout-out $(OUT)/williamsburg-layout.json
	$(RELEASE_BIN) render --layers base,heat,pins --clock scene --selected jordan --at-selection --out $(OUT)/williamsburg-selected.png \
		--layout-out $(OUT)/williamsburg-selected-layout.json
	$(RELEASE_BIN) fly --friend jordan --clock scene --out $(OUT)/williamsburg-fly.png
	$(RELEASE_BIN) render --layers base,heat,pins --clock scene --zoom 13.1 --center 40.71526,-73.95104 --out $(OUT)/williamsburg-z13-crowd.png \
		--layout-out $(OUT)/williamsburg-z13-crowd-layout.json
	scripts/poses-frame.sh $(RELEASE_BIN) $(OUT)
	@cat $(OUT)/williamsburg-layout.json

# A test run that prints nothing for STALL seconds is ended, naming the tests still running.
STALL ?= 900
test: setup
	scripts/watch-tests.py $(STALL) $(SWIFT) test

# Every test with WIDTH of them running at once (Swift Testing's own limit; `--num-workers` reaches only XCTest), to
# find tests that depend on what runs beside them or on how many cores there are.
WIDTH ?= 16
test-wide: setup
	$(SWIFT) test --experimental-maximum-parallelization-width $(WIDTH)

# The fault suites at more seeded rounds than `make test`'s sample (kill -9 and SIGTERM at random moments; the
# store deleted, damaged, on a full disk; a second server on the port; hostile requests), and 1,000 event streams
# that never read beside a healthy viewer (p99 ≤ 50 ms over twice its p99 with none open), alone on the machine;
# then 1,000 frames at random in-range parameters against the release build, whose peak memory must stay within its
# bound. FAULT_SEED varies them.
FAULT_ROUNDS ?= 10
FAULT_SEED ?= 26
faults: setup
	SNAPMAP_FAULT_ROUNDS=$(FAULT_ROUNDS) SNAPMAP_FAULT_SEED=$(FAULT_SEED) $(SWIFT) test \
		--filter 'DurabilityTests|StopFaultTests|StoreFaultTests|FullDiskTests|QueryLimitTests|GlyphCacheTests'
	SNAPMAP_SLOW_VIEWERS=125 SNAPMAP_SLOW_P99_MS=50 $(SWIFT) test --filter SlowStreamTests
	$(SWIFT) build $(RELEASE) --product snapmap
	SNAPMAP_MEMORY_RELEASE=1 SNAPMAP_MEMORY_FRAMES=1000 SNAPMAP_MEMORY_SEED=$(FAULT_SEED) $(SWIFT) test --filter MemoryBoundTests

# The Redis Cluster fault suite in full: every master lost in turn, every reshard, all nodes down for 20 s
# (`make test` runs one of each, drawn from a seed).
faults-redis: setup
	SNAPMAP_FAULTS=full $(SWIFT) test --filter RedisFaultTests

bench: setup
	@scripts/setup.sh scripts/bench-packages.txt
	@scripts/python-setup.sh scripts/python-packages.txt scripts/bench-python-packages.txt
	$(SWIFT) build $(RELEASE) --product snapmap-bench
	$(SWIFT) build $(RELEASE) --product snapmap
	.build/release/snapmap import-basemap
	.build/release/snapmap-bench $(BENCHES)

clean:
	rm -rf .build $(OUT)
