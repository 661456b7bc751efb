/// A part of the day, which fixes am/pm and gives a default clock time.
enum DayPart: Sendable, Equatable {
  /// 凌晨: 0–5 h.
  case earlyMorning
  /// 早上, 早晨, morning.
  case morning
  /// 上午.
  case forenoon
  /// 中午, noon.
  case noon
  /// 下午, afternoon.
  case afternoon
  /// 傍晚, evening.
  case dusk
  /// 晚上, 今晚, tonight, night.
  case night
  /// 半夜, 午夜, midnight.
  case midnight

  /// The default time when no clock time is given, in minutes after the day's midnight.
  ///
  /// Time rules §4; midnight is 24:00, the start of the next day. 凌晨 has no rule: 05:00 is ours.
  var defaultMinutes: Int {
    switch self {
    case .earlyMorning: 5 * 60
    case .morning: 8 * 60
    case .forenoon: 9 * 60
    case .noon: 12 * 60
    case .afternoon: 15 * 60
    case .dusk: 18 * 60
    case .night: 20 * 60
    case .midnight: 24 * 60
    }
  }

  /// The 24-hour clock hour for hour `h` said with this part of the day (time rules §3).
  ///
  /// 24 means midnight at the end of the day: 晚上十二点 and 半夜十二点 are 00:00 of the next day.
  func hour(for h: Int) -> Int {
    switch self {
    case .earlyMorning: h == 12 ? 0 : h
    case .morning, .forenoon: h
    case .noon: (1...5).contains(h) ? h + 12 : h
    case .afternoon: h < 12 ? h + 12 : h
    case .dusk, .night: h < 12 ? h + 12 : (h == 12 ? 24 : h)
    case .midnight: h == 12 ? 24 : h
    }
  }
}

/// A unit of a duration.
enum TimeUnit: Sendable, Equatable {
  case second, minute, hour, day, week, month, year

  /// Length in seconds; months are 30 days and years 365 days (said so in the entity note).
  var seconds: Double {
    switch self {
    case .second: 1
    case .minute: 60
    case .hour: 3600
    case .day: 86_400
    case .week: 604_800
    case .month: 2_592_000
    case .year: 31_536_000
    }
  }
}

/// A word the entity extractors know, as found by the lexicon trie.
enum LexiconWord: Sendable, Equatable {
  /// 今天 0, 明天 1, 后天 2, 大后天 3, 昨天 −1, today, tomorrow.
  case dayOffset(Int)
  /// 明早, 今晚, 昨晚, tonight, "this morning".
  case dayAndPart(Int, DayPart)
  case part(DayPart)
  /// Monday = 1 … Sunday = 7; `week` is nil for a bare weekday, else 0 this, 1 next, −1 last.
  case weekday(Int, week: Int?)
  /// 周末, weekend; `week` as for weekdays.
  case weekend(week: Int?)
  /// 这周 0, 下周 1, 上周 −1, "next week".
  case weekRef(Int)
  /// 这个月 0, 下个月 1, 上个月 −1, "next month".
  case monthRef(Int)
  /// 月底 0, 下个月底 1, "end of the month".
  case monthEnd(Int)
  /// A holiday on a fixed day of the year: 元旦, 平安夜, "new year's eve", "christmas".
  case holiday(month: Int, day: Int)
  /// next / this / last / coming, before an English weekday or weekend.
  case modifier(Int)
  /// January = 1 …
  case monthName(Int)
  case unit(TimeUnit)
  /// 分: minutes of a clock time or, in compounds, of a duration.
  case minuteMark
  /// 点, 点钟, 时.
  case clockMark
  /// 整, as in 八点整.
  case sharp
  /// 半.
  case half
  /// 刻.
  case quarter
  /// 个, "more", "extra": between a number and its unit.
  case measure
  /// 钟, as in 两分半钟 and 一刻钟.
  case zhong
  /// 号, 日.
  case dayMark
  /// 月.
  case monthMark
  /// 年.
  case yearMark
  /// 后, 以后, later, "from now".
  case after
  /// in, 过, 再过, after.
  case inPrefix
  /// at, by.
  case at
  /// on.
  case on
  /// 的, the, "in the", of.
  case connector
  /// a, an.
  case article
  /// and (n), 又, 再加: between the parts of one length.
  case and
  /// "and a half" ("n a half").
  case andAHalf
  /// am (false) / pm (true).
  case meridiem(isPM: Bool)
  case oclock
  /// "half past" 30, "quarter past" 15, "quarter to" −15 (minutes relative to the hour).
  case pastHour(Int)
  /// 差, "to": minutes before an hour ("差五分八点", "八点差一刻", "at 5 to 8").
  case minutesTo
  /// "past": minutes after an hour ("at 10 past 8").
  case minutesPast
  /// st, nd, rd, th after a number.
  case ordinal
  /// "third" … "thirtieth": a day of the month only beside a month's name ("the fourth of
  /// December", "December fourth"); alone it counts times or things ("the fourth time").
  case ordinalWord(Int)
  /// A fixed length said in words: "a quarter of an hour" (seconds).
  case durationWord(Double)
  /// "for", a clock connector only after "alarm" ("set an alarm for 7").
  case forWord
  /// steps, heart_rate, sleep.
  case metric(HealthMetric)
}

