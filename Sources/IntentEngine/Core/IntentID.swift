/// The identifier of an intent, written `domain.action` (`timer.start`, `reminder.create`).
public struct IntentID: Hashable, Comparable, Sendable, Codable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// The identifier as written in grammars.
  public let rawValue: String

  /// Wraps an identifier without validating it; grammars validate the ones they declare.
  public init(_ rawValue: String) { self.rawValue = rawValue }

  public init(stringLiteral value: String) { self.rawValue = value }

  public init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(String.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  /// The part before the dot, such as `timer`.
  public var domain: Substring { rawValue.prefix { $0 != "." } }

  public var description: String { rawValue }

  public static func < (lhs: IntentID, rhs: IntentID) -> Bool { lhs.rawValue < rhs.rawValue }
}
