import CZlib
import Foundation
import ViewHostLocking
import ViewModelCore

#if canImport(Glibc)
import Glibc
#endif

/// What the store acknowledged, kept outside the database: after each commit, and before any of its writes is
/// answered, the writer appends the sessions it wrote and the number of each one's last journal record (or that
/// it was removed) to `viewhost.sqlite-ledger`.
///
/// Why: SQLite ends its write-ahead log at the first frame it finds damaged, by design, and silently drops every
/// commit after it; a deleted `-wal` drops everything since the last checkpoint. Acknowledged events would be lost
/// and their versions handed out again for other content. The ledger does not live in the log, so on opening the
/// store compares the two, and a session whose acknowledged records are missing is reported (the server refuses
/// to start, `viewhost check` names it).
///
/// It only has to cover what is not yet safe in the main file: once SQLite starts its log again (after a complete
/// checkpoint, every commit before is in `viewhost.sqlite`), the ledger starts again too (``committed(_:walGeneration:)``).
/// It is not synced: after a power loss its last seconds may be missing, and a damaged log in those seconds goes
/// unnoticed (docs/OPERATIONS.md).
///
/// Format: records of `[length: UInt32][crc32: UInt32][payload]`, little-endian; the payload is entries of
/// `[id length: UInt8][id][number: Int64]`, number -1 for a removed session. A reader stops at the first record
/// that is cut short or whose checksum fails.
final class CommitLedger: Sendable {
    /// The file's name beside the database: `viewhost.sqlite-ledger`.
    static func path(of database: String) -> String { database + "-ledger" }

    /// An entry's number for a session that was removed (deleted or expired).
    static let removed = -1

    private struct State {
        var descriptor: Int32
        /// The write-ahead log's header (checkpoint sequence and salts) when the ledger last wrote.
        var walGeneration: [UInt8]?
        /// Why the ledger cannot be written, once it could not (it is then emptied and left alone).
        var broken: String?
    }

    let path: String
    private let state: Locked<State>

    /// Opens (making it when missing, 0600) the ledger beside `database`.
    /// - Throws: ``StorageError/cannotCreate(path:reason:)``.
    init(database: String) throws(StorageError) {
        path = Self.path(of: database)
        let descriptor = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotCreate(path: path, reason: String(cString: strerror(errno))) }
        state = Locked(State(descriptor: descriptor))
    }

    deinit {
        state.withLock { _ = close($0.descriptor) }
    }

    /// Records that a commit stored `entries` (session, last record number or ``removed``). When the log started
    /// again since the last record (`walGeneration` changed), everything before this commit is in the main file:
    /// the ledger starts again with this commit.
    func committed(_ entries: [(SessionID, Int)], walGeneration: [UInt8]?) {
        guard !entries.isEmpty else { return }
        let record = Self.record(entries)
        state.withLock { state in
            if walGeneration != state.walGeneration {
                // Everything before is in the main file: what the ledger missed while it could not write, too.
                state.walGeneration = walGeneration
                state.broken = nil
                _ = ftruncate(state.descriptor, 0)
            }
            guard state.broken == nil else { return }
            let written = record.withUnsafeBytes { write(state.descriptor, $0.baseAddress, $0.count) }
            if written != record.count {
                // A ledger with a record missing would understate what was acknowledged: empty it, and say so.
                state.broken = written < 0 ? String(cString: strerror(errno)) : "a short write"
                _ = ftruncate(state.descriptor, 0)
            }
        }
    }

    /// Empties the ledger: everything committed is in the main file (after a full checkpoint).
    func reset(walGeneration: [UInt8]?) {
        state.withLock { state in
            _ = ftruncate(state.descriptor, 0)
            state.walGeneration = walGeneration
            state.broken = nil
        }
    }

    /// Why the ledger stopped recording, if it did (a full disk): damage to the log is then not detected until
    /// SQLite starts its log again (after the next complete checkpoint), when the ledger starts again too.
    var failure: String? { state.withLock { $0.broken } }

    private static func record(_ entries: [(SessionID, Int)]) -> [UInt8] {
        var payload: [UInt8] = []
        for (id, number) in entries {
            let bytes = Array(id.rawValue.utf8.prefix(255))
            payload.append(UInt8(bytes.count))
            payload += bytes
            withUnsafeBytes(of: Int64(number).littleEndian) { payload += $0 }
        }
        var record: [UInt8] = []
        withUnsafeBytes(of: UInt32(payload.count).littleEndian) { record += $0 }
        withUnsafeBytes(of: UInt32(checksum(payload)).littleEndian) { record += $0 }
        return record + payload
    }

    private static func checksum(_ bytes: [UInt8]) -> UInt32 {
        UInt32(bytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) })
    }

    /// What a ledger file says was acknowledged: each session's last record number (or ``removed``), and the
    /// offset of a damaged record where reading stopped, if any (a record cut short by a crash at its end is not
    /// damage: it was never acknowledged).
    static func read(_ path: String) -> (acknowledged: [SessionID: Int], damagedAt: Int?) {
        guard let data = FileManager.default.contents(atPath: path) else { return ([:], nil) }
        let bytes = [UInt8](data)
        var acknowledged: [SessionID: Int] = [:]
        var offset = 0
        while offset + 8 <= bytes.count {
            let length = Int(integer(bytes, at: offset, as: UInt32.self))
            let sum = integer(bytes, at: offset + 4, as: UInt32.self)
            guard offset + 8 + length <= bytes.count else { return (acknowledged, nil) }
            let payload = Array(bytes[(offset + 8)..<(offset + 8 + length)])
            guard checksum(payload) == sum, let entries = entries(payload) else { return (acknowledged, offset) }
            for (id, number) in entries { acknowledged[id] = number }
            offset += 8 + length
        }
        return (acknowledged, nil)
    }

    private static func entries(_ payload: [UInt8]) -> [(SessionID, Int)]? {
        var entries: [(SessionID, Int)] = []
        var index = 0
        while index < payload.count {
            let length = Int(payload[index])
            guard index + 1 + length + 8 <= payload.count else { return nil }
            let id = String(decoding: payload[(index + 1)..<(index + 1 + length)], as: UTF8.self)
            entries.append((SessionID(id), Int(Int64(integer(payload, at: index + 1 + length, as: UInt64.self)))))
            index += 1 + length + 8
        }
        return entries
    }

    private static func integer<T: FixedWidthInteger>(_ bytes: [UInt8], at offset: Int, as: T.Type) -> T {
        var value: T = 0
        for index in (0..<MemoryLayout<T>.size).reversed() { value = value << 8 | T(bytes[offset + index]) }
        return value
    }
}
