import Foundation
@testable import SQLiteStorage
import Testing
import TestSupport
@testable import ViewModelCore

/// How the SQLite store keeps a session's whole value (docs/JOURNAL.md): compressed JSON that reads back to the
/// same bytes, the bare JSON of earlier releases still read, and anything else refused with a reason.
struct StoredValueFormatTests {
    static func core() throws -> SessionCore {
        var core = SessionCore(
            settings: SessionSettings(), random: .seeded(3), features: [InitialFeature(Tally.key, state: Tally.State())])
        for amount in 1...40 {
            _ = try core.submit(
                Submission(events: [Tally.Event.add(amount)], idempotency: nil), to: Tally.key,
                at: Date(timeIntervalSinceReferenceDate: 817_503_449 + Double(amount)))
        }
        return core
    }

    @Test func aValueReadsBackToItsJSONAndIsSmaller() throws {
        let core = try Self.core()
        let json = try StoredJSON.encode(core)
        let stored = try StoredValueFormat.encode(core)
        #expect(stored.first == StoredValueFormat.version)
        #expect(try StoredValueFormat.json(Data(stored)) == json)
        #expect(stored.count < json.count)
    }

    @Test func theBareJSONOfEarlierReleasesReadsAsItIs() throws {
        let json = try JSONEncoder().encode(try Self.core())
        #expect(try StoredValueFormat.json(json) == json)
    }

    @Test func whatIsNotAStoredValueIsRefusedWithAReason() throws {
        let stored = try StoredValueFormat.encode(try Self.core())
        #expect(throws: StoredValueFormat.Unreadable.self) { try StoredValueFormat.json(Data()) }
        for length in [1, 4, 5, stored.count / 2, stored.count - 1] {
            #expect(throws: StoredValueFormat.Unreadable.self, "cut at \(length)") {
                try StoredValueFormat.json(Data(stored.prefix(length)))
            }
        }
        var newer = stored
        newer[0] = StoredValueFormat.version + 1
        let error = #expect(throws: StoredValueFormat.Unreadable.self) { try StoredValueFormat.json(Data(newer)) }
        #expect(error?.description.contains("is not one this build reads") == true)
        var flipped = stored
        flipped[stored.count / 2] ^= 0xFF
        #expect(throws: StoredValueFormat.Unreadable.self) { try StoredValueFormat.json(Data(flipped)) }
    }
}
