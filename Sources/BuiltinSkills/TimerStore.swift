public import Foundation
public import Skills

/// The timers, kept in `timers.json` in the data directory and changed under the store lock.
///
/// Every operation reads the file under an exclusive lock shared by all processes, so twenty
/// `intent run` started at once keep twenty timers with twenty ids. A timer that has gone off
/// stays in the store until ``takeDue()`` reports it (`intent due`), so none vanishes unseen.
public actor TimerStore {
  /// The file name under the data directory.
  public static let fileName = "timers.json"

  /// The store file.
  public nonisolated var fileURL: URL { file.url }
  private let file: StoreFile<Document>
  private let wallClock: WallClock
  private let problems: ProblemLog?

  /// Which timers an operation acts on.
  public enum Selection: Sendable, Equatable {
    /// The most recently started timer.
    case latest
    /// The most recently started timer whose label matches the name.
    case named(String)
    /// Every timer.
    case all
  }

  typealias Document = EntryDocument<CountdownTimer>

  /// Creates a store backed by `timers.json` in `directory`.
  public init(directory: URL, wallClock: WallClock = .system, problems: ProblemLog? = nil) {
    self.file = StoreFile(
      url: directory.appendingPathComponent(Self.fileName), kind: "timer store",
      wallClock: wallClock, problems: problems)
    self.wallClock = wallClock
    self.problems = problems
  }

  /// Starts a timer and returns it.
  public func start(label: String, duration: Double) async throws -> CountdownTimer {
    let now = wallClock.now
    let url = file.url
    let (timer, repaired) = try await file.update { document in
      let allocation = try document.allocateID(
        in: url, kind: "timer store", remedy: "cancel that timer")
      let timer = CountdownTimer(
        id: allocation.id, label: label, duration: duration, startedAt: now,
        fireDate: now.addingTimeInterval(duration))
      document.entries.append(timer)
      return (timer, allocation.repairedCounter)
    }
    if repaired {
      await problems?.record(
        "timer store '\(url.path)' had an out-of-range 'next_id'; numbered the new timer after the highest id"
      )
    }
    return timer
  }

  /// Cancels the selected timers that have not gone off and returns them, latest first.
  ///
  /// - Throws: ``SkillError/invalidInput(_:)`` when no timer has the given name.
  public func cancel(_ selection: Selection) async throws -> [CountdownTimer] {
    let now = wallClock.now
    return try await file.update { document in
      let cancelled = try Self.select(selection, from: document.entries, at: now)
      let ids = Set(cancelled.map(\.id))
      document.entries.removeAll { ids.contains($0.id) }
      return cancelled
    }
  }

  /// Pauses the selected running timers and returns them as paused; paused ones are left alone.
  public func pause(_ selection: Selection) async throws -> [CountdownTimer] {
    let now = wallClock.now
    return try await change(selection, where: { !$0.isPaused }) { timer in
      timer.pausedRemaining = timer.remaining(at: now)
    }
  }

  /// Resumes the selected paused timers and returns them running again.
  public func resume(_ selection: Selection) async throws -> [CountdownTimer] {
    let now = wallClock.now
    return try await change(selection, where: \.isPaused) { timer in
      timer.fireDate = now.addingTimeInterval(timer.pausedRemaining ?? 0)
      timer.pausedRemaining = nil
    }
  }

  /// Adds `seconds` (negative takes time off) to the selected timers and returns them.
  ///
  /// Time left never drops below zero; a timer taken to zero goes off at once.
  public func adjust(_ selection: Selection, by seconds: Double) async throws -> [CountdownTimer] {
    let now = wallClock.now
    return try await change(selection, where: { _ in true }) { timer in
      let left = timer.remaining(at: now)
      let newLeft = max(0, left + seconds)
      timer.duration = max(1, timer.duration + (newLeft - left))
      if timer.isPaused {
        timer.pausedRemaining = newLeft
      } else {
        timer.fireDate = now.addingTimeInterval(newLeft)
      }
    }
  }

  /// The selected timers that have not gone off, soonest first.
  public func status(_ selection: Selection) async throws -> [CountdownTimer] {
    let now = wallClock.now
    let timers = try await file.read().entries
    return try Self.select(selection, from: timers, at: now)
      .sorted { ($0.remaining(at: now), $0.id) < ($1.remaining(at: now), $1.id) }
  }

  /// The timers that have not gone off yet (paused ones included), soonest first.
  public func runningTimers() async -> [CountdownTimer] {
    let now = wallClock.now
    let timers = (try? await file.read().entries) ?? []
    return timers.filter { !$0.isDue(at: now) }
      .sorted { ($0.remaining(at: now), $0.id) < ($1.remaining(at: now), $1.id) }
  }

  /// Removes and returns the timers that have gone off, in the order they went off.
  public func takeDue() async throws -> [CountdownTimer] {
    let now = wallClock.now
    return try await file.update { document in
      let due = document.entries.filter { $0.isDue(at: now) }
        .sorted { ($0.fireDate, $0.id) < ($1.fireDate, $1.id) }
      document.entries.removeAll { $0.isDue(at: now) }
      return due
    }
  }

  private func change(
    _ selection: Selection, where eligible: (CountdownTimer) -> Bool,
    _ body: (inout CountdownTimer) -> Void
  ) async throws -> [CountdownTimer] {
    let now = wallClock.now
    return try await file.update { document in
      let candidates = document.entries.filter(eligible)
      let chosen = try Self.select(selection, from: candidates, at: now)
      var changed: [CountdownTimer] = []
      for index in document.entries.indices
      where chosen.contains(where: {
        $0.id == document.entries[index].id
      }) {
        body(&document.entries[index])
        changed.append(document.entries[index])
      }
      return changed.sorted { ($0.startedAt, $0.id) > ($1.startedAt, $1.id) }
    }
  }

  /// The timers a selection names among those that have not gone off, latest first.
  static func select(_ selection: Selection, from timers: [CountdownTimer], at now: Date) throws
    -> [CountdownTimer]
  {
    let running = timers.filter { !$0.isDue(at: now) }
      .sorted { ($0.startedAt, $0.id) > ($1.startedAt, $1.id) }
    switch selection {
    case .all: return running
    case .latest: return Array(running.prefix(1))
    case .named(let name):
      let matches = running.filter { label($0.label, matches: name) }
      guard !matches.isEmpty else {
        let names = running.map { "'\($0.label)'" }.joined(separator: ", ")
        throw SkillError.invalidInput(
          running.isEmpty
            ? "no timer named '\(name)' is running; no timers are running"
            : "no timer named '\(name)' is running; running timers: \(names)")
      }
      return [matches[0]]
    }
  }

  /// Whether a label answers to the name the user said ("煮鸡蛋" matches "煮鸡蛋的计时器").
  static func label(_ label: String, matches name: String) -> Bool {
    let a = label.lowercased()
    let b = name.lowercased()
    return !b.isEmpty && (a == b || a.contains(b) || b.contains(a))
  }
}
