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

    enum Kind: String, Codable, CaseIterable {
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

    /// Takes a null itself, as `Nullable` does.
    struct Maybe: Codable, Equatable {
        var value: Int?

        init(value: Int?) { self.value = value }

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            value = container.decodeNil() ? nil : try container.decode(Int.self)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    @Test func aNullGoesToTheTypesOwnDecodingAsJSONDecoderHandsIt() throws {
        let (ours, foundation) = try Self.both([Maybe].self, "[1, null]")
        #expect(ours == foundation)
        #expect(ours == [Maybe(value: 1), Maybe(value: nil)])
        // A list or an object that is null is missing (valueNotFound), for JSONDecoder too.
        for text in [#"{"name":"n","tags":null}"#, #"[null]"#] {
            let type: any Decodable.Type = text.hasPrefix("[") ? [Inner].self : Inner.self
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(type, from: Data(text.utf8)) }
            #expect {
                _ = try JSONValueDecoder().decode(type, from: Array(text.utf8))
            } throws: { error in
                guard case DecodingError.valueNotFound = error else { return false }
                return true
            }
        }
    }

    /// The refusal under a `DecodingError` this decoder throws for `text` read as `type`.
    private static func refusal<T: Decodable>(
        _ type: T.Type, _ text: String, source: JSONValueDecoder.Source = .encoded
    ) -> JSONValueDecoder.Refusal? {
        var decoder = JSONValueDecoder()
        decoder.source = source
        do {
            _ = try decoder.decode(type, from: Array(text.utf8))
        } catch DecodingError.typeMismatch(_, let context), DecodingError.dataCorrupted(let context) {
            return context.underlyingError as? JSONValueDecoder.Refusal
        } catch {
            return nil
        }
        return nil
    }

    @Test func aRefusalSaysWhatTheValueMustBeInJSONsTerms() {
        #expect(
            Self.refusal(Inner.self, #"{"name":1,"tags":[]}"#) == .wrongType(expected: "a string", found: "a number"))
        #expect(
            Self.refusal(Inner.self, #"{"name":"n","tags":{}}"#) == .wrongType(expected: "an array", found: "an object"))
        #expect(Self.refusal([Inner].self, #"["n"]"#) == .wrongType(expected: "an object", found: "a string"))
        #expect(Self.refusal(Int.self, "1.5") == .wrongType(expected: "an integer", found: "a number"))
        #expect(Self.refusal(UInt8.self, #""1""#) == .wrongType(expected: "an integer", found: "a string"))
        #expect(Self.refusal(Bool.self, "0") == .wrongType(expected: "a boolean", found: "a number"))
        #expect(Self.refusal(Double.self, "true") == .wrongType(expected: "a number", found: "a boolean"))
        #expect(
            Self.refusal(Float.self, "1e300")
                == .outOfRange(reason: "must be a number Float holds, at most 3.4028235e+38 in magnitude"))
    }

    @Test func aClientsValueNoneOfItsEnumsCasesIsRefusedListingThem() throws {
        let cases: [JSONValue] = [.string("plain"), .string("fancy")]
        #expect(JSONValue.cases(of: Kind.self) == cases)
        #expect(JSONValue.cases(of: Shape.self) == nil)
        #expect(Self.refusal(Kind.self, #""other""#, source: .client) == .notACase(.string("other"), cases: cases))
        var decoder = JSONValueDecoder()
        decoder.source = .client
        do {
            _ = try decoder.decode([String: [Kind]].self, from: Array(#"{"a":["fancy","other"]}"#.utf8))
            Issue.record("decoded a value that is no case")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.codingPath.map(\.stringValue) == ["a", "Index 1"])
            #expect(context.underlyingError as? JSONValueDecoder.Refusal == .notACase(.string("other"), cases: cases))
        }
        // A value of the wrong type is that, not a case refused.
        #expect(Self.refusal(Kind.self, "7", source: .client) == .wrongType(expected: "a string", found: "a number"))
        // Stored JSON is refused as JSONDecoder refuses it, with no cases looked up.
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Kind.self, from: Array(#""other""#.utf8)) }
        #expect(Self.refusal(Kind.self, #""other""#) == nil)
    }

    @Test func aMemberTheTypeDoesNotReadIsRefusedNamingTheMembersItReads() throws {
        let members: [(String, JSONValue)] = [("type", .string("t")), ("name", .string("n")), ("tags", .array([]))]
        let decoded = try JSONValueDecoder().decode(
            Inner.self, fromMembers: members, fields: nil, ignoring: ["type", "id"])
        #expect(decoded == Inner(name: "n", tags: [], score: nil))
        // Read while decoding: `score` was asked for, though absent.
        #expect(throws: JSONValueDecoder.UnexpectedMember(name: "nmae", fields: ["name", "score", "tags"])) {
            try JSONValueDecoder().decode(
                Inner.self, fromMembers: members + [("nmae", .string("x"))], fields: nil, ignoring: ["type", "id"])
        }
        // Known beforehand: checked first, so the misspelt member is named, not the one it stands for as missing.
        #expect(throws: JSONValueDecoder.UnexpectedMember(name: "nmae", fields: ["name", "score", "tags"])) {
            try JSONValueDecoder().decode(
                Inner.self, fromMembers: [("nmae", .string("x")), ("tags", .array([]))],
                fields: ["type", "name", "tags", "score"], ignoring: ["type", "id"])
        }
        #expect(throws: DecodingError.self) {
            try JSONValueDecoder().decode(
                Inner.self, fromMembers: [("id", .string("x")), ("tags", .array([]))],
                fields: ["type", "name", "tags", "score"], ignoring: ["type", "id"])
        }
    }

    @Test func aClientsJSONIsReadWholeWithNoJSONDecoderToDeferTo() throws {
        var decoder = JSONValueDecoder()
        decoder.source = .client
        let twoTo53 = Array("9007199254740992".utf8)
        #expect(throws: JSONValueDecoder.Unsupported.self) { try JSONValueDecoder().decode(Int.self, from: twoTo53) }
        #expect(try decoder.decode(Int.self, from: twoTo53) == 9_007_199_254_740_992)
        let everything = Array(try JSONEncoder().encode(Everything()))
        #expect(try decoder.decode(Everything.self, from: everything) == Everything())
    }
}
