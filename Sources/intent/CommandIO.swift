import Foundation
import Synchronization

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
  /// Reads what standard input holds now, waiting for at least one byte; nil at its end.
  ///
  /// Streaming readers (`parse --jsonl`) use it to answer each line as soon as it arrives. When
  /// nil, ``readInput`` is read whole as one chunk.
  var readAvailable: (@Sendable () -> Data?)? = nil

  /// The next chunk of standard input, or nil at its end.
  func inputChunks() -> @Sendable () -> Data? {
    if let readAvailable { return readAvailable }
    let whole = Mutex<Data?>(readInput())
    return {
      whole.withLock { data in
        defer { data = nil }; return data
      }
    }
  }

  /// The process's own streams and environment.
  static var process: CommandIO {
    CommandIO(
      readInput: { FileHandle.standardInput.readDataToEndOfFile() },
      write: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
      writeError: { text in FileHandle.standardError.write(Data(text.utf8)) },
      environment: ProcessInfo.processInfo.environment,
      currentDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
      readAvailable: {
        // `availableData` returns what the pipe or terminal holds, waiting only while it is
        // empty; an empty result is the end of input.
        let data = FileHandle.standardInput.availableData
        return data.isEmpty ? nil : data
      })
  }

  /// Resolves a path the user typed against the current directory.
  func url(forPath path: String) -> URL {
    path.hasPrefix("/")
      ? URL(fileURLWithPath: path) : currentDirectory.appendingPathComponent(path)
  }
}
