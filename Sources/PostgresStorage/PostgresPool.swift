import Dispatch
import ViewHostLocking

/// A few connections for reads (session loads, sweeps), each used by one thread at a time. A caller blocks while
/// all are busy, so it must run on a thread of its own (a storage queue), never an HTTP event loop.
final class PostgresPool: Sendable {
    private let url: String
    private let idle = Locked<[PostgresConnection]>([])
    private let slots: DispatchSemaphore

    init(url: String, size: Int) {
        self.url = url
        slots = DispatchSemaphore(value: size)
    }

    /// Runs `body` with a connection; a connection that broke is closed rather than reused.
    func withConnection<T>(_ body: (PostgresConnection) throws(PostgresError) -> T) throws(PostgresError) -> T {
        slots.wait()
        defer { slots.signal() }
        let connection: PostgresConnection
        if let reused = idle.withLock({ $0.popLast() }) {
            connection = reused
        } else {
            connection = try PostgresConnection(url: url)
        }
        do {
            let value = try body(connection)
            idle.withLock { $0.append(connection) }
            return value
        } catch {
            if connection.isOpen { idle.withLock { $0.append(connection) } }
            throw error
        }
    }
}
