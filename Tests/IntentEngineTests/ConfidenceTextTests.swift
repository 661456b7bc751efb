import IntentEngine
import Testing

struct ConfidenceTextTests {
  @Test(arguments: [
    (0.9996, 3, "0.999"), (1.0, 3, "1.000"), (0.0, 3, "0.000"), (0.00001, 3, "0.001"),
    (0.5, 2, "0.50"), (0.125, 2, "0.13"), (-1.5, 2, "-1.50"), (3.0, 0, "3"),
  ])
  func neverReadsAsCertainUnlessItIs(_ value: Double, _ decimals: Int, _ expected: String) {
    #expect(Confidence.text(value, decimals: decimals) == expected)
  }
}
