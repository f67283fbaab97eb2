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
/// A ledger emptied or deleted would say nothing was acknowledged, and turn the detection off unseen. So it always
/// begins with a record of no entries (``start``), written before the store takes its first write and never cut
/// away when it starts again, and the store's file says whether a ledger must be there
/// (``StoreAudit/ledgerRequired(_:)``: from a server's start until it stops cleanly); one that is missing, or lacks
/// its first record, is then found.
///
/// Format: records of `[length: UInt32][crc32: UInt32][payload]`, little-endian; the payload is entries of
/// `[id length: UInt8][id][number: Int64]`, number -1 for a removed session. A reader stops at the first record
/// that is cut short or whose checksum fails. The first record has no entries (8 zero bytes); a ledger written
/// before there was one (a build before issue 38) has none and is read as well.
final class CommitLedger: Sendable {
    /// The file's name beside the database: `viewhost.sqlite-ledger`.
    static func path(of database: String) -> String { database + "-ledger" }

    /// An entry's number for a session that was removed (deleted or expired).
    static let removed = -1

    /// The record every ledger begins with: no entries (length 0, and the CRC-32 of nothing, 0).
    static let start = [UInt8](repeating: 0, count: 8)

    private struct State {
        var descriptor: Int32
        /// Whether the file begins with ``start`` (it is only ever cut back to it then).
        var started: Bool
        /// The write-ahead log's header (checkpoint sequence and salts) when the ledger last wrote.
        var walGeneration: [UInt8]?
        /// Why the ledger cannot be written, once it could not (it is then cut back to ``start`` and left alone).
        var broken: String?
    }

    let path: String
    private let state: Locked<State>

