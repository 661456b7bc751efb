// The performance harness: `swift run -c release intent-benchmarks [--quick]`.
//
// Reports, over repeated runs: parse latency percentiles and throughput on a mixed zh/en
// utterance set; built-in grammar load time; how parse cost grows with synthetic grammars of
// 10, 100 and 1,000 intents; and the wall time of a cold `intent parse` process. Setup stays
// outside the timed regions and every result is folded into a checksum so that no call can be
// optimised away. Results and the commands behind them are recorded in Benchmarks/RESULTS.md.
import Foundation
import IntentEngine

let arguments = Set(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
  print(
    """
    Usage: intent-benchmarks [--quick] [--load-only] [--stress] [--fixtures <dir>]

      --quick      a short smoke run (a few seconds; debug builds are fine)
      --load-only  time only the built-in grammar load, then stop
      --stress     8 tasks sharing one engine, 100,000 parses each (1,000 with --quick),
                   compared with a sequential run; exits 1 on any mismatch
      --fixtures   the fixture folder to draw utterances from (default: Fixtures/ if present)
    """)
  exit(0)
}
let quick = arguments.contains("--quick")
let loadOnly = arguments.contains("--load-only")
let stress = arguments.contains("--stress")
let rounds = quick ? 2 : 30
let loadRuns = quick ? 3 : 30
let processRuns = quick ? 3 : 20
var sink = 0

/// Prints one line at once, so progress shows while later sections run.
func line(_ text: String) {
  FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

/// The ISO clock fixtures are read against, so entity resolution does the same work each run.
let context = ParseContext(
  now: ISO8601DateFormatter().date(from: "2026-11-30T09:00:00+08:00") ?? Date(),
  timeZone: TimeZone(identifier: "Asia/Shanghai") ?? .current)

// MARK: - Utterances

/// Mixed Chinese and English commands used when no fixture folder is found.
let builtinUtterances = [
  "三分钟后提醒我", "十分钟后叫我", "帮我定个八分钟的闹钟", "倒计时半小时", "取消计时器", "把倒计时关掉",
  "明天早上八点提醒我买牛奶", "明早8:10叫醒我", "周五下午三点提醒我开会", "记一下车停在B2层",
  "把鸡蛋加到购物清单", "北京天气", "明天杭州会不会下雨", "我这儿冷不冷", "我今天走了多少步",
  "昨晚睡得怎么样", "我有哪些提醒", "天气预报用英语怎么说", "计时器是谁发明的", "放首歌",
  "set a timer for 10 minutes", "in 90 seconds remind me to check the oven", "cancel my timer",
  "remind me to call mom at 5pm", "wake me up at 7 tomorrow",
  "note that the wifi password is sunflower42",
  "add milk to my shopping list", "what's the weather in Paris tomorrow", "do I need an umbrella",
  "how many steps did I take today", "how did I sleep last night", "what reminders do I have",
  "play some jazz", "turn off the living room lights", "tell me a joke",
  "记一下车停在B2层然后十分钟后提醒我", "set a timer for 5 minutes and remind me to call mom at 6",
]

/// Reads every `text` field of the fixture lines under `folder`, with each line's language.
func fixtureUtterances(in folder: URL) -> [(text: String, lang: String)] {
  guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
  var files: [String] = []
  while let relative = enumerator.nextObject() as? String {
    if relative.hasSuffix(".jsonl") { files.append(relative) }
  }
  var result: [(String, String)] = []
  for file in files.sorted() {
    guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(file).path)
    else { continue }
    for piece in data.split(separator: UInt8(ascii: "\n")) {
      guard let object = try? JSONSerialization.jsonObject(with: Data(piece)) as? [String: Any],
        let text = object["text"] as? String
      else { continue }
      result.append((text, object["lang"] as? String ?? "?"))
    }
  }
  return result
}

var fixtureFolder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
  .appendingPathComponent("Fixtures")
if let index = CommandLine.arguments.firstIndex(of: "--fixtures"),
  index + 1 < CommandLine.arguments.count
{
  fixtureFolder = URL(fileURLWithPath: CommandLine.arguments[index + 1])
}
var utterances = fixtureUtterances(in: fixtureFolder)
let source: String
if utterances.isEmpty {
  utterances = builtinUtterances.map {
    ($0, $0.unicodeScalars.contains { $0.value >= 0x3000 } ? "zh" : "en")
  }
  source = "built-in list"
} else {
  source = "\(fixtureFolder.lastPathComponent)/"
}
if quick, utterances.count > 300 {
  // Every n-th line keeps the zh/en mix of the full set.
  let step = utterances.count / 300
  utterances = stride(from: 0, to: utterances.count, by: step).map { utterances[$0] }
}

#if DEBUG
  line("warning: debug build; figures are for smoke testing only (use -c release)")
#endif
line(
  "intent-benchmarks\(quick ? " --quick" : ""): \(utterances.count) utterances from \(source), \(ProcessInfo.processInfo.activeProcessorCount) cores"
)

// MARK: - Stress

