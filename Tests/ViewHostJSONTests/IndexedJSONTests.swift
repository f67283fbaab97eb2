import TestSupport
import Testing

@testable import ViewHostJSON

/// A text read against an older one (``IndexedJSON/init(_:after:)``: the parts at the same place with the same
/// bytes taken from the older text's index) is indexed exactly as a text read from scratch, fails where that fails,
/// and diffs the same.
@Suite struct IndexedJSONTests {
    /// `value` written out, with whitespace drawn from `random` around its tokens when `spaced`.
    private static func text(_ value: JSONValue, _ random: inout SplitMix64, spaced: Bool) -> String {
        func space() -> String { spaced ? ["", " ", "\n", "\t ", "\r\n  "][Int(random.next() % 5)] : "" }
        switch value {
        case .array(let elements):
            return "[" + space() + elements.map { text($0, &random, spaced: spaced) + space() }.joined(separator: "," + space()) + "]"
        case .object(let members):
            return "{" + space()
                + members.map { String(decoding: JSONValue.string($0.0).json, as: UTF8.self) + space() + ":" + space()
                    + text($0.1, &random, spaced: spaced) + space() }.joined(separator: "," + space()) + "}"
        default:
            return String(decoding: value.json, as: UTF8.self)
        }
    }

    private static func withoutOlder(_ node: IndexedJSON.Node) -> IndexedJSON.Node {
        var node = node
        node.older = -1
        return node
    }

    /// The sizes below which containers are folded that the tests read with: none, nearly all, and the default.
    static let folds = [0, 16, IndexedJSON.foldBelow]

    private static func expectSameIndex(_ older: String, _ newer: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for fold in folds { try expectSameIndex(older, newer, foldBelow: fold, sourceLocation: sourceLocation) }
    }

    private static func expectSameIndex(
        _ older: String, _ newer: String, foldBelow fold: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try IndexedJSON(Array(older.utf8), foldBelow: fold)
        let fresh = Result { () throws(JSONParser.Failure) in try IndexedJSON(Array(newer.utf8), foldBelow: fold) }
        let derived = Result { () throws(JSONParser.Failure) in try IndexedJSON(Array(newer.utf8), after: before, foldBelow: fold) }
        switch (fresh, derived) {
        case (.success(let fresh), .success(let derived)):
            // The same nodes but for what each was found to be in the older text.
            #expect(derived.nodes.map { Self.withoutOlder($0) } == fresh.nodes, "\(older) → \(newer)", sourceLocation: sourceLocation)
            // Which the diff trusts: it finds what comparing every part finds.
            let patches = [derived, fresh].map { text in
                Result { () throws(JSONParser.Failure) in try JSONPatch.diff(from: before, to: text) }
            }
            #expect(patches[0] == patches[1], "\(older) → \(newer)", sourceLocation: sourceLocation)
        case (.failure(let fresh), .failure(let derived)):
            #expect(derived == fresh, "\(older) → \(newer)", sourceLocation: sourceLocation)
        default:
            Issue.record("\(older) → \(newer): \(fresh) against \(derived)", sourceLocation: sourceLocation)
        }
    }

    @Test func aTextReadAgainstAnOlderOneHasTheNodesOfOneReadAlone() throws {
        var random = SplitMix64(state: 4627)
        for round in 0..<2_000 {
            let old = JSONPatchTests.randomValue(&random, depth: 0)
            let new = random.next() % 4 == 0 ? JSONPatchTests.randomValue(&random, depth: 0) : JSONPatchTests.mutated(old, &random)
            let spaced = round % 2 == 1
            let older = Self.text(old, &random, spaced: spaced)
            let newer = Self.text(new, &random, spaced: spaced)
            try Self.expectSameIndex(older, newer)
            // The same text again (every part copied), and the patch made against a derived index.
            try Self.expectSameIndex(older, older)
            for fold in Self.folds {
                let before = try IndexedJSON(Array(older.utf8), foldBelow: fold)
                let operations = try JSONPatch.diff(from: before, to: IndexedJSON(Array(newer.utf8), after: before, foldBelow: fold))
                #expect(try JSONPatch.apply(operations, to: old).isEquivalent(to: new), "round \(round), fold \(fold)")
            }
        }
    }

