import Dispatch
import ViewHostLocking

/// A client for relaying requests to other HTTP/1.1 servers (a reverse proxy's upstream side): it sends a received
/// request on, with header fields of its own, and turns the answer into a response this server can send, its body
/// streamed through as it comes when the upstream sends it in chunks (event streams).
///
/// Connections are kept alive and reused, a few per upstream. Every socket call blocks, so it runs on a queue of
/// its own (never an event loop); a streamed body holds its connection (and, while waiting for its next part, one
/// thread) until it ends or the client goes away.
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
    private let maxIdlePerUpstream = 16
    private let queue = DispatchQueue(label: "viewhost.upstream", attributes: .concurrent)

    /// Creates a client.
    public init(connectTimeout: Duration = .seconds(1), readTimeout: Duration = .seconds(120), maxBodyBytes: Int = 64 << 20) {
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
        self.maxBodyBytes = maxBodyBytes
    }

    /// Fields that describe one connection, not the message (RFC 9110 §7.6.1), and those the body's framing
    /// sets: never passed on in either direction.
    static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
        "content-length", "expect",
    ]

    /// Sends `request` (its method, target, fields and body) to `address` (`host:port`), with `fields` set in
    /// place of any the client sent under the same names, and returns the answer.
    /// - Throws: ``HTTPUpstreamError``: `unreachable` when no connection could be made (nothing was sent);
    ///   `failed` when the request went out but no whole answer head came back.
    public func send(
        _ request: HTTPRequest, to address: String, setting fields: [(HTTPHeaderName, String)]
    ) async throws(HTTPUpstreamError) -> HTTPResponse {
        let wire = Self.wire(request, address: address, setting: fields)
        let result: Result<HTTPResponse, HTTPUpstreamError> = await withCheckedContinuation { continuation in
            queue.async { [self] in
                continuation.resume(returning: Result { () throws(HTTPUpstreamError) in
                    try exchange(wire, to: address, method: request.method)
                })
            }
        }
        return try result.get()
    }

    /// Sends `wire` on a kept connection, or a new one; a kept one the upstream closed meanwhile is replaced
    /// when nothing of the answer came (the upstream never saw the request).
    private func exchange(_ wire: [UInt8], to address: String, method: HTTPMethod) throws(HTTPUpstreamError) -> HTTPResponse {
        if let kept = takeIdle(address) {
            do {
                return try exchange(wire, on: kept, method: method)
            } catch .failed(_, let reason) where reason == Self.closedBeforeAnswer {
                // An idle connection closed as it was reused: the request was never read.
            }
        }
        return try exchange(wire, on: connect(address), method: method)
    }

    private static let closedBeforeAnswer = "the connection closed before an answer"

    private func exchange(
        _ wire: [UInt8], on connection: UpstreamConnection, method: HTTPMethod
    ) throws(HTTPUpstreamError) -> HTTPResponse {
        try connection.write(wire)
        var (status, headers) = try connection.readHead()
        while (100...199).contains(status.code) {
            (status, headers) = try connection.readHead()
        }
        let chunked = headers[.transferEncoding]?.lowercased().contains("chunked") == true
        let length = headers[.contentLength].flatMap { Int($0.trimmingOWS()) }
        for name in Self.hopByHop { headers.remove(HTTPHeaderName(name)) }
        var response = HTTPResponse(status: status, headers: headers)
        if method == .head || !status.allowsContent {
            release(connection)
        } else if chunked {
            response.body = .stream(relay(connection))
        } else if let length {
            guard length <= maxBodyBytes else {
                connection.shutDown()
                throw .failed(address: connection.address, reason: "an answer of \(length) bytes")
            }
            response.body = length == 0 ? .empty : .bytes(try connection.readBytes(length))
            release(connection)
        } else {
            response.body = .bytes(try connection.readToEnd(limit: maxBodyBytes))
        }
        return response
    }

    /// The chunks of `connection`'s answer, each written on as it comes; the connection is kept once the last
    /// chunk is read, and shut when the client goes away first.
    private func relay(_ connection: UpstreamConnection) -> HTTPBodyStream {
        HTTPBodyStream { [self] writer in
            var finished = false
            defer { if finished { release(connection) } else { connection.shutDown() } }
            try await withTaskCancellationHandler {
                while let part = try await nextChunk(of: connection) {
                    try await writer.write(part)
                }
                finished = true
            } onCancel: {
                connection.shutDown()
            }
        }
    }

    private func nextChunk(of connection: UpstreamConnection) async throws(HTTPUpstreamError) -> [UInt8]? {
        let result: Result<[UInt8]?, HTTPUpstreamError> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: Result { () throws(HTTPUpstreamError) in try connection.readChunk() })
            }
        }
        return try result.get()
    }

    private func connect(_ address: String) throws(HTTPUpstreamError) -> UpstreamConnection {
        guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]) else {
            throw .unreachable(address: address, reason: "not HOST:PORT")
        }
        var host = String(address[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return try UpstreamConnection(host: host, port: port, connectTimeout: connectTimeout, readTimeout: readTimeout)
    }

    private func takeIdle(_ address: String) -> UpstreamConnection? {
        while let connection = idle.withLock({ $0[address]?.popLast() }) {
            if connection.isIdleAndOpen { return connection }
        }
        return nil
    }

    private func release(_ connection: UpstreamConnection) {
        guard connection.reusable, connection.isIdleAndOpen else { return }
        idle.withLock { idle in
            if idle[connection.address, default: []].count < maxIdlePerUpstream {
                idle[connection.address, default: []].append(connection)
            }
        }
    }

    /// The request as sent upstream: its line, its fields but the hop-by-hop ones and those in `fields`, then
    /// `fields`, `Host` when it had none, the body's length and the body.
    static func wire(_ request: HTTPRequest, address: String, setting fields: [(HTTPHeaderName, String)]) -> [UInt8] {
        var head = "\(request.method.rawValue) \(request.target) HTTP/1.1\r\n"
        let replaced = Set(fields.map(\.0.lowercased))
        var hasHost = false
        for field in request.headers {
            let name = field.name.lowercased()
            if hopByHop.contains(name) || replaced.contains(name) { continue }
            if name == "host" { hasHost = true }
            head += "\(field.name): \(field.value)\r\n"
        }
        if !hasHost { head += "Host: \(address)\r\n" }
        for (name, value) in fields { head += "\(name.rawName): \(value)\r\n" }
        if !request.body.isEmpty || [.post, .put, .patch].contains(request.method) {
            head += "Content-Length: \(request.body.count)\r\n"
        }
        head += "\r\n"
        return Array(head.utf8) + request.body
    }
}
