import Foundation

/// Where a command reads its input and writes its results and diagnostics.
///
/// Tests pass buffers; `main` passes the process's standard streams.
struct CommandIO: Sendable {
  /// Reads all of standard input.
  var readInput: @Sendable () -> Data
  /// Writes to standard output.
  var write: @Sendable (String) -> Void
  /// Writes to standard error.
  var writeError: @Sendable (String) -> Void
  /// The environment variables.
  var environment: [String: String]
  /// The current directory, against which relative paths resolve.
  var currentDirectory: URL

  /// The process's own streams and environment.
  static var process: CommandIO {
    CommandIO(
      readInput: { FileHandle.standardInput.readDataToEndOfFile() },
      write: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
      writeError: { text in FileHandle.standardError.write(Data(text.utf8)) },
      environment: ProcessInfo.processInfo.environment,
      currentDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
  }

  /// Resolves a path the user typed against the current directory.
  func url(forPath path: String) -> URL {
    path.hasPrefix("/")
      ? URL(fileURLWithPath: path) : currentDirectory.appendingPathComponent(path)
  }
}
