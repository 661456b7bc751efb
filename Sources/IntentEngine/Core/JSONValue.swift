public import Foundation

/// A JSON document as a value: what slots, results and traces are rendered into.
///
/// Object keys keep insertion order so that output is identical from run to run.
public enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.number(let a), .number(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)):
      a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    default: false
    }
  }

  /// The member named `key` of an object, or nil.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.0 == key }?.1
  }

  /// The string payload, or nil for other kinds.
  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// The numeric payload, or nil for other kinds.
  public var numberValue: Double? {
    if case .number(let n) = self { return n }
    return nil
  }

  /// Compact JSON text, with keys in insertion order and integral numbers without a fraction.
  public var jsonText: String {
    var out = ""
    write(to: &out, indent: nil, level: 0)
    return out
  }

  /// Indented JSON text for people.
  public var prettyJSONText: String {
    var out = ""
    write(to: &out, indent: "  ", level: 0)
    return out
  }

  /// Parses JSON text; throws when it is not valid JSON.
  public init(parsing data: Data) throws {
    let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    self = JSONValue(foundation: object)
  }

  /// Converts a value produced by `JSONSerialization`.
  public init(foundation object: Any) {
    switch object {
    case let s as String: self = .string(s)
    case let n as NSNumber:
      #if canImport(Darwin)
        if CFGetTypeID(n) == CFBooleanGetTypeID() {
          self = .bool(n.boolValue)
          return
        }
      #else
        if String(cString: n.objCType) == "c" {
          self = .bool(n.boolValue)
          return
        }
      #endif
      self = .number(n.doubleValue)
    case let a as [Any]: self = .array(a.map(JSONValue.init(foundation:)))
    case let d as [String: Any]:
      self = .object(d.keys.sorted().map { ($0, JSONValue(foundation: d[$0] ?? NSNull())) })
    default: self = .null
    }
  }

  private func write(to out: inout String, indent: String?, level: Int) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let n): out += Self.format(n)
    case .string(let s): Self.writeEscaped(s, to: &out)
    case .array(let items):
      if items.isEmpty {
        out += "[]"
        return
      }
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += "," }
        newline(&out, indent, level + 1)
        item.write(to: &out, indent: indent, level: level + 1)
      }
      newline(&out, indent, level)
      out += "]"
    case .object(let members):
      if members.isEmpty {
        out += "{}"
        return
      }
      out += "{"
      for (i, (key, value)) in members.enumerated() {
        if i > 0 { out += "," }
        newline(&out, indent, level + 1)
        Self.writeEscaped(key, to: &out)
        out += indent == nil ? ":" : ": "
        value.write(to: &out, indent: indent, level: level + 1)
      }
      newline(&out, indent, level)
      out += "}"
    }
  }

  private func newline(_ out: inout String, _ indent: String?, _ level: Int) {
    guard let indent else { return }
    out += "\n"
    for _ in 0..<level { out += indent }
  }

  /// Formats a number as JSON: integers without a fraction, others with up to 6 significant decimals.
  static func format(_ n: Double) -> String {
    guard n.isFinite else { return "null" }
    if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
    // Swift prints the shortest text that reads back as the same double.
    return "\(n)"
  }

  private static func writeEscaped(_ s: String, to out: inout String) {
    out += "\""
    // Most strings need no escaping: append them whole.
    // 0x7F is DEL and 0xC2 leads the C1 controls (U+0080–U+009F), which terminals may obey.
    let needsEscaping = s.utf8.contains {
      $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0xE2 || $0 == 0x7F || $0 == 0xC2
    }
    guard needsEscaping else {
      out += s
      out += "\""
      return
    }
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _
      where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
        || scalar.value == 0x2028 || scalar.value == 0x2029:
        out += String(format: "\\u%04x", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}
