/// A chat model that can be asked to classify an utterance the device was unsure about.
///
/// ## Implementation requirements
///
/// - Throw promptly once the task is cancelled.
/// - Never include credentials in thrown errors or returned text.
public protocol LLMClient: Sendable {
  /// Sends a system prompt and a user message and returns the model's raw reply text.
  func complete(system: String, user: String) async throws -> String
}
