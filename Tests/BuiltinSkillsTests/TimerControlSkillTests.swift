import BuiltinSkills
import Foundation
import Skills
import TestSupport
import Synchronization
import Testing

struct TimerControlSkillTests {
  @Test func statusTellsTheTimeLeftOnOneOrAll() async throws {
    let skills = try SkillHarness()
    defer { skills.folder.remove() }
    _ = try await skills.run("timer.start", #"{"duration": 600, "text": "意面"}"#)
    _ = try await skills.run("timer.start", #"{"duration": 180, "text": "关火"}"#)
    skills.date.advance(by: 60)
    #expect(
      try await skills.say("timer.status", #"{"lang": "zh"}"#) == "2个计时器：关火还剩2分钟；意面还剩9分钟")
    #expect(
      try await skills.say("timer.status", #"{"text": "意面", "lang": "en"}"#) == "'意面' 9 min left")
  }

  @Test func pauseHoldsTheTimeLeftAndResumeStartsItAgain() async throws {
    let skills = try SkillHarness()
    defer { skills.folder.remove() }
    _ = try await skills.run("timer.start", #"{"duration": 300, "text": "tea"}"#)
    skills.date.advance(by: 60)
    #expect(
      try await skills.say("timer.pause", #"{"lang": "en"}"#) == "paused: 'tea' 4 min left (paused)"
    )
    skills.date.advance(by: 3_600)
    #expect(try await skills.say("timer.status", "{}") == "'tea' 4 min left (paused)")
    let due = DueCollector(directory: skills.folder.url, wallClock: WallClock { skills.date.now })
    #expect(try await due.takeDue().isEmpty)
    #expect(try await skills.say("timer.resume", #"{"lang": "zh"}"#) == "已继续：tea还剩4分钟")
    skills.date.advance(by: 240)
    #expect(try await due.takeDue().map(\.title) == ["tea"])
  }

  @Test func adjustAddsOrTakesOffSignedSeconds() async throws {
    let skills = try SkillHarness()
    defer { skills.folder.remove() }
    _ = try await skills.run("timer.start", #"{"duration": 300, "text": "pasta"}"#)
    let added = try await skills.run("timer.adjust", #"{"duration": 300, "lang": "en"}"#)
    #expect(added["message"] as? String == "added 5 min: 'pasta' 10 min left")
    let timers = try #require(added["timers"] as? [[String: Any]])
    #expect(timers.first?["fire_date"] as? String == "2026-11-30T09:10:00+08:00")
    #expect(
      try await skills.say("timer.adjust", #"{"duration": -120, "text": "pasta", "lang": "zh"}"#)
        == "已减去2分钟：pasta还剩8分钟")
    await #expect(
      throws: SkillError.invalidInput("slot 'duration' is required; say how much time to add")
    ) {
      _ = try await skills.run("timer.adjust", "{}")
    }
  }

  @Test func cancelWithScopeAllCancelsEveryTimer() async throws {
    let skills = try SkillHarness()
    defer { skills.folder.remove() }
    for label in ["a", "b", "c"] {
      _ = try await skills.run("timer.start", #"{"duration": 300, "text": "\#(label)"}"#)
    }
    let result = try await skills.run("timer.cancel", #"{"scope": "all", "lang": "en"}"#)
    #expect((result["cancelled"] as? [Any])?.count == 3)
    #expect(try await skills.say("timer.status", #"{"lang": "en"}"#) == "no timers are running")
    #expect(try await skills.say("timer.pause", #"{"lang": "zh"}"#) == "没有可暂停的计时器")
  }

  @Test func aTimerThatWentOffIsReportedOnceWithWhen() async throws {
    let skills = try SkillHarness()
    defer { skills.folder.remove() }
    _ = try await skills.run("timer.start", #"{"duration": 180, "text": "关火"}"#)
    skills.date.advance(by: 600)
    let due = DueCollector(directory: skills.folder.url, wallClock: WallClock { skills.date.now })
    let items = try await due.takeDue()
    #expect(items.map(\.title) == ["关火"])
    #expect(items.first?.dueAt == skills.date.now.addingTimeInterval(-420))
    #expect(items.first?.kind == .timer)
    #expect(try await due.takeDue().isEmpty)
  }

  @Test func theWatcherNotifiesEachItemAsItFallsDue() async throws {
    let skills = try SkillHarness()
    defer { skills.folder.remove() }
    _ = try await skills.run("timer.start", #"{"duration": 60, "text": "one"}"#)
    _ = try await skills.run("timer.start", #"{"duration": 120, "text": "two"}"#)
    let clock = TestClock()
    let notifier = RecordingNotifier()
    let due = DueCollector(directory: skills.folder.url, wallClock: WallClock { skills.date.now })
    let watch = Task { try await due.watch(every: .seconds(1), clock: clock, notifier: notifier) }
    #expect(await clock.waitForSleepers())
    #expect(notifier.titles.isEmpty)
    skills.date.advance(by: 61)
    clock.advance(by: .seconds(1))
    #expect(await notifier.waitFor(count: 1))
    #expect(notifier.titles == ["one"])
    #expect(await clock.waitForSleepers())
    skills.date.advance(by: 60)
    clock.advance(by: .seconds(1))
    #expect(await notifier.waitFor(count: 2))
    #expect(notifier.titles == ["one", "two"])
    watch.cancel()
  }
}

/// Records what it was asked to show.
final class RecordingNotifier: Notifier {
  // Every access goes through the mutex.
  private let items = Mutex<[DueItem]>([])

  func notify(_ item: DueItem) async { items.withLock { $0.append(item) } }

  var titles: [String] { items.withLock { $0.map(\.title) } }

  /// Waits (a few milliseconds at a time, at most 5 s) until `count` items were shown.
  func waitFor(count: Int) async -> Bool {
    for _ in 0..<5_000 {
      if items.withLock({ $0.count }) >= count { return true }
      try? await Task.sleep(for: .milliseconds(1))
    }
    return false
  }
}
