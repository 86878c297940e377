/// The kinds of text pieces ``Gen/text(maxClusters:pieces:)`` may combine.
///
/// Combine members to restrict generated text, e.g. `[.asciiWords, .spaces, .han]`,
/// or use the predefined groups (``all``, ``words``, ``emoji``, ``whitespace``, ``singleLine`` …).
public struct TextPieces: OptionSet, Sendable, Hashable {
    /// The raw bit mask.
    public let rawValue: UInt32

    /// Creates a set from a raw bit mask.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Plain ASCII words ("a", "the", "table", …).
    public static let asciiWords = TextPieces(rawValue: 1 << 0)
    /// One or two U+0020 spaces.
    public static let spaces = TextPieces(rawValue: 1 << 1)
    /// ASCII and typographic punctuation, including CJK brackets and full stops.
    public static let punctuation = TextPieces(rawValue: 1 << 2)
    /// Numbers as they appear in table cells ("42", "3.14", "1,000,000", "-7").
    public static let digits = TextPieces(rawValue: 1 << 3)
    /// Latin words with precomposed accents (NFC), e.g. "café", "Łódź".
    public static let latinPrecomposed = TextPieces(rawValue: 1 << 4)
    /// Latin words with combining marks (NFD, stacked marks, a bare mark).
    public static let latinCombining = TextPieces(rawValue: 1 << 5)
    /// Chinese (Han ideographs), including a long unspaced sentence.
    public static let han = TextPieces(rawValue: 1 << 6)
    /// Japanese hiragana and katakana.
    public static let kana = TextPieces(rawValue: 1 << 7)
    /// Korean Hangul syllables.
    public static let hangul = TextPieces(rawValue: 1 << 8)
    /// Russian, Ukrainian and Belarusian Cyrillic words.
    public static let cyrillic = TextPieces(rawValue: 1 << 9)
    /// Arabic words (right-to-left, joining, some with harakat and Arabic-Indic digits).
    public static let arabic = TextPieces(rawValue: 1 << 10)
    /// Hebrew words (right-to-left, some with niqqud).
    public static let hebrew = TextPieces(rawValue: 1 << 11)
    /// Thai words and unspaced phrases (no spaces between words, combining vowels).
    public static let thai = TextPieces(rawValue: 1 << 12)
    /// Single-code-point emoji (😀, 🚀, …).
    public static let singleEmoji = TextPieces(rawValue: 1 << 13)
    /// ZWJ sequences such as the family 👨‍👩‍👧‍👦 or 🏳️‍🌈.
    public static let emojiZWJ = TextPieces(rawValue: 1 << 14)
    /// Emoji with skin-tone modifiers (👍🏽).
    public static let emojiSkinTones = TextPieces(rawValue: 1 << 15)
    /// Regional-indicator flags (🇯🇵).
    public static let flags = TextPieces(rawValue: 1 << 16)
    /// Keycap sequences (1️⃣, #️⃣).
    public static let keycaps = TextPieces(rawValue: 1 << 17)
    /// Text characters forced to emoji presentation with U+FE0F (❤️).
    public static let emojiPresentation = TextPieces(rawValue: 1 << 18)
    /// NO-BREAK SPACE U+00A0.
    public static let nbsp = TextPieces(rawValue: 1 << 19)
    /// ZERO WIDTH SPACE U+200B.
    public static let zwsp = TextPieces(rawValue: 1 << 20)
    /// Horizontal tab U+0009.
    public static let tabs = TextPieces(rawValue: 1 << 21)
    /// Hard line breaks: "\n", "\r\n", "\r", U+2028, U+2029, U+0085.
    public static let hardBreaks = TextPieces(rawValue: 1 << 22)
    /// Long unbreakable words: URLs, 40+ letter words, a file path.
    public static let longWords = TextPieces(rawValue: 1 << 23)

