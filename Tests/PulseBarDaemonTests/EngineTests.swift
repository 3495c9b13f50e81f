import Glibc
import PulseBarAudio
import PulseBarCore
import PulseBarPlayers
import PulseBarSystem
import Testing

@testable import PulseBarDaemon

/// The engine itself, in-process: a capture buffer a test thread fills in real time, a player
/// feed, and a delivery that records what each frame said.
@Suite struct EngineTests {
  /// Records each frame's audio time; counts the frames.
  final class Recorder: FrameDelivery {
    let wantedKeys = [ConsumerKey(format: .json, bars: 8)]
    let keysVersion: UInt64 = 0
    private(set) var times: [Double] = []

    func deliver(pipeline: FramePipeline, info: FrameInfo) -> Bool {
      times.append(info.time)
      return true
    }
  }

  /// 2 s of audio arrive in 10 ms chunks while the player's track changes every 20 ms and the
  /// capture's status every 30 ms: json `time` ends at the audio's 2 s, not later (events made
  /// frames that added wall-clock time while audio flowed), and the player changes did not
  /// make more frames than the audio did.
  @Test func timeStaysSecondsOfAudioAcrossPlayerAndStatusEvents() throws {
    let sampleRate = 48000
    let pipeline = FramePipeline(configuration: Configuration(), sampleRate: sampleRate)
    let buffer = CaptureBuffer(sampleRate: sampleRate, channels: 1)
    buffer.updateStatus {
      $0.connected = true
      $0.activity = .running
      $0.sourceName = "a"
    }
    let feed = PlayerFeed(nil)
    let recorder = Recorder()
    let engine = Engine(pipeline: pipeline, buffer: buffer, deliveries: [recorder], players: feed)
    let chunk = sampleRate / 100
    let chunks = 200
    // The capture's side, on a thread of its own as a source's is; the engine runs here.
    let writer = PosixThread.spawn { [buffer, feed] in
      var samples = [Float](repeating: 0, count: chunk)
      var written = 0
      for step in 0..<chunks {
        for index in samples.indices {
          samples[index] = 0.5 * sinf(2 * .pi * 440 * Float(written + index) / Float(sampleRate))
        }
        samples.withUnsafeBufferPointer { buffer.write($0, channels: 1) }
        written += chunk
        if step % 2 == 0 {
          feed.post(NowPlaying(player: "mpv", status: .playing, title: "Track \(step)"))
        }
        if step % 3 == 0 {
          buffer.updateStatus { $0.sourceName = step % 6 == 0 ? "b" : "a" }
        }
        usleep(10_000)
      }
      buffer.updateStatus { $0.endOfStream = true }
    }
    #expect(engine.run() == 0)
    writer.join()
    let written = chunk * chunks
    let audioSeconds = Double(written) / Double(sampleRate)
    let last = try #require(recorder.times.last)
    // A late chunk on a loaded machine may add a tick's wall-clock time; 100 player and 66
    // status events each added up to a period before.
    #expect(last <= audioSeconds + 0.1, "time \(last) after \(audioSeconds) s of audio")
    #expect(last >= audioSeconds - 2.0 / 60, "time \(last) after \(audioSeconds) s of audio")
    // 120 audio frames; a player change between two chunks is shown by rendering the frame
    // again, at most once a period (a frame for every change would be 220).
    #expect(recorder.times.count <= 170, "\(recorder.times.count) frames for 120 of audio")
  }
}
