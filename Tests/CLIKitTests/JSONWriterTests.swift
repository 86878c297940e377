import PropertyTesting
import Testing
@testable import CLIKit

@Suite struct JSONWriterTests {
    private func text(_ d: Double) -> String {
        var out: [UInt8] = []
        JSONWriter.appendNumber(d, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func shortestNumberForms() {
        #expect(text(0.1) == "0.1")
        #expect(text(44.0) == "44")
        #expect(text(-44.0) == "-44")
        #expect(text(0) == "0")
        #expect(text(-0.0) == "-0")            // documented: sign of zero is kept
        #expect(text(1e21) == "1e21")
        #expect(text(1e16) == "1e16")
        #expect(text(1e15) == "1000000000000000")
        #expect(text(9007199254740992) == "9007199254740992")
        #expect(text(.leastNonzeroMagnitude) == "5e-324")
        #expect(text(1e-7) == "1e-7")
        #expect(text(0.0001) == "0.0001")
        #expect(text(1.5e300) == "1.5e300")
        #expect(text(-2.5e-5) == "-2.5e-5")
        #expect(text(123456789012.5) == "123456789012.5")
        #expect(text(0.1 + 0.2) == "0.30000000000000004")
        #expect(text(.greatestFiniteMagnitude) == "1.7976931348623157e308")
        #expect(text(Double(Int64.max)) == "9.223372036854776e18")
    }

    @Test func nonFiniteNumbersAreWrittenAsNull() {
        #expect(text(.nan) == "null")
        #expect(text(.infinity) == "null")
        #expect(text(-.infinity) == "null")
        #expect(JSONValue.number(Double.nan) == .null)
        #expect(JSONWriter.encodeToString(.number(.infinity, literal: "1e999x")) == "null")
    }

    @Test func doublesRoundTripThroughText() throws {
        var rng = SplitMix64(seed: 7)
        var values: [Double] = [0.1, 1 / 3, 2.0 / 3, 1e-300, .leastNonzeroMagnitude, 2.2250738585072014e-308, 1e23, 8.41e21, 5e-7, 123.456]
        for _ in 0..<20_000 { values.append(Double(bitPattern: rng.next())) }
        for _ in 0..<2_000 { values.append(Double(Int64(bitPattern: rng.next()) >> Int64(rng.next() % 60))) }
        for d in values where d.isFinite {
            let written = text(d)
            let back = try JSONParser.parse(written)
            #expect(back.doubleValue?.bitPattern == d.bitPattern, "\(written)")
            #expect(!written.hasSuffix(".0"), "\(written)")
            #expect(!written.contains("+"), "\(written)")
        }
    }

    @Test func stringEscaping() {
        #expect(JSONWriter.encodeToString("plain") == #""plain""#)
        #expect(JSONWriter.encodeToString("a\"b\\c/d") == #""a\"b\\c/d""#)
        #expect(JSONWriter.encodeToString("\n\r\t\u{8}\u{C}") == #""\n\r\t\b\f""#)
        #expect(JSONWriter.encodeToString("\u{0}\u{1}\u{1F}\u{7F}") == "\"\\u0000\\u0001\\u001f\u{7F}\"")
        #expect(JSONWriter.encodeToString("café 中文 😀") == "\"café 中文 😀\"")   // UTF-8 kept
        #expect(JSONWriter.encode("é") == [0x22, 0xC3, 0xA9, 0x22])
    }

    @Test func nestedValues() {
        let v: JSONValue = ["a": [1, 2.5, nil, true, false, "x"], "b": ["c": [:]], "e": []]
        #expect(JSONWriter.encodeToString(v) == #"{"a":[1,2.5,null,true,false,"x"],"b":{"c":{}},"e":[]}"#)
    }

    @Test func roundTrip() throws {
        let values: [JSONValue] = [
            nil, true, false, 0, -1, 0.1, -0.0, 1e21, .number(.leastNonzeroMagnitude), "", "x\"\\\n\u{1}é😀", [], [:],
            [1, [2, [3, ["deep": "er"]]]],
            .object(JSONObject([(key: "id", value: .number(Double("12345678901234567890")!, literal: "12345678901234567890")),
                                (key: "dup", value: 1), (key: "dup", value: 2), (key: "s", value: "t")])),
            .number(1500, literal: "1.5E+3"),
        ]
        for v in values {
            let bytes = JSONWriter.encode(v)
            #expect(try JSONParser.parse(bytes) == v, "\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    @Test func echoKeepsLiteralText() throws {
        let line = #"{"id":12345678901234567890,"n":1.50,"e":1E+2,"z":-0,"s":"\u00e9"}"#
        let v = try JSONParser.parse(line)
        var w = JSONWriter()
        w.beginObject()
        w.field("id", v["id"]!)
        w.field("width", 44.0)
        w.endObject()
        #expect(String(decoding: w.bytes, as: UTF8.self) == #"{"id":12345678901234567890,"width":44}"#)
        // The whole document is echoed with every number literal unchanged (strings re-escaped).
        #expect(JSONWriter.encodeToString(v) == #"{"id":12345678901234567890,"n":1.50,"e":1E+2,"z":-0,"s":"é"}"#)
        #expect(v["id"]?.numberLiteral == "12345678901234567890")
        #expect(v["id"]?.doubleValue == Double("12345678901234567890"))
    }

    @Test func invalidLiteralFallsBackToDouble() {
        #expect(JSONWriter.encodeToString(.number(5, literal: "five")) == "5")
        #expect(JSONWriter.encodeToString(.number(5, literal: "05")) == "5")
        #expect(JSONWriter.encodeToString(.number(5, literal: "5 ")) == "5")
        #expect(JSONWriter.encodeToString(.number(5, literal: "")) == "5")
        #expect(JSONValue.number(44.0) == .number(44, literal: "44"))
        #expect(JSONValue.number(Int.max) == .number(Double(Int.max), literal: "9223372036854775807"))
    }

    @Test func streamingWriterInsertsCommas() {
        var w = JSONWriter()
        w.beginObject()
        w.field("line", 3)
        w.field("error", "empty line")
        w.key("sizes")
        w.beginArray()
        w.write(1.5)
        w.write(2)
        w.writeNull()
        w.beginObject()
        w.endObject()
        w.beginArray()
        w.endArray()
        w.endArray()
        w.field("ok", false)
        w.endObject()
        #expect(String(decoding: w.bytes, as: UTF8.self) == #"{"line":3,"error":"empty line","sizes":[1.5,2,null,{},[]],"ok":false}"#)
        w.reset()
        w.write(Double.nan)
        #expect(w.bytes == Array("null".utf8))
    }

    /// Numbers printed without float noise: at most 6 decimals, within half a millionth.
    @Test func roundedToMillionthsPrintsAtMostSixDecimals() {
        func text(_ v: Double) -> String {
            var out: [UInt8] = []
            JSONWriter.appendMillionths(v, to: &out)
            return String(decoding: out, as: UTF8.self)
        }
        #expect(text(119.80499999999999) == "119.805")
        #expect(text(1.0 / 3) == "0.333333")
        #expect(text(28.43) == "28.43")
        #expect(text(-0.0000001) == "0")
        #expect(text(2.5e-7) == "0")
        #expect(text(5e-7) == "0.000001")
        #expect(text(-0.0000012) == "-0.000001")
        #expect(text(-3.5) == "-3.5")
        #expect(text(0.00005) == "0.00005")  // no exponent (shortest form: 5e-05)
        #expect(text(1e12 + 0.1) == "1000000000000.1")  // beyond 1e9: unchanged
        let failure = checkProperty("roundedToMillionths", Gen<Double>.edgyDouble(in: -1e9...1e9), iterations: 2000) { v in
            guard v.isFinite, abs(v) < 1e9 else { return }
            let t = text(v)
            let decimals = t.split(separator: ".").dropFirst().first?.count ?? 0
            try propertyAssert(!t.contains("e"), "exponent in \(t) for \(v)")
            // The same text as the shortest form of the rounded value, but for the exponent.
            let r = JSONWriter.roundedToMillionths(v)
            if abs(r) >= 1e-4 || r == 0 {
                try propertyAssert(t == JSONWriter.encodeToString(.number(r)), "\(t) vs \(r)")
            }
            try propertyAssert(decimals <= 6, "\(t) for \(v)")
            try propertyAssert(abs((Double(t) ?? .nan) - v) <= 5e-7 * (1 + abs(v) * 1e-9), "\(t) for \(v)")
        }
        #expect(failure == nil, "\(failure.map { "\($0)" } ?? "")")
    }
}
