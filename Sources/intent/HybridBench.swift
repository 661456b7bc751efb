import CloudFallback
import Foundation
import IntentEngine
import SkillRouter

/// What `intent bench --route auto` measures: the local engine with the cloud behind it.
///
/// Lines the router would send to the cloud are sent, one at a time, to the configured model;
/// each answer is purified, decoded and validated exactly as `intent run` does (without running
/// a skill), and the line's final decision is the cloud's answer, or the offline guess when the
/// cloud failed.
struct HybridReport: Sendable {
  /// Lines scored.
  var lines = 0
  /// In-scope lines among them.
  var inScope = 0
  /// Lines decided locally without asking.
  var local = 0
  /// Lines sent to the cloud.
  var asked = 0
  /// Cloud answers that validated (a declared intent with valid slots, or "nothing fits").
  var validated = 0
  /// Validated cloud answers that named the expected intent (or none for out-of-scope lines).
  var cloudRight = 0
  /// Lines that ended with an intent, by any route.
  var answered = 0
  /// Answered lines whose intent is the expected one.
  var answeredRight = 0
  /// In-scope lines answered with the expected intent.
  var coveredRight = 0
  /// Out-of-scope lines answered with some intent.
  var falseAccepts = 0
  /// Final routes and how many lines took each.
  var routes: [String: Int] = [:]
  /// Why cloud answers failed, and how often.
  var failures: [String: Int] = [:]
  /// Cloud call durations in nanoseconds.
  var cloudNanoseconds: [UInt64] = []

  /// Share of lines sent to the cloud.
  var cloudShare: Double? { ratio(asked, lines) }
  /// Share of cloud answers that validated.
  var validShare: Double? { ratio(validated, asked) }
  /// Share of cloud answers that were right.
  var cloudAccuracy: Double? { ratio(cloudRight, asked) }
  /// Of the lines answered with an intent, the share that was right.
  var precision: Double? { ratio(answeredRight, answered) }
  /// Of the in-scope lines, the share answered with the right intent.
  var coverage: Double? { ratio(coveredRight, inScope) }
  /// Cloud call percentiles (microseconds, as `LatencySummary` keeps them).
  var cloudLatency: LatencySummary? { LatencySummary(nanoseconds: cloudNanoseconds) }

  private func ratio(_ part: Int, _ whole: Int) -> Double? {
    whole == 0 ? nil : Double(part) / Double(whole)
  }

  /// Scores `lines` with the cloud behind the engine.
  static func measure(
    _ lines: [BenchLine], engine: Engine, client: any LLMClient,
    defaultContext: ParseContext, io: CommandIO
  ) async -> HybridReport {
    var report = HybridReport()
    let router = Router(mode: .auto, isCloudAvailable: true, calibration: engine.calibration)
    let validator = CloudAnswerValidator(engine: engine, registry: nil)
    let choices = CloudPrompt.choices(for: engine)
    let progress = Progress(io: io, total: lines.count)
    for (index, line) in lines.enumerated() {
      progress.update(index + 1, "asking the cloud")
      let expected = line.fixture.intent
      let context = BenchCommand.context(for: line.fixture, default: defaultContext)
      let parse = line.result
      report.lines += 1
      if expected != nil { report.inScope += 1 }
      var step = router.firstStep(for: parse)
      var decided: IntentID?
      if case .local = step {
        report.local += 1
        decided = parse.intent
      } else {
        report.asked += 1
        let prompt = CloudPrompt(choices: choices, now: context.now, timeZone: context.timeZone)
        let start = DispatchTime.now().uptimeNanoseconds
        let answer: Router.CloudAnswer
        var cloudIntent: IntentID?
        do {
          let raw = try await client.complete(CloudRequest(prompt: prompt, text: parse.text))
          let reply = try CloudReply.decode(raw)
          if let validatedAnswer = try validator.validate(reply, context: context) {
            cloudIntent = validatedAnswer.intent
            answer = .decided(intent: validatedAnswer.intent.rawValue)
          } else {
            answer = .noIntent
          }
          report.validated += 1
          if cloudIntent == expected { report.cloudRight += 1 }
        } catch {
          let reason = (error as? CloudFallbackError).map(Self.kind(of:)) ?? "other"
          report.failures[reason, default: 0] += 1
          answer = .failed(reason: reason)
        }
        report.cloudNanoseconds.append(DispatchTime.now().uptimeNanoseconds &- start)
        step = router.step(after: answer, for: parse)
        switch step {
        case .cloud: decided = cloudIntent
        case .offline: decided = parse.intent
        default: decided = nil
        }
      }
      let route = step.route?.rawValue ?? "unmatched"
      report.routes[route, default: 0] += 1
      if let decided {
        report.answered += 1
        if decided == expected {
          report.answeredRight += 1
          report.coveredRight += 1
        }
        if expected == nil { report.falseAccepts += 1 }
      }
    }
    progress.finish()
    return report
  }

