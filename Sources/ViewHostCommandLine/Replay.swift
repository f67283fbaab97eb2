import ArgumentParser
import Foundation
import ViewHost
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

    // Unconditional: `--version -3` is a version (refused by `validate`), not an option named `-3`.
    @Option(parsing: .unconditional, help: "Only this version of --feature.")
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
        let bytes = file == "-" ? Array(FileHandle.standardInput.readDataToEndOfFile()) : Self.contents(of: file)
        guard !bytes.isEmpty else {
            Self.fail("\(CommandFeatures.name): \(file) is empty, not a journal export", code: 65)
        }
        let types = FeatureTypes(merging: features.map(\.types))
        let wanted = feature
        let version = version
        let output = FileHandle.standardOutput
        // Action links name the exported session, as it served them.
        let session = SessionID(JournalImport.exportedSession(of: bytes) ?? "")
        var found: [UInt8]?
        let imported: ImportedJournal
        let now = Date()
        do {
            // Checked whole first, printing nothing: a file refused at its end line prints only that refusal. Then
            // read again, each version printed as it is made (memory stays bounded, however long the history).
            imported = try JournalImport.read(bytes, types: types, now: now)
            _ = try JournalImport.read(bytes, types: types, now: now) { _, name, made, viewModel in
                guard wanted == nil || wanted == name, version == nil || version == made else { return }
                let body = SnapshotEncoder.body(feature: name, version: made, viewModel: viewModel, sessionID: session)
                if version == nil { output.write(Data(body + [0x0A])) } else { found = body }
            }
        } catch {
            Self.fail("\(CommandFeatures.name): \(file): \(error)", code: 65)
        }
        if let wanted, !imported.final.featureNames.contains(wanted) {
            Self.fail(
                "\(CommandFeatures.name): \(file) has no feature '\(wanted)' (it has \(imported.final.featureNames.joined(separator: ", ")))",
                code: 65)
        }
        if let wanted, let version {
            guard let snapshot = found else {
                let oldest = imported.base.version(of: wanted) ?? 0
                let latest = imported.final.version(of: wanted) ?? 0
                Self.fail(
                    "\(CommandFeatures.name): \(file) holds \(wanted) versions \(oldest) to \(latest), not \(version)",
                    code: 65)
            }
            output.write(Data(snapshot + [0x0A]))
        }
    }

    /// The bytes of `path`, or one line saying why they cannot be read (exit 66).
    private static func contents(of path: String) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            fail("\(CommandFeatures.name): cannot read \(path): no such file", code: 66)
        }
        if isDirectory.boolValue {
            fail("\(CommandFeatures.name): cannot read \(path): it is a directory, not a journal export", code: 66)
        }
        guard FileManager.default.isReadableFile(atPath: path), let data = FileManager.default.contents(atPath: path)
        else {
            fail("\(CommandFeatures.name): cannot read \(path): permission denied", code: 66)
        }
        return Array(data)
    }

    private static func fail(_ message: String, code: Int32) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        Foundation.exit(code)
    }
}
