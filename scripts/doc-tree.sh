#!/bin/sh
# doc-tree.sh DIR: README.md and every document it links, laid out in DIR as every package
# ships them (DIR is share/doc/pulsebar): docs/*.md with the screenshots, and the READMEs of
# bench/, fuzz/ and sanitizers/. The example config and bar snippets are installed apart, in
# DIR/examples, so links to config/examples and config/pulsebar.conf are written to point
# there. scripts/doc-links.sh checks that every link then resolves.
set -eu
cd "$(dirname "$0")/.."
dir=$1
for file in README.md docs/*.md bench/README.md fuzz/README.md sanitizers/README.md; do
  mkdir -p "$dir/$(dirname "$file")"
  sed -e 's#](\(\(\.\./\)*\)config/examples#](\1examples#g' \
    -e 's#](\(\(\.\./\)*\)config/pulsebar\.conf#](\1examples/pulsebar.conf#g' "$file" >"$dir/$file"
  chmod 644 "$dir/$file"
done
install -d "$dir/docs/screenshots"
install -m644 docs/screenshots/*.png "$dir/docs/screenshots"
