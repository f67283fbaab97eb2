import Foundation
import ViewHostJSON

/// A bounded ring of log entries that grows only as entries arrive, so idle sessions stay small.
///
/// Entries are kept packed (`Packed`, 72 bytes against a ``LogEntry``'s 96): the feature as an index into the
/// session's feature names, which every log of the same features shares, and no optional. The ring grows one
/// entry at a time while it is small (most sessions log a handful of entries and never fill it), then by doubling.
/// Its stored shape is a ``LogEntry`` array in ring order, with `start` and `capacity`, as it always was.
public struct EventLog: Sendable {
    /// A log entry as the ring keeps it.
    struct Packed: Sendable {
        let seq: Int
        let at: Date
        let event: String
        let summary: String
        /// The cause's sequence number, or `Int.min` for none.
        let causedBy: Int
        let versionAfter: Int
        /// The index of the feature's name in the log's `names`.
        let feature: UInt16
        let source: EventSource
    }

    /// The feature names entries point into (the session's own list, shared; a name it lacks is added).
    private var names: [String]
    private var packed: [Packed] = []
    /// Where the ring starts, and its capacity, in 32 bits each: a log is kept in every checkpoint of a value.
    private var ringStart: Int32 = 0
    private let ringCapacity: Int32
    /// The most entries kept.
    public var capacity: Int { Int(ringCapacity) }
    private var start: Int {
        get { Int(ringStart) }
        set { ringStart = Int32(newValue) }
    }

    /// An empty log that keeps `capacity` entries.
    public init(capacity: Int) {
        self.init(capacity: capacity, names: [])
    }

    /// An empty log that keeps `capacity` entries of features named in `names` (shared with the caller).
    init(capacity: Int, names: [String]) {
        ringCapacity = Int32(clamping: max(1, capacity))
        self.names = names
    }

    /// The number of entries held.
    public var count: Int { packed.count }

    mutating func append(_ entry: LogEntry) {
        let item = pack(entry)
        guard packed.count < capacity else {
            packed[start] = item
            start = (start + 1) % capacity
            return
        }
        packed.reserveForOneMore(atMost: capacity)
        packed.append(item)
    }

    /// Entries with `seq > since`, oldest first.
    public func entries(after since: Int) -> [LogEntry] {
        let ordered = start == 0 ? packed : Array(packed[start...] + packed[..<start])
        return ordered.filter { $0.seq > since }.map(unpack)
    }

    /// The entry with sequence number `sequence`, if the ring still holds it (entries are numbered one after
    /// another, so it is found without a search; in a log with gaps, a member's copy of a shared session holding
    /// only its features' entries, by a binary search).
    public func entry(sequence: Int) -> LogEntry? {
        guard let oldest = oldestSequence else { return nil }
        let offset = sequence - oldest
        guard offset >= 0 else { return nil }
        if offset < packed.count {
            let entry = packed[(start + offset) % packed.count]
            if entry.seq == sequence { return unpack(entry) }
        }
        var low = 0
        var high = min(offset, packed.count - 1)
        while low <= high {
            let middle = (low + high) / 2
            let entry = packed[(start + middle) % packed.count]
            if entry.seq == sequence { return unpack(entry) }
            if entry.seq < sequence { low = middle + 1 } else { high = middle - 1 }
        }
        return nil
    }

    /// This log with only the entries of `features`, in order, in a ring of the same capacity (their sequence
    /// numbers then have gaps where the others' were).
    func keeping(_ features: [String]) -> EventLog {
        var kept = EventLog(capacity: capacity, names: features)
        let ordered = start == 0 ? packed : Array(packed[start...] + packed[..<start])
        for entry in ordered where features.contains(names[Int(entry.feature)]) { kept.append(unpack(entry)) }
        return kept
    }

    /// The oldest sequence number still held, or nil when empty.
    public var oldestSequence: Int? {
        packed.isEmpty ? nil : packed[start].seq
    }

