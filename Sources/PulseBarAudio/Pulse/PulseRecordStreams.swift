internal import CPulse
import PulseBarCore
import PulseBarSystem

/// The capture's libpulse record streams, as the core names them (``RecordStreamID``): opened,
/// corked, resized and closed as its actions say, and read into the ``CaptureBuffer`` (the
/// output's fragments straight in, the player's through a ``StreamMixer``, one lane each).
///
/// No policy: which stream exists, its fragment and cork, and whose fragments are kept are
/// the core's. Its streams' callbacks get the connection's `userdata` and find their stream by
/// its pointer (``id(of:)``); it holds no reference back. Confined to the mainloop's thread,
/// reached only through ``PulseConnection`` (``ThreadConfinement``, asserted in debug builds
/// where streams are made, read and freed).
final class PulseRecordStreams {
  /// One record stream: its id, the libpulse stream, its format, and its lane in the mixer
  /// (`nil` for the output's, whose fragments go straight into the buffer).
  private struct Entry {
    let id: RecordStreamID
    let stream: OpaquePointer
    let int16: Bool
    var lane: Int?
  }

  private var entries: [Entry] = []
  private var confinement = ThreadConfinement()
  let buffer: CaptureBuffer
  /// Converts the s16 fragments of every stream (one at a time: all run on this loop).
  private let converter = PulseSampleConverter()
  /// Sums the player's streams (stereo-sized; a stream may lag 50 ms behind the others).
  private let mixer: StreamMixer

  init(buffer: CaptureBuffer) {
    self.buffer = buffer
    mixer = StreamMixer(maximumLag: buffer.sampleRate / 20 * CaptureFormat.maxChannels)
    entries.reserveCapacity(PlayerCapturePlan.maximumStreams + 2)
  }

  /// The id of the stream behind a callback's stream pointer.
  func id(of stream: OpaquePointer?) -> RecordStreamID? {
    entries.first { $0.stream == stream }?.id
  }

  /// Whether `id` is one of the player's streams (mixed) rather than the output's.
  func isMixed(_ id: RecordStreamID) -> Bool {
    entries.first { $0.id == id }?.lane != nil
  }

  /// Makes and connects the stream `request` names, its callbacks set with `userdata`; `nil`
  /// on success, else why it could not. A player's stream records the monitor of its sink
  /// input's sink, limited to that sink input (`pa_stream_set_monitor_stream`, what `parec
  /// --monitor-stream` does); it gets a lane once the core lays them out (``mix(_:)``).
  func open(
    _ request: RecordRequest, on context: OpaquePointer, settings: PulseSource.Settings,
    callbacks: Callbacks, userdata: UnsafeMutableRawPointer
  ) -> String? {
    confinement.check("PulseRecordStreams")
    var spec = pa_sample_spec(
      format: PulseSampleConverter.format(int16: request.int16),
      rate: UInt32(settings.sampleRate), channels: UInt8(settings.channels))
    let (device, what): (String?, String)
    switch request.recording {
    case .source(let source): (device, what) = (source, source)
    case .serverStream(let input): (device, what) = (nil, "sink input \(input)")
    }
    let name = device == nil ? "pulsebar capture (player)" : "pulsebar capture"
    guard let stream = PulseRecordStream.new(context, name: name, spec: &spec) else {
      return "cannot create a record stream: \(PulseConnection.errorText(context))"
    }
    if case .serverStream(let input) = request.recording,
      pa_stream_set_monitor_stream(stream, input) != 0
    {
      pa_stream_unref(stream)
      return "cannot record \(what) alone"
    }
    entries.append(
      Entry(id: request.id, stream: stream, int16: request.int16, lane: device == nil ? 0 : nil))
    pa_stream_set_state_callback(stream, callbacks.state, userdata)
    pa_stream_set_read_callback(stream, callbacks.read, userdata)
    pa_stream_set_moved_callback(stream, callbacks.moved, userdata)
    var attributes = attributes(request.fragment, int16: request.int16, settings: settings)
    var flags = PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_DONT_INHIBIT_AUTO_SUSPEND.rawValue
    if request.corked { flags |= PA_STREAM_START_CORKED.rawValue }
    // The server moves streams off the old default device when the default changes
    // (PulseAudio 15+). Following the default we move ourselves anyway; a named
    // source must stay where it was asked to be.
    if request.pinned { flags |= PA_STREAM_DONT_MOVE.rawValue }
    guard
      pa_stream_connect_record(stream, device, &attributes, pa_stream_flags_t(rawValue: flags))
        >= 0
    else {
      let error = PulseConnection.errorText(context)
      close(request.id)
      return "cannot record \(what): \(error)"
    }
    return nil
  }

