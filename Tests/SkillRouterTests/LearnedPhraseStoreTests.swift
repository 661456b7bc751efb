import Foundation
import IntentEngine
import SkillRouter
import Skills
import TestSupport
import Testing

struct LearnedPhraseStoreTests {
  @Test func twoStoresLearningAtOnceLoseNothing() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    // Forty writes queue for one lock; under a sanitizer on a loaded machine they can take longer
    // than the default wait, and this test is about losing nothing, not about speed.
    let first = LearnedPhraseStore(directory: folder.url, lockTimeout: .seconds(120))
    let second = LearnedPhraseStore(directory: folder.url, lockTimeout: .seconds(120))
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<40 {
        let store = index.isMultiple(of: 2) ? first : second
        group.addTask {
          await store.remember("phrase \(index)", intent: "timer.start", slots: .object([]))
        }
      }
    }
    #expect(await first.phrases().count == 40)
  }

  @Test func corruptFileIsSetAsideAndReported() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let problems = ProblemLog()
    let store = LearnedPhraseStore(directory: folder.url, problems: problems)
    try Data("{not json".utf8).write(to: store.url)
    await store.remember("a", intent: "timer.start", slots: .object([("duration", .number(60))]))
    #expect(await store.recall("a")?.slots == .object([("duration", .number(60))]))
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
    #expect(names.contains { $0.hasPrefix("learned.json.corrupt-") })
    #expect(await problems.drain().first?.hasPrefix("learned phrases file") == true)
  }
}
