import ArgumentParser
import Foundation
import ViewHost
import ViewHostClient

/// `viewhost client get FEATURE`: prints a feature's snapshot.
struct ClientGet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get", abstract: "Print a feature's snapshot (its actions: 'viewhost client actions').")

    @OptionGroup var options: ClientOptions

    @Argument(help: "The feature, such as chat (a session's features are the names of its links).")
    var feature: String

    func run() async throws {
        try await ClientFailure.reporting {
            let snapshot = try await options.openSession().snapshot(feature: try ClientOptions.feature(feature))
            if options.json {
                FileHandle.standardOutput.write(snapshot.json + Data("\n".utf8))
                return
            }
            let summary = SnapshotSummary.line(feature: feature, json: snapshot.json)
            print("\(feature) version \(snapshot.version)" + (summary.isEmpty ? "" : ": \(summary)"))
            SnapshotOutline.lines(of: try JSONDocument.parse(snapshot.json)).forEach { print("  \($0)") }
        }
    }
}
