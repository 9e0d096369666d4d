# bt: the two Quick start targets. Both install what is missing, build, and run.
SWIFT ?= swift
BT := .build/release/bt
DEMO_DB := notebooks-out/demo.sqlite

.PHONY: deps build demo test clean

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

clean:
	rm -rf .build notebooks-out/*
