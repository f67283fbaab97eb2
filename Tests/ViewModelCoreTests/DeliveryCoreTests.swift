import Foundation
import Testing
import TestSupport
import ViewHostAPI
import ViewModelCore

/// Deliveries between sessions in the session value: a delivery is an effect kept in the sender's value until
/// acknowledged, applied once by the receiver (each number once, in order), and each side's inputs replay its side
/// alone, byte for byte.
struct DeliveryCoreTests {
    static let start = Date(timeIntervalSince1970: 1_795_442_400)
    static let key = LettersApp.key

    static func session() -> SessionCore {
        SessionCore(settings: SessionSettings(), random: .seeded(3), features: [InitialFeature(key, state: LettersApp.State())])
    }

    /// Alice and Bob as two session values that met (Bob redeemed Alice's invitation), with every input each
    /// applied, as its journal records it.
    struct Pair {
        var alice = DeliveryCoreTests.session()
        var bob = DeliveryCoreTests.session()
        var aliceInputs: [SessionInput] = []
        var bobInputs: [SessionInput] = []
        let toBob = ContactAddress("c-bob")
        let toAlice = ContactAddress("c-alice")
        var clock = DeliveryCoreTests.start

        init() throws {
            let input = SessionInput.introduction(
                feature: "letters", at: clock, contact: toAlice, name: "Alice", introducing: "Bob")
            try bob.replay(input)
            bobInputs.append(input)
            try carry(from: .bob)
        }

        enum Side { case alice, bob }

        /// A client's letter from `side` to the other.
        mutating func write(_ text: String, from side: Side) throws {
            clock += 1
            let name = side == .alice ? "Bob" : "Alice"
            let input = SessionInput.submission(
                feature: "letters", at: clock,
                events: try alice.encodeEvents([LettersApp.Event.write(to: name, text: text)], of: "letters"), eventIDs: [nil],
                key: nil, fingerprint: nil)
            if side == .alice {
                try alice.replay(input)
                aliceInputs.append(input)
            } else {
                try bob.replay(input)
                bobInputs.append(input)
            }
        }

        /// Takes `side`'s deliveries to the other, applies them there and acknowledges them, as the courier does.
        mutating func carry(from side: Side, times: Int = 1) throws {
            let sender = side == .alice ? alice : bob
            for batch in try sender.deliveryBatches(upTo: nil) {
                clock += 1
                let from = side == .alice ? toAlice : toBob
                let delivery = SessionInput.delivery(
                    feature: batch.feature, at: clock, from: from, number: batch.first, introduction: batch.introduction,
                    events: IncomingDelivery(batch, from: from).events)
                var receiver = side == .alice ? bob : alice
                if try receiver.replay(delivery) != nil {
                    if side == .alice { bobInputs.append(delivery) } else { aliceInputs.append(delivery) }
                }
                // Delivered again (the sender did not hear back): nothing new is applied.
                for _ in 1..<max(1, times) { #expect(try receiver.replay(delivery) == nil) }
                if side == .alice { bob = receiver } else { alice = receiver }
                let ack = SessionInput.acknowledgement(feature: batch.feature, at: clock, to: batch.to, through: batch.last, failure: nil)
                if side == .alice {
                    try alice.replay(ack)
                    aliceInputs.append(ack)
                } else {
                    try bob.replay(ack)
                    bobInputs.append(ack)
                }
            }
        }
    }

    @Test func aContactIsMadeOnEachSideOnce() throws {
        let pair = try Pair()
        #expect(pair.bob.state(of: Self.key)?.contacts.map(\.name) == ["Alice"])
        #expect(pair.alice.state(of: Self.key)?.contacts.map(\.name) == ["Bob"])
        #expect(pair.alice.state(of: Self.key)?.contacts.first?.address == pair.toBob)
        #expect(pair.bob.pendingDeliveryCount == 0)
        // Made again (a redeem repeated): nothing changes, nothing to journal.
        var bob = pair.bob
        #expect(try bob.introduce(Contact(name: "Alice", address: pair.toAlice), in: "letters", as: "Bob", at: Self.start) == nil)
    }

