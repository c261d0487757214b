# twitterd: the two set-up commands are `make run` and `make test`.
SWIFT ?= swift
PREFIX ?= /usr/local
DESTDIR ?=
RUN_DIR := .run
RELEASE_BIN := .build/release

.PHONY: all deps build release run test clean

all: build

deps:
	@sh scripts/install-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

## run: build in release mode and serve in the foreground on ./.run/twitterd.sock
run: release
	@mkdir -p $(RUN_DIR)
	@echo "twitterd: serving on $(RUN_DIR)/twitterd.sock (database $(RUN_DIR)/twitterd.sqlite); Ctrl-C stops it."
	@echo "try:  echo '{\"jsonrpc\":\"2.0\",\"method\":\"system.ping\",\"id\":1}' | socat - UNIX-CONNECT:$(RUN_DIR)/twitterd.sock"
	@echo "  or: $(RELEASE_BIN)/twctl --socket $(RUN_DIR)/twitterd.sock status"
	@exec $(RELEASE_BIN)/twitterd --socket $(RUN_DIR)/twitterd.sock --database $(RUN_DIR)/twitterd.sqlite

## test: the whole suite: unit tests and end-to-end tests against the real binaries
test: deps
	$(SWIFT) build --build-tests
	@# One test at a time: end-to-end tests block on real sockets, and run side by side they would starve
	@# each other's async work on a two-core machine.
	$(SWIFT) test --skip-build --no-parallel

clean:
	$(SWIFT) package clean
	rm -rf $(RUN_DIR)
