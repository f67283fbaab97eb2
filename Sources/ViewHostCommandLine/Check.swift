import ArgumentParser
import Foundation
import SQLiteStorage
import ViewHost
import ViewModelCore

/// `viewhost check --data-dir DIR`: reads the store (never writes beside it) and says whether it is sound; exit 0
/// when it is, 65 with a few lines saying what is wrong and what was lost, 66 when there is no store. Every session
/// is decoded with the app's features, as a load would: one that does not (a stored shape changed without a new
/// schema version) is named with the feature, the member and the stored version.
struct Check: ParsableCommand, FeatureHostingCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check the SQLite store: its file, what it acknowledged, every session's journal, and that every "
            + "session decodes with the app's features.")

    @OptionGroup var store: StoreDirectoryOptions

    /// Without the app's features (argument-parser's entry): the sessions are not decoded.
    func run() throws {
        try check(features: nil)
    }

    func run(features: [FeatureRegistration]) async throws {
        try check(features: FeatureTypes(merging: features.map(\.types)))
    }

    private func check(features: FeatureTypes?) throws {
        let report = try StorageError.exitingOnFailure { () throws(StorageError) in
            try StoreMaintenance.check(dataDirectory: store.dataDir, features: features)
        }
        let sessions = report.sessions.map { " (\($0) session\($0 == 1 ? "" : "s"))" } ?? ""
        guard !report.isSound else {
            print("\(CommandFeatures.name): \(store.dataDir) is sound\(sessions)")
            return
        }
        let lines =
            ["\(CommandFeatures.name): \(store.dataDir) is damaged\(sessions); see docs/OPERATIONS.md:"]
            + report.problems.map { "  - \($0)" }
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        throw ExitCode(65)
    }
}
