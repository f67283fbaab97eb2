import TestSupport
import Testing
import ViewHostJSON

/// JSON Patch (RFC 6902): the RFC's own examples applied, patches made from two documents that turn the first into
/// the second (thousands of random pairs), and the small patches the server relies on for growing lists.
@Suite struct JSONPatchTests {
    private static func parse(_ text: String) throws -> JSONValue {
        try JSONParser.parse(Array(text.utf8), maxDepth: 64)
    }

    private static func patch(_ text: String) throws -> [JSONPatch.Operation] {
        try JSONPatch.operations(parse(text))
    }

    private static func expectApplies(
        _ patch: String, to document: String, giving expected: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try JSONPatch.apply(Self.patch(patch), to: parse(document))
        #expect(result.isEquivalent(to: try parse(expected)), "\(String(decoding: result.json, as: UTF8.self))",
            sourceLocation: sourceLocation)
    }

    // MARK: - RFC 6902, appendix A

    @Test func theRFCsExamplesApply() throws {
        try Self.expectApplies(#"[{"op":"add","path":"/baz","value":"qux"}]"#, to: #"{"foo":"bar"}"#, giving: #"{"baz":"qux","foo":"bar"}"#)
        try Self.expectApplies(#"[{"op":"add","path":"/foo/1","value":"qux"}]"#, to: #"{"foo":["bar","baz"]}"#, giving: #"{"foo":["bar","qux","baz"]}"#)
        try Self.expectApplies(#"[{"op":"remove","path":"/baz"}]"#, to: #"{"baz":"qux","foo":"bar"}"#, giving: #"{"foo":"bar"}"#)
        try Self.expectApplies(#"[{"op":"remove","path":"/foo/1"}]"#, to: #"{"foo":["bar","qux","baz"]}"#, giving: #"{"foo":["bar","baz"]}"#)
        try Self.expectApplies(#"[{"op":"replace","path":"/baz","value":"boo"}]"#, to: #"{"baz":"qux","foo":"bar"}"#, giving: #"{"baz":"boo","foo":"bar"}"#)
        try Self.expectApplies(
            #"[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]"#,
            to: #"{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}"#,
            giving: #"{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}"#)
        try Self.expectApplies(#"[{"op":"move","from":"/foo/1","path":"/foo/3"}]"#, to: #"{"foo":["all","grass","cows","eat"]}"#,
            giving: #"{"foo":["all","cows","eat","grass"]}"#)
        try Self.expectApplies(#"[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]"#,
            to: #"{"baz":"qux","foo":["a",2,"c"]}"#, giving: #"{"baz":"qux","foo":["a",2,"c"]}"#)
        try Self.expectApplies(#"[{"op":"add","path":"/child","value":{"grandchild":{}}}]"#, to: #"{"foo":"bar"}"#,
            giving: #"{"foo":"bar","child":{"grandchild":{}}}"#)
        try Self.expectApplies(#"[{"op":"add","path":"/foo/-","value":["abc","def"]}]"#, to: #"{"foo":["bar"]}"#,
            giving: #"{"foo":["bar",["abc","def"]]}"#)
        try Self.expectApplies(#"[{"op":"add","path":"/~1a~0b","value":1}]"#, to: "{}", giving: #"{"/a~b":1}"#)
        try Self.expectApplies(#"[{"op":"copy","from":"/a","path":"/b"}]"#, to: #"{"a":[1]}"#, giving: #"{"a":[1],"b":[1]}"#)
        try Self.expectApplies(#"[{"op":"replace","path":"","value":[1]}]"#, to: #"{"a":1}"#, giving: "[1]")
    }

    @Test func patchesThatCannotApplyNameTheOperation() throws {
        let cases: [(patch: String, document: String, index: Int)] = [
            (#"[{"op":"test","path":"/baz","value":"bar"}]"#, #"{"baz":"qux"}"#, 0),
            (#"[{"op":"add","path":"/a","value":1},{"op":"add","path":"/baz/bat","value":"qux"}]"#, #"{"foo":"bar"}"#, 1),
            (#"[{"op":"remove","path":"/missing"}]"#, "{}", 0),
            (#"[{"op":"add","path":"/a/5","value":1}]"#, #"{"a":[1,2]}"#, 0),
            (#"[{"op":"replace","path":"/a/01","value":1}]"#, #"{"a":[1,2]}"#, 0),
            (#"[{"op":"move","from":"/a","path":"/a/b"}]"#, #"{"a":{}}"#, 0),
            (#"[{"op":"add","path":"a","value":1}]"#, "{}", 0),
        ]
        for item in cases {
            #expect(throws: JSONPatch.Failure.self, "\(item.patch)") {
                _ = try JSONPatch.apply(Self.patch(item.patch), to: Self.parse(item.document))
            }
            let operations = try Self.patch(item.patch)
            let document = try Self.parse(item.document)
            do throws(JSONPatch.Failure) {
                _ = try JSONPatch.apply(operations, to: document)
            } catch {
                #expect(error.index == item.index, "\(item.patch): \(error)")
            }
        }
    }

    @Test func documentsThatAreNotPatchesAreRefused() throws {
        for text in [#"{"op":"add"}"#, #"[{"op":"frobnicate","path":""}]"#, #"[{"op":"add","path":"/a"}]"#, #"[{"path":"/a"}]"#, #"[{"op":"move","path":"/a"}]"#] {
            #expect(throws: JSONPatch.Failure.self, "\(text)") { _ = try Self.patch(text) }
        }
    }

    // MARK: - Making patches

    @Test func equalDocumentsNeedNoOperation() throws {
        let document = try Self.parse(#"{"a":[1,{"b":null}],"c":"d"}"#)
        #expect(JSONPatch.diff(from: document, to: document).isEmpty)
        #expect(JSONPatch.diff(from: document, to: try Self.parse(#"{"c":"d","a":[1,{"b":null}]}"#)).isEmpty)
    }

    @Test func aMessageAppendedToAListIsOneAdd() throws {
        let messages = (0..<200).map { #"{"id":\#($0),"text":"message \#($0)","status":"sent"}"# }
        let before = try Self.parse(#"{"version":7,"messages":[\#(messages.joined(separator: ","))]}"#)
        let after = try Self.parse(
            #"{"version":8,"messages":[\#(messages.joined(separator: ",")),{"id":200,"text":"new","status":"sending"}]}"#)
        let operations = JSONPatch.diff(from: before, to: after)
        #expect(operations == [
            .replace(path: "/version", value: .number(8)),
            .add(path: "/messages/200", value: try Self.parse(#"{"id":200,"text":"new","status":"sending"}"#)),
        ])
        #expect(JSONPatch.json(operations).count < 200, "against \(after.json.count) bytes whole")
    }

    @Test func aWindowThatMovesIsRemovesAndAddsNotAReplacementOfEveryElement() throws {
        let before = try Self.parse("[" + (0..<50).map { #"{"n":\#($0)}"# }.joined(separator: ",") + "]")
        let after = try Self.parse("[" + (3..<53).map { #"{"n":\#($0)}"# }.joined(separator: ",") + "]")
        let operations = JSONPatch.diff(from: before, to: after)
        #expect(operations.count == 6, "\(operations)")
        #expect(try JSONPatch.apply(operations, to: before).isEquivalent(to: after))
    }

    @Test func aLongWindowThatMovesOrGrowsAtTheFrontIsAFewOperations() throws {
        // 500 elements: past what is matched element by element (`matchingBudget`), as a long chat's message window.
        func list(_ numbers: some Sequence<Int>) throws -> JSONValue {
            try Self.parse("[" + numbers.map { #"{"n":\#($0)}"# }.joined(separator: ",") + "]")
        }
        for (before, after, count) in [
            (try list(0..<500), try list(1..<501), 2),  // moved on by one
            (try list(0..<500), try list(40..<540), 80),  // by forty
            (try list(0..<500), try list([-2, -1] + Array(0..<500)), 2),  // two new first
            (try list(0..<500), try list(2..<500), 2),  // the oldest two dropped
        ] {
            let operations = JSONPatch.diff(from: before, to: after)
            #expect(operations.count == count, "\(operations.prefix(4))")
            #expect(try JSONPatch.apply(operations, to: before).isEquivalent(to: after))
        }
        // Not a move: the run after the skipped elements does not reach the end. Patched all the same.
        let before = try list(0..<500)
        let after = try list(Array(1..<250) + [7] + Array(251..<501))
        #expect(try JSONPatch.apply(JSONPatch.diff(from: before, to: after), to: before).isEquivalent(to: after))
    }

    @Test func anElementChangedInPlaceIsPatchedMemberByMember() throws {
        let before = try Self.parse(#"[{"id":1,"status":"sending"},{"id":2,"status":"sent"}]"#)
        let after = try Self.parse(#"[{"id":1,"status":"sent"},{"id":2,"status":"sent"}]"#)
        #expect(JSONPatch.diff(from: before, to: after) == [.replace(path: "/0/status", value: .string("sent"))])
    }

    @Test func namesWithSlashesAndTildesAreEscaped() throws {
        let before = try Self.parse(#"{"a/b":1,"c~d":2}"#)
        let after = try Self.parse(#"{"a/b":3}"#)
        let operations = JSONPatch.diff(from: before, to: after)
        #expect(operations == [.remove(path: "/c~0d"), .replace(path: "/a~1b", value: .number(3))])
        #expect(try JSONPatch.apply(operations, to: before).isEquivalent(to: after))
    }

    @Test func randomPairsOfDocumentsPatchIntoEachOther() throws {
        var random = SplitMix64(state: 6902)
        for round in 0..<3_000 {
            let old = Self.randomValue(&random, depth: 0)
            let new = random.next() % 4 == 0 ? Self.randomValue(&random, depth: 0) : Self.mutated(old, &random)
            let operations = JSONPatch.diff(from: old, to: new)
            let patched = try JSONPatch.apply(operations, to: old)
            #expect(patched.isEquivalent(to: new), "round \(round)")
            // And through its JSON text, as a client gets it.
            let decoded = try JSONPatch.operations(JSONParser.parse(JSONPatch.json(operations), maxDepth: 64))
            #expect(try JSONPatch.apply(decoded, to: old).isEquivalent(to: new), "round \(round)")
            if old.isEquivalent(to: new) { #expect(operations.isEmpty) }
        }
    }

    // MARK: - Writing values and reading members exactly

    @Test func wholeNumbersAreWrittenWithoutAFraction() throws {
        #expect(String(decoding: JSONValue.array([.number(3), .number(-0.5), .number(1e300), .number(2)]).json, as: UTF8.self)
            == "[3,-0.5,1e+300,2]")
    }

    @Test func membersComeWithTheExactTextOfTheirValues() throws {
        let text = Array(#" {"big": 18446744073709551615 , "list":[1, {"a":"\u00e9"}],"s":"x"} "#.utf8)
        let members = try JSONParser.members(ofObject: text)
        #expect(members.map(\.name) == ["big", "list", "s"])
        #expect(String(decoding: text[members[0].range], as: UTF8.self) == "18446744073709551615")
        #expect(String(decoding: text[members[1].range], as: UTF8.self) == #"[1, {"a":"\u00e9"}]"#)
        #expect(members[2].value == .string("x"))
        for bad in [#"[1]"#, #"{"a":1,"a":2}"#, #"{"a":1} x"#, #"{"a":}"#, ""] {
            #expect(throws: JSONParser.Failure.self, "\(bad)") { _ = try JSONParser.members(ofObject: Array(bad.utf8)) }
        }
    }

    // MARK: - Random documents

    static func randomValue(_ random: inout SplitMix64, depth: Int) -> JSONValue {
        let kind = random.next() % (depth > 3 ? 4 : 6)
        switch kind {
        case 0: return .null
        case 1: return .bool(random.next() % 2 == 0)
        case 2: return .number(Double(Int(random.next() % 200)) - 100)
        case 3: return .string(["a", "b", "c/d", "e~f", "ü", ""][Int(random.next() % 6)])
        case 4: return .array((0..<Int(random.next() % 6)).map { _ in randomValue(&random, depth: depth + 1) })
        default:
            var members: [(String, JSONValue)] = []
            for name in ["x", "y", "z", "a/b", "~"] where random.next() % 2 == 0 {
                members.append((name, randomValue(&random, depth: depth + 1)))
            }
            return .object(members)
        }
    }

    /// `value` with a few changes: members added, removed or changed, elements inserted, removed or changed.
    static func mutated(_ value: JSONValue, _ random: inout SplitMix64) -> JSONValue {
        switch value {
        case .array(var elements):
            for _ in 0..<Int(random.next() % 3) {
                switch random.next() % 3 {
                case 0: elements.insert(randomValue(&random, depth: 2), at: Int(random.next() % UInt64(elements.count + 1)))
                case 1 where !elements.isEmpty: elements.remove(at: Int(random.next() % UInt64(elements.count)))
                default:
                    if !elements.isEmpty {
                        let index = Int(random.next() % UInt64(elements.count))
                        elements[index] = mutated(elements[index], &random)
                    }
                }
            }
            return .array(elements)
        case .object(var members):
            for _ in 0..<Int(random.next() % 3) {
                switch random.next() % 3 {
                case 0:
                    let name = ["p", "q", "x", "r/s"][Int(random.next() % 4)]
                    if !members.contains(where: { $0.0 == name }) { members.append((name, randomValue(&random, depth: 2))) }
                case 1 where !members.isEmpty: members.remove(at: Int(random.next() % UInt64(members.count)))
                default:
                    if !members.isEmpty {
                        let index = Int(random.next() % UInt64(members.count))
                        members[index].1 = mutated(members[index].1, &random)
                    }
                }
            }
            return .object(members)
        default:
            return random.next() % 2 == 0 ? value : randomValue(&random, depth: 3)
        }
    }
}
