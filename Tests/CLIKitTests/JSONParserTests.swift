import PropertyTesting
import Testing
@testable import CLIKit

@Suite struct JSONParserTests {
    private func parse(_ bytes: [UInt8]) throws -> JSONValue { try JSONParser.parse(bytes) }
    private func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(text) }

    /// Asserts that parsing fails with exactly `message`.
    private func assertError(_ bytes: [UInt8], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let v = try JSONParser.parse(bytes)
            Issue.record("expected error '\(message)', parsed \(v)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.message == message, sourceLocation: sourceLocation)
        }
    }

    private func assertError(_ text: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        assertError(Array(text.utf8), message, sourceLocation: sourceLocation)
    }

    // MARK: Valid documents

    @Test func scalars() throws {
        #expect(try parse("null") == .null)
        #expect(try parse("true") == .bool(true))
        #expect(try parse(" false ") == .bool(false))
        #expect(try parse("0") == .number(0, literal: "0"))
        #expect(try parse("-12") == .number(-12, literal: "-12"))
        #expect(try parse("1.5e3") == .number(1500, literal: "1.5e3"))
        #expect(try parse("2E-2") == .number(0.02, literal: "2E-2"))
        #expect(try parse("1e+2") == .number(100, literal: "1e+2"))
        #expect(try parse("0.000123") == .number(0.000123, literal: "0.000123"))
        #expect(try parse(#""hello""#) == .string("hello"))
        #expect(try parse(#""""#) == .string(""))
        let negZero = try parse("-0")
        #expect(negZero.doubleValue?.sign == .minus)
        #expect(negZero.doubleValue == 0)
    }

    @Test func containersWhitespaceAndKeyOrder() throws {
        let v = try parse(" \t\r\n{ \"b\" : [1, 2.5, \"x\", null, true, {}, []], \"a\":{\"k\":\"v\"}, \"b\": 3 }\n")
        guard case .object(let o) = v else { Issue.record("not an object"); return }
        #expect(o.keys == ["b", "a", "b"])                  // order and duplicates preserved
        #expect(o["b"] == .number(3, literal: "3"))         // last duplicate wins
        #expect(o["a"]?["k"] == .string("v"))
        #expect(o["missing"] == nil)
        #expect(o.pairs[0].value == [1, 2.5, "x", nil, true, .object(JSONObject()), []])
        #expect(try parse("[]") == .array([]))
        #expect(try parse("{}") == .object(JSONObject()))
        #expect(try parse("[[[]]]") == [[[]]])
    }

    @Test func nonASCIIAndEscapes() throws {
        #expect(try parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try parse(#""\uD83D\uDE00x""#) == .string("😀x"))
        #expect(try parse("\"café 中文 😀\"") == .string("café 中文 😀"))
        #expect(try parse(#""a\"b\\c\/d\be\ff\ng\rh\ti""#) == .string("a\"b\\c/d\u{8}e\u{C}f\ng\rh\ti"))
        #expect(try parse(#""\u0000\u00e9\u20AC""#) == .string("\u{0}é€"))
        #expect(try parse(#"{"k\u00e9y":1}"#)["kéy"] == .number(1, literal: "1"))
    }

    @Test func loneSurrogatesBecomeReplacementCharacter() throws {
        var parser = JSONParser()
        #expect(try parser.parse(#""a\ud83db""#) == .string("a\u{FFFD}b"))
        #expect(parser.replacedSurrogateCount == 1)
        #expect(try parser.parse(#""\ude00\ud83d\u0041\ud83d""#) == .string("\u{FFFD}\u{FFFD}A\u{FFFD}"))
        #expect(parser.replacedSurrogateCount == 3)
        #expect(try parser.parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(parser.replacedSurrogateCount == 0)
    }

    @Test func parserIsReusableAcrossInputs() throws {
        var parser = JSONParser()
        #expect(try parser.parse(#"["a\nb"]"#) == ["a\nb"])
        #expect(throws: JSONParseError.self) { try parser.parse(#"["a\q"]"#) }
        #expect(try parser.parse(#"["c\td"]"#) == ["c\td"])
        #expect(try parser.parse(Array(#"[1, "x"]"#.utf8)[...].dropFirst(0)) == [1, "x"])
    }

    // MARK: Errors

    @Test func syntaxErrors() {
        assertError("", "expected value at byte 0")
        assertError("   ", "expected value at byte 3")
        assertError(#"{"a":1 "b":2}"#, "expected ',' or '}' at byte 7")
        assertError(#"{"a":1"#, "expected ',' or '}' at byte 6")
        assertError("[1 2]", "expected ',' or ']' at byte 3")
        assertError("[1", "expected ',' or ']' at byte 2")
        assertError(#"{"a" 1}"#, "expected ':' at byte 5")
        assertError("{1:2}", "expected string key at byte 1")
        assertError(#"{"a":1,}"#, "expected string key at byte 7")
        assertError("[1,]", "expected value at byte 3")
        assertError(#"{"a":}"#, "expected value at byte 5")
        assertError("tru", "expected value at byte 0")
        assertError("nul", "expected value at byte 0")
        assertError("fals", "expected value at byte 0")
        assertError("[1] x", "unexpected characters after JSON value at byte 4")
        assertError("truex", "unexpected characters after JSON value at byte 4")
        assertError("{} {}", "unexpected characters after JSON value at byte 3")
        assertError("'a'", "expected value at byte 0")
    }

    @Test func stringErrors() {
        assertError(#""abc"#, "unterminated string starting at byte 0")
        assertError(#"["ab\"#, "unterminated string starting at byte 1")
        assertError("[\"a\tb\"]", "unescaped control character U+0009 in string at byte 3")
        assertError("\"a\nb\"", "unescaped control character U+000A in string at byte 2")
        assertError([0x22, 0x00, 0x22], "unescaped control character U+0000 in string at byte 1")
        assertError(#""\x""#, "invalid escape sequence at byte 1")
        assertError(#""ok\'""#, "invalid escape sequence at byte 3")
        assertError(#""\u12G4""#, #"invalid \u escape (expected 4 hex digits) at byte 1"#)
        assertError(#""\u12""#, #"invalid \u escape (expected 4 hex digits) at byte 1"#)
        assertError(#""\ud83d\uZZZZ""#, #"invalid \u escape (expected 4 hex digits) at byte 7"#)
    }

    @Test func numberErrors() throws {
        for (text, message) in [
            ("01", "invalid number at byte 0"),
            ("-01", "invalid number at byte 0"),
            ("[00]", "invalid number at byte 1"),
            ("1.", "invalid number at byte 0"),
            ("[1.e3]", "invalid number at byte 1"),
            (".5", "invalid number at byte 0"),
            ("+1", "invalid number at byte 0"),
            ("-", "invalid number at byte 0"),
            ("- 1", "invalid number at byte 0"),
            ("1e", "invalid number at byte 0"),
            ("1e+", "invalid number at byte 0"),
            ("[1E-x]", "invalid number at byte 1"),
            ("NaN", "expected value at byte 0"),
            ("Infinity", "expected value at byte 0"),
            ("-Infinity", "invalid number at byte 0"),
            ("0x10", "unexpected characters after JSON value at byte 1"),
            ("1e400", "number out of range at byte 0"),
            ("[-1e309]", "number out of range at byte 1"),
            // Underflow is out of range like overflow: 1e-400 is not zero.
            ("1e-400", "number out of range at byte 0"),
            ("[-2e-324]", "number out of range at byte 1"),
            ("0.00000000000000000000000000000000000000000001e-300", "number out of range at byte 0"),
        ] {
            assertError(text, message)
        }
        // Zero literals are exact zeros, subnormals are kept.
        #expect(try parse("0e-400").doubleValue == 0)
        #expect(try parse("-0.000e-999").doubleValue == 0)
        #expect(try parse("5e-324").doubleValue == .leastNonzeroMagnitude)
        #expect(try parse("1e-310").doubleValue == Double("1e-310"))  // a subnormal literal would warn
    }

    @Test func nestingLimit() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try parse(ok) }
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        assertError(tooDeep, "nesting deeper than 512 levels at byte 512")
        let objects = String(repeating: #"{"a":"#, count: 513) + "1" + String(repeating: "}", count: 513)
        assertError(objects, "nesting deeper than 512 levels at byte \(512 * 5)")
        var shallow = JSONParser(maxDepth: 2)
        #expect(throws: Never.self) { try shallow.parse("[[1]]") }
        let error = #expect(throws: JSONParseError.self) { try shallow.parse("[[[1]]]") }
        #expect(error?.kind == .tooDeep(2))
    }

    @Test func invalidUTF8() throws {
        let q: UInt8 = 0x22
        assertError([q, 0xC3, 0x28, q], "invalid UTF-8 at byte 1")                 // bad continuation
        assertError([q, 0x61, 0x80, q], "invalid UTF-8 at byte 2")                 // lone continuation
        assertError([q, 0xC0, 0xAF, q], "invalid UTF-8 at byte 1")                 // overlong '/'
        assertError([q, 0xC1, 0xBF, q], "invalid UTF-8 at byte 1")                 // overlong
        assertError([q, 0xE0, 0x80, 0xAF, q], "invalid UTF-8 at byte 1")          // overlong 3-byte
        assertError([q, 0xF0, 0x80, 0x80, 0xAF, q], "invalid UTF-8 at byte 1")    // overlong 4-byte
        assertError([q, 0xED, 0xA0, 0x80, q], "invalid UTF-8 at byte 1")          // U+D800 encoded
        assertError([q, 0xED, 0xBF, 0xBF, q], "invalid UTF-8 at byte 1")          // U+DFFF encoded
        assertError([q, 0xF4, 0x90, 0x80, 0x80, q], "invalid UTF-8 at byte 1")    // > U+10FFFF
        assertError([q, 0xF5, 0x80, 0x80, 0x80, q], "invalid UTF-8 at byte 1")
        assertError([q, 0xFF, q], "invalid UTF-8 at byte 1")
        assertError([q, 0xE2, 0x82, q], "invalid UTF-8 at byte 1")                 // truncated €
        assertError([q, 0xE2, 0x82], "invalid UTF-8 at byte 1")                    // truncated at end
        // In the middle of a longer line, after an escape (slow path):
        let line = Array(#"{"id":1,"text":"ab\ncd"#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        assertError(line, "invalid UTF-8 at byte 22")
        // Outside strings, invalid UTF-8 is reported instead of a generic syntax error.
        assertError([0x5B, 0x31, 0x5D, 0xFF], "invalid UTF-8 at byte 3")
        assertError(Array(#"{"a":1,"#.utf8) + [0x80], "invalid UTF-8 at byte 7")
        assertError([0xEF, 0xBB, 0xBF, 0x31], "expected value at byte 0")          // BOM is valid UTF-8 but not JSON
        // Boundary-valid sequences are accepted.
        for s in ["\u{80}", "\u{7FF}", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{FFFF}", "\u{10000}", "\u{10FFFF}"] {
            #expect(try parse("\"\(s)\"") == .string(s))
        }
    }

    @Test func errorCarriesOffsetAndKind() {
        do {
            _ = try JSONParser.parse(#"{"a":1 "b":2}"#)
            Issue.record("no error")
        } catch {
            #expect(error == JSONParseError(.expectedCommaOrBrace, at: 7))
            #expect(error.description == "expected ',' or '}' at byte 7")
        }
    }

    // MARK: Numbers: fast path agrees with the standard library

    @Test func numberValuesMatchStandardLibrary() throws {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<20_000 {
            var literal = rng.next() % 4 == 0 ? "-" : ""
            let intDigits = Int(rng.next() % 20) + 1
            literal += String(Int(rng.next() % 9) + 1)
            for _ in 1..<intDigits { literal += String(rng.next() % 10) }
            if rng.next() % 2 == 0 {
                literal += "."
                for _ in 0..<(Int(rng.next() % 18) + 1) { literal += String(rng.next() % 10) }
            }
            if rng.next() % 2 == 0 { literal += "e" + String(Int(rng.next() % 60) - 30) }
            let parsed = try parse(literal)
            #expect(parsed.doubleValue?.bitPattern == Double(literal)?.bitPattern, "\(literal)")
            #expect(parsed.numberLiteral == literal)
        }
    }

    @Test func intValue() throws {
        #expect(try parse("123").intValue == 123)
        #expect(try parse("1e3").intValue == 1000)
        #expect(try parse("1.5").intValue == nil)
        #expect(try parse("\"1\"").intValue == nil)
    }
}

