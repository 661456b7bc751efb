import Foundation
import IntentEngine
import Testing

/// What real users say that the engine once misread: sister intents, missing details, stray
/// corrections, unknown places and several commands in one line.
struct RealUsersTests {
  static let engine: Engine? = try? Engine.load()
  static let context = EngineBehaviourTests.context

  struct Case: Sendable, CustomTestStringConvertible {
    var text: String
    var intent: IntentID?
    var slots: [String: String] = [:]
    var missing: [String] = []
    var prompt: String?
    var testDescription: String { "\(text) → \(intent.map { "\($0)" } ?? "none")" }
  }

  static let cases: [Case] = [
    // Asking about what exists is not making it.
    Case(
      text: "have I got any alarms tomorrow", intent: "reminder.list", slots: ["date": "2026-12-01"]
    ),
    Case(
      text: "are eggs on my shopping list", intent: "memo.list",
      slots: ["list": "shopping", "text": "eggs"]),
    Case(text: "明天有什么提醒", intent: "reminder.list", slots: ["date": "2026-12-01"]),
    // Removing is not adding; every item is scope 'all'.
    Case(text: "take the apples off the list", intent: "memo.delete", slots: ["text": "apples"]),
    Case(text: "cancel all my alarms", intent: "reminder.cancel", slots: ["scope": "all"]),
    Case(text: "清空购物清单", intent: "memo.delete", slots: ["list": "shopping", "scope": "all"]),
    // Other lists keep the user's words.
    Case(
      text: "is sunscreen on my packing list", intent: "memo.list",
      slots: ["list": "packing", "text": "sunscreen"]),
    // Changing a running timer is neither starting nor cancelling one; durations are signed.
    Case(text: "add 5 minutes to the timer", intent: "timer.adjust", slots: ["duration": "300"]),
    Case(
      text: "take two minutes off the pasta timer", intent: "timer.adjust",
      slots: ["duration": "-120", "text": "pasta"]),
    Case(text: "倒计时减两分钟", intent: "timer.adjust", slots: ["duration": "-120"]),
    Case(text: "pause the timer", intent: "timer.pause"),
    Case(text: "继续倒计时", intent: "timer.resume"),
    Case(text: "计时器还剩多久", intent: "timer.status"),
    // A detail left out is asked for, in the user's language, at full confidence.
    Case(
      text: "set a timer please", intent: "timer.start", missing: ["duration"],
      prompt: "For how long?"),
    Case(
      text: "remind me to stretch", intent: "reminder.create", slots: ["text": "stretch"],
      missing: ["datetime"], prompt: "When should I remind you?"),
    Case(text: "帮我定个闹钟", intent: "reminder.create", missing: ["datetime"], prompt: "什么时候提醒你？"),
    // A task about other people is the user's task, with its time still to be asked for.
    Case(
      text: "set a reminder to phone my brother", intent: "reminder.create",
      slots: ["text": "phone my brother"], missing: ["datetime"],
      prompt: "When should I remind you?"),
    Case(
      text: "i need to be reminded to feed the fish", intent: "reminder.create",
      slots: ["text": "feed the fish"], missing: ["datetime"],
      prompt: "When should I remind you?"),
    // Weather asked as a span, an amount or what is on the way.
    Case(
      text: "how much rain are we supposed to get tomorrow", intent: "weather.query",
      slots: ["date": "2026-12-01"]),
    Case(
      text: "what sort of weather should we expect this week", intent: "weather.query",
      slots: ["date": "2026-11-30"]),
    // A day's to-dos read the to-do list.
    Case(text: "what do i need to do tomorrow", intent: "memo.list", slots: ["list": "todo"]),
    // A place the gazetteer does not know is still the place asked about.
    Case(
      text: "weather in yorba linda", intent: "weather.query", slots: ["location": "yorba linda"]),
    Case(text: "桂平市天气", intent: "weather.query", slots: ["location": "桂平市"]),
    // A place the gazetteer knows is named as it spells it.
    Case(text: "weather in costa mesa", intent: "weather.query", slots: ["location": "Costa Mesa"]),
    // Whether something was set or added asks about it, directly or inside "check if".
    Case(text: "did i set an alarm for tomorrow", intent: "reminder.list"),
    Case(
      text: "can you check if i've added milk to my shopping list", intent: "memo.list",
      slots: ["list": "shopping"]),
    // A note taken is not an item taken off; a known word is no misspelt keyword.
    Case(text: "take a note that the blue folder is in the car", intent: "memo.create"),
    Case(text: "is there a reminder set to clean the car", intent: "reminder.list"),
    // A list of things to do or buy is the to-do or shopping list.
    Case(
      text: "what's on my list of things to buy", intent: "memo.list", slots: ["list": "shopping"]),
    // A slip that is no word is the keyword, beside another spelt right; a real word read as a
    // keyword needs a slot's value ("set a time for five minutes").
    Case(text: "stop the timmer", intent: "timer.cancel"),
    Case(text: "set a time for five minutes", intent: "timer.start", slots: ["duration": "300"]),
    // A relative pronoun after a keyword opens a clause, not a question.
    Case(
      text: "kindly cancel all the timers which are running", intent: "timer.cancel",
      slots: ["scope": "all"]),
    // A timer nearly done is asked about.
    Case(text: "is my countdown nearly finished", intent: "timer.status"),
    // A measure word between a number and an abbreviated unit.
    Case(text: "add 5 more mins to the timer", intent: "timer.adjust", slots: ["duration": "300"]),
    // Run-on speech: a command ends before a word that opens a new clause, and the context's
    // words ("flight") are the user's own.
    Case(
      text: "wake me at 5 tomorrow i got a flight to catch", intent: "reminder.create",
      slots: ["datetime": "2026-12-01T05:00:00+08:00"]),
    Case(
      text: "how many steps did i take yesterday at the theme park", intent: "health.query",
      slots: ["metric": "steps", "period": "yesterday"]),
    // A negative question asks; it does not negate ("didn't I hit 10k steps").
    Case(
      text: "isn't it supposed to be sunny in Sydney today", intent: "weather.query",
      slots: ["location": "Sydney", "date": "2026-11-30"]),
    // A real word read as a near keyword is no exclude either ("time" is not "timer").
    Case(
      text: "what time did I fall asleep last night", intent: "health.query",
      slots: ["metric": "sleep", "period": "yesterday"]),
    // Time and place lead a Chinese yes-no question; context may follow.
    Case(text: "明天深圳有雾吗 怕航班延误", intent: "weather.query", slots: ["location": "深圳"]),
    Case(text: "这周我平均每天走多少步", intent: "health.query", slots: ["period": "this_week"]),
    // A stop said not to cancel is a pause.
    Case(text: "计时器先停下 别取消", intent: "timer.pause"),
    // Time left asked with no timer named is a running countdown's.
    Case(text: "how much time is left on it", intent: "timer.status"),
    // To time a length is a timer; keep-this verbs take the note after them.
    Case(text: "给我计十五分钟", intent: "timer.start", slots: ["duration": "900"]),
    Case(text: "帮我记住我的车停在C区12号", intent: "memo.create", slots: ["text": "我的车停在C区12号"]),
    // Whether an alarm is on asks about it; one's own notes opened are read.
    Case(text: "明天早上的闹钟开着没", intent: "reminder.list", slots: ["date": "2026-12-01"]),
    Case(text: "打开我的备忘录", intent: "memo.list"),
    // Whether to take an umbrella, with what one is going to do in between and context after.
    Case(text: "明天出车要不要带伞 要跑一趟机场", intent: "weather.query", slots: ["date": "2026-12-01"]),
    // Half past as British and Irish English say it.
    Case(
      text: "would ya ever remind me at half eight tonight to put the bins out",
      intent: "reminder.create",
      slots: ["datetime": "2026-11-30T20:30:00+08:00", "text": "put the bins out"]),
    // Punctuation said aloud in dictation is punctuation.
    Case(
      text: "set a timer for fifteen minutes full stop", intent: "timer.start",
      slots: ["duration": "900"]),
    Case(text: "what's the weather tomorrow question mark", intent: "weather.query"),
    Case(text: "立刻停止当前计时句号", intent: "timer.cancel"),
    // Deleting all of them, adding time with 添, whether the time is up, an alarm that need not
    // ring any more.
    Case(text: "把备忘录全部删干净", intent: "memo.delete"),
    Case(text: "给计时器再添五分钟", intent: "timer.adjust", slots: ["duration": "300"]),
    Case(text: "计时器那边时间到了没", intent: "timer.status"),
    Case(text: "明早那个闹钟不用响了 帮我取消", intent: "reminder.cancel"),
    // Times said as people say them: a quarter past, an hour and minutes after the day, am as
    // two letters.
    Case(
      text: "Please remind me at a quarter past eleven to move the laundry to the dryer.",
      intent: "reminder.create",
      slots: ["datetime": "2026-11-30T11:15:00+08:00", "text": "move the laundry to the dryer"]),
    Case(
      text: "alarm tomorrow 6 45", intent: "reminder.create",
      slots: ["datetime": "2026-12-01T06:45:00+08:00"]),
    Case(
      text: "set an alarm for seven a m", intent: "reminder.create",
      slots: ["datetime": "2026-12-01T07:00:00+08:00"]),
    // A word that breaks a sentence off is none inside a longer word ("for now").
    Case(text: "freeze the countdown for now", intent: "timer.pause"),
    Case(
      text: "notes: meeting room code 4471", intent: "memo.create",
      slots: ["text": "meeting room code 4471"]),
    Case(text: "bin the note about the old wifi password", intent: "memo.delete"),
    Case(text: "shopping list: bin bags, dish soap", intent: "memo.create"),
    // zh: going on timing, whether the timer ran out, holding it, reading notes aloud, whether
    // reminders are left today, a heart rate asked at its highest.
    Case(text: "电话打完了 接着计时", intent: "timer.resume"),
    Case(text: "我那个计时器走完没", intent: "timer.status"),
    Case(text: "倒计时等一等，我接个电话", intent: "timer.pause"),
    Case(text: "把我记的备忘给我念一遍", intent: "memo.list"),
    Case(text: "今天后面还有提醒吗", intent: "reminder.list", slots: ["date": "2026-11-30"]),
    Case(text: "今天我心率最高飙到多少", intent: "health.query", slots: ["metric": "heart_rate"]),
    // zh: waiting to go on pauses, 恢复 resumes, an alarm set by its time then its verb; the
    // Cantonese and colloquial deleting and cancelling; en: 'paws' as speech recognition writes it.
    Case(text: "倒计时停一下 等会继续", intent: "timer.pause"),
    Case(text: "恢复一下刚才的倒计时", intent: "timer.resume"),
    Case(
      text: "明天早上７点半的闹钟帮我定好", intent: "reminder.create",
      slots: ["datetime": "2026-12-01T07:30:00+08:00"]),
    Case(text: "计时器给我删咯", intent: "timer.cancel"),
    Case(text: "鬧鐘唔使響了 取消佢", intent: "reminder.cancel"),
    Case(text: "paws the timer please", intent: "timer.pause"),
    // Waking to a song sets the alarm.
    Case(
      text: "明天早上放周杰伦的歌叫醒我", intent: "reminder.create",
      slots: ["datetime": "2026-12-01T08:00:00+08:00"]),
    Case(text: "is my timer still going or did it stop", intent: "timer.status"),
    // A self-correction replaces the detail before it; a bare number keeps its unit.
    Case(
      text: "remind me at 3, no wait, 3:30 this afternoon to move the car",
      intent: "reminder.create",
      slots: ["datetime": "2026-11-30T15:30:00+08:00", "text": "move the car"]),
    Case(
      text: "timer for four minutes, no, make that six", intent: "timer.start",
      slots: ["duration": "360"]),
    Case(text: "定个十分钟的，不对不对，十五分钟吧", intent: "timer.start", slots: ["duration": "900"]),
    // A making word makes, unless the line asks whether it is done ("…加到购物清单了没").
    Case(text: "把鸡蛋加到购物清单", intent: "memo.create", slots: ["list": "shopping", "text": "鸡蛋"]),
    Case(text: "牛奶我加进购物单了吗", intent: "memo.list", slots: ["list": "shopping", "text": "牛奶"]),
    // Where a noted thing is asks for the note; where the notepad is asks for an app.
    Case(text: "上周记的那条备忘去哪了", intent: "memo.list"),
    // The -ing form of a keyword verb is the verb; of an exclude, nothing.
    Case(
      text: "would you mind deleting all my notes", intent: "memo.delete", slots: ["scope": "all"]),
    Case(
      text: "set a 2 hour timer pls im charging the ebike", intent: "timer.start",
      slots: ["duration": "7200"]),
    // A real word read as a near exclude in the context argues against nothing.
    Case(
      text: "the plumber is coming round, could you remind me on friday at 8 to move the car",
      intent: "reminder.create",
      slots: ["datetime": "2026-12-04T08:00:00+08:00", "text": "move the car"]),
    // Written Cantonese is read as Mandarin; the text slot keeps the user's words.
    Case(
      text: "唔該聽日朝早七點提醒我食藥", intent: "reminder.create",
      slots: ["datetime": "2026-12-01T07:00:00+08:00", "text": "食藥"]),
    Case(text: "個計時器仲剩幾耐", intent: "timer.status"),
    // No longer needing to be reminded of something named cancels that reminder.
    Case(text: "以后不用提醒我交房租了", intent: "reminder.cancel"),
    Case(text: "我今日行咗幾多步", intent: "health.query", slots: ["metric": "steps", "period": "today"]),
    Case(text: "杭州明朝会落雨伐", intent: "weather.query", slots: ["date": "2026-12-01"]),
    // A plus sign before a length adds it; a Chinese numeral against an English word stands apart.
    Case(text: "timer +5 min", intent: "timer.adjust", slots: ["duration": "300"]),
    Case(text: "帮我set个timer五分钟", intent: "timer.start", slots: ["duration": "300"]),
    // 那个 before a request is a hesitation, not "that reminder".
    Case(
      text: "那个提醒我后天上午十点去银行", intent: "reminder.create",
      slots: ["datetime": "2026-12-02T10:00:00+08:00", "text": "去银行"]),
    // A task does not end by turning itself down: the reminder named is no longer wanted.
    Case(text: "提醒我交电费的那个不要了", intent: "reminder.cancel"),
    // A veto in context after the command is the user's words, unless it names another command.
    Case(text: "cancel the timer please, the fire alarm is going off", intent: "timer.cancel"),
    Case(
      text: "what was my pulse this morning, not my wife's, mine", intent: "health.query",
      slots: ["metric": "heart_rate"]),
    // A place the gazetteer does not know is read like a known one, by patterns too.
    Case(
      text: "how warm is it in Ushuaia right now", intent: "weather.query",
      slots: ["location": "Ushuaia"]),
    Case(text: "明天宁波的降水概率高吗", intent: "weather.query", slots: ["location": "宁波"]),
  ]

