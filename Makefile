# pulsebar — every target sets up what it needs on a fresh Debian 12 machine
# with the Swift toolchain (missing apt packages are installed with apt-get).

PREFIX ?= $(HOME)/.local
SWIFT ?= swift
# The one version: `pulsebar --version`, the man page and the Debian package say it (a test
# checks the Swift constant and debian/changelog against this file).
VERSION := $(shell cat VERSION)
# APT=no skips every apt-get step (other distributions, or you install packages yourself).
APT ?= yes
# What building needs: the libraries pulsebar links, checked with pkg-config.
# libturbojpeg and libpng (album-art colours) and libmicrohttpd (`pulsebar overlay`) are
# headers only at build time, opened with dlopen at run time like libpulse.
BUILD_PKGCONFIG = libpulse libpipewire-0.3 fftw3f sndfile libsystemd libturbojpeg libpng \
	libmicrohttpd
BUILD_PACKAGES = pkg-config libpulse-dev libpipewire-0.3-dev libfftw3-dev libsndfile1-dev libsystemd-dev \
	libturbojpeg0-dev libpng-dev libmicrohttpd-dev
# What `make demo` adds: a player (paplay), sox to synthesize the demo track and tmux to show
# the Waybar line under the full-screen view. Never an
# audio server: the demo uses the desktop's, or starts a private one only from a binary that
# is already installed.
DEMO_PACKAGES = pulseaudio-utils sox tmux
# The test stack, for `make test` and CI only: both audio servers the integration suite runs
# on (a private PulseAudio server; a private pipewire + wireplumber + pipewire-pulse session,
# with pw-cli from pipewire-bin and wpctl from wireplumber), sox, valgrind, real clients
# (i3blocks), Debian's default fonts, cava for the side-by-side benchmarks, what reads the
# generated man page and completions (man-db, zsh, fish), and a private session bus with a
# real MPRIS player (dbus, mpv with mpv-mpris), and the fake hostile player the tests run
# (Tests/Fixtures/fake-mpris-player.py: python3-dbus, python3-gi); the real bars the recipes
# are tested in (sway, waybar and grim; Xvfb, polybar, xdotool and ImageMagick's import), Noto
# beside DejaVu (with its CJK and colour emoji fonts, for wide titles), and fontTools to read
# the fonts' advances, and GNU FriBidi (opened when a right-to-left title goes to polybar or the
# ANSI view).
# Debian 12 installs pulseaudio and pipewire-pulse side by side (neither conflicts with nor
# replaces the other; CI, a fresh machine, gets both in one apt call). But a desktop whose
# sound runs through one of them does not get the other: on a PipeWire desktop (pipewire-pulse
# installed, pulseaudio not) `pulseaudio` is left out, on a PulseAudio desktop (the reverse)
# the PipeWire packages are, since their user units conflict and the newcomer may take the
# desktop's socket at the next login. The tests then skip that server's half, saying why.
TEST_PACKAGES = pulseaudio pulseaudio-utils pipewire pipewire-bin wireplumber pipewire-pulse \
	sox libsox-fmt-all tmux systemd cava valgrind i3blocks fontconfig fonts-dejavu-core man-db \
	zsh fish mpv mpv-mpris dbus python3-dbus python3-gi sway waybar grim xvfb polybar xdotool \
	imagemagick fonts-noto-core fonts-noto-mono fonts-noto-cjk fonts-noto-color-emoji \
	python3-fonttools libfribidi0 debhelper dpkg-dev lintian $(DIST_PACKAGES) $(BROWSER_PACKAGES)
