public import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A process started with `posix_spawn`, its output in files, that a test can wait for or kill.
///
/// Foundation's `Process` polls a run loop while waiting and cannot send SIGKILL; the crash
/// tests need both a prompt reap and `kill -9` at a chosen moment.
public struct ChildProcess: Sendable {
  /// How the process ended.
  public enum Ending: Equatable, Sendable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it.
    case signalled(Int32)
    /// `waitpid` failed.
    case unknown
  }

  /// The process id.
  public let pid: pid_t
  /// Where its standard output goes.
  public let outputURL: URL
  /// Where its standard error goes.
  public let errorURL: URL

  /// Starts `executable` with `arguments` and `environment`, its output in `output` and
  /// `output` + `.stderr`.
  ///
  /// - Throws: `POSIXError` when the process cannot be started.
  public init(
    _ executable: URL, _ arguments: [String], environment: [String: String], output: URL
  ) throws {
    outputURL = output
    errorURL = output.appendingPathExtension("stderr")
    #if canImport(Darwin)
      var actions: posix_spawn_file_actions_t? = nil
    #else
      var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    let flags = O_WRONLY | O_CREAT | O_TRUNC
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputURL.path, flags, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errorURL.path, flags, 0o644)
    #if canImport(Glibc)
      // Nothing else the test process has open (lock files, sockets) reaches the child, where
      // it would stay open, and a lock held, until the child exits. glibc 2.34 has the call;
      // Swift's Glibc module does not export it.
      typealias CloseFrom = @convention(c) (UnsafeMutableRawPointer, Int32) -> Int32
      if let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") {
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
      }
    #endif
    let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
    let environ = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv + environ { free(pointer) }
    }
    var pid = pid_t()
    let code = posix_spawn(&pid, executable.path, &actions, nil, argv, environ)
    guard code == 0 else { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO) }
    self.pid = pid
  }

  /// Sends SIGKILL; harmless when the process has already exited but was not yet reaped.
  public func kill() {
    #if canImport(Glibc)
      _ = Glibc.kill(pid, SIGKILL)
    #elseif canImport(Musl)
      _ = Musl.kill(pid, SIGKILL)
    #elseif canImport(Darwin)
      _ = Darwin.kill(pid, SIGKILL)
    #endif
  }

  /// Whether the process has ended (reaping it when it has), without waiting.
  ///
  /// Call at most until it returns a value; afterwards the pid is gone.
  public func poll() -> Ending? {
    var status: Int32 = 0
    var result = waitpid(pid, &status, WNOHANG)
    while result == -1 && errno == EINTR { result = waitpid(pid, &status, WNOHANG) }
    if result == 0 { return nil }
    guard result == pid else { return .unknown }
    return Self.ending(status)
  }

  /// Waits for the process to end and reaps it, checking every millisecond.
  ///
  /// Polls instead of blocking in `waitpid`, which would hold one of the few threads that all
  /// of a test run's tasks share.
  public func waitForExit() async -> Ending {
    while true {
      if let ending = poll() { return ending }
      try? await Task.sleep(for: .milliseconds(1))
    }
  }

  /// Standard output so far.
  public var output: Data { (try? Data(contentsOf: outputURL)) ?? Data() }

  /// Standard error so far, as text.
  public var errorText: String {
    String(decoding: (try? Data(contentsOf: errorURL)) ?? Data(), as: UTF8.self)
  }

  /// Decodes a `waitpid` status: the low seven bits hold the signal, the next byte the code.
  private static func ending(_ status: Int32) -> Ending {
    let signal = status & 0x7F
    return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
  }
}