    @Test func aLetterIsAppliedOnceAndInOrderThoughDeliveredTwice() throws {
        var pair = try Pair()
        for index in 1...5 { try pair.write("letter \(index)", from: .alice) }
        #expect(pair.alice.deliveries(of: Self.key).map(\.number) == [1, 2, 3, 4, 5])
        #expect(pair.alice.deliveries(of: Self.key).map(\.to) == Array(repeating: pair.toBob, count: 5))
        #expect(pair.alice.nextTimerDue == Self.start + 2, "a session with deliveries waiting is due: a restart loads it")
        try pair.carry(from: .alice, times: 2)
        #expect(pair.bob.state(of: Self.key)?.received.map(\.text) == (1...5).map { "letter \($0)" })
        #expect(pair.bob.state(of: Self.key)?.received.allSatisfy { $0.from == "Alice" } == true)
        #expect(pair.alice.pendingDeliveryCount == 0)
        #expect(pair.alice.nextTimerDue == nil)
        // The receiver's log: source session, no cause across sessions.
        let letters = pair.bob.log.entries(after: 0).filter { $0.event == "letter" }
        #expect(letters.count == 5)
        #expect(letters.allSatisfy { $0.source == .session && $0.causedBy == nil })
        // ...and who sent each, by the name the contact was introduced by (never another session's id).
        #expect(letters.first?.summary == #"from="Alice" text="letter 1""#)
        #expect(pair.alice.log.entries(after: 0).first { $0.event == "met" }?.summary == #"from="Bob" Bob"#)
        // A delivery of numbers applied before changes nothing.
        var bob = pair.bob
        let repeated = IncomingDelivery(
            feature: "letters", from: pair.toAlice, first: 2,
            introduction: nil, events: try pair.alice.encodeEvents([LettersApp.Event.letter(text: "again")], of: "letters"))
        #expect(try bob.receive(repeated, at: Self.start) == nil)
        #expect(bob == pair.bob)
    }

    /// A batch sent again with more behind it (the sender did not hear back before it had more to deliver) is
    /// journaled without what was applied before: each delivered event is in the receiver's journal once.
    @Test func aBatchSentAgainIsRecordedWithoutWhatWasAppliedBefore() throws {
        var pair = try Pair()
        for index in 1...3 { try pair.write("letter \(index)", from: .alice) }
        let batch = try #require(pair.alice.deliveryBatches(upTo: nil).first)
        let applied = IncomingDelivery(
            feature: "letters", from: pair.toAlice, first: batch.first, introduction: nil,
            events: try pair.alice.encodeEvents(
                [LettersApp.Event.letter(text: "letter 1"), LettersApp.Event.letter(text: "letter 2")], of: "letters"))
        var bob = pair.bob
        #expect(try bob.receive(applied, at: Self.start + 10) != nil)
        let again = IncomingDelivery(batch, from: pair.toAlice)
        let unapplied = try #require(try bob.unapplied(again))
        #expect(unapplied.first == batch.first + 2)
        #expect((try JSONSerialization.jsonObject(with: unapplied.events) as? [Any])?.count == 1)
        #expect(try bob.unapplied(applied) == nil, "every number applied before: nothing to journal")
        #expect(try pair.bob.unapplied(again) == again, "nothing applied yet: the batch as it came")
        _ = try bob.receive(unapplied, at: Self.start + 11)
        #expect(bob.state(of: Self.key)?.received.map(\.text) == ["letter 1", "letter 2", "letter 3"])
    }

