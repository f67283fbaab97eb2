import Foundation
import Synchronization
import ViewHostLocking

/// This node's lease in the `nodes` table, renewed by heartbeat on a connection and a thread of its own: every
/// ``heartbeat`` it says where it takes requests from other nodes and that it is alive for ``duration`` more (on
/// the database's clock). Other nodes leave the sessions it owns with it while the lease holds, and take them over
/// once it ends: when the process dies, or cannot reach the database for that long. ``stop()`` ends the lease at
/// once (a graceful shutdown), so its sessions move without waiting.
final class PostgresNodeLease: Sendable {
    /// How often the lease is renewed.
    static let heartbeat: Double = 1
    /// How long a renewal keeps the node alive: several missed heartbeats, so a busy moment is not a death.
    static let duration: Double = 5

    private let url: String
    private let node: String
    private let address = Locked<String?>(nil)
    private let stopped = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    private let running = Atomic<Bool>(false)

    init(url: String, node: String) {
        self.url = url
        self.node = node
    }

    /// Announces `address` (written before this returns, when the database answers) and renews the lease from
    /// now on (a second call only changes the address).
    func start(address: String) {
        self.address.withLock { $0 = address }
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var first: PostgresConnection?
        renew(&first)
        let connection = first
        let thread = Thread { [self] in run(connection) }
        thread.name = "viewhost.postgres.lease"
        thread.start()
    }

    /// Ends the lease: the row's end is set to now, so other nodes take this node's sessions over at once.
    func stop() {
        guard running.load(ordering: .acquiring), !stopped.exchange(true, ordering: .acquiringAndReleasing) else {
            return
        }
        // The thread ends the lease itself, within one heartbeat; a database that cannot be reached then is
        // not waited for longer than that.
        _ = done.wait(timeout: .now() + Self.heartbeat * 2)
    }

    private func run(_ first: PostgresConnection?) {
        var connection = first
        while !stopped.load(ordering: .acquiring) {
            Thread.sleep(forTimeInterval: Self.heartbeat)
            renew(&connection)
        }
        _ = try? connection?.query(
            "UPDATE nodes SET expires_at = extract(epoch FROM clock_timestamp()) WHERE name = $1", [node])
        done.signal()
    }

    /// Writes the lease: alive for ``duration`` from now, at the announced address.
    private func renew(_ connection: inout PostgresConnection?) {
        do {
            if connection == nil { connection = try PostgresConnection(url: url) }
            try connection?.query(
                """
                INSERT INTO nodes (name, address, expires_at)
                    VALUES ($1, $2, extract(epoch FROM clock_timestamp()) + $3)
                ON CONFLICT (name) DO UPDATE SET address = excluded.address, expires_at = excluded.expires_at
                """, [node, address.withLock { $0 } ?? "", String(Self.duration)])
        } catch {
            // Not renewed: the lease runs out, and other nodes take this node's sessions over; the release
            // listener, which cannot hear them either, drops this node's copies.
            connection = nil
        }
    }
}
