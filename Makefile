# bt: the two Quick start targets. Both install what is missing, build, and run.
SWIFT ?= swift
BT := .build/release/bt
DEMO_DB := notebooks-out/demo.sqlite

FUZZ_SECONDS ?= 300
FUZZ_CI_SECONDS ?= 8

.PHONY: deps build lib demo test test-python test-js test-browser test-l2 test-live test-writers test-largecaps test-slurm perf-check perf-baseline bench-html fuzz fuzz-ci clean

# System libraries: GSL, SQLite and pkg-config (Debian packages); apt-get update first.
deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build -c release

# The C library: .build/release/libbt.so (the BacktestC product) and include/bt.h.
lib: deps
	$(SWIFT) build -c release --product BacktestC
	ln -sf libBacktestC.so .build/release/libbt.so

demo: build
	@bash scripts/demo.sh $(BT) $(DEMO_DB)

test: deps
	$(SWIFT) build --build-tests
	@# The fuzzer's build (its own package and build folder) beside the suite: the fuzz pass at the end waits for it.
	@mkdir -p .build/fuzz && (bash scripts/fuzz.sh --build-only > .build/fuzz/early-build.log 2>&1 &)
	$(SWIFT) test --skip-build
	bash scripts/check-public-api.sh
	$(MAKE) test-python
	$(MAKE) test-js
	$(MAKE) test-browser
	$(MAKE) test-l2
	$(MAKE) test-live
	$(MAKE) test-writers
	$(MAKE) test-largecaps
	$(MAKE) test-slurm
	$(MAKE) perf-check
	@bash scripts/fuzz.sh $(FUZZ_CI_SECONDS)

# The C library and btcore: the debug libbt.so and bt, then python/tests in a venv
# (.build/python-venv: numpy, pandas, pytest, polars, pyarrow, nbclient, ipykernel, selenium from PyPI; Chromium for the notebooks) with ./python installed by pip.
test-python: deps
	$(SWIFT) build --product bt
	$(SWIFT) build --product BacktestC
	ln -sf libBacktestC.so .build/debug/libbt.so
	bash scripts/test-python.sh

# The report page's JavaScript (Sources/Backtest/IO/Presentation/HTML/Assets): each file checked by
# `node --check`, the pure functions unit-tested with Node's test runner (Tests/JS).
test-js:
	@command -v node >/dev/null || bash scripts/install-deps.sh
	@for f in Sources/Backtest/IO/Presentation/HTML/Assets/*.js; do node --check "$$f" || exit 1; done
	node --test Tests/JS/

# report.html in headless Chromium (installs chromium, chromium-driver, python3-selenium), on
# report folders written by the debug bt binary; screenshots in .build/test-artifacts/browser.
test-browser:
	$(SWIFT) build --product bt
	bash Tests/Browser/run.sh --bt .build/debug/bt

# The real L2 sample: fetched from PyPI at test time into .cache/, never committed.
test-l2: deps
	@SWIFT=$(SWIFT) bash scripts/test-l2.sh

# bt live against a local exchange on 127.0.0.1: the replay of each session gives its
# fills to the last digit; gaps, drops, stale streams, junk frames, SIGINT, kill -9 and resume.
test-live: deps
	@SWIFT=$(SWIFT) bash scripts/test-live.sh

# Several bt processes writing one store at once: every pair and triple of bt live,
# import, fetch and calibrate, with SQLite's integrity check after each (about 2 minutes).
test-writers: deps
	@SWIFT=$(SWIFT) bash scripts/test-store-writers.sh

# Real daily bars of four US large caps: fetched from PyPI at test time into .cache/,
# never committed; the default ma-cross pays at most 5 bps a fill on each.
test-largecaps: deps
	@SWIFT=$(SWIFT) bash scripts/test-largecaps.sh

# bt slurm on a single-node Slurm cluster started for the test (installs slurmctld, slurmd,
# slurm-client and munge; needs root): merged screen and sweep equal single-process runs byte for
# byte, a cancelled task is named by bt merge and a rerun of it completes the merge.
test-slurm: deps
	$(SWIFT) build --product bt
	bash scripts/test-slurm.sh --bt .build/debug/bt

# Instruction counts of the hot paths (bt bench kernel) under callgrind on the release build,
# against Benchmarks/baseline.json: fails when one rises by more than 3% (about 1 minute here).
perf-check: deps
	@SWIFT=$(SWIFT) bash scripts/perf-check.sh

# Recount every workload and rewrite Benchmarks/baseline.json (commit it with the reason).
perf-baseline: deps
	@SWIFT=$(SWIFT) bash scripts/perf-check.sh --update

# Fuzzing (scripts/fuzz.sh): every target for FUZZ_SECONDS (default 5 minutes each) ...
fuzz: deps
	@bash scripts/fuzz.sh $(FUZZ_SECONDS)

# ... and the short bounded pass `make test` runs: FUZZ_CI_SECONDS (8 s) per target, two at a time.
fuzz-ci: deps
	@bash scripts/fuzz.sh $(FUZZ_CI_SECONDS)

# First paint in headless Chromium of report.html pages of 10k, 100k and 1M bars that a release bt
# writes (bt bench html), and their size per 100k bars.
bench-html:
	$(SWIFT) build -c release --product bt
	bash scripts/install-browser-deps.sh
	$$([ -x .build/browser-venv/bin/python3 ] && echo .build/browser-venv/bin/python3 || echo /usr/bin/python3) \
	  Tests/Browser/bench_first_paint.py --bt $(BT)

clean:
	rm -rf .build Fuzz/.build notebooks-out/*
