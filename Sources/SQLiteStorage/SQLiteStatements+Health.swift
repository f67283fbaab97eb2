import Foundation
import GRDB
import ViewModelCore

/// The SQLite store's checks of its write-ahead log: it must still be the file in place, or the store is broken.
extension SQLiteStatements {
    /// How often the log is looked at while no write comes (a write looks first anyway).
    static let watchInterval = 2.0

    /// Whether a write may go ahead: not when the log was deleted or replaced (found now: the store becomes
    /// broken).
    func mayWrite() -> Bool {
        if let wal, !wal.isInPlace {
            walLost(wal)
            return false
        }
        return true
    }

    /// The log was deleted or replaced while the server ran. SQLite's connection still holds the lost file, so
    /// what it holds is copied into the main file now (a full checkpoint), and then no write is taken: a new
    /// connection would start a log of its own beside the lost one. The store is broken until a restart.
    func walLost(_ wal: WriteAheadLog) {
        let saved: String
        do {
            let (frames, copied) = try pool.writeWithoutTransaction { try $0.checkpoint(.full) }
            if frames == copied {
                ledger.reset(walGeneration: nil)
                saved = "everything acknowledged was copied into \(path) first"
            } else {
                saved =
                    "only \(copied) of its \(frames) frames could be copied into \(path): back the store up before you stop the server"
            }
        } catch {
            saved =
                "copying what it held into \(path) failed (\(SQLiteSessionStorage.describe(error))): back the store up before you stop the server"
        }
        monitor.set(
            .broken(
                "\(wal.path) was deleted or replaced while the server ran; \(saved); writes are refused until the server is restarted"
            ))
    }

    /// Whether a checkpoint copied every frame of the log into the main file (without waiting for readers).
    func checkpointed() -> Bool {
        guard let (frames, copied) = try? pool.writeWithoutTransaction({ try $0.checkpoint(.passive) }) else {
            return false
        }
        return frames == copied
    }

    /// Looks at the log and the ledger every ``watchInterval`` seconds on `writer`'s queue, between batches, until
    /// the store closes or is broken.
    func scheduleWatch(on writer: JournalWriter<SQLiteStatements>) {
        guard wal != nil else { return }
        writer.after(seconds: Self.watchInterval) { [weak self, weak writer] in
            guard let self, let writer, !writer.isStopped else { return }
            if case .broken = self.monitor.health { return }
            _ = writer.mayWrite()
            self.keepLedgerInPlace()
            self.scheduleWatch(on: writer)
        }
    }

    /// A ledger deleted or replaced while the server runs is made again, once everything committed is in the main
    /// file (a checkpoint that copied every frame; tried again at the next look when readers held it back): a
    /// server killed later would otherwise find none at its next start, and refuse it.
    func keepLedgerInPlace() {
        guard !ledger.isInPlace, checkpointed() else { return }
        ledger.reset(walGeneration: wal?.generation)
    }
}
