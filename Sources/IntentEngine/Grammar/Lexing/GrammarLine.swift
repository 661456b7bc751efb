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
  /// Walks Unicode scalars, not characters: grammar files are read on every start-up.
  static func lines(of source: String) -> [GrammarLine] {
    var result: [GrammarLine] = []
    let scalars = source.unicodeScalars
    var number = 0
    var lineStart = scalars.startIndex
    while lineStart < scalars.endIndex || (number == 0 && scalars.isEmpty) {
      number += 1
      var lineEnd = lineStart
      while lineEnd < scalars.endIndex, scalars[lineEnd] != "\n" {
        lineEnd = scalars.index(after: lineEnd)
      }
      defer { lineStart = lineEnd < scalars.endIndex ? scalars.index(after: lineEnd) : lineEnd }
      var start = lineStart
      if number == 1, start < lineEnd, scalars[start] == "\u{FEFF}" {
        start = scalars.index(after: start)
      }
      var indent = 0
      var column = 1
      while start < lineEnd, scalars[start] == " " || scalars[start] == "\t" {
        indent += scalars[start] == "\t" ? 2 : 1
        column += 1
        start = scalars.index(after: start)
      }
      // The content ends at a comment, then trailing spaces and a carriage return go.
      var end = start
      var previous: Unicode.Scalar = " "
      while end < lineEnd {
        let scalar = scalars[end]
        if scalar == "#", previous == " " || previous == "\t" || end == start { break }
        previous = scalar == "\\" && previous == "\\" ? " " : scalar
        end = scalars.index(after: end)
      }
      while end > start {
        let last = scalars[scalars.index(before: end)]
        guard last == " " || last == "\t" || last == "\r" else { break }
        end = scalars.index(before: end)
      }
      guard start < end else {
        if scalars.isEmpty { break }
        continue
      }
      let content = Substring(scalars[start..<end])
      result.append(GrammarLine(number: number, indent: indent, column: column, content: content))
    }
    return result
  }
}
