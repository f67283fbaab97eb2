import CSystemShim
import ViewHostLocking

/// A client for relaying requests to other HTTP/1.1 servers (a reverse proxy's upstream side): it sends a received
/// request on, with header fields of its own, and turns the answer into a response this server can send, its body
/// streamed through as it comes when the upstream sends it in chunks (event streams).
///
/// Connections are kept alive and reused, a few per upstream. Sockets never block: a send or read that must wait
/// registers with the client's ``UpstreamPoller`` (one thread for every wait), so a relayed event stream or long
/// poll holds a connection, never a thread, until it ends or the client goes away.
///
/// ```swift
/// let upstream = HTTPUpstream()
/// let response = try await upstream.send(request, to: "10.0.0.7:9090", adding: ["X-Hop": "…"])
/// ```
public final class HTTPUpstream: Sendable {
    /// How long a connect may take.
    public let connectTimeout: Duration
    /// How long the upstream may stay silent while an answer is awaited or streamed.
    public let readTimeout: Duration
    /// The largest answer body read whole (a streamed one has no limit).
    public let maxBodyBytes: Int
    private let idle = Locked<[String: [UpstreamConnection]]>([:])
    private let maxIdlePerUpstream = 64
    private let poller = UpstreamPoller()

    /// Creates a client.
    public init(
        connectTimeout: Duration = .seconds(1), readTimeout: Duration = .seconds(120), maxBodyBytes: Int = 64 << 20
    ) {
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
        self.maxBodyBytes = maxBodyBytes
    }

    /// Sends `request` (its method, target, fields and body) to `address` (`host:port`), with `fields` set in
    /// place of any the client sent under the same names, and returns the answer. Nothing blocks a thread: the
    /// waits are the poller's.
    /// - Throws: ``HTTPUpstreamError``: `unreachable` when no connection could be made (nothing was sent);
    ///   `failed` when the request went out but no whole answer head came back. A request that may run twice
    ///   (``mayRepeat(_:)``) whose connection closed before any byte of an answer is sent once more first.
    public func send(
        _ request: HTTPRequest, to address: String, setting fields: [(HTTPHeaderName, String)]
    ) async throws(HTTPUpstreamError) -> HTTPResponse {
        let wire = Self.wire(request, address: address, setting: fields)
        if let kept = takeIdle(address) {
            let readBefore = kept.bytesRead
            do {
                return try await exchange(wire, on: kept, method: request.method)
            } catch .failed where kept.bytesRead == readBefore && Self.mayRepeat(request) {
                // The kept connection broke before any byte of an answer (the upstream closed it, or reset it, as
                // it was reused), so the upstream most likely never read the request; one that must not run twice
                // is not sent again (its client hears it failed).
            }
        }
        let fresh = try await connect(address)
        do {
            return try await exchange(wire, on: fresh, method: request.method)
        } catch .failed where fresh.bytesRead == 0 && Self.mayRepeat(request) {
            // A new connection closed before any byte of an answer: the upstream stopped as it came (a connection
            // queued on a listener that closes is closed unread). Once more: the next connect reaches the
            // upstream's new process, or finds none (`unreachable`, so the caller knows nothing was applied).
        }
        return try await exchange(wire, on: connect(address), method: request.method)
    }

    /// Whether `request` may be sent a second time: its method is idempotent, or it names its
    /// `Idempotency-Key` (a server that saw it answers a repeat with the first answer).
    static func mayRepeat(_ request: HTTPRequest) -> Bool {
        [.get, .head, .options, .delete, .put].contains(request.method)
            || request.headers.contains(HTTPHeaderName("Idempotency-Key"))
    }

    private func exchange(
        _ wire: [UInt8], on connection: UpstreamConnection, method: HTTPMethod
    ) async throws(HTTPUpstreamError) -> HTTPResponse {
        var sent = 0
        let deadline = ContinuousClock.now.advanced(by: readTimeout)
        while sent < wire.count {
            let count = try connection.send(wire, from: sent)
            sent += count
            if count == 0 { try await wait(connection, for: VH_EPOLLOUT, until: deadline) }
        }
        var head = try await take(connection) { () throws(HTTPUpstreamError) in try connection.takeHead() }
        while (100...199).contains(head.status.code) {
            head = try await take(connection) { () throws(HTTPUpstreamError) in try connection.takeHead() }
        }
        var response = HTTPResponse(status: head.status, headers: head.headers)
        if method == .head || !head.status.allowsContent {
            release(connection)
        } else if head.chunked {
            response.body = .stream(relay(connection))
        } else if let length = head.length {
            guard length <= maxBodyBytes else {
                connection.shutDown()
                throw .failed(address: connection.address, reason: "an answer of \(length) bytes")
            }
            if length > 0 {
                response.body = .bytes(
                    try await take(connection) { () throws(HTTPUpstreamError) in try connection.takeBytes(length) })
            }
            release(connection)
        } else {
            let limit = maxBodyBytes
            response.body = .bytes(
                try await take(connection) { () throws(HTTPUpstreamError) in try connection.takeToEnd(limit: limit) })
        }
        return response
    }

