# bt: the two Quick start targets. Both install what is missing, build, and run.
SWIFT ?= swift
BT := .build/release/bt
DEMO_DB := notebooks-out/demo.sqlite

FUZZ_SECONDS ?= 300
FUZZ_CI_SECONDS ?= 15

.PHONY: deps build demo test fuzz fuzz-ci clean

# System libraries: GSL, SQLite and pkg-config (Debian packages); apt-get update first.
deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build -c release

demo: build
	@bash scripts/demo.sh $(BT) $(DEMO_DB)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	@bash scripts/fuzz.sh $(FUZZ_CI_SECONDS)

# Fuzzing (scripts/fuzz.sh): every target for FUZZ_SECONDS (default 5 minutes each) ...
fuzz: deps
	@bash scripts/fuzz.sh $(FUZZ_SECONDS)

# ... and the short bounded pass `make test` runs: FUZZ_CI_SECONDS (15 s) per target.
fuzz-ci: deps
	@bash scripts/fuzz.sh $(FUZZ_CI_SECONDS)

clean:
	rm -rf .build Fuzz/.build notebooks-out/*
