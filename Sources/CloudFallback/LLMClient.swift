/// A chat model that can be asked to classify an utterance the device was unsure about.
///
/// ## Implementation requirements
///
/// - Throw promptly once the task is cancelled.
/// - Never include credentials in thrown errors or returned text.
/// - Return the model's answer as text: the message content, or, for a tool call, the object
///   `{"skill_id": …, "input": …}` built from it.
public protocol LLMClient: Sendable {
  /// Sends the prompt for one utterance and returns the model's raw answer text.
  func complete(_ request: CloudRequest) async throws -> String
}

/// One classification request: the prompt over the known intents, and the user's text.
public struct CloudRequest: Sendable {
  /// The system prompt and the intents it lists.
  public var prompt: CloudPrompt
  /// The user's utterance, sent as data.
  public var text: String

  /// Creates a request.
  public init(prompt: CloudPrompt, text: String) {
    self.prompt = prompt
    self.text = text
  }

  /// The system message.
  public var system: String { prompt.system }

  /// The user message, with the utterance set apart as data.
  public var user: String { CloudPrompt.userMessage(for: text) }
}
