public import Foundation

/// What the cloud model decided, after purifying and leniently decoding its reply.
public struct CloudReply: Sendable, Equatable {
  /// The chosen intent as the model spelled it, or nil when the model found none.
  public var intent: String?
  /// The slot values as a JSON object, keys as the model spelled them.
  public var slots: Data
  /// The model's own confidence, when it gave one in [0, 1].
  public var confidence: Double?
  /// The JSON text the reply was decoded from.
  public var purified: String

  /// Longest reply read, in Unicode scalars; the rest is ignored so that hostile output cannot
  /// cost unbounded time.
  public static let maximumReplyLength = 64 * 1024

  /// Spellings of the intent's key, compared after ``normalizedKey(_:)``.
  static let intentKeys = ["skillid", "skill", "intentid", "intent", "intentname", "name"]
  /// Spellings of the slots' key, compared after ``normalizedKey(_:)``.
  static let slotKeys = ["input", "slots", "arguments", "parameters", "args", "params", "entities"]

  /// Purifies a raw reply and decodes it leniently.
  ///
  /// Accepts Markdown fences, prose around the object, comments, trailing commas, single quotes,
  /// bare words, keys in any case or style (`Skill_ID`, `skillId`, `intent`), slots under
  /// `input`, `slots` or `arguments` (also as a JSON string), and numbers sent as strings.
  /// - Throws: ``CloudFallbackError`` when no usable object is found.
  public static func decode(_ raw: String) throws(CloudFallbackError) -> CloudReply {
    let (purified, dictionary) = try ReplyPurifier.firstObject(in: raw)
    var fields: [String: Any] = [:]
    for (key, value) in dictionary {
      let name = normalizedKey(key)
      if fields[name] == nil { fields[name] = value }
    }

    var intent: String?
    for key in intentKeys {
      guard let value = fields[key] else { continue }
      if value is NSNull { break }
      guard let name = value as? String else {
        throw .malformedReply("'\(original(key, in: dictionary))' is not a string")
      }
      let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
      let lowered = trimmed.lowercased()
      intent = trimmed.isEmpty || lowered == "null" || lowered == "none" ? nil : trimmed
      break
    }
    var slots: [String: Any] = [:]
    for key in slotKeys {
      if let value = fields[key] as? [String: Any] {
        slots = value
        break
      }
      if let text = fields[key] as? String,
        let (_, object) = try? ReplyPurifier.firstObject(in: text)
      {
        slots = object
        break
      }
    }
    let slotData =
      (try? JSONSerialization.data(withJSONObject: slots, options: [.sortedKeys]))
      ?? Data("{}".utf8)
    return CloudReply(
      intent: intent, slots: slotData, confidence: confidence(fields["confidence"]),
      purified: purified)
  }

  /// A key folded to compare spellings: lowercase letters and digits only (`Skill_ID` → `skillid`).
  public static func normalizedKey(_ key: String) -> String {
    String(
      String.UnicodeScalarView(
        key.lowercased().unicodeScalars.filter {
          ("a"..."z").contains($0) || ("0"..."9").contains($0) || !$0.isASCII
        }))
  }

  private static func original(_ normalized: String, in dictionary: [String: Any]) -> String {
    dictionary.keys.sorted().first { normalizedKey($0) == normalized } ?? normalized
  }

  private static func confidence(_ value: Any?) -> Double? {
    var result: Double?
    if let number = value as? NSNumber, !(value is Bool) {
      result = number.doubleValue
    } else if var text = (value as? String)?.trimmingCharacters(in: .whitespaces) {
      var scale = 1.0
      if text.hasSuffix("%") {
        text.removeLast()
        scale = 100
      }
      result = Double(text.trimmingCharacters(in: .whitespaces)).map { $0 / scale }
    }
    guard let result, result.isFinite, (0...1).contains(result) else { return nil }
    return result
  }
}
