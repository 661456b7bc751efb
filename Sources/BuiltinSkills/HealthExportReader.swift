public import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Streams an Apple Health `export.xml` and keeps the records of one type in a time range.
///
/// The file is read through an `InputStream` by `XMLParser`, a chunk at a time, so an export of
/// hundreds of megabytes never sits in memory; only the matching records do, as three numbers
/// each.
public struct HealthExportReader: Sendable {
  /// One record: its source, interval, and value (a number, or a category's name).
  public struct Record: Sendable, Equatable {
    /// The app or device that wrote it, such as "Apple Watch".
    public var source: String
    /// When it starts.
    public var start: Date
    /// When it ends.
    public var end: Date
    /// The numeric value (steps, beats per minute); nil for a category record.
    public var value: Double?
    /// The category value, such as `HKCategoryValueSleepAnalysisAsleepCore`.
    public var category: String?
  }

  /// Why an export could not be read.
  public enum Failure: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file does not exist or cannot be opened.
    case unreadable(path: String)
    /// The XML is broken at `line`.
    case malformed(path: String, line: Int, reason: String)
    /// The file is XML but not a Health export.
    case notAnExport(path: String, root: String)

    public var description: String {
      switch self {
      case .unreadable(let path):
        "cannot read the health export '\(path)'; export it from the Health app ('Export All Health Data') and point INTENT_HEALTH_EXPORT at its export.xml"
      case .malformed(let path, let line, let reason):
        "the health export '\(path)' is not valid XML at line \(line) (\(reason)); export it again"
      case .notAnExport(let path, let root):
        "'\(path)' is not an Apple Health export (its root element is '\(root)', not 'HealthData'); point INTENT_HEALTH_EXPORT at export.xml"
      }
    }
  }

  /// The export file.
  public let url: URL

  /// Creates a reader for `url`; nothing is read until ``records(ofType:from:to:)``.
  public init(url: URL) {
    self.url = url
  }

  /// The records of `type` (such as `HKQuantityTypeIdentifierStepCount`) that overlap
  /// `start..<end`, in file order.
  ///
  /// - Throws: ``Failure`` for a missing, malformed or foreign file; `CancellationError` when
  ///   the task is cancelled mid-read.
  public func records(ofType type: String, from start: Date, to end: Date) throws -> [Record] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
      !isDirectory.boolValue, let file = FileHandle(forReadingAtPath: url.path)
    else {
      throw Failure.unreadable(path: url.path)
    }
    defer { try? file.close() }
    let stream = DoctypeStrippingStream(file: file)
    let parser = XMLParser(stream: stream)
    parser.shouldResolveExternalEntities = false
    let collector = Collector(
      type: type, start: start.timeIntervalSince1970, end: end.timeIntervalSince1970)
    parser.delegate = collector
    let parsed = parser.parse()
    if collector.wasCancelled { throw CancellationError() }
    if let root = collector.root, root != "HealthData" {
      throw Failure.notAnExport(path: url.path, root: root)
    }
    guard parsed else {
      let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "unknown"
      throw Failure.malformed(path: url.path, line: parser.lineNumber, reason: reason)
    }
    guard collector.root != nil else {
      throw Failure.malformed(path: url.path, line: parser.lineNumber, reason: "no elements")
    }
    guard collector.isRootClosed else {
      throw Failure.malformed(
        path: url.path, line: parser.lineNumber, reason: "it ends before '</HealthData>'")
    }
    return collector.records
  }

  /// Parses Health's date form, `2026-11-30 08:00:00 +0800`, without a formatter per record.
  public static func date(_ text: String) -> Date? {
    var digits: [Int] = []
    var current = 0
    var length = 0
    var sign = 1
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        current = current * 10 + Int(byte - UInt8(ascii: "0"))
        length += 1
        guard length <= 4 else { return nil }
      case UInt8(ascii: "-") where digits.count == 6 && length == 0:
        sign = -1
      case UInt8(ascii: "+") where digits.count == 6 && length == 0:
        sign = 1
      default:
        if length > 0 {
          digits.append(current)
          current = 0
          length = 0
        }
      }
      guard digits.count <= 7 else { return nil }
    }
    if length > 0 { digits.append(current) }
    guard digits.count == 7 else { return nil }
    let (year, month, day) = (digits[0], digits[1], digits[2])
    let (hour, minute, second) = (digits[3], digits[4], digits[5])
    guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
    else { return nil }
    let offset = sign * ((digits[6] / 100) * 3600 + (digits[6] % 100) * 60)
    // Days from 1970-01-01 to the civil date (Howard Hinnant's days_from_civil).
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
    return Date(timeIntervalSince1970: TimeInterval(seconds))
  }
}

