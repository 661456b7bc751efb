import Foundation

/// Splits a server-sent event stream into the payloads of its `data:` lines as bytes arrive.
///
/// Bytes are buffered until a line ends, so a chunk boundary anywhere (inside a UTF-8 character,
/// between `\r` and `\n`) changes nothing. Comment lines (`:`) and other fields are skipped.
struct ServerSentEventParser {
  /// Longest line kept; a longer one is a broken stream.
  static let maximumLineLength = 1 << 20

  private var buffer: [UInt8] = []
  private var pending: [String] = []
  /// Whether a line grew past ``maximumLineLength``.
  private(set) var isOverlong = false

  /// Feeds bytes and returns the `data:` payloads of the events they completed.
  ///
  /// Consecutive `data:` lines of one event are joined with `\n`, as the SSE format says.
  mutating func feed(_ bytes: some Sequence<UInt8>) -> [String] {
    var events: [String] = []
    for byte in bytes {
      guard byte == UInt8(ascii: "\n") else {
        if buffer.count < Self.maximumLineLength {
          buffer.append(byte)
        } else {
          isOverlong = true
        }
        continue
      }
      if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
      let line = String(decoding: buffer, as: UTF8.self)
      buffer.removeAll(keepingCapacity: true)
      if line.isEmpty {
        if !pending.isEmpty { events.append(pending.joined(separator: "\n")) }
        pending.removeAll()
      } else if line.hasPrefix("data:") {
        var payload = line.dropFirst(5)
        if payload.first == " " { payload = payload.dropFirst() }
        pending.append(String(payload))
      }
    }
    return events
  }

  /// Ends the stream and returns an event left without its blank line.
  mutating func finish() -> [String] {
    var events = feed([UInt8(ascii: "\n")])
    if !pending.isEmpty { events.append(pending.joined(separator: "\n")) }
    pending.removeAll()
    return events
  }
}
