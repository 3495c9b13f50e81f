#!/usr/bin/python3
"""A hostile or buggy MPRIS player for pulsebar's tests (python3-dbus, python3-gi).

Owns org.mpris.MediaPlayer2.<name> on the session bus (DBUS_SESSION_BUS_ADDRESS) and answers
org.freedesktop.DBus.Properties and org.mpris.MediaPlayer2.Player on /org/mpris/MediaPlayer2,
misbehaving as its options say. It prints one line per event on stdout ("ready", "released",
"called PlayPause", "called Seek -10000000", "called SetPosition /org/pulsebar/track/1 83000000",
"set Volume 0.45", "flood done N", "churn done N") so a test can follow it.

With --commands it also obeys lines on stdin, as a real player follows its user: "status S"
(Playing, Paused, Stopped: the --play child stops unless playing, as a player's stream does,
or with --keep-playing plays on, so only the status changes)
"title T" (a new track) and "art URL" (a new track's mpris:artUrl); each is announced
with PropertiesChanged and answered "done".
"""

import argparse
import math
import subprocess
import sys
import time

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

PREFIX = "org.mpris.MediaPlayer2."
PLAYER = "org.mpris.MediaPlayer2.Player"
PROPERTIES = "org.freedesktop.DBus.Properties"
PATH = "/org/mpris/MediaPlayer2"


def say(line):
    print(line, flush=True)


def parse():
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", default="fake")
    parser.add_argument("--status", default="Playing")
    parser.add_argument("--title", default="Fake Song")
    parser.add_argument("--title-bytes", type=int, default=0, help="a title this many bytes long")
    parser.add_argument("--artists", type=int, default=1, help="this many artists")
    parser.add_argument("--keys", type=int, default=0, help="this many unknown metadata keys")
    parser.add_argument("--length", default=None, help="mpris:length's value")
    parser.add_argument("--length-type", default="x", help="its D-Bus type: x, t, i, d or s")
    parser.add_argument("--ghost", action="store_true",
                        help="release the name on GetAll, answer 0.1 s later")
    parser.add_argument("--hang", action="store_true", help="never answer a method call")
    parser.add_argument("--answer-after", type=float, default=0,
                        help="answer no GetAll or Get for this many seconds after start")
    parser.add_argument("--flood", type=int, default=0, help="PropertiesChanged per second")
    parser.add_argument("--flood-seconds", type=float, default=0)
    parser.add_argument("--report-calls", action="store_true",
                        help='say "GetAll" or "Get NAME" at each property call')
    parser.add_argument("--invalidate", action="store_true",
                        help="the flood says Metadata changed without its value")
    parser.add_argument("--churn", type=int, default=0, help="names taken and released per second")
    parser.add_argument("--churn-seconds", type=float, default=0)
    parser.add_argument("--position", type=int, default=None, help="Position, microseconds")
    parser.add_argument("--rate", type=float, default=None, help="Rate")
    parser.add_argument("--volume", type=float, default=None, help="Volume (1 is 100 %%)")
    parser.add_argument("--hang-set", action="store_true",
                        help="answer Get and GetAll, never Set or a Player method")
    parser.add_argument("--seek-after", type=float, default=0,
                        help="seconds after start to emit Seeked(--seek-to)")
    parser.add_argument("--seek-to", type=int, default=0)
    parser.add_argument("--toggle-every", type=float, default=0,
                        help="seconds between PropertiesChanged(PlaybackStatus) Playing <-> Paused")
    parser.add_argument("--artist", default=None, help="the one artist (else Artist 0, 1, …)")
    parser.add_argument("--commands", action="store_true", help="obey status/title lines on stdin")
    parser.add_argument("--art-url", default=None, help="mpris:artUrl (file://, data:, http…)")
    parser.add_argument("--play", default=None,
                        help="an audio file a child process (paplay) plays, as a wrapper's player does")
    parser.add_argument("--keep-playing", action="store_true",
                        help="the --play child plays on whatever the status says")
    return parser.parse_args()


def length_value(options):
    if options.length is None:
        return None
    kind = options.length_type
    if kind == "x":
        return dbus.Int64(int(options.length))
    if kind == "t":
        return dbus.UInt64(int(options.length))
    if kind == "i":
        return dbus.Int32(int(options.length))
    if kind == "d":
        return dbus.Double(float(options.length))
    return dbus.String(options.length)


