/// Text made safe to print on a terminal: control characters shown as escapes.
///
/// Utterances, timer labels and traces hold whatever the user typed, and an ESC or BEL printed
/// raw would drive the terminal ("\u{1B}[2J" clears it, "\u{1B}]0;…\u{07}" retitles it). Every
/// line `intent` prints goes through ``escaped(_:)``; JSON escapes these characters already, so
/// it passes through unchanged.
enum TerminalText {
  /// Returns `text` with every control character but the line feed written as `\u{1B}`.
  ///
  /// Control characters are the C0 set, DEL and the C1 set (U+0080–U+009F, where U+009B acts as
  /// ESC [ on some terminals).
  static func escaped(_ text: String) -> String {
    guard text.utf8.contains(where: isControlByte) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
      if isControl(scalar) {
        out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// Whether a UTF-8 byte may begin a control character: C0 but the line feed, DEL, or the lead
  /// byte 0xC2 of U+0080–U+00BF (checked exactly per scalar).
  private static func isControlByte(_ byte: UInt8) -> Bool {
    (byte < 0x20 && byte != 0x0A) || byte == 0x7F || byte == 0xC2
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    return (value < 0x20 && value != 0x0A) || (0x7F...0x9F).contains(value)
  }
}