  @Test(arguments: cases)
  func readsWhatUsersMean(_ c: Case) throws {
    let engine = try #require(Self.engine)
    let result = engine.parse(c.text, context: Self.context)
    #expect(result.intent == c.intent, "\(result.explanation.map(\.detail))")
    #expect(result.route == .local, "\(result.explanation.map(\.detail))")
    for (name, expected) in c.slots {
      let value = result.slot(name)
      #expect((value?.stringValue ?? value?.jsonText) == expected, "slot \(name)")
    }
    #expect(result.missingSlots == c.missing)
    #expect(result.prompt == c.prompt)
  }

  @Test(arguments: [
    // A spelling correction alone never makes a command.
    "what is the time", "put a block on my chase account right away", "what's 7 times 8",
    // Near misses that share a keyword.
    "what's the difference between a timer and a stopwatch",
    "remind me what the capital of peru is",
    // Hypotheticals and how-to questions read or change nothing.
    "what if i deleted all my reminders", "how would i pause a timer", "要是取消闹钟的话会怎么样",
    // A complaint about a timer asks for none.
    "the oven timer isn't working",
    // Time left in or for something else, and another person's alarm.
    "do i have any vacation time left", "我老公明天的闹钟定了没",
    "if i set an alarm for 3am would i be tired all day",
    // A word that holds 计 keeps it; asking whether one can remember is no note; the app opened.
    "这个设计花了我二十分钟", "你能记住我说的话吗", "打开备忘录",
    // Sending a memo to people, whether two words mean the same, and a weekly alarm change.
    "send a memo to the whole team about the christmas do", "is a memo the same thing as a letter",
    "周六周日不要响闹钟 让我睡",
    // Recovering deleted notes, and a heart rate told, not asked.
    "备忘录被我误删了 还能找回来吗", "心率飙到一百了",
    // Whether a timer goes on with the screen off asks how the phone works; days left count down
    // to a date.
    "手机里的计时器关了屏幕还会继续走吗", "倒计时还有多少天过年",
    // A weather word said alone remarks on the weather; what is playing goes to a playlist.
    "chilly", "put this track on my gym list", "把这首歌加到我的收藏列表",
    // Declining a reminder with nothing named cancels nothing.
    "不用提醒我了",
    // An activity said as what one is doing asks for no figure, and a pattern whose words are all
    // optional does not match its slot alone.
    "walking now", "sleeping now", "睡了",
    // Asking whether something was made already makes nothing.
    "鸡蛋我加到购物清单了没", "周五那天我设闹钟了吗",
    // Asking what a feature can hold or do is no request of it.
    // Climate is no forecast.
    "what's the average snowfall in Tromso per year",
    "whats the max number of timers i can run", "is there a limit on how many notes i can keep",
    "闹钟最多可以设几个",
  ])
  func nearMissIsNotHandledLocally(_ text: String) throws {
    let engine = try #require(Self.engine)
    let result = engine.parse(text, context: Self.context)
    #expect(
      result.route == .fallback || result.intent == nil, "\(result.explanation.map(\.detail))")
  }

  @Test func notUnderstoodSaysWhichVetoRuledAnIntentOut() throws {
    let engine = try #require(Self.engine)
    let vetoed = engine.parse("how do i change my step goal", context: Self.context)
    #expect(vetoed.route == .fallback)
    #expect(vetoed.explanation.contains { $0.detail.hasPrefix("health.query ruled out by") })
    // Only an intent whose needed keywords were all said is ruled out by a veto: "timer" names
    // every timer intent, but only starting one needs no more than that word.
    let asked = engine.parse("german word for timer?", context: Self.context)
    #expect(asked.explanation.map(\.detail) == ["timer.start ruled out by 'word for'"])
  }

  @Test func notUnderstoodIsNullWithTheGuessKept() throws {
    let engine = try #require(Self.engine)
    let result = engine.parse("coffee beans", context: Self.context)
    #expect(result.intent == nil)
    #expect(result.slots.isEmpty)
    let guess = engine.parse("the weather thing", context: Self.context)
    if guess.confidence < engine.calibration.offlineThreshold {
      #expect(guess.intent == nil)
      #expect(guess.alternatives.first?.intent == "weather.query")
    }
  }

  @Test(arguments: [
    ("看看天气顺便提醒我带伞", "带伞"),
    ("check the weather and remind me to take an umbrella", "take an umbrella"),
  ])
  func twoCommandsSplitWhenTheSecondLacksItsTime(_ text: String, _ title: String) throws {
    let engine = try #require(Self.engine)
    let result = engine.parse(text, context: Self.context)
    #expect(result.clauses.map(\.intent) == ["weather.query", "reminder.create"])
    #expect(result.clauses.last?.slot("text")?.stringValue == title)
    #expect(result.clauses.last?.missingSlots == ["datetime"])
  }
}