def metadata(options, title=None):
    if title is None:
        title = "x" * options.title_bytes if options.title_bytes else options.title
    values = {
        "mpris:trackid": dbus.ObjectPath("/org/pulsebar/track/1"),
        "xesam:title": dbus.String(title),
        "xesam:artist": dbus.Array(
            [dbus.String(options.artist)] if options.artist else
            [dbus.String("Artist %d" % i) for i in range(options.artists)], signature="s"),
        "xesam:album": dbus.String("Album"),
    }
    if options.art_url:
        values["mpris:artUrl"] = dbus.String(options.art_url)
    for index in range(options.keys):
        values["pulsebar:junk%d" % index] = dbus.String("junk")
    length = length_value(options)
    if length is not None:
        values["mpris:length"] = length
    return dbus.Dictionary(values, signature="sv")


class Player(dbus.service.Object):
    """The player object; its replies may be late, or never come."""

    def __init__(self, bus, options):
        super().__init__(bus, PATH)
        self.bus = bus
        self.options = options
        self.status = options.status
        self.metadata = metadata(options)
        self.names = []
        self.started = time.monotonic()
        self.born = self.started

    def silent(self):
        """Whether a property call goes unanswered now (--hang, or before --answer-after)."""
        if self.options.hang:
            return True
        return time.monotonic() - self.born < self.options.answer_after

    def properties(self):
        values = {
            "PlaybackStatus": dbus.String(self.status),
            "Metadata": self.metadata,
            "CanControl": dbus.Boolean(True),
        }
        if self.options.position is not None:
            # Where playback is now, as a real player answers: moving while playing.
            position = self.options.position
            if self.status == "Playing":
                moved = (time.monotonic() - self.started) * 1e6 * (self.options.rate or 1)
                position += int(moved) if math.isfinite(moved) else 0
            # Whatever the options say, the value sent is an x: clamped to Int64.
            values["Position"] = dbus.Int64(max(-(1 << 63), min((1 << 63) - 1, position)))
        if self.options.rate is not None:
            values["Rate"] = dbus.Double(self.options.rate)
        if self.options.volume is not None:
            values["Volume"] = dbus.Double(self.options.volume)
        return dbus.Dictionary(values, signature="sv")

    @dbus.service.signal(PLAYER, signature="x")
    def Seeked(self, position):
        pass

    def toggle(self):
        """Playing <-> Paused, said in PropertiesChanged with the status alone."""
        self.status = "Paused" if self.status == "Playing" else "Playing"
        self.PropertiesChanged(PLAYER, dbus.Dictionary(
            {"PlaybackStatus": dbus.String(self.status)}, signature="sv"),
            dbus.Array([], signature="s"))
        say("toggled " + self.status)
        return True

    def seek(self):
        self.options.position = self.options.seek_to
        self.started = time.monotonic()
        self.Seeked(dbus.Int64(self.options.seek_to))
        say("seeked")
        return False

    @dbus.service.method(PROPERTIES, in_signature="s", out_signature="a{sv}",
                         async_callbacks=("reply", "error"))
    def GetAll(self, interface, reply, error):
        if self.options.report_calls:
            say("GetAll")
        if self.silent():
            say("ignored GetAll")
            return
        if interface != PLAYER:
            reply(dbus.Dictionary({}, signature="sv"))
            return
        if self.options.ghost:
            for name in self.names:
                self.bus.release_name(name)
            say("released")
            GLib.timeout_add(100, lambda: reply(self.properties()) and False)
            return
        if self.options.churn:
            GLib.timeout_add(100, lambda: reply(self.properties()) and False)
            return
        reply(self.properties())

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v",
                         async_callbacks=("reply", "error"))
    def Get(self, interface, name, reply, error):
        if self.options.report_calls:
            say("Get " + name)
        if self.silent():
            return
        reply(self.properties().get(name, dbus.String("")))

    @dbus.service.method(PROPERTIES, in_signature="ssv", out_signature="",
                         async_callbacks=("reply", "error"))
    def Set(self, interface, name, value, reply, error):
        if self.options.hang or self.options.hang_set:
            return
        if interface != PLAYER or name != "Volume":
            error(dbus.exceptions.DBusException(
                "not writable", name="org.freedesktop.DBus.Error.PropertyReadOnly"))
            return
        self.options.volume = float(value)
        say("set Volume %g" % self.options.volume)
        reply()
        self.PropertiesChanged(PLAYER, dbus.Dictionary(
            {"Volume": dbus.Double(self.options.volume)}, signature="sv"),
            dbus.Array([], signature="s"))

    @dbus.service.signal(PROPERTIES, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass

    def control(self, member, reply):
        if self.options.hang or self.options.hang_set:
            return
        say("called " + member)
        reply()

    @dbus.service.method(PLAYER, in_signature="x", async_callbacks=("reply", "error"))
    def Seek(self, offset, reply, error):
        self.control("Seek %d" % offset, reply)

    @dbus.service.method(PLAYER, in_signature="ox", async_callbacks=("reply", "error"))
    def SetPosition(self, track, position, reply, error):
        self.control("SetPosition %s %d" % (track, position), reply)

    @dbus.service.method(PLAYER, async_callbacks=("reply", "error"))
    def PlayPause(self, reply, error):
        self.control("PlayPause", reply)

    @dbus.service.method(PLAYER, async_callbacks=("reply", "error"))
    def Play(self, reply, error):
        self.control("Play", reply)

    @dbus.service.method(PLAYER, async_callbacks=("reply", "error"))
    def Pause(self, reply, error):
        self.control("Pause", reply)

    @dbus.service.method(PLAYER, async_callbacks=("reply", "error"))
    def Next(self, reply, error):
        self.control("Next", reply)

    @dbus.service.method(PLAYER, async_callbacks=("reply", "error"))
    def Previous(self, reply, error):
        self.control("Previous", reply)


def flood(player, options):
    """PropertiesChanged at options.flood a second, in 10 ms batches, for options.flood_seconds."""
    start = time.monotonic()
    state = {"sent": 0}
    say("flood start")
    per_batch = max(1, options.flood // 100)

    def batch():
        elapsed = time.monotonic() - start
        if elapsed >= options.flood_seconds:
            say("flood done %d" % state["sent"])
            return False
        due = int(elapsed * options.flood) + per_batch
        while state["sent"] < due:
            state["sent"] += 1
            if options.invalidate:
                player.PropertiesChanged(PLAYER, dbus.Dictionary({}, signature="sv"),
                                         dbus.Array(["Metadata"], signature="s"))
            else:
                player.metadata = metadata(options, "Flood %d" % state["sent"])
                player.PropertiesChanged(PLAYER, dbus.Dictionary(
                    {"Metadata": player.metadata}, signature="sv"),
                    dbus.Array([], signature="s"))
        return True

    GLib.timeout_add(10, batch)


def churn(bus, options):
    """Takes a new name and releases it, options.churn a second for options.churn_seconds."""
    start = time.monotonic()
    state = {"count": 0}

    def step():
        if time.monotonic() - start >= options.churn_seconds:
            say("churn done %d" % state["count"])
            return False
        name = "%s%s.n%d" % (PREFIX, options.name, state["count"])
        bus.request_name(name, dbus.bus.NAME_FLAG_DO_NOT_QUEUE)
        GLib.timeout_add(30, lambda: bus.release_name(name) and False)
        state["count"] += 1
        return True

    GLib.timeout_add(max(1, 1000 // options.churn), step)


def obey(player, options, state):
    """Follows "status S" and "title T" lines on stdin (--commands); see the docstring."""

    def status(value):
        if options.position is not None and player.status == "Playing":
            player.options.position += int((time.monotonic() - player.started) * 1e6)
        player.started = time.monotonic()
        player.status = value
        child = state.get("child")
        if value != "Playing" and child is not None and not options.keep_playing:
            child.kill()
            child.wait()
            state["child"] = None
        elif value == "Playing" and child is None and options.play:
            state["child"] = subprocess.Popen(["paplay", options.play])
        player.PropertiesChanged(PLAYER, dbus.Dictionary(
            {"PlaybackStatus": dbus.String(value)}, signature="sv"), dbus.Array([], signature="s"))

    def title(value):
        player.metadata = metadata(options, value)
        player.PropertiesChanged(PLAYER, dbus.Dictionary(
            {"Metadata": player.metadata}, signature="sv"), dbus.Array([], signature="s"))

    def line(source, condition):
        text = sys.stdin.readline()
        if not text:
            return False
        command, _, value = text.rstrip("\n").partition(" ")
        if command == "status":
            status(value)
        elif command == "title":
            title(value)
        elif command == "art":
            options.art_url = value
            title(player.metadata["xesam:title"])
        say("done " + command)
        return True

    GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, line)


def main():
    options = parse()
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    player = Player(bus, options)
    if options.churn:
        churn(bus, options)
    else:
        name = PREFIX + options.name
        bus.request_name(name, dbus.bus.NAME_FLAG_DO_NOT_QUEUE)
        player.names.append(name)
    if options.play:
        # The audio comes from a child, as from a wrapper script's player or a browser's
        # audio service: its stream names the child's PID, whose parent owns the bus name.
        child = subprocess.Popen(["paplay", options.play])
        say("playing %d" % child.pid)
        state = {"child": child}
    else:
        state = {"child": None}
    if options.commands:
        obey(player, options, state)
    say("ready")
    if options.flood:
        GLib.timeout_add(300, lambda: flood(player, options) and False)
    if options.seek_after:
        GLib.timeout_add(int(options.seek_after * 1000), player.seek)
    if options.toggle_every:
        GLib.timeout_add(int(options.toggle_every * 1000), player.toggle)
    GLib.MainLoop().run()


if __name__ == "__main__":
    sys.exit(main())
