import Foundation
import TestSupport
import Testing

@testable import intent

/// A temporary folder with a small grammar and fixture set, and a way to run `intent` in process.
///
/// Each test makes its own, so tests run in parallel without sharing files.
final class BenchScratch: Sendable {
  let root: URL

  /// A two-intent English grammar: weather questions and cancelling timers.
  static let grammar = """
    list conjunctions: and then

    intent weather.query
      description: weather questions
      keywords topic (weight 2, required): weather, rain, umbrella
      keywords extra: today, tomorrow, will, it

    intent timer.cancel
      description: cancel timers
      keywords action (weight 2, required): cancel, stop
      keywords object (weight 2, required): timer, countdown
      exclude: weather

    """

  /// Lines whose outcome with `grammar` is known: six right, one false accept (line 6), one
  /// in-scope line sent to the fallback (line 3), one unreadable-free out-of-scope line.
  static let fixtures = """
    {"text": "weather today", "lang": "en", "intent": "weather.query", "slots": {}, "split": "dev", "tags": []}
    {"text": "weather", "lang": "en", "intent": "weather.query", "split": "test", "tags": []}
    {"text": "what is the weather in paris", "lang": "en", "intent": "weather.query", "split": "test", "tags": []}
    {"text": "cancel my timer", "lang": "en", "intent": "timer.cancel", "slots": {}, "split": "dev", "tags": []}
    {"text": "cancel my subscription", "lang": "en", "intent": null, "split": "dev", "tags": ["near_miss"]}
    {"text": "will it rain tomorrow", "lang": "en", "intent": null, "split": "test", "tags": []}
    {"text": "stop the countdown", "lang": "en", "intent": "timer.cancel", "split": "test", "tags": []}
    {"text": "umbrella today", "lang": "en", "intent": "weather.query", "split": "dev", "tags": []}

    """

  init() throws {
    root = FileManager.default.temporaryDirectory
      .appendingPathComponent("intent-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("grammars/en"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("Fixtures/en"), withIntermediateDirectories: true)
    try write(Self.grammar, to: "grammars/en/test.grammar")
    try write(Self.fixtures, to: "Fixtures/en/lines.jsonl")
  }

  deinit { try? FileManager.default.removeItem(at: root) }

  func write(_ text: String, to path: String) throws {
    try Data(text.utf8).write(to: root.appendingPathComponent(path))
  }

  func read(_ path: String) -> String? {
    FileManager.default.contents(atPath: root.appendingPathComponent(path).path)
      .flatMap { String(data: $0, encoding: .utf8) }
  }

  func exists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
  }

  /// Runs `intent` with the scratch grammar only, in the scratch folder.
  func run(_ arguments: [String], environment: [String: String] = [:]) async -> CommandOutput {
    let stdout = OutputBuffer()
    let stderr = OutputBuffer()
    let io = CommandIO(
      readInput: { Data() }, write: stdout.append, writeError: stderr.append,
      environment: environment,
      currentDirectory: root)
    let all = arguments + ["--no-builtin", "--grammars", "grammars"]
    let code = await IntentCommand.run(all, io: io)
    return CommandOutput(stdout: stdout.text, stderr: stderr.text, code: code)
  }
}

/// What a command printed and returned.
struct CommandOutput: Sendable {
  var stdout = ""
  var stderr = ""
  var code: Int32 = -1
}
