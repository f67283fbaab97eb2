import Dispatch
import GRDB
import ViewHostLocking

/// Copies SQLite's write-ahead log into the main file on a connection and a thread of its own, so that no commit
/// waits for it.
///
/// SQLite's own checkpoint runs on the committing connection, right after the commit that takes the log past its
/// threshold, so every write queued behind that commit waited for the copy and its two syncs: in
/// `Benchmarks/sse.sh`'s paced rounds, a cluster of late `202`s every 0.6 s (BENCHMARKS.md). This one is passive: it
/// copies what was committed when it began, never waits for the writer or for readers, and makes none of them wait.
/// It starts after every ``commitsPerCheckpoint`` commits, one at a time.
///
/// The writer's own checkpoint stays, at ``writerCheckpointPages``, as the backstop that bounds the log: a passive
/// checkpoint never copies frames written after it began, and SQLite starts the log again only once every frame is
/// in the main file, which under steady writes happens when the writer checkpoints between two of its commits. What
/// it copies then is only what came since this one's last run. What the log holds is durable either way: a
/// checkpoint that fails (a busy lock, a full disk) leaves it in the log for the next, as SQLite's own would.
final class LogCheckpointer: Sendable {
    /// Commits between two checkpoints (a commit adds about three pages to the log).
    static let commitsPerCheckpoint = 100
    /// The log's length, in pages, past which the writer checkpoints after its commits (SQLite's
    /// `wal_autocheckpoint`; its default is 1,000).
    static let writerCheckpointPages = 4_000

    private struct State {
        var commits = 0
        var running = false
        var stopped = false
        var done = 0
    }

    private let connection: DatabaseQueue
    private let queue = DispatchQueue(label: "viewhost.sqlite.checkpointer")
    private let state = Locked(State())

    /// Opens a connection of its own to the store at `path`, with `configuration` (the writer's: its syncs are the
    /// checkpoint's).
    init(path: String, configuration: Configuration) throws {
        connection = try DatabaseQueue(path: path, configuration: configuration)
    }

    /// The checkpoints run to their end since start.
    var checkpoints: Int { state.withLock { $0.done } }

    /// The writer committed: every ``commitsPerCheckpoint`` commits, a checkpoint starts unless one runs.
    func committed() {
        let start = state.withLock { state -> Bool in
            state.commits += 1
            guard !state.running, !state.stopped, state.commits >= Self.commitsPerCheckpoint else { return false }
            state.running = true
            state.commits = 0
            return true
        }
        if start { queue.async { self.checkpoint() } }
    }

    private func checkpoint() {
        let copied = (try? connection.writeWithoutTransaction { try $0.checkpoint(.passive) }) != nil
        state.withLock { state in
            state.running = false
            if copied { state.done += 1 }
        }
    }

    /// Waits for a checkpoint under way and closes the connection (before the store's own, which must be the last
    /// for SQLite to remove the log); none starts after.
    func stop() {
        state.withLock { $0.stopped = true }
        queue.sync {}
        try? connection.close()
    }
}
