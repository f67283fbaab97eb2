import ArgumentParser
import Foundation
import ViewHost
import ViewHostClient

/// `viewhost client watch [FEATURE …]`: prints each change as it arrives (like `kubectl get -w`), reconnecting
/// by itself, until interrupted, the session ends, or the server has failed for `--give-up-after` seconds.
struct ClientWatch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print each change of the session's features as it arrives (first the current snapshots).")

    @OptionGroup var options: ClientOptions

    @Argument(help: "The features to watch (default: all of the session's).")
    var features: [String] = []

    // Unconditional: `--limit -1` is a value to refuse in words, not a missing one followed by a flag.
    @Option(parsing: .unconditional, help: "Exit after this many changes.")
    var limit: Int?

    @Option(
        name: .customLong("give-up-after"),
        help: "Seconds of failing to reach the server (down, 5xx, not a ViewHost server) before exiting 69 or 76.")
    var giveUpAfter: Double = 300

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        if !(giveUpAfter > 0) { throw ValidationError("--give-up-after must be more than 0 seconds") }
    }

    func run() async throws {
        try await ClientFailure.reporting {
            let session = try options.openSession()
            let names = features.isEmpty ? nil : try features.map(ClientOptions.feature)
            let failures = WatchFailures(giveUpAfter: .milliseconds(Int64((giveUpAfter * 1000).rounded())))
            let watching = Task {
                var count = 0
                for try await change in session.changes(features: names, onRetry: failures.record) {
                    failures.clear()
                    // Unbuffered, so each change shows at once even when stdout is a pipe.
                    FileHandle.standardOutput.write(Data((line(for: change) + "\n").utf8))
                    count += 1
                    if let limit, count >= limit { return }
                }
            }
            failures.onGiveUp { watching.cancel() }
            try await watching.value
            if let last = failures.gaveUpWith { throw last }
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