    /// Accented Latin, precomposed and combining.
    public static let latinAccents: TextPieces = [.latinPrecomposed, .latinCombining]
    /// Chinese, Japanese and Korean.
    public static let cjk: TextPieces = [.han, .kana, .hangul]
    /// Right-to-left scripts.
    public static let rightToLeft: TextPieces = [.arabic, .hebrew]
    /// Every emoji kind.
    public static let emoji: TextPieces = [
        .singleEmoji, .emojiZWJ, .emojiSkinTones, .flags, .keycaps, .emojiPresentation,
    ]
    /// Every whitespace kind except hard breaks.
    public static let whitespace: TextPieces = [.spaces, .nbsp, .zwsp, .tabs]
    /// Everything that forms a word (no whitespace, punctuation or emoji).
    public static let words: TextPieces = [
        .asciiWords, .digits, .latinAccents, .cjk, .cyrillic, .rightToLeft, .thai, .longWords,
    ]
    /// ASCII-only pieces: words, spaces, punctuation, digits.
    public static let plainASCII: TextPieces = [.asciiWords, .spaces, .digits]
    /// Everything.
    public static let all = TextPieces(rawValue: (1 << 24) - 1)
    /// Everything except hard line breaks.
    public static let singleLine: TextPieces = all.subtracting(.hardBreaks)
}

/// One weighted category of text pieces.
public struct TextCategory: Sendable {
    /// The option this category belongs to.
    public let kind: TextPieces
    /// Relative frequency within ``Gen/text(maxClusters:pieces:)``.
    public let weight: Int
    /// The pieces, simplest first (index 0 is what shrinking converges to).
    public let samples: [String]
}

