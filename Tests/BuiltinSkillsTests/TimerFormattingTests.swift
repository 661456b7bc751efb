@testable import BuiltinSkills
import Testing

/// Lengths read from stores and replies are printed without trapping, whatever they hold.
struct TimerFormattingTests {
  @Test(arguments: [1e300, -1e300, 9.3e18, Double.infinity, Double.nan, -5])
  func absurdLengthIsFormattedWithoutTrapping(_ seconds: Double) {
    #expect(!TimerFormatting.duration(seconds).isEmpty)
  }
}
