/// Finds the known name a misspelt one was probably meant to be, for "did you mean" hints.
public enum Spelling {
  /// The candidate closest to `name` by edit distance, if close enough to be a typo.
  public static func suggestion(for name: String, among candidates: some Sequence<String>)
    -> String?
  {
    var best: (String, Int)?
    for candidate in candidates {
      let distance = editDistance(name, candidate)
      let allowed = max(1, min(2, candidate.unicodeScalars.count / 3))
      if distance <= allowed,
        distance < (best?.1 ?? .max) || (distance == best?.1 && candidate < (best?.0 ?? ""))
      {
        best = (candidate, distance)
      }
    }
    return best?.0
  }

  /// The Levenshtein distance between two strings, in Unicode scalars.
  public static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars)
    let b = Array(b.unicodeScalars)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        current[j] = min(
          previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
