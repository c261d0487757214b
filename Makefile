# twitterd: the two set-up commands are `make run` and `make test`.
SWIFT ?= swift
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man/man1
DOCDIR ?= $(PREFIX)/share/doc/twitterd
UNITDIR ?= $(PREFIX)/lib/systemd/system
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
TMPFILESDIR ?= $(PREFIX)/lib/tmpfiles.d
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
RUN_DIR := .run
RELEASE_BIN := .build/release
GENERATED := .build/generated

.PHONY: all deps clients build release run test test-systemd lint format bench soak fuzz man completions install uninstall clean

all: build

deps:
	@sh scripts/install-deps.sh

# The real Mastodon clients the end-to-end tests run (Tests/EndToEndTests/MastodonClient*, scripts in Tests/MastodonClients): toot and Mastodon.py from
# PyPI, pinned with their whole resolved set, in a virtual environment of the build folder made by Debian's
# Python (python3-venv is in scripts/install-deps.sh's list). Made once; again only when the pins change.
# The tests find it through TWITTERD_TEST_MASTODON_CLIENTS: set, the client tests run and a broken environment
# fails them; unset (a bare `swift test`), they are skipped and say so.
MASTODON_VENV := $(CURDIR)/.build/mastodon-venv
MASTODON_PINS := Tests/MastodonClients/constraints.txt
clients: $(MASTODON_VENV)/installed

$(MASTODON_VENV)/installed: $(MASTODON_PINS) | deps
	rm -rf $(MASTODON_VENV)
	/usr/bin/python3 -m venv $(MASTODON_VENV)
	$(MASTODON_VENV)/bin/pip install --quiet --no-cache-dir --disable-pip-version-check -c $(MASTODON_PINS) \
		"toot==0.52.1" "Mastodon.py[websocket-streaming]==2.3.3"
	$(MASTODON_VENV)/bin/toot --version
	$(MASTODON_VENV)/bin/python -c 'import mastodon, websocket, importlib.metadata as m; print("Mastodon.py", m.version("Mastodon.py"))'
	touch $@

build: deps
	$(SWIFT) build

# The Swift runtime is linked in: the installed daemon needs no toolchain, and maps only the runtime pages it
# uses (idle resident memory 28 MB instead of 32 MB; see docs/BENCHMARKS.md). Every build into .build/release
# passes exactly these flags: a build with others would relink the binaries (without the runtime, say).
RELEASE_FLAGS := -c release --static-swift-stdlib
release: deps
	$(SWIFT) build $(RELEASE_FLAGS)

## run: build in release mode and serve in the foreground on ./.run/twitterd.sock and http://127.0.0.1:3000
run: release
	@# No mkdir here: twitterd creates the folder of its database itself, 0700 whatever the umask.
	@echo "twitterd: serving on $(RUN_DIR)/twitterd.sock (database $(RUN_DIR)/twitterd.sqlite); Ctrl-C stops it."
	@echo "try:  echo '{\"jsonrpc\":\"2.0\",\"method\":\"system.ping\",\"id\":1}' | socat - UNIX-CONNECT:$(RUN_DIR)/twitterd.sock"
	@echo "  or: $(RELEASE_BIN)/twctl --socket $(RUN_DIR)/twitterd.sock status"
	@echo "  Mastodon clients: http://127.0.0.1:3000 (toot login_cli -i http://127.0.0.1:3000), or $(RUN_DIR)/http.sock"
	@exec $(RELEASE_BIN)/twitterd --socket $(RUN_DIR)/twitterd.sock --database $(RUN_DIR)/twitterd.sqlite \
		--http unix:$(RUN_DIR)/http.sock --http 127.0.0.1:3000

# The PostgreSQL pass leaves out the suites about SQLite's file, the sandbox and systemd, and the suites that
# name their stores themselves (faults, migrate-data, shared databases, the networked hosts), which ran in the
# first pass; and the HTTP listener's suite, whose fixed `--http` port two daemons cannot both take.
POSTGRES_PASS_SKIPS := BackupTests|StatePrivacyTests|SandboxTests|SystemdTests|SecretsAndHashingTests|LifecycleTests|TwbenchTests|PostgresFaultTests|MigrateDataTests|SharedDatabaseTests|NetworkedPostgresTests|PowerCutTests|HTTPListenerTests

# Debian's chromium, which `deps` installs: the web pages' screenshot tests (WebScreenshotTests) run it
# headless. Named to the tests in TWITTERD_TEST_CHROMIUM, so a missing browser fails them rather than skips.
CHROMIUM := /usr/bin/chromium

