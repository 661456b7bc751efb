public import Foundation
public import Skills

/// Reads or changes running timers: `timer.status`, `timer.pause`, `timer.resume`, `timer.adjust`.
///
/// One type serves the four sister intents of `timer.start`; ``Action`` says which.
public struct TimerControlSkill: Skill {
  /// What the skill does to the selected timers.
  public enum Action: String, Sendable, CaseIterable {
    /// Tells the time left ("还剩多久", "how long is left on the pasta timer").
    case status
    /// Pauses a running timer.
    case pause
    /// Resumes a paused timer.
    case resume
    /// Adds time to or takes time off a timer (signed `duration`).
    case adjust
  }

  /// The slots the timer intents fill.
  public struct Input: Decodable, Sendable {
    /// The timer's name, when the user said one.
    public var text: String?
    /// `all` when the user meant every timer.
    public var scope: String?
    /// Signed seconds to add (`timer.adjust` only).
    public var duration: Double?
    /// The user's language.
    public var lang: UserLanguage?
  }

  /// The timers acted on, with a sentence for people.
  public struct Output: Encodable, Sendable, Equatable {
    /// The timers, as they are after the action.
    public var timers: [TimerState]
    /// A sentence in the user's language.
    public var message: String
  }

  /// One timer as a result shows it.
  public struct TimerState: Encodable, Sendable, Equatable {
    /// Its id in the store.
    public var id: Int
    /// What it is for.
    public var label: String
    /// Seconds left.
    public var remainingSeconds: Double
    /// Whether it is paused.
    public var paused: Bool
    /// When it fires (while running), ISO 8601 with offset.
    public var fireDate: String?

    enum CodingKeys: String, CodingKey {
      case id, label, paused
      case remainingSeconds = "remaining_seconds"
      case fireDate = "fire_date"
    }
  }

  /// What this instance does.
  public let action: Action
  let store: TimerStore
  let wallClock: WallClock
  let timeZone: TimeZone

  public var intentID: String { "timer.\(action.rawValue)" }
  public var displayName: String {
    switch action {
    case .status: "Timer status"
    case .pause: "Pause timer"
    case .resume: "Resume timer"
    case .adjust: "Adjust timer"
    }
  }

  /// Creates the skill for `action` over a store.
  public init(
    _ action: Action, store: TimerStore, wallClock: WallClock = .system,
    timeZone: TimeZone = .current
  ) {
    self.action = action
    self.store = store
    self.wallClock = wallClock
    self.timeZone = timeZone
  }

  public func perform(_ input: Input) async throws -> Output {
    let lang = input.lang ?? .en
    var selection = CancelTimerSkill.selection(for: input.text)
    if input.scope?.lowercased() == "all" { selection = .all }
    let timers: [CountdownTimer]
    switch action {
    case .status:
      timers = try await store.status(selection == .latest ? .all : selection)
    case .pause:
      timers = try await store.pause(selection)
    case .resume:
      timers = try await store.resume(selection)
    case .adjust:
      guard let seconds = input.duration, seconds.isFinite, seconds != 0 else {
        throw SkillError.invalidInput("slot 'duration' is required; say how much time to add")
      }
      guard abs(seconds) <= StartTimerSkill.maximumDuration else {
        throw SkillError.invalidInput("slot 'duration' must be at most 7 days")
      }
      timers = try await store.adjust(selection, by: seconds)
    }
    let now = wallClock.now
    return Output(
      timers: timers.map { state(of: $0, at: now) },
      message: message(for: timers, input: input, lang: lang, now: now))
  }

  private func state(of timer: CountdownTimer, at now: Date) -> TimerState {
    TimerState(
      id: timer.id, label: timer.label, remainingSeconds: timer.remaining(at: now).rounded(.up),
      paused: timer.isPaused,
      fireDate: timer.isPaused ? nil : Timestamp.iso8601(timer.fireDate, in: timeZone))
  }

  private func message(
    for timers: [CountdownTimer], input: Input, lang: UserLanguage, now: Date
  ) -> String {
    func left(_ timer: CountdownTimer) -> String {
      let time = Wording.duration(timer.remaining(at: now), lang)
      let paused = timer.isPaused ? lang.say("（已暂停）", " (paused)") : ""
      return lang.say("\(timer.label)还剩\(time)\(paused)", "'\(timer.label)' \(time) left\(paused)")
    }
    let list = timers.map(left).joined(separator: lang.say("；", "; "))
    switch action {
    case .status:
      guard !timers.isEmpty else { return lang.say("没有正在运行的计时器", "no timers are running") }
      if timers.count == 1 { return list }
      return lang.say("\(timers.count)个计时器：\(list)", "\(timers.count) timers: \(list)")
    case .pause:
      guard !timers.isEmpty else { return lang.say("没有可暂停的计时器", "no running timer to pause") }
      return lang.say("已暂停：\(list)", "paused: \(list)")
    case .resume:
      guard !timers.isEmpty else { return lang.say("没有暂停的计时器", "no paused timer to resume") }
      return lang.say("已继续：\(list)", "resumed: \(list)")
    case .adjust:
      guard !timers.isEmpty else { return lang.say("没有正在运行的计时器", "no timers are running") }
      let seconds = input.duration ?? 0
      let amount = Wording.duration(abs(seconds), lang)
      return seconds > 0
        ? lang.say("已加上\(amount)：\(list)", "added \(amount): \(list)")
        : lang.say("已减去\(amount)：\(list)", "took \(amount) off: \(list)")
    }
  }
}
