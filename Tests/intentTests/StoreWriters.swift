import Foundation
import TestSupport
import Testing

/// A store that `intent run` writes and a list command reads back.
enum WrittenStore: String, CaseIterable, Sendable {
  case timers, reminders, memos

  /// The utterance that adds one entry about `thing`.
  func utterance(about thing: String) -> String {
    switch self {
    case .timers: "三分钟后提醒我买\(thing)"
    case .reminders: "明天早上八点提醒我买\(thing)"
    case .memos: "把\(thing)加到购物清单"
    }
  }

  /// The text the entry for `thing` is listed under.
  func entryText(about thing: String) -> String {
    self == .memos ? thing : "买\(thing)"
  }

  /// The id and text of the entry a `run --json` result object reports as written.
  func written(in result: [String: Any]) -> (id: Int, text: String)? {
    let entry: [String: Any]?
    let textKey: String
    switch self {
    case .timers: (entry, textKey) = (result, "label")
    case .reminders: (entry, textKey) = (result["reminder"] as? [String: Any], "title")
    case .memos: (entry, textKey) = (result["memo"] as? [String: Any], "text")
    }
    guard let id = entry?["id"] as? Int, let text = entry?[textKey] as? String else { return nil }
    return (id, text)
  }

  /// The list command's arguments; `--all` keeps memos that were checked off.
  var listArguments: [String] {
    self == .memos ? ["memos", "--json", "--all"] : [rawValue, "--json"]
  }

  /// The id and text of every entry in the list command's JSON output.
  func listed(in object: [String: Any]) -> [(id: Int, text: String)]? {
    guard let entries = object[rawValue] as? [[String: Any]] else { return nil }
    let textKey = [.timers: "label", .reminders: "title", .memos: "text"][self] ?? "text"
    return entries.compactMap { entry in
      guard let id = entry["id"] as? Int, let text = entry[textKey] as? String else { return nil }
      return (id, text)
    }
  }
}

/// `intent` processes writing one data folder, each one's output captured in its own file.
struct StoreWriters {
  /// The clock every process reads, so that listed timers and reminders are still upcoming.
  static let now = "2026-11-30T09:00:00+08:00"
  /// Things to buy; one per process in a batch.
  static let things = [
    "牛奶", "鸡蛋", "面包", "苹果", "香蕉", "大米", "酱油", "白菜", "豆腐", "猫粮",
    "牙膏", "纸巾", "咖啡", "茶叶", "橙子", "葡萄", "西瓜", "土豆", "洋葱", "黄油",
  ]

  let binary: URL
  let folder: TemporaryDirectory
  /// The data folder the stores live in.
  let dataURL: URL
  private let outputURL: URL
  private let environment: [String: String]

  /// Creates an empty data folder; fails the test when `intent` has not been built.
  init(sourceLocation: SourceLocation = #_sourceLocation) throws {
    binary = try #require(
      BuiltProducts.executable(named: "intent"), "build 'intent' first",
      sourceLocation: sourceLocation)
    folder = try TemporaryDirectory()
    dataURL = folder.url.appendingPathComponent("data", isDirectory: true)
    outputURL = folder.url.appendingPathComponent("output", isDirectory: true)
    try FileManager.default.createDirectory(at: outputURL, withIntermediateDirectories: true)
    var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("INTENT_") }
    environment["INTENT_DATA_DIR"] = dataURL.path
    environment["TZ"] = "Asia/Shanghai"
    self.environment = environment
  }

  /// Starts `intent run --json --route local` on `utterance`; `name` names its output files.
  func startRun(_ utterance: String, name: String) throws -> ChildProcess {
    try start(["run", "--json", "--route", "local", "--now", Self.now, utterance], name: name)
  }

  /// Starts `intent` with `arguments`.
  func start(_ arguments: [String], name: String) throws -> ChildProcess {
    try ChildProcess(
      binary, arguments, environment: environment,
      output: outputURL.appendingPathComponent(name))
  }

  /// The entry a finished `run` process reported written (its confirmation), if it printed one.
  static func reportedWrite(of process: ChildProcess, in store: WrittenStore) -> (
    id: Int, text: String
  )? {
    guard let object = try? JSONSerialization.jsonObject(with: process.output) as? [String: Any],
      let result = object["result"] as? [String: Any]
    else { return nil }
    return store.written(in: result)
  }

  /// Lists `store` with its command; nil (and a recorded issue) when the command fails, warns or
  /// prints something else.
  func list(
    _ store: WrittenStore, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> [(id: Int, text: String)]? {
    let process = try start(store.listArguments + ["--now", Self.now], name: "list-\(store)")
    let ending = await process.waitForExit()
    #expect(
      ending == .exited(0), "'intent \(store)' ended \(ending)", sourceLocation: sourceLocation)
    #expect(
      process.errorText.isEmpty, "'intent \(store)' printed \(process.errorText)",
      sourceLocation: sourceLocation)
    let object = try JSONSerialization.jsonObject(with: process.output) as? [String: Any]
    let entries = object.flatMap(store.listed(in:))
    #expect(entries != nil, "'intent \(store)' printed no list", sourceLocation: sourceLocation)
    return entries
  }

  /// Files in the data folder that a store set aside as unreadable.
  func setAsideFiles() -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: dataURL.path)) ?? []
    return names.filter { $0.contains(".corrupt-") }.sorted()
  }
}
