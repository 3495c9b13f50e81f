#!/bin/sh
# install.sh [uninstall]: installs pulsebar from its release tarball; needs nothing but a POSIX
# shell and coreutils (no toolchain). Run it from the unpacked directory.
#
#   ./install.sh                          # a user install: PREFIX=~/.local
#   sudo ./install.sh PREFIX=/usr/local   # a system one
#   ./install.sh DESTDIR=/tmp/stage PREFIX=/usr   # staged, as a package build does
#   ./install.sh uninstall [PREFIX=...]   # removes what it installed (not your config)
#
# PREFIX gets bin/pulsebar, share/man/man1, the bash, zsh and fish completions, the example
# config and bar snippets in share/doc/pulsebar/examples, and the systemd user units: in
# PREFIX/lib/systemd/user, or for a PREFIX in your home directory in PREFIX/share/systemd/user
# (where `systemctl --user` looks); UNITDIR=... overrides that. The service's ExecStart names
# PREFIX/bin/pulsebar. DESTDIR is prepended to every path and to nothing else. Settings are
# taken as NAME=VALUE arguments or from the environment.
set -eu
cd "$(dirname "$0")"
action=install
for argument in "$@"; do
  case $argument in
  PREFIX=* | DESTDIR=* | UNITDIR=*) export "${argument?}" ;;
  uninstall) action=uninstall ;;
  install) ;;
  *)
    echo "install.sh: unknown argument '$argument' (PREFIX=DIR, DESTDIR=DIR, UNITDIR=DIR, uninstall)" >&2
    exit 2
    ;;
  esac
done
PREFIX=${PREFIX:-${HOME:?set PREFIX or HOME}/.local}
DESTDIR=${DESTDIR:-}
case $PREFIX in
/*) ;;
*)
  echo "install.sh: PREFIX must be an absolute path, not '$PREFIX'" >&2
  exit 2
  ;;
esac
case $PREFIX/ in
"${HOME:-/nonexistent}"/*) default_unitdir=$PREFIX/share/systemd/user ;;
*) default_unitdir=$PREFIX/lib/systemd/user ;;
esac
UNITDIR=${UNITDIR:-$default_unitdir}

# Each installed file: its place in this directory, its mode, where it goes under PREFIX.
files="bin/pulsebar 755 $PREFIX/bin/pulsebar
share/man/man1/pulsebar.1 644 $PREFIX/share/man/man1/pulsebar.1
share/bash-completion/completions/pulsebar 644 $PREFIX/share/bash-completion/completions/pulsebar
share/zsh/site-functions/_pulsebar 644 $PREFIX/share/zsh/site-functions/_pulsebar
share/fish/vendor_completions.d/pulsebar.fish 644 $PREFIX/share/fish/vendor_completions.d/pulsebar.fish
systemd/pulsebar.socket 644 $UNITDIR/pulsebar.socket"
# The examples, README and the documents it links (their links resolve as installed).
for document in $(find share/doc/pulsebar -type f | sort); do
  files="$files
$document 644 $PREFIX/$document"
done
files="$files
LICENSE 644 $PREFIX/share/doc/pulsebar/LICENSE"

if [ "$action" = uninstall ]; then
  # The user's units run the binary about to go: stopped and disabled first, so no service
  # runs a deleted file and no enabled socket is left dangling (a user install only).
  if [ -z "$DESTDIR" ] && [ -f "$UNITDIR/pulsebar.service" ] && command -v systemctl >/dev/null &&
    systemctl --user show-environment >/dev/null 2>&1; then
    systemctl --user disable --now pulsebar.socket pulsebar.service >/dev/null 2>&1 || true
    systemctl --user daemon-reload >/dev/null 2>&1 || true
    echo "install.sh: stopped and disabled pulsebar.socket and pulsebar.service"
  fi
  echo "$files" | while read -r _ _ target; do rm -f "$DESTDIR$target"; done
  rm -f "$DESTDIR$UNITDIR/pulsebar.service"
  rm -f "$DESTDIR$UNITDIR/pulsebar-overlay.service"
  [ ! -d "$DESTDIR$PREFIX/share/doc/pulsebar" ] ||
    find "$DESTDIR$PREFIX/share/doc/pulsebar" -depth -type d -empty -delete
  echo "install.sh: removed pulsebar from $DESTDIR$PREFIX (your ~/.config/pulsebar stays)"
  exit 0
fi

echo "$files" | while read -r source mode target; do
  mkdir -p "$DESTDIR$(dirname "$target")"
  cp "$source" "$DESTDIR$target.new"
  chmod "$mode" "$DESTDIR$target.new"
  mv -f "$DESTDIR$target.new" "$DESTDIR$target"
done
# The service runs the binary where it now is.
mkdir -p "$DESTDIR$UNITDIR"
sed "s|^ExecStart=%h/.local/bin/pulsebar |ExecStart=$PREFIX/bin/pulsebar |" \
  systemd/pulsebar.service >"$DESTDIR$UNITDIR/pulsebar.service"
chmod 644 "$DESTDIR$UNITDIR/pulsebar.service"
grep -q "^ExecStart=$PREFIX/bin/pulsebar " "$DESTDIR$UNITDIR/pulsebar.service"
sed "s|^ExecStart=%h/.local/bin/pulsebar |ExecStart=$PREFIX/bin/pulsebar |" \
  systemd/pulsebar-overlay.service >"$DESTDIR$UNITDIR/pulsebar-overlay.service"
chmod 644 "$DESTDIR$UNITDIR/pulsebar-overlay.service"
grep -q "^ExecStart=$PREFIX/bin/pulsebar " "$DESTDIR$UNITDIR/pulsebar-overlay.service"

echo "install.sh: installed pulsebar in $DESTDIR$PREFIX (units in $DESTDIR$UNITDIR)"
if [ -z "$DESTDIR" ]; then
  echo "  then: systemctl --user daemon-reload && systemctl --user enable --now pulsebar.socket"
  echo "  a config to start from: $PREFIX/share/doc/pulsebar/examples/pulsebar.conf"
  # The bar snippets call a bare `pulsebar`: its directory must be on the PATH bars get.
  case ":${PATH:-}:" in
  *":$PREFIX/bin:"*) ;;
  *) echo "  $PREFIX/bin is not on your PATH (the bar snippets run \`pulsebar\`): add it in your shell's profile, e.g. export PATH=\"$PREFIX/bin:\$PATH\"" ;;
  esac
  # zsh finds completions only in its fpath, which has no home directory by default.
  case ${SHELL:-}:$PREFIX/ in
  */zsh:"${HOME:-/nonexistent}"/*) echo "  for zsh completions: fpath=($PREFIX/share/zsh/site-functions \$fpath) before compinit in ~/.zshrc" ;;
  esac
fi
