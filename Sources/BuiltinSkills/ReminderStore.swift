public import Foundation
public import Skills

/// The reminders, kept in `reminders.json` in the data directory and changed under the store lock.
///
/// A reminder that has fired stays until ``takeDue()`` reports it (`intent due`).
public actor ReminderStore {
  /// The file name under the data directory.
  public static let fileName = "reminders.json"

  /// The store file.
  public nonisolated var fileURL: URL { file.url }
  private let file: StoreFile<Document>
  private let wallClock: WallClock
  private let problems: ProblemLog?

  typealias Document = EntryDocument<Reminder>

  /// Creates a store backed by `reminders.json` in `directory`.
  public init(directory: URL, wallClock: WallClock = .system, problems: ProblemLog? = nil) {
    self.file = StoreFile(
      url: directory.appendingPathComponent(Self.fileName), kind: "reminder store",
      wallClock: wallClock, problems: problems)
    self.wallClock = wallClock
    self.problems = problems
  }

  /// Adds a reminder and returns it.
  public func add(title: String, at fireDate: Date) async throws -> Reminder {
    let now = wallClock.now
    let url = file.url
    let (reminder, repaired) = try await file.update { document in
      let allocation = try document.allocateID(
        in: url, kind: "reminder store", remedy: "cancel that reminder")
      let reminder = Reminder(id: allocation.id, title: title, fireDate: fireDate, createdAt: now)
      document.entries.append(reminder)
      return (reminder, allocation.repairedCounter)
    }
    if repaired {
      await problems?.record(
        "reminder store '\(url.path)' had an out-of-range 'next_id'; numbered the new reminder after the highest id"
      )
    }
    return reminder
  }

  /// The reminders that have not fired yet, soonest first.
  public func upcoming() async throws -> [Reminder] {
    let now = wallClock.now
    return try await file.read().entries.filter { $0.fireDate > now }.sorted(by: Self.soonest)
  }

  /// Removes the upcoming reminders `matching` accepts and returns them, soonest first.
  public func remove(where matching: (Reminder) -> Bool) async throws -> [Reminder] {
    let now = wallClock.now
    return try await file.update { document in
      let removed = document.entries.filter { $0.fireDate > now && matching($0) }
      let ids = Set(removed.map(\.id))
      document.entries.removeAll { ids.contains($0.id) }
      return removed.sorted(by: Self.soonest)
    }
  }

  /// Removes and returns the reminders that have fired, in the order they fired.
  public func takeDue() async throws -> [Reminder] {
    let now = wallClock.now
    return try await file.update { document in
      let due = document.entries.filter { $0.fireDate <= now }.sorted(by: Self.soonest)
      document.entries.removeAll { $0.fireDate <= now }
      return due
    }
  }

  static func soonest(_ a: Reminder, _ b: Reminder) -> Bool {
    (a.fireDate, a.id) < (b.fireDate, b.id)
  }
}
