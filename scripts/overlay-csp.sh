#!/bin/sh
# Writes the overlay page's style and script hashes (sha256, base64) into the
# Content-Security-Policy of Sources/PulseBarDaemon/Overlay/OverlayService.swift, after an
# edit of overlay/index.html (OverlayPageTests fails while they differ).
set -eu
cd "$(dirname "$0")/.."
python3 - <<'PY'
import base64, hashlib, re
page = open("overlay/index.html", "rb").read()
def digest(tag):
    body = re.search(b"<" + tag + b">(.*?)</" + tag + b">", page, re.S).group(1)
    return base64.b64encode(hashlib.sha256(body).digest()).decode()
path = "Sources/PulseBarDaemon/Overlay/OverlayService.swift"
source = open(path).read()
source = re.sub(r"style-src 'sha256-[^']*'", "style-src 'sha256-%s'" % digest(b"style"), source)
source = re.sub(r"script-src 'sha256-[^']*'", "script-src 'sha256-%s'" % digest(b"script"), source)
open(path, "w").write(source)
PY
