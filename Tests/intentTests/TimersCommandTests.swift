import Foundation
import TestSupport
import Testing

@testable import intent

struct TimersCommandTests {
  @Test func saysWhenNoTimersAreRunning() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    #expect(await cli.run(["timers"]) == 0)
    #expect(cli.stdout == "no timers are running\n")
    #expect(await cli.run(["timers", "--json"]) == 0)
    #expect(cli.stdout == "{\n  \"timers\": []\n}\n")
  }

  @Test func firedTimersAreNotListed() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    #expect(await cli.run(["run", "--now", "2026-11-30T09:00:00+08:00", "3分钟后提醒我关火"]) == 0)
    #expect(await cli.run(["timers", "--now", "2026-11-30T09:04:00+08:00"]) == 0)
    #expect(cli.stdout == "no timers are running\n")
  }

  @Test func rejectsText() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    #expect(await cli.run(["timers", "关火"]) == 2)
    #expect(
      cli.stderr.hasPrefix("error: unexpected argument '关火'; 'intent timers' takes no text\n"))
  }
}
