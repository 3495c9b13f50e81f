/// "Did you mean …?": the known word nearest a mistyped one (a command, an option, a config
/// key), by edit distance with a swap of two neighbours counting as one edit (Damerau's
/// optimal string alignment). Close enough only: at most 1 edit for words of up to 4
/// characters, 2 for longer ones, so a word unlike any gets no suggestion. Pure.
package enum Suggestion {
  /// The candidate nearest `word`, or `nil` when none is close enough (a tie: the first).
  package static func nearest(to word: String, among candidates: [String]) -> String? {
    let typed = Array(word.lowercased().unicodeScalars)
    let allowed = typed.count <= 4 ? 1 : 2
    var best: (candidate: String, distance: Int)?
    for candidate in candidates where candidate != word {
      let distance = editDistance(typed, Array(candidate.lowercased().unicodeScalars))
      if distance <= allowed, distance < best?.distance ?? .max { best = (candidate, distance) }
    }
    return best?.candidate
  }

  /// `message` with ` (did you mean 'X'?)` when a candidate is near `word`.
  package static func appending(to message: String, for word: String, among candidates: [String])
    -> String
  {
    guard let near = nearest(to: word, among: candidates) else { return message }
    return message + "; did you mean '\(near)'?"
  }

  /// Edits from `a` to `b`: insertions, deletions, substitutions and swaps of neighbours.
  static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var before = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], before[j - 2] + 1)
        }
      }
      (before, previous, current) = (previous, current, before)
    }
    return previous[b.count]
  }
}
