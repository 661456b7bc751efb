/// Problems found in stores and caches (a corrupt file set aside), collected for the user.
///
/// Stores never print; they record here, and the command line or app decides how to show them.
public actor ProblemLog {
  private var messages: [String] = []

  /// Creates an empty log.
  public init() {}

  /// Records one message.
  public func record(_ message: String) {
    messages.append(message)
  }

  /// Returns the recorded messages and forgets them.
  public func drain() -> [String] {
    defer { messages.removeAll() }
    return messages
  }
}
