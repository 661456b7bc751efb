public import Foundation

/// The clock reading and time zone an utterance is interpreted against.
///
/// Relative expressions ("明天早上八点", "in 2 hours") resolve against `now` in `timeZone`, so the
/// same context always yields the same slot values.
public struct ParseContext: Sendable {
  /// The instant the utterance was said.
  public var now: Date
  /// The zone clock times and days are read in.
  public var timeZone: TimeZone

  /// Creates a context; the default is the current instant in the process's time zone.
  public init(now: Date = Date(), timeZone: TimeZone = .current) {
    self.now = now
    self.timeZone = timeZone
  }

  /// A Gregorian calendar in `timeZone`, for day and clock arithmetic.
  public var calendar: Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    return calendar
  }
}
