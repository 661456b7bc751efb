public import Foundation
public import Skills

/// A timer or reminder that has gone off.
public struct DueItem: Sendable, Equatable {
  /// What went off.
  public enum Kind: String, Sendable {
    /// A countdown timer.
    case timer
    /// A reminder.
    case reminder
  }

  /// Whether a timer or a reminder went off.
  public var kind: Kind
  /// Its id in its store.
  public var id: Int
  /// The timer's label or the reminder's title.
  public var title: String
  /// When it went off.
  public var dueAt: Date

  /// Creates an item.
  public init(kind: Kind, id: Int, title: String, dueAt: Date) {
    self.kind = kind
    self.id = id
    self.title = title
    self.dueAt = dueAt
  }
}

/// Shows a due item to the user: the seam between the stores and an app's notifications.
///
/// `intent due --watch` uses one that prints and calls `notify-send`; an app passes one that
/// posts a user notification (`UNUserNotificationCenter` on Apple platforms).
///
/// ## Implementation requirements
///
/// - Return promptly: the watcher waits for each call before it looks for the next due item.
/// - Never throw for a failed notification; log it instead. The item is already taken off its
///   store when the call is made, so it is shown once.
public protocol Notifier: Sendable {
  /// Shows one item that has just gone off.
  func notify(_ item: DueItem) async
}

/// Collects what has gone off from the timer and reminder stores, each item once.
public struct DueCollector: Sendable {
  let timers: TimerStore
  let reminders: ReminderStore

  /// Creates a collector over the stores in `directory`, reading time from `wallClock`.
  public init(directory: URL, wallClock: WallClock = .system, problems: ProblemLog? = nil) {
    timers = TimerStore(directory: directory, wallClock: wallClock, problems: problems)
    reminders = ReminderStore(directory: directory, wallClock: wallClock, problems: problems)
  }

  /// Takes the due timers and reminders off their stores and returns them, earliest first.
  public func takeDue() async throws -> [DueItem] {
    let timers = try await self.timers.takeDue().map {
      DueItem(kind: .timer, id: $0.id, title: $0.label, dueAt: $0.fireDate)
    }
    let reminders = try await self.reminders.takeDue().map {
      DueItem(kind: .reminder, id: $0.id, title: $0.title, dueAt: $0.fireDate)
    }
    return (timers + reminders).sorted {
      ($0.dueAt, $0.kind.rawValue, $0.id) < ($1.dueAt, $1.kind.rawValue, $1.id)
    }
  }

  /// Checks every `interval` and passes each item to `notifier` as it falls due, until cancelled.
  ///
  /// A store that cannot be read is retried at the next check, not a reason to stop.
  public func watch<C: Clock<Duration>>(
    every interval: Duration, clock: C, notifier: some Notifier
  ) async throws {
    while true {
      try Task.checkCancellation()
      if let items = try? await takeDue() {
        for item in items { await notifier.notify(item) }
      }
      try await clock.sleep(for: interval)
    }
  }
}