# The overlay page's browser tests: headless Chromium driven through chromium-driver by
# Selenium (Tests/Fixtures/overlay-browser.py).
BROWSER_PACKAGES = chromium chromium-driver python3-selenium
# What scripts/dist-test.sh adds (CI): Arch's makepkg (with pacman and bsdtar) and rpmbuild.
DIST_PACKAGES = makepkg pacman-package-manager libarchive-tools rpm rpmlint
# What `make deb` adds: dpkg-buildpackage and debhelper (the test stack also has lintian, and
# CI installs the package: scripts/package-test.sh).
DEB_PACKAGES = debhelper dpkg-dev
# Where `make deb` puts the .deb (with its -dbgsym, .buildinfo and .changes).
DIST = dist
# Release builds link the Swift runtime statically: the installed binary does not depend
# on the toolchain's shared libraries, and it starts with ~2 MB less resident memory.
RELEASE_BUILD = $(SWIFT) build -c release --static-swift-stdlib
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
CONFIG_HOME := $(or $(XDG_CONFIG_HOME),$(HOME)/.config)
DATA_HOME := $(or $(XDG_DATA_HOME),$(HOME)/.local/share)
# Where each shell looks for a user's completions (zsh: add this directory to fpath).
BASH_COMPLETION_DIR ?= $(DATA_HOME)/bash-completion/completions
ZSH_COMPLETION_DIR ?= $(DATA_HOME)/zsh/site-functions
FISH_COMPLETION_DIR ?= $(CONFIG_HOME)/fish/completions
MAN_DIR ?= $(PREFIX)/share/man/man1

.PHONY: all deps demo-deps test-deps build release test sanitize lint format demo bench fuzz \
	screenshots install uninstall deb package-test dist dist-test generated hot-functions clean

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

## test: unit and integration tests (on a private PulseAudio server and a private PipeWire
## session, whichever are installed; PULSEBAR_TEST_SERVERS=pipewire runs one), then lint
test: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-xctest --xunit-output .build/test-results.xml
	$(MAKE) lint

## screenshots: docs/screenshots/{waybar,polybar}-{playing,paused,offline,now-playing}.png and
## polybar-{arabic,hebrew,braces}.png,
## taken by the real-bar tests (the shipped recipes in Waybar on headless sway and polybar on
## Xvfb; now-playing: docs/RECIPES.md), and overlay.png (headless Chromium: docs/OVERLAY.md)
screenshots: test-deps
	$(SWIFT) build --build-tests
	mkdir -p docs/screenshots
	PULSEBAR_SCREENSHOTS=$(CURDIR)/docs/screenshots $(SWIFT) test --skip-build --disable-xctest \
		--filter 'recipeInWaybar|recipeInPolybar|nowPlayingInWaybar|nowPlayingInPolybar|theTitleIsDrawnAsItsCharacters|pageInChromium'

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

## generated: write man/pulsebar.1 and completions/* (and config/pulsebar.conf) again from
## the option table and the config keys; tests fail while a checked-in copy is stale
generated:
	$(SWIFT) build --build-tests
	PULSEBAR_RECORD=1 $(SWIFT) test --skip-build --disable-xctest \
		--filter IsTheReference

## hot-functions: profile what the release binary runs while music plays (valgrind, on a
## private PulseAudio server) into scripts/hot-functions.txt, which release builds link first
hot-functions: test-deps
	SWIFT="$(SWIFT)" scripts/hot-functions.sh

## fuzz: build the libFuzzer harnesses (ASan + LSan, in .build/fuzz; PULSEBAR_FUZZ=1 declares
## them, so plain builds never see them) and run each for FUZZ_SECONDS. Not part of `test`.
FUZZ_SECONDS ?= 60
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) SWIFT="$(SWIFT)" fuzz/run.sh

## deb: the Debian package, dist/pulsebar_VERSION_ARCH.deb (dpkg-buildpackage, debian/); the
## Swift toolchain is SWIFT's, else /opt/swift's
deb: deps
	@APT=$(APT) SUDO="$(SUDO)" scripts/packages.sh apt "" $(DEB_PACKAGES)
	mkdir -p $(DIST)
	ARCH=$$(dpkg-architecture -qDEB_HOST_ARCH) && \
	PULSEBAR_DIST=$(CURDIR)/$(DIST) \
		dpkg-buildpackage -b -us -uc \
		--buildinfo-option=-u$(DIST) --buildinfo-file=$(DIST)/pulsebar_$(VERSION)_$$ARCH.buildinfo \
		--changes-option=-u$(DIST) --changes-file=$(DIST)/pulsebar_$(VERSION)_$$ARCH.changes
	@echo "make deb: $$(ls $(DIST)/pulsebar_$(VERSION)_*.deb); install it with: sudo apt install ./$$(ls $(DIST)/pulsebar_$(VERSION)_*.deb)"

