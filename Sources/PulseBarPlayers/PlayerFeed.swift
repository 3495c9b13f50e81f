import PulseBarCore
import PulseBarSystem

/// The hand-off from the players' thread to the engine: the active player and its track, or
/// `nil` (``Mailbox/take()`` gives `NowPlaying??`: the outer optional is "changed", the
/// inner one "a player is active").
package typealias PlayerFeed = Mailbox<NowPlaying?>