/// The real-world strings the text generators are built from.
///
/// Every sample is a literal embedded in the source; invisible or combining
/// code points are spelled with `\u{…}` escapes for reviewability.
public enum TextCorpus {
    /// ASCII words; simplest first. The first word containing "x" is "six".
    public static let asciiWords: [String] = [
        "a", "I", "an", "to", "of", "is", "it", "on", "the", "and", "cat", "six", "dog", "box", "fox",
        "row", "cell", "text", "line", "word", "wrap", "width", "table", "hello", "world",
        "lorem", "ipsum", "dolor", "sit", "amet", "quick", "brown", "jumps", "over", "lazy",
        "Plumb", "measure", "column", "example", "OK", "HTTP", "JSON", "iPhone", "McDonald",
    ]
    /// Spaces.
    public static let spaces: [String] = [" ", "  "]
    /// Punctuation, ASCII first.
    public static let punctuation: [String] = [
        ".", ",", "!", "?", ";", ":", "-", "/", "(", ")", "\"", "'", "&", "@", "#", "%",
        "—", "–", "…", "«", "»", "“", "”", "‘", "’", "¿", "¡", "「", "」", "。", "、", "，", "・",
    ]
    /// Numbers as seen in table cells.
    public static let digits: [String] = [
        "0", "1", "7", "42", "-7", "100", "3.14", "0.001", "1,000,000", "99%", "$12.50", "€9,99",
        "1e10", "2024-01-31", "12:30", "+49-30-1234567", "１２３",
    ]
    /// Latin words with precomposed (NFC) accents.
    public static let latinPrecomposed: [String] = [
        "café", "naïve", "résumé", "façade", "Zürich", "Ångström", "jalapeño", "Łódź", "Škoda",
        "brûlée", "garçon", "Øresund", "Ærø", "smörgåsbord", "Dvořák", "Kraków", "straße",
        "ÉCOLE", "Œuvre", "Ñandú", "São", "Việt", "İstanbul", "ğüşöç", "Þórr", "Ðakovo",
    ]
    /// Latin words with combining marks (NFD), stacked marks, and one bare mark.
    public static let latinCombining: [String] = [
        "e\u{0301}", "cafe\u{0301}", "nai\u{0308}ve", "re\u{0301}sume\u{0301}", "jalapen\u{0303}o",
        "Zu\u{0308}rich", "A\u{030A}ngstro\u{0308}m", "Vie\u{0323}\u{0302}t", "o\u{0302}\u{0303}",
        "a\u{0300}\u{0301}\u{0302}\u{0303}\u{0304}", "Z\u{0327}\u{0301}", "n\u{0303}", "\u{0301}",
    ]
    /// Chinese words; the last sample is a long unspaced sentence.
    public static let han: [String] = [
        "中", "你好", "世界", "中文", "汉字", "漢字", "测试", "表格", "单元", "宽度", "高度", "文本",
        "数据", "计算", "字体", "排版", "我们", "今天", "明天", "北京", "上海", "东京", "大学",
        "学生", "老师", "电脑", "手机", "时间", "问题", "因为", "所以", "龍", "𠀋",
        "这是一个没有空格的很长的中文句子用于测试换行",
    ]
    /// Japanese hiragana and katakana words.
    public static let kana: [String] = [
        "あ", "ねこ", "いぬ", "すし", "やま", "さくら", "ひらがな", "カタカナ", "テスト", "こんにちは",
        "ありがとう", "ともだち", "がっこう", "きょう", "あした", "コンピューター", "データ",
        "テーブル", "セル", "ラーメン", "ｶﾀｶﾅ", "ぱぴぷぺぽ",
    ]
    /// Korean Hangul words.
    public static let hangul: [String] = [
        "가", "표", "셀", "한글", "한국어", "안녕하세요", "감사합니다", "테스트", "너비", "서울",
        "사랑", "학교", "학생", "컴퓨터", "데이터", "오늘", "내일", "친구", "시간", "문제",
        "대한민국",
    ]
    /// Cyrillic words.
    public static let cyrillic: [String] = [
        "я", "мир", "текст", "привет", "таблица", "ячейка", "ширина", "высота", "Москва",
        "Россия", "ёлка", "щука", "съезд", "объект", "здравствуйте", "спасибо", "данные",
        "строка", "столбец", "Україна", "їжак", "ґанок", "Беларусь", "ўсё",
    ]
    /// Arabic words.
    public static let arabic: [String] = [
        "في", "نص", "كتاب", "مرحبا", "السلام", "عليكم", "شكرا", "جدول", "خلية", "عرض",
        "بيانات", "العربية", "مدينة", "القاهرة", "الرياض", "اليوم", "غدا", "صديق", "وقت",
        "مَرْحَبًا", "١٢٣", "لا",
    ]
    /// Hebrew words.
    public static let hebrew: [String] = [
        "כן", "שלום", "עולם", "תודה", "טבלה", "תא", "רוחב", "טקסט", "נתונים", "ירושלים",
        "היום", "מחר", "חבר", "זמן", "עברית", "שָׁלוֹם", "ספר",
    ]
    /// Thai words and unspaced phrases.
    public static let thai: [String] = [
        "ไทย", "สวัสดี", "ขอบคุณ", "ภาษาไทย", "ตาราง", "เซลล์", "ความกว้าง", "ข้อความ", "ข้อมูล",
        "กรุงเทพ", "วันนี้", "พรุ่งนี้", "เพื่อน", "เวลา", "ประเทศไทย", "น้ำ", "ภาษาไทยไม่มีการเว้นวรรคระหว่างคำ",
    ]
    /// Single-code-point emoji.
    public static let singleEmoji: [String] = [
        "\u{1F600}", "\u{1F389}", "\u{1F680}", "\u{2705}", "\u{1F431}", "\u{1F4A9}", "\u{1F525}",
        "\u{1F44D}", "\u{1F44B}", "\u{1F30D}", "\u{1F9D1}", "\u{2B50}",
    ]
    /// ZWJ sequences: families, professions, rainbow flag.
    public static let emojiZWJ: [String] = [
        "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}",  // 👨‍👩‍👧‍👦
        "\u{1F469}\u{200D}\u{1F4BB}",  // 👩‍💻
        "\u{1F468}\u{200D}\u{1F468}\u{200D}\u{1F466}",  // 👨‍👨‍👦
        "\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}",  // 🏳️‍🌈
        "\u{1F9D1}\u{200D}\u{1F91D}\u{200D}\u{1F9D1}",  // 🧑‍🤝‍🧑
        "\u{1F469}\u{1F3FD}\u{200D}\u{1F52C}",  // 👩🏽‍🔬
        "\u{2764}\u{FE0F}\u{200D}\u{1F525}",  // ❤️‍🔥
    ]
    /// Emoji with Fitzpatrick skin-tone modifiers.
    public static let emojiSkinTones: [String] = [
        "\u{1F44D}\u{1F3FD}", "\u{1F44B}\u{1F3FB}", "\u{1F64C}\u{1F3FF}", "\u{1F44C}\u{1F3FC}",
        "\u{1F9D1}\u{1F3FE}", "\u{270D}\u{1F3FD}",
    ]
    /// Regional-indicator flags.
    public static let flags: [String] = [
        "\u{1F1EF}\u{1F1F5}", "\u{1F1FA}\u{1F1F8}", "\u{1F1EB}\u{1F1F7}", "\u{1F1E9}\u{1F1EA}",
        "\u{1F1E7}\u{1F1F7}", "\u{1F1FA}\u{1F1E6}", "\u{1F1EE}\u{1F1F3}",
    ]
    /// Keycap sequences.
    public static let keycaps: [String] = [
        "1\u{FE0F}\u{20E3}", "#\u{FE0F}\u{20E3}", "*\u{FE0F}\u{20E3}", "0\u{FE0F}\u{20E3}", "9\u{FE0F}\u{20E3}",
    ]
    /// Text-default characters with VARIATION SELECTOR-16.
    public static let emojiPresentation: [String] = [
        "\u{2764}\u{FE0F}", "\u{2600}\u{FE0F}", "\u{2714}\u{FE0F}", "\u{260E}\u{FE0F}", "\u{2708}\u{FE0F}",
        "\u{263A}\u{FE0F}",
    ]
    /// NO-BREAK SPACE.
    public static let nbsp: [String] = ["\u{00A0}"]
    /// ZERO WIDTH SPACE.
    public static let zwsp: [String] = ["\u{200B}"]
    /// Tabs.
    public static let tabs: [String] = ["\t"]
    /// Hard line breaks.
    public static let hardBreaks: [String] = ["\n", "\r\n", "\r", "\u{2028}", "\u{2029}", "\u{0085}"]
    /// Long unbreakable words.
    public static let longWords: [String] = [
        String(repeating: "a", count: 40),
        "pneumonoultramicroscopicsilicovolcanoconiosis",
        "Donaudampfschifffahrtsgesellschaftskapitän",
        "https://example.com/a/very/long/path/without/any/breaks?query=1&page=2",
        "/usr/local/lib/swift/linux/x86_64/libFoundationEssentials.so",
        "supercalifragilisticexpialidocious",
    ]

