/// Which grammar folder each word and keyword target comes from, noted during one compile.
///
/// With one folder loaded it notes nothing and makes no ``FolderLexicon``: segmentation over the
/// whole lexicon is then that folder's own.
struct FolderWords {
  /// Source path → folder index.
  private let folderOfPath: [String: Int]
  /// Folder names, in load order.
  private let names: [String]
  /// The folder being compiled.
  private var current = 0
  /// Per folder, the entries its sources name.
  private var words: [[Int32]]
  /// (entry, target, folder) for every keyword or exclude a folder writes.
  private var written: Set<WrittenTarget> = []
  /// Patterns with a placeholder, of folders loaded after the first, and their folders.
  private var patterns: [(pattern: PatternSyntax, folder: Int)] = []

  private struct WrittenTarget: Hashable {
    var entry: Int32
    var kind: KeywordTarget.Kind
    var intent: Int32
    var index: Int32
    var folder: Int
  }

  init(_ sources: [GrammarSource]) {
    var names: [String] = []
    var folderOfPath: [String: Int] = [:]
    for source in sources {
      let index = names.firstIndex(of: source.folder) ?? names.count
      if index == names.count { names.append(source.folder) }
      folderOfPath[source.path] = index
    }
    self.names = names
    self.folderOfPath = folderOfPath
    self.words = Array(repeating: [], count: names.count)
  }

  private var isNoting: Bool { names.count > 1 }

  /// Makes the folder of the file at `path` the one that words and targets are noted for.
  mutating func enter(_ path: String) {
    current = folderOfPath[path] ?? 0
  }

  /// Notes that the current folder names the word of `entry`.
  mutating func noteWord(_ entry: Int32) {
    guard isNoting else { return }
    words[current].append(entry)
  }

  /// Notes that the current folder makes the word of `entry` count for `target`.
  mutating func noteTarget(_ target: KeywordTarget, of entry: Int32) {
    guard isNoting else { return }
    written.insert(
      WrittenTarget(
        entry: entry, kind: target.kind, intent: target.intent, index: target.index,
        folder: current))
  }

  /// Notes a pattern of the current folder, to check its words against other folders' words.
  mutating func notePattern(_ pattern: PatternSyntax) {
    guard isNoting, current > 0, pattern.source.contains("{") else { return }
    patterns.append((pattern, current))
  }

