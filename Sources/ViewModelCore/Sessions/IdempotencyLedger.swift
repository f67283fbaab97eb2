import Foundation

/// What a session remembers so retried requests are not applied twice (the IETF `Idempotency-Key` draft): each
/// key with a fingerprint of the request it came with (session, method, path, body) and the answer it got, for
/// ``keyLifetime``; and the ids of events already applied (an event's own `"id"`). Both are bounded; the oldest
/// entries go first. Only requests that were applied are remembered: a refused request leaves its key unused.
public struct IdempotencyLedger: Sendable {
    /// The answer a key got: how many events the request carried and the feature's version after it.
    public struct Answer: Codable, Equatable, Sendable {
        /// Events in the request.
        public let accepted: Int
        /// The feature's version after them.
        public let version: Int

        /// Creates an answer.
        public init(accepted: Int, version: Int) {
            self.accepted = accepted
            self.version = version
        }
    }

    /// What a key means for a request.
    public enum Lookup: Equatable, Sendable {
        /// Not seen (or expired): apply the request.
        case new
        /// Seen with the same request: give its first answer again.
        case replay(Answer)
        /// Seen with a different request: refuse.
        case mismatch
    }

    private struct Entry: Codable, Equatable, Sendable {
        let key: String
        let fingerprint: String
        let answer: Answer
        let at: Date
    }

    /// How long a key is remembered: 24 hours.
    public static let keyLifetime: TimeInterval = 86_400
    /// How many keys a session remembers at most.
    public static let maxKeys = 256
    /// How many event ids a session remembers at most.
    public static let maxEventIDs = 1024
    /// The longest key or event id, in bytes.
    public static let maxKeyLength = 255

