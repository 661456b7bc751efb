/// Writes compact JSON straight into a byte buffer, for output written in bulk.
///
/// The text is the same as ``JSONValue/jsonText`` would give for the same values, without
/// building the value first: `intent parse --jsonl` writes one result per line this way.
public struct JSONByteWriter: Sendable {
  /// The UTF-8 bytes written so far.
  public var bytes: [UInt8] = []

  /// Creates a writer whose buffer can hold `capacity` bytes before it grows.
  public init(capacity: Int = 0) {
    bytes.reserveCapacity(capacity)
  }

  /// Appends raw JSON punctuation or text known to need no escaping.
  @inline(__always)
  public mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// Appends one byte, such as `,` or a newline.
  @inline(__always)
  public mutating func byte(_ value: UInt8) { bytes.append(value) }

  /// Appends a JSON string: quoted, with the escapes ``JSONValue`` uses.
  public mutating func string(_ text: String) {
    bytes.append(0x22)
    let copied: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in
      // Most strings need no escaping: copy them whole.
      for byte in utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0xE2 {
        escape(utf8)
        return
      }
      bytes.append(contentsOf: utf8)
    }
    if copied == nil {
      var text = text
      text.withUTF8 { escape($0) }
    }
    bytes.append(0x22)
  }

  private mutating func escape(_ utf8: UnsafeBufferPointer<UInt8>) {
    let hex: [UInt8] = Array("0123456789abcdef".utf8)
    var index = 0
    while index < utf8.count {
      let byte = utf8[index]
      switch byte {
      case 0x22: bytes += [0x5C, 0x22]
      case 0x5C: bytes += [0x5C, 0x5C]
      case 0x0A: bytes += [0x5C, 0x6E]
      case 0x0D: bytes += [0x5C, 0x72]
      case 0x09: bytes += [0x5C, 0x74]
      case 0xE2
      where index + 2 < utf8.count && utf8[index + 1] == 0x80
        && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
        // U+2028 and U+2029 end lines in JavaScript.
        bytes += Array("\\u202".utf8) + [utf8[index + 2] == 0xA8 ? 0x38 : 0x39]
        index += 2
      case _ where byte < 0x20:
        bytes += [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      default: bytes.append(byte)
      }
      index += 1
    }
  }

  /// Appends a number as ``JSONValue`` formats it: integers without a fraction.
  public mutating func number(_ value: Double) {
    guard value.isFinite else {
      raw("null")
      return
    }
    if value == value.rounded(), abs(value) < 1e15 {
      integer(Int64(value))
      return
    }
    // Results round confidences and scores to four decimals: such a number is written from its
    // digits, as `description` would write it (the shortest text that reads back the same).
    if abs(value) < 1e9 {
      let scaled = (value * 10_000).rounded()
      if scaled / 10_000 == value {
        let digits = Int64(abs(scaled))
        if value < 0 { bytes.append(0x2D) }
        integer(digits / 10_000)
        bytes.append(0x2E)
        var fraction = digits % 10_000
        var divisor: Int64 = 1_000
        while fraction > 0 {
          bytes.append(0x30 + UInt8(fraction / divisor))
          fraction %= divisor
          divisor /= 10
        }
        return
      }
    }
    bytes.append(contentsOf: value.description.utf8)
  }

  /// Appends an integer in decimal.
  public mutating func integer(_ value: Int64) {
    if value < 0 { bytes.append(0x2D) }
    var magnitude = value.magnitude
    if magnitude < 10 {
      bytes.append(0x30 + UInt8(magnitude))
      return
    }
    var divisor: UInt64 = 10
    while divisor <= magnitude / 10 { divisor *= 10 }
    while divisor > 0 {
      bytes.append(0x30 + UInt8(magnitude / divisor))
      magnitude %= divisor
      divisor /= 10
    }
  }

  /// Appends any JSON value, compactly.
  public mutating func value(_ value: JSONValue) {
    switch value {
    case .null: raw("null")
    case .bool(let flag): flag ? raw("true") : raw("false")
    case .number(let number): self.number(number)
    case .string(let text): string(text)
    case .array(let items):
      byte(0x5B)
      for (index, item) in items.enumerated() {
        if index > 0 { byte(0x2C) }
        self.value(item)
      }
      byte(0x5D)
    case .object(let members):
      byte(0x7B)
      for (index, (key, item)) in members.enumerated() {
        if index > 0 { byte(0x2C) }
        string(key)
        byte(0x3A)
        self.value(item)
      }
      byte(0x7D)
    }
  }
}
