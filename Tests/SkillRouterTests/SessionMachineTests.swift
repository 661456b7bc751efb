import SkillRouter
import Testing

struct SessionMachineTests {
  static let done = SessionResult(lines: ["ok"], hasPartialFailure: false)

  @Test(arguments: [
    (SessionState.idle, SessionMachine.Event.submit, SessionState.parsing),
    (.failed("x"), .submit, .parsing),
    (.parsing, .executing(skill: "Timer"), .executing(skill: "Timer")),
    (.executing(skill: "Weather"), .executing(skill: "Timer"), .executing(skill: "Timer")),
    (.parsing, .finish(done), .finished(done)),
    (.executing(skill: "Timer"), .finish(done), .finished(done)),
    (.executing(skill: "Timer"), .fail("boom"), .failed("boom")),
    (.finished(done), .reset, .idle),
    (.failed("x"), .reset, .idle),
  ])
  func allowsLegalTransitions(from: SessionState, event: SessionMachine.Event, to: SessionState) {
    #expect(SessionMachine.next(after: from, on: event) == to)
  }

  @Test(arguments: [
    (SessionState.parsing, SessionMachine.Event.submit),
    (.executing(skill: "Timer"), .submit),
    (.finished(done), .submit),
    (.idle, .executing(skill: "Timer")),
    (.idle, .finish(done)),
    (.idle, .reset),
    (.parsing, .reset),
    (.finished(done), .fail("late")),
  ])
  func refusesIllegalTransitions(from: SessionState, event: SessionMachine.Event) {
    #expect(SessionMachine.next(after: from, on: event) == nil)
  }

  @Test func illegalEventLeavesTheStateAlone() {
    var machine = SessionMachine()
    let first = machine.handle(.submit)
    let second = machine.handle(.submit)
    #expect(first)
    #expect(!second)
    #expect(machine.state == .parsing)
  }
}
