import Foundation
import HTTPCore
import Logging
import ServiceLifecycle
import ViewHost
import ViewModelCore

/// `serve --take-over`: the new process gets the running server's listening sockets over the data directory's
/// handover socket, asks it to drain and release the directory, waits for the directory's lock, serves what
/// queued on the sockets meanwhile (none of it refused) and tells the old server, which then exits. A new process
/// that fails before that word leaves the old one serving again (``Serve/Serving``). Every server on the SQLite
/// store offers the handover.
extension Serve {
    /// The handover socket's name in the data directory.
    static let handoverFileName = "viewhost.takeover"

    /// The handover socket's path for `store`.
    static func handoverPath(_ store: AppConfiguration.Store) -> String {
        (store.dataDirectory as NSString).appendingPathComponent(handoverFileName)
    }

    /// The running server's sockets, or nil when none runs on the data directory (then this one starts as
    /// usual). Refuses (exits) a take-over that cannot work: not on the SQLite store (64), with systemd's sockets
    /// (64), a bad timeout (64), a server that hands nothing over in time (75), another port (64).
    static func takeOver(
        _ configuration: AppConfiguration, activated: [ListeningSocket], timeout: Duration, logger: Logger,
        writer: LogWriter
    ) -> ListenerHandover? {
        let name = CommandFeatures.name
        switch configuration.store.kind {
        case .sqlite: break
        case .memory:
            fail(
                "\(name): --take-over needs --store sqlite: the memory store's sessions cannot be handed over",
                code: 64, after: writer)
        case .postgres:
            fail(
                "\(name): --take-over needs --store sqlite: a node of a cluster is restarted on its own", code: 64,
                after: writer)
        }
        guard activated.isEmpty else {
            fail(
                "\(name): --take-over with sockets from systemd (LISTEN_FDS): systemd keeps the socket across a "
                    + "restart already", code: 64, after: writer)
        }
        let handover: ListenerHandover?
        do {
            handover = try ListenerHandover.request(path: handoverPath(configuration.store), timeout: timeout)
        } catch {
            fail("\(name): cannot take over: \(error); the running server keeps serving", code: 75, after: writer)
        }
        guard let handover else {
            logger.notice(
                "take-over: no server runs on the data directory; starting as usual",
                metadata: ["dataDir": "\(configuration.store.dataDirectory)"])
            return nil
        }
        let port = configuration.http.port
        if port != 0, let running = handover.sockets.first?.address, running.port != port {
            fail(
                "\(name): cannot take over: the running server listens on \(running), not on port \(port); "
                    + "it keeps serving", code: 64, after: writer)
        }
        return handover
    }

    /// Asks the running server to drain and release the data directory; it then waits up to `timeout` for this
    /// process to say it serves, and serves again if this one exits first.
    static func release(_ handover: ListenerHandover, timeout: Duration, logger: Logger, writer: LogWriter) {
        do {
            try handover.release(timeout: timeout)
        } catch {
            fail(
                "\(CommandFeatures.name): cannot take over: \(error); the running server keeps serving", code: 75,
                after: writer)
        }
        logger.notice(
            "take-over: the running server hands over and drains",
            metadata: ["sockets": "\(handover.sockets.map { "\($0.address)" }.joined(separator: ", "))"])
    }

    /// Opens the store; during a take-over, waits (up to `deadline`) for the old server to release the data
    /// directory's lock instead of exiting 75 at once.
    static func openStore(
        _ configuration: AppConfiguration, waitingUntil deadline: ContinuousClock.Instant?
    ) async throws(StorageError) -> (any SessionStorage)? {
        while true {
            do {
                return try makeStorage(
                    configuration.store, features: configuration.features.types,
                    historyInputs: configuration.sessions.historyVersions, database: CommandFeatures.database)
            } catch {
                guard case .inUse = error, let deadline, ContinuousClock.now < deadline else { throw error }
                // Polled: flock has no wait with a deadline, and the old server releases once, within its drain.
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    /// The handover socket of a server on the SQLite store; nil (with a warning) when it cannot be made.
    /// `onRelease` gets the release once a new process has the sockets and asks this server to drain.
    static func offerHandover(
        _ configuration: AppConfiguration, server: HTTPServer, logger: Logger,
        onRelease: @escaping @Sendable (ListenerHandoverRelease) -> Void
    ) -> ListenerHandoverPoint? {
        guard configuration.store.kind == .sqlite else { return nil }
        do {
            return try ListenerHandoverPoint(
                path: handoverPath(configuration.store), descriptors: { server.listeningDescriptors }, logger: logger
            ) { release in
                logger.notice("draining: a new process took over the listening sockets")
                onRelease(release)
            }
        } catch {
            logger.warning("serve --take-over cannot take over from this server", metadata: ["error": "\(error)"])
            return nil
        }
    }
}
