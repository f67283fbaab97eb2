import Foundation
import GRDB
import ViewHostLocking
import ViewModelCore

/// The writer's part in the store's health: a failing store is probed until a write succeeds; a broken one takes no
/// more writes; and the write-ahead log must still be the file in place, or the store is broken.
extension SQLiteWriter {
    /// How often the log is looked at while no write comes (a write looks first anyway).
    static let watchInterval = 2.0

    /// Whether a write may go ahead: not once the store is broken (a damaged file, a lost log: an operator must
    /// act), and not when the log was deleted or replaced (found now: the store becomes broken).
    func mayWrite() -> Bool {
        if case .broken = monitor.health { return false }
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
                saved = "only \(copied) of its \(frames) frames could be copied into \(path): back the store up before you stop the server"
            }
        } catch {
            saved = "copying what it held into \(path) failed (\(SQLiteSessionStorage.describe(error))): back the store up before you stop the server"
        }
        monitor.set(.broken("\(wal.path) was deleted or replaced while the server ran; \(saved); writes are refused until the server is restarted"))
    }

    /// Whether a checkpoint copied every frame of the log into the main file (without waiting for readers).
    func checkpointed() -> Bool {
        guard let (frames, copied) = try? pool.writeWithoutTransaction({ try $0.checkpoint(.passive) }) else { return false }
        return frames == copied
    }

    /// Looks at the log every ``watchInterval`` seconds on the writer's queue, between batches, until the store
    /// closes or is broken.
    func scheduleWatch() {
        guard wal != nil else { return }
        intake.after(seconds: Self.watchInterval) { [weak self] in
            guard let self, !self.isStopped else { return }
            if case .broken = self.monitor.health { return }
            _ = self.mayWrite()
            self.scheduleWatch()
        }
    }

    /// While writes fail, tries one small write every two seconds, so the store says it is writable again as soon
    /// as the disk takes writes (readiness follows it).
    private func scheduleProbe() {
        let start = state.withLock { state -> Bool in
            guard !state.probing else { return false }
            state.probing = true
            return true
        }
        guard start else { return }
        intake.after(seconds: 2) { self.probe() }
    }

    /// What the probe writes: a busy batch's worth (16 pages), so a disk with room for a heartbeat but not for
    /// events does not count as writable.
    static let probeBytes = 65_536

    private func probe() {
        guard !state.withLock({ state in
            state.probing = false
            return state.stopped
        }), case .failing = monitor.health else { return }
        do {
            try pool.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO heartbeat (id, at, reserve) VALUES (1, ?1, zeroblob(?2))
                        ON CONFLICT (id) DO UPDATE SET at = excluded.at, reserve = excluded.reserve
                        """,
                    arguments: [Date().timeIntervalSince1970, Self.probeBytes])
            }
            monitor.set(.healthy)
        } catch {
            fail(error)
        }
    }

    /// A write failed: the store is failing (and probed until a write succeeds), or broken when the file is
    /// damaged.
    func fail(_ error: any Error) {
        let health = SQLiteSessionStorage.health(after: error, path: path)
        monitor.set(health)
        if case .failing = health { scheduleProbe() }
    }
}
