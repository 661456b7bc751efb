public import Foundation
public import IntentEngine

/// Small grammars for runtime tests, independent of the built-in grammars' tuning.
///
/// They cover timers (with a `text` label), a weather intent that has no skill yet, and the
/// conjunction that splits "看看天气顺便10分钟后提醒我关火" into two commands.
public enum TestGrammars {
  /// The grammar text; `extraWeatherKeywords` lets replay tests simulate a grammar change.
  public static func timerGrammar(extraWeatherKeywords: [String] = []) -> String {
    let weather = (["天气", "气温"] + extraWeatherKeywords).joined(separator: ", ")
    return """
      list fillers: 请, 帮我, 我, 一下, 的, 看看, 会, 吗
      list conjunctions: 顺便, 然后

      intent timer.start
        description: start a countdown timer
        slot duration: duration required
        slot text: text
        keywords trigger (weight 2): 计时, 倒计时, 提醒, 叫
        keywords after (weight 1): 后, 之后
        exclude: 取消
        pattern: {duration} [之]后 (提醒|叫)我 [{text}]
        pattern: (计时|倒计时) {duration}

      intent timer.cancel
        description: cancel timers
        slot text: text
        keywords cancel (weight 2, required): 取消, 停止, 关掉
        keywords what (weight 1.5): 计时, 计时器, 倒计时, 定时
        pattern: (取消|停止|关掉) [{text} 的] (计时|计时器|倒计时|定时)

      intent weather.query
        description: weather forecast
        slot date: date
        keywords w (weight 3, required): \(weather)
        pattern: (\(weather.replacingOccurrences(of: ", ", with: "|")))

      """
  }

  /// Writes the grammar into a fresh folder (as `zh/runtime.grammar`) and returns the folder.
  ///
  /// An `offlineThreshold` writes a `calibration.json` with the default calibration but that
  /// threshold, so tests can reach the offline route with a weak local guess.
  public static func write(
    to folder: URL, extraWeatherKeywords: [String] = [], offlineThreshold: Double? = nil
  ) throws -> URL {
    let root = folder.appendingPathComponent("grammars-\(UUID().uuidString)", isDirectory: true)
    let zh = root.appendingPathComponent("zh", isDirectory: true)
    try FileManager.default.createDirectory(at: zh, withIntermediateDirectories: true)
    try Data(timerGrammar(extraWeatherKeywords: extraWeatherKeywords).utf8)
      .write(to: zh.appendingPathComponent("runtime.grammar"))
    if let offlineThreshold {
      var calibration = Calibration.default
      calibration.offlineThreshold = offlineThreshold
      try JSONEncoder().encode(calibration)
        .write(to: root.appendingPathComponent(GrammarLoader.calibrationFileName))
    }
    return root
  }

  /// An engine over the test grammars only.
  public static func engine(
    in folder: URL, extraWeatherKeywords: [String] = [], offlineThreshold: Double? = nil
  ) throws -> Engine {
    let root = try write(
      to: folder, extraWeatherKeywords: extraWeatherKeywords, offlineThreshold: offlineThreshold)
    return try Engine.load(userGrammars: [root], includeBuiltins: false)
  }
}
