import Foundation

/// A value behind an `NSLock`, a pthread mutex that ThreadSanitizer models.
///
/// `Synchronization.Mutex` on Linux waits on a futex that ThreadSanitizer does not see, so
/// `swift test --sanitize=thread` reported the test clock's state as raced even though every
/// access held the lock. The clock's state lives here instead.
///
/// `@unchecked Sendable`: `value` is only read or written inside ``withLock(_:)``, while `lock`
/// is held.
public final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  /// Creates a lock around `value`.
  public init(_ value: Value) { self.value = value }

  /// Runs `body` on the value with the lock held.
  public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
