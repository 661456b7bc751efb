public import Foundation
public import Skills

/// The timers, kept in one JSON file in the data directory and written atomically.
///
/// Every operation reads the file, so two processes (`intent run`, then `intent timers`) see
/// each other's timers. Timers that have fired are dropped on the next write. A file that cannot
/// be read is moved aside and reported, and the store starts empty.
public actor TimerStore {
  /// The file name under the data directory.
  public static let fileName = "timers.json"

  /// The store file.
  public let fileURL: URL
  private let wallClock: WallClock
  private let problems: ProblemLog?

  /// What cancelling removes.
  public enum Selection: Sendable, Equatable {
    /// The most recently started timer.
    case latest
    /// The most recently started timer whose label matches the name.
    case named(String)
    /// Every timer.
    case all
  }

  private struct File: Codable {
    var version = 1
    var nextID = 1
    var timers: [CountdownTimer] = []

    enum CodingKeys: String, CodingKey {
      case version, timers
      case nextID = "next_id"
    }
  }

  /// Creates a store backed by `timers.json` in `directory`.
  public init(directory: URL, wallClock: WallClock = .system, problems: ProblemLog? = nil) {
    self.fileURL = directory.appendingPathComponent(Self.fileName)
    self.wallClock = wallClock
    self.problems = problems
  }

  /// Starts a timer and returns it.
  public func start(label: String, duration: Double) async throws -> CountdownTimer {
    var file = await load()
    let now = wallClock.now
    file.timers.removeAll { $0.fireDate <= now }
    let timer = CountdownTimer(
      id: file.nextID, label: label, duration: duration, startedAt: now,
      fireDate: now.addingTimeInterval(duration))
    file.nextID += 1
    file.timers.append(timer)
    try save(file)
    return timer
  }

  /// Cancels the selected running timers and returns them, latest first.
  ///
  /// - Throws: ``SkillError/invalidInput(_:)`` when no running timer has the given name.
  public func cancel(_ selection: Selection) async throws -> [CountdownTimer] {
    var file = await load()
    let now = wallClock.now
    file.timers.removeAll { $0.fireDate <= now }
    let running = file.timers.sorted { ($0.startedAt, $0.id) > ($1.startedAt, $1.id) }
    let cancelled: [CountdownTimer]
    switch selection {
    case .all: cancelled = running
    case .latest: cancelled = Array(running.prefix(1))
    case .named(let name):
      guard let match = running.first(where: { Self.label($0.label, matches: name) }) else {
        let names = running.map { "'\($0.label)'" }.joined(separator: ", ")
        throw SkillError.invalidInput(
          running.isEmpty
            ? "no timer named '\(name)' is running; no timers are running"
            : "no timer named '\(name)' is running; running timers: \(names)")
      }
      cancelled = [match]
    }
    let ids = Set(cancelled.map(\.id))
    file.timers.removeAll { ids.contains($0.id) }
    try save(file)
    return cancelled
  }

  /// The timers that have not fired yet, soonest first.
  public func runningTimers() async -> [CountdownTimer] {
    let now = wallClock.now
    return await load().timers.filter { $0.fireDate > now }
      .sorted { ($0.fireDate, $0.id) < ($1.fireDate, $1.id) }
  }

  /// Whether a label answers to the name the user said ("煮鸡蛋" matches "煮鸡蛋的计时器").
  static func label(_ label: String, matches name: String) -> Bool {
    let a = label.lowercased()
    let b = name.lowercased()
    return !b.isEmpty && (a == b || a.contains(b) || b.contains(a))
  }

  private func load() async -> File {
    guard FileManager.default.fileExists(atPath: fileURL.path) else { return File() }
    do {
      let data = try Data(contentsOf: fileURL)
      let decoder = JSONDecoder()
      decoder.dateDecodingStrategy = .iso8601
      return try decoder.decode(File.self, from: data)
    } catch {
      do {
        let moved = try AtomicFile.setAside(fileURL, at: wallClock.now)
        await problems?.record(
          "timer store '\(fileURL.path)' is corrupt; moved it to '\(moved.path)' and started afresh"
        )
      } catch {
        await problems?.record(
          "timer store '\(fileURL.path)' is corrupt and could not be moved aside: \(error)")
      }
      return File()
    }
  }

  private func save(_ file: File) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    let data: Data
    do {
      data = try encoder.encode(file)
    } catch {
      throw BuiltinSkillError.storage("timers cannot be encoded")
    }
    do {
      try AtomicFile.write(data, to: fileURL)
    } catch {
      throw BuiltinSkillError.storage(error.description)
    }
  }
}
