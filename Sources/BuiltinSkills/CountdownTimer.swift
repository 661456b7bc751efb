public import Foundation

/// A running countdown: what it is for, how long it runs and when it fires.
public struct CountdownTimer: Codable, Sendable, Equatable {
  /// A number unique within the store, counting up from 1.
  public var id: Int
  /// What the timer is for, such as "关火"; a default when the user named nothing.
  public var label: String
  /// The length the user asked for, in seconds.
  public var duration: Double
  /// When it was started.
  public var startedAt: Date
  /// When it fires.
  public var fireDate: Date

  /// Creates a timer.
  public init(id: Int, label: String, duration: Double, startedAt: Date, fireDate: Date) {
    self.id = id
    self.label = label
    self.duration = duration
    self.startedAt = startedAt
    self.fireDate = fireDate
  }

  enum CodingKeys: String, CodingKey {
    case id, label, duration
    case startedAt = "started_at"
    case fireDate = "fire_date"
  }

  /// Seconds left at `date`, never negative.
  public func remaining(at date: Date) -> TimeInterval {
    max(0, fireDate.timeIntervalSince(date))
  }
}
