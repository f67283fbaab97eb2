import Foundation
import ViewHost
import ViewHostClient
import ViewModelCore

/// One line that says what a feature's snapshot shows (`watch` prints it per change, `get` above the outline): the
/// snapshot type's own ``FeatureSnapshot/summaryLine`` for a feature this app registers, else its first few plain
/// values (`title="Groceries" remaining=2`).
enum SnapshotSummary {
    static func line(feature: String, json: Data) -> String {
        if let registration = CommandFeatures.registrations.first(where: { $0.name == feature }),
            let line = registration.summaryLine(ofSnapshot: json), !line.isEmpty
        {
            return line
        }
        guard case .object(let members)? = try? JSONDocument.parse(json) else { return "" }
        let plain = members.sorted { $0.key < $1.key }.compactMap { name, value -> String? in
            guard !["feature", "version", "actions"].contains(name) else { return nil }
            switch value {
            case .string(let text): return "\(name)=\"\(EventDescription.shortened(text, maxBytes: 40))\""
            case .integer(let number): return "\(name)=\(number)"
            case .number(let number): return "\(name)=\(number)"
            case .bool(let flag): return "\(name)=\(flag)"
            default: return nil
            }
        }
        return plain.prefix(4).joined(separator: " ")
    }
}

/// The app whose command line runs, for the command's texts and the client's summaries: its features (its `main`'s
/// registrations), its name and its version line, set by ``ViewHostCommand/run(features:name:version:database:)`` for the
/// command it runs.
enum CommandFeatures {
    @TaskLocal static var registrations: [FeatureRegistration] = []
    /// The app's name: its usage, the start of its error lines, its log's label, its readiness line.
    @TaskLocal static var name = "viewhost"
    /// What `--version` prints.
    @TaskLocal static var version = "viewhost \(ViewHostVersion.current)"
    /// The database store the app brings (`--store postgres`), if any.
    @TaskLocal static var database: DatabaseStorage?
}