    /// Points the entries at `shared` (a session's feature names) instead of the log's own list, when `shared`
    /// names every feature the entries do: a decoded log then keeps no list of its own.
    mutating func share(names shared: [String]) {
        guard names != shared else {
            names = shared
            return
        }
        var index: [Int] = []
        for name in names {
            guard let found = shared.firstIndex(of: name) else { return }
            index.append(found)
        }
        packed = packed.map {
            Packed(
                seq: $0.seq, at: $0.at, event: $0.event, summary: $0.summary, causedBy: $0.causedBy,
                versionAfter: $0.versionAfter, feature: UInt16(index[Int($0.feature)]), source: $0.source)
        }
        names = shared
    }

    private mutating func pack(_ entry: LogEntry) -> Packed {
        let feature: Int
        if let found = names.firstIndex(of: entry.feature) {
            feature = found
        } else {
            names.append(entry.feature)
            feature = names.count - 1
        }
        precondition(feature <= Int(UInt16.max), "more than \(UInt16.max) features logged by one session")
        return Packed(
            seq: entry.seq, at: entry.at, event: entry.event, summary: entry.summary,
            causedBy: entry.causedBy ?? .min, versionAfter: entry.versionAfter, feature: UInt16(feature),
            source: entry.source)
    }

    private func unpack(_ entry: Packed) -> LogEntry {
        LogEntry(
            seq: entry.seq, at: entry.at, feature: names[Int(entry.feature)], event: entry.event,
            summary: entry.summary, source: entry.source, causedBy: entry.causedBy == .min ? nil : entry.causedBy,
            versionAfter: entry.versionAfter)
    }
}

extension EventLog {
    /// The longest event name an entry read from outside may have, in UTF-8 bytes.
    static let maxEventNameBytes = 256
    /// The longest summary an entry read from outside may have, in UTF-8 bytes (``EventDescription`` cuts one to
    /// 120, with `…`).
    static let maxSummaryBytes = 128

    /// What is wrong with this log, read from outside (a journal export's value), naming the entry; nil when a
    /// session could have kept it: entries numbered in increasing order up to `sequence` (one after another in a
    /// session's own log; with gaps in a member's export of a shared session, which holds only its features'
    /// entries), each of one of `features` (or of ``Participation/feature``, with version 0),
    /// caused by an earlier step, at a time within `times`, with a name and summary of bounded length.
    func problem(sequence: Int, features: [String], times: ClosedRange<Date>) -> ValueRejection? {
        let ordered = start == 0 ? packed : Array(packed[start...] + packed[..<start])
        var expected: Int?
        for (index, entry) in ordered.enumerated() {
            let field = "entries[\(index)]"
            guard entry.seq >= 1, entry.seq <= sequence, entry.seq >= expected ?? 1 else {
                return ValueRejection(
                    field: "\(field).seq",
                    reason: "must follow the entry before it, up to the session's sequence (\(sequence))")
            }
            expected = entry.seq + 1
            let name = names[Int(entry.feature)]
            // What happened to a shared session's participants (``Participation``): no feature's, no version.
            let participation = name == Participation.feature && !features.contains(name)
            guard features.contains(name) || participation else {
                return ValueRejection(
                    field: "\(field).feature",
                    reason: "must be one of the session's features, or \(Participation.feature)")
            }
            if participation {
                guard Participation(rawValue: entry.event) != nil, entry.versionAfter == 0, entry.causedBy == .min
                else {
                    return ValueRejection(
                        field: field,
                        reason:
                            "of \(Participation.feature) must be one of \(Participation.allCases.map(\.rawValue).joined(separator: ", ")), caused by nothing, with versionAfter 0"
                    )
                }
            }
            guard entry.event.utf8.count <= Self.maxEventNameBytes, entry.summary.utf8.count <= Self.maxSummaryBytes
            else {
                return ValueRejection(
                    field: field,
                    reason:
                        "must have an event name of at most \(Self.maxEventNameBytes) bytes and a summary of at most \(Self.maxSummaryBytes)"
                )
            }
            guard entry.causedBy == .min || (1..<entry.seq).contains(entry.causedBy) else {
                return ValueRejection(field: "\(field).causedBy", reason: "must be an earlier step")
            }
            guard participation || (1...SessionCore.maxCounter).contains(entry.versionAfter) else {
                return ValueRejection(field: "\(field).versionAfter", reason: "must be 1 to \(SessionCore.maxCounter)")
            }
            guard times.contains(entry.at) else {
                return ValueRejection(field: "\(field).at", reason: "is outside the session's lifetime")
            }
        }
        return nil
    }
}