  /// Warnings for keywords in a later folder's patterns that sit inside a longer word of another
  /// folder, which segmentation keeps whole: a slot or free text cannot end or start there.
  ///
  /// Keywords are found inside such words (``Scorer/folderHits(in:entities:besides:)``); a
  /// pattern's placeholder still needs a token boundary where it meets a word.
  func hiddenPatternWords(
    lexicon: Lexicon, normalize: (String) -> [Unicode.Scalar]
  ) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    for (pattern, folder) in patterns {
      let own = Set(words[folder])
      let keywords = Set(written.lazy.filter { $0.folder == folder }.map(\.entry))
      for (word, offset) in Self.plainWords(in: pattern.source) {
        // Only the folder's own keywords: function words ("的", "把") sit inside many words.
        let form = normalize(word)
        guard let entry = lexicon.entry(for: form), keywords.contains(entry) else { continue }
        var hiders: [(word: String, folder: Int)] = []
        var seen: Set<Int32> = []
        for other in names.indices where other != folder {
          for entry in words[other] where !own.contains(entry) && seen.insert(entry).inserted {
            let scalars = Array(lexicon.word(entry).unicodeScalars)
            if scalars.count > form.count, Self.contains(scalars, form) {
              hiders.append((lexicon.word(entry), other))
            }
          }
        }
        hiders.sort { ($0.folder, $0.word) < ($1.folder, $1.word) }
        guard let first = hiders.first else { continue }
        let shown = hiders.prefix(3).filter { $0.folder == first.folder }.map(\.word)
        var position = pattern.position
        position.column += offset
        diagnostics.append(
          position.diagnostic(
            .hiddenPatternWord(word, inside: shown, of: names[first.folder]),
            severity: .warning))
      }
    }
    return diagnostics
  }

  /// The plain CJK words of a pattern and their scalar offsets, outside placeholders and lists.
  static func plainWords(in source: String) -> [(word: String, offset: Int)] {
    var result: [(word: String, offset: Int)] = []
    var current = ""
    var start = 0
    var skipping = false
    for (offset, scalar) in source.unicodeScalars.enumerated() {
      let isWord = scalar.value >= 0x2E80 && !skipping
      if isWord {
        if current.isEmpty { start = offset }
        current.unicodeScalars.append(scalar)
        continue
      }
      if !current.isEmpty { result.append((current, start)) }
      current = ""
      if scalar == "{" || scalar == "@" { skipping = true }
      if scalar == "}" || (scalar == " " || scalar == "|" || scalar == ")" || scalar == "]") {
        skipping = false
      }
    }
    if !current.isEmpty { result.append((current, start)) }
    return result
  }

  private static func contains(_ word: [Unicode.Scalar], _ part: [Unicode.Scalar]) -> Bool {
    guard part.count <= word.count else { return false }
    for start in 0...(word.count - part.count)
    where word[start..<(start + part.count)].elementsEqual(part) {
      return true
    }
    return false
  }

  /// Builds each folder's lexicon, adding an alias entry wherever a folder gives a word only some
  /// of its targets, and extending the per-entry arrays to cover the aliases.
  ///
  /// Every folder also segments by the `gazetteer`'s place names, as when it is loaded alone;
  /// `weight` gives a keyword group target's weight. Returns no lexicons for a single folder.
  mutating func makeLexicons(
    lexicon: inout Lexicon, targets: inout [[KeywordTarget]], roles: inout [EntryRole],
    strongestWeight: inout [Double], gazetteer: [[Unicode.Scalar]],
    weight: (KeywordTarget) -> Double
  ) -> [FolderLexicon] {
    guard isNoting else { return [] }
    var result: [FolderLexicon] = []
    for (folder, name) in names.enumerated() {
      var own = FolderLexicon(folder: name)
      func add(_ scalars: [Unicode.Scalar], entry: Int32) {
        let local = own.lexicon.add(scalars)
        if Int(local) == own.entries.count { own.entries.append(entry) }
      }
      for entry in words[folder].sorted()
      where own.lexicon.entry(for: lexicon.word(entry).unicodeScalars) == nil {
        let mine = targets[Int(entry)].filter {
          written.contains(
            WrittenTarget(
              entry: entry, kind: $0.kind, intent: $0.intent, index: $0.index, folder: folder))
        }
        var meaning: Int32 = -1
        if mine.count == targets[Int(entry)].count, !mine.isEmpty {
          meaning = entry
        } else if !mine.isEmpty {
          meaning = lexicon.addAlias(of: entry)
          targets.append(mine)
          roles.append(.keyword)
          strongestWeight.append(
            mine.lazy.filter { $0.kind == .group }.map(weight).max() ?? 0)
        }
        add(Array(lexicon.word(entry).unicodeScalars), entry: meaning)
      }
      for word in gazetteer { add(word, entry: -1) }
      result.append(own)
    }
    return result
  }
}

extension Diagnostic.Message {
  static func hiddenPatternWord(_ word: String, inside hiders: [String], of folder: String) -> Self
  {
    let quoted = hiders.map { "'\($0)'" }.joined(separator: ", ")
    let whole = hiders.count == 1 ? "word \(quoted), which stays" : "words \(quoted), which stay"
    return
      "pattern word '\(word)' is inside '\(folder)' \(whole) whole when text is split; a slot or free text that meets '\(word)' there does not match; add a pattern that names '\(hiders[0])'"
  }
}
