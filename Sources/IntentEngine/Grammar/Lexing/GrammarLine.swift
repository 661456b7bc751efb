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
    let utf8 = source.utf8
    let isContiguous = utf8.withContiguousStorageIfAvailable { bytes in
      lines(of: source, bytes: bytes, into: &result)
      return true
    }
    if isContiguous == nil {
      var copy = source
      copy.makeContiguousUTF8()
      return lines(of: copy)
    }
    return result
  }

  /// Cuts `source` into lines by offsets into its UTF-8 `bytes`.
  private static func lines(
    of source: String, bytes: UnsafeBufferPointer<UInt8>, into result: inout [GrammarLine]
  ) {
    let newline = UInt8(ascii: "\n")
    let space = UInt8(ascii: " ")
    let tab = UInt8(ascii: "\t")
    let backslash = UInt8(ascii: "\\")
    let numberSign = UInt8(ascii: "#")
    let carriageReturn = UInt8(ascii: "\r")
    let utf8 = source.utf8
    let count = bytes.count
    var lineCount = 1
    for byte in bytes where byte == newline { lineCount += 1 }
    result.reserveCapacity(lineCount)
    var number = 0
    var lineStart = 0
    while lineStart < count {
      number += 1
      var lineEnd = lineStart
      while lineEnd < count, bytes[lineEnd] != newline { lineEnd += 1 }
      defer { lineStart = lineEnd < count ? lineEnd + 1 : lineEnd }
      var start = lineStart
      if number == 1, lineEnd - start >= 3, bytes[start] == 0xEF, bytes[start + 1] == 0xBB,
        bytes[start + 2] == 0xBF
      {
        start += 3
      }
      var indent = 0
      var column = 1
      while start < lineEnd, bytes[start] == space || bytes[start] == tab {
        indent += bytes[start] == tab ? 2 : 1
        column += 1
        start += 1
      }
      // The content ends at a comment, then trailing spaces and a carriage return go.
      var end = start
      var previous = space
      while end < lineEnd {
        let byte = bytes[end]
        if byte == numberSign, previous == space || previous == tab || end == start { break }
        previous = byte == backslash && previous == backslash ? space : byte
        end += 1
      }
      while end > start {
        let last = bytes[end - 1]
        guard last == space || last == tab || last == carriageReturn else { break }
        end -= 1
      }
      guard start < end else { continue }
      let lower = utf8.index(utf8.startIndex, offsetBy: start)
      let upper = utf8.index(lower, offsetBy: end - start)
      result.append(
        GrammarLine(number: number, indent: indent, column: column, content: source[lower..<upper]))
    }
  }
}
