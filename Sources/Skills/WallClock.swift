public import Foundation

/// The calendar time skills and caches read, injected so that tests and `--now` control it.
public struct WallClock: Sendable {
  private let read: @Sendable () -> Date

  /// Creates a clock from a function that returns the current date.
  public init(_ read: @escaping @Sendable () -> Date) {
    self.read = read
  }

  /// The current date.
  public var now: Date { read() }

  /// The system clock.
  public static let system = WallClock { Date() }

  /// A clock stopped at `date`.
  public static func fixed(_ date: Date) -> WallClock { WallClock { date } }
}
