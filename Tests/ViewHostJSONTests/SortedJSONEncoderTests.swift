import Foundation
import TestSupport
import Testing
import ViewHostJSON

/// SortedJSONEncoder must write the very bytes of `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]`
/// (snapshot ETags and cached bytes depend on it), so every test here compares the two.
@Suite struct SortedJSONEncoderTests {
    private static func foundation(_ value: some Encodable, userInfo: [CodingUserInfoKey: any Sendable] = [:]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for (key, item) in userInfo { encoder.userInfo[key] = item }
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private static func ours(_ value: some Encodable, userInfo: [CodingUserInfoKey: any Sendable] = [:]) throws -> String {
        var encoder = SortedJSONEncoder()
        encoder.userInfo = userInfo
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private static func expectSame(_ value: some Encodable, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = try foundation(value)
        let actual = try ours(value)
        #expect(actual == expected, sourceLocation: sourceLocation)
    }

    struct Inner: Encodable {
        var name: String
        var tags: [String]
        var score: Double?
    }

    struct Everything: Encodable {
        var b = "b"
        var B = "upper B sorts before lower a"
        var a = 1
        var _underscore = true
        var ä = "non-ASCII key"
        var key10 = 10
        var key9 = 9
        var nothing: String? = nil
        var null: String?? = .some(nil)
        var nested = Inner(name: "n", tags: ["x", "y"], score: 0.5)
        var list = [Inner(name: "1", tags: [], score: nil), Inner(name: "2", tags: ["z"], score: 2)]
        var map = ["zeta": 1, "alpha": 2, "Beta": 3]
        var intKeys = [3: "three", 1: "one", 20: "twenty"]
        var empty: [String] = []
        var emptyMap: [String: Int] = [:]
        var matrix = [[1, 2], [], [3]]
        var flags = [true, false]
        var int8 = Int8.min
        var uint64 = UInt64.max
        var int = Int.min
        var float: Float = 0.1
    }

    @Test func aValueOfEveryShapeEncodesAsJSONEncoderDoes() throws {
        try Self.expectSame(Everything())
    }

    @Test(arguments: [
        "", "plain", "quote \" backslash \\ slash / done", "tab\tnew\nline\rreturn", "\u{8}\u{c}\u{0}\u{1f}\u{7f}",
        "emoji 👋🏽 and é and 日本", "\u{2028}\u{2029}", "</script>", "a\"b\\c",
    ])
    func stringsAreEscapedAsJSONEncoderEscapesThem(text: String) throws {
        try Self.expectSame(["value": text, text: "as a key"])
        try Self.expectSame([text])
    }

    @Test func everyControlCharacterIsEscapedTheSame() throws {
        let text = String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self)
        try Self.expectSame([text])
    }

    @Test(arguments: [
        0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 1.5, 100.0, 1e15, 1e16, 1e21, 1e22, 123456789.123, .leastNonzeroMagnitude, 1e-7, 2.5e-5,
        Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, Double.ulpOfOne, 72.4, 1.0 / 3.0,
    ])
    func doublesAreWrittenAsJSONEncoderWritesThem(number: Double) throws {
        try Self.expectSame([number])
        try Self.expectSame(["n": number])
    }

    @Test(arguments: [Float(0.1), 1, 3.4028235e38, 1e-7, -2.5])
    func floatsAreWrittenAsJSONEncoderWritesThem(number: Float) throws {
        try Self.expectSame([number])
    }

    /// Every scalar type through a single-value container's own methods, one value each.
    enum Scalar: Encodable, CaseIterable {
        case null, bool, string, double, float, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .bool: try container.encode(true)
            case .string: try container.encode("s\"")
            case .double: try container.encode(0.1)
            case .float: try container.encode(Float(0.1))
            case .int: try container.encode(Int.min)
            case .int8: try container.encode(Int8.min)
            case .int16: try container.encode(Int16.min)
            case .int32: try container.encode(Int32.min)
            case .int64: try container.encode(Int64.min)
            case .uint: try container.encode(UInt.max)
            case .uint8: try container.encode(UInt8.max)
            case .uint16: try container.encode(UInt16.max)
            case .uint32: try container.encode(UInt32.max)
            case .uint64: try container.encode(UInt64.max)
            }
        }
    }

    /// Every scalar type through an unkeyed container's own methods.
    struct Scalars: Encodable {
        func encode(to encoder: any Encoder) throws {
            var list = encoder.unkeyedContainer()
            try list.encodeNil()
            try list.encode(false)
            try list.encode("s\"")
            try list.encode(1e21)
            try list.encode(Float(2.5))
            try list.encode(Int.max)
            try list.encode(Int8.max)
            try list.encode(Int16.max)
            try list.encode(Int32.max)
            try list.encode(Int64.max)
            try list.encode(UInt.max)
            try list.encode(UInt8.max)
            try list.encode(UInt16.max)
            try list.encode(UInt32.max)
            try list.encode(UInt64.max)
        }
    }

    /// A non-finite number as the second element of a list, written by the list's own method.
    struct NotFiniteSecond: Encodable {
        func encode(to encoder: any Encoder) throws {
            var list = encoder.unkeyedContainer()
            try list.encode(1.0)
            try list.encode(Double.infinity)
        }
    }

    /// A non-finite number as a value of its own, written by its single-value container's own method.
    struct NotFinite: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(Float.nan)
        }
    }

    @Test func scalarsWrittenByTheSingleValueAndUnkeyedContainersMatch() throws {
        try Self.expectSame(Scalar.allCases)
        for scalar in Scalar.allCases { try Self.expectSame(scalar) }
        try Self.expectSame(Scalars())
        let refusal = #expect(throws: SortedJSONEncoder.Unsupported.self) { try Self.ours(NotFiniteSecond()) }
        #expect(refusal?.description == "non-finite number inf at [\"Index 1\"]")
        let single = #expect(throws: SortedJSONEncoder.Unsupported.self) { try Self.ours(["n": NotFinite()]) }
        #expect(single?.description == "non-finite number nan at [\"n\"]")
    }

    @Test func nonFiniteNumbersAreRefusedLikeJSONEncoderRefusesThem() {
        for number in [Double.nan, .infinity, -.infinity] {
            #expect(throws: (any Error).self) { try Self.foundation([number]) }
            #expect(throws: SortedJSONEncoder.Unsupported.self) { try Self.ours([number]) }
        }
    }

    /// `JSONEncoder`'s default date strategy is the date's own `encode(to:)` (seconds since 2001 as a number).
    @Test func datesEncodeAsTheirOwnNumberAsJSONEncoderDoesByDefault() throws {
        try Self.expectSame(["at": Date(timeIntervalSince1970: 0), "then": Date(timeIntervalSinceReferenceDate: 123.456)])
        try Self.expectSame([Date(timeIntervalSince1970: 631_152_000), Date.distantFuture])
    }

    /// `JSONEncoder`'s default data strategy is base64 text.
    @Test func dataEncodesAsBase64AsJSONEncoderDoesByDefault() throws {
        try Self.expectSame(["bytes": Data([0xFB, 0xFF, 0x3F, 1, 2]), "empty": Data()])
        try Self.expectSame([Data((0..<255).map { UInt8($0) })])
    }

    @Test func foundationTypesAreLeftToJSONEncoder() {
        #expect(throws: SortedJSONEncoder.Unsupported.self) { try Self.ours([URL(string: "https://example.com/")!]) }
    }

    /// A type whose `encode(to:)` asks for the keyed container twice (as the snapshot envelope does), uses nested
    /// containers, a super encoder, and encodes one key twice.
    struct Handwritten: Encodable {
        enum Keys: String, CodingKey { case first, second, nested, list, twice }

        func encode(to encoder: any Encoder) throws {
            var one = encoder.container(keyedBy: Keys.self)
            try one.encode("1", forKey: .first)
            try one.encode("old", forKey: .twice)
            var two = encoder.container(keyedBy: Keys.self)
            try two.encode(2, forKey: .second)
            try two.encode("new", forKey: .twice)
            var nested = two.nestedContainer(keyedBy: Keys.self, forKey: .nested)
            try nested.encodeNil(forKey: .first)
            var list = two.nestedUnkeyedContainer(forKey: .list)
            try list.encode(1)
            var inner = list.nestedContainer(keyedBy: Keys.self)
            try inner.encode(true, forKey: .second)
            var deeper = list.nestedUnkeyedContainer()
            try deeper.encodeNil()
            try list.encode(Inner(name: "i", tags: ["t"], score: 1))
        }
    }

    /// Objects of one type are written in the order worked out for the type before, when their names are the same;
    /// objects of that type with a member left out (or dictionaries, which share one key type, with other keys)
    /// are sorted again, wherever they come.
    @Test func objectsOfOneTypeWithOtherMembersAreSortedAgain() throws {
        let inners = (0..<12).map { (number: Int) -> Inner in
            let tags: [String] = number % 3 == 0 ? [] : ["t"]
            let score: Double? = number % 2 == 0 ? nil : Double(number)
            return Inner(name: "n\(number)", tags: tags, score: score)
        }
        try Self.expectSame(inners)
        let maps: [[String: Int]] = [["b": 1, "a": 2], ["b": 1, "a": 2], ["c": 3, "B": 4, "é": 5], ["a": 1], [:], ["zz": 0, "z": 1]]
        try Self.expectSame(maps)
        try Self.expectSame((0..<6).map { Shuffled(flip: $0 % 2 == 1) })
    }

    /// One coding-keys type, two members either way, but other names in another order.
    struct Shuffled: Encodable {
        let flip: Bool
        enum Keys: String, CodingKey { case alpha, beta, gamma }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            if flip {
                try container.encode(3, forKey: .gamma)
                try container.encode(1, forKey: .alpha)
            } else {
                try container.encode(1, forKey: .alpha)
                try container.encode(2, forKey: .beta)
            }
        }
    }

    @Test func handwrittenEncodingsMatch() throws {
        try Self.expectSame(Handwritten())
    }

    struct SuperUser: Encodable {
        enum Keys: String, CodingKey { case own }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode("mine", forKey: .own)
            try Inner(name: "parent", tags: [], score: nil).encode(to: container.superEncoder())
        }
    }

    @Test func superEncodersMatch() throws {
        try Self.expectSame(SuperUser())
    }

    @Test func topLevelScalarsAndEmptyValuesMatch() throws {
        try Self.expectSame("just a string")
        try Self.expectSame(42)
        try Self.expectSame(true)
        try Self.expectSame([String]())
        try Self.expectSame([String: String]())
        try Self.expectSame(Optional<Int>.none)
    }

    struct UsesUserInfo: Encodable {
        static let key = CodingUserInfoKey(rawValue: "test.href")!
        enum Keys: String, CodingKey { case href }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(encoder.userInfo[Self.key] as? String ?? "missing", forKey: .href)
        }
    }

    @Test func userInfoReachesNestedValues() throws {
        let info: [CodingUserInfoKey: any Sendable] = [UsesUserInfo.key: "/v1/x"]
        let value = ["items": [UsesUserInfo(), UsesUserInfo()]]
        #expect(try Self.ours(value, userInfo: info) == Self.foundation(value, userInfo: info))
        #expect(try Self.ours(value, userInfo: info).contains("/v1/x"))
    }

    /// Random documents: keys and strings from a mixed alphabet (case, digits, controls, non-ASCII), nested maps and
    /// lists, numbers; seeded, so a failure repeats.
    @Test func randomDocumentsMatch() throws {
        var random = SplitMix64(state: 0x5EED)
        let alphabet = Array("aAbBzZ09_-/\"\\\n\t é日👋\u{1}")
        func word() -> String {
            String((0..<Int(random.next() % 6)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
        }
        for _ in 0..<300 {
            var document: [String: [String: [String]]] = [:]
            for _ in 0..<Int(random.next() % 5) {
                var inner: [String: [String]] = [:]
                for _ in 0..<Int(random.next() % 4) { inner[word()] = (0..<Int(random.next() % 3)).map { _ in word() } }
                document[word()] = inner
            }
            try Self.expectSame(document)
            let numbers = (0..<4).map { _ in Double(Int64(bitPattern: random.next()) % 1_000_000) / 1000 }
            try Self.expectSame(numbers)
        }
    }
}