extension EventLog: Equatable {
    /// Logs are equal when they keep the same entries in the same ring positions, with the same capacity.
    public static func == (lhs: EventLog, rhs: EventLog) -> Bool {
        lhs.capacity == rhs.capacity && lhs.start == rhs.start && lhs.packed.count == rhs.packed.count
            && zip(lhs.packed, rhs.packed).allSatisfy { lhs.unpack($0) == rhs.unpack($1) }
    }
}

/// The stored shape: `{"entries":[…],"start":N,"capacity":N}`, the entries in ring order (what the synthesized
/// form wrote, so stored sessions and snapshots read and encode byte for byte as before).
extension EventLog: Codable {
    private enum CodingKeys: String, CodingKey {
        case entries, start, capacity
    }

    /// Reads the stored shape, refusing a ring whose start, capacity and entries do not fit together or that names more
    /// features than it can number (a log read from outside, such as an import, is untrusted).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let entries = try container.decode([LogEntry].self, forKey: .entries)
        let start = try container.decode(Int.self, forKey: .start)
        let capacity = try container.decode(Int.self, forKey: .capacity)
        guard capacity >= 1, capacity <= Int32.max, entries.count <= capacity, start >= 0, start < max(1, entries.count)
        else {
            throw DecodingError.dataCorruptedError(
                forKey: .start, in: container,
                debugDescription: "a log of \(entries.count) entries starting at \(start) with capacity \(capacity)")
        }
        ringCapacity = Int32(capacity)
        names = []
        packed.reserveCapacity(entries.count)
        for entry in entries {
            // A log read from outside may name any number of features; the ring numbers them in 16 bits.
            guard names.count <= Int(UInt16.max) || names.contains(entry.feature) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .entries, in: container, debugDescription: "a log naming more than \(UInt16.max) features")
            }
            packed.append(pack(entry))
        }
        self.start = start
    }

    /// Writes the stored shape, entries in ring order.
    public func encode(to encoder: any Encoder) throws {
        // A snapshot's encoder takes the text written here: the same bytes, without a node, a container and a cast
        // per member (a log is most of a small session's value, and a snapshot is taken every 64 inputs). Non-finite
        // times are left to the containers, which refuse them as they always did.
        if let sink = encoder as? any JSONTextEncoder,
            packed.allSatisfy({ $0.at.timeIntervalSinceReferenceDate.isFinite })
        {
            return sink.encodeJSONText(jsonText())
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(packed.map(unpack), forKey: .entries)
        try container.encode(start, forKey: .start)
        try container.encode(capacity, forKey: .capacity)
    }

    /// The log's JSON, as its containers write it through ``SortedJSONEncoder``: members sorted by their UTF-8
    /// bytes, an entry's `causedBy` left out when it has none (`encodeIfPresent`), a time as seconds since 2001
    /// (`Date`'s own encoding), a source as its raw value.
    func jsonText() -> [UInt8] {
        var writer = JSONWriter(form: .encoder, capacity: 64 + packed.count * 160)
        writer.beginObject()
        writer.key("capacity")
        writer.integer(capacity)
        writer.key("entries")
        writer.beginArray()
        for entry in packed {
            writer.beginObject()
            writer.key("at")
            writer.number(entry.at.timeIntervalSinceReferenceDate)
            if entry.causedBy != .min {
                writer.key("causedBy")
                writer.integer(entry.causedBy)
            }
            writer.key("event")
            writer.string(entry.event)
            writer.key("feature")
            writer.string(names[Int(entry.feature)])
            writer.key("seq")
            writer.integer(entry.seq)
            writer.key("source")
            writer.string(entry.source.rawValue)
            writer.key("summary")
            writer.string(entry.summary)
            writer.key("versionAfter")
            writer.integer(entry.versionAfter)
            writer.endObject()
        }
        writer.endArray()
        writer.key("start")
        writer.integer(start)
        writer.endObject()
        return writer.bytes
    }
}
