import BuiltinGrammars
public import Foundation

/// The places the location extractor recognises, compiled into a trie of normalised surface forms.
///
/// Loaded from `.gazetteer` files (the format is described at the top of `places.gazetteer`): a Chinese
/// mention resolves to the simplified Chinese name, a Latin-script mention to the English name
/// ("Paris", "New York"), and words such as 我这儿 or "here" to the current-location marker.
/// When two places share a surface form (Suzhou is 苏州 and 宿州), the first in file order wins.
public struct Gazetteer: Sendable {
  /// One place as the file defines it.
  struct Place: Sendable, Equatable {
    var name: String
    var englishName: String
    var region: String?
    var englishRegion: String?
    var isCurrentLocation: Bool
  }

  /// A surface form's place and whether the form is written in Latin script.
  struct Form: Sendable {
    var place: Int32
    var isLatin: Bool
  }

  private(set) var places: [Place] = []
  private(set) var forms = ScalarTrie<Form>()
  /// Every normalised surface form as scalars, in file order, for the grammar compiler.
  private(set) var surfaceScalars: [[Unicode.Scalar]] = []

  /// Every normalised surface form, in file order, so the tokenizer can keep place names whole.
  public var surfaceForms: [String] {
    surfaceScalars.map { String(scalars: $0) }
  }

  /// Creates an empty gazetteer.
  public init() {}

  /// Loads one gazetteer file; `path` is how diagnostics name it.
  ///
  /// - Throws: every malformed line as `path:line:column: error: message`, all at once.
  public static func load(contentsOf url: URL, path: String) throws(GrammarError) -> Gazetteer {
    var gazetteer = Gazetteer()
    try gazetteer.add(contentsOf: url, path: path)
    return gazetteer
  }

  /// Loads the gazetteers embedded from `Grammars/shared`, in sorted file order.
  public static func builtin() throws(GrammarError) -> Gazetteer {
    var gazetteer = Gazetteer()
    for file in BuiltinGrammars.files
    where file.path.hasPrefix("shared/") && file.path.hasSuffix(".gazetteer") {
      try gazetteer.add(file.text, path: "Grammars/" + file.path)
    }
    return gazetteer
  }

  /// Parses gazetteer source text; `path` is how diagnostics name it.
  public static func parse(_ text: String, path: String) throws(GrammarError) -> Gazetteer {
    var gazetteer = Gazetteer()
    try gazetteer.add(text, path: path)
    return gazetteer
  }

  /// Adds the places of another file; a later file never replaces an earlier surface form.
  mutating func add(contentsOf url: URL, path: String) throws(GrammarError) {
    let text: String
    do {
      text = try String(contentsOf: url, encoding: .utf8)
    } catch {
      throw GrammarError(diagnostics: [
        Diagnostic(path: path, line: 1, column: 1, .unreadableGazetteer)
      ])
    }
    try add(text, path: path)
  }

  mutating func add(_ text: String, path: String) throws(GrammarError) {
    var parser = GazetteerParser(path: path)
    let parsed = parser.parse(text)
    if parser.diagnostics.contains(where: { $0.severity == .error }) {
      throw GrammarError(diagnostics: parser.diagnostics)
    }
    let normalizer = Normalizer()
    for entry in parsed {
      let index = Int32(places.count)
      places.append(entry.place)
      for surface in entry.surfaces {
        let normalized = normalizer.scalars(of: surface)
        guard let first = normalized.first else { continue }
        let form = Form(place: index, isLatin: isASCIIAlphanumeric(first.value))
        guard forms.insertIfAbsent(normalized, value: form) == nil else { continue }
        surfaceScalars.append(normalized)
      }
    }
  }

