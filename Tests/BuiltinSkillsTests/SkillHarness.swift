import BuiltinSkills
import Foundation
import Skills
import TestSupport

/// The built-in skills over a temporary data directory, on a settable clock, in Shanghai time.
struct SkillHarness {
  let folder: TemporaryDirectory
  let date: TestDate
  let registry: SkillRegistry
  let problems = ProblemLog()
  static let shanghai = TimeZone(identifier: "Asia/Shanghai") ?? .gmt

  /// Starts at 2026-11-30 09:00 Shanghai (a Monday).
  init(start: Date = Date(timeIntervalSince1970: 1_796_000_000 + 400)) throws {
    folder = try TemporaryDirectory()
    let date = TestDate(start)
    self.date = date
    registry = try SkillRegistry(
      Builtins.makeSkills(
        dataDirectory: folder.url, wallClock: WallClock { date.now }, timeZone: Self.shanghai,
        problems: problems))
  }

  /// Runs the skill for `intent` on a slots object and returns its result as a JSON object.
  func run(_ intent: String, _ json: String) async throws -> [String: Any] {
    guard let skill = registry.skill(for: intent) else {
      throw SkillError.notAvailable(intent: intent)
    }
    let output = try await skill.call(with: Data(json.utf8)).perform()
    return (try JSONSerialization.jsonObject(with: output) as? [String: Any]) ?? [:]
  }

  /// The `message` of a run.
  func say(_ intent: String, _ json: String) async throws -> String {
    try await run(intent, json)["message"] as? String ?? ""
  }
}
