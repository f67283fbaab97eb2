import CSystemShim
import Foundation
import TestSupport
import ViewHostLocking

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback TCP forwarder between a client and a server that a test can cut: ``dropConnections()`` ends every
/// open connection (as a network failure would), ``dropNextResponse()`` swallows the next bytes the server sends
/// and cuts that connection (the server did the work, the client never hears of it), ``upstreamPort`` can move
/// to a restarted server. One thread per direction per connection; test traffic is small.
final class TCPProxy: Sendable {
    private struct State {
        var upstreamPort: Int
        var open: [ObjectIdentifier: Link] = [:]
        var dropNextResponse = false
        var replaceNextResponse: [UInt8]?
        var refusedUpstream = 0
        var closed = false
    }

    /// The port clients connect to.
    let port: Int
    private let listener: Int32
    private let state: Locked<State>

    /// Listens on a free loopback port and forwards to `upstreamPort`.
    init(upstreamPort: Int) throws {
        state = Locked(State(upstreamPort: upstreamPort))
        (listener, port) = try LoopbackListener.open()
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Where new connections go (a restarted server's port).
    var upstreamPort: Int {
        get { state.withLock { $0.upstreamPort } }
        set { state.withLock { $0.upstreamPort = newValue } }
    }

    /// How many connections were cut at once because nothing listened on the upstream port.
    var connectionsRefusedUpstream: Int { state.withLock { $0.refusedUpstream } }

    /// Ends every open connection, in both directions.
    func dropConnections() {
        // Under the lock: a link leaves `open` (and closes its sockets) under it too, so no socket number cut here
        // can belong to a newer connection.
        state.withLock { state in state.open.values.forEach { $0.cut() } }
    }

    /// The next bytes a server sends on any connection are not forwarded: that connection is cut instead.
    func dropNextResponse() {
        state.withLock { $0.dropNextResponse = true }
    }

    /// The next answer a server sends on any connection is not forwarded: `response` goes to the client instead and
    /// that connection is cut (a proxy that lost its server after forwarding the request: nginx's `502`).
    func replaceNextResponse(with response: String) {
        state.withLock { $0.replaceNextResponse = Array(response.utf8) }
    }

    /// Stops listening and cuts every connection.
    func close() {
        state.withLock { $0.closed = true }
        shutdown(listener, Int32(SHUT_RDWR))
        dropConnections()
    }

    deinit {
        Glibc.close(listener)
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let upstream = try? HTTPTestClient.connectedSocket(port: upstreamPort)
            if upstream == nil { state.withLock { $0.refusedUpstream += 1 } }
            guard let upstream, !state.withLock({ $0.closed }) else {
                Glibc.close(client)
                if let upstream { Glibc.close(upstream) }
                continue
            }
            let link = Link(client: client, upstream: upstream)
            state.withLock { $0.open[ObjectIdentifier(link)] = link }
            Thread.detachNewThread { [self] in pump(link, from: link.client, to: link.upstream, response: false) }
            Thread.detachNewThread { [self] in pump(link, from: link.upstream, to: link.client, response: true) }
        }
    }

    private func pump(_ link: Link, from source: Int32, to destination: Int32, response: Bool) {
        var buffer = [UInt8](repeating: 0, count: 16384)
        loop: while true {
            let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            if response,
                state.withLock({ state in
                    defer { state.dropNextResponse = false }; return state.dropNextResponse
                })
            {
                break
            }
            if response,
                let replacement = state.withLock({ state in
                    defer { state.replaceNextResponse = nil }; return state.replaceNextResponse
                })
            {
                _ = replacement.withUnsafeBytes { send(destination, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                break
            }
            var sent = 0
            while sent < count {
                let written = buffer.withUnsafeBytes {
                    send(destination, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL))
                }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { break loop }
                sent += written
            }
        }
        link.cut()
        state.withLock { state in
            if link.finishOneSide() {
                state.open.removeValue(forKey: ObjectIdentifier(link))
                link.closeBoth()
            }
        }
    }
}

/// One forwarded connection: its two sockets, closed once both directions have stopped.
private final class Link: Sendable {
    let client: Int32
    let upstream: Int32
    private let running = Locked(2)

    init(client: Int32, upstream: Int32) {
        self.client = client
        self.upstream = upstream
    }

    /// Stops both directions (the sockets stay open until both pumps are done with them).
    func cut() {
        shutdown(client, Int32(SHUT_RDWR))
        shutdown(upstream, Int32(SHUT_RDWR))
    }

    /// Notes that one direction stopped; true for the second one.
    func finishOneSide() -> Bool {
        running.withLock { count in
            count -= 1
            return count == 0
        }
    }

    func closeBoth() {
        Glibc.close(client)
        Glibc.close(upstream)
    }
}
