#!/bin/sh
# dist.sh BINARY DIST: the release tarball, DIST/pulsebar-VERSION-linux-ARCH.tar.gz and its
# .sha256 (`make dist`, after the release build). It holds BINARY (stripped), the man page,
# the completions, the systemd user units, the example config and bar snippets, LICENSE,
# README.md with the documents it links (scripts/doc-tree.sh) and install.sh (packaging/install.sh: no toolchain, PREFIX and DESTDIR).
# The archive is reproducible from the same binary: sorted names, owner root, every mtime the
# last commit's (SOURCE_DATE_EPOCH when set).
set -eu
cd "$(dirname "$0")/.."
binary=$1
dist=$2
version=$(cat VERSION)
name=pulsebar-$version-linux-$(uname -m)
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/$name

install -Dm755 "$binary" "$root/bin/pulsebar"
strip "$root/bin/pulsebar"
install -Dm644 man/pulsebar.1 "$root/share/man/man1/pulsebar.1"
install -Dm644 completions/pulsebar.bash "$root/share/bash-completion/completions/pulsebar"
install -Dm644 completions/_pulsebar "$root/share/zsh/site-functions/_pulsebar"
install -Dm644 completions/pulsebar.fish "$root/share/fish/vendor_completions.d/pulsebar.fish"
install -Dm644 -t "$root/systemd" systemd/pulsebar.service systemd/pulsebar.socket
install -Dm644 -t "$root/systemd" systemd/pulsebar-overlay.service
install -Dm644 -t "$root/share/doc/pulsebar/examples" config/pulsebar.conf config/examples/*
# README and the documents it links, its links resolving where they are installed.
scripts/doc-tree.sh "$root/share/doc/pulsebar"
install -Dm644 -t "$root" LICENSE
install -Dm755 packaging/install.sh "$root/install.sh"

mkdir -p "$dist"
tarball=$dist/$name.tar.gz
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -C "$stage" -cf - "$name" |
  gzip -9n >"$tarball.new"
mv -f "$tarball.new" "$tarball"
(cd "$dist" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
echo "make dist: $tarball ($(du -k "$tarball" | cut -f1) kB), $tarball.sha256"
