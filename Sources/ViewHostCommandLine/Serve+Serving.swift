import Foundation
import HTTPCore
import HTTPTLS
import Logging
import ServiceLifecycle
import Synchronization
import ViewHost
import ViewModelCore

extension Serve {
    /// Where the server listens.
    enum Listening: Sendable {
        /// On `--host`/`--port`, bound here.
        case bound
        /// On the sockets systemd passed.
        case activated([ListeningSocket])
        /// On the sockets of the server this process takes over from; it is told once this one serves.
        case handedOver(ListenerHandover)
        /// Again on this process's own sockets, kept across a take-over that failed.
        case kept([ListeningSocket])
    }

    /// The serving of one `serve` process: the app on its store until SIGTERM, or until a new process takes over.
    /// When that new process fails (``ListenerHandoverRelease/Word/failed(_:)``), the store is opened again and a
    /// new app serves on the same listening sockets, so the process that was running goes on as if nothing happened.
    final class Serving: Sendable {
        private struct State {
            var group: ServiceGroup?
            var stopping = false
        }

        let configuration: AppConfiguration
        let logger: Logger
        let writer: LogWriter
        let tls: TLSContext?
        private let state = Mutex(State())

        init(configuration: AppConfiguration, logger: Logger, writer: LogWriter, tls: TLSContext?) {
            self.configuration = configuration
            self.logger = logger
            self.writer = writer
            self.tls = tls
        }

        /// SIGTERM or SIGINT: drain, then exit (also when a take-over is under way).
        func stop() async {
            let group = state.withLock { state in
                state.stopping = true
                return state.group
            }
            await group?.triggerGracefulShutdown()
        }

        /// Serves until stopped, or until a new process took over and serves.
        func run(_ listening: Listening, storage: (any SessionStorage)?) async throws {
            var listening = listening
            var storage = storage
            var first = true
            while true {
                let release = try await serveOnce(listening, storage: storage, announce: first)
                first = false
                guard let release else { return }
                let word = await Self.awaitWord(release)
                if word == .serving {
                    release.closeSockets()
                    logger.notice("take-over done: the new process serves; exiting")
                    return
                }
                if state.withLock({ $0.stopping }) {
                    release.closeSockets()
                    logger.notice("take-over failed (\(word)); not serving again: a signal asked this server to stop")
                    return
                }
                do {
                    // The new process let go of the lock when it failed; one that hangs with the store open holds it.
                    storage = try await Serve.openStore(configuration, waitingUntil: .now + release.timeout)
                } catch {
                    Serve.fail(
                        "\(CommandFeatures.name): the take-over failed (\(word)) and this server cannot open the store "
                            + "again: \(error)", code: error.exitCode, after: writer)
                }
                logger.warning(
                    "take-over failed: \(word); serving again on the same sockets",
                    metadata: ["sockets": "\(release.sockets.map { "\($0.address)" }.joined(separator: ", "))"])
                listening = .kept(release.sockets)
            }
        }

        /// The new process's word, waited for on a thread of its own (it blocks up to the release's timeout).
        private static func awaitWord(_ release: ListenerHandoverRelease) async -> ListenerHandoverRelease.Word {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread { continuation.resume(returning: release.awaitWord()) }
            }
        }

        /// One app on `storage` until it drains; returns the release when a new process took over.
        private func serveOnce(_ listening: Listening, storage: (any SessionStorage)?, announce: Bool) async throws
            -> ListenerHandoverRelease?
        {
            let name = CommandFeatures.name
            let app = makeApp(configuration: configuration, logger: logger, security: tls, storage: storage)
            let server = app.server
            do throws(SocketError) {
                switch listening {
                case .bound:
                    try server.start()
                case .activated(let sockets):
                    try server.start(listeningOn: sockets)
                    logger.notice(
                        "serving on the sockets systemd passed (LISTEN_FDS), not on --host/--port",
                        metadata: ["sockets": "\(sockets.map { "fd \($0.fd) \($0.address)" }.joined(separator: ", "))"])
                case .handedOver(let handover):
                    try server.start(listeningOn: handover.sockets)
                    // The running server exits on this word; had this process failed before it, it would serve on.
                    handover.serving()
                    logger.notice("took over the running server's sockets and data directory")
                case .kept(let sockets):
                    try server.start(listeningOn: sockets)
                }
            } catch {
                Serve.fail(
                    "\(name): cannot listen: \(error)", code: error.isAddressInUse ? 69 : 71, after: writer)
            }
            if let internalServer = app.internalServer {
                do throws(SocketError) {
                    try internalServer.start()
                } catch {
                    Serve.fail(
                        "\(name): cannot listen on the internal address \(configuration.store.internalAddress ?? ""): \(error)",
                        code: error.isAddressInUse ? 69 : 71, after: writer)
                }
                app.announce()
                logger.notice(
                    "taking forwarded requests",
                    metadata: ["address": "\(internalServer.localAddress.map { "\($0)" } ?? "")"])
            }
            // The internal listener is not in the group: a node that stops goes on answering hops while the public
            // one drains, and then hands its sessions over (``ViewHostApp/leaveCluster(within:)``).
            let group = ServiceGroup(services: [HTTPServerService(server: server)], logger: logger)
            let stopping = state.withLock { state in
                state.group = group
                return state.stopping
            }
            let released = Mutex<ListenerHandoverRelease?>(nil)
            // A later `serve --take-over` gets this server's sockets here and then has it drain, as SIGTERM does;
            // offered before the readiness line, so whoever sees the line can take over.
            let point = Serve.offerHandover(configuration, server: server, logger: logger) { release in
                released.withLock { $0 = release }
                Task { await group.triggerGracefulShutdown() }
            }
            if announce {
                // The readiness line (API.md, Process): scripts and tests wait for it and read the real port from it.
                let scheme = server.isSecure ? "https" : "http"
                FileHandle.standardOutput.write(
                    Data("\(name) listening on \(scheme)://\(server.localAddress.map { "\($0)" } ?? "")\n".utf8))
            }
            // Sessions whose timers are due (a bot reply that fell due while the server was down) load now, in order.
            Task.detached { app.restoreSessionsWithTimers() }
            if stopping { await group.triggerGracefulShutdown() }
            try await group.run()  // ends once the server has drained
            await app.leaveCluster(within: configuration.http.timeouts.drain)
            point?.close()  // before the store lets go of the directory: the next server's point is its own
            app.close()
            state.withLock { $0.group = nil }
            return released.withLock { $0 }
        }
    }
}