  /// The place named at `start` of normalised scalars, as its end offset and value.
  ///
  /// Latin forms match only as whole words.
  /// - Complexity: O(length of the longest surface form).
  func match(in scalars: [Unicode.Scalar], from start: Int) -> (end: Int, value: LocationValue)? {
    let first = scalars[start].value
    let isLatinStart = isASCIIAlphanumeric(first)
    if isLatinStart, start > 0, isASCIIAlphanumeric(scalars[start - 1].value) { return nil }
    let candidates = isLatinStart ? forms.matches(in: scalars, from: start) : []
    let best: (end: Int, value: Form)?
    if isLatinStart {
      best = candidates.last { match in
        match.end == scalars.count || !isASCIIAlphanumeric(scalars[match.end].value)
      }
    } else {
      best = forms.longestMatch(in: scalars, from: start)
    }
    guard let best else { return nil }
    let place = places[Int(best.value.place)]
    if place.isCurrentLocation {
      return (best.end, LocationValue(name: "here", isCurrentLocation: true))
    }
    let value =
      best.value.isLatin
      ? LocationValue(
        name: place.englishName, englishName: place.englishName, region: place.englishRegion)
      : LocationValue(name: place.name, englishName: place.englishName, region: place.region)
    return (best.end, value)
  }
}

/// Reads the line format of `.gazetteer` files.
struct GazetteerParser {
  struct Entry {
    var place: Gazetteer.Place
    var surfaces: [String]
  }

  let path: String
  private(set) var diagnostics: [Diagnostic] = []
  private var region: (String, String)?
  private var suffixes: [String] = []
  private var isCurrentSection = false
  private var seen: [String: Int] = [:]

  static let directives = ["@region", "@suffix", "@current"]

  init(path: String) { self.path = path }

  mutating func parse(_ text: String) -> [Entry] {
    var text = text
    // Bytes, not scalars: every delimiter is ASCII, and a file holds hundreds of places.
    return text.withUTF8 { parse(bytes: $0) }
  }

  private mutating func parse(bytes: UnsafeBufferPointer<UInt8>) -> [Entry] {
    var entries: [Entry] = []
    let lineCount = bytes.reduce(1) { $1 == newline ? $0 + 1 : $0 }
    // A line names at most one place; room for all of them spares rehashing the names.
    seen.reserveCapacity(seen.count + lineCount)
    entries.reserveCapacity(lineCount)
    var lineNumber = 0
    var lineStart = 0
    while lineStart <= bytes.count {
      lineNumber += 1
      var lineEnd = lineStart
      while lineEnd < bytes.count, bytes[lineEnd] != newline { lineEnd += 1 }
      defer { lineStart = lineEnd + 1 }
      var end = lineEnd
      if end > lineStart, bytes[end - 1] == carriageReturn { end -= 1 }
      if let hash = bytes[lineStart..<end].firstIndex(of: numberSign) { end = hash }
      let content = trimmed(lineStart..<end, in: bytes)
      guard !content.isEmpty else { continue }
      let column = content.lowerBound - lineStart + 1
      if bytes[content.lowerBound] == atSign {
        directive(string(content, in: bytes), line: lineNumber, column: column)
      } else if isCurrentSection {
        for alias in fields(of: content, separatedBy: comma, in: bytes) where !alias.isEmpty {
          entries.append(
            Entry(
              place: Gazetteer.Place(name: "here", englishName: "here", isCurrentLocation: true),
              surfaces: [string(alias, in: bytes)]))
        }
      } else if let entry = place(content, in: bytes, line: lineNumber, column: column) {
        entries.append(entry)
      }
    }
    return entries
  }

  private mutating func directive(_ content: String, line: Int, column: Int) {
    // Around a space, ASCII and CJK ideographs always break characters, so such a line splits
    // the same by bytes as by characters.
    let isSimple = content.unicodeScalars.allSatisfy { $0.isASCII || isCJKIdeograph($0.value) }
    let words =
      isSimple
      ? content.utf8.split(separator: space).map { String(Substring($0)) }
      : content.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    guard let name = words.first else { return }
    switch name {
    case "@region":
      guard words.count >= 3 else {
        error(line, column, .regionNeedsNames)
        return
      }
      region = (words[1], words[2...].joined(separator: " "))
      isCurrentSection = false
    case "@suffix":
      suffixes = Array(words.dropFirst())
    case "@current":
      isCurrentSection = true
    default:
      let suggestion = Diagnostic.Message.suggestion(for: name, among: Self.directives)
      error(line, column, .unknownGazetteerDirective(name, suggestion: suggestion))
    }
  }

