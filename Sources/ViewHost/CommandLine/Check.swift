import ArgumentParser
import Foundation
import ViewModelCore

/// `viewhost check --data-dir DIR`: an integrity check of the store; exit 0 when sound, 65 with the reason.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Check the SQLite store's integrity.")

    @Option(help: "The store's directory (as given to serve).")
    var dataDir = "data"

    func run() throws {
        do {
            let count = try StoreMaintenance.check(dataDirectory: dataDir)
            print("viewhost: \(dataDir) is sound (\(count) session\(count == 1 ? "" : "s"))")
        } catch {
            FileHandle.standardError.write(Data("viewhost: \(error)\n".utf8))
            throw ExitCode(error.exitCode)
        }
    }
}
