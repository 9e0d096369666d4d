# bt: the two Quick start targets. Both install what is missing, build, and run.
SWIFT ?= swift
BT := .build/release/bt
DEMO_DB := notebooks-out/demo.sqlite

.PHONY: deps build demo test test-l2 clean

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
	$(MAKE) test-l2

# The real L2 sample (issue 10): fetched from PyPI at test time into .cache/, never committed.
test-l2: deps
	@SWIFT=$(SWIFT) bash scripts/test-l2.sh

clean:
	rm -rf .build notebooks-out/*
