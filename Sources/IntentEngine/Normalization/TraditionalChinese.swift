/// The traditional → simplified character table the normaliser applies.
///
/// Covers the traditional forms of the characters that grammars, gazetteers, fixtures and time
/// expressions use, plus a few hundred of the most frequent others — enough that a
/// traditional-script command reads like its simplified twin, not a full conversion (phrase-level
/// variants such as 雪梨 → 悉尼 live in the gazetteer).
/// Characters that are also valid, differently-meant simplified characters (著, 乾) are left out.
/// A few pairs are no script variant but dialect words with one Mandarin reading: the northern
/// pronouns 俺 as 我 ("提醒俺") and 恁 as 你 and the Cantonese 嘅 的, 咗 了, 睇 看, 冇 没 ("有冇闹钟"), 喺 在, 佢 它,
/// 咩 啥, 啲 些, 嚟 来, 攞 拿, 搵 找, 畀 给, 哋 们, 嗰 那, and the Wu 覅 and northern 甭 as 别, the Wu 侬
/// as 你 (dialect words of two characters are in `DialectWords`).
enum TraditionalChinese {
  /// Pairs of traditional then simplified characters, written as one string for easy review.
  private static let pairs = """
    鐘钟鍾钟後后會会氣气幾几個个點点時时間间鬧闹記记備备計计溫温麼么讓让幫帮這这裡里裏里週周\
    東东車车長长門门開开關关問问題题見见現现電电話话語语說说讀读寫写聽听買买賣卖錢钱銀银鐵铁\
    號号機机場场國国際际區区縣县廣广廈厦圓圆園园報报紙纸書书筆笔畫画雲云風风霧雾陰阴陽阳曬晒\
    熱热涼凉凍冻濕湿燈灯燒烧爐炉飯饭麵面餅饼餃饺館馆飲饮雞鸡鴨鸭魚鱼蝦虾豬猪湯汤藥药醫医療疗\
    護护體体檢检測测驗验數数歲岁壽寿貓猫鳥鸟龍龙馬马驢驴紅红綠绿藍蓝黃黄顏颜裝装衛卫邊边進进\
    遠远運运還还過过達达遲迟適适選选遊游連连對对錯错難难學学習习練练試试課课動动務务辦办處处\
    單单雙双夥伙們们妳你誰谁為为爲为與与給给從从將将經经歷历曆历實实應应該该當当準准確确認认\
    識识請请謝谢嗎吗樣样種种隻只條条張张塊块輛辆節节萬万億亿兩两參参貳贰陸陆頭头禮礼晝昼淩凌\
    覺觉夢梦脈脉臟脏傘伞帶带颱台颳刮陣阵預预錄录購购臺台灣湾瀋沈寧宁蘇苏漢汉鄭郑濟济貴贵遼辽\
    慶庆烏乌魯鲁齊齐爾尔濱滨島岛肅肃蘭兰陝陕內内閩闽贛赣粵粤瓊琼滬沪晉晋隴陇紐纽約约倫伦韓韩\
    華华頓顿羅罗聖圣維维納纳亞亚歐欧壯壮磯矶奧奥薩萨麥麦來来發发髮发沒没頁页順顺須须領领額额\
    顧顾願愿類类飛飞驚惊鬆松鬥斗黨党齒齿龜龟訂订討讨設设許许論论證证評评詩诗詳详誤误調调談谈\
    諸诸講讲議议變变讚赞貝贝負负財财貨货質质貼贴費费資资賬账賓宾賽赛贈赠軍军軟软輕轻較较載载\
    輸输轉转農农郵邮鄉乡針针錶表鏡镜鍵键鎖锁銷销鋼钢閃闪閉闭閱阅閒闲闆板陳陈隊队階阶隨随險险\
    項项顯显頻频飽饱餓饿駕驾騎骑鮮鲜鵝鹅麗丽齡龄兒儿愛爱厲厉壓压廳厅廚厨廠厂彈弹歸归憶忆戲戏\
    戶户掃扫擇择擔担據据擊击攝摄敗败敵敌斷断暫暂極极樓楼標标樂乐權权橋桥歡欢殺杀滿满潔洁無无\
    煙烟營营爭争狀状獨独獎奖環环產产畢毕異异盡尽監监盤盘眾众衆众碼码礎础稱称穩稳窮穷築筑簡简\
    範范紀纪級级細细終终組组結结絕绝統统絲丝綜综緊紧線线總总織织繼继續续網网罰罚義义聞闻聯联\
    職职腦脑腳脚臉脸舉举舊旧艙舱藝艺蘋苹蟲虫術术衝冲補补製制複复親亲觀观訊讯訴诉診诊誌志趕赶\
    趨趋跡迹蹤踪軌轨鄰邻醜丑釋释雖虽離离靜静響响養养餘余驅驱髒脏鬍胡鹽盐導导層层屬属岡冈嶺岭\
    師师帳帐幣币廢废彎弯徵征態态懷怀戰战擁拥擴扩敘叙斬斩於于暈晕曉晓柵栅槍枪橫横檔档欄栏殘残\
    決决沖冲況况滅灭漸渐澤泽濃浓灑洒牆墙猶犹獲获瑪玛瘋疯癢痒盜盗睏困矯矫碩硕禍祸稅税窩窝競竞\
    籃篮籤签糧粮糰团團团紛纷緒绪縮缩罷罢聲声膚肤臨临虛虚螢萤規规視视覽览觸触訪访譯译豐丰賀贺\
    賴赖趙赵輪轮辭辞遞递鄒邹醬酱釣钓鈴铃鉛铅銳锐鍋锅鏈链闊阔隱隐雜杂靈灵韻韵頂顶頸颈顆颗顛颠\
    飄飘餵喂騙骗驕骄鬱郁鹹咸黴霉劉刘勞劳勢势勝胜協协卻却厭厌嚇吓嚴严壞坏奪夺奮奋孫孙寶宝專专\
    尋寻屆届巖岩幹干復复憂忧憑凭懶懒戀恋擬拟擠挤擺摆攜携敎教斃毙昇升棄弃楊杨榮荣構构槓杠樹树\
    歎叹殼壳毀毁淚泪淨净淺浅湊凑滾滚漁渔漲涨潛潜濤涛濾滤瀏浏灘滩燦灿燭烛爺爷牽牵犧牺獄狱獅狮\
    獸兽畝亩疊叠瘡疮癡痴皺皱盞盏睜睁瞭了磚砖礙碍禪禅穀谷積积竊窃篩筛簽签簾帘籌筹紮扎紡纺紳绅\
    紹绍絨绒綁绑綱纲綿绵緣缘編编緩缓縫缝繩绳繪绘繳缴纏缠纖纤罵骂翹翘聰聪脅胁脹胀膽胆膠胶艦舰\
    莊庄葉叶蒼苍蓋盖蔣蒋蔥葱薑姜薦荐蘆芦蟻蚁蠟蜡襪袜襲袭覓觅託托詢询詞词誇夸誕诞誠诚誼谊諾诺\
    謀谋謎谜謠谣謹谨譜谱豎竖貞贞貢贡貧贫貫贯貸贷賊贼賢贤賭赌賺赚贊赞躍跃軀躯輔辅輩辈輯辑轄辖\
    轎轿辯辩遙遥遜逊遷迁遺遗邁迈邏逻鄧邓釀酿鈔钞鈕钮鉤钩銅铜鋪铺錦锦錨锚鍛锻鎮镇鏟铲鑰钥鑽钻\
    閘闸閣阁闖闯隸隶頃顷頒颁頗颇頰颊颯飒颶飓飢饥飾饰饅馒饒饶馴驯駐驻駛驶騰腾驟骤鮑鲍鯉鲤鯨鲸\
    鰻鳗鱷鳄鳳凤鳴鸣鴉鸦鴿鸽鵬鹏鶴鹤鷹鹰鸚鹦鼕冬齋斋龐庞噸吨衹只祇只鐘钟錶表舖铺裏里嘗尝\
    腸肠膩腻鬨哄樸朴麼么汙污沒没漿浆燉炖爛烂獵猎甕瓮癮瘾盧卢絡络綫线繞绕舍舍蓮莲蝴蝴\
    誦诵諒谅謊谎貪贪賠赔踐践車车軸轴輛辆迴回鈣钙錘锤閑闲隊队雋隽韁缰頌颂餌饵駁驳鬢鬓鯊鲨\
    鹼碱麩麸齣出賬账廁厕壺壶滷卤鹵卤嶼屿崗岗濟济潑泼瀝沥濺溅氫氢熾炽燼烬爐炉犢犊縷缕繽缤\
    郟郏閔闵闈闱鄲郸衢衢饗飨嶽岳巒峦崑昆淶涞瀘泸漳漳邢邢滄沧蕪芜椰椰蚌蚌亳亳嘉嘉慄栗俺我
    媽妈傑杰別别刪删喫吃剛刚換换牀床煩烦業业謙谦夠够搖摇峯峰櫃柜溼湿劃划員员減减圖图劇剧寵宠煉炼冊册傷伤駝驼傳传唄呗駱骆強强撈捞臥卧搶抢吳吴羣群啓启凱凯價价澆浇塵尘屜屉穎颖蘿萝並并譚谭詠咏傾倾\
    閨闺興兴俠侠悶闷偉伟鰍鳅駒驹釘钉瀧泷緯纬蝸蜗軒轩圍围撐撑純纯蕭萧鸝鹂儀仪倆俩箏筝縱纵鴻鸿靚靓祕秘褲裤嚕噜優优撥拨匯汇兌兑贏赢嗚呜儲储擾扰噠哒燙烫掛挂蕩荡瑩莹娛娱櫻樱巔巅惱恼輝辉屍尸襖袄塗涂\
    訓训蠔蚝丟丢綾绫瀟潇賦赋璽玺劍剑瑋玮採采靂雳飆飙樁桩夾夹喚唤亂乱茲兹績绩寬宽佔占僅仅豔艳恆恒鋒锋勵励鎧铠賞赏嫺娴揚扬槳桨呂吕萊莱婦妇嘍喽儂侬螞蚂燜焖飼饲釐厘欖榄棗枣偵侦綺绮紗纱摯挚韋韦竅窍\
    墜坠勳勋爍烁謂谓喬乔馮冯滸浒彥彦鎊镑閏闰則则驛驿帥帅潰溃劑剂竇窦癱瘫墊垫脫脱醃腌綢绸繆缪慣惯擰拧惡恶葦苇瞞瞒賤贱曖暧暢畅宮宫彌弥楓枫嗶哔勁劲駿骏嘰叽嘆叹韜韬檸柠錫锡鋸锯鎬镐賈贾鈺钰創创峽峡\
    冪幂臘腊龔龚虧亏撫抚荊荆緬缅襯衬貿贸堅坚庫库撻挞閾阈尷尴責责拋抛撓挠慘惨蠻蛮闕阙堯尧撲扑滌涤淵渊驪骊聾聋鼴鼹騷骚吒咤紋纹禕祎籬篱澀涩梔栀馳驰綻绽脣唇駙驸懲惩櫥橱誒诶喲哟懸悬殤殇瑤瑶籠笼賜赐\
    嬌娇穌稣誅诛繹绎囂嚣鸛鹳嵐岚禱祷侶侣窯窑側侧獻献愴怆鑑鉴溝沟絹绢婭娅憤愤悅悦鶯莺憫悯廬庐倉仓閬阆閆闫聶聂嬸婶綏绥濰潍婁娄欽钦檳槟峴岘撾挝徹彻櫚榈係系痠酸嘅的咗了睇看冇没喺在佢它咩啥啲些嚟来攞拿搵找揾找畀给哋们嗰那覅别甭别侬你恁你
    """

  /// Simplified code points indexed by `traditional - 0x3400`, zero where no mapping applies.
  static let table: [UInt32] = {
    var table = [UInt32](repeating: 0, count: Int(cjkUpper - cjkLower))
    var iterator = pairs.unicodeScalars.filter { $0 != "\n" && $0 != " " }.makeIterator()
    while let traditional = iterator.next(), let simplified = iterator.next() {
      guard traditional != simplified, (cjkLower..<cjkUpper).contains(traditional.value) else {
        continue
      }
      let index = Int(traditional.value - cjkLower)
      if table[index] == 0 { table[index] = simplified.value }
    }
    return table
  }()

  /// The first code point the table covers (CJK Extension A).
  static let cjkLower: UInt32 = 0x3400
  /// One past the last code point the table covers (end of the unified ideographs block).
  static let cjkUpper: UInt32 = 0xA000

  /// The simplified form of a CJK ideograph, or the ideograph itself.
  @inline(__always)
  static func simplified(_ value: UInt32) -> UInt32 {
    guard value >= cjkLower, value < cjkUpper else { return value }
    let mapped = table[Int(value - cjkLower)]
    return mapped == 0 ? value : mapped
  }
}
