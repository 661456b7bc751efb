import Foundation
import Skills
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

struct FileLockTests {
  @Test func aHeldLockMakesTheNextWriterWaitThenGiveUpWithTheFileNamed() async throws {
    let folder = try TemporaryDirectory()
    let lock = folder.url.appendingPathComponent("nested/.notes.json.lock")
    let held = try await FileLock.acquire(lock, timeout: .seconds(1), holder: "note store 'a'")
    do {
      _ = try await FileLock.acquire(lock, timeout: .milliseconds(40), holder: "note store 'a'")
      Issue.record("a second writer took a lock that was held")
    } catch let error as SkillError {
      #expect(error == .failed("note store 'a' stayed locked by another process; try again"))
    }
    close(held)
    let next = try await FileLock.acquire(
      lock, timeout: .milliseconds(40), holder: "note store 'a'")
    close(next)
  }

  @Test func aWaitingWriterStopsWhenItsTaskIsCancelled() async throws {
    let folder = try TemporaryDirectory()
    let lock = folder.url.appendingPathComponent(".notes.json.lock")
    let held = try await FileLock.acquire(lock, timeout: .seconds(1), holder: "note store")
    defer { close(held) }
    let waiter = Task {
      try await FileLock.acquire(lock, timeout: .seconds(60), holder: "note store")
    }
    try await Task.sleep(for: .milliseconds(20))
    waiter.cancel()
    await #expect(throws: CancellationError.self) { _ = try await waiter.value }
  }
}