    @Test func aShortContainerIsOneNodeAndDiffsMemberByMember() throws {
        let older = #"{"list":[{"id":1,"status":"sending"},{"id":2,"status":"sent"}],"title":"Chat"}"#
        let newer = #"{"list":[{"id":1,"status":"sent"},{"id":2,"status":"sent"}],"title":"Chat"}"#
        let folded = try IndexedJSON(Array(older.utf8), foldBelow: 40)
        // The root, the list and its two elements (their own members not listed), the title.
        #expect(folded.nodes.count == 5)
        #expect(folded.isFolded(2) && folded.isFolded(3))
        #expect(!folded.isFolded(0) && !folded.isFolded(1) && !folded.isFolded(4))
        #expect(try IndexedJSON(Array(#"{ }"#.utf8), foldBelow: 40).isFolded(0) == false)
        let operations = try JSONPatch.diff(from: folded, to: IndexedJSON(Array(newer.utf8), after: folded, foldBelow: 40))
        #expect(operations == [.replace(path: "/list/0/status", value: .string("sent"))])
    }

    @Test func aWindowThatMovedOnIsTakenFromTheOlderTextAndPatchedByItsEnds() throws {
        func window(_ range: Range<Int>) -> String {
            #"{"messages":["# + range.map { #"{"id":"m\#($0)","text":"message \#($0)"}"# }.joined(separator: ",") + #"],"v":1}"#
        }
        let older = window(0..<500)
        let newer = window(3..<503)
        try Self.expectSameIndex(older, newer)
        let before = try IndexedJSON(Array(older.utf8))
        let after = try IndexedJSON(Array(newer.utf8), after: before)
        // Every element both hold is copied from the older text (found at its place there), none read again.
        var element = after.firstChild(after.firstChild(0))
        var copied = 0
        while element >= 0 {
            if after.nodes[element].older >= 0 { copied += 1 }
            element = after.nextSibling(element)
        }
        #expect(copied == 497)
        let operations = try JSONPatch.diff(from: before, to: after)
        #expect(operations.count == 6, "\(operations.map(\.name))")
        #expect(operations.prefix(3).allSatisfy { $0 == .remove(path: "/messages/0") })
        let moved = try JSONPatch.apply(operations, to: try JSONParser.parse(Array(older.utf8)))
        #expect(moved.isEquivalent(to: try JSONParser.parse(Array(newer.utf8))))
    }

    @Test func aNumberOrLiteralIsTakenOnlyWhereItEndsInBoth() throws {
        for (older, newer) in [
            (#"{"a":12,"b":[1,2]}"#, #"{"a":123,"b":[1,2]}"#),
            (#"[1,2]"#, #"[12]"#),
            (#"[1,2,3]"#, #"[1,2,34]"#),
            (#"{"a":1,"b":2,"c":[]}"#, #"{"a":1,"b":23,"c":[]}"#),
            (#"[true,null]"#, #"[truex,null]"#),
            (#"[1,2]"#, #"[1 ,2 ]"#),
            (#"{"a":"x\"y","b":1}"#, #"{"a":"x\"y z","b":1}"#),
            (#"{"a":[[1]],"b":{}}"#, #"{"b":{},"a":[[1]]}"#),
            (#"{"a":{"b":1}}"#, #"[{"b":1}]"#),
        ] {
            try Self.expectSameIndex(older, newer)
        }
    }

    @Test func aDamagedTextFailsAsItWouldAlone() throws {
        let older = #"{"list":[1,{"a":"b"},[true,false]],"name":"x","n":-1.5e3}"#
        let newer = #"{"list":[1,{"a":"b"},[true,false],7],"name":"x","n":-1.5e3}"#
        for cut in 0..<newer.utf8.count {
            try Self.expectSameIndex(older, String(decoding: Array(newer.utf8)[0..<cut], as: UTF8.self))
        }
        try Self.expectSameIndex(older, newer + " x")
        try Self.expectSameIndex(older, String(repeating: "[", count: 600) + String(repeating: "]", count: 600))
    }

    @Test func namesSpelledWithEscapesAreTheSameMembers() throws {
        let operations = try JSONPatch.diff(from: Array(#"{"a\u0062":1,"c":2}"#.utf8), to: Array(#"{"ab":3,"c":2}"#.utf8))
        #expect(operations == [.replace(path: "/ab", value: .number(3))])
    }
}
