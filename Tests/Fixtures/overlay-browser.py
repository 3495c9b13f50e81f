#!/usr/bin/python3
"""Plays recorded scenes to `pulsebar overlay` and watches its page in headless Chromium.

Usage: overlay-browser.py SOCKET URL CASES OUT

SOCKET: the Unix socket to serve scenes on, as the daemon would (the overlay under test was
started with --socket SOCKET). Every connection gets the current scene as a json line 30
times a second. URL: the overlay's page with its parameters. CASES: lines of
`NAME<TAB>SCENE-JSON`; for each, the scene is played, and once the page has drawn it a
screenshot goes to OUT/NAME.png (Chromium's default background set to opaque black).

Then, on stdout, one `key value` line each:
  title_text, title_markup  what the page shows of a hostile title, and how many elements
                            its markup would have made (0: it went in as text)
  title_scrolls             1 when that long title scrolls and a short one then does not
  recovery_seconds          from a daemon's return after an outage to the page being live
  restart_overlay           asks the test to restart the overlay on its port and then create
                            OUT/restarted
  overlay_recovery_seconds  from then to the page being live again
  draw_p95_ms, frame_p95_ms 64 bars and 6 bubbles at 30 events a second, drawn at 60 Hz:
                            the page's draw time and the interval between frames (p95)
  request URL               every request the browser made (the network log)
"""
import json
import math
import os
import socket
import sys
import threading
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


class ScenePlayer:
    """A stand-in daemon: serves `self.scene` on a Unix socket, 30 lines a second."""

    def __init__(self, path):
        self.path = path
        self.scene = {}
        self.sequence = 0
        self.listener = None
        self.clients = []
        self.lock = threading.Lock()
        self.running = False

    def start(self):
        if os.path.exists(self.path):
            os.unlink(self.path)
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(self.path)
        self.listener.listen(16)
        self.running = True
        threading.Thread(target=self.accept, daemon=True).start()
        threading.Thread(target=self.send, daemon=True).start()

    def stop(self):
        self.running = False
        self.listener.close()
        os.unlink(self.path)
        with self.lock:
            for client in self.clients:
                client.close()
            self.clients = []

    def accept(self):
        listener = self.listener
        while self.running:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            client.recv(256)
            with self.lock:
                self.clients.append(client)

    def send(self):
        while self.running:
            self.sequence += 1
            scene = dict(self.scene() if callable(self.scene) else self.scene)
            scene.update(seq=self.sequence, time=self.sequence / 30)
            line = (json.dumps(scene) + "\n").encode()
            with self.lock:
                for client in list(self.clients):
                    try:
                        client.sendall(line)
                    except OSError:
                        self.clients.remove(client)
            time.sleep(1 / 30)


def browser():
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--window-size=800,400",
                     "--force-device-scale-factor=1", "--hide-scrollbars",
                     "--disable-gpu-vsync", "--no-first-run", "--disable-extensions",
                     "--disable-background-networking", "--disable-component-update",
                     "--disable-sync", "--disable-default-apps"]:
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_window_size(800, 400)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 800, "height": 400, "deviceScaleFactor": 1, "mobile": False})
    driver.execute_cdp_cmd("Emulation.setDefaultBackgroundColorOverride",
                           {"color": {"r": 0, "g": 0, "b": 0, "a": 1}})
    return driver


def wait(condition, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(math.ceil(fraction * len(ordered))) - 1)] if ordered else -1


def busy_scene():
    """64 bars and 6 bubbles that move every event."""
    now = time.monotonic()
    bars = [round(0.5 + 0.45 * math.sin(now * 3 + index / 5), 3) for index in range(64)]
    bubbles = [{"id": index, "x": round(0.3 * math.sin(now + index), 3),
                "y": round((now / 4 + index / 6) % 1, 3), "scale": 1, "alpha": 0.8, "glyph": ""}
               for index in range(6)]
    return {"state": "playing", "connected": True, "source": "test", "morph": 1,
            "bars": bars, "bubbles": bubbles, "title": "busy"}


def main():
    socket_path, url, cases_path, out = sys.argv[1:5]
    player = ScenePlayer(socket_path)
    player.scene = {"state": "stopped", "connected": True, "source": "test", "morph": 0,
                    "bars": [], "bubbles": []}
    player.start()
    driver = browser()
    try:
        driver.get(url)
        state = lambda: driver.execute_script("return document.body.dataset.state")
        if not wait(lambda: state() == "live", 10):
            print("error the page never went live", flush=True)
            return 1
        for line in open(cases_path):
            name, scene = line.rstrip("\n").split("\t", 1)
            player.scene = json.loads(scene)
            time.sleep(0.6)
            driver.get_screenshot_as_file(os.path.join(out, name + ".png"))

        hostile = '<img src=x onerror="document.title=1">&amp; <b>bold</b> \u202eevil\u202c, a title long enough to scroll past its card'
        player.scene = {"state": "playing", "connected": True, "source": "test", "morph": 1,
                        "bars": [0.5], "bubbles": [], "title": hostile, "artist": "<script>x</script>"}
        time.sleep(0.6)
        shown = driver.execute_script("return document.querySelector('#title span').textContent")
        markup = driver.execute_script("return document.querySelectorAll('#card *').length - 6")
        driver.get_screenshot_as_file(os.path.join(out, "hostile-title.png"))
        print("title_text", json.dumps(shown), flush=True)
        print("title_markup", markup, flush=True)
        print("title_matches", int(shown.startswith(hostile)), flush=True)
        scrolls = driver.execute_script("return document.getElementById('title').classList.contains('long')")
        player.scene = dict(player.scene, title="short")
        time.sleep(0.4)
        still = driver.execute_script("return document.getElementById('title').classList.contains('long')")
        print("title_scrolls", int(scrolls and not still), flush=True)

        player.stop()
        if not wait(lambda: state() == "offline", 5):
            print("error the page never showed the daemon's outage", flush=True)
        player.start()
        back = time.monotonic()
        wait(lambda: state() == "live", 10)
        print("recovery_seconds", round(time.monotonic() - back, 3), flush=True)

        # The overlay restarts (the test does it, on the same port, then creates OUT/restarted).
        print("restart_overlay now", flush=True)
        wait(lambda: state() == "offline", 10)
        marker = os.path.join(out, "restarted")
        wait(lambda: os.path.exists(marker), 20)
        back = time.monotonic()
        wait(lambda: state() == "live", 10)
        print("overlay_recovery_seconds", round(time.monotonic() - back, 3), flush=True)

        player.scene = busy_scene
        time.sleep(1)
        driver.execute_script(
            "window.frameGaps = []; let last = 0;"
            "const tick = (now) => { if (last) frameGaps.push(now - last); last = now;"
            " if (frameGaps.length < 100000) requestAnimationFrame(tick); };"
            "requestAnimationFrame(tick); pulsebarStats.draws.length = 0;")
        time.sleep(4)
        draws = driver.execute_script("return pulsebarStats.draws.slice()")
        gaps = driver.execute_script("return frameGaps.slice()")
        print("draw_p95_ms", round(percentile(draws, 0.95), 3), flush=True)
        print("frame_p95_ms", round(percentile(gaps, 0.95), 3), flush=True)
        print("frames", len(gaps), flush=True)

        for entry in driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message.get("method") == "Network.requestWillBeSent":
                print("request", message["params"]["request"]["url"], flush=True)
    finally:
        driver.quit()
        player.running = False
    return 0


if __name__ == "__main__":
    sys.exit(main())