    @Test func eachSideReplaysFromItsOwnJournalAlone() throws {
        var pair = try Pair()
        try pair.write("hello", from: .alice)
        try pair.write("hi", from: .bob)
        try pair.carry(from: .alice)
        try pair.carry(from: .bob)
        for (value, inputs) in [(pair.alice, pair.aliceInputs), (pair.bob, pair.bobInputs)] {
            var replayed = Self.session()
            for input in inputs {
                // Through the record format, as a store keeps it.
                try replayed.replay(JournalRecordFormat.decode(JournalRecordFormat.encode(input)))
            }
            #expect(replayed == value)
        }
        #expect(pair.bobInputs.map(\.kind) == ["introduction", "acknowledgement", "submission", "delivery", "acknowledgement"])
    }

    @Test func theStoredValueKeepsTheOutboxAndTheNumbers() throws {
        var pair = try Pair()
        try pair.write("kept", from: .alice)
        let data = try JSONEncoder().encode(pair.alice)
        let decoded = try FeatureTypes([LettersApp.self]).jsonDecoder().decode(SessionCore.self, from: data)
        #expect(decoded == pair.alice)
        #expect(decoded.deliveries(of: Self.key).map(\.event) == [.letter(text: "kept")])
        // A value that never made a contact is stored as before: no outbox, no links.
        let plain = String(decoding: try JSONEncoder().encode(Self.session()), as: UTF8.self)
        #expect(!plain.contains("outbox") && !plain.contains("links"))
    }

    @Test func aBlockedContactsLettersAreDroppedSilently() throws {
        var pair = try Pair()
        var bob = pair.bob
        try bob.replay(
            .submission(
                feature: "letters", at: Self.start + 1, events: try bob.encodeEvents([LettersApp.Event.block("Alice")], of: "letters"),
                eventIDs: [nil], key: nil, fingerprint: nil))
        pair.bob = bob
        try pair.write("spam", from: .alice)
        try pair.carry(from: .alice)
        #expect(pair.bob.state(of: Self.key)?.received.isEmpty == true)
        #expect(pair.alice.pendingDeliveryCount == 0)
        #expect(pair.alice.state(of: Self.key)?.undelivered.isEmpty == true, "the sender is not told")
    }

    @Test func aFailedDeliveryComesBackAsTheFeaturesEvent() throws {
        var pair = try Pair()
        try pair.write("lost", from: .alice)
        let step = pair.alice.acknowledge("letters", to: pair.toBob, through: 1, failure: .ended, at: Self.start + 10)
        #expect(step?.changes.isEmpty == false)
        #expect(pair.alice.state(of: Self.key)?.undelivered == ["lost to Bob: ended"])
        let bounce = pair.alice.log.entries(after: 0).last
        #expect(bounce?.event == "bounced" && bounce?.source == .session)
        #expect(bounce?.causedBy == pair.alice.log.entries(after: 0).first { $0.event == "write" }?.seq)
        #expect(pair.alice.acknowledge("letters", to: pair.toBob, through: 1, failure: .ended, at: Self.start + 11) == nil)
    }

