#!/bin/sh
# doc-links.sh DIR: every relative link of every Markdown file under DIR (an installed
# share/doc/pulsebar) resolves to a file or directory there; web links and anchors are not
# followed. Prints one line per broken link and exits 1 when any is.
set -eu
dir=$1
status=0
for file in $(find "$dir" -name '*.md' | sort); do
  for target in $(grep -o '](\([^)]*\))' "$file" | sed -e 's/^](//' -e 's/)$//' -e 's/#.*//'); do
    case $target in '' | http://* | https://* | mailto:*) continue ;; esac
    if [ ! -e "$(dirname "$file")/$target" ]; then
      echo "doc-links: ${file#"$dir"/} links $target, which is not installed"
      status=1
    fi
  done
done
exit $status
