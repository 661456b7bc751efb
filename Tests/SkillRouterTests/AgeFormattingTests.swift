import IntentEngine
import Testing

@testable import SkillRouter

/// Ages and confidences from files and replies are printed without trapping.
struct AgeFormattingTests {
  @Test(arguments: [1e300, -1e300, 9.3e18, Double.infinity, Double.nan])
  func absurdNumberIsFormattedWithoutTrapping(_ value: Double) {
    #expect(!ClauseOutcome.describeAge(value).isEmpty)
    #expect(!Confidence.text(value).isEmpty)
  }

  @Test func ordinaryAgeReadsAsBefore() {
    #expect(ClauseOutcome.describeAge(90) == "90 s")
    #expect(Confidence.text(0.5) == "0.500")
  }
}
