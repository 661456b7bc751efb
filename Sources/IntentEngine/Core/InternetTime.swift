/// Reads `YYYY-MM-DDTHH:MM:SS` with `Z`, `±HH:MM` or no offset (UTC), whole seconds only.
///
/// The common form of a `now` on a JSONL line, read without a formatter: making an
/// `ISO8601DateFormatter` costs tens of microseconds, and a bulk pipe reads a time on every line
/// that carries one. Anything else is left to Foundation's formatter by the caller.
public enum InternetTime {
  /// Seconds since 1970 for a time in exactly that form with every field in range, else nil.
  public static func secondsSinceEpoch(_ utf8: String.UTF8View) -> Int64? {
    let bytes = Array(utf8)
    guard bytes.count == 19 || bytes.count == 20 || bytes.count == 25 else { return nil }
    func number(_ start: Int, _ length: Int) -> Int? {
      var value = 0
      for index in start..<(start + length) {
        let digit = Int(bytes[index]) - 0x30
        guard (0...9).contains(digit) else { return nil }
        value = value * 10 + digit
      }
      return value
    }
    guard bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A,
      bytes[16] == 0x3A, let year = number(0, 4), let month = number(5, 2),
      let day = number(8, 2), let hour = number(11, 2), let minute = number(14, 2),
      let second = number(17, 2), year >= 1, (1...12).contains(month),
      (1...DateTimeResolver.daysInMonth(year, month)).contains(day), hour < 24, minute < 60,
      second < 60
    else { return nil }
    var offset = 0
    if bytes.count == 20 {
      guard bytes[19] == 0x5A else { return nil }
    } else if bytes.count == 25 {
      guard bytes[19] == 0x2B || bytes[19] == 0x2D, bytes[22] == 0x3A,
        let hours = number(20, 2), let minutes = number(23, 2), hours < 24, minutes < 60
      else { return nil }
      offset = (hours * 3_600 + minutes * 60) * (bytes[19] == 0x2D ? -1 : 1)
    }
    let days = DateTimeResolver.dayNumber((year, month, day))
    return Int64(days) * 86_400 + Int64(hour * 3_600 + minute * 60 + second - offset)
  }
}