/// The export's bytes without its DOCTYPE, read a chunk at a time.
///
/// Health exports open with a DOCTYPE whose internal subset declares attributes (`<!ATTLIST
/// HealthData locale CDATA #REQUIRED>`); FoundationXML's parser on Linux crashes on attribute
/// declarations without a default value, and the declarations add nothing a reader needs. The
/// stream drops the DOCTYPE from the file's head and passes everything after it through.
///
/// Only `XMLParser.parse()` reads it, on one thread, between `open()` and `close()`.
private final class DoctypeStrippingStream: InputStream {
  /// Bytes read at a time; the head is searched within this much, or up to `headLimit`.
  static let chunkSize = 64 * 1024
  /// Most bytes read while looking for the DOCTYPE's end; real exports need a few kilobytes.
  static let headLimit = 4 * 1024 * 1024

  private let file: FileHandle
  private var pending = Data()
  private var isAtEnd = false
  private var hasReadHead = false
  private var status: Stream.Status = .notOpen

  init(file: FileHandle) {
    self.file = file
    super.init(data: Data())
  }

  override func open() { status = .open }
  override func close() { status = .closed }
  override var streamStatus: Stream.Status { status }
  override var streamError: (any Error)? { nil }
  override var hasBytesAvailable: Bool { !pending.isEmpty || !isAtEnd }

  override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
    if !hasReadHead {
      hasReadHead = true
      pending = Self.withoutDoctype(readHead())
    }
    if pending.isEmpty, !isAtEnd { pending = readChunk() }
    guard !pending.isEmpty, length > 0 else {
      status = .atEnd
      return 0
    }
    let count = min(length, pending.count)
    pending.copyBytes(to: buffer, count: count)
    pending.removeFirst(count)
    return count
  }

  private func readChunk() -> Data {
    let data = (try? file.read(upToCount: Self.chunkSize)) ?? nil
    guard let data, !data.isEmpty else {
      isAtEnd = true
      return Data()
    }
    return data
  }

  /// Reads until the first element's start (or the DOCTYPE's end) is in hand, within the limit.
  private func readHead() -> Data {
    var head = Data()
    while head.count < Self.headLimit {
      let chunk = readChunk()
      if chunk.isEmpty { break }
      head.append(chunk)
      if Self.doctypeEnd(in: head) != nil || Self.firstElementStart(in: head) != nil { break }
    }
    return head
  }

  static func withoutDoctype(_ head: Data) -> Data {
    guard let start = head.range(of: Data("<!DOCTYPE".utf8))?.lowerBound,
      let end = doctypeEnd(in: head)
    else { return head }
    var result = head
    result.removeSubrange(start..<end)
    return result
  }

  /// Where the DOCTYPE ends: after `]>` when it has an internal subset, else after its `>`.
  static func doctypeEnd(in head: Data) -> Int? {
    guard let start = head.range(of: Data("<!DOCTYPE".utf8))?.upperBound else { return nil }
    guard let close = head[start...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
    if let open = head[start..<close].firstIndex(of: UInt8(ascii: "[")) {
      return head.range(of: Data("]>".utf8), in: open..<head.endIndex)?.upperBound
    }
    return close + 1
  }

  /// Where the first element (not `<?` or `<!`) starts.
  static func firstElementStart(in head: Data) -> Int? {
    var index = head.startIndex
    while let open = head[index...].firstIndex(of: UInt8(ascii: "<")) {
      let next = open + 1
      guard next < head.endIndex else { return nil }
      if head[next] != UInt8(ascii: "?"), head[next] != UInt8(ascii: "!") { return open }
      index = next
    }
    return nil
  }
}

/// The parser delegate: keeps matching records, checks for cancellation now and then.
private final class Collector: NSObject, XMLParserDelegate {
  let type: String
  let start: TimeInterval
  let end: TimeInterval
  var records: [HealthExportReader.Record] = []
  var root: String?
  var wasCancelled = false
  var isRootClosed = false
  private var elements = 0

  init(type: String, start: TimeInterval, end: TimeInterval) {
    self.type = type
    self.start = start
    self.end = end
  }

  func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
    qualifiedName: String?
  ) {
    if elementName == "HealthData" { isRootClosed = true }
  }

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    if root == nil {
      root = elementName
      if elementName != "HealthData" { parser.abortParsing() }
      return
    }
    elements += 1
    if elements % 4096 == 0, Task.isCancelled {
      wasCancelled = true
      parser.abortParsing()
      return
    }
    guard elementName == "Record", attributes["type"] == type,
      let startText = attributes["startDate"], let from = HealthExportReader.date(startText),
      let endText = attributes["endDate"], let to = HealthExportReader.date(endText),
      to.timeIntervalSince1970 > start, from.timeIntervalSince1970 < end
    else { return }
    let valueText = attributes["value"]
    let number = valueText.flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil }
    records.append(
      .init(
        source: attributes["sourceName"] ?? "", start: from, end: to, value: number,
        category: number == nil ? valueText : nil))
  }
}
