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
  /// Walks UTF-8 bytes: every delimiter is ASCII, so each cut falls on a scalar boundary, and
  /// grammar files are read on every start-up.
  static func lines(of source: String) -> [GrammarLine] {
    var result: [GrammarLine] = []
    let bytes = source.utf8
    let newline = UInt8(ascii: "\n")
    let space = UInt8(ascii: " ")
    let tab = UInt8(ascii: "\t")
    let backslash = UInt8(ascii: "\\")
    var number = 0
    var lineStart = bytes.startIndex
    while lineStart < bytes.endIndex {
      number += 1
      let lineEnd = bytes[lineStart...].firstIndex(of: newline) ?? bytes.endIndex
      defer { lineStart = lineEnd < bytes.endIndex ? bytes.index(after: lineEnd) : lineEnd }
      var start = lineStart
      if number == 1, bytes[start...].starts(with: [0xEF, 0xBB, 0xBF]) {
        start = bytes.index(start, offsetBy: 3)
      }
      var indent = 0
      var column = 1
      while start < lineEnd, bytes[start] == space || bytes[start] == tab {
        indent += bytes[start] == tab ? 2 : 1
        column += 1
        start = bytes.index(after: start)
      }
      // The content ends at a comment, then trailing spaces and a carriage return go.
      var end = start
      var previous = space
      while end < lineEnd {
        let byte = bytes[end]
        if byte == UInt8(ascii: "#"), previous == space || previous == tab || end == start { break }
        previous = byte == backslash && previous == backslash ? space : byte
        end = bytes.index(after: end)
      }
      while end > start {
        let last = bytes[bytes.index(before: end)]
        guard last == space || last == tab || last == UInt8(ascii: "\r") else { break }
        end = bytes.index(before: end)
      }
      guard start < end else { continue }
      result.append(
        GrammarLine(number: number, indent: indent, column: column, content: source[start..<end]))
    }
    return result
  }
}