  /// The C callbacks a record stream calls.
  struct Callbacks {
    let state: pa_stream_notify_cb_t
    let read: pa_stream_request_cb_t
    let moved: pa_stream_notify_cb_t
  }

  /// The buffer attributes of `size` (``PulseSource/Settings/bufferAttributes(steady:bytesPerSample:graphRate:)``).
  private func attributes(_ size: FragmentSize, int16: Bool, settings: PulseSource.Settings)
    -> pa_buffer_attr
  {
    var graphRate: Int?
    if case .quantum(let rate) = size { graphRate = Int(rate) }
    return settings.bufferAttributes(
      steady: size != .onset, bytesPerSample: int16 ? 2 : 4, graphRate: graphRate)
  }

  /// Asks the server for another fragment size on `id`.
  func setFragment(_ id: RecordStreamID, _ size: FragmentSize, settings: PulseSource.Settings) {
    guard let entry = entries.first(where: { $0.id == id }) else { return }
    var attributes = attributes(size, int16: entry.int16, settings: settings)
    PulseLookups.release(pa_stream_set_buffer_attr(entry.stream, &attributes, nil, nil))
  }

  /// Corks or uncorks `id`.
  func cork(_ id: RecordStreamID, _ corked: Bool) {
    guard let entry = entries.first(where: { $0.id == id }) else { return }
    PulseLookups.release(pa_stream_cork(entry.stream, corked ? 1 : 0, nil, nil))
  }

  /// The player's streams `ids` take lanes in this order; what lanes held is dropped.
  func mix(_ ids: [RecordStreamID]) {
    mixer.reset(lanes: ids.count)
    for index in entries.indices where entries[index].lane != nil {
      entries[index].lane = ids.firstIndex(of: entries[index].id) ?? 0
    }
  }

  /// Clears `id`'s callbacks, disconnects it if it is connected or connecting, and drops our
  /// reference: it never calls back again.
  func close(_ id: RecordStreamID) {
    confinement.check("PulseRecordStreams")
    guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
    let stream = entries.remove(at: index).stream
    pa_stream_set_state_callback(stream, nil, nil)
    pa_stream_set_read_callback(stream, nil, nil)
    pa_stream_set_moved_callback(stream, nil, nil)
    let state = pa_stream_get_state(stream)
    if state == PA_STREAM_READY || state == PA_STREAM_CREATING { pa_stream_disconnect(stream) }
    pa_stream_unref(stream)
  }

  /// Closes every stream (the daemon stops).
  func closeAll() {
    for entry in entries { close(entry.id) }
  }

  /// Reads every fragment `stream` has ready: `fragment` hears of each (its id and sample
  /// frames) and says whether it is kept; kept samples go into the buffer, the player's
  /// through the mixer. Runs once per fragment while recording: allocates nothing.
  func read(
    _ stream: OpaquePointer?, channels: Int, fragment: (RecordStreamID, Int) -> Bool
  ) {
    confinement.check("PulseRecordStreams")
    guard let stream, let entry = entries.first(where: { $0.stream == stream }) else { return }
    let buffer = buffer
    let mixer = mixer
    converter.readFragments(
      of: stream, isInt16: entry.int16, channels: channels,
      keep: { frames in fragment(entry.id, frames) },
      deliver: { samples in
        guard let lane = entry.lane else {
          return buffer.write(samples, channels: channels, wakingTheReader: false)
        }
        mixer.write(samples, lane: lane) { mixed in
          buffer.write(mixed, channels: channels, wakingTheReader: false, origin: .player)
        }
      })
  }

  /// The state of a stream, for its state callback.
  func state(of stream: OpaquePointer?) -> pa_stream_state_t? {
    stream.map { pa_stream_get_state($0) }
  }

  /// The device `stream` records now (after the server moved it).
  func device(of stream: OpaquePointer?) -> String? {
    stream.flatMap { pa_stream_get_device_name($0) }.map { String(cString: $0) }
  }
}
