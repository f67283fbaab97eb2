import ArgumentParser
import Foundation
import ViewHostClient

/// `viewhost client watch [FEATURE …]`: prints each change as it arrives (like `kubectl get -w`), reconnecting
/// by itself, until interrupted or the session ends.
struct ClientWatch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print each change of the session's features as it arrives (first the current snapshots).")

    @OptionGroup var options: ClientOptions

    @Argument(help: "The features to watch (default: all of the session's).")
    var features: [String] = []

    @Option(help: "Exit after this many changes.")
    var limit: Int?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() async throws {
        try await ClientFailure.reporting {
            let session = try options.openSession()
            var count = 0
            for try await change in session.changes(features: features.isEmpty ? nil : features) {
                // Unbuffered, so each change shows at once even when stdout is a pipe.
                FileHandle.standardOutput.write(Data((line(for: change) + "\n").utf8))
                count += 1
                if let limit, count >= limit { return }
            }
        }
    }

    private func line(for change: ViewHostChange) -> String {
        if options.json {
            let head =
                #"{"feature":"\#(change.feature)","sequence":\#(change.sequence.map(String.init) ?? "null"),"snapshot":"#
            return head + String(decoding: change.json, as: UTF8.self) + #","version":\#(change.version)}"#
        }
        let summary = SnapshotSummary.line(feature: change.feature, json: change.json)
        let sequence = change.sequence.map { "seq \($0)" } ?? "polled"
        return "\(change.feature)  v\(change.version)  \(sequence)" + (summary.isEmpty ? "" : "  \(summary)")
    }
}
