public import Foundation

/// A type-erased skill: decodes JSON input into the skill's typed input and encodes its output.
public struct AnySkill: Sendable {
  /// The intent the skill handles.
  public let intentID: String
  /// The skill's name for people and traces.
  public let displayName: String
  /// Whether successful results go to the last-good cache.
  public let keepsLastGoodResult: Bool
  private let makeCall: @Sendable (Data) throws(SkillError) -> SkillCall

  /// Wraps a typed skill.
  public init<S: Skill>(_ skill: S) {
    let intentID = skill.intentID
    let displayName = skill.displayName
    let keeps = skill.keepsLastGoodResult
    self.intentID = intentID
    self.displayName = displayName
    self.keepsLastGoodResult = keeps
    self.makeCall = { (json: Data) throws(SkillError) -> SkillCall in
      let input: S.Input = try InputDecoding.decode(S.Input.self, from: json)
      return SkillCall(
        intentID: intentID, displayName: displayName,
        canonicalInput: InputDecoding.canonical(json), keepsLastGoodResult: keeps
      ) {
        let output = try await skill.perform(input)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
          return try encoder.encode(output)
        } catch {
          throw SkillError.failed("skill '\(displayName)' produced output that cannot be encoded")
        }
      }
    }
  }

  /// Decodes `input` (a JSON object of slot values) into a call ready to run.
  ///
  /// - Throws: ``SkillError/invalidInput(_:)`` naming the missing or mistyped slot.
  public func call(with input: Data) throws(SkillError) -> SkillCall {
    try makeCall(input)
  }
}

/// One decoded skill invocation, ready for the executor to perform, time out and retry.
public struct SkillCall: Sendable {
  /// The intent the call serves.
  public let intentID: String
  /// The skill's name for people and traces.
  public let displayName: String
  /// The input as canonical JSON (sorted keys): the last-good cache key.
  public let canonicalInput: Data
  /// Whether a successful result goes to the last-good cache.
  public let keepsLastGoodResult: Bool
  private let operation: @Sendable () async throws -> Data

  /// Creates a call from an operation that returns the output as JSON.
  public init(
    intentID: String, displayName: String, canonicalInput: Data, keepsLastGoodResult: Bool,
    operation: @escaping @Sendable () async throws -> Data
  ) {
    self.intentID = intentID
    self.displayName = displayName
    self.canonicalInput = canonicalInput
    self.keepsLastGoodResult = keepsLastGoodResult
    self.operation = operation
  }

  /// Performs one attempt and returns the output as JSON.
  public func perform() async throws -> Data {
    try await operation()
  }

  /// The key under which this call's result is cached.
  public var cacheKey: CacheKey { CacheKey(intentID: intentID, canonicalInput: canonicalInput) }
}

/// Turns slot JSON into typed input, and decoding failures into messages that name the slot.
enum InputDecoding {
  static func decode<T: Decodable>(_ type: T.Type, from json: Data) throws(SkillError) -> T {
    do {
      return try JSONDecoder().decode(type, from: json)
    } catch let error as DecodingError {
      throw .invalidInput(message(for: error))
    } catch {
      throw .invalidInput("input is not valid JSON")
    }
  }

  /// The input re-serialised with sorted keys, so equal inputs give equal bytes.
  static func canonical(_ json: Data) -> Data {
    guard let object = try? JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed]),
      let data = try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
    else { return json }
    return data
  }

  static func message(for error: DecodingError) -> String {
    switch error {
    case .keyNotFound(let key, let context):
      return "slot '\(path(context.codingPath + [key]))' is required"
    case .valueNotFound(_, let context):
      return "slot '\(path(context.codingPath))' is required"
    case .typeMismatch(let type, let context):
      return "slot '\(path(context.codingPath))' should be \(describe(type))"
    case .dataCorrupted(let context):
      if context.codingPath.isEmpty { return "input is not a JSON object of slots" }
      return "slot '\(path(context.codingPath))' is not valid"
    @unknown default:
      return "input does not match the skill's slots"
    }
  }

  private static func path(_ keys: [any CodingKey]) -> String {
    keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
  }

  private static func describe(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: "text"
    case is Bool.Type: "true or false"
    case is Int.Type, is Double.Type, is Float.Type, is Int64.Type, is UInt.Type: "a number"
    case is Date.Type: "a date"
    default: String(describing: type).hasPrefix("Array") ? "a list" : "an object"
    }
  }
}
