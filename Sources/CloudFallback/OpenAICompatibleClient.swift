import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A client for any OpenAI-compatible chat-completions API: OpenAI, DeepSeek, Qwen (DashScope
/// compatible mode), Ollama, llama.cpp's `llama-server`, vLLM.
///
/// One call has one hard deadline (``LLMConfiguration/timeout``), retries included: HTTP 429 and
/// 5xx are retried once when the deadline allows, honouring `Retry-After`; a refused connection
/// ends the call at once. The key is sent as `Authorization: Bearer …` and never appears in an
/// error or a returned text.
public struct OpenAICompatibleClient: ChatModel {
  /// The endpoint, model, key, deadline and answer shape.
  public let configuration: LLMConfiguration
  private let endpoint: URL
  private let model: String

  /// Most body bytes read from one response: a classification needs a few hundred.
  public static let maximumResponseBytes = 1 << 20

  /// Most tokens the model may generate: an answer object is 30–80 tokens (SmolLM2 via
  /// `scripts/llm-e2e.sh`); more means the model is rambling and would only run into the deadline.
  public static let maximumTokens = 160

  /// Most attempts per call: the first plus one retry.
  public static let maximumAttempts = 2

  /// The wait before a retry when the server gives no `Retry-After`.
  public static let retryBackoff: Duration = .milliseconds(250)

  /// Creates a client, or nil when the configuration names no endpoint or model.
  public init?(configuration: LLMConfiguration) {
    guard let base = configuration.baseURL, let model = configuration.model,
      base.scheme == "http" || base.scheme == "https"
    else { return nil }
    self.configuration = configuration
    self.model = model
    endpoint =
      base.path.hasSuffix("/chat/completions")
      ? base : base.appendingPathComponent("chat/completions")
  }

  private var host: String { endpoint.host ?? "the endpoint" }

  public func complete(_ request: CloudRequest) async throws -> String {
    let names = ToolNames(ids: request.prompt.choices.map(\.id))
    let body = try requestBody(request, names: names)
    let answer = try await withDeadline(body)
    let text = answer.replyText(names: names)
    if configuration.answerShape == .tools, answer.toolCalls.isEmpty,
      ReplyPurifier.purify(text) == nil
    {
      // The model called no function and wrote no object: it found no skill that fits.
      return #"{"skill_id": null}"#
    }
    return text
  }

  /// Sends the conversation with every intent offered as a function, within the same deadline
  /// and retry rules as ``complete(_:)``, and returns the model's next turn.
  public func reply(to conversation: ChatConversation) async throws -> ChatTurn {
    let names = ToolNames(ids: conversation.prompt.choices.map(\.id))
    let body = try conversationBody(conversation, names: names)
    let answer = try await withDeadline(body)
    let calls = answer.toolCalls.sorted { $0.key < $1.key }.enumerated().compactMap {
      (position, entry) -> ChatToolCall? in
      let call = entry.value
      guard !call.name.isEmpty else { return nil }
      return ChatToolCall(
        id: call.id.isEmpty ? "call_\(position + 1)" : call.id,
        intent: names.intentID(forFunction: call.name), function: call.name,
        arguments: call.arguments)
    }
    return ChatTurn(content: answer.content, toolCalls: calls)
  }

  /// Sends `body` until an answer arrives or the configured deadline passes.
  private func withDeadline(_ body: Data) async throws -> ChatAnswer {
    let timeout = configuration.timeout
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    return try await withThrowingTaskGroup(of: ChatAnswer.self) { group in
      group.addTask { try await self.attempts(body, until: deadline, clock: clock) }
      group.addTask {
        try await clock.sleep(until: deadline)
        throw CloudFallbackError.timedOut(seconds: timeout / .seconds(1))
      }
      defer { group.cancelAll() }
      guard let first = try await group.next() else {
        throw CloudFallbackError.timedOut(seconds: timeout / .seconds(1))
      }
      return first
    }
  }

  /// Tries the call, retrying a throttled or failing server once while the deadline allows.
  private func attempts(
    _ body: Data, until deadline: ContinuousClock.Instant, clock: ContinuousClock
  ) async throws -> ChatAnswer {
    var attempt = 1
    while true {
      let left = clock.now.duration(to: deadline) / .seconds(1)
      guard left > 0 else {
        throw CloudFallbackError.timedOut(seconds: configuration.timeout / .seconds(1))
      }
      // The transport's own timeout is whole seconds on some platforms (libcurl), so it gets a
      // second more than the deadline, which the caller enforces exactly.
      let outcome = try await send(body, timeout: (left + 1).rounded(.up))
      switch outcome {
      case .answer(let answer):
        return answer
      case .status(let status, let retryAfter):
        let retriable = status == 429 || (500..<600).contains(status)
        let wait = retryAfter ?? Self.retryBackoff * attempt
        guard retriable, attempt < Self.maximumAttempts, clock.now + wait < deadline else {
          throw CloudFallbackError.httpStatus(status, host: host)
        }
        try await clock.sleep(for: wait)
        attempt += 1
      }
    }
  }

  private enum Outcome {
    case answer(ChatAnswer)
    case status(Int, retryAfter: Duration?)
  }

  private func send(_ body: Data, timeout: Double) async throws -> Outcome {
    var urlRequest = URLRequest(url: endpoint, timeoutInterval: timeout)
    urlRequest.httpMethod = "POST"
    urlRequest.httpBody = body
    urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
    urlRequest.setValue(
      configuration.isStreaming ? "text/event-stream" : "application/json",
      forHTTPHeaderField: "Accept")
    if let key = configuration.apiKey {
      urlRequest.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
    }
    let stream = configuration.isStreaming ? StreamAssembler() : nil
    var observer: HTTPTransfer.BodyObserver?
    if let stream {
      observer = { (data: Data) throws(CloudFallbackError) -> Void in try stream.feed(data) }
    }
    let response: HTTPTransfer.Response
    do {
      response = try await HTTPTransfer.perform(
        urlRequest, timeout: timeout, limit: Self.maximumResponseBytes, observer: observer)
    } catch let error as CloudFallbackError {
      throw error
    } catch let error as URLError {
      throw mapped(error)
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      throw CloudFallbackError.transport("request to \(host) failed")
    }
    guard (200..<300).contains(response.status) else {
      return .status(response.status, retryAfter: Self.retryAfter(response.headers["retry-after"]))
    }
    let answer: ChatAnswer
    if let stream, !Self.isJSONBody(response) {
      answer = try stream.finish()
    } else {
      answer = try ChatAnswer.decode(body: response.body)
    }
    if answer.finishReason == "length" { throw CloudFallbackError.truncated }
    return .answer(answer)
  }

  /// Whether a streamed request was answered with a plain JSON body (servers may ignore
  /// `stream`).
  private static func isJSONBody(_ response: HTTPTransfer.Response) -> Bool {
    guard let type = response.headers["content-type"]?.lowercased() else { return false }
    return type.contains("json") && !type.contains("event-stream")
  }

  private func mapped(_ error: URLError) -> CloudFallbackError {
    switch error.code {
    case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
      .unreachable(host: host)
    case .timedOut:
      .timedOut(seconds: configuration.timeout / .seconds(1))
    case .networkConnectionLost:
      .transport("the connection to \(host) was closed before the reply ended")
    case .badServerResponse:
      .transport("\(host) sent a response that is not HTTP")
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
      .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
      .transport("the TLS connection to \(host) failed; check the endpoint's certificate")
    default:
      .transport("request to \(host) failed (URLError \(error.code.rawValue))")
    }
  }

  /// The wait a `Retry-After` value asks for: seconds, or an HTTP date.
  static func retryAfter(_ value: String?) -> Duration? {
    guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
      return nil
    }
    if let seconds = Double(value), seconds.isFinite, seconds >= 0, seconds < 86_400 {
      return .milliseconds(Int64(seconds * 1000))
    }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    guard let date = formatter.date(from: value) else { return nil }
    let seconds = max(0, min(86_400, date.timeIntervalSinceNow))
    return .milliseconds(Int64(seconds * 1000))
  }

  /// The chat-completions request body for the configured answer shape.
  func requestBody(_ request: CloudRequest, names: ToolNames) throws -> Data {
    var body: [String: Any] = [
      "model": model,
      "messages": [
        ["role": "system", "content": request.system],
        ["role": "user", "content": request.user],
      ],
      "temperature": 0,
      "max_tokens": Self.maximumTokens,
      "stream": configuration.isStreaming,
    ]
    let ids = request.prompt.choices.map(\.id)
    switch configuration.answerShape {
    case .jsonObject:
      body["response_format"] = ["type": "json_object"]
    case .jsonSchema:
      // Every slot any intent declares, typed, and nothing else: a small model constrained to
      // this shape cannot ramble inside `input` until it hits its token limit.
      var slotTypes: [String: Set<String>] = [:]
      for choice in request.prompt.choices {
        for slot in choice.slots {
          slotTypes[slot.name, default: []].insert(Self.isNumeric(slot.type) ? "number" : "string")
        }
      }
      var inputProperties: [String: Any] = [:]
      for (name, types) in slotTypes {
        inputProperties[name] = ["type": types.sorted() + ["null"]]
      }
      let schema: [String: Any] = [
        "type": "object",
        "properties": [
          "skill_id": ["enum": ids + [NSNull()]],
          "input": [
            "type": "object", "properties": inputProperties, "additionalProperties": false,
          ],
          "confidence": ["type": "number"],
        ],
        "required": ["skill_id", "input"],
        "additionalProperties": false,
      ]
      body["response_format"] = [
        "type": "json_schema", "json_schema": ["name": "skill_choice", "schema": schema],
      ]
    case .tools:
      body["tools"] = tools(for: request.prompt, names: names)
      body["tool_choice"] = "auto"
    }
    return try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
  }

  /// Most tokens an answer in words may take: two short sentences, or a few calls.
  public static let maximumAnswerTokens = 400

  /// The chat-completions body continuing `conversation`, with every intent as a function.
  func conversationBody(_ conversation: ChatConversation, names: ToolNames) throws -> Data {
    let messages = conversation.messages.map { message -> [String: Any] in
      var object: [String: Any] = [
        "role": message.role.rawValue, "content": message.content.map { $0 as Any } ?? NSNull(),
      ]
      if !message.toolCalls.isEmpty {
        object["tool_calls"] = message.toolCalls.map { call -> [String: Any] in
          [
            "id": call.id, "type": "function",
            "function": ["name": call.function, "arguments": call.arguments],
          ]
        }
      }
      if let id = message.toolCallID { object["tool_call_id"] = id }
      return object
    }
    let body: [String: Any] = [
      "model": model, "messages": messages, "temperature": 0,
      "max_tokens": Self.maximumAnswerTokens, "stream": configuration.isStreaming,
      "tools": tools(for: conversation.prompt, names: names), "tool_choice": "auto",
    ]
    return try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
  }

  /// One function per intent, its parameters the intent's slots.
  private func tools(for prompt: CloudPrompt, names: ToolNames) -> [[String: Any]] {
    prompt.choices.map { choice -> [String: Any] in
      var properties: [String: Any] = [:]
      for slot in choice.slots {
        properties[slot.name] = [
          "type": Self.isNumeric(slot.type) ? "number" : "string",
          "description": Self.slotHint(slot.type),
        ]
      }
      return [
        "type": "function",
        "function": [
          "name": names.functionName(for: choice.id),
          "description": choice.description,
          "parameters": [
            "type": "object", "properties": properties,
            "required": choice.slots.filter(\.isRequired).map(\.name),
          ],
        ],
      ]
    }
  }

  private static func isNumeric(_ type: String) -> Bool {
    type == "duration" || type == "number"
  }

  private static func slotHint(_ type: String) -> String {
    switch type {
    case "duration": "seconds"
    case "datetime": "ISO 8601 with offset"
    case "date": "YYYY-MM-DD"
    default: type
    }
  }
}

