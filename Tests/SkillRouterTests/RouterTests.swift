import IntentEngine
import SkillRouter
import Testing

struct RouterTests {
  func router(_ mode: RouteMode, cloud: Bool) -> Router {
    Router(mode: mode, isCloudAvailable: cloud, localThreshold: 0.8, offlineThreshold: 0.5)
  }

  let confident = ParseResult.stub(intent: "timer.start", confidence: 0.93, isLocal: true)
  let unsure = ParseResult.stub(intent: "timer.start", confidence: 0.62, isLocal: false)
  let weak = ParseResult.stub(intent: "timer.start", confidence: 0.3, isLocal: false)
  let nothing = ParseResult.stub(intent: nil, confidence: 0, isLocal: false)

  @Test func confidentParseRunsLocallyInAutoAndLocalModes() {
    for mode in [RouteMode.auto, .local] {
      #expect(
        router(mode, cloud: true).firstStep(for: confident)
          == .local(reason: "confidence 0.93 ≥ local threshold 0.80"))
    }
  }

  @Test func unsureParseAsksTheCloudOnlyWhenOneIsConfigured() {
    #expect(
      router(.auto, cloud: true).firstStep(for: unsure)
        == .askCloud(reason: "confidence 0.62 < local threshold 0.80"))
    #expect(
      router(.auto, cloud: false).firstStep(for: unsure)
        == .offline(
          reason:
            "confidence 0.62 < local threshold 0.80; no cloud model is configured; confidence 0.62 ≥ offline threshold 0.50"
        ))
  }

  @Test func localModeNeverAsksTheCloud() {
    #expect(router(.local, cloud: true).firstStep(for: unsure).route == .offline)
    #expect(router(.local, cloud: true).firstStep(for: weak).route == .unmatched)
    #expect(router(.local, cloud: true).firstStep(for: nothing).route == .unmatched)
  }

  @Test func cloudModeAlwaysAsksTheCloud() {
    #expect(router(.cloud, cloud: true).firstStep(for: confident).route == nil)
  }

  @Test func cloudAnswerDecidesOrFallsBackToTheOfflineThreshold() {
    let r = router(.auto, cloud: true)
    #expect(r.step(after: .decided(intent: "memo.create"), for: unsure).route == .cloud)
    #expect(
      r.step(after: .noIntent, for: unsure) == .unmatched(reason: "the cloud model found no intent")
    )
    #expect(
      r.step(after: .failed(reason: "timeout"), for: unsure)
        == .offline(reason: "the cloud failed: timeout; confidence 0.62 ≥ offline threshold 0.50"))
    #expect(
      r.step(after: .failed(reason: "timeout"), for: weak)
        == .unmatched(reason: "the cloud failed: timeout; confidence 0.30 < offline threshold 0.50")
    )
  }

  @Test func missingRequiredSlotsAreNamedInTheReason() {
    let missing = ParseResult.stub(
      intent: "timer.start", confidence: 0.9, isLocal: false, missing: ["duration"])
    #expect(
      router(.auto, cloud: true).firstStep(for: missing)
        == .askCloud(reason: "required slots missing (duration)"))
  }
}
