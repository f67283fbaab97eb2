import ArgumentParser
import Foundation
import ViewHost
import ViewModelCore

/// `viewhost backup --data-dir DIR --output FILE`: a consistent copy of the store while the server runs (SQLite's
/// online backup), restorable by pointing `--data-dir` at a directory holding it as `viewhost.sqlite`. A store that
/// `check` finds damaged or a server refuses is not copied: exit 65 with one line naming why, and no `FILE`.
struct Backup: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy the SQLite store consistently, even while a server uses it.")

    @OptionGroup var store: StoreDirectoryOptions

    @Option(help: "The file to write (it must not exist).")
    var output: String

    func run() throws {
        do {
            let count = try StoreMaintenance.backup(dataDirectory: store.dataDir, to: output)
            print(
                "\(CommandFeatures.name): backed up \(count) session\(count == 1 ? "" : "s") from \(store.dataDir) to \(output)"
            )
        } catch {
            FileHandle.standardError.write(Data("\(CommandFeatures.name): \(error)\n".utf8))
            throw ExitCode(error.exitCode)
        }
    }
}
