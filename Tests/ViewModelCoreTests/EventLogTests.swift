import Foundation
import Testing
import ViewHostAPI
import ViewHostJSON

@testable import ViewModelCore

/// The data-flow log ring: entries kept packed read back as they went in, the ring keeps the newest, and its
/// stored shape is the one earlier releases wrote.
struct EventLogTests {
    let start = Date(timeIntervalSince1970: 1_795_442_400)

    func entry(_ seq: Int, feature: String = "chat", causedBy: Int? = nil) -> LogEntry {
        LogEntry(
            seq: seq, at: start.addingTimeInterval(Double(seq)), feature: feature, event: "e\(seq)",
            summary: "a summary longer than fifteen bytes #\(seq)", source: seq.isMultiple(of: 2) ? .timer : .client,
            causedBy: causedBy, versionAfter: seq + 1)
    }

    @Test func entriesReadBackAsTheyWentInAndTheRingKeepsTheNewest() {
        var log = EventLog(capacity: 4, names: ["chat", "weather"])
        let written = (1...6).map { entry($0, feature: $0 == 5 ? "login" : "weather", causedBy: $0 > 1 ? $0 - 1 : nil) }
        for item in written { log.append(item) }
        #expect(log.count == 4)
        #expect(log.entries(after: 0) == Array(written.suffix(4)))
        #expect(log.entries(after: 4) == Array(written.suffix(2)))
        #expect(log.oldestSequence == 3)
        #expect(log.entry(sequence: 5) == written[4])
        #expect(log.entry(sequence: 2) == nil)
        #expect(log.entry(sequence: 7) == nil)
    }

    /// A log encodes exactly as the synthesized form of a `[LogEntry]` ring did, so stored sessions and the
    /// snapshots made from them keep their bytes.
    @Test func theStoredShapeIsTheRingOfEntriesWithStartAndCapacity() throws {
        var log = EventLog(capacity: 3, names: ["chat"])
        let written = (1...4).map { entry($0, causedBy: $0 == 3 ? 1 : nil) }
        for item in written { log.append(item) }
        struct Synthesized: Encodable {
            let entries: [LogEntry]
            let start: Int
            let capacity: Int
        }
        let ring = [written[3], written[1], written[2]]
        let expected = try StoredJSON.encode(Synthesized(entries: ring, start: 1, capacity: 3))
        let encoded = try StoredJSON.encode(log)
        #expect(String(decoding: encoded, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(!String(decoding: encoded, as: UTF8.self).contains("\"causedBy\":null"))
        let decoded = try JSONDecoder().decode(EventLog.self, from: encoded)
        #expect(decoded == log)
        #expect(try StoredJSON.encode(decoded) == encoded)
    }

    /// A snapshot's encoder takes the log's own text (``EventLog/jsonText()``): byte for byte what its containers
    /// write, through ``SortedJSONEncoder`` and through Foundation's `JSONEncoder`, for texts that need escapes, times
    /// with and without a fraction, before 2001 and far off, and a wrapped ring; as the whole value, and as a member
    /// and an element of another.
    @Test func theLogsOwnTextIsWhatItsContainersWrite() throws {
        let texts = [
            "plain", "quote \" and backslash \\", "controls \u{8}\u{C}\n\r\t\u{1}\u{1F}", "slash / é ü 🙂",
            "", "\u{7F} and \u{2028}",
        ]
        let times: [Double] = [0, 3, -978_307_200, 817_547_809.0459913, 1e-7, 123_456_789_012.5, -0.25, 1e20]
        var log = EventLog(capacity: 7, names: ["chat"])
        for seq in 1...11 {
            let text = texts[seq % texts.count]
            log.append(
                LogEntry(
                    seq: seq, at: Date(timeIntervalSinceReferenceDate: times[seq % times.count]),
                    feature: seq == 4 ? "we\"ather" : "chat", event: text, summary: texts[(seq + 2) % texts.count],
                    source: seq.isMultiple(of: 3) ? .provider : .client, causedBy: seq.isMultiple(of: 2) ? -seq : nil,
                    versionAfter: seq == 9 ? Int.max : seq))
        }
        struct Synthesized: Encodable {
            let entries: [LogEntry]
            let start: Int
            let capacity: Int
        }
        struct Holder<Value: Encodable>: Encodable {
            let log: Value
            let logs: [Value]
            let zzz = 1
        }
        var ring = log.entries(after: 0)
        ring = Array(ring.suffix(from: 7 - 4) + ring.prefix(7 - 4))  // 11 entries in 7 places: the ring starts at 4
        let mirror = Synthesized(entries: ring, start: 4, capacity: 7)
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = log.jsonText()
        #expect(String(decoding: text, as: UTF8.self) == String(decoding: try SortedJSONEncoder().encode(mirror), as: UTF8.self))
        #expect(text == Array(try foundation.encode(mirror)))
        #expect(try SortedJSONEncoder().encode(log) == text)
        #expect(Array(try foundation.encode(log)) == text)
        let held = Holder(log: log, logs: [log, log])
        #expect(try SortedJSONEncoder().encode(held) == Array(try foundation.encode(Holder(log: mirror, logs: [mirror, mirror]))))
        #expect(try JSONDecoder().decode(EventLog.self, from: Data(text)) == log)
    }

    @Test func aLogWithATimeThatIsNotANumberIsRefusedAsBefore() {
        var log = EventLog(capacity: 2)
        log.append(LogEntry(seq: 1, at: Date(timeIntervalSinceReferenceDate: .nan), feature: "chat", event: "e", summary: "", source: .client, causedBy: nil, versionAfter: 1))
        #expect(throws: SortedJSONEncoder.Unsupported.self) { try SortedJSONEncoder().encode(log) }
    }

    /// A decoded log names its features through its own list until it is pointed at the session's, in whatever
    /// order the session lists them.
    @Test func aDecodedLogPointedAtTheSessionsNamesKeepsItsFeatures() throws {
        var log = EventLog(capacity: 8)
        for (seq, feature) in [(1, "weather"), (2, "chat"), (3, "weather")] { log.append(entry(seq, feature: feature)) }
        var decoded = try JSONDecoder().decode(EventLog.self, from: try StoredJSON.encode(log))
        decoded.share(names: ["chat", "login", "weather"])
        #expect(decoded.entries(after: 0).map(\.feature) == ["weather", "chat", "weather"])
        #expect(decoded == log)
        decoded.append(entry(4, feature: "login"))
        #expect(decoded.entries(after: 3).map(\.feature) == ["login"])
        var unknown = decoded
        unknown.share(names: ["chat"])  // does not name every feature: the log keeps its own list
        #expect(unknown == decoded)
    }

    @Test func aStoredRingThatCannotBeIsRefusedNotTrappedOn() throws {
        let text = """
            {"capacity":2,"entries":[],"start":1}
            """
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(EventLog.self, from: Data(text.utf8)) }
        let tooMany = """
            {"capacity":0,"entries":[],"start":0}
            """
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(EventLog.self, from: Data(tooMany.utf8)) }
    }
}