## package-test: builds the package, installs it, runs the installed pulsebar without the
## Swift toolchain, verifies its units, purges it and checks nothing is left (CI; needs root)
package-test: test-deps
	SWIFT=$(SWIFT) scripts/package-test.sh

## dist: the release tarball dist/pulsebar-VERSION-linux-ARCH.tar.gz and its .sha256: the
## release binary, man page, completions, units, examples and install.sh (docs/INSTALL.md)
dist: release
	scripts/dist.sh .build/release/pulsebar $(DIST)

## dist-test: the tarball's ELF floor, its install.sh and the installed binary without the
## toolchain, then the Arch and RPM packages built with makepkg and rpmbuild (CI; needs root)
dist-test: test-deps
	SWIFT=$(SWIFT) scripts/dist-test.sh

## install: the binary, the man page, bash/zsh/fish completions, the systemd user units and a
## commented config (never overwritten)
install: release
	install -Dm755 -s .build/release/pulsebar $(DESTDIR)$(PREFIX)/bin/pulsebar
	install -Dm644 man/pulsebar.1 $(DESTDIR)$(MAN_DIR)/pulsebar.1
	install -Dm644 completions/pulsebar.bash $(DESTDIR)$(BASH_COMPLETION_DIR)/pulsebar
	install -Dm644 completions/_pulsebar $(DESTDIR)$(ZSH_COMPLETION_DIR)/_pulsebar
	install -Dm644 completions/pulsebar.fish $(DESTDIR)$(FISH_COMPLETION_DIR)/pulsebar.fish
	install -Dm644 systemd/pulsebar.service $(DESTDIR)$(CONFIG_HOME)/systemd/user/pulsebar.service
	install -Dm644 systemd/pulsebar.socket $(DESTDIR)$(CONFIG_HOME)/systemd/user/pulsebar.socket
	sed -i 's|^ExecStart=%h/.local/bin/|ExecStart=$(PREFIX)/bin/|' \
		$(DESTDIR)$(CONFIG_HOME)/systemd/user/pulsebar.service
	install -Dm644 systemd/pulsebar-overlay.service \
		$(DESTDIR)$(CONFIG_HOME)/systemd/user/pulsebar-overlay.service
	sed -i 's|^ExecStart=%h/.local/bin/|ExecStart=$(PREFIX)/bin/|' \
		$(DESTDIR)$(CONFIG_HOME)/systemd/user/pulsebar-overlay.service
	@if [ -e $(DESTDIR)$(CONFIG_HOME)/pulsebar/config ]; then \
		echo "keeping your $(CONFIG_HOME)/pulsebar/config"; \
	else \
		install -Dm644 config/pulsebar.conf $(DESTDIR)$(CONFIG_HOME)/pulsebar/config; \
	fi
	@systemctl --user daemon-reload 2>/dev/null || true
	@echo "zsh: completions are in $(ZSH_COMPLETION_DIR); add it to fpath in ~/.zshrc"

uninstall:
	-systemctl --user disable --now pulsebar.socket pulsebar.service 2>/dev/null
	-systemctl --user disable --now pulsebar-overlay.service 2>/dev/null
	rm -f $(DESTDIR)$(CONFIG_HOME)/systemd/user/pulsebar-overlay.service
	rm -f $(DESTDIR)$(PREFIX)/bin/pulsebar \
		$(DESTDIR)$(MAN_DIR)/pulsebar.1 \
		$(DESTDIR)$(BASH_COMPLETION_DIR)/pulsebar \
		$(DESTDIR)$(ZSH_COMPLETION_DIR)/_pulsebar \
		$(DESTDIR)$(FISH_COMPLETION_DIR)/pulsebar.fish \
		$(DESTDIR)$(CONFIG_HOME)/systemd/user/pulsebar.service \
		$(DESTDIR)$(CONFIG_HOME)/systemd/user/pulsebar.socket

clean:
	rm -rf .build $(DIST)