## test: the whole suite: unit tests and end-to-end tests against the real binaries and the real Mastodon clients
test: export TWITTERD_TEST_MASTODON_CLIENTS := $(MASTODON_VENV)
test: export TWITTERD_TEST_CHROMIUM := $(CHROMIUM)
test: deps clients
	$(SWIFT) build --build-tests
	@# One test at a time: end-to-end tests block on real sockets, and run side by side they would starve
	@# each other's async work on a two-core machine. The PostgreSQL store's tests run against a throwaway
	@# cluster the script starts and removes.
	sh scripts/with-postgres.sh $(SWIFT) test --skip-build --no-parallel
	@# The end-to-end suite again as one service of two daemons on one PostgreSQL database: each test's
	@# connections and twctl users alternate between them (TWITTERD_TEST_STORE=postgresql runs one daemon).
	TWITTERD_TEST_STORE=postgresql-pair sh scripts/with-postgres.sh $(SWIFT) test --skip-build --no-parallel \
		--filter EndToEndTests --skip '$(POSTGRES_PASS_SKIPS)'

## test-systemd: as root, boots Debian under a real systemd (systemd-nspawn) with `make install` inside and checks the units
# TWITTERD_INSTALLED_TREE=DIR tests an existing DESTDIR tree instead of installing (no build).
test-systemd:
	sh scripts/test-systemd.sh

## lint: the formatting check, by the rules in .swift-format; `make format` applies them
SWIFT_SOURCES := Sources Plugins BuildTools Tests Fuzz Package.swift
lint:
	$(SWIFT) format lint --strict --configuration .swift-format -r $(SWIFT_SOURCES)

format:
	$(SWIFT) format format --in-place --configuration .swift-format -r $(SWIFT_SOURCES)

## bench: release build, 1M-tweet database, twitterd against a C line server and Redis; writes docs/BENCHMARKS.md
bench: deps
	sh bench/run.sh

## soak: the crash-durability test for 20 SIGKILL rounds instead of 3
soak: deps
	$(SWIFT) build --build-tests
	SOAK_ROUNDS=20 $(SWIFT) test --skip-build --no-parallel --filter CrashDurabilityTests

