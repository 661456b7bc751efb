import CloudFallback
import Foundation
import IntentEngine
import SkillRouter
import Skills
import Synchronization

/// A stand-in for the timer skill: echoes what it would start.
struct FakeTimerSkill: Skill {
  struct Input: Decodable, Sendable {
    var duration: Double
    var text: String?
  }
  struct Output: Encodable, Sendable {
    var label: String
    var duration: Double
    var message: String
  }
  var intentID: String { "timer.start" }
  var displayName: String { "Start timer" }

  func perform(_ input: Input) async throws -> Output {
    let label = input.text ?? "timer"
    return Output(label: label, duration: input.duration, message: "timer '\(label)' set")
  }
}

/// A weather skill whose service is down.
struct BrokenWeatherSkill: Skill {
  struct Input: Decodable, Sendable { var text: String? }
  struct Output: Encodable, Sendable { var message: String }
  var intentID: String { "weather.query" }
  var displayName: String { "Weather" }
  func perform(_ input: Input) async throws -> Output {
    throw SkillError.failed("weather service returned 500")
  }
}

/// A skill that waits until the test opens its gate.
struct GatedSkill: Skill {
  struct Input: Decodable, Sendable { var duration: Double }
  struct Output: Encodable, Sendable { var message: String }
  var intentID: String { "timer.start" }
  var displayName: String { "Start timer" }
  let gate: Gate
  func perform(_ input: Input) async throws -> Output {
    await gate.wait()
    return Output(message: "started")
  }
}

/// A one-shot gate tasks wait on until it opens.
actor Gate {
  private var isOpen = false
  private var waiters: [CheckedContinuation<Void, Never>] = []
  func wait() async {
    if isOpen { return }
    await withCheckedContinuation { waiters.append($0) }
  }
  func open() {
    isOpen = true
    for waiter in waiters { waiter.resume() }
    waiters.removeAll()
  }
}

/// A cloud model with a canned reply (or error), recording what it was asked.
final class ScriptedLLMClient: LLMClient {
  enum Behaviour: Sendable {
    case reply(String)
    case fail(SkillError)
    case hang
  }
  let behaviour: Behaviour
  private let prompts = Mutex<[String]>([])

  init(_ behaviour: Behaviour) { self.behaviour = behaviour }

  var askedUtterances: [String] { prompts.withLock { $0 } }

  func complete(_ request: CloudRequest) async throws -> String {
    prompts.withLock { $0.append(request.text) }
    switch behaviour {
    case .reply(let text): return text
    case .fail(let error): throw error
    case .hang:
      try await Task.sleep(for: .seconds(3_600))
      return "{}"
    }
  }
}

extension ParseResult {
  /// A bare parse result for policy tests.
  static func stub(
    intent: IntentID?, confidence: Double, isLocal: Bool, missing: [String] = []
  ) -> ParseResult {
    ParseResult(
      text: "t", normalizedText: "t", intent: intent, confidence: confidence, score: 0,
      route: isLocal ? .local : .fallback, slots: [], missingSlots: missing, alternatives: [],
      explanation: [])
  }
}
