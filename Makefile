# pulsebar — every target sets up what it needs on a fresh Debian 12 machine
# with the Swift toolchain (missing apt packages are installed with apt-get).

PREFIX ?= $(HOME)/.local
SWIFT ?= swift
# Build-time libraries, the test stack (a private PulseAudio, sox, tmux, systemd
# tools) and cava for the side-by-side benchmarks.
APT_PACKAGES = libpulse-dev libfftw3-dev libsndfile1-dev pulseaudio pulseaudio-utils \
	sox tmux systemd cava valgrind
# Release builds link the Swift runtime statically: the installed binary does not depend
# on the toolchain's shared libraries, and it starts with ~2 MB less resident memory.
RELEASE_BUILD = $(SWIFT) build -c release --static-swift-stdlib
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
CONFIG_HOME := $(or $(XDG_CONFIG_HOME),$(HOME)/.config)

.PHONY: all deps build release test lint format demo bench fuzz install uninstall clean

all: build

## deps: install the apt packages that are missing (apt-get update once, only if needed)
deps:
	@missing=$$(for p in $(APT_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing:" $$missing; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(RELEASE_BUILD)

## test: unit and integration tests (the tests start their own private PulseAudio), then lint
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-xctest
	$(MAKE) lint

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests bench fuzz/Sources

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests bench fuzz/Sources

## demo: see pulsebar work on this machine
demo: release
	scripts/demo.sh .build/release/pulsebar

## bench: every benchmark, side by side with cava
bench: release
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
	rm -f $(DESTDIR)$(PREFIX)/bin/pulsebar \
		$(DESTDIR)$(CONFIG_HOME)/systemd/user/pulsebar.service \
		$(DESTDIR)$(CONFIG_HOME)/systemd/user/pulsebar.socket

clean:
	rm -rf .build
