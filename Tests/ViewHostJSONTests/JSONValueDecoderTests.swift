import Foundation
import Testing
import ViewHostJSON

/// JSONValueDecoder must read what `JSONDecoder` reads, the same way, or refuse (the journal falls back to
/// `JSONDecoder` then): every test here compares the two on the same text.
@Suite struct JSONValueDecoderTests {
    enum Shape: Codable, Equatable {
        case circle(radius: Double)
        case box(Int, Int)
        case none
    }

    enum Kind: String, Codable {
        case plain, fancy
    }

    struct Inner: Codable, Equatable {
        var name: String
        var tags: [String]
        var score: Double?
    }

    struct Everything: Codable, Equatable {
        var text = "ä \"quoted\" \\ / \u{1F600} \n"
        var flag = true
        var int = -1_234_567
        var int8 = Int8.min
        var uint16 = UInt16.max
        var large = 9_007_199_254_740_991
        var double = -0.1
        var float: Float = 0.25
        var optional: String? = nil
        var present: Int? = 3
        var nested = Inner(name: "n", tags: ["x", "y"], score: nil)
        var list = [Inner(name: "1", tags: [], score: 2.5)]
        var map = ["zeta": 1, "alpha": 2]
        var intKeys = [3: "three", 20: "twenty"]
        var matrix = [[1, 2], [], [3]]
        var shapes: [Shape] = [.circle(radius: 1.5), .box(2, 3), .none]
        var optionals: [Int?] = [1, nil, 3]
        var born = Date(timeIntervalSince1970: 631_152_000.5)
        var kinds: [Kind] = [.fancy, .plain]
        var bytes = Data([0xFB, 0xFF, 0x3F, 0, 1])
    }

    private static func both<T: Codable & Equatable>(_ type: T.Type, _ text: String) throws -> (ours: T, foundation: T) {
        let bytes = Array(text.utf8)
        return (try JSONValueDecoder().decode(type, from: bytes), try JSONDecoder().decode(type, from: Data(bytes)))
    }

    @Test func aValueOfEveryShapeDecodesAsJSONDecoderDecodesIt() throws {
        let text = String(decoding: try JSONEncoder().encode(Everything()), as: UTF8.self)
        let (ours, foundation) = try Self.both(Everything.self, text)
        #expect(ours == foundation)
        #expect(ours == Everything())
    }

    @Test func integersWrittenWithAFractionOrExponentReadAsTheirValue() throws {
        let (ours, foundation) = try Self.both([Int].self, "[1, 2.0, 3e2, -0]")
        #expect(ours == foundation)
        #expect(ours == [1, 2, 300, 0])
    }

    @Test func aMissingMemberIsKeyNotFoundAtItsPath() throws {
        do {
            _ = try JSONValueDecoder().decode([Inner].self, from: Array(#"[{"name":"n"}]"#.utf8))
            Issue.record("decoded without tags")
        } catch DecodingError.keyNotFound(let key, let context) {
            #expect(key.stringValue == "tags")
            #expect(context.codingPath.map(\.stringValue) == ["Index 0"])
        }
    }

    @Test func aWrongTypeIsTypeMismatchAndNullIsValueNotFound() throws {
        #expect {
            try JSONValueDecoder().decode(Inner.self, from: Array(#"{"name":1,"tags":[]}"#.utf8))
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["name"]
        }
        #expect {
            try JSONValueDecoder().decode(Inner.self, from: Array(#"{"name":null,"tags":[]}"#.utf8))
        } throws: { error in
            guard case DecodingError.valueNotFound = error else { return false }
            return true
        }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Int.self, from: Array("1.5".utf8)) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Int.self, from: Array(#""1""#.utf8)) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(String.self, from: Array("true".utf8)) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Bool.self, from: Array("[]".utf8)) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Kind.self, from: Array(#""other""#.utf8)) }
        // Data is base64 text, never an array of bytes; JSONDecoder agrees.
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Data.self, from: Array("[1,2]".utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Data.self, from: Data("[1,2]".utf8)) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Data.self, from: Array(#""not base64!""#.utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Data.self, from: Data(#""not base64!""#.utf8)) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(UInt8.self, from: Array("256".utf8)) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Float.self, from: Array("1e300".utf8)) }
        // JSONDecoder refuses each of these too.
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Int.self, from: Data("1.5".utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(UInt8.self, from: Data("256".utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Float.self, from: Data("1e300".utf8)) }
    }

    @Test func whatJSONDecoderReadsByItsOwnRulesIsLeftToIt() throws {
        #expect(throws: JSONValueDecoder.Unsupported.self) {
            try JSONValueDecoder().decode([URL].self, from: Array(#"["https://example.com/"]"#.utf8))
        }
        // Past 2^53 a Double loses digits, which JSONDecoder keeps.
        #expect(throws: JSONValueDecoder.Unsupported.self) {
            try JSONValueDecoder().decode(Int.self, from: Array("9007199254740993".utf8))
        }
        #expect(try JSONDecoder().decode(Int.self, from: Data("9007199254740993".utf8)) == 9_007_199_254_740_993)
        // Not JSON, or a duplicate member: JSONDecoder gives the answer.
        #expect(throws: JSONValueDecoder.Unsupported.self) {
            try JSONValueDecoder().decode([String: Int].self, from: Array(#"{"a":1,"a":2}"#.utf8))
        }
        #expect(throws: JSONValueDecoder.Unsupported.self) { try JSONValueDecoder().decode(Int.self, from: Array("[".utf8)) }
    }
}
