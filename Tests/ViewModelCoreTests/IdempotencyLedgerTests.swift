import Foundation
import Testing

@testable import ViewModelCore

/// The idempotency ledger as a value: copies are independent, and one no other shares changes in place.
struct IdempotencyLedgerTests {
    let start = Date(timeIntervalSince1970: 1_795_442_400)

    /// Ledgers share what they remember until one of them changes it.
    @Test func aCopiedLedgerChangesApartFromTheOriginal() {
        var original = IdempotencyLedger()
        original.record(key: "k1", fingerprint: "f", answer: .init(accepted: 1, version: 2), at: start)
        original.markApplied(eventID: "e1")
        var copy = original
        copy.record(key: "k2", fingerprint: "f", answer: .init(accepted: 1, version: 3), at: start)
        copy.markApplied(eventID: "e2")
        #expect(original.lookup(key: "k2", fingerprint: "f", now: start) == .new)
        #expect(!original.hasApplied(eventID: "e2"))
        #expect(copy.lookup(key: "k1", fingerprint: "f", now: start) == .replay(.init(accepted: 1, version: 2)))
        #expect(copy.hasApplied(eventID: "e1") && copy.hasApplied(eventID: "e2"))
        #expect(original != copy)
        #expect(IdempotencyLedger() == IdempotencyLedger())
    }

    /// A ledger no other shares changes in place: copying on every change would copy up to 1,024 event ids and
    /// 256 keys for each event a client sends with an id or a key.
    @Test func anUnsharedLedgerChangesInPlace() {
        var ledger = IdempotencyLedger()
        #expect(ledger.boxIdentity == nil)
        ledger.markApplied(eventID: "e1")
        let first = ledger.boxIdentity
        #expect(first != nil)
        ledger.markApplied(eventID: "e2")
        ledger.record(key: "k", fingerprint: "f", answer: .init(accepted: 1, version: 2), at: start)
        #expect(ledger.boxIdentity == first)
        let copy = ledger
        ledger.markApplied(eventID: "e3")
        #expect(ledger.boxIdentity != first)
        #expect(copy.boxIdentity == first && !copy.hasApplied(eventID: "e3"))
    }
}
