import Foundation
import TestSupport
import Testing

struct ConcurrentProcessTests {
  /// Twenty `intent run` processes started at once against one data directory.
  @Test func twentyProcessesStartingTimersAtOnceLoseNone() async throws {
    let binary = try #require(BuiltProducts.executable(named: "intent"), "build 'intent' first")
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    var environment = ProcessInfo.processInfo.environment
    environment["INTENT_DATA_DIR"] = folder.url.path
    environment["TZ"] = "Asia/Shanghai"
    let names = [
      "牛奶", "鸡蛋", "面包", "苹果", "香蕉", "大米", "酱油", "白菜", "豆腐", "猫粮",
      "牙膏", "纸巾", "咖啡", "茶叶", "橙子", "葡萄", "西瓜", "土豆", "洋葱", "黄油",
    ]
    var processes: [(Process, Pipe)] = []
    for name in names {
      let process = Process()
      process.executableURL = binary
      process.arguments = ["run", "--json", "--route", "local", "三分钟后提醒我买\(name)"]
      process.environment = environment
      let pipe = Pipe()
      process.standardOutput = pipe
      process.standardError = FileHandle.nullDevice
      processes.append((process, pipe))
    }
    for (process, _) in processes { try process.run() }
    var reported: [Int] = []
    for (process, pipe) in processes {
      let data = pipe.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
      let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
      let result = json?["result"] as? [String: Any]
      if let id = result?["id"] as? Int { reported.append(id) }
    }
    #expect(reported.count == 20)

    let list = Process()
    list.executableURL = binary
    list.arguments = ["timers", "--json"]
    list.environment = environment
    let pipe = Pipe()
    list.standardOutput = pipe
    try list.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    list.waitUntilExit()
    let timers = try #require(
      (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["timers"]
        as? [[String: Any]])
    let ids = timers.compactMap { $0["id"] as? Int }
    #expect(ids.count == 20)
    #expect(Set(ids).count == 20)
    #expect(Set(ids) == Set(reported))
    #expect(Set(timers.compactMap { $0["label"] as? String }) == Set(names.map { "买\($0)" }))
  }
}