    /// All categories with their weights, simplest (ASCII words) first.
    public static let categories: [TextCategory] = [
        TextCategory(kind: .asciiWords, weight: 30, samples: asciiWords),
        TextCategory(kind: .spaces, weight: 20, samples: spaces),
        TextCategory(kind: .punctuation, weight: 8, samples: punctuation),
        TextCategory(kind: .digits, weight: 4, samples: digits),
        TextCategory(kind: .latinPrecomposed, weight: 4, samples: latinPrecomposed),
        TextCategory(kind: .latinCombining, weight: 3, samples: latinCombining),
        TextCategory(kind: .han, weight: 4, samples: han),
        TextCategory(kind: .kana, weight: 3, samples: kana),
        TextCategory(kind: .hangul, weight: 3, samples: hangul),
        TextCategory(kind: .cyrillic, weight: 3, samples: cyrillic),
        TextCategory(kind: .arabic, weight: 3, samples: arabic),
        TextCategory(kind: .hebrew, weight: 3, samples: hebrew),
        TextCategory(kind: .thai, weight: 3, samples: thai),
        TextCategory(kind: .singleEmoji, weight: 3, samples: singleEmoji),
        TextCategory(kind: .emojiZWJ, weight: 2, samples: emojiZWJ),
        TextCategory(kind: .emojiSkinTones, weight: 2, samples: emojiSkinTones),
        TextCategory(kind: .flags, weight: 2, samples: flags),
        TextCategory(kind: .keycaps, weight: 1, samples: keycaps),
        TextCategory(kind: .emojiPresentation, weight: 2, samples: emojiPresentation),
        TextCategory(kind: .nbsp, weight: 2, samples: nbsp),
        TextCategory(kind: .zwsp, weight: 2, samples: zwsp),
        TextCategory(kind: .tabs, weight: 2, samples: tabs),
        TextCategory(kind: .hardBreaks, weight: 3, samples: hardBreaks),
        TextCategory(kind: .longWords, weight: 2, samples: longWords),
    ]

