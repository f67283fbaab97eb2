import Foundation
import Testing
@testable import ViewModelCore

/// The journal's record format (docs/JOURNAL.md): every kind of input comes back as it was, records of the format
/// before (JSON) still read, and bytes that are not a whole record are refused, never misread.
struct JournalRecordFormatTests {
    static let at = Date(timeIntervalSinceReferenceDate: 817_503_449.122_365_8)

    static let inputs: [SessionInput] = [
        .submission(
            feature: "chat", at: at, events: Data(#"[{"send":{"text":"Bring the cake"}}]"#.utf8), eventIDs: [nil],
            key: nil, fingerprint: nil),
        .submission(
            feature: "person", at: at, events: Data(#"{"events":[{"a":1},{"b":"ü/\u0000"}],"schema":2}"#.utf8),
            eventIDs: ["e-1", nil, ""], key: "key-1", fingerprint: String(repeating: "f", count: 64)),
        .events(feature: "weather", at: at, source: .client, events: Data("[]".utf8)),
        .events(feature: "weather", at: at, source: .timer, events: Data("[1]".utf8)),
        .events(feature: "chat", at: at, source: .simulator, events: Data("[2]".utf8)),
        .events(feature: "weather", at: at, source: .provider, events: Data("[3]".utf8)),
        .events(feature: "login", at: .distantPast, source: .view, events: Data(repeating: 0x41, count: 300)),
        .timer(id: 0, at: at),
        .timer(id: Int.max, at: .distantFuture),
        .answer(feature: "weather", at: at, request: 12_345_678, events: Data(#"[{"forecast":null}]"#.utf8)),
        .events(feature: "chat", at: at, source: .session, events: Data("[4]".utf8)),
        .delivery(
            feature: "chat", at: at, from: ContactAddress("c7"), number: 41, introduction: nil,
            events: Data(#"[{"letter":{"text":"hi"}}]"#.utf8)),
        .delivery(feature: "chat", at: at, from: ContactAddress("c7"), number: 1, introduction: "Zoë", events: Data("[]".utf8)),
        .introduction(feature: "chat", at: at, contact: ContactAddress("c8"), name: "Alice", introducing: "Bob"),
        .acknowledgement(feature: "chat", at: at, to: ContactAddress("c8"), through: 9, failure: nil),
        .acknowledgement(feature: "chat", at: at, to: ContactAddress("c8"), through: 9, failure: .unknownAddress),
        .submission(
            feature: "person", at: at, events: Data("[5]".utf8), eventIDs: [nil], key: "key-2",
            fingerprint: nil, participant: "pbea"),
        .participation(at: at, kind: .invited, id: "jInvitation1"),
        .participation(at: at, kind: .withdrawn, id: "jInvitation1"),
        .participation(at: at, kind: .joined, id: "pbea"),
        .participation(at: at, kind: .removed, id: "pbea"),
        .participation(at: at, kind: .left, id: String(repeating: "z", count: 32)),
    ]

    /// A participation is kind 9: the kind's code (invited 1, withdrawn 2, joined 3, removed 4, left 5; never
    /// renumbered), then the id; an unknown code is refused.
    @Test func aParticipationIsKindNineWithItsCodeAndId() throws {
        for (kind, code) in zip(Participation.allCases, [UInt8]([1, 2, 3, 4, 5])) {
            let record = JournalRecordFormat.encode(.participation(at: Self.at, kind: kind, id: "pbea"))
            #expect(record[1] == 9)
            #expect(record[10] == code)
            #expect(Array(record[11...]) == [4] + Array("pbea".utf8))
        }
        var unknown = JournalRecordFormat.encode(.participation(at: Self.at, kind: .left, id: "pbea"))
        unknown[10] = 6
        #expect(throws: JournalRecordFormat.ReadError.malformed("participation 6")) {
            try JournalRecordFormat.decode(unknown)
        }
    }

    @Test(arguments: inputs)
    func everyKindOfInputComesBackAsItWas(_ input: SessionInput) throws {
        let record = JournalRecordFormat.encode(input)
        #expect(record.first == JournalRecordFormat.version)
        #expect(try JournalRecordFormat.decode(record) == input)
        // The events are the feature's JSON as they are, not base64 inside JSON.
        if case .submission(_, _, let events, _, _, _, _) = input {
            #expect(record.count < 64 + events.count + 100)
            #expect(Data(record).range(of: events) != nil)
        }
    }

    @Test(arguments: inputs)
    func recordsOfTheFormatBeforeStillRead(_ input: SessionInput) throws {
        // Written by every earlier release: Foundation's JSONEncoder, then StoredJSON.
        #expect(try JournalRecordFormat.decode(JSONEncoder().encode(input)) == input)
        #expect(try JournalRecordFormat.decode(StoredJSON.encode(input)) == input)
    }

    /// A submission by the owner is written as before participants existed (kind 1, nothing more), so a store or
    /// an older build reads it alike; one by a participant is a kind of its own, ending with its id.
    @Test func onlyAParticipantsSubmissionIsAttributedAKindOfItsOwn() throws {
        let owner = SessionInput.submission(
            feature: "person", at: Self.at, events: Data("[5]".utf8), eventIDs: [nil], key: nil, fingerprint: nil)
        let bea = SessionInput.submission(
            feature: "person", at: Self.at, events: Data("[5]".utf8), eventIDs: [nil], key: nil, fingerprint: nil,
            participant: "pbea")
        let plain = JournalRecordFormat.encode(owner)
        let attributed = JournalRecordFormat.encode(bea)
        #expect(plain[1] == 1)
        #expect(attributed[1] == 8)
        #expect(Array(attributed[2...].dropLast(5)) == Array(plain[2...]), "the same fields, then the participant")
        #expect(try JournalRecordFormat.decode(attributed) == bea)
    }

    @Test func aRecordIsSmallerThanItsJSON() throws {
        for input in Self.inputs {
            #expect(JournalRecordFormat.encode(input).count < (try JSONEncoder().encode(input)).count)
        }
    }

    @Test func everyCutOfARecordIsRefused() throws {
        for input in Self.inputs {
            let record = JournalRecordFormat.encode(input)
            for length in 0..<record.count {
                #expect(throws: (any Error).self, "\(input) cut at \(length)") {
                    try JournalRecordFormat.decode(record.prefix(length))
                }
            }
            #expect(throws: JournalRecordFormat.ReadError.self) { try JournalRecordFormat.decode(record + [0]) }
        }
    }

    @Test func aNewerFormatOrAnUnknownKindOrSourceIsRefusedNamingIt() throws {
        var record = JournalRecordFormat.encode(Self.inputs[2])
        record[0] = JournalRecordFormat.version + 1
        #expect(throws: JournalRecordFormat.ReadError.newerFormat(JournalRecordFormat.version + 1)) {
            try JournalRecordFormat.decode(record)
        }
        #expect("\(JournalRecordFormat.ReadError.newerFormat(2))".contains("newer than this build reads"))
        record[0] = 0
        #expect(throws: JournalRecordFormat.ReadError.malformed("format 0")) { try JournalRecordFormat.decode(record) }
        record = JournalRecordFormat.encode(Self.inputs[2])
        record[1] = 10
        #expect(throws: JournalRecordFormat.ReadError.malformed("kind 10")) { try JournalRecordFormat.decode(record) }
        // The source follows the version, kind, time (8 bytes) and the feature's name (a length and "weather").
        record = JournalRecordFormat.encode(Self.inputs[2])
        record[2 + 8 + 1 + 7] = 7
        #expect(throws: JournalRecordFormat.ReadError.malformed("source 7")) { try JournalRecordFormat.decode(record) }
        #expect(throws: JournalRecordFormat.ReadError.malformed("it is empty")) { try JournalRecordFormat.decode([]) }
    }

    @Test func flippedBytesAreRefusedOrReadAsSomeInputNeverACrash() throws {
        var generator = SystemRandomNumberGenerator()
        for input in Self.inputs {
            let record = JournalRecordFormat.encode(input)
            for _ in 0..<200 {
                var flipped = record
                let index = Int.random(in: 1..<flipped.count, using: &generator)
                flipped[index] ^= UInt8.random(in: 1...255, using: &generator)
                // A flip inside a name or the events reads as another input (the store's checks are not the
                // format's); a flip in a length or a marker must be refused, not read past the record.
                _ = try? JournalRecordFormat.decode(flipped)
            }
        }
    }

    /// The stored shape made from the encoder's bytes (the events of every client request) is the shape made from
    /// a `Data` (imports, the stores): the bare array at version 1, the array wrapped with its version past it.
    @Test(arguments: [1, 2, 12])
    func eventsStoredFromBytesTakeTheShapeOfEventsStoredFromData(schema: Int) {
        let array = Array(#"[{"add":{"_0":5}}]"#.utf8)
        let fromBytes = StoredEventsShape.data(array: array, schema: schema)
        #expect(fromBytes == StoredEventsShape.data(array: Data(array), schema: schema))
        let expected = schema == 1 ? #"[{"add":{"_0":5}}]"# : #"{"schema":\#(schema),"events":[{"add":{"_0":5}}]}"#
        #expect(String(decoding: fromBytes, as: UTF8.self) == expected)
    }
}
