import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
  /// Writes bytes to standard output whole; nil means through `write`.
  var writeBytes: (@Sendable ([UInt8]) -> Void)? = nil
  /// Whether standard input has more to read at once, without waiting; nil means never known,
  /// so a streaming reader answers everything it has read before reading on.
  var inputWaiting: (@Sendable () -> Bool)? = nil

  /// The next chunk of standard input, or nil at its end.
  func inputChunks() -> @Sendable () -> Data? {
    if let readAvailable { return readAvailable }
    let whole = Mutex<Data?>(readInput())
    return {
      whole.withLock { data in
        defer { data = nil }
        return data
      }
    }
  }

  /// Writes UTF-8 bytes to standard output.
  func write(bytes: [UInt8]) {
    if let writeBytes {
      writeBytes(bytes)
    } else {
      write(String(decoding: bytes, as: UTF8.self))
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
        // What the pipe or terminal holds, up to a large block, waiting only while it is empty.
        let block = StandardStreams.readBlock()
        return block.isEmpty ? nil : Data(block)
      },
      writeBytes: { StandardStreams.writeOutput($0) },
      inputWaiting: { StandardStreams.inputWaiting() })
  }

  /// Resolves a path the user typed against the current directory.
  func url(forPath path: String) -> URL {
    path.hasPrefix("/")
      ? URL(fileURLWithPath: path) : currentDirectory.appendingPathComponent(path)
  }
}

/// Unbuffered block reads and whole writes on the process's standard streams.
enum StandardStreams {
  /// The most read from standard input at once: large enough that a bulk pipe costs few calls.
  static let blockSize = 256 * 1024

  /// Reads what standard input has, up to ``blockSize`` bytes, waiting only when it has nothing.
  ///
  /// Returns an empty array at the end of input or on a read error.
  static func readBlock() -> [UInt8] {
    var block = [UInt8](repeating: 0, count: blockSize)
    while true {
      let count = block.withUnsafeMutableBytes { read(0, $0.baseAddress, blockSize) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return [] }
      block.removeSubrange(count...)
      return block
    }
  }

  /// Whether a read of standard input would return at once: bytes or the end are there (always,
  /// for a file), rather than a pipe or terminal that is still empty.
  static func inputWaiting() -> Bool {
    var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
    while true {
      let ready = poll(&descriptor, 1, 0)
      if ready < 0, errno == EINTR { continue }
      return ready > 0
    }
  }

  /// Writes all of `bytes` to standard output, retrying short writes.
  static func writeOutput(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(1, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
      }
    }
  }
}
