public import Foundation

/// A clock that only moves when a test advances it, so timeouts and back-off run without waiting.
///
/// Sleepers wake, in deadline order, when ``advance(by:)`` passes their deadline; a cancelled
/// sleeper wakes at once by throwing `CancellationError`, as the real clocks do.
public final class TestClock: Clock, Sendable {
  /// A point on the test clock: the time since it started.
  public struct Instant: InstantProtocol, Sendable {
    /// Time since the clock started.
    public var offset: Duration

    /// Creates an instant `offset` after the start.
    public init(offset: Duration) { self.offset = offset }

    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private struct Sleeper {
    var id: Int
    var deadline: Instant
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant(offset: .zero)
    var nextID = 0
    var sleepers: [Sleeper] = []
  }

  // Every access to the state goes through the lock, which makes the class safe to share.
  private let state = Locked(State())

  /// Creates a clock at offset zero.
  public init() {}

  public var now: Instant { state.withLock { $0.now } }

  public var minimumResolution: Duration { .zero }

  /// How many tasks are asleep on the clock.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    let id = state.withLock { state -> Int in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let resumeNow: Result<Void, any Error>? = state.withLock { state in
          if Task.isCancelled { return .failure(CancellationError()) }
          if deadline <= state.now { return .success(()) }
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return nil
        }
        if let resumeNow { continuation.resume(with: resumeNow) }
      }
    } onCancel: {
      let cancelled = state.withLock { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return state.sleepers.remove(at: index)
      }
      cancelled?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward, waking every sleeper whose deadline has passed, earliest first.
  public func advance(by duration: Duration) {
    let due = state.withLock { state -> [Sleeper] in
      state.now = state.now.advanced(by: duration)
      let now = state.now
      let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
      state.sleepers.removeAll { $0.deadline <= now }
      return due
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// Waits (in real time, a few milliseconds at a time, at most 5 s) until `count` tasks sleep.
  ///
  /// Returns false when they never did, so the test can fail instead of hanging.
  @discardableResult
  public func waitForSleepers(_ count: Int = 1) async -> Bool {
    for _ in 0..<5_000 {
      if sleeperCount >= count { return true }
      try? await Task.sleep(for: .milliseconds(1))
    }
    return sleeperCount >= count
  }

  /// Advances in steps, letting woken tasks run and sleep again, until `total` has passed.
  ///
  /// Useful for back-off: each retry sleeps only after the previous attempt failed.
  public func run(for total: Duration, step: Duration = .milliseconds(500)) async {
    var passed = Duration.zero
    while passed < total {
      for _ in 0..<20 { await Task.yield() }
      advance(by: step)
      passed += step
    }
  }
}

/// A settable calendar time for tests that check dates and ages.
public final class TestDate: Sendable {
  // Every access goes through the mutex.
  private let date: Locked<Date>

  /// Creates a date source at `start`.
  public init(_ start: Date) { date = Locked(start) }

  /// The current date.
  public var now: Date { date.withLock { $0 } }

  /// Moves the date forward.
  public func advance(by seconds: TimeInterval) {
    date.withLock { $0 = $0.addingTimeInterval(seconds) }
  }
}

/// A fresh temporary folder per test, removed when the value is dropped by `remove()`.
public struct TemporaryDirectory: Sendable {
  /// The folder.
  public let url: URL

  /// Creates an empty folder under the system temporary folder.
  public init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("skillrouter-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// Deletes the folder and everything in it.
  public func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}
