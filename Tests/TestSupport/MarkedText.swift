/// Text with position markers (1️⃣, 2️⃣, …) removed, remembering where each marker stood.
///
/// `grammar["1️⃣"]` is `line:column` of the marker, counting columns in Unicode scalars from 1,
/// the way diagnostics do.
public struct MarkedText: Sendable {
  /// The text without markers.
  public let text: String
  private let positions: [String: (line: Int, column: Int)]

  /// Removes the markers from `source` and records their positions.
  public init(_ source: String) {
    let markers = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣"]
    var text = ""
    var positions: [String: (Int, Int)] = [:]
    var line = 1
    var column = 1
    var rest = Substring(source)
    outer: while !rest.isEmpty {
      for marker in markers where rest.hasPrefix(marker) {
        positions[marker] = (line, column)
        rest = rest.dropFirst(marker.count)
        continue outer
      }
      guard let character = rest.first else { break }
      text.append(character)
      if character == "\n" {
        line += 1
        column = 1
      } else {
        column += character.unicodeScalars.count
      }
      rest = rest.dropFirst()
    }
    self.text = text
    self.positions = positions
  }

  /// The `line:column` of a marker.
  public subscript(marker: String) -> String {
    guard let position = positions[marker] else { return "?:?" }
    return "\(position.line):\(position.column)"
  }
}
