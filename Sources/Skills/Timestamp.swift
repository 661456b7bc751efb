public import Foundation

/// Renders instants the way skills, results and traces show them.
public enum Timestamp {
  /// The instant in ISO 8601 with the zone's offset, such as `2026-12-01T08:00:00+08:00`.
  public static func iso8601(_ date: Date, in zone: TimeZone) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = zone
    formatter.formatOptions = [.withInternetDateTime]
    var text = formatter.string(from: date)
    if text.hasSuffix("Z") {
      text.removeLast()
      text += "+00:00"
    }
    return text
  }
}
