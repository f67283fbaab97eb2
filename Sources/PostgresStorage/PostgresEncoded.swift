import Foundation
import ViewModelCore

/// An operation's JSON as text, made before the transaction (so the transaction holds its row locks for the
/// writes alone), and the text forms of the few other values the store writes.
struct PostgresEncoded {
    let input: String?
    let snapshot: String?
    /// Each feature's version in the snapshot (JSON), for its history checkpoint.
    let versions: String?

    init(_ operation: PostgresWriter.Operation) {
        switch operation {
        case .create(let session):
            input = nil
            snapshot = (try? StoredJSON.encode(session.core)).map { String(decoding: $0, as: UTF8.self) }
            versions = HistoryCheckpoint(number: session.journalNumber, core: session.core).versionsJSON
        case .append(let entry, _):
            input = (try? entry.input.storedJSON()).map { String(decoding: $0, as: UTF8.self) }
            snapshot = entry.snapshot.flatMap { try? StoredJSON.encode($0) }.map { String(decoding: $0, as: UTF8.self) }
            versions = entry.snapshot.map { HistoryCheckpoint(number: entry.number, core: $0).versionsJSON }
        case .remove, .access:
            input = nil
            snapshot = nil
            versions = nil
        }
    }

    /// `bytes` as lowercase hex (token digests are kept as text).
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of lowercase or uppercase hex `text`, nil when it is not hex.
    static func bytes(hex text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A PostgreSQL array literal of `values`, each quoted.
    static func array(_ values: [String]) -> String {
        "{" + values.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            .joined(separator: ",") + "}"
    }
}
