public import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive `flock` on a lock file, shared by every process that writes the file it guards.
///
/// The lock is held by an open descriptor and released by closing it. Waiting polls with a short
/// sleep rather than blocking, so a task waiting for the lock stays cancellable and a process
/// that holds it too long is reported instead of hanging its neighbours.
public enum FileLock {
  /// How long a waiting task sleeps between tries.
  public static let pollInterval: Duration = .milliseconds(2)

  /// Opens `lockURL` (creating it and its folder) and takes the lock, waiting up to `timeout`.
  ///
  /// - Parameters:
  ///   - lockURL: the lock file, beside the file it guards.
  ///   - timeout: the longest wait for another process to release it.
  ///   - holder: what the lock guards, named in the error when another process keeps it past
  ///     the wait (for example "timer store '/data/timers.json'").
  /// - Returns: the descriptor; close it to release the lock.
  /// - Throws: ``SkillError/failed(_:)`` when the file cannot be opened or the wait runs out;
  ///   `CancellationError` when the waiting task is cancelled.
  public static func acquire(
    _ lockURL: URL, timeout: Duration, holder: String
  ) async throws -> Int32 {
    let folder = lockURL.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw SkillError.failed("cannot create '\(folder.path)'; check that the folder is writable")
    }
    // Close-on-exec: a process started while the lock is held would otherwise inherit the
    // descriptor, and with it the lock, until that process exits.
    let descriptor = open(lockURL.path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw SkillError.failed(
        "cannot open lock file '\(lockURL.path)'; check that the folder is writable")
    }
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      let code = errno
      if code == EINTR { continue }
      guard code == EWOULDBLOCK || code == EAGAIN, clock.now < deadline else {
        close(descriptor)
        throw SkillError.failed(
          code == EWOULDBLOCK || code == EAGAIN
            ? "\(holder) stayed locked by another process; try again"
            : "cannot lock '\(lockURL.path)' (errno \(code)); check the file system supports flock")
      }
      do {
        try await Task.sleep(for: pollInterval)
      } catch {
        close(descriptor)
        throw error
      }
    }
    return descriptor
  }
}