if stress {
  let engine: Engine
  do {
    engine = try Engine.load()
  } catch {
    line("error: built-in grammars do not load: \(error)")
    exit(1)
  }
  let report = await stressRun(
    engine: engine, texts: utterances.map(\.text), context: context, tasks: 8,
    parsesPerTask: quick ? 1_000 : 100_000)
  let total = report.tasks * report.parsesPerTask
  line("")
  line(
    "stress: \(report.tasks) tasks × \(report.parsesPerTask) parses sharing one engine (\(report.lines) lines, cycled), against a sequential run"
  )
  line(
    "  sequential \(Timings.format(Double(report.sequentialNanoseconds) / 1_000 / Double(max(report.lines, 1)))) per parse; concurrent \(Int((Double(total) / (Double(report.concurrentNanoseconds) / 1e9)).rounded())) parses/s"
  )
  line("  mismatches \(report.mismatches) of \(total)")
  if let first = report.firstMismatch { line("  first differing line: '\(first)'") }
  exit(report.mismatches == 0 ? 0 : 1)
}

// MARK: - Load

do {
  var loads: [UInt64] = []
  for _ in 0..<loadRuns {
    var loaded: Engine?
    loads.append(try time { loaded = try Engine.load() })
    sink &+= loaded?.intents.count ?? 0
  }
  let engine = try Engine.load()
  let timings = Timings(nanoseconds: loads)
  line("")
  line("built-in grammar load (\(engine.intents.count) intents, \(loadRuns) runs)")
  line("  \(timings.percentiles)  min \(Timings.format(timings.min))")
  if loadOnly {
    line("")
    line("checksum \(sink)")
    exit(0)
  }

  // MARK: - Parse latency

  for (text, _) in utterances { sink &+= engine.parse(text, context: context).alternatives.count }
  var all: [UInt64] = []
  var byLanguage: [String: [UInt64]] = [:]
  all.reserveCapacity(utterances.count * rounds)
  for _ in 0..<rounds {
    for (text, lang) in utterances {
      let start = now()
      let result = engine.parse(text, context: context)
      let elapsed = now() &- start
      sink &+= result.slots.count
      all.append(elapsed)
      byLanguage[lang, default: []].append(elapsed)
    }
  }
  let parse = Timings(nanoseconds: all)
  // Throughput without per-call clock reads: whole passes timed as one block.
  let passes = quick ? 1 : 5
  let block = time {
    for _ in 0..<passes {
      for (text, _) in utterances {
        sink &+= engine.parse(text, context: context).alternatives.count
      }
    }
  }
  let throughput = Double(passes * utterances.count) / (Double(block) / 1e9)
  line("")
  line(
    "parse, built-in grammars (\(parse.samples) timed calls: \(rounds) rounds × \(utterances.count))"
  )
  line(
    "  \(parse.percentiles)  mean \(Timings.format(parse.mean))  max \(Timings.format(parse.max))")
  for lang in byLanguage.keys.sorted() {
    if let samples = byLanguage[lang] {
      line("  \(lang): \(Timings(nanoseconds: samples).percentiles)")
    }
  }
  line("  throughput \(Int(throughput.rounded())) parses/s on one core")
} catch {
  line("error: built-in grammars do not load: \(error)")
  exit(1)
}

// MARK: - Scaling

line("")
line("scaling with synthetic grammars (\(quick ? 100 : 500) synthetic utterances each)")
let gazetteer: Gazetteer
do {
  gazetteer = try Gazetteer.builtin()
} catch {
  line("error: gazetteer does not load: \(error)")
  exit(1)
}
for size in [10, 100, 1_000] {
  let synthetic = SyntheticGrammar(intents: size, utteranceCount: quick ? 100 : 500)
  var compiled: CompiledGrammar?
  var compileTimes: [UInt64] = []
  for _ in 0..<(quick ? 1 : 5) {
    compileTimes.append(
      time {
        switch GrammarCompiler().compile(synthetic.sources, extraWords: []) {
        case .success(let grammar): compiled = grammar
        case .failure(let error):
          line("error: synthetic grammar of \(size) intents does not compile: \(error)")
          exit(1)
        }
      })
  }
  guard let grammar = compiled else { exit(1) }
  let engine = Engine(grammar: grammar, gazetteer: gazetteer)
  var matched = 0
  for text in synthetic.utterances where engine.parse(text, context: context).intent != nil {
    matched += 1
  }
  var samples: [UInt64] = []
  for _ in 0..<rounds {
    for text in synthetic.utterances {
      let start = now()
      let result = engine.parse(text, context: context)
      samples.append(now() &- start)
      sink &+= result.alternatives.count
    }
  }
  let timings = Timings(nanoseconds: samples)
  let compile = Timings(nanoseconds: compileTimes)
  line(
    "  \(String(repeating: " ", count: 5 - String(size).count))\(size) intents: \(timings.percentiles)   "
      + "compile \(Timings.format(compile.p50))   \(matched)/\(synthetic.utterances.count) matched")
}

// MARK: - Cold process

let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
let intentBinary = executable.deletingLastPathComponent().appendingPathComponent("intent")
line("")
if FileManager.default.isExecutableFile(atPath: intentBinary.path) {
  var runs: [UInt64] = []
  var failures = 0
  for _ in 0..<processRuns {
    let start = now()
    let status = launchAndWait(intentBinary.path, ["parse", "--json", "三分钟后提醒我"])
    let elapsed = now() &- start
    guard status == 0 else {
      failures += 1
      continue
    }
    runs.append(elapsed)
  }
  let cold = Timings(nanoseconds: runs)
  line("cold process: 'intent parse --json 三分钟后提醒我' (\(processRuns) launches, launch to exit)")
  line(
    "  \(cold.percentiles)  min \(Timings.format(cold.min))\(failures > 0 ? "  (\(failures) failed)" : "")"
  )
} else {
  line("cold process: skipped; no 'intent' binary next to this one (run 'swift build' first)")
}

line("")
line("checksum \(sink)")
