import Glibc

/// Synthesized stereo audio (44.1 kHz, interleaved, full scale = 1) for the moments
/// users notice in the bars: silence into music, level jumps, tones. The picture
/// tests and `pulsebar-bench picture` use the same signals, so their figures agree.
///
/// Everything is deterministic: a fixed linear congruential generator makes the noise.
package enum PictureSignals {
  package static let sampleRate = 44100
  /// One step of 16-bit audio.
  package static let lsb: Float = 1.0 / 32768

  /// A music-like recording: kick, snare and hats, a plucked bass line, chords
  /// with harmonics and a lead line, 120 bpm, in 4-second sections whose level
  /// moves (verse, chorus, a break, a loud end) as a mastered track's does;
  /// loudest peaks near −1 dBFS. Its long-term spectrum falls about 4–6 dB per
  /// octave above 500 Hz, as pop music's does.
  package static func music(seconds: Double) -> [Float] {
    let frames = Int(seconds * Double(sampleRate))
    var samples = [Float](repeating: 0, count: frames * 2)
    var noise = NoiseSource(seed: 7)
    let rate = Float(sampleRate)
    let roots: [Float] = [55, 43.65, 65.41, 49]  // A1 F1 C2 G1, one per bar
    let sectionLevels: [Float] = [0.45, 1.0, 0.25, 0.8, 0.55, 1.0]
    var hatState: Float = 0
    var previousNoise: Float = 0
    for frame in 0..<frames {
      let t = Float(frame) / rate
      let beat = t * 2  // beats at 120 bpm
      let beatIndex = Int(beat)
      let inBeat = (beat - Float(beatIndex)) / 2  // seconds since the beat
      let eighth = (t * 4).truncatingRemainder(dividingBy: 1) / 4
      let bar = (beatIndex / 4) % roots.count
      let section = Int(t / 4) % sectionLevels.count
      // A level that glides between sections rather than jumping.
      let sectionT = t.truncatingRemainder(dividingBy: 4) / 4
      let next = sectionLevels[(section + 1) % sectionLevels.count]
      let level =
        sectionLevels[section] + (next - sectionLevels[section]) * max(0, sectionT - 0.9) * 10
      let white = noise.next()
      // Kick: a falling sine on every beat.
      let kickFrequency = 45 + 75 * expf(-inBeat * 30)
      var value = 0.55 * expf(-inBeat * 14) * sinf(2 * .pi * kickFrequency * inBeat)
      // Snare on beats 2 and 4: a noise burst with a 190 Hz body.
      if beatIndex % 2 == 1 {
        value += expf(-inBeat * 18) * (0.22 * white + 0.12 * sinf(2 * .pi * 190 * inBeat))
      }
      // Hats on every eighth: high-passed noise (a first difference), short.
      let highPassed = white - previousNoise
      previousNoise = white
      hatState = highPassed * expf(-eighth * 70)
      value += 0.09 * hatState
      addPitched(to: &value, t: t, inBeat: inBeat, eighth: eighth, root: roots[bar])
      value *= level * 0.72
      samples[frame * 2] = value
      samples[frame * 2 + 1] = value * 0.9 + 0.02 * level * white
    }
    return samples
  }

  /// The chords' notes over the root: a major triad two octaves up.
  private static let chordRatios: [Float] = [4, 5, 6]
  /// The lead line, one note per eighth.
  private static let lead: [Float] = [440, 523.3, 659.3, 587.3, 523.3, 440, 392, 440]

  /// Adds `music`'s pitched parts at time `t` (`inBeat` and `eighth` seconds into the beat and
  /// the eighth, over the bar's `root`) to `value`: the bass, the chords and the lead.
  private static func addPitched(
    to value: inout Float, t: Float, inBeat: Float, eighth: Float, root: Float
  ) {
    // Bass: plucked root with two harmonics.
    let pluck = expf(-inBeat * 4)
    value +=
      0.22 * pluck
      * (sinf(2 * .pi * root * t) + 0.5 * sinf(4 * .pi * root * t)
        + 0.25 * sinf(6 * .pi * root * t))
    // Chords: three notes, six harmonics each, falling 1/k, swelling on each bar.
    let swell = 0.5 + 0.5 * expf(-(t.truncatingRemainder(dividingBy: 2)) * 1.5)
    for ratio in chordRatios {
      let note = root * ratio
      for harmonic in 1...6 {
        let frequency = note * Float(harmonic)
        value += 0.035 * swell / Float(harmonic) * sinf(2 * .pi * frequency * t)
      }
    }
    // Lead: one note per eighth, with a bright third harmonic.
    let leadNote = lead[Int(t * 4) % lead.count]
    let leadEnvelope = expf(-eighth * 6)
    value +=
      0.07 * leadEnvelope
      * (sinf(2 * .pi * leadNote * t) + 0.3 * sinf(6 * .pi * leadNote * t))
  }

  /// A whole track as a player hands it over: half a second of ±1 LSB dither, a
  /// one-second quiet intro (−49 dBFS), then `seconds` of the music.
  package static func recording(seconds: Double) -> [Float] {
    noise(seconds: 0.5, peak: lsb) + quietIntro(intro: 1, music: seconds)
  }

  /// Noise uniformly spread over `±peak`, with the given seed.
  package static func noise(seconds: Double, peak: Float, seed: UInt32 = 3) -> [Float] {
    var source = NoiseSource(seed: seed)
    return (0..<(Int(seconds * Double(sampleRate)) * 2)).map { _ in source.next() * peak }
  }

  /// ±1 LSB dither (what PipeWire turns 16-bit silence into), then the music.
  package static func ditherThenMusic(silence: Double, music seconds: Double) -> [Float] {
    noise(seconds: silence, peak: lsb) + music(seconds: seconds)
  }

  /// Noise at −89 dBFS RMS whose peaks reach at most 4 LSB.
  package static func quietNoise(seconds: Double) -> [Float] {
    var source = NoiseSource(seed: 11)
    let rms = powf(10, -89 / 20)
    // Three uniform draws sum to a bell of variance 1 (each has variance ⅓), limited to ±√3.
    return (0..<(Int(seconds * Double(sampleRate)) * 2)).map { _ in
      let bell = (source.next() + source.next() + source.next())
      return min(max(bell * rms, -4 * lsb), 4 * lsb)
    }
  }

  /// The music `decibels` down for `before` seconds, then at full level.
  package static func levelStep(decibels: Float, before: Double, after: Double) -> [Float] {
    let quiet = music(seconds: before).map { $0 * powf(10, decibels / 20) }
    let loud = Array(music(seconds: before + after).dropFirst(quiet.count))
    return quiet + loud
  }

  /// A quiet intro (soft chords peaking near −49 dBFS) for `intro` seconds, then the music.
  package static func quietIntro(intro: Double, music seconds: Double) -> [Float] {
    let frames = Int(intro * Double(sampleRate))
    var samples = [Float](repeating: 0, count: frames * 2)
    let amplitude = powf(10, -49 / 20) / 3
    for frame in 0..<frames {
      let t = Float(frame) / Float(sampleRate)
      var value: Float = 0
      for note: Float in [220, 277.2, 329.6] { value += amplitude * sinf(2 * .pi * note * t) }
      samples[frame * 2] = value
      samples[frame * 2 + 1] = value
    }
    return samples + music(seconds: seconds)
  }

  /// cava's core test: a sine at `left` Hz in the left channel and `right` Hz in the
  /// right, both at 20000 of 32768 (cava's amplitude).
  package static func tones(left: Float, right: Float, seconds: Double) -> [Float] {
    let frames = Int(seconds * Double(sampleRate))
    var samples = [Float](repeating: 0, count: frames * 2)
    let amplitude: Float = 20000 / 32768
    for frame in 0..<frames {
      let t = Double(frame) / Double(sampleRate)
      samples[frame * 2] = amplitude * Float(sin(2 * Double.pi * Double(left) * t))
      samples[frame * 2 + 1] = amplitude * Float(sin(2 * Double.pi * Double(right) * t))
    }
    return samples
  }
}