    /// What `part` takes out of what `connection` read, reading more (and waiting for it) until it is whole.
    private func take<Part>(
        _ connection: UpstreamConnection, _ part: () throws(HTTPUpstreamError) -> Part?
    ) async throws(HTTPUpstreamError) -> Part {
        let deadline = ContinuousClock.now.advanced(by: readTimeout)
        while true {
            if let whole = try part() { return whole }
            if try !connection.receive() { try await wait(connection, for: VH_EPOLLIN, until: deadline) }
        }
    }

    private func wait(
        _ connection: UpstreamConnection, for events: UInt32, until deadline: ContinuousClock.Instant
    ) async throws(HTTPUpstreamError) {
        guard await poller.wait(connection.fd, for: events, until: deadline) else {
            connection.shutDown()
            throw .failed(address: connection.address, reason: "no answer within \(readTimeout)")
        }
    }

    /// The chunks of `connection`'s answer, each written on as it comes; the connection is kept once the last
    /// chunk is read, and shut when the client goes away first.
    private func relay(_ connection: UpstreamConnection) -> HTTPBodyStream {
        HTTPBodyStream { [self] writer in
            var finished = false
            defer { if finished { release(connection) } else { connection.shutDown() } }
            try await withTaskCancellationHandler {
                while case .data(let part) = try await take(
                    connection,
                    { () throws(HTTPUpstreamError) in
                        try connection.takeChunk()
                    })
                {
                    try await writer.write(part)
                }
                finished = true
            } onCancel: {
                connection.shutDown()
            }
        }
    }

    private func connect(_ address: String) async throws(HTTPUpstreamError) -> UpstreamConnection {
        guard let named = HostAndPort(address) else { throw .unreachable(address: address, reason: "not HOST:PORT") }
        let target: SocketAddress
        do {
            target = try SocketAddress(host: named.host, port: named.port)
        } catch {
            throw .unreachable(address: address, reason: "\(error)")
        }
        let (connection, pending) = try UpstreamConnection.open(target, address: address)
        if pending {
            guard await poller.wait(connection.fd, for: VH_EPOLLOUT, until: .now.advanced(by: connectTimeout)) else {
                throw .unreachable(address: address, reason: "no answer to connect within \(connectTimeout)")
            }
            try connection.finishConnect()
        }
        return connection
    }

    private func takeIdle(_ address: String) -> UpstreamConnection? {
        while let connection = idle.withLock({ $0[address]?.popLast() }) {
            if connection.isIdleAndOpen { return connection }
        }
        return nil
    }

    /// Keeps `connection` for the next request (whether the upstream closed it meanwhile is asked when it is
    /// taken again).
    private func release(_ connection: UpstreamConnection) {
        guard connection.isBetweenAnswers else { return }
        idle.withLock { idle in
            if idle[connection.address, default: []].count < maxIdlePerUpstream {
                idle[connection.address, default: []].append(connection)
            }
        }
    }

    /// The request as sent upstream: its line, its fields but the dropped ones (``UpstreamHead/dropped``) and those
    /// in `fields`, then `fields`, `Host` when it had none, the body's length and the body.
    static func wire(_ request: HTTPRequest, address: String, setting fields: [(HTTPHeaderName, String)]) -> [UInt8] {
        var wire: [UInt8] = []
        wire.reserveCapacity(request.head.count + 256 + request.body.count)
        wire.append(contentsOf: request.method.rawValue.utf8)
        wire.append(UInt8(ascii: " "))
        wire.append(contentsOf: request.head[request.targetRange])
        wire.append(contentsOf: " HTTP/1.1\r\n".utf8)
        var hasHost = false
        request.headers.forEachField { name, value in
            if UpstreamHead.isDropped(name) || fields.contains(where: { $0.0.matches(name) }) { return true }
            if ByteClass.equalsIgnoringCase(name, "host") { hasHost = true }
            wire.append(contentsOf: name)
            wire.append(contentsOf: ": ".utf8)
            wire.append(contentsOf: value)
            wire.append(contentsOf: "\r\n".utf8)
            return true
        }
        var extra = hasHost ? "" : "Host: \(address)\r\n"
        for (name, value) in fields { extra += "\(name.rawName): \(value)\r\n" }
        if !request.body.isEmpty || [.post, .put, .patch].contains(request.method) {
            extra += "Content-Length: \(request.body.count)\r\n"
        }
        extra += "\r\n"
        wire.append(contentsOf: extra.utf8)
        wire.append(contentsOf: request.body)
        return wire
    }
}
