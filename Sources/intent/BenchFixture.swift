import Foundation
import IntentEngine

/// One labelled fixture line: the utterance and what the engine is expected to decide.
///
/// The format is described in `Fixtures/README.md`.
struct BenchFixture: Sendable {
  /// The expected result of one command of a multi-command line.
  struct Clause: Sendable {
    var intent: IntentID?
    var slots: JSONValue?
  }

  /// The user's answer to the question a line asks, and the slots the command then holds.
  struct FollowUp: Sendable {
    /// The answer, as the user says it ("ten minutes").
    var text: String
    /// The complete slot set after the answer.
    var slots: JSONValue
  }

  /// The file as the user named it, for messages.
  var file: String
  /// The line number in the file, from 1.
  var line: Int
  var text: String
  var lang: String?
  /// The expected intent; nil for out-of-scope lines.
  var intent: IntentID?
  /// The complete expected slot set; nil when the line does not score slots.
  var slots: JSONValue?
  /// `dev` or `test`; nil when the line carries no split.
  var split: String?
  var tags: [String] = []
  var now: Date?
  var timeZone: TimeZone?
  /// The expected commands of a multi-command line, in order; nil for single commands.
  var clauses: [Clause]?
  /// The required slots the line leaves out, which the engine asks for; nil when not stated.
  var missingSlots: [String]?
  /// The answer to the line's question; nil for lines that ask nothing.
  var followUp: FollowUp?

  /// `file:line`, for messages.
  var location: String { "\(file):\(line)" }

  /// Whether the line expects an intent.
  var isInScope: Bool { intent != nil }
}

/// Reads fixture files and folders into lines, reporting every unreadable line by position.
enum FixtureReader {
  /// The lines read and the problems found, as `file:line: message`.
  struct Loaded {
    var fixtures: [BenchFixture] = []
    var problems: [String] = []
    /// Every file read, in order, with its bytes' SHA-256 digest.
    var files: [(display: String, sha256: String)] = []
  }

  /// The clock fixture lines are read against unless they say otherwise (Fixtures/README.md).
  static let defaultNow = "2026-11-30T09:00:00+08:00"
  /// The zone fixture lines are read in unless they say otherwise (Fixtures/README.md).
  static let defaultTimeZone = "Asia/Shanghai"

  /// Reads every `.jsonl` file under `paths` (files as given, folders recursively in sorted order,
  /// leaving out the entity fixtures in an `entities/` sub-folder).
  ///
  /// With `recordsDigests`, ``Loaded/files`` lists each file with its SHA-256 digest.
  static func load(paths: [String], io: CommandIO, recordsDigests: Bool = false) -> Loaded {
    var loaded = Loaded()
    for path in paths {
      let url = io.url(forPath: path)
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
        loaded.problems.append("\(path): no such fixture file or folder")
        continue
      }
      var files: [(url: URL, display: String)] = []
      if isDirectory.boolValue {
        let enumerator = FileManager.default.enumerator(atPath: url.path)
        var relatives: [String] = []
        while let relative = enumerator?.nextObject() as? String {
          // Entity fixtures (`entities/`) have their own format and their own test.
          let isEntityFixture = relative.split(separator: "/").first == "entities"
          if relative.hasSuffix(".jsonl"), !isEntityFixture { relatives.append(relative) }
        }
        let base = path.hasSuffix("/") ? path : path + "/"
        files = relatives.sorted().map { (url.appendingPathComponent($0), base + $0) }
      } else {
        files = [(url, path)]
      }
      for file in files {
        guard let data = FileManager.default.contents(atPath: file.url.path) else {
          loaded.problems.append("\(file.display): file cannot be read; check its permissions")
          continue
        }
        if recordsDigests { loaded.files.append((file.display, SHA256.hexDigest(of: data))) }
        for line in JSONLines.lines(in: data) {
          switch fixture(from: line, file: file.display) {
          case .success(let fixture)?: loaded.fixtures.append(fixture)
          case .failure(let error)?: loaded.problems.append(error.message)
          case nil: continue
          }
        }
      }
    }
    return loaded
  }

  /// Reads one line; blank lines and lines starting with `//` are not fixtures and are skipped.
  static func fixture(from line: JSONLines.Line, file: String) -> Result<
    BenchFixture, JSONLines.LineError
  >? {
    func failure(_ message: String) -> Result<BenchFixture, JSONLines.LineError> {
      .failure(JSONLines.LineError(message: "\(file):\(line.number): \(message)"))
    }
    let request: JSONLines.Request
    switch line.request {
    case .failure(let error): return failure(error.message)
    case .success(let read): request = read
    }
    guard let object = request.object else {
      let trimmed = request.text.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty || trimmed.hasPrefix("//") { return nil }
      return failure("line is not a JSON object; see Fixtures/README.md for the format")
    }
    guard let intentField = object["intent"] else {
      return failure("object has no 'intent' field; use null for out-of-scope lines")
    }
    var fixture = BenchFixture(file: file, line: line.number, text: request.text)
    switch intentField {
    case .null: fixture.intent = nil
    case .string(let id): fixture.intent = IntentID(id)
    default: return failure("'intent' must be a string or null")
    }
    if let slots = object["slots"] {
      guard case .object = slots else { return failure("'slots' must be an object") }
      fixture.slots = slots
    }
    if let split = object["split"] {
      guard let name = split.stringValue, name == "dev" || name == "test" else {
        return failure("'split' must be \"dev\" or \"test\"")
      }
      fixture.split = name
    }
    fixture.lang = object["lang"]?.stringValue
    if case .array(let tags) = object["tags"] { fixture.tags = tags.compactMap(\.stringValue) }
    if let now = request.now {
      guard let date = EngineOptions.date(fromISO8601: now) else {
        return failure("'now' is not an ISO 8601 time: '\(now)'")
      }
      fixture.now = date
    }
    if let zone = request.timeZone {
      guard let named = TimeZone(identifier: zone) else {
        return failure("unknown time zone '\(zone)'; use an IANA name such as 'Asia/Shanghai'")
      }
      fixture.timeZone = named
    }
    if let missing = object["missing_slots"] {
      guard case .array(let names) = missing, names.allSatisfy({ $0.stringValue != nil }) else {
        return failure("'missing_slots' must be an array of slot names")
      }
      fixture.missingSlots = names.compactMap(\.stringValue)
    }
    if let followUp = object["follow_up"] {
      guard case .object = followUp, let answer = followUp["text"]?.stringValue else {
        return failure("'follow_up' must be an object with the answer's 'text'")
      }
      let slots = followUp["slots"] ?? .object([])
      guard case .object = slots else {
        return failure("'follow_up.slots' must be an object: the complete slot set")
      }
      fixture.followUp = BenchFixture.FollowUp(text: answer, slots: slots)
    }
    if let clauses = object["clauses"] {
      guard case .array(let items) = clauses else { return failure("'clauses' must be an array") }
      var parsed: [BenchFixture.Clause] = []
      for item in items {
        guard case .object = item else { return failure("each clause must be an object") }
        var clause = BenchFixture.Clause()
        switch item["intent"] {
        case .string(let id)?: clause.intent = IntentID(id)
        case .null?, nil: clause.intent = nil
        default: return failure("a clause's 'intent' must be a string or null")
        }
        clause.slots = item["slots"]
        parsed.append(clause)
      }
      fixture.clauses = parsed
    }
    return .success(fixture)
  }
}