  /// A short name for a failure, to count failures by kind.
  static func kind(of error: CloudFallbackError) -> String {
    switch error {
    case .notConfigured: "not configured"
    case .unreachable: "unreachable"
    case .timedOut: "timed out"
    case .httpStatus(let status, _): "HTTP \(status)"
    case .transport: "transport"
    case .replyTooLarge: "too large"
    case .tooDeep: "too deep"
    case .truncated: "cut off (length)"
    case .noJSON: "no JSON"
    case .malformedReply: "malformed"
    case .unknownIntent: "unknown intent"
    case .invalidSlot: "invalid slot"
    }
  }

  /// The figures for people.
  var text: String {
    func percent(_ value: Double?) -> String {
      value.map { String(format: "%.1f%%", $0 * 100) } ?? "n/a"
    }
    var out = "\nHybrid (--route auto)\n"
    out += "  lines                  \(lines) (\(inScope) in scope)\n"
    out += "  sent to the cloud      \(asked) (\(percent(cloudShare)))\n"
    out += "  cloud answers valid    \(validated) (\(percent(validShare)))\n"
    out += "  cloud answers right    \(cloudRight) (\(percent(cloudAccuracy)))\n"
    out +=
      "  end-to-end precision   \(percent(precision)) (\(answeredRight) of \(answered) answered)\n"
    out +=
      "  end-to-end coverage    \(percent(coverage)) (\(coveredRight) of \(inScope) in scope)\n"
    out += "  out-of-scope accepted  \(falseAccepts)\n"
    out +=
      "  routes                 "
      + routes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
      + "\n"
    if !failures.isEmpty {
      out +=
        "  cloud failures         "
        + failures.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        .joined(separator: ", ") + "\n"
    }
    if let latency = cloudLatency {
      out += String(
        format: "  cloud latency          p50 %.0f ms, p95 %.0f ms, max %.0f ms\n",
        latency.p50 / 1000, latency.p95 / 1000, latency.max / 1000)
    }
    return out
  }

  /// The figures as the `hybrid` member of `intent bench --json`.
  var json: JSONValue {
    func number(_ value: Double?) -> JSONValue {
      value.map { .number(BenchFormat.rounded($0)) } ?? .null
    }
    let latency = cloudLatency
    return .object([
      ("lines", .number(Double(lines))),
      ("in_scope", .number(Double(inScope))),
      ("local", .number(Double(local))),
      ("cloud_asked", .number(Double(asked))),
      ("cloud_share", number(cloudShare)),
      ("cloud_valid", .number(Double(validated))),
      ("cloud_valid_share", number(validShare)),
      ("cloud_right", .number(Double(cloudRight))),
      ("cloud_accuracy", number(cloudAccuracy)),
      ("precision", number(precision)),
      ("coverage", number(coverage)),
      ("false_accepts", .number(Double(falseAccepts))),
      (
        "routes",
        .object(routes.sorted { $0.key < $1.key }.map { ($0.key, .number(Double($0.value))) })
      ),
      (
        "cloud_failures",
        .object(failures.sorted { $0.key < $1.key }.map { ($0.key, .number(Double($0.value))) })
      ),
      ("cloud_p50_ms", latency.map { .number(BenchFormat.rounded($0.p50 / 1000)) } ?? .null),
      ("cloud_p95_ms", latency.map { .number(BenchFormat.rounded($0.p95 / 1000)) } ?? .null),
    ])
  }
}
