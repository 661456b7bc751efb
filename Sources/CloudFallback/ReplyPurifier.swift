import Foundation

/// Cuts the JSON object out of a chat model's reply, repairing what small models get wrong.
public enum ReplyPurifier {
  /// Deepest nesting accepted; a classification answer needs three levels.
  public static let maximumDepth = 16

  /// Most `{` positions tried as the start of the object, so prose full of braces stays cheap.
  static let maximumStarts = 8

  /// The first balanced `{…}` in `raw`, without Markdown fences, comments or trailing commas,
  /// with single-quoted strings and bare words turned into JSON.
  ///
  /// Returns nil when the reply holds no object or nests too deeply.
  /// - Complexity: O(n) in the reply length, which is capped at `CloudReply.maximumReplyLength`.
  public static func purify(_ raw: String) -> String? {
    try? purified(raw)
  }

  /// The purified text of the first balanced object, as ``purify(_:)``.
  ///
  /// - Throws: ``CloudFallbackError/tooDeep(limit:)`` or ``CloudFallbackError/noJSON``.
  public static func purified(_ raw: String) throws(CloudFallbackError) -> String {
    let scalars = Array(raw.unicodeScalars.prefix(CloudReply.maximumReplyLength))
    guard let start = scalars.firstIndex(of: "{") else { throw .noJSON }
    guard let (text, _) = try repairedObject(in: scalars, from: start) else { throw .noJSON }
    return text
  }

  /// The first object in `raw` that parses as JSON, with its purified text.
  ///
  /// Tries later `{` positions when an earlier one ("use {braces} like this") is not JSON.
  /// - Throws: ``CloudFallbackError`` when none is found.
  static func firstObject(in raw: String) throws(CloudFallbackError) -> (String, [String: Any]) {
    let scalars = Array(raw.unicodeScalars.prefix(CloudReply.maximumReplyLength))
    var from = 0
    var firstFailure: CloudFallbackError = .noJSON
    for attempt in 0..<maximumStarts {
      guard let start = scalars[from...].firstIndex(of: "{") else { break }
      from = start + 1
      let repaired: (String, Int)?
      do {
        repaired = try repairedObject(in: scalars, from: start)
      } catch {
        if attempt == 0 { firstFailure = error }
        continue
      }
      guard let (text, _) = repaired else { break }
      guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) else {
        if attempt == 0 { firstFailure = .malformedReply("not valid JSON after purifying") }
        continue
      }
      guard let dictionary = object as? [String: Any] else { continue }
      return (text, dictionary)
    }
    throw firstFailure
  }

  /// The repaired object starting at `start` and the index after it; nil when it never closes.
  private static func repairedObject(
    in scalars: [Unicode.Scalar], from start: Int
  ) throws(CloudFallbackError) -> (String, Int)? {
    var out = String.UnicodeScalarView()
    var depth = 0
    var index = start
    while index < scalars.count {
      let scalar = scalars[index]
      switch scalar {
      case "\"", "'":
        index = copyString(scalars, from: index, quote: scalar, into: &out)
        continue
      case "/" where index + 1 < scalars.count && scalars[index + 1] == "/",
        "#" where depth > 0:
        while index < scalars.count, scalars[index] != "\n" { index += 1 }
        continue
      case "/" where index + 1 < scalars.count && scalars[index + 1] == "*":
        index += 2
        while index + 1 < scalars.count, !(scalars[index] == "*" && scalars[index + 1] == "/") {
          index += 1
        }
        index += 2
        continue
      case "{", "[":
        depth += 1
        guard depth <= maximumDepth else { throw .tooDeep(limit: maximumDepth) }
        out.append(scalar)
      case "}", "]":
        removeTrailingComma(&out)
        depth -= 1
        out.append(scalar)
        if depth == 0 { return (String(out), index + 1) }
      case _ where isWordStart(scalar) && !continuesNumber(out):
        index = copyBareWord(scalars, from: index, into: &out)
        continue
      default:
        out.append(scalar)
      }
      index += 1
    }
    return nil
  }

  /// Copies a string literal as a double-quoted JSON string; returns the index after it.
  private static func copyString(
    _ scalars: [Unicode.Scalar], from start: Int, quote: Unicode.Scalar,
    into out: inout String.UnicodeScalarView
  ) -> Int {
    out.append("\"")
    var index = start + 1
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "\\", index + 1 < scalars.count {
        let next = scalars[index + 1]
        if next == "'" {
          out.append("'")
        } else {
          out.append(scalar)
          out.append(next)
        }
        index += 2
        continue
      }
      if scalar == quote {
        out.append("\"")
        return index + 1
      }
      switch scalar {
      case "\"": out.append(contentsOf: "\\\"".unicodeScalars)
      case "\n": out.append(contentsOf: "\\n".unicodeScalars)
      case "\r": out.append(contentsOf: "\\r".unicodeScalars)
      case "\t": out.append(contentsOf: "\\t".unicodeScalars)
      default: out.append(scalar)
      }
      index += 1
    }
    return index
  }

  /// Whether the output ends inside a number, so a letter (`1e5`) belongs to it.
  private static func continuesNumber(_ out: String.UnicodeScalarView) -> Bool {
    guard let last = out.last else { return false }
    return ("0"..."9").contains(last) || last == "."
  }

  private static func isWordStart(_ scalar: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
  }

  private static func isWordPart(_ scalar: Unicode.Scalar) -> Bool {
    isWordStart(scalar) || ("0"..."9").contains(scalar) || scalar == "." || scalar == "-"
  }

  /// Copies a bare word: JSON and Python literals as JSON literals, anything else as a string.
  private static func copyBareWord(
    _ scalars: [Unicode.Scalar], from start: Int, into out: inout String.UnicodeScalarView
  ) -> Int {
    var index = start
    var word = String.UnicodeScalarView()
    while index < scalars.count, isWordPart(scalars[index]) {
      word.append(scalars[index])
      index += 1
    }
    let text = String(word)
    switch text.lowercased() {
    case "true": out.append(contentsOf: "true".unicodeScalars)
    case "false": out.append(contentsOf: "false".unicodeScalars)
    case "null", "none", "nil": out.append(contentsOf: "null".unicodeScalars)
    default:
      out.append("\"")
      out.append(contentsOf: word)
      out.append("\"")
    }
    return index
  }

  private static func removeTrailingComma(_ out: inout String.UnicodeScalarView) {
    var index = out.endIndex
    while index > out.startIndex {
      let previous = out.index(before: index)
      let scalar = out[previous]
      if scalar == " " || scalar == "\n" || scalar == "\t" || scalar == "\r" {
        index = previous
        continue
      }
      if scalar == "," { out.remove(at: previous) }
      return
    }
  }
}