    /// Opens (making it when missing, 0600) the ledger beside `database`; it writes nothing until ``begin()``.
    /// - Throws: ``StorageError/cannotCreate(path:reason:)``.
    init(database: String) throws(StorageError) {
        path = Self.path(of: database)
        let descriptor = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotCreate(path: path, reason: String(cString: strerror(errno))) }
        state = Locked(State(descriptor: descriptor, started: Self.begins(descriptor)))
    }

    deinit {
        state.withLock { _ = close($0.descriptor) }
    }

    /// Makes the ledger begin with ``start``, keeping what it holds (a ledger of an earlier build, already checked
    /// against the file), before the store says a ledger must be there.
    /// - Returns: Whether it does (false: it cannot be written; then no ledger may be required).
    func begin() -> Bool {
        state.withLock { state in
            guard !state.started else { return true }
            var held = [UInt8](repeating: 0, count: Int(max(0, lseek(state.descriptor, 0, SEEK_END))))
            let count = held.withUnsafeMutableBytes { pread(state.descriptor, $0.baseAddress, $0.count, 0) }
            held = Array(held.prefix(max(0, count)))
            let bytes = Self.start + held
            guard ftruncate(state.descriptor, 0) == 0,
                bytes.withUnsafeBytes({ write(state.descriptor, $0.baseAddress, $0.count) }) == bytes.count
            else { return false }
            persist(state.descriptor)
            state.started = true
            return true
        }
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
                restart(&state)
            }
            guard state.broken == nil else { return }
            let written = record.withUnsafeBytes { write(state.descriptor, $0.baseAddress, $0.count) }
            if written != record.count {
                // A ledger with a record missing would understate what was acknowledged: cut it back, and say so.
                state.broken = written < 0 ? String(cString: strerror(errno)) : "a short write"
                _ = ftruncate(state.descriptor, state.started ? Self.start.count : 0)
            }
        }
    }

    /// Starts the ledger again: everything committed is in the main file (after a full checkpoint).
    func reset(walGeneration: [UInt8]?) {
        state.withLock { state in
            state.broken = nil
            state.walGeneration = walGeneration
            restart(&state)
        }
    }

    /// Whether the file at ``path`` is still the one written (not deleted or replaced while the server runs: a
    /// ledger nobody reads would leave the next start without one).
    var isInPlace: Bool { state.withLock { Self.isInPlace(path, $0.descriptor) } }

    private static func isInPlace(_ path: String, _ descriptor: Int32) -> Bool {
        var named = stat()
        var held = stat()
        return stat(path, &named) == 0 && fstat(descriptor, &held) == 0 && named.st_ino == held.st_ino
            && named.st_dev == held.st_dev
    }

    /// Cuts the ledger back to ``start`` (never below: a crash then leaves a ledger that is there, not an empty
    /// one); one deleted or replaced while the server ran is made again at ``path``. When that cannot be done, the
    /// ledger is broken (``failure`` says why).
    private func restart(_ state: inout State) {
        if !Self.isInPlace(path, state.descriptor) {
            let descriptor = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                state.broken =
                    "it was deleted or replaced, and cannot be made again: " + String(cString: strerror(errno))
                return
            }
            close(state.descriptor)
            state.descriptor = descriptor
            state.started = Self.begins(descriptor)
        }
        if state.started {
            _ = ftruncate(state.descriptor, Self.start.count)
        } else {
            _ = ftruncate(state.descriptor, 0)
            let written = Self.start.withUnsafeBytes { write(state.descriptor, $0.baseAddress, $0.count) }
            state.started = written == Self.start.count
            if !state.started {
                state.broken = "its first record cannot be written: " + String(cString: strerror(errno))
            }
            persist(state.descriptor)
        }
    }

    /// Syncs the ledger and its directory once its first record is written (rarely: a new store, or a ledger made
    /// again), so a power loss cannot leave a store that requires a ledger with none, or an empty one.
    private func persist(_ descriptor: Int32) {
        _ = fsync(descriptor)
        let parent = (path as NSString).deletingLastPathComponent
        let directory = open(parent.isEmpty ? "." : parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return }
        _ = fsync(directory)
        close(directory)
    }

    /// Whether the file open at `descriptor` begins with ``start``.
    private static func begins(_ descriptor: Int32) -> Bool {
        var first = [UInt8](repeating: 1, count: start.count)
        let count = first.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        return count == start.count && first == start
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

    /// What a ledger file holds.
    struct Contents {
        /// Each session's last record number acknowledged (or ``removed``).
        var acknowledged: [SessionID: Int] = [:]
        /// The offset of a damaged record where reading stopped, if any (a record cut short by a crash at its end
        /// is not damage: it was never acknowledged).
        var damagedAt: Int?
        /// The file's size; nil when there is none.
        var size: Int?
        /// Whether it begins with ``start``.
        var isStarted = false

        /// Why it is not the ledger a server leaves (missing, emptied, replaced), as a clause; nil when it is.
        var absence: String? {
            guard !isStarted else { return nil }
            guard let size else { return "it is missing" }
            return size == 0 ? "it is empty" : "it lacks the record a ledger begins with (it was replaced)"
        }
    }

    /// What the ledger file at `path` says was acknowledged.
    static func read(_ path: String) -> Contents {
        guard let data = FileManager.default.contents(atPath: path) else { return Contents() }
        let bytes = [UInt8](data)
        var contents = Contents(size: bytes.count, isStarted: bytes.starts(with: start))
        var offset = 0
        while offset + 8 <= bytes.count {
            switch record(in: bytes, at: offset) {
            case .whole(let entries, let next):
                for (id, number) in entries { contents.acknowledged[id] = number }
                offset = next
            case .pastTheEnd:
                // A record that runs past the end is the tail a crash cut short, unless a whole record follows
                // it: then its length was damaged (it read as "cut short" and hid the damage, and the records
                // after it, from the start's check).
                if hasRecord(bytes, after: offset) { contents.damagedAt = offset }
                return contents
            case .damaged:
                contents.damagedAt = offset
                return contents
            }
        }
        return contents
    }

    /// What the 8 bytes of header at `offset` begin.
    private enum Record {
        /// A record whose checksum holds, with its entries; the next one begins at `next`.
        case whole([(SessionID, Int)], next: Int)
        /// One whose length runs past the end of the file.
        case pastTheEnd
        /// One whose checksum fails, or whose payload is not entries.
        case damaged
    }

    /// The record whose header is at `offset` (at least 8 bytes before the end): the one reading of a record, for
    /// ``read(_:)`` and ``hasRecord(_:after:)``.
    private static func record(in bytes: [UInt8], at offset: Int) -> Record {
        let length = Int(integer(bytes, at: offset, as: UInt32.self))
        guard length <= bytes.count - offset - 8 else { return .pastTheEnd }
        let payload = Array(bytes[(offset + 8)..<(offset + 8 + length)])
        guard checksum(payload) == integer(bytes, at: offset + 4, as: UInt32.self), let entries = entries(payload)
        else { return .damaged }
        return .whole(entries, next: offset + 8 + length)
    }

    /// Whether a whole record with at least one entry, its checksum right, begins anywhere after `offset`: what a
    /// tail cut short (a prefix of one record) cannot hold, short of a 32-bit checksum matching by chance.
    static func hasRecord(_ bytes: [UInt8], after offset: Int) -> Bool {
        var candidate = offset + 1
        while candidate + 8 <= bytes.count {
            if case .whole(let entries, _) = record(in: bytes, at: candidate), !entries.isEmpty { return true }
            candidate += 1
        }
        return false
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
