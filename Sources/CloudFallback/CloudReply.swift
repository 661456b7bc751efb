public import Foundation

/// What the cloud model decided, after purifying and leniently decoding its reply.
public struct CloudReply: Sendable, Equatable {
  /// The chosen intent, or nil when the model found none.
  public var intent: String?
  /// The slot values as a JSON object.
  public var slots: Data
  /// The model's own confidence, when it gave one.
  public var confidence: Double?
  /// The JSON text the reply was decoded from.
  public var purified: String

  /// Longest reply read; the rest is ignored so that hostile output cannot cost unbounded time.
  public static let maximumReplyLength = 64 * 1024

  /// Purifies a raw reply and decodes it leniently.
  ///
  /// Accepts Markdown fences, prose around the object, `//` comments, trailing commas, keys in
  /// any case (`intent`, `intent_id`, `skill_id`), slots under `slots`, `input` or `arguments`,
  /// and numbers sent as strings for `confidence`.
  /// - Throws: ``CloudFallbackError`` when no usable object is found.
  public static func decode(_ raw: String) throws(CloudFallbackError) -> CloudReply {
    let purified = ReplyPurifier.purify(raw)
    guard let purified else { throw .noJSON }
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: Data(purified.utf8))
    } catch {
      throw .malformedReply("not valid JSON after purifying")
    }
    guard let dictionary = object as? [String: Any] else {
      throw .malformedReply("the top level is not an object")
    }
    var fields: [String: Any] = [:]
    for (key, value) in dictionary { fields[key.lowercased()] = value }

    var intent: String?
    for key in ["intent", "intent_id", "intentid", "skill_id", "skill"] {
      guard let value = fields[key] else { continue }
      if value is NSNull { break }
      guard let name = value as? String else { throw .malformedReply("'\(key)' is not a string") }
      let trimmed = name.trimmingCharacters(in: .whitespaces)
      intent = trimmed.isEmpty || trimmed.lowercased() == "null" ? nil : trimmed
      break
    }
    var slots: [String: Any] = [:]
    for key in ["slots", "input", "arguments", "parameters"] {
      if let value = fields[key] as? [String: Any] {
        slots = value
        break
      }
    }
    let slotData =
      (try? JSONSerialization.data(withJSONObject: slots, options: [.sortedKeys]))
      ?? Data("{}".utf8)
    var confidence: Double?
    if let number = fields["confidence"] as? NSNumber {
      confidence = number.doubleValue
    } else if let text = fields["confidence"] as? String {
      confidence = Double(text.trimmingCharacters(in: .whitespaces))
    }
    if let value = confidence, !(0...1).contains(value) { confidence = nil }
    return CloudReply(intent: intent, slots: slotData, confidence: confidence, purified: purified)
  }
}

/// Cuts the JSON object out of a chat model's reply.
public enum ReplyPurifier {
  /// The first balanced `{…}` in `raw`, without Markdown fences, comments or trailing commas.
  ///
  /// Returns nil when the reply holds no object.
  /// - Complexity: O(n) in the reply length, which is capped at `CloudReply.maximumReplyLength`.
  public static func purify(_ raw: String) -> String? {
    let scalars = Array(raw.unicodeScalars.prefix(CloudReply.maximumReplyLength))
    guard let start = scalars.firstIndex(of: "{") else { return nil }
    var out = String.UnicodeScalarView()
    var depth = 0
    var inString = false
    var escaped = false
    var index = start
    while index < scalars.count {
      let scalar = scalars[index]
      if inString {
        out.append(scalar)
        if escaped {
          escaped = false
        } else if scalar == "\\" {
          escaped = true
        } else if scalar == "\"" {
          inString = false
        }
        index += 1
        continue
      }
      switch scalar {
      case "\"":
        inString = true
        out.append(scalar)
      case "/" where index + 1 < scalars.count && scalars[index + 1] == "/":
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
        out.append(scalar)
      case "}", "]":
        removeTrailingComma(&out)
        depth -= 1
        out.append(scalar)
        if depth == 0 { return String(out) }
      default:
        out.append(scalar)
      }
      index += 1
    }
    return nil
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
