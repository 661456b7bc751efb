/// One meaningful line of a grammar file: its indentation, content and position.
struct GrammarLine: Sendable {
  /// The line number, from 1.
  var number: Int
  /// The indentation width in columns (a tab counts as 2).
  var indent: Int
  /// The column (from 1) where `content` starts.
  var column: Int
  /// The line with indentation and comment removed, trailing space trimmed.
  var content: Substring

  /// The column of `index` within `content`, counted in Unicode scalars from 1.
  func column(of index: Substring.Index) -> Int {
    column + content.unicodeScalars[content.startIndex..<index].count
  }

  /// Splits a file into meaningful lines, dropping blank lines and `#` comments.
  ///
  /// A `#` starts a comment at the start of a line or after whitespace; `\#` is a literal `#`.
  static func lines(of source: String) -> [GrammarLine] {
    var result: [GrammarLine] = []
    var number = 0
    for raw in source.split(separator: "\n", omittingEmptySubsequences: false) {
      number += 1
      var line = raw
      if line.hasSuffix("\r") { line = line.dropLast() }
      if number == 1, line.unicodeScalars.first == "\u{FEFF}" {
        line = Substring(line.unicodeScalars.dropFirst())
      }
      var indent = 0
      var column = 1
      var start = line.startIndex
      while start < line.endIndex, line[start] == " " || line[start] == "\t" {
        indent += line[start] == "\t" ? 2 : 1
        column += 1
        start = line.index(after: start)
      }
      var content = line[start...]
      if let hash = commentStart(in: content) { content = content[..<hash] }
      while let last = content.last, last == " " || last == "\t" { content = content.dropLast() }
      guard !content.isEmpty else { continue }
      result.append(GrammarLine(number: number, indent: indent, column: column, content: content))
    }
    return result
  }

  private static func commentStart(in content: Substring) -> Substring.Index? {
    var previous: Character = " "
    var index = content.startIndex
    while index < content.endIndex {
      let c = content[index]
      if c == "#", previous == " " || previous == "\t" || index == content.startIndex {
        return index
      }
      previous = c == "\\" && previous == "\\" ? " " : c
      index = content.index(after: index)
    }
    return nil
  }
}
