import Foundation

/// Splits a server-sent event stream into the payloads of its `data:` lines as bytes arrive.
///
/// Bytes are buffered until a line ends — at LF, CRLF or a lone CR, as the SSE format allows — so a
/// chunk boundary anywhere (inside a UTF-8 character, between `\r` and `\n`) changes nothing.
/// Comment lines (`:`) and other fields are skipped; an event whose data is empty (a keep-alive
/// `data:` line) is not dispatched, as the format says.
struct ServerSentEventParser {
  /// Longest line kept; a longer one is a broken stream.
  static let maximumLineLength = 1 << 20

  private var buffer: [UInt8] = []
  private var pending: [String] = []
  /// Whether the last byte was a CR, whose LF (if one comes next) ends no second line.
  private var afterCarriageReturn = false
  /// Whether a line grew past ``maximumLineLength``.
  private(set) var isOverlong = false

  /// Feeds bytes and returns the `data:` payloads of the events they completed.
  ///
  /// Consecutive `data:` lines of one event are joined with `\n`, as the SSE format says.
  mutating func feed(_ bytes: some Sequence<UInt8>) -> [String] {
    var events: [String] = []
    for byte in bytes {
      if afterCarriageReturn {
        afterCarriageReturn = false
        if byte == UInt8(ascii: "\n") { continue }
      }
      switch byte {
      case UInt8(ascii: "\r"):
        afterCarriageReturn = true
        endLine(into: &events)
      case UInt8(ascii: "\n"):
        endLine(into: &events)
      default:
        if buffer.count < Self.maximumLineLength {
          buffer.append(byte)
        } else {
          isOverlong = true
        }
      }
    }
    return events
  }

  /// Ends the stream and returns an event left without its blank line.
  mutating func finish() -> [String] {
    var events: [String] = []
    if !buffer.isEmpty { endLine(into: &events) }
    dispatch(into: &events)
    return events
  }

  private mutating func endLine(into events: inout [String]) {
    let line = String(decoding: buffer, as: UTF8.self)
    buffer.removeAll(keepingCapacity: true)
    if line.isEmpty {
      dispatch(into: &events)
    } else if line == "data" {
      pending.append("")
    } else if line.hasPrefix("data:") {
      var payload = line.dropFirst(5)
      if payload.first == " " { payload = payload.dropFirst() }
      pending.append(String(payload))
    }
  }

  /// Hands on the event being read, unless its data is empty.
  private mutating func dispatch(into events: inout [String]) {
    let data = pending.joined(separator: "\n")
    pending.removeAll()
    if !data.isEmpty { events.append(data) }
  }
}
