import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc

  struct ChildProcessTests {
    /// A descriptor the test process holds open, close-on-exec or not (such as a store's lock
    /// file), is not inherited by a process the tests start.
    @Test func aStartedProcessInheritsNoOpenDescriptor() async throws {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      let path = folder.url.appendingPathComponent("held").path
      let descriptor = open(path, O_CREAT | O_RDWR, 0o644)
      try #require(descriptor > 2)
      defer { close(descriptor) }
      let shell = URL(fileURLWithPath: "/bin/sh")
      let child = try ChildProcess(
        shell, ["-c", "test -e /proc/$$/fd/\(descriptor) && echo inherited || echo closed"],
        environment: [:], output: folder.url.appendingPathComponent("out"))
      #expect(await child.waitForExit() == .exited(0))
      #expect(String(decoding: child.output, as: UTF8.self) == "closed\n")
    }
  }
#endif
