import Foundation
import IntentEngine
import Testing

/// Behaviours of the built-in grammars that users rely on, each pinned by one sentence.
struct EngineBehaviourTests {
  static let engine: Engine? = try? Engine.load()
  static let context = ParseContext(
    now: Date(timeIntervalSince1970: 1_796_000_400),  // 2026-11-30T09:00:00+08:00
    timeZone: TimeZone(identifier: "Asia/Shanghai") ?? .gmt)

  struct Case: Sendable, CustomTestStringConvertible {
    var text: String
    var intent: IntentID?
    var slots: [String: String] = [:]
    /// Slots that must stay empty.
    var absent: [String] = []
    var local = true
    var testDescription: String { "\(text) → \(intent.map { "\($0)" } ?? "none")" }
  }

  static let cases: [Case] = [
    // A duration with 后 is a timer, never a reminder: reminder times are absolute.
    Case(text: "三分钟后提醒我关火", intent: "timer.start", slots: ["duration": "180", "text": "关火"]),
    Case(
      text: "in 10 minutes remind me to stretch", intent: "timer.start", slots: ["duration": "600"]),
    // A keyword may be the suffix of one token ("计时" in "别计时").
    Case(text: "别计时了", intent: "timer.cancel"),
    // A word never straddles two tokens: 今天|气温 holds no 天气, yet it is about weather.
    Case(text: "今天气温多少", intent: "weather.query", slots: ["date": "2026-11-30"]),
    // Words inside a note are the note: this is not a weather question.
    Case(text: "记一下 明天下雨要记得带伞", intent: "memo.create", slots: ["text": "明天下雨要记得带伞"]),
    // Context before the command does not end up in the payload.
    Case(
      text: "我老是忘 周五下午三点提醒我交水电费", intent: "reminder.create",
      slots: ["datetime": "2026-12-04T15:00:00+08:00", "text": "交水电费"]),
    // A command after context is still a command, and its payload keeps its own words.
    Case(
      text: "on the subway home, note down that I need my passport", intent: "memo.create",
      slots: ["text": "I need my passport"]),
    // Free text needs a content word: "set a" is not what the timer is for.
    Case(text: "set a timer for 20 minutes", intent: "timer.start", slots: ["duration": "1200"]),
    // Free text before a pattern word does not end with "a" or 个: nothing names this timer.
    Case(
      text: "快点 set a timer for 6 minutes", intent: "timer.start", slots: ["duration": "360"],
      absent: ["text"]),
    Case(text: "帮我设个计时器 五分钟", intent: "timer.start", slots: ["duration": "300"], absent: ["text"]),
    // After a comma the command is a clause of its own: the context's day and words stay out.
    Case(
      text: "the sale is on saturday, remind me friday at 7pm to buy rice",
      intent: "reminder.create",
      slots: ["datetime": "2026-12-04T19:00:00+08:00", "text": "buy rice"]),
    Case(
      text: "the kids are in the bath, set a timer for 20 minutes", intent: "timer.start",
      slots: ["duration": "1200"], absent: ["text"]),
    // A situation set apart before the command is not the timer's name; a short name is.
    Case(text: "面膜敷上了 计时15分钟", intent: "timer.start", slots: ["duration": "900"], absent: ["text"]),
    Case(text: "娃已经睡着了 计时器关了吧", intent: "timer.cancel", absent: ["text"]),
    Case(text: "烤鸡翅 定时25分钟", intent: "timer.start", slots: ["duration": "1500", "text": "烤鸡翅"]),
    // A confident command after context is read on its own; context that argues against it
    // (someone else, a translation) keeps the whole from being accepted.
    Case(
      text: "spent all day at the theme park, how many steps did I do today",
      intent: "health.query", slots: ["metric": "steps", "period": "today"]),
    Case(text: "我老公说 今天走了多少步", intent: nil, local: false),
    // Slots the command leaves open are taken from what the context names.
    Case(
      text: "driving to Suzhou on friday, will it rain there", intent: "weather.query",
      slots: ["location": "Suzhou", "date": "2026-12-04"]),
    Case(text: "把这句话翻成日语 明天会下雨", intent: nil, local: false),
    // Quotes are not clause breaks: a song title is not a weather question.
    Case(text: "放周杰伦的《晴天》", intent: nil, local: false),
    // Words said twice are said once: the note starts after the stutter.
    Case(text: "记一下 记一下 宝宝今天打了第二针", intent: "memo.create", slots: ["text": "宝宝今天打了第二针"]),
    Case(
      text: "uh write down write down the gate code is 4471", intent: "memo.create",
      slots: ["text": "the gate code is 4471"]),
    Case(
      text: "note that at the station the lockers are broken", intent: "memo.create",
      slots: ["text": "at the station the lockers are broken"]),
    // Spaces between English words are not clause breaks: the item is the whole phrase.
    Case(
      text: "coffee beans to the shopping list", intent: "memo.create",
      slots: ["text": "coffee beans"]),
    // A duration is evidence for a timer, but only next to a call to action.
    Case(text: "设一个十分钟的闹铃", intent: "timer.start", slots: ["duration": "600"]),
    Case(text: "the bus comes in 10 minutes right", intent: nil, local: false),
    // Pattern words of five letters or more tolerate one typo.
    Case(text: "add bananas to my shoping list", intent: "memo.create", slots: ["text": "bananas"]),
    // A past tense is a real word, not a slip: "timed" is not "timer"; "timmer" still is.
    Case(text: "I timed my run, forty minutes door to door", intent: nil, local: false),
    Case(text: "set a timmer for 8 minutes", intent: "timer.start", slots: ["duration": "480"]),
    // An utterance that opens by naming someone else is said to them, not to us; a word of
    // address inside a command is only a word.
    Case(text: "妈，你出门记得带伞啊", intent: nil, local: false),
    Case(text: "kids, boots on, it's raining", intent: nil, local: false),
    Case(text: "honey, what's the weather like tomorrow", intent: nil, local: false),
    Case(text: "take note, class, this will be on the exam", intent: nil, local: false),
    Case(text: "提醒我明天给妈打电话", intent: "reminder.create", slots: ["text": "给妈打电话"]),
    // Names cannot be listed, but a name in address has a shape: a surname with a form of
    // address (小王, 张姐), or one capitalised unknown word before a sentence that says "you".
    Case(text: "小王，你记一下今天的会议纪要", intent: nil, local: false),
    Case(text: "张姐，帮我提醒一下老李明天交报表", intent: nil, local: false),
    Case(text: "Tom, can you jot down the plate number", intent: nil, local: false),
    Case(text: "Tomorrow, can you remind me to call the bank", intent: "reminder.create"),
    Case(text: "Paris, what's the weather like tomorrow", intent: "weather.query"),
    // A device's own timer is the device's, but a timer named after a device is ours.
    Case(text: "set the tv sleep timer to an hour", intent: nil, local: false),
    Case(text: "cancel the oven timer", intent: "timer.cancel"),
    // A word in quotes or a title is mentioned, not used.
    Case(text: "“笔记”和“笔迹”有什么区别", intent: nil, local: false),
    Case(text: "放一首周杰伦的《晴天》", intent: nil, local: false),
    Case(text: "记一下“明天带伞”", intent: "memo.create", slots: ["text": "明天带伞"]),
    // Speech passed on to someone named is theirs; "tell me" and "告诉我" ask us.
    Case(text: "跟阿杰讲 深圳那边今天三十度 带短袖就行", intent: nil, local: false),
    Case(text: "tell sam to set a timer for 10 minutes", intent: nil, local: false),
    Case(text: "告诉我明天天气", intent: "weather.query", slots: ["date": "2026-12-01"]),
    Case(text: "tell me the weather tomorrow", intent: "weather.query"),
    // A message dictated to someone else is theirs; idioms are not forecasts.
    Case(text: "回复亲爱的：记得带伞哦亲", intent: nil, local: false),
    Case(text: "reply to tom yeah the address is in my notes", intent: nil, local: false),
    Case(text: "i'm on cloud nine right now", intent: nil, local: false),
    // A sentence to translate is quoted, never a command.
    Case(text: "把这句话翻成日语 明天会下雨", intent: nil, local: false),
    Case(text: "translate remind me tomorrow into french", intent: nil, local: false),
    // A countdown of days counts down to a date; it is not a timer.
    Case(text: "考试倒计时三十天了 好紧张", intent: nil, local: false),
    // What follows a self-correction replaces what came before, or the detail it corrects.
    Case(text: "no wait cancel the timer", intent: "timer.cancel"),
    Case(
      text: "set a timer for 10 minutes, actually make it 15", intent: "timer.start",
      slots: ["duration": "900"]),
    Case(text: "定个十分钟的 不对不对 取消计时", intent: "timer.cancel"),
    // Dropped at the end, nothing before is a command; elsewhere "never mind" is a word.
    Case(text: "set a timer for uh... never mind", intent: nil, local: false),
    Case(text: "記一下記那個 呃 沒事", intent: nil, local: false),
    Case(text: "never mind the timer, dinner's done", intent: "timer.cancel"),
    // A command followed by an aside that names nothing is still the command; a correction is
    // not an aside.
    Case(
      text: "闹钟定在明早5点半 要赶火车", intent: "reminder.create",
      slots: ["datetime": "2026-12-01T05:30:00+08:00"]),
    Case(text: "心跳好快 紧张死了", intent: nil, local: false),
    Case(text: "休息的计时取消，学员到了", intent: "timer.cancel", slots: ["text": "休息"]),
    // "note:" opens a note.
    Case(
      text: "note: hotel confirmation number HX77421", intent: "memo.create",
      slots: ["text": "hotel confirmation number HX77421"]),
    Case(text: "note taking apps for college", intent: nil, local: false),
    Case(text: "写个备忘 酒店房间号是1708", intent: "memo.create", slots: ["text": "酒店房间号是1708"]),
    Case(text: "做笔记用什么软件好", intent: nil, local: false),
    // A reminder's task ends where an aside begins; a list inside it does not end it.
    Case(
      text: "一个半小时后提醒我去接娃 幼儿园今天只上半天", intent: "timer.start",
      slots: ["duration": "5400", "text": "去接娃"]),
    Case(text: "明天提醒我买牛奶、鸡蛋和面包", intent: "reminder.create", slots: ["text": "买牛奶、鸡蛋和面包"]),
    // Indirect requests are requests; a keyword's own words are not its excludes ("kick off").
    Case(
      text: "would you mind reminding me at noon to eat lunch", intent: "reminder.create",
      slots: ["text": "eat lunch"]),
    Case(text: "is it possible to cancel my timer", intent: "timer.cancel"),
    Case(
      text: "would you mind setting a timer for 8 minutes", intent: "timer.start",
      slots: ["duration": "480"]),
    Case(text: "帮我记时十分钟", intent: "timer.start", slots: ["duration": "600"]),
    Case(text: "kick off a 20 min countdown", intent: "timer.start", slots: ["duration": "1200"]),
    // Cantonese and Sichuanese words for the same commands.
    Case(text: "我今日行咗幾多步", intent: "health.query", slots: ["metric": "steps", "period": "today"]),
    Case(text: "明天天气巴适不", intent: "weather.query", slots: ["date": "2026-12-01"]),
    // Weekdays written short.
    Case(
      text: "remind me sat 8pm to join the raid", intent: "reminder.create",
      slots: ["datetime": "2026-12-05T20:00:00+08:00", "text": "join the raid"]),
    // Talking about reminders is not creating one: asking whether an alarm is on reads them.
    Case(text: "明天早上的闹钟开着没", intent: "reminder.list", slots: ["date": "2026-12-01"]),
    Case(text: "is my alarm on for tomorrow", intent: nil, local: false),
    // Asking whether one's own figure is normal is a query; what counts as normal is advice.
    Case(text: "我今天心率正常吗", intent: "health.query", slots: ["metric": "heart_rate"]),
    Case(text: "心率多少算正常", intent: nil, local: false),
    // Other people named in the reason do not make "remind me" someone else's.
    Case(
      text: "孩子周五开家长会 周四晚上七点提醒我请假", intent: "reminder.create",
      slots: ["datetime": "2026-12-03T19:00:00+08:00", "text": "请假"]),
    Case(
      text: "陪孩子逛了一天游乐园 我今天走了多少步", intent: "health.query",
      slots: ["metric": "steps", "period": "today"]),
    // Someone else's data is not the user's.
    Case(text: "我老公今天走了多少步", intent: nil, local: false),
    // A statement is not a query, unless it asks.
    Case(text: "the weather is lovely today", intent: nil, local: false),
    Case(text: "its raining cats and dogs out here, no fares at all", intent: nil, local: false),
    Case(text: "哈尔滨下雪了没", intent: "weather.query", slots: ["location": "哈尔滨"]),
    Case(text: "it's raining, do i need an umbrella tomorrow", intent: "weather.query"),
    Case(text: "i walked 20000 steps yesterday", intent: nil, local: false),
    Case(text: "did i hit 10k steps today", intent: "health.query", slots: ["metric": "steps"]),
    // A keyword amid stuttered words is speech that did not come out; a second group or a slot
    // still says what is meant.
    Case(text: "天气天气啊那个的", intent: nil, local: false),
    Case(text: "the the rain uh", intent: nil, local: false),
    Case(text: "uh stop stop the the timer", intent: "timer.cancel"),
    // A question before context that names something of its own is still the question; the
    // context may not drop it.
    Case(text: "do I need an umbrella, I'm heading out", intent: "weather.query"),
    Case(
      text: "今天步数达标了没，目标八千", intent: "health.query",
      slots: ["metric": "steps", "period": "today"]),
    Case(text: "明天的天气 算了 不看了", intent: nil, local: false),
    // A stop said to be for a while is a pause; the paused timer is one to resume.
    Case(text: "stop the countdown for a moment", intent: "timer.pause"),
    Case(text: "把停着的倒计时开起来", intent: "timer.resume"),
    // A note asked for before its words asks for them.
    Case(text: "take a note", intent: "memo.create"),
    // A word glued to another never hides it: 有提醒吗 still says 提醒.
    Case(text: "周五有提醒吗", intent: "reminder.list", slots: ["date": "2026-12-04"]),
    // Traditional characters read like their simplified twins.
    Case(text: "刪除明天的提醒", intent: "reminder.cancel"),
    Case(
      text: "上个月走了多少步", intent: "health.query",
      slots: ["metric": "steps", "period": "last_month"]),
    // An aside from another domain ("flight") does not hide the command before it.
    Case(
      text: "wake me up at 6:30 tomorrow, gotta catch a flight", intent: "reminder.create",
      slots: ["datetime": "2026-12-01T06:30:00+08:00"]),
    // Other business as context does not make the command after it someone else's.
    Case(
      text: "I'm on a work call, remind me in 20 minutes to take the laundry out",
      intent: "timer.start", slots: ["duration": "1200", "text": "take the laundry out"]),
    // Other business is what a task at a time is about.
    Case(
      text: "remind me tonight to text Alex back", intent: "reminder.create",
      slots: ["datetime": "2026-11-30T20:00:00+08:00", "text": "text Alex back"]),
    // A word of address run into a question to "you" is said to that person.
    Case(text: "mom can u remind me to bring my jersey tmrw", intent: nil, local: false),
    // An utterance that breaks off on a word no sentence ends on was never finished.
    Case(text: "how many steps did", intent: nil, local: false),
    Case(text: "how many steps did i take today", intent: "health.query"),
    // A question may end on a preposition; a command may not.
    Case(text: "what time is my alarm set for", intent: "reminder.list"),
    Case(text: "what does my to-do list consist of", intent: "memo.list", slots: ["list": "todo"]),
    Case(text: "add milk to the list of", intent: nil, local: false),
    // A misspelt word is weaker evidence, for strength too: "books" read as "boots" makes no
    // weather question.
    Case(text: "what's in the books for april 30th", intent: nil, local: false),
    // A word the matched sentence itself says is no word against it.
    Case(text: "did i add purchase tickets to my todo list", intent: "memo.list"),
    // One question said in parts is not two commands.
    Case(
      text: "is it cold and windy in chicago", intent: "weather.query",
      slots: ["location": "Chicago"]),
    // Declining a timer is no request; saying it is no longer needed stops it.
    Case(text: "不需要计时 我看着锅呢", intent: nil, local: false),
    Case(text: "不需要计时了", intent: "timer.cancel"),
    Case(text: "no need for a timer this time thanks", intent: nil, local: false),
    Case(text: "no need for a timer anymore, thanks", intent: "timer.cancel"),
    // A length inside the words before a timer word describes the countdown, it is no name;
    // Chinese words after it are the name.
    Case(text: "整个八分钟的倒计时", intent: "timer.start", slots: ["duration": "480"], absent: ["text"]),
    Case(
      text: "hey can you start a timer for like 12 minutes", intent: "timer.start",
      slots: ["duration": "720"], absent: ["text"]),
    Case(
      text: "设一个十五分钟的面膜计时", intent: "timer.start",
      slots: ["duration": "900", "text": "面膜"]),
    // A day and a clock time said apart are one time.
    Case(
      text: "明天 remind me at 3pm to call mum", intent: "reminder.create",
      slots: ["datetime": "2026-12-01T15:00:00+08:00"]),
    // A list named with a slip is still that list; a determiner never ends the item.
    Case(
      text: "put milk on my shoping list", intent: "memo.create",
      slots: ["list": "shopping", "text": "milk"]),
    // Marks the normaliser drops are the user's words when they close the note.
    Case(text: "记住 门禁密码是3409#", intent: "memo.create", slots: ["text": "门禁密码是3409#"]),
    Case(text: "记一下，那本书叫《人类简史》", intent: "memo.create", slots: ["text": "那本书叫《人类简史》"]),
    // A slipped letter at the end of a word still matches the pattern's word; an ending does not.
    Case(
      text: "reminde me at 4pm to stretch", intent: "reminder.create",
      slots: ["datetime": "2026-11-30T16:00:00+08:00", "text": "stretch"]),
    // Words read as the request itself are no name: a time with its own slot, a scope word, a
    // query word; a list's name holds no preposition.
    Case(text: "cancel my alarm for tomorrow", intent: "reminder.cancel", absent: ["text"]),
    Case(text: "购物清单全部删除", intent: "memo.delete", slots: ["scope": "all"], absent: ["text"]),
    Case(text: "待办清单里有几项", intent: "memo.list", slots: ["list": "todo"], absent: ["text"]),
    Case(
      text: "把护照从旅行清单去掉", intent: "memo.delete", slots: ["list": "旅行", "text": "护照"]),
    Case(text: "购物清单里的酱油删了", intent: "memo.delete", slots: ["list": "shopping", "text": "酱油"]),
    // A day said as it sounds is still that day.
    Case(
      text: "remind me tomoro 10am to send the invoice", intent: "reminder.create",
      slots: ["datetime": "2026-12-01T10:00:00+08:00", "text": "send the invoice"]),
    Case(text: "不计了不计了 取消", intent: "timer.cancel"),
    // A word against an intent inside a value it takes is part of the value: "after" here is
    // the day, not a countdown; "help me" is politeness.
    Case(
      text: "remind me the day after tomorrow to call grandma", intent: "reminder.create",
      slots: ["datetime": "2026-12-02T09:00:00+08:00", "text": "call grandma"]),
    Case(text: "help me set a reminder to work out", intent: "reminder.create"),
    // A polite request to pause is a request.
    Case(text: "can you pause my timer, doorbell", intent: "timer.pause"),
    // 去 belongs to the task: the reminder is to go and fetch the child.
    Case(text: "提醒我去接孩子", intent: "reminder.create", slots: ["text": "去接孩子"]),
  ]

  @Test(arguments: cases)
  func routesAsUsersExpect(_ c: Case) throws {
    let engine = try #require(Self.engine)
    let result = engine.parse(c.text, context: Self.context)
    if c.local {
      #expect(result.intent == c.intent)
      #expect(result.route == .local, "\(result.explanation.map(\.detail))")
      for (name, expected) in c.slots {
        let value = result.slot(name)
        #expect((value?.stringValue ?? value?.jsonText) == expected, "slot \(name)")
      }
      for name in c.absent {
        #expect(result.slot(name) == nil, "slot \(name) should be empty")
      }
    } else {
      #expect(
        result.route == .fallback || result.intent == nil, "\(result.explanation.map(\.detail))")
    }
  }

  @Test func explanationSaysWhyAnIntentLost() throws {
    let engine = try #require(Self.engine)
    let result = engine.parse("记一下 明天下雨要记得带伞", context: Self.context)
    #expect(result.alternatives.contains { $0.intent == "weather.query" })
    #expect(result.explanation.contains { $0.kind == .pattern })
  }
}
