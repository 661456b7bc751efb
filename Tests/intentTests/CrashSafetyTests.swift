import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writers killed with SIGKILL at random moments leave every store readable and holding every
/// write a writer confirmed before it died.
///
/// Each round starts one `intent run` per store (timers, reminders, memos), plus a second one
/// on one of them, against one data folder and kills each at a seeded moment within a process's lifetime, so some finish, some
/// die before writing and some die between writing and printing, or mid-write. A write whose
/// confirmation was printed must be listed afterwards; an unconfirmed one may or may not be.
struct CrashSafetyTests {
  /// 20 rounds by default, a few seconds on a debug build;
  /// `INTENT_STRESS_ROUNDS=500 swift test --filter CrashSafetyTests` runs longer.
  static var rounds: Int {
    ProcessInfo.processInfo.environment["INTENT_STRESS_ROUNDS"].flatMap(Int.init) ?? 20
  }

  /// How long an unkilled writer lived, in the slowest of the last few that finished; kills are
  /// spread over 1.5 times that, so they land before, during and after the write whatever the
  /// build and the machine's load.
  struct Lifetimes {
    private var recent: [Duration] = []

    mutating func record(_ lifetime: Duration) {
      recent.append(lifetime)
      if recent.count > 9 { recent.removeFirst() }
    }

    /// Latest kill moment, in milliseconds after the start.
    var killWindow: Int {
      let slowest = recent.max() ?? .milliseconds(150)
      let parts = slowest.components
      return Int(parts.seconds) * 1_500 + Int(parts.attoseconds / 666_666_666_666_667)
    }
  }

  @Test func writersKilledAtRandomMomentsLoseNoConfirmedWrite() async throws {
    let writers = try StoreWriters()
    defer { writers.folder.remove() }
    var random = SeededGenerator(seed: 0x5EED_16)
    var confirmed: [WrittenStore: [Int: String]] = [:]
    var started: [WrittenStore: Int] = [:]
    var killed = 0
    let clock = ContinuousClock()
    var lifetimes = Lifetimes()
    // A first batch runs to completion, to measure how long a writer lives.
    for store in WrittenStore.allCases {
      let process = try writers.startRun(store.utterance(about: "盐"), name: "first-\(store)")
      let start = clock.now
      #expect(await process.waitForExit() == .exited(0))
      lifetimes.record(start.duration(to: clock.now))
      started[store, default: 0] += 1
      let write = try #require(StoreWriters.reportedWrite(of: process, in: store))
      confirmed[store, default: [:]][write.id] = write.text
    }
    for round in 0..<Self.rounds {
      var pending: [(WrittenStore, ChildProcess, killAt: Duration)] = []
      // One writer per store, and a second one on a store chosen at random.
      let second = WrittenStore.allCases.randomElement(using: &random) ?? .memos
      for (index, store) in (WrittenStore.allCases + [second]).enumerated() {
        let thing = StoreWriters.things[(round * 4 + index) % StoreWriters.things.count]
        let process = try writers.startRun(
          store.utterance(about: thing), name: "\(round)-\(index)-\(store)")
        let killAt = Duration.milliseconds(
          Int.random(in: 0...lifetimes.killWindow, using: &random))
        pending.append((store, process, killAt))
        started[store, default: 0] += 1
      }
      let start = clock.now
      var ended: [(WrittenStore, ChildProcess, ChildProcess.Ending)] = []
      while !pending.isEmpty {
        let elapsed = start.duration(to: clock.now)
        var waiting: [(WrittenStore, ChildProcess, killAt: Duration)] = []
        for (store, process, killAt) in pending {
          if let ending = process.poll() {
            ended.append((store, process, ending))
            if ending == .exited(0) { lifetimes.record(elapsed) }
          } else if elapsed >= killAt {
            process.kill()
            ended.append((store, process, await process.waitForExit()))
          } else {
            waiting.append((store, process, killAt))
          }
        }
        pending = waiting
        if !pending.isEmpty { try await Task.sleep(for: .milliseconds(1)) }
      }
      for (store, process, ending) in ended {
        #expect(
          ending == .exited(0) || ending == .signalled(SIGKILL),
          "round \(round) \(store) ended \(ending): \(process.errorText)")
        #expect(
          !process.errorText.contains("warning:"),
          "round \(round) \(store) found a damaged store: \(process.errorText)")
        if ending == .signalled(SIGKILL) { killed += 1 }
        guard let write = StoreWriters.reportedWrite(of: process, in: store) else { continue }
        #expect(
          confirmed[store]?[write.id] == nil, "\(store) id \(write.id) was confirmed twice")
        confirmed[store, default: [:]][write.id] = write.text
      }
    }

    var found = 0
    for store in WrittenStore.allCases {
      let listed = try #require(try await writers.list(store))
      #expect(Set(listed.map(\.id)).count == listed.count, "\(store) ids are unique")
      #expect(listed.count <= started[store] ?? 0)
      let byID = Dictionary(listed.map { ($0.id, $0.text) }, uniquingKeysWith: { a, _ in a })
      for (id, text) in confirmed[store] ?? [:] {
        #expect(byID[id] == text, "confirmed \(store) entry \(id) '\(text)' is missing")
      }
      found += listed.count
      let file = writers.dataURL.appendingPathComponent("\(store).json")
      if FileManager.default.fileExists(atPath: file.path) {
        let object = try? JSONSerialization.jsonObject(with: Data(contentsOf: file))
        #expect(object is [String: Any], "\(store).json is a JSON object")
      }
    }
    #expect(writers.setAsideFiles().isEmpty, "no store file was set aside as corrupt")
    // Listing took each store's lock, which clears temporary files of writers that died.
    let leftovers = (try FileManager.default.contentsOfDirectory(atPath: writers.dataURL.path))
      .filter { $0.hasSuffix(".tmp") }
    #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
    let writes = confirmed.values.map(\.count).reduce(0, +)
    #expect(writes > 0, "some writers finished before their kill")
    #expect(killed > 0, "some writers were killed")
    print(
      "crash safety: \(Self.rounds) rounds, \(started.values.reduce(0, +)) writers, \(killed) killed, \(writes) writes confirmed, \(found) entries found, \(writers.setAsideFiles().count) set aside"
    )
  }
}