/// The answer assembled from a server-sent event stream while it arrives.
final class StreamAssembler: Sendable {
  private struct State {
    var parser = ServerSentEventParser()
    var answer = ChatAnswer()
    var isDone = false
  }

  // Fed from the session's delegate queue, finished by the caller after the transfer ends; the
  // mutex orders the two.
  private let state = Mutex(State())

  /// Feeds body bytes; throws when an event is an error or the answer grows too long.
  func feed(_ data: Data) throws(CloudFallbackError) {
    try state.withLock { state throws(CloudFallbackError) in
      try Self.absorb(state.parser.feed(data), into: &state)
      if state.parser.isOverlong {
        throw .replyTooLarge(bytes: ServerSentEventParser.maximumLineLength)
      }
    }
  }

  /// Ends the stream and returns the assembled answer.
  func finish() throws(CloudFallbackError) -> ChatAnswer {
    try state.withLock { state throws(CloudFallbackError) in
      try Self.absorb(state.parser.finish(), into: &state)
      guard state.answer.hasChoice else {
        throw .malformedReply("the event stream held no chat-completion chunk")
      }
      return state.answer
    }
  }

  /// The answer (or error) a stream delivered in `chunks` assembles to, fed as the client feeds
  /// it: how a stream cut anywhere is checked to read the same as the whole.
  static func answer(
    from chunks: some Sequence<some Sequence<UInt8>>
  ) -> Result<ChatAnswer, CloudFallbackError> {
    let assembler = StreamAssembler()
    do throws(CloudFallbackError) {
      for chunk in chunks { try assembler.feed(Data(chunk)) }
      return .success(try assembler.finish())
    } catch {
      return .failure(error)
    }
  }

  private static func absorb(_ events: [String], into state: inout State) throws(CloudFallbackError)
  {
    for event in events where !state.isDone {
      if event.trimmingCharacters(in: .whitespaces) == "[DONE]" {
        state.isDone = true
        continue
      }
      let object = try ChatAnswer.parse(Data(event.utf8))
      try state.answer.absorb(object, isDelta: true)
    }
  }
}
