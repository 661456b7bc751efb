public import Foundation
public import Skills

/// Starts a countdown (`timer.start`): "三分钟后提醒我关火", "set a timer for 10 minutes".
public struct StartTimerSkill: Skill {
  /// The slots `timer.start` fills.
  public struct Input: Decodable, Sendable {
    /// The length in seconds.
    public var duration: Double
    /// What the timer is for, when the user said.
    public var text: String?
    /// The user's language.
    public var lang: UserLanguage?
  }

  /// The timer that was started.
  public struct Output: Encodable, Sendable, Equatable {
    /// The timer's id in the store.
    public var id: Int
    /// What it is for.
    public var label: String
    /// Its length in seconds.
    public var duration: Double
    /// When it fires, in ISO 8601 with the zone's offset.
    public var fireDate: String
    /// A sentence for people.
    public var message: String

    enum CodingKeys: String, CodingKey {
      case id, label, duration, message
      case fireDate = "fire_date"
    }
  }

  /// The label of a timer the user did not name.
  public static let defaultLabel = "timer"
  /// Longest countdown accepted: a week; longer is a reminder, not a timer.
  public static let maximumDuration: Double = 7 * 24 * 3600

  public var intentID: String { "timer.start" }
  public var displayName: String { "Start timer" }
  let store: TimerStore
  let timeZone: TimeZone

  /// Creates the skill over a store; fire dates are shown in `timeZone`.
  public init(store: TimerStore, timeZone: TimeZone = .current) {
    self.store = store
    self.timeZone = timeZone
  }

  public func perform(_ input: Input) async throws -> Output {
    guard input.duration.isFinite, input.duration >= 1 else {
      throw SkillError.invalidInput("slot 'duration' must be at least one second")
    }
    guard input.duration <= Self.maximumDuration else {
      throw SkillError.invalidInput(
        "slot 'duration' must be at most 7 days; use a reminder for later times")
    }
    var trimmed = input.text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    // "for the pasta" names the pasta: an article or possessive is not part of the name.
    for article in ["the ", "my ", "a ", "an "] where trimmed.lowercased().hasPrefix(article) {
      trimmed = String(trimmed.dropFirst(article.count))
      break
    }
    let label = trimmed.isEmpty ? Self.defaultLabel : String(trimmed.prefix(200))
    let timer = try await store.start(label: label, duration: input.duration)
    return Output(
      id: timer.id, label: timer.label, duration: timer.duration,
      fireDate: TimerFormatting.iso8601(timer.fireDate, in: timeZone),
      message: message(for: timer, lang: input.lang ?? .en))
  }

  private func message(for timer: CountdownTimer, lang: UserLanguage) -> String {
    let length = Wording.duration(timer.duration, lang)
    let named = timer.label != Self.defaultLabel
    if lang == .zh {
      return named ? "已设置\(length)计时器：\(timer.label)" : "已设置\(length)计时器"
    }
    return "timer '\(timer.label)' set for \(length)"
  }
}

/// Shared text forms of durations and dates for timer output.
public enum TimerFormatting {
  /// A date in ISO 8601 with the zone's offset, such as `2026-11-30T09:03:00+08:00`.
  public static func iso8601(_ date: Date, in zone: TimeZone) -> String {
    Timestamp.iso8601(date, in: zone)
  }

  /// A length for people: `45 s`, `3 min`, `1 h 30 min`, `2:05:09` style is avoided for clarity.
  public static func duration(_ seconds: Double) -> String {
    // Lengths come from stores and replies too: clamp before `Int` so that none can trap.
    let total = seconds.isFinite ? Int(min(max(seconds, 0), 1e15).rounded(.up)) : 0
    let hours = total / 3600
    let minutes = (total % 3600) / 60
    let rest = total % 60
    var parts: [String] = []
    if hours > 0 { parts.append("\(hours) h") }
    if minutes > 0 { parts.append("\(minutes) min") }
    if rest > 0 || parts.isEmpty { parts.append("\(rest) s") }
    return parts.joined(separator: " ")
  }
}
