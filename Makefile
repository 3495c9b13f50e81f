# pulsebar — every target sets up what it needs on a fresh Debian 12 machine
# with the Swift toolchain (missing apt packages are installed with apt-get).

PREFIX ?= $(HOME)/.local
SWIFT ?= swift
# APT=no skips every apt-get step (other distributions, or you install packages yourself).
APT ?= yes
# What building needs: the libraries pulsebar links, checked with pkg-config.
BUILD_PKGCONFIG = libpulse fftw3f sndfile
BUILD_PACKAGES = pkg-config libpulse-dev libfftw3-dev libsndfile1-dev
# What `make demo` adds: a player (paplay) and sox to synthesize the demo track. Never an
# audio server: the demo uses the desktop's, or starts a private one only from a binary that
# is already installed.
DEMO_PACKAGES = pulseaudio-utils sox
# The test stack, for `make test` and CI only: a private PulseAudio server, sox, valgrind,
# real clients (i3blocks), Debian's default fonts, and cava for the side-by-side benchmarks.
# On a machine whose sound runs through PipeWire (pipewire-pulse installed) `pulseaudio` is
# left out: installing it there would remove the desktop's audio stack.
TEST_PACKAGES = pulseaudio pulseaudio-utils sox libsox-fmt-all tmux systemd cava valgrind \
	i3blocks fontconfig fonts-dejavu-core
# Release builds link the Swift runtime statically: the installed binary does not depend
# on the toolchain's shared libraries, and it starts with ~2 MB less resident memory.
RELEASE_BUILD = $(SWIFT) build -c release --static-swift-stdlib
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
CONFIG_HOME := $(or $(XDG_CONFIG_HOME),$(HOME)/.config)

.PHONY: all deps demo-deps test-deps build release test sanitize lint format demo bench fuzz \
	install uninstall clean

all: build

## deps: the build libraries; on Debian apt installs just those, elsewhere their names are shown
deps:
	@APT=$(APT) SUDO="$(SUDO)" scripts/packages.sh build "$(BUILD_PKGCONFIG)" $(BUILD_PACKAGES)

demo-deps: deps
	@APT=$(APT) SUDO="$(SUDO)" scripts/packages.sh apt "" $(DEMO_PACKAGES)

test-deps: deps
	@APT=$(APT) SUDO="$(SUDO)" scripts/packages.sh test "" $(TEST_PACKAGES)

build: deps
	$(SWIFT) build

release: deps
	$(RELEASE_BUILD)

## test: unit and integration tests (the tests start their own private PulseAudio), then lint
test: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-xctest
	$(MAKE) lint

## sanitize: the suite under ThreadSanitizer, then AddressSanitizer + LeakSanitizer (not in CI)
sanitize: test-deps
	SWIFT=$(SWIFT) scripts/sanitize.sh

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests bench fuzz/Sources

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests bench fuzz/Sources

## demo: see pulsebar work on this machine
demo: demo-deps release
	scripts/demo.sh .build/release/pulsebar

## bench: every benchmark, side by side with cava
bench: test-deps release
	$(RELEASE_BUILD) --product pulsebar-bench
	.build/release/pulsebar-bench all

## fuzz: build the libFuzzer harnesses (ASan + LSan, in .build/fuzz; PULSEBAR_FUZZ=1 declares
## them, so plain builds never see them) and run each for FUZZ_SECONDS. Not part of `test`.
FUZZ_SECONDS ?= 60
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) SWIFT="$(SWIFT)" fuzz/run.sh

## install: the binary, the systemd user units and a commented config (never overwritten)
install: release
	install -Dm755 .build/release/pulsebar $(DESTDIR)$(PREFIX)/bin/pulsebar
	install -Dm644 systemd/pulsebar.service $(DESTDIR)$(CONFIG_HOME)/systemd/user/pulsebar.service
	install -Dm644 systemd/pulsebar.socket $(DESTDIR)$(CONFIG_HOME)/systemd/user/pulsebar.socket
	sed -i 's|^ExecStart=%h/.local/bin/|ExecStart=$(PREFIX)/bin/|' \
		$(DESTDIR)$(CONFIG_HOME)/systemd/user/pulsebar.service
	@if [ -e $(DESTDIR)$(CONFIG_HOME)/pulsebar/config ]; then \
		echo "keeping your $(CONFIG_HOME)/pulsebar/config"; \
	else \
		install -Dm644 config/pulsebar.conf $(DESTDIR)$(CONFIG_HOME)/pulsebar/config; \
	fi
	@systemctl --user daemon-reload 2>/dev/null || true

uninstall:
	-systemctl --user disable --now pulsebar.socket pulsebar.service 2>/dev/null
	rm -f $(DESTDIR)$(PREFIX)/bin/pulsebar \
		$(DESTDIR)$(CONFIG_HOME)/systemd/user/pulsebar.service \
		$(DESTDIR)$(CONFIG_HOME)/systemd/user/pulsebar.socket

clean:
	rm -rf .build
