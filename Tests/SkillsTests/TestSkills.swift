import Foundation
import Skills
import Synchronization

/// Echoes its input back, optionally failing a scripted number of times first.
struct EchoSkill: Skill {
  struct Input: Decodable, Sendable {
    var city: String
    var days: Int?
  }
  struct Output: Encodable, Sendable {
    var city: String
    var days: Int
  }

  var intentID = "weather.query"
  var displayName = "Echo"
  var keepsLastGoodResult = false
  var script: FailureScript? = nil

  func perform(_ input: Input) async throws -> Output {
    if let script, let error = script.nextFailure() { throw error }
    return Output(city: input.city, days: input.days ?? 1)
  }
}

/// The failures a test skill throws on successive calls, then success.
final class FailureScript: Sendable {
  private let remaining: Mutex<[SkillError]>
  private let calls = Mutex(0)

  init(_ failures: [SkillError]) { remaining = Mutex(failures) }

  /// How many times the skill was called.
  var callCount: Int { calls.withLock { $0 } }

  func nextFailure() -> SkillError? {
    calls.withLock { $0 += 1 }
    return remaining.withLock { $0.isEmpty ? nil : $0.removeFirst() }
  }
}

/// Sleeps (on the real clock) for an hour unless cancelled, and records whether it was.
struct SlowSkill: Skill {
  struct Input: Decodable, Sendable {}
  struct Output: Encodable, Sendable { var done: Bool }

  var intentID = "slow.work"
  var displayName = "Slow"
  let probe: CancellationProbe

  func perform(_ input: Input) async throws -> Output {
    probe.started()
    do {
      try await Task.sleep(for: .seconds(3_600))
    } catch {
      probe.cancelled()
      throw error
    }
    return Output(done: true)
  }
}

/// What a slow skill saw: whether it started and whether its work was cancelled.
final class CancellationProbe: Sendable {
  private let state = Mutex((started: false, cancelled: false))
  func started() { state.withLock { $0.started = true } }
  func cancelled() { state.withLock { $0.cancelled = true } }
  var wasStarted: Bool { state.withLock { $0.started } }
  var wasCancelled: Bool { state.withLock { $0.cancelled } }
}

extension Data {
  /// The data as compact JSON with sorted keys, for assertions.
  var canonicalJSON: String? {
    guard let object = try? JSONSerialization.jsonObject(with: self, options: [.fragmentsAllowed]),
      let data = try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
    else { return nil }
    return String(decoding: data, as: UTF8.self)
  }
}

func json(_ text: String) -> Data { Data(text.utf8) }