    /// The categories enabled by `pieces`, in simplicity order.
    public static func categories(for pieces: TextPieces) -> [TextCategory] {
        categories.filter { pieces.contains($0.kind) }
    }
}

extension Gen where Value == String {
    /// One piece from the enabled categories, chosen by category weight.
    ///
    /// The piece is a *single* choice: category *k* owns a block of
    /// `weight × slot` consecutive choice values (categories in simplicity
    /// order) and the offset inside the block, modulo the sample count, picks
    /// the sample. So small choices are the first samples of the first
    /// category, and the shrinker can reach any early sample by lowering one value.
    /// - Precondition: `pieces` enables at least one category.
    /// - Complexity: O(number of categories) per piece.
    public static func piece(_ pieces: TextPieces = .all) -> Gen<String> {
        let enabled = TextCorpus.categories(for: pieces).filter { $0.weight > 0 && !$0.samples.isEmpty }
        precondition(!enabled.isEmpty, "no text categories enabled")
        let slot = max(64, enabled.map(\.samples.count).max() ?? 0)
        let blocks = enabled.map { $0.weight * slot }
        let total = blocks.reduce(0, +)
        return Gen { source in
            var offset = source.draw(below: total)
            for (category, block) in Swift.zip(enabled, blocks) {
                if offset < block { return category.samples[offset % category.samples.count] }
                offset -= block
            }
            return enabled[enabled.count - 1].samples[0]
        }
    }

    /// A single word from any script (ASCII, accented Latin, CJK, Cyrillic,
    /// Arabic, Hebrew, Thai, digits or a long unbreakable word).
    public static var word: Gen<String> { word(from: .words) }

    /// A single word restricted to the word-like categories in `pieces`.
    ///
    /// - Precondition: `pieces` contains at least one category of ``TextPieces/words``.
    public static func word(from pieces: TextPieces) -> Gen<String> {
        piece(pieces.intersection(.words))
    }

    /// Strings of at most `maxClusters` grapheme clusters (Swift `Character`s),
    /// built by concatenating weighted pieces from the enabled categories.
    ///
    /// Discussion: before each piece an "add one more?" coin is drawn whose odds
    /// grow with the size hint; a piece that would overflow `maxClusters` is cut
    /// at a `Character` boundary and ends the string. Pieces are concatenated
    /// as-is, so neighbours may merge (e.g. "\r" + "\n", or a bare combining
    /// mark onto the previous letter) — exactly the situations a text engine
    /// must survive. The empty string is the simplest value; shrinking moves
    /// toward few, early pieces (ASCII words first). Every result is valid Unicode.
    /// - Precondition: `maxClusters >= 0` and `pieces` enables at least one category.
    /// - Complexity: O(maxClusters²) character counting in the worst case (tiny for cell text).
    public static func text(maxClusters: Int = 40, pieces: TextPieces = .all) -> Gen<String> {
        precondition(maxClusters >= 0, "maxClusters must be non-negative")
        let piece = Gen.piece(pieces)
        return Gen { source in
            var result = ""
            var clusters = 0
            var drawn = 0
            let probability = source.continueProbability(span: maxClusters)
            while clusters < maxClusters, drawn < 4 * maxClusters + 8, !source.isInvalid,
                source.weightedCoin(probability)
            {
                drawn += 1
                let next = piece.run(source)
                let combined = result + next
                let combinedCount = combined.count
                if combinedCount <= maxClusters {
                    result = combined
                    clusters = combinedCount
                    continue
                }
                // Cut the piece at a Character boundary so the limit holds, then stop.
                for character in next {
                    let candidate = result + String(character)
                    let count = candidate.count
                    if count > maxClusters { break }
                    result = candidate
                    clusters = count
                }
                break
            }
            return result
        }
    }
}
