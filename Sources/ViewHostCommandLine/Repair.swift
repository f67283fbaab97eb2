import ArgumentParser
import Foundation
import ViewHost
import ViewModelCore

/// `viewhost repair --data-dir DIR`: ends the sessions `check` finds damaged (acknowledged records lost, a gap in a
/// journal), so their holders are told instead of served a version again for other content, and starts a new
/// ledger in place of a damaged or missing one; run with no server on the directory. Exit 0 with a line for each
/// thing repaired ("nothing to repair" only when it changed nothing), 65 for a damaged file (restore a backup), 66
/// when there is no store, 75 while a server uses the directory.
struct Repair: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "End the sessions check finds damaged, so their clients start new ones, and start a new ledger "
            + "in place of a damaged or missing one (stop the server first).")

    @OptionGroup var store: StoreDirectoryOptions

    func run() throws {
        let done = try StorageError.exitingOnFailure { () throws(StorageError) in
            try StoreMaintenance.repair(dataDirectory: store.dataDir)
        }
        print("\(CommandFeatures.name): \(store.dataDir): " + (done.isEmpty ? "nothing to repair" : "repaired:"))
        for line in done { print("  - \(line)") }
    }
}
