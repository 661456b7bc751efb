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

  /// Builds each folder's lexicon, adding an alias entry wherever a folder gives a word only some
  /// of its targets, and extending the per-entry arrays to cover the aliases.
  ///
  /// - Parameters:
  ///   - gazetteer: place names, which every folder segments by, as when it is loaded alone.
  ///   - weight: the weight of a keyword group target.
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
      for entry in words[folder].sorted() where own.lexicon.entry(for: lexicon.word(entry).unicodeScalars) == nil {
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