/// The health measures the extractors name; a plain enum, so that lexicon words and tokens stay
/// trivially copyable.
enum HealthMetric: String, Sendable {
  case steps
  case heartRate = "heart_rate"
  case sleep
}

/// The vocabulary of the built-in extractors: time words, units and health metrics.
///
/// Latin entries match only at word boundaries; CJK entries anywhere, longest first.
enum EntityLexicon {
  static let trie: ScalarTrie<LexiconWord> = {
    var trie = ScalarTrie<LexiconWord>()
    func add(_ words: String, _ word: LexiconWord) {
      for w in words.split(separator: ",") {
        let text = w.trimmedOfSpaces
        if !text.isEmpty { trie.insert(text.unicodeScalars, value: word) }
      }
    }
    // Days.
    add("今天,今日,今儿,今儿个,today,2day,tday,tdy,todya", .dayOffset(0))
    add(
      "明天,明日,明儿,明儿个,听日,tomorrow,tmr,tmrw,tomorow,tommorow,tommorrow,tomoro,tomorro,tommoro,2moro,2morrow,2morow,tmrow",
      .dayOffset(1)
    )
    add("后天,the day after tomorrow,day after tomorrow", .dayOffset(2))
    add("大后天", .dayOffset(3))
    // Holidays on a fixed Gregorian day (lunar ones such as 春节 move, and are left out).
    add("元旦,new year's day,new years day", .holiday(month: 1, day: 1))
    add("情人节,valentine's day,valentines day", .holiday(month: 2, day: 14))
    add("劳动节,五一劳动节", .holiday(month: 5, day: 1))
    add("国庆节,国庆", .holiday(month: 10, day: 1))
    add("万圣节,halloween", .holiday(month: 10, day: 31))
    add("平安夜,christmas eve,xmas eve", .holiday(month: 12, day: 24))
    add("圣诞节,圣诞,christmas,christmas day,xmas", .holiday(month: 12, day: 25))
    add("new year's eve,new years eve,nye", .holiday(month: 12, day: 31))
    add("昨天,昨日,昨儿,昨儿个,寻日,琴日,yesterday,yday,yesterdy,yestarday", .dayOffset(-1))
    add("前天", .dayOffset(-2))
    add("今早,今晨,this morning", .dayAndPart(0, .morning))
    add("明早,明晨,听朝,听朝早", .dayAndPart(1, .morning))
    add("今晚,今夜,tonight,tonite,2nite", .dayAndPart(0, .night))
    add("this afternoon,this arvo", .dayAndPart(0, .afternoon))
    add("this evening", .dayAndPart(0, .dusk))
    add("明晚", .dayAndPart(1, .night))
    add("昨晚,昨夜,琴晚,寻晚,last night,last nite", .dayAndPart(-1, .night))
    // Parts of the day.
    add("凌晨", .part(.earlyMorning))
    add("早上,早晨,清晨,一早,一大早,朝早,morning", .part(.morning))
    add("上午", .part(.forenoon))
    add("中午,正午,noon,midday", .part(.noon))
    add("下午,afternoon,arvo", .part(.afternoon))
    add("傍晚,evening", .part(.dusk))
    add("晚上,夜里,夜晚,晚间,深夜,night", .part(.night))
    add("半夜,午夜,midnight", .part(.midnight))
    // Weekdays, with and without a week.
    let weekdayChars: [(String, Int)] = [
      ("一", 1), ("二", 2), ("三", 3), ("四", 4), ("五", 5), ("六", 6), ("日", 7), ("天", 7),
    ]
    let weekWords = ["周", "星期", "礼拜"]
    let weekPrefixes: [(String, Int)] = [
      ("这", 0), ("本", 0), ("这个", 0), ("下", 1), ("下个", 1), ("上", -1), ("上个", -1),
    ]
    for week in weekWords {
      for (char, day) in weekdayChars where !(week == "周" && char == "天") {
        add(week + char, .weekday(day, week: nil))
        for (prefix, offset) in weekPrefixes {
          add(prefix + week + char, .weekday(day, week: offset))
        }
      }
      add(week + "末", .weekend(week: nil))
      for (prefix, offset) in weekPrefixes {
        add(prefix + week + "末", .weekend(week: offset))
        if !(prefix == "本" && week != "周") && !(prefix.hasSuffix("个") && week == "周") {
          add(prefix + week, .weekRef(offset))
        }
      }
    }
    add("这个周末", .weekend(week: 0))
    // "wk" and "wknd" as typed in a hurry.
    add("this week,this wk", .weekRef(0))
    add("next week,next wk", .weekRef(1))
    add("last week,last wk", .weekRef(-1))
    add("weekend,wknd", .weekend(week: nil))
    add("this weekend,this wknd", .weekend(week: 0))
    add("next weekend,next wknd", .weekend(week: 1))
    let english = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    for (index, name) in english.enumerated() { add(name, .weekday(index + 1, week: nil)) }
    // Frequent misspellings, so a typo does not lose the day.
    add("tuseday,tuesdy", .weekday(2, week: nil))
    add("wensday,wendsday,wednsday,wedensday", .weekday(3, week: nil))
    add("thurday,thursdy", .weekday(4, week: nil))
    add("firday,fridy", .weekday(5, week: nil))
    add("saturdy,satruday", .weekday(6, week: nil))
    // Written short ("sat 8pm"); "sun" is left out: it is weather far more often than Sunday.
    add("mon", .weekday(1, week: nil))
    add("tue,tues", .weekday(2, week: nil))
    add("wed", .weekday(3, week: nil))
    add("thu,thur,thurs", .weekday(4, week: nil))
    add("fri", .weekday(5, week: nil))
    add("sat", .weekday(6, week: nil))
    add("next,coming", .modifier(1))
    add("this", .modifier(0))
    add("last", .modifier(-1))
    // Months.
    add("这个月,本月,这月,this month", .monthRef(0))
    add("下个月,下月,next month", .monthRef(1))
    add("上个月,上月,last month", .monthRef(-1))
    add("月底,月末,本月底,这个月底,本月末,end of the month,end of month", .monthEnd(0))
    add("下个月底,下月底,下个月末,end of next month", .monthEnd(1))
    let months = [
      "january,jan", "february,feb", "march,mar", "april,apr", "may", "june,jun", "july,jul",
      "august,aug", "september,sep,sept", "october,oct", "november,nov", "december,dec",
    ]
    for (index, names) in months.enumerated() { add(names, .monthName(index + 1)) }
    // Units.
    add("秒,秒钟,second,seconds,sec,secs,s,secnods,seconts", .unit(.second))
    add("分钟,分中,minute,minutes,min,mins,m,minuts,mintues,minuets,minites,minutues", .unit(.minute))
    add("小时,钟头,个钟,个钟头,hour,hours,hr,hrs,h,hous,houres", .unit(.hour))
    add(
      "quarter of an hour,a quarter of an hour,quarter hour,a quarter hour,quarter of a hour",
      .durationWord(900))
    // Speech heard as text: "an hour" comes out "an our", "two minutes" "to minutes". Neither
    // "our" after an article nor "to" right before a unit has another reading.
    add("an our", .durationWord(3600))
    for (unit, seconds) in [("minutes", 60.0), ("mins", 60), ("hours", 3600), ("hrs", 3600)] {
      add("to \(unit),too \(unit)", .durationWord(2 * seconds))
    }
    add("天,day,days", .unit(.day))
    add("周,星期,礼拜,week,weeks", .unit(.week))
    add("个月,month,months", .unit(.month))
    add("year,years", .unit(.year))
    add("分", .minuteMark)
    add("点,点钟,时", .clockMark)
    add("整", .sharp)
    add("半,half", .half)
    add("刻,quarter,quarters,quarters of an hour,quarters of a hour", .quarter)
    // Between a number and its unit: 一个小时, "10 more minutes", "5 extra minutes".
    add("个,more,extra,additional", .measure)
    add("钟", .zhong)
    add("号,日", .dayMark)
    add("月", .monthMark)
    add("年", .yearMark)
    add("后,以后,之后,过后,later,from now", .after)
    add("in,过,再过,after,within", .inPrefix)
    add("at,by,around", .at)
    add("for", .forWord)
    add("on", .on)
    add("的,the,in the,of,this coming", .connector)
    add("a,an", .article)
    // Joins the parts of one length: "an hour and ten minutes", 一小时又十五分钟, 三分钟再加三十秒.
    add("and,n,又,再加", .and)
    add("and a half,and half,n a half", .andAHalf)
    add("am,a.m,a m", .meridiem(isPM: false))
    add("pm,p.m,p m", .meridiem(isPM: true))
    add("o'clock,oclock", .oclock)
    add("half past", .pastHour(30))
    add("quarter past,a quarter past", .pastHour(15))
    add("quarter to,a quarter to", .pastHour(-15))
    add("差,to,till", .minutesTo)
    add("past", .minutesPast)
    add("st,nd,rd,th", .ordinal)
    // "first" and "second" are left out: "first thing", "a second timer", "30 second".
    let ordinals = [
      "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh",
      "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
      "eighteenth", "nineteenth", "twentieth",
    ]
    for (index, word) in ordinals.enumerated() { add(word, .ordinalWord(index + 3)) }
    add("thirtieth", .ordinalWord(30))
    // Health metrics.
    add(
      "步数,布数,多少步,都少步,几步,几千步,几万步,走了多少步,走了几步,走了多少,走路,计步,走得,走够,走到,行咗,几多步,"
        + "steps,step,step count,stepcount,how many steps,walked,walking,walk,step goal,step total,stpes,setps,step cout",
      .metric(.steps))
    add(
      "心率,心律,心跳,脉搏,静息心率,heart rate,heartrate,pulse,bpm,heartbeat,heart beat,heart,hart rate,hard rate,"
        + "heart rat,puls,resting hr,max hr",
      .metric(.heartRate))
    add(
      "睡眠,睡,睡觉,睡得,睡了,睡着,失眠,醒的,瞓,瞓得,瞓咗,sleep,fall asleep,fell asleep,slept,sleeping,asleep,slep,sleeep,sleap,woke up,wake up,"
        + "shut-eye,shuteye,shut eye,drift off,drifted off",
      .metric(.sleep))
    return trie
  }()

  /// Whether the Latin `word` spelt by `text` only counts right after a number ("5min", "8 am",
  /// "25th", "3 s"): unit abbreviations, am/pm and ordinal suffixes.
  static func needsNumberBefore(_ word: LexiconWord, text: ArraySlice<Unicode.Scalar>) -> Bool {
    switch word {
    case .meridiem, .ordinal: return true
    case .unit: return text.count <= 2 || abbreviations.value(for: text) != nil
    default: return false
    }
  }

  private static let abbreviations: ScalarTrie<Bool> = {
    var trie = ScalarTrie<Bool>()
    for word in ["min", "mins", "sec", "secs", "hr", "hrs"] {
      trie.insert(word.unicodeScalars, value: true)
    }
    return trie
  }()
}

extension Substring {
  /// The text without leading and trailing spaces.
  var trimmedOfSpaces: String {
    // Scalar-wise: a space is one scalar, and grapheme breaking is the slow part of `first`.
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { $0 != " " }),
      let last = scalars.lastIndex(where: { $0 != " " })
    else { return "" }
    return String(Substring(scalars[first...last]))
  }
}
