import Foundation

/// Percentiles of a set of timings, in microseconds.
struct Timings {
  let samples: Int
  let p50: Double
  let p95: Double
  let p99: Double
  let mean: Double
  let min: Double
  let max: Double

  /// Summarises durations in nanoseconds by nearest rank; an empty set gives zeros.
  init(nanoseconds: [UInt64]) {
    let sorted = nanoseconds.sorted()
    samples = sorted.count
    func percentile(_ p: Double) -> Double {
      guard !sorted.isEmpty else { return 0 }
      let rank = Int((p * Double(sorted.count)).rounded(.up))
      return Double(sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]) / 1_000
    }
    p50 = percentile(0.50)
    p95 = percentile(0.95)
    p99 = percentile(0.99)
    mean =
      sorted.isEmpty ? 0 : sorted.reduce(0.0) { $0 + Double($1) } / Double(sorted.count) / 1_000
    min = sorted.first.map { Double($0) / 1_000 } ?? 0
    max = sorted.last.map { Double($0) / 1_000 } ?? 0
  }

  /// `p50 / p95 / p99` in the most readable unit.
  var percentiles: String {
    "p50 \(Self.format(p50))  p95 \(Self.format(p95))  p99 \(Self.format(p99))"
  }

  /// Microseconds below 10 ms, milliseconds above.
  static func format(_ micros: Double) -> String {
    micros >= 10_000
      ? String(format: "%.1f ms", micros / 1_000)
      : micros >= 100 ? String(format: "%.0f µs", micros) : String(format: "%.2f µs", micros)
  }
}

/// A monotonic clock reading in nanoseconds.
@inline(__always)
func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Times `body` once, in nanoseconds.
@inline(__always)
func time(_ body: () throws -> Void) rethrows -> UInt64 {
  let start = now()
  try body()
  return now() &- start
}

/// A small deterministic random number generator (SplitMix64), so synthetic data is the same every run.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
