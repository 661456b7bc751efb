import Foundation
public import IntentEngine
public import Observation
public import Skills

/// The observable model an app binds its views to: one utterance at a time, with progress.
///
/// All state lives on the main actor, so views read it directly; skills run off it.
@MainActor @Observable
public final class AgentSession {
  /// Where the session is.
  public private(set) var state: SessionState = .idle
  /// What each skill of the current utterance is doing, by skill name.
  public private(set) var phases: [String: SkillPhase] = [:]
  /// The steps each skill of the current utterance reported so far, by skill name, in order.
  public private(set) var steps: [String: [SkillStep]] = [:]
  /// The full outcome of the last utterance, for detail views.
  public private(set) var lastOutcome: AgentOutcome?
  /// The question the last command asked and the next utterance may answer ("For how long?"),
  /// or nil; it expires after ``PendingQuestion/lifetime``.
  public private(set) var pendingQuestion: PendingQuestion?

  /// What the latest text given to ``updatePreview(_:)`` reads as, once it stayed unchanged for
  /// ``previewDelay``; nil for empty text or after ``cancelPreview()``.
  public private(set) var preview: TextPreview?
  /// How long a text must stay unchanged before it is previewed: 150 ms by default, so that
  /// fast typing parses only where the user pauses.
  public let previewDelay: Duration

  @ObservationIgnored private var previewTask: Task<Void, Never>?
  @ObservationIgnored private var previewGeneration = 0
  @ObservationIgnored private let sleep: @Sendable (Duration) async throws -> Void
  @ObservationIgnored private var machine = SessionMachine()
  @ObservationIgnored private let handler: any UtteranceHandling
  @ObservationIgnored private let context: @Sendable () -> ParseContext

  /// Creates a session over an agent; `context` gives the clock reading and zone per utterance.
  public convenience init(
    handler: any UtteranceHandling,
    context: @escaping @Sendable () -> ParseContext = { ParseContext() },
    previewDelay: Duration = .milliseconds(150)
  ) {
    self.init(
      handler: handler, context: context, previewDelay: previewDelay, clock: ContinuousClock())
  }

  /// Creates a session whose preview delay runs on `clock` (a test clock in tests).
  public init<C: Clock<Duration>>(
    handler: any UtteranceHandling,
    context: @escaping @Sendable () -> ParseContext = { ParseContext() },
    previewDelay: Duration = .milliseconds(150), clock: C
  ) {
    self.handler = handler
    self.context = context
    self.previewDelay = previewDelay
    self.sleep = { duration in try await clock.sleep(for: duration) }
  }

  /// Takes the text as typed so far; call it on every change of the text field.
  ///
  /// The text is previewed after ``previewDelay`` without a further change; an earlier text's
  /// pending preview is cancelled, so only the latest text's preview is ever delivered. The
  /// shown preview stays until the next one replaces it; empty text clears it. Nothing is
  /// executed.
  public func updatePreview(_ text: String) {
    cancelPendingPreview()
    guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      preview = nil
      return
    }
    let generation = previewGeneration
    let sleep = sleep
    let delay = previewDelay
    previewTask = Task { [weak self] in
      do {
        try await sleep(delay)
      } catch {
        return
      }
      guard let self, !Task.isCancelled, generation == self.previewGeneration else { return }
      self.preview = self.handler.preview(text, context: self.context())
    }
  }

  /// Cancels the pending preview and clears the shown one (the text field was cleared or sent).
  public func cancelPreview() {
    cancelPendingPreview()
    preview = nil
  }

  private func cancelPendingPreview() {
    previewGeneration += 1
    previewTask?.cancel()
    previewTask = nil
  }

  /// Whether a new utterance would be accepted now.
  public var canSubmit: Bool { SessionMachine.next(after: state, on: .submit) != nil }

  /// Handles `text` and returns true, or returns false at once when a request is already running
  /// or a result is still shown (call ``reset()`` first).
  ///
  /// When a question is pending, `text` may answer it ("十分钟" after "要计时多久？"), which runs
  /// the command that asked.
  @discardableResult
  public func submit(_ text: String) async -> Bool {
    guard apply(.submit) else { return false }
    cancelPreview()
    phases = [:]
    steps = [:]
    lastOutcome = nil
    let (stream, continuation) = AsyncStream<AgentEvent>.makeStream()
    let handler = handler
    let context = context()
    let pending = pendingQuestion
    async let outcome: AgentOutcome = {
      let result = await handler.handle(
        text, answering: pending, context: context, events: continuation)
      continuation.finish()
      return result
    }()
    for await event in stream { observe(event) }
    let final = await outcome
    lastOutcome = final
    pendingQuestion = final.pendingQuestion
    let lines = final.clauses.map(\.summary)
    let failures = final.clauses.filter(\.hasFailed).count
    if failures > 0, failures == final.clauses.count {
      apply(.fail(lines.joined(separator: "\n")))
    } else {
      apply(.finish(SessionResult(lines: lines, hasPartialFailure: failures > 0)))
    }
    return true
  }

  /// Dismisses a finished or failed result, back to `idle`; a pending question stays.
  public func reset() {
    apply(.reset)
  }

  /// Drops the pending question, so that the next utterance is read on its own.
  public func dismissQuestion() {
    pendingQuestion = nil
  }

  private func observe(_ event: AgentEvent) {
    switch event {
    case .executing(_, let skill):
      phases[skill] = .running
      apply(.executing(skill: skill))
    case .finished(_, let outcome):
      if let skill = outcome.skill { phases[skill] = .finished(outcome.summary) }
    case .failed(_, let skill, let message):
      if let skill { phases[skill] = .failed(message) }
    case .step(_, let skill, let step):
      steps[skill, default: []].append(step)
    case .parsing, .routed, .completed:
      break
    }
  }

  @discardableResult
  private func apply(_ event: SessionMachine.Event) -> Bool {
    guard machine.handle(event) else { return false }
    state = machine.state
    return true
  }
}
