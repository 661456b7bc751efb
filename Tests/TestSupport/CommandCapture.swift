import Foundation
import Synchronization

/// Collects what a command writes, safely from any thread.
public final class OutputBuffer: Sendable {
  private let storage = Mutex("")

  /// Creates an empty buffer.
  public init() {}

  /// Appends text.
  public func append(_ text: String) { storage.withLock { $0 += text } }

  /// Everything written so far.
  public var text: String { storage.withLock { $0 } }

  /// The lines written so far.
  public var lines: [String] { text.split(separator: "\n").map(String.init) }
}
