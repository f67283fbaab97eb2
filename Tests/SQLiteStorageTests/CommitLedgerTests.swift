import Foundation
import Testing
import ViewModelCore

@testable import SQLiteStorage

/// The ledger's reader tells damage from a tail a crash cut short, wherever the damage falls.
struct CommitLedgerTests {
    /// A ledger of `count` commits, one session each, written as the store writes it; returns its bytes and the
    /// offset of each commit's record.
    private func written(_ count: Int) throws -> (bytes: [UInt8], records: [Int]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let database = directory + "/viewhost.sqlite"
        var records: [Int] = []
        do {
            let ledger = try CommitLedger(database: database)
            #expect(ledger.begin())
            for number in 0..<count {
                records.append(try FileManager.default.attributesOfItem(atPath: ledger.path)[.size] as? Int ?? -1)
                ledger.committed([(SessionID("session-\(number)"), number + 1)], walGeneration: nil)
            }
        }
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: CommitLedger.path(of: database))))
        return (bytes, records)
    }

    private func read(_ bytes: [UInt8]) throws -> CommitLedger.Contents {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return CommitLedger.read(path)
    }

    @Test func aWholeLedgerReadsEveryCommit() throws {
        let (bytes, _) = try written(6)
        let contents = try read(bytes)
        #expect(contents.damagedAt == nil && contents.isStarted)
        #expect(contents.acknowledged.count == 6 && contents.acknowledged[SessionID("session-5")] == 6)
    }

    /// Cut anywhere inside its last record, the ledger is a crash's: every commit before it reads, nothing is
    /// damaged.
    @Test func aTailCutShortIsNoDamage() throws {
        let (bytes, records) = try written(6)
        for end in (records[5] + 1)..<bytes.count {
            let contents = try read(Array(bytes.prefix(end)))
            #expect(contents.damagedAt == nil, "cut at \(end)")
            #expect(contents.acknowledged.count == 5, "cut at \(end)")
        }
    }

    /// Four bytes overwritten anywhere before the last record are found, and where. Over a record's length they
    /// once read as a tail cut short (the record ran past the end), so the start went on unchecked: the process
    /// test that damages the middle of a real ledger failed about one run in seven.
    @Test func fourBytesOverwrittenAnywhereBeforeTheLastRecordAreFound() throws {
        let (bytes, records) = try written(6)
        for offset in CommitLedger.start.count..<(records[5] - 3) {
            var damaged = bytes
            for index in offset..<(offset + 4) { damaged[index] = 0xA5 }
            let record = try #require(records.last(where: { $0 <= offset }))
            #expect(try read(damaged).damagedAt == record, "damaged at \(offset)")
        }
    }
}