  private mutating func place(
    _ content: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>, line: Int, column: Int
  ) -> Entry? {
    let fields = fields(of: content, separatedBy: verticalBar, in: bytes)
    guard fields.count >= 2, fields.count <= 3 else {
      error(line, column, .malformedPlace(string(content, in: bytes)))
      return nil
    }
    let name = string(fields[0], in: bytes)
    guard name.unicodeScalars.contains(where: { isCJKIdeograph($0.value) }) else {
      error(line, column, .chineseNameExpected(name))
      return nil
    }
    guard !fields[1].isEmpty, !bytes[fields[1]].contains(where: { $0 >= 0x80 }) else {
      // Columns count scalars: every byte but a UTF-8 continuation byte starts one.
      let scalarsBefore = bytes[content.lowerBound..<fields[1].lowerBound].reduce(0) {
        $1 & 0xC0 == 0x80 ? $0 : $0 + 1
      }
      error(line, column + scalarsBefore, .englishNameExpected(string(fields[1], in: bytes)))
      return nil
    }
    let english = string(fields[1], in: bytes)
    let key = name + "|" + (region?.0 ?? "")
    // One hash of the key where a lookup and a store take two; a repeat keeps the first line.
    if let first = seen.updateValue(line, forKey: key) {
      seen[key] = first
      error(line, column, .duplicatePlace(name))
      diagnostics.append(
        Diagnostic(path: path, line: first, column: 1, severity: .note, "first definition is here"))
      return nil
    }
    var surfaces: [String] = []
    surfaces.reserveCapacity(suffixes.count + 4)
    surfaces.append(name)
    for suffix in suffixes { surfaces.append(name + suffix) }
    surfaces.append(english)
    if fields.count == 3 {
      for alias in self.fields(of: fields[2], separatedBy: comma, in: bytes) where !alias.isEmpty {
        surfaces.append(string(alias, in: bytes))
      }
    }
    return Entry(
      place: Gazetteer.Place(
        name: name, englishName: english, region: region?.0, englishRegion: region?.1,
        isCurrentLocation: false),
      surfaces: surfaces)
  }

  /// The pieces of `range` between separators, each without surrounding spaces.
  private func fields(
    of range: Range<Int>, separatedBy separator: UInt8, in bytes: UnsafeBufferPointer<UInt8>
  ) -> [Range<Int>] {
    var fields: [Range<Int>] = []
    var start = range.lowerBound
    for index in range where bytes[index] == separator {
      fields.append(trimmed(start..<index, in: bytes))
      start = index + 1
    }
    fields.append(trimmed(start..<range.upperBound, in: bytes))
    return fields
  }

  private func trimmed(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
    var lower = range.lowerBound
    var upper = range.upperBound
    while lower < upper, bytes[lower] == space || bytes[lower] == tab { lower += 1 }
    while upper > lower, bytes[upper - 1] == space || bytes[upper - 1] == tab { upper -= 1 }
    return lower..<upper
  }

  private func string(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }

  private mutating func error(_ line: Int, _ column: Int, _ message: Diagnostic.Message) {
    diagnostics.append(Diagnostic(path: path, line: line, column: column, message))
  }
}

extension Diagnostic.Message {
  static let unreadableGazetteer: Self = "cannot read the gazetteer; is it UTF-8 text?"
  static let regionNeedsNames: Self =
    "'@region' needs a Chinese and an English name, such as '@region 浙江 Zhejiang'"
  static func unknownGazetteerDirective(_ name: String, suggestion: String?) -> Self {
    guard let suggestion else {
      return "unknown directive '\(name)'; use '@region', '@suffix' or '@current'"
    }
    return "unknown directive '\(name)'; did you mean '\(suggestion)'?"
  }
  static func malformedPlace(_ line: String) -> Self {
    "a place is written '中文名 | English name | aliases', not '\(line)'"
  }
  static func chineseNameExpected(_ name: String) -> Self {
    "a place starts with its Chinese name, not '\(name)'"
  }
  static func englishNameExpected(_ name: String) -> Self {
    "the second field is the English name in Latin letters, not '\(name)'"
  }
  static func duplicatePlace(_ name: String) -> Self {
    "place '\(name)' is already defined in this region"
  }
}

private let newline = UInt8(ascii: "\n")
private let carriageReturn = UInt8(ascii: "\r")
private let numberSign = UInt8(ascii: "#")
private let atSign = UInt8(ascii: "@")
private let verticalBar = UInt8(ascii: "|")
private let comma = UInt8(ascii: ",")
private let space = UInt8(ascii: " ")
private let tab = UInt8(ascii: "\t")
