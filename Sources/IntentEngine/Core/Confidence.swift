/// Writes scores and confidences for people.
public enum Confidence {
  /// The value with a fixed number of decimals; a confidence short of certainty never reads as
  /// certain (0.9996 is "0.999", not "1.000"), and 1 and 0 only when they are exact.
  public static func text(_ value: Double, decimals: Int = 3) -> String {
    // Past 10^12 the digits would overflow `Int` once scaled; such a value is shown as it is.
    guard value.isFinite, abs(value) < 1e12 else { return "\(value)" }
    var scale = 1
    for _ in 0..<max(0, min(decimals, 9)) { scale *= 10 }
    let magnitude = abs(value) * Double(scale)
    var units = Int(magnitude.rounded())
    // Round toward the nearest value that keeps "less than 1" and "more than 0" visible.
    if (0..<1).contains(value), units >= scale { units = scale - 1 }
    if value > 0, value < 1, units == 0 { units = 1 }
    let whole = units / scale
    var fraction = String(units % scale)
    while fraction.count < decimals { fraction = "0" + fraction }
    let sign = value < 0 && units > 0 ? "-" : ""
    return decimals > 0 ? "\(sign)\(whole).\(fraction)" : "\(sign)\(whole)"
  }
}
