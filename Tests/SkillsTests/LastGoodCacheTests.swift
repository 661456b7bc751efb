import Foundation
import Skills
import TestSupport
import Testing

struct LastGoodCacheTests {
  let start = Date(timeIntervalSince1970: 1_800_000_000)

  @Test func failedNetworkCallReturnsTheLastGoodResultMarkedStaleWithItsAge() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let date = TestDate(start)
    let cache = LastGoodCache(directory: folder.url, wallClock: WallClock { date.now })
    let clock = TestClock()
    let executor = SkillExecutor(clock: clock, retryPolicy: .never)
    let script = FailureScript([])
    let skill = AnySkill(EchoSkill(keepsLastGoodResult: true, script: script))

    let fresh = await executor.execute(try skill.call(with: json(#"{"city": "杭州"}"#)), cache: cache)
    #expect(!fresh.isStale)

    date.advance(by: 3_600)
    let failing = AnySkill(
      EchoSkill(keepsLastGoodResult: true, script: FailureScript([.unavailable("offline")])))
    let stale = await executor.execute(
      try failing.call(with: json(#"{"city": "杭州"}"#)), cache: cache)
    #expect(
      stale.status == .stale(try #require(fresh.output), age: 3_600, error: .unavailable("offline"))
    )
  }

  @Test func otherInputsAndPermanentFailuresGetNoStandIn() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let cache = LastGoodCache(directory: folder.url, wallClock: .fixed(start))
    let executor = SkillExecutor(clock: TestClock(), retryPolicy: .never)
    let ok = AnySkill(EchoSkill(keepsLastGoodResult: true))
    _ = await executor.execute(try ok.call(with: json(#"{"city": "杭州"}"#)), cache: cache)

    let offline = AnySkill(
      EchoSkill(keepsLastGoodResult: true, script: FailureScript([.unavailable("offline")])))
    let otherCity = await executor.execute(
      try offline.call(with: json(#"{"city": "北京"}"#)), cache: cache)
    #expect(otherCity.status == .failed(.unavailable("offline")))

    let invalid = AnySkill(
      EchoSkill(keepsLastGoodResult: true, script: FailureScript([.invalidInput("bad")])))
    let permanent = await executor.execute(
      try invalid.call(with: json(#"{"city": "杭州"}"#)), cache: cache)
    #expect(permanent.status == .failed(.invalidInput("bad")))
  }

  @Test func corruptEntryIsReportedAndSetAsideNotLost() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let problems = ProblemLog()
    let cache = LastGoodCache(directory: folder.url, wallClock: .fixed(start), problems: problems)
    let key = CacheKey(intentID: "weather.query", canonicalInput: json(#"{"city":"杭州"}"#))
    await cache.store(json(#"{"temp":20}"#), for: key)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
    let entry = folder.url.appendingPathComponent(try #require(files.first { !$0.hasPrefix(".") }))
    try Data("{ half a file".utf8).write(to: entry)

    #expect(await cache.lastGood(for: key) == nil)
    let reports = await problems.drain()
    #expect(reports.count == 1)
    #expect(reports.first?.contains("is corrupt; moved it to") == true)
    let after = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
    let asideName = try #require(after.first { $0.contains(".corrupt-") })
    let aside = try Data(contentsOf: folder.url.appendingPathComponent(asideName))
    #expect(String(decoding: aside, as: UTF8.self) == "{ half a file")

    await cache.store(json(#"{"temp":21}"#), for: key)
    #expect(await cache.lastGood(for: key)?.output == json(#"{"temp":21}"#))
  }

  @Test func keepsAtMostCapacityEntriesDroppingTheOldest() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let date = TestDate(start)
    let cache = LastGoodCache(directory: folder.url, capacity: 2, wallClock: WallClock { date.now })
    let keys = ["a", "b", "c"].map {
      CacheKey(intentID: "weather.query", canonicalInput: json(#"{"city":"\#($0)"}"#))
    }
    for key in keys {
      await cache.store(json("1"), for: key)
      date.advance(by: 60)
    }
    #expect(await cache.lastGood(for: keys[0]) == nil)
    #expect(await cache.lastGood(for: keys[1])?.age == 120)
    #expect(await cache.lastGood(for: keys[2])?.age == 60)
  }
}
