import ArgumentParser
import Foundation
import SQLiteStorage
import ViewModelCore

/// `viewhost check --data-dir DIR`: reads the store (never writes beside it) and says whether it is sound; exit 0
/// when it is, 65 with a few lines saying what is wrong and what was lost, 66 when there is no store.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check the SQLite store: its file, what it acknowledged, and every session's journal.")

    @Option(help: "The store's directory (as given to serve).")
    var dataDir = "data"

    func run() throws {
        let report = try StorageError.exitingOnFailure { () throws(StorageError) in
            try StoreMaintenance.check(dataDirectory: dataDir)
        }
        let sessions = report.sessions.map { " (\($0) session\($0 == 1 ? "" : "s"))" } ?? ""
        guard !report.isSound else {
            print("viewhost: \(dataDir) is sound\(sessions)")
            return
        }
        let lines = ["viewhost: \(dataDir) is damaged\(sessions); see docs/OPERATIONS.md:"] + report.problems.map { "  - \($0)" }
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        throw ExitCode(65)
    }
}