    /// Whether `text` is 1 to ``maxKeyLength`` visible ASCII characters (`^[!-~]{1,255}$`), what keys and event ids
    /// take.
    public static func isKey(_ text: String) -> Bool {
        (1...maxKeyLength).contains(text.utf8.count) && text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    /// Whether `text` is a request's fingerprint as the server makes one: a SHA-256 digest in lowercase hex (or
    /// empty, for a key recorded without one).
    public static func isFingerprint(_ text: String) -> Bool {
        (text.isEmpty || text.utf8.count == 64)
            && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// What the ledger remembers.
    private struct Kept {
        var entries: [Entry] = []
        var eventIDs: [String] = []
        /// Derived from ``entries`` and ``eventIDs`` (not stored).
        var entryIndex: [String: Entry] = [:]
        var eventIDSet: Set<String> = []
    }

    /// `Kept` in a box of its own, copied on write: most sessions never see a key or an event id, and an empty
    /// ledger is then one nil word in the session's value (and in each checkpoint of it), not four.
    private final class Box: @unchecked Sendable {
        // Mutated only through `change`, on a box no other ledger holds.
        var kept: Kept

        init(_ kept: Kept) {
            self.kept = kept
        }
    }

    private var box: Box?

    private var entries: [Entry] { box?.kept.entries ?? [] }
    private var eventIDs: [String] { box?.kept.eventIDs ?? [] }

    /// An empty ledger.
    public init() {}

    /// Changes what the ledger remembers, copying the box first when another ledger shares it.
    /// (No other reference to the box may be held while it is checked: a binding of it would make it look shared,
    /// and every change would copy everything the ledger remembers.)
    private mutating func change<Result>(_ body: (inout Kept) -> Result) -> Result {
        if box == nil {
            box = Box(Kept())
        } else if !isKnownUniquelyReferenced(&box) {
            box = Box(box!.kept)
        }
        return body(&box!.kept)
    }

    /// The box's identity (tests: a change copies the box only when another ledger shares it).
    var boxIdentity: ObjectIdentifier? { box.map(ObjectIdentifier.init) }

    /// What `key` means for a request with `fingerprint` at `now`.
    public func lookup(key: String, fingerprint: String, now: Date) -> Lookup {
        guard let entry = box?.kept.entryIndex[key], entry.at.addingTimeInterval(Self.keyLifetime) > now else {
            return .new
        }
        return entry.fingerprint == fingerprint ? .replay(entry.answer) : .mismatch
    }

    /// Remembers the answer `key` got, dropping expired and (past ``maxKeys``) the oldest keys.
    public mutating func record(key: String, fingerprint: String, answer: Answer, at now: Date) {
        change { kept in
            if kept.entryIndex[key] != nil { kept.entries.removeAll { $0.key == key } }
            let entry = Entry(key: key, fingerprint: fingerprint, answer: answer, at: now)
            kept.entries.append(entry)
            kept.entryIndex[key] = entry
            var dropped = 0
            while dropped < kept.entries.count,
                kept.entries.count - dropped > Self.maxKeys
                    || kept.entries[dropped].at.addingTimeInterval(Self.keyLifetime) <= now
            {
                kept.entryIndex[kept.entries[dropped].key] = nil
                dropped += 1
            }
            if dropped > 0 { kept.entries.removeFirst(dropped) }
        }
    }

    /// Whether an event with this id was applied already.
    public func hasApplied(eventID: String) -> Bool {
        box?.kept.eventIDSet.contains(eventID) ?? false
    }

    /// Remembers that an event with this id was applied.
    public mutating func markApplied(eventID: String) {
        change { kept in
            guard kept.eventIDSet.insert(eventID).inserted else { return }
            kept.eventIDs.append(eventID)
            if kept.eventIDs.count > Self.maxEventIDs { kept.eventIDSet.remove(kept.eventIDs.removeFirst()) }
        }
    }
}

extension IdempotencyLedger {
    /// What is wrong with a ledger read from outside (a journal export's value), naming the field; nil when a
    /// session could hold it: at most ``maxKeys`` keys and ``maxEventIDs`` ids, each a key as ``isKey(_:)`` says,
    /// fingerprints as ``isFingerprint(_:)`` says, versions within `versions`, and times within `times`.
    func problem(versions: ClosedRange<Int>, times: ClosedRange<Date>) -> ValueRejection? {
        if entries.count > Self.maxKeys {
            return ValueRejection(
                field: "entries", reason: "holds \(entries.count) keys, more than the \(Self.maxKeys) a session keeps")
        }
        if eventIDs.count > Self.maxEventIDs {
            return ValueRejection(
                field: "eventIDs",
                reason: "holds \(eventIDs.count) ids, more than the \(Self.maxEventIDs) a session keeps")
        }
        for (index, entry) in entries.enumerated() {
            let field = "entries[\(index)]"
            guard Self.isKey(entry.key) else {
                return ValueRejection(field: "\(field).key", reason: "must be 1 to 255 visible ASCII characters")
            }
            guard Self.isFingerprint(entry.fingerprint) else {
                return ValueRejection(field: "\(field).fingerprint", reason: "must be a SHA-256 digest in hex")
            }
            guard (0...100_000).contains(entry.answer.accepted), versions.contains(entry.answer.version) else {
                return ValueRejection(field: "\(field).answer", reason: "is not an answer a session gave")
            }
            guard times.contains(entry.at) else {
                return ValueRejection(field: "\(field).at", reason: "is outside the session's lifetime")
            }
        }
        if let index = eventIDs.firstIndex(where: { !Self.isKey($0) }) {
            return ValueRejection(field: "eventIDs[\(index)]", reason: "must be 1 to 255 visible ASCII characters")
        }
        return nil
    }
}

extension IdempotencyLedger: Equatable {
    /// Ledgers are equal when they hold the same entries and event ids in the same order.
    public static func == (lhs: IdempotencyLedger, rhs: IdempotencyLedger) -> Bool {
        lhs.entries == rhs.entries && lhs.eventIDs == rhs.eventIDs
    }
}

extension IdempotencyLedger: Codable {
    private enum CodingKeys: String, CodingKey {
        case entries, eventIDs
    }

    /// Reads `{"entries":[…],"eventIDs":[…]}` and indexes both for lookups.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let entries = try container.decode([Entry].self, forKey: .entries)
        let eventIDs = try container.decode([String].self, forKey: .eventIDs)
        guard !entries.isEmpty || !eventIDs.isEmpty else { return }
        box = Box(
            Kept(
                entries: entries, eventIDs: eventIDs,
                entryIndex: Dictionary(entries.map { ($0.key, $0) }, uniquingKeysWith: { $1 }),
                eventIDSet: Set(eventIDs)))
    }

    /// Writes `{"entries":[…],"eventIDs":[…]}`, oldest first.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entries, forKey: .entries)
        try container.encode(eventIDs, forKey: .eventIDs)
    }
}
