import Foundation

/// A chat-completions answer assembled from one response body or from stream chunks.
struct ChatAnswer: Sendable, Equatable {
  /// One function call the model made.
  struct ToolCall: Sendable, Equatable {
    var id = ""
    var name = ""
    var arguments = ""
  }

  /// The message text.
  var content = ""
  /// The function calls, by their stream index.
  var toolCalls: [Int: ToolCall] = [:]
  /// Why the model stopped, such as `stop`, `length` or `tool_calls`.
  var finishReason: String?
  /// Whether any choice was seen.
  var hasChoice = false

  /// Longest content or arguments kept, in UTF-8 bytes.
  static let maximumLength = 256 * 1024

  /// Deepest nesting read in a response body before it is parsed.
  static let maximumEnvelopeDepth = 64

  /// The answer in a complete (non-streamed) response body.
  static func decode(body: Data) throws(CloudFallbackError) -> ChatAnswer {
    let object = try parse(body)
    var answer = ChatAnswer()
    try answer.absorb(object, isDelta: false)
    guard answer.hasChoice else { throw .malformedReply("the response has no 'choices'") }
    return answer
  }

  /// A JSON object from bytes, refusing deep nesting before the parser sees it.
  static func parse(_ data: Data) throws(CloudFallbackError) -> [String: Any] {
    guard depth(of: data) <= maximumEnvelopeDepth else {
      throw .tooDeep(limit: maximumEnvelopeDepth)
    }
    guard let value = try? JSONSerialization.jsonObject(with: data),
      let object = value as? [String: Any]
    else {
      throw .malformedReply("the response is not a JSON object")
    }
    return object
  }

  /// Adds one response object (or stream chunk when `isDelta`) to the answer.
  mutating func absorb(_ object: [String: Any], isDelta: Bool) throws(CloudFallbackError) {
    if let error = object["error"] {
      let message = (error as? [String: Any])?["message"] as? String
      throw .malformedReply("the server reported an error: '\(message?.prefix(200) ?? "?")'")
    }
    guard let choices = object["choices"] as? [Any] else { return }
    guard let choice = choices.first as? [String: Any] else { return }
    hasChoice = true
    if let reason = choice["finish_reason"] as? String { finishReason = reason }
    let message = choice[isDelta ? "delta" : "message"] as? [String: Any] ?? [:]
    if let text = message["content"] as? String {
      content += text
      guard content.utf8.count <= Self.maximumLength else {
        throw .replyTooLarge(bytes: Self.maximumLength)
      }
    }
    for (position, element) in (message["tool_calls"] as? [Any] ?? []).enumerated() {
      guard let call = element as? [String: Any] else { continue }
      let index = (call["index"] as? Int) ?? position
      var entry = toolCalls[index] ?? ToolCall()
      if let id = call["id"] as? String, entry.id.isEmpty { entry.id = String(id.prefix(256)) }
      let function = call["function"] as? [String: Any] ?? [:]
      if let name = function["name"] as? String { entry.name += name }
      if let arguments = function["arguments"] as? String {
        entry.arguments += arguments
      } else if let arguments = function["arguments"] as? [String: Any],
        let data = try? JSONSerialization.data(withJSONObject: arguments, options: [.sortedKeys])
      {
        entry.arguments += String(decoding: data, as: UTF8.self)
      }
      guard entry.arguments.utf8.count <= Self.maximumLength else {
        throw .replyTooLarge(bytes: Self.maximumLength)
      }
      toolCalls[index] = entry
    }
  }

  /// The answer as reply text: a tool call becomes `{"skill_id": …, "input": …}`.
  func replyText(names: ToolNames) -> String {
    if let call = toolCalls.sorted(by: { $0.key < $1.key }).first?.value, !call.name.isEmpty {
      let id = names.intentID(forFunction: call.name)
      let arguments = call.arguments.trimmingCharacters(in: .whitespacesAndNewlines)
      let idJSON =
        (try? JSONSerialization.data(withJSONObject: [id], options: [])).map {
          String(String(decoding: $0, as: UTF8.self).dropFirst().dropLast())
        } ?? "null"
      return "{\"skill_id\": \(idJSON), \"input\": \(arguments.isEmpty ? "{}" : arguments)}"
    }
    return content
  }

  /// The deepest nesting of arrays and objects outside strings.
  static func depth(of data: Data) -> Int {
    var depth = 0
    var deepest = 0
    var inString = false
    var escaped = false
    for byte in data {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        deepest = max(deepest, depth)
      case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
      default: break
      }
    }
    return deepest
  }
}
