public import Foundation
public import Skills

/// A countdown: what it is for, how long it runs, when it fires, and whether it is paused.
public struct CountdownTimer: Codable, Sendable, Equatable {
  /// A number unique within the store, counting up from 1.
  public var id: Int
  /// What the timer is for, such as "关火"; a default when the user named nothing.
  public var label: String
  /// The length the user asked for, in seconds (adjustments included).
  public var duration: Double
  /// When it was started.
  public var startedAt: Date
  /// When it fires; meaningless while paused.
  public var fireDate: Date
  /// Seconds that were left when it was paused; nil while it runs.
  public var pausedRemaining: Double?

  /// Creates a running timer.
  public init(
    id: Int, label: String, duration: Double, startedAt: Date, fireDate: Date,
    pausedRemaining: Double? = nil
  ) {
    self.id = id
    self.label = label
    self.duration = duration
    self.startedAt = startedAt
    self.fireDate = fireDate
    self.pausedRemaining = pausedRemaining
  }

  enum CodingKeys: String, CodingKey {
    case id, label, duration
    case startedAt = "started_at"
    case fireDate = "fire_date"
    case pausedRemaining = "paused_remaining"
  }

  /// Decodes a timer, refusing ids below 1 and lengths that are not finite and positive.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int.self, forKey: .id)
    label = try container.decode(String.self, forKey: .label)
    duration = try container.decode(Double.self, forKey: .duration)
    startedAt = try container.decode(Date.self, forKey: .startedAt)
    fireDate = try container.decode(Date.self, forKey: .fireDate)
    pausedRemaining = try container.decodeIfPresent(Double.self, forKey: .pausedRemaining)
    guard id >= 1, duration.isFinite, duration > 0, pausedRemaining.map({ $0.isFinite }) ?? true
    else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "timer values out of range"))
    }
  }

  /// Whether the timer is paused.
  public var isPaused: Bool { pausedRemaining != nil }

  /// Seconds left at `date`, never negative.
  public func remaining(at date: Date) -> TimeInterval {
    max(0, pausedRemaining ?? fireDate.timeIntervalSince(date))
  }

  /// Whether the timer has gone off by `date`; a paused timer never has.
  public func isDue(at date: Date) -> Bool {
    pausedRemaining == nil && fireDate <= date
  }
}

extension CountdownTimer: StoreEntry {
  /// The key of `timers.json`'s entries.
  public static var storeKey: String { "timers" }
}