## fuzz: libFuzzer over the request decoder and router for SECONDS seconds (default 60), from Fuzz/corpus
SECONDS ?= 60
FUZZ_BUILD := .build-fuzz
fuzz: deps
	@# The linker's "Cannot export local symbol __asan_*" warnings are noise from ASan with gold.
	TWITTERD_FUZZ=1 $(SWIFT) build --scratch-path $(FUZZ_BUILD) --product TwitterFuzz \
		-Xswiftc -sanitize=fuzzer,address 2>&1 | grep -v "Cannot export local symbol" || true
	@mkdir -p $(FUZZ_BUILD)/corpus $(FUZZ_BUILD)/crashes
	cp Fuzz/corpus/* $(FUZZ_BUILD)/corpus/
	@# Leak detection is off: LeakSanitizer reports the harness's process-wide router, kept on purpose.
	SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 $(FUZZ_BUILD)/debug/TwitterFuzz $(FUZZ_BUILD)/corpus \
		-max_total_time=$(SECONDS) -max_len=65536 -detect_leaks=0 -artifact_prefix=$(FUZZ_BUILD)/crashes/
	@echo "no crash in $(SECONDS) s; a crash would be in $(FUZZ_BUILD)/crashes/: copy it to Fuzz/corpus/ as a regression"

## man: man pages for twctl and twitterd, from the argument parsers of the release binaries
# swift-argument-parser's generate-manual tool writes them from a binary's --experimental-dump-help. It is
# built alone (SwiftPM makes it a product, as its plugin's tool) with the release flags: it reuses the release
# ArgumentParser, compiles its own few files, relinks nothing else, and runs on the binaries `make install`
# installs. Its plugin, `swift package generate-manual`, builds the whole package again in the configuration it
# is given: in release without --static-swift-stdlib, relinking the binaries; in debug, BoringSSL included,
# a second build of nearly the whole package on a tree with no debug build (on 2 busy cores, a debug build with
# the tests took 20 min, 13 CPU-minutes; the release build 15 to 26 min). After `make test`, whose debug build
# it reused, the plugin's step took 28 s; this one takes 16 s.
man: release
	$(SWIFT) build $(RELEASE_FLAGS) --product generate-manual
	@mkdir -p $(GENERATED)/man
	$(RELEASE_BIN)/generate-manual $(RELEASE_BIN)/twctl --output-directory $(GENERATED)/man
	$(RELEASE_BIN)/generate-manual $(RELEASE_BIN)/twitterd --output-directory $(GENERATED)/man

completions: release
	@mkdir -p $(GENERATED)/completions
	$(RELEASE_BIN)/twctl --generate-completion-script bash > $(GENERATED)/completions/twctl.bash
	$(RELEASE_BIN)/twctl --generate-completion-script zsh > $(GENERATED)/completions/_twctl
	$(RELEASE_BIN)/twctl --generate-completion-script fish > $(GENERATED)/completions/twctl.fish

## install: binaries, systemd units, sysusers/tmpfiles snippets, man pages, completions, docs
install: release man completions
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(DOCDIR) $(DESTDIR)$(UNITDIR) \
		$(DESTDIR)$(SYSUSERSDIR) $(DESTDIR)$(TMPFILESDIR) $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) \
		$(DESTDIR)$(FISHCOMPDIR)
	install -m 0755 $(RELEASE_BIN)/twitterd $(RELEASE_BIN)/twctl $(DESTDIR)$(BINDIR)/
	sed 's#/usr/local/bin/twitterd#$(BINDIR)/twitterd#; s#/usr/local/share/doc/twitterd#$(DOCDIR)#' \
		systemd/twitterd.service > $(DESTDIR)$(UNITDIR)/twitterd.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/twitterd.service
	install -m 0644 systemd/twitterd.socket $(DESTDIR)$(UNITDIR)/twitterd.socket
	install -m 0644 systemd/twitterd-http.socket $(DESTDIR)$(UNITDIR)/twitterd-http.socket
	sed 's#/usr/local/bin/twitterd#$(BINDIR)/twitterd#; s#/usr/local/share/doc/twitterd#$(DOCDIR)#' \
		systemd/twitterd-backup.service > $(DESTDIR)$(UNITDIR)/twitterd-backup.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/twitterd-backup.service
	sed 's#/usr/local/share/doc/twitterd#$(DOCDIR)#' \
		systemd/twitterd-backup.timer > $(DESTDIR)$(UNITDIR)/twitterd-backup.timer
	chmod 0644 $(DESTDIR)$(UNITDIR)/twitterd-backup.timer
	install -m 0644 systemd/twitterd.sysusers $(DESTDIR)$(SYSUSERSDIR)/twitterd.conf
	install -m 0644 systemd/twitterd.tmpfiles $(DESTDIR)$(TMPFILESDIR)/twitterd.conf
	install -m 0644 $(GENERATED)/man/twctl.1 $(GENERATED)/man/twitterd.1 $(DESTDIR)$(MANDIR)/
	install -m 0644 $(GENERATED)/completions/twctl.bash $(DESTDIR)$(BASHCOMPDIR)/twctl
	install -m 0644 $(GENERATED)/completions/_twctl $(DESTDIR)$(ZSHCOMPDIR)/_twctl
	install -m 0644 $(GENERATED)/completions/twctl.fish $(DESTDIR)$(FISHCOMPDIR)/twctl.fish
	install -m 0644 README.md docs/PROTOCOL.md docs/OPERATIONS.md docs/SECURITY.md $(DESTDIR)$(DOCDIR)/
	@# The installed binaries must run where there is no Swift toolchain.
	@if ldd $(DESTDIR)$(BINDIR)/twitterd $(DESTDIR)$(BINDIR)/twctl | grep -q libswift; then \
		echo "install: the installed binaries link the Swift runtime dynamically; run make clean and install again" >&2; \
		exit 1; \
	fi
	@echo "installed; next: systemd-sysusers && systemctl daemon-reload && systemctl enable --now twitterd.socket twitterd-http.socket"
	@echo "  daily backups (optional): systemctl enable --now twitterd-backup.timer"

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/twitterd $(DESTDIR)$(BINDIR)/twctl
	rm -f $(DESTDIR)$(UNITDIR)/twitterd.service $(DESTDIR)$(UNITDIR)/twitterd.socket \
		$(DESTDIR)$(UNITDIR)/twitterd-http.socket
	rm -f $(DESTDIR)$(UNITDIR)/twitterd-backup.service $(DESTDIR)$(UNITDIR)/twitterd-backup.timer
	rm -f $(DESTDIR)$(SYSUSERSDIR)/twitterd.conf $(DESTDIR)$(TMPFILESDIR)/twitterd.conf
	rm -f $(DESTDIR)$(MANDIR)/twctl.1 $(DESTDIR)$(MANDIR)/twitterd.1
	rm -f $(DESTDIR)$(BASHCOMPDIR)/twctl $(DESTDIR)$(ZSHCOMPDIR)/_twctl $(DESTDIR)$(FISHCOMPDIR)/twctl.fish
	rm -rf $(DESTDIR)$(DOCDIR)
	@echo "uninstalled; the database and backups in /var/lib/twitterd and the twitterd user are left in place"

clean:
	$(SWIFT) package clean
	rm -rf $(RUN_DIR)
