import PropertyTesting
import XCTest
@testable import CLIKit

final class JSONWriterTests: XCTestCase {
    private func text(_ d: Double) -> String {
        var out: [UInt8] = []
        JSONWriter.appendNumber(d, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func testShortestNumberForms() {
        XCTAssertEqual(text(0.1), "0.1")
        XCTAssertEqual(text(44.0), "44")
        XCTAssertEqual(text(-44.0), "-44")
        XCTAssertEqual(text(0), "0")
        XCTAssertEqual(text(-0.0), "-0")            // documented: sign of zero is kept
        XCTAssertEqual(text(1e21), "1e21")
        XCTAssertEqual(text(1e16), "1e16")
        XCTAssertEqual(text(1e15), "1000000000000000")
        XCTAssertEqual(text(9007199254740992), "9007199254740992")
        XCTAssertEqual(text(.leastNonzeroMagnitude), "5e-324")
        XCTAssertEqual(text(1e-7), "1e-7")
        XCTAssertEqual(text(0.0001), "0.0001")
        XCTAssertEqual(text(1.5e300), "1.5e300")
        XCTAssertEqual(text(-2.5e-5), "-2.5e-5")
        XCTAssertEqual(text(123456789012.5), "123456789012.5")
        XCTAssertEqual(text(0.1 + 0.2), "0.30000000000000004")
        XCTAssertEqual(text(.greatestFiniteMagnitude), "1.7976931348623157e308")
        XCTAssertEqual(text(Double(Int64.max)), "9.223372036854776e18")
    }

    func testNonFiniteNumbersAreWrittenAsNull() {
        XCTAssertEqual(text(.nan), "null")
        XCTAssertEqual(text(.infinity), "null")
        XCTAssertEqual(text(-.infinity), "null")
        XCTAssertEqual(JSONValue.number(Double.nan), .null)
        XCTAssertEqual(JSONWriter.encodeToString(.number(.infinity, literal: "1e999x")), "null")
    }

    func testDoublesRoundTripThroughText() throws {
        var rng = SplitMix64(seed: 7)
        var values: [Double] = [0.1, 1 / 3, 2.0 / 3, 1e-300, .leastNonzeroMagnitude, 2.2250738585072014e-308, 1e23, 8.41e21, 5e-7, 123.456]
        for _ in 0..<20_000 { values.append(Double(bitPattern: rng.next())) }
        for _ in 0..<2_000 { values.append(Double(Int64(bitPattern: rng.next()) >> Int64(rng.next() % 60))) }
        for d in values where d.isFinite {
            let written = text(d)
            let back = try JSONParser.parse(written)
            XCTAssertEqual(back.doubleValue?.bitPattern, d.bitPattern, written)
            XCTAssertFalse(written.hasSuffix(".0"), written)
            XCTAssertFalse(written.contains("+"), written)
        }
    }

    func testStringEscaping() {
        XCTAssertEqual(JSONWriter.encodeToString("plain"), #""plain""#)
        XCTAssertEqual(JSONWriter.encodeToString("a\"b\\c/d"), #""a\"b\\c/d""#)
        XCTAssertEqual(JSONWriter.encodeToString("\n\r\t\u{8}\u{C}"), #""\n\r\t\b\f""#)
        XCTAssertEqual(JSONWriter.encodeToString("\u{0}\u{1}\u{1F}\u{7F}"), "\"\\u0000\\u0001\\u001f\u{7F}\"")
        XCTAssertEqual(JSONWriter.encodeToString("café 中文 😀"), "\"café 中文 😀\"")   // UTF-8 kept
        XCTAssertEqual(JSONWriter.encode("é"), [0x22, 0xC3, 0xA9, 0x22])
    }

    func testNestedValues() {
        let v: JSONValue = ["a": [1, 2.5, nil, true, false, "x"], "b": ["c": [:]], "e": []]
        XCTAssertEqual(JSONWriter.encodeToString(v), #"{"a":[1,2.5,null,true,false,"x"],"b":{"c":{}},"e":[]}"#)
    }

    func testRoundTrip() throws {
        let values: [JSONValue] = [
            nil, true, false, 0, -1, 0.1, -0.0, 1e21, .number(.leastNonzeroMagnitude), "", "x\"\\\n\u{1}é😀", [], [:],
            [1, [2, [3, ["deep": "er"]]]],
            .object(JSONObject([(key: "id", value: .number(Double("12345678901234567890")!, literal: "12345678901234567890")),
                                (key: "dup", value: 1), (key: "dup", value: 2), (key: "s", value: "t")])),
            .number(1500, literal: "1.5E+3"),
        ]
        for v in values {
            let bytes = JSONWriter.encode(v)
            XCTAssertEqual(try JSONParser.parse(bytes), v, String(decoding: bytes, as: UTF8.self))
        }
    }

    func testEchoKeepsLiteralText() throws {
        let line = #"{"id":12345678901234567890,"n":1.50,"e":1E+2,"z":-0,"s":"\u00e9"}"#
        let v = try JSONParser.parse(line)
        var w = JSONWriter()
        w.beginObject()
        w.field("id", v["id"]!)
        w.field("width", 44.0)
        w.endObject()
        XCTAssertEqual(String(decoding: w.bytes, as: UTF8.self), #"{"id":12345678901234567890,"width":44}"#)
        // The whole document is echoed with every number literal unchanged (strings re-escaped).
        XCTAssertEqual(JSONWriter.encodeToString(v), #"{"id":12345678901234567890,"n":1.50,"e":1E+2,"z":-0,"s":"é"}"#)
        XCTAssertEqual(v["id"]?.numberLiteral, "12345678901234567890")
        XCTAssertEqual(v["id"]?.doubleValue, Double("12345678901234567890"))
    }

    func testInvalidLiteralFallsBackToDouble() {
        XCTAssertEqual(JSONWriter.encodeToString(.number(5, literal: "five")), "5")
        XCTAssertEqual(JSONWriter.encodeToString(.number(5, literal: "05")), "5")
        XCTAssertEqual(JSONWriter.encodeToString(.number(5, literal: "5 ")), "5")
        XCTAssertEqual(JSONWriter.encodeToString(.number(5, literal: "")), "5")
        XCTAssertEqual(JSONValue.number(44.0), .number(44, literal: "44"))
        XCTAssertEqual(JSONValue.number(Int.max), .number(Double(Int.max), literal: "9223372036854775807"))
    }

    func testStreamingWriterInsertsCommas() {
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
        XCTAssertEqual(String(decoding: w.bytes, as: UTF8.self),
                       #"{"line":3,"error":"empty line","sizes":[1.5,2,null,{},[]],"ok":false}"#)
        w.reset()
        w.write(Double.nan)
        XCTAssertEqual(w.bytes, Array("null".utf8))
    }

    /// Numbers printed without float noise: at most 6 decimals, within half a millionth.
    func testRoundedToMillionthsPrintsAtMostSixDecimals() {
        func text(_ v: Double) -> String {
            var out: [UInt8] = []
            JSONWriter.appendMillionths(v, to: &out)
            return String(decoding: out, as: UTF8.self)
        }
        XCTAssertEqual(text(119.80499999999999), "119.805")
        XCTAssertEqual(text(1.0 / 3), "0.333333")
        XCTAssertEqual(text(28.43), "28.43")
        XCTAssertEqual(text(-0.0000001), "0")
        XCTAssertEqual(text(2.5e-7), "0")
        XCTAssertEqual(text(5e-7), "0.000001")
        XCTAssertEqual(text(-0.0000012), "-0.000001")
        XCTAssertEqual(text(-3.5), "-3.5")
        XCTAssertEqual(text(0.00005), "0.00005")  // no exponent (shortest form: 5e-05)
        XCTAssertEqual(text(1e12 + 0.1), "1000000000000.1")  // beyond 1e9: unchanged
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
        XCTAssertNil(failure, failure.map { "\($0)" } ?? "")
    }
}