    @Test func aBatchThatWouldLeaveTooManyDeliveriesWaitingIsRefusedWhole() throws {
        var pair = try Pair()
        var alice = pair.alice
        let letters = (1...5).map { LettersApp.Event.write(to: "Bob", text: "\($0)") }
        #expect(throws: SessionError.deliveriesWaiting(limit: 4)) {
            try alice.submit(Submission(events: letters), to: Self.key, at: Self.start + 1, maxPendingDeliveries: 4)
        }
        #expect(alice == pair.alice, "nothing applied")
        _ = try alice.submit(Submission(events: Array(letters.prefix(4))), to: Self.key, at: Self.start + 1, maxPendingDeliveries: 4)
        #expect(throws: SessionError.deliveriesWaiting(limit: 4)) {
            try alice.submit(Submission(events: [letters[4]]), to: Self.key, at: Self.start + 2, maxPendingDeliveries: 4)
        }
        pair.alice = alice
        try pair.carry(from: .alice)
        _ = try pair.alice.submit(Submission(events: [letters[4]]), to: Self.key, at: Self.start + 20, maxPendingDeliveries: 4)
    }

    @Test func anImportedCopyHoldsNoDeliveryAndNoNumbers() throws {
        var pair = try Pair()
        try pair.write("pending", from: .alice)
        let copy = pair.alice.droppingDeliveries()
        #expect(copy.pendingDeliveryCount == 0)
        #expect(!copy.knows(pair.toBob, in: "letters"))
        #expect(copy.state(of: Self.key) == pair.alice.state(of: Self.key), "the conversation stays")
    }

    @Test func recordsOfEveryNewKindReadBackAndAreRefusedWhenMalformed() throws {
        let inputs: [SessionInput] = [
            .delivery(feature: "letters", at: Self.start, from: ContactAddress("c1"), number: 7, introduction: nil, events: Data("[]".utf8)),
            .delivery(feature: "letters", at: Self.start, from: ContactAddress("c1"), number: 1, introduction: "Zoë", events: Data("[]".utf8)),
            .introduction(feature: "letters", at: Self.start, contact: ContactAddress("c2"), name: "Al", introducing: "Bo"),
            .acknowledgement(feature: "letters", at: Self.start, to: ContactAddress("c2"), through: 3, failure: nil),
            .acknowledgement(feature: "letters", at: Self.start, to: ContactAddress("c2"), through: 3, failure: .full),
        ]
        for input in inputs { #expect(try JournalRecordFormat.decode(JournalRecordFormat.encode(input)) == input) }
        var bad = JournalRecordFormat.encode(inputs[4])
        bad[bad.count - 1] = 9
        #expect(throws: JournalRecordFormat.ReadError.malformed("delivery failure 9")) { try JournalRecordFormat.decode(bad) }
    }

    /// `inputs` as a journal export from a new session made at ``start``.
    static func export(_ inputs: [SessionInput]) throws -> [UInt8] {
        var writer = try JournalExportWriter(
            session: SessionID("s"), createdAt: start, exportedAt: start + 100, base: session(), number: 0)
        var bytes = writer.header
        for (index, input) in inputs.enumerated() { bytes += try writer.line(for: JournalRecord(number: index + 1, input: input)) }
        return bytes + (try writer.end())
    }

    @Test func eachSidesExportReadsBackAloneAndItsContactLinesAreHeldToWhatTheLibraryWrites() throws {
        var pair = try Pair()
        try pair.write("hello", from: .alice)
        try pair.carry(from: .alice)
        for (value, inputs) in [(pair.alice, pair.aliceInputs), (pair.bob, pair.bobInputs)] {
            let bytes = try Self.export(inputs)
            let imported = try JournalImport.read(bytes, types: FeatureTypes([LettersApp.self]), now: Self.start + 100)
            #expect(imported.final == value)
        }
        let text = String(decoding: try Self.export(pair.bobInputs), as: UTF8.self)
        #expect(text.contains(#""kind":"delivery""#) && text.contains(#""source":"session""#))
        #expect(text.contains(#""contact":"c-alice","delivery":1,"introduction":null"#))
        let lines: [(String, String, String)] = [
            (#""contact":"c-alice""#, #""contact":"c alice""#, "'contact' must be 1 to 64 visible ASCII characters"),
            (#""delivery":1"#, #""delivery":0"#, "'delivery' must be an integer, 1 to"),
            (#""name":"Alice""#, #""name":"""#, "'name' must be a name of 1 to 64 characters"),
            (#""failure":null"#, #""failure":"lost""#, "'failure' must be null or one of ended, full, unknownAddress"),
        ]
        for (original, forged, reason) in lines {
            let bytes = ForgedExport.forge(try Self.export(pair.bobInputs)) { lines in
                lines = lines.map { $0.replacingOccurrences(of: original, with: forged) }
            }
            do {
                _ = try JournalImport.read(bytes, types: FeatureTypes([LettersApp.self]), now: Self.start + 100)
                Issue.record("\(forged) was read")
            } catch {
                #expect(error.reason.contains(reason), "\(error)")
            }
        }
    }
}
