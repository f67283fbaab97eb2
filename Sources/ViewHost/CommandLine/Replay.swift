import ArgumentParser
import Foundation
import ViewModelCore

/// `viewhost replay FILE [--feature F] [--version N]`: reads a journal export (`GET /v1/sessions/{id}/journal`),
/// replays it with the app's features, and prints every version's snapshot as the server served it, one JSON
/// document per line (each feature's version in the export's starting value first); or one feature's, or one
/// version. The export is checked as an import checks it: a line that does not read, apply or agree with the
/// replay stops it with that line named on stderr (exit 65).
struct Replay: AsyncParsableCommand, FeatureHostingCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the snapshots of a journal export (every version, one feature's, or one).")

    @Argument(help: "The export, as GET /v1/sessions/{id}/journal wrote it ('-' reads standard input).")
    var file: String

    @Option(help: "Only this feature's snapshots.")
    var feature: String?

    @Option(help: "Only this version of --feature.")
    var version: Int?

    func validate() throws {
        if version != nil, feature == nil { throw ValidationError("--version needs --feature") }
        if let version, version < 1 { throw ValidationError("--version must be 1 or more") }
    }

    /// Without the app's features (argument-parser's entry): nothing can be read.
    func run() async throws {
        try await run(features: [])
    }

    func run(features: [FeatureRegistration]) async throws {
        let bytes: [UInt8]
        do {
            bytes = file == "-" ? Array(FileHandle.standardInput.readDataToEndOfFile()) : Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        } catch {
            Self.fail("viewhost: cannot read \(file): \((error as NSError).localizedDescription)", code: 66)
        }
        let types = FeatureTypes(merging: features.map(\.types))
        let wanted = feature
        let version = version
        let output = FileHandle.standardOutput
        // Action links name the exported session, as it served them.
        let session = SessionID(JournalImport.exportedSession(of: bytes) ?? "")
        var found: [UInt8]?
        let imported: ImportedJournal
        do {
            imported = try JournalImport.read(bytes, types: types) { _, name, made, viewModel in
                guard wanted == nil || wanted == name, version == nil || version == made else { return }
                let encoded = SnapshotEncoder.encode(feature: name, version: made, viewModel: viewModel, sessionID: session)
                // Every version as it is made; one version once the whole file has checked out.
                if version == nil { output.write(Data(encoded.body + [0x0A])) } else { found = encoded.body }
            }
        } catch {
            Self.fail("viewhost: \(file): \(error)", code: 65)
        }
        if let wanted, !imported.final.featureNames.contains(wanted) {
            Self.fail(
                "viewhost: \(file) has no feature '\(wanted)' (it has \(imported.final.featureNames.joined(separator: ", ")))", code: 65)
        }
        if let wanted, let version {
            guard let snapshot = found else {
                let oldest = imported.base.version(of: wanted) ?? 0
                let latest = imported.final.version(of: wanted) ?? 0
                Self.fail("viewhost: \(file) holds \(wanted) versions \(oldest) to \(latest), not \(version)", code: 65)
            }
            output.write(Data(snapshot + [0x0A]))
        }
    }

    private static func fail(_ message: String, code: Int32) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        Foundation.exit(code)
    }
}
