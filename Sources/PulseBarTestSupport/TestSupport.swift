/// Helpers shared by the test targets: a private PulseAudio server, child processes.
/// (Filled in by the PulseAudio capture work.)
public enum TestSupport {}
