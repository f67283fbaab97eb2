import Foundation
import Glibc
import Synchronization
import ViewHostLocking
import ViewModelCore

/// Hears, on a connection and a thread of its own, when another node takes over a session this node holds
/// (`LISTEN viewhost_release`; the taker's `NOTIFY` carries the session id and its new epoch), and tells the node
/// to drop its copy. The taker's fencing already refuses this node's writes; dropping the copy also stops this
/// node from serving reads of a value that is no longer the newest.
///
/// Self-fencing: when the connection breaks (or does not answer a ping within ``pingInterval``), the node can no
/// longer hear about takeovers, so it drops every session it holds (``OwnershipLoss/all``) and reconnects; a
/// session then loads again (taking the lease) on its next request. A node cut off from the database therefore
/// serves a possibly stale copy for at most `pingInterval` + the connect timeout (2 s + 5 s here).
final class PostgresReleaseListener: Sendable {
    static let channel = "viewhost_release"
    /// How long the connection may stay silent before a ping checks it.
    static let pingInterval: Double = 2

    private let url: String
    private let node: String
    private let leases: PostgresLeases
    private let handler = Locked<(@Sendable (OwnershipLoss) -> Void)?>(nil)
    private let stopped = Atomic<Bool>(false)

    init(url: String, node: String, leases: PostgresLeases) {
        self.url = url
        self.node = node
        self.leases = leases
    }

    /// Sets who hears of lost sessions.
    func onLoss(_ handler: @escaping @Sendable (OwnershipLoss) -> Void) {
        self.handler.withLock { $0 = handler }
    }

    /// Starts listening (before this node owns any session, so no takeover goes unheard), then goes on on a
    /// thread of its own.
    /// - Throws: ``PostgresError`` when the first connection cannot be made.
    func start() throws(PostgresError) {
        let first = try connect()
        let thread = Thread { [self] in run(first) }
        thread.name = "viewhost.postgres.listener"
        thread.start()
    }

    /// Stops at the next wake-up (within a second).
    func stop() {
        stopped.store(true, ordering: .releasing)
    }

    private func connect() throws(PostgresError) -> PostgresConnection {
        let connection = try PostgresConnection(url: url)
        try connection.query("LISTEN \(PostgresConnection.quoted(identifier: Self.channel))")
        return connection
    }

    private func run(_ first: PostgresConnection) {
        var next: PostgresConnection? = first
        while !stopped.load(ordering: .acquiring) {
            do {
                let connection: PostgresConnection
                if let next {
                    connection = next
                } else {
                    connection = try connect()
                    // Copies loaded while the connection was down were not covered: drop those too.
                    loseAll()
                }
                next = nil
                try listen(on: connection)
            } catch {
                // Cannot hear takeovers: every copy held may be stale.
                loseAll()
                Thread.sleep(forTimeInterval: 0.5)
            }
        }
    }

    private func loseAll() {
        leases.releaseAll()
        handler.withLock { $0 }?(.all)
    }

    private func listen(on connection: PostgresConnection) throws(PostgresError) {
        var quietSince = Date()
        while !stopped.load(ordering: .acquiring) {
            var descriptor = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 1000)
            if ready > 0 {
                quietSince = Date()
            } else if Date().timeIntervalSince(quietSince) >= Self.pingInterval {
                try connection.query("SELECT 1")
                quietSince = Date()
            } else {
                continue
            }
            // After a ping too: libpq keeps notifications that arrived with its answer.
            for notification in try connection.notifications() where notification.channel == Self.channel {
                received(notification.payload)
            }
        }
    }

    /// `ID EPOCH NODE`: session ID was taken over under EPOCH by NODE.
    private func received(_ payload: String) {
        let parts = payload.split(separator: " ")
        guard parts.count == 3, parts[2] != Substring(node), let epoch = Int64(parts[1]) else { return }
        let id = SessionID(String(parts[0]))
        if leases.release(id, olderThan: epoch) {
            handler.withLock { $0 }?(.session(id))
        }
    }
}
