/// Reads `text`, `now` and `tz` from a one-line JSON object without building the object.
///
/// The bulk pipe reads fixture-shaped lines (`{"text": …, "intent": …, "slots": {…}}`) far faster
/// this way. The scanner validates the whole line as JSON; whenever it meets something it does
/// not decode itself (an escape in a field it needs, a duplicate field, deep nesting), it gives
/// up and the line goes through the full parser, so answers and messages stay the same.
struct JSONLineScanner {
  /// The fields read from a line.
  struct Fields {
    var text: String
    var now: String?
    var timeZone: String?
  }

  /// The keys of ``Fields``' members, in the order `text`, `now`, `tz`.
  private static let fieldKeys: [[UInt8]] = [
    Array("text".utf8), Array("now".utf8), Array("tz".utf8),
  ]

  /// Deepest nesting scanned; deeper lines go to the full parser.
  static let maximumDepth = 32

  private let bytes: ArraySlice<UInt8>
  private var index: Int

  private init(_ bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    self.index = bytes.startIndex
  }

  /// The fields of `line`, or nil when the full parser must read it.
  static func fields(in line: ArraySlice<UInt8>) -> Fields? {
    var scanner = JSONLineScanner(line)
    return scanner.object()
  }

  private mutating func object() -> Fields? {
    skipSpace()
    guard next() == UInt8(ascii: "{") else { return nil }
    // The three fields, by their keys' bytes: no string is made for a key the pipe skips.
    var text: String?
    var now: String?
    var zone: String?
    var seen: UInt8 = 0
    skipSpace()
    if peek() == UInt8(ascii: "}") {
      index += 1
    } else {
      while true {
        skipSpace()
        guard let key = plainString() else { return nil }
        skipSpace()
        guard next() == UInt8(ascii: ":") else { return nil }
        skipSpace()
        if let field = Self.fieldKeys.firstIndex(where: { key.elementsEqual($0) }) {
          guard seen & (1 << field) == 0 else { return nil }
          seen |= 1 << field
          if peek() == UInt8(ascii: "\"") {
            guard let value = plainString() else { return nil }
            let decoded = String(decoding: value, as: UTF8.self)
            switch field {
            case 0: text = decoded
            case 1: now = decoded
            default: zone = decoded
            }
          } else {
            guard field != 0, skipValue(depth: 1) else { return nil }
          }
        } else {
          guard skipValue(depth: 1) else { return nil }
        }
        skipSpace()
        let separator = next()
        if separator == UInt8(ascii: "}") { break }
        guard separator == UInt8(ascii: ",") else { return nil }
      }
    }
    skipSpace()
    guard index == bytes.endIndex, let text else { return nil }
    return Fields(text: text, now: now, timeZone: zone)
  }

  /// Whether `bytes` is well-formed UTF-8 (no overlong forms, surrogates or values past
  /// U+10FFFF), checked without making a string.
  static func isValidUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
    var index = bytes.startIndex
    let end = bytes.endIndex
    while index < end {
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      let length: Int
      var lower: UInt8 = 0x80
      var upper: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0: (length, lower) = (3, 0xA0)
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED: (length, upper) = (3, 0x9F)
      case 0xF0: (length, lower) = (4, 0x90)
      case 0xF1...0xF3: length = 4
      case 0xF4: (length, upper) = (4, 0x8F)
      default: return false
      }
      guard end - index >= length, (lower...upper).contains(bytes[index + 1]) else { return false }
      for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) {
        return false
      }
      index += length
    }
    return true
  }

  private func peek() -> UInt8? { index < bytes.endIndex ? bytes[index] : nil }

  private mutating func next() -> UInt8? {
    guard index < bytes.endIndex else { return nil }
    defer { index += 1 }
    return bytes[index]
  }

  private mutating func skipSpace() {
    while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
      index += 1
    }
  }

  /// A string with no escapes, as its raw bytes; nil for an escape, a control byte or no string.
  private mutating func plainString() -> ArraySlice<UInt8>? {
    guard next() == UInt8(ascii: "\"") else { return nil }
    let start = index
    while let byte = next() {
      if byte == UInt8(ascii: "\"") { return bytes[start..<(index - 1)] }
      if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
    }
    return nil
  }

  /// Skips any string, checking its escapes.
  private mutating func skipString() -> Bool {
    guard next() == UInt8(ascii: "\"") else { return false }
    while let byte = next() {
      switch byte {
      case UInt8(ascii: "\""): return true
      case UInt8(ascii: "\\"):
        guard let escaped = next() else { return false }
        if escaped == UInt8(ascii: "u") {
          for _ in 0..<4 {
            guard let digit = next(), Self.isHexDigit(digit) else { return false }
          }
        } else if !"\"\\/bfnrt".utf8.contains(escaped) {
          return false
        }
      case _ where byte < 0x20: return false
      default: continue
      }
    }
    return false
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
  }

  private mutating func skipValue(depth: Int) -> Bool {
    guard depth <= Self.maximumDepth, let byte = peek() else { return false }
    switch byte {
    case UInt8(ascii: "\""): return skipString()
    case UInt8(ascii: "{"):
      index += 1
      skipSpace()
      if peek() == UInt8(ascii: "}") {
        index += 1
        return true
      }
      while true {
        skipSpace()
        guard skipString() else { return false }
        skipSpace()
        guard next() == UInt8(ascii: ":") else { return false }
        skipSpace()
        guard skipValue(depth: depth + 1) else { return false }
        skipSpace()
        let separator = next()
        if separator == UInt8(ascii: "}") { return true }
        guard separator == UInt8(ascii: ",") else { return false }
      }
    case UInt8(ascii: "["):
      index += 1
      skipSpace()
      if peek() == UInt8(ascii: "]") {
        index += 1
        return true
      }
      while true {
        skipSpace()
        guard skipValue(depth: depth + 1) else { return false }
        skipSpace()
        let separator = next()
        if separator == UInt8(ascii: "]") { return true }
        guard separator == UInt8(ascii: ",") else { return false }
      }
    case UInt8(ascii: "t"): return skipWord("true")
    case UInt8(ascii: "f"): return skipWord("false")
    case UInt8(ascii: "n"): return skipWord("null")
    default: return skipNumber()
    }
  }

  private mutating func skipWord(_ word: StaticString) -> Bool {
    word.withUTF8Buffer { expected in
      for byte in expected {
        guard next() == byte else { return false }
      }
      return true
    }
  }

  /// Skips `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
  private mutating func skipNumber() -> Bool {
    func isDigit(_ byte: UInt8?) -> Bool { byte.map { (0x30...0x39).contains($0) } ?? false }
    if peek() == UInt8(ascii: "-") { index += 1 }
    if peek() == UInt8(ascii: "0") {
      index += 1
    } else {
      guard isDigit(peek()) else { return false }
      while isDigit(peek()) { index += 1 }
    }
    if peek() == UInt8(ascii: ".") {
      index += 1
      guard isDigit(peek()) else { return false }
      while isDigit(peek()) { index += 1 }
    }
    if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
      index += 1
      if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
      guard isDigit(peek()) else { return false }
      while isDigit(peek()) { index += 1 }
    }
    return true
  }
}
