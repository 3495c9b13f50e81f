@_exported import PulseBarAudio
@_exported import PulseBarCore
