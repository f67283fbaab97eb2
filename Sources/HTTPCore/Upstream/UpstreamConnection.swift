import CSystemShim

#if canImport(Glibc)
import Glibc
#endif

/// One blocking TCP connection to an upstream HTTP/1.1 server: writes a request, reads the answer's head and its
/// body (by `Content-Length`, chunked framing, or to the end of the connection).
///
/// Used by one thread at a time (never an event loop: every call blocks), handed between threads by its pool or
/// by the relay of a streamed body; the descriptor closes with the object. `@unchecked Sendable` for that hand-over.
final class UpstreamConnection: @unchecked Sendable {
    let address: String
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var position = 0
    /// Whether the connection can carry another request once the current answer is read.
    private(set) var reusable = true

    /// The longest answer head read.
    static let maxHeadBytes = 64 * 1024

    /// Connects to `host`:`port` within `timeout`, then sets `readTimeout` for every later read and write.
    /// - Throws: ``HTTPUpstreamError/unreachable(address:reason:)``.
    init(host: String, port: Int, connectTimeout: Duration, readTimeout: Duration) throws(HTTPUpstreamError) {
        address = "\(host):\(port)"
        let target: SocketAddress
        do {
            target = try SocketAddress(host: host, port: port)
        } catch {
            throw .unreachable(address: address, reason: "\(error)")
        }
        let fd = socket(target.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .unreachable(address: address, reason: Self.errnoText()) }
        self.fd = fd
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        // Connect without blocking, bounded by the timeout; then back to blocking with timeouts on each call.
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        let started = target.withSockAddr { connect(fd, $0, $1) }
        if started != 0 {
            guard errno == EINPROGRESS else { throw .unreachable(address: address, reason: Self.errnoText()) }
            var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&descriptor, 1, Int32(Self.milliseconds(connectTimeout)))
            guard ready > 0 else { throw .unreachable(address: address, reason: "no answer to connect in \(connectTimeout)") }
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length)
            guard failure == 0 else {
                throw .unreachable(address: address, reason: String(cString: strerror(failure)))
            }
        }
        _ = fcntl(fd, F_SETFL, flags)
        var time = timeval(
            tv_sec: Int(readTimeout.components.seconds),
            tv_usec: Int(readTimeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(fd)
    }

    /// Whether an idle connection is still open with nothing unread: an upstream that closed it (its idle
    /// timeout) makes it readable, and such a connection must not carry a request.
    var isIdleAndOpen: Bool {
        guard position == buffer.count else { return false }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 0
    }

    /// Ends the connection in both directions, waking a thread blocked reading it.
    func shutDown() {
        reusable = false
        shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Writes all of `bytes`.
    func write(_ bytes: [UInt8]) throws(HTTPUpstreamError) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw fail(Self.errnoText()) }
            sent += count
        }
    }

    /// The answer's head: its status and fields.
    func readHead() throws(HTTPUpstreamError) -> (status: HTTPStatus, headers: HTTPHeaders) {
        var end: Int?
        while end == nil {
            end = headEnd()
            if end == nil {
                guard buffer.count - position < Self.maxHeadBytes else { throw fail("an answer head over 64 KiB") }
                guard try fill() else { throw fail("the connection closed before an answer") }
            }
        }
        let head = String(decoding: buffer[position..<end!], as: UTF8.self)
        position = end! + 4
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)[...]
        let statusLine = lines.popFirst() ?? ""
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let code = Int(parts[1]), (100...599).contains(code)
        else { throw fail("a malformed status line") }
        if parts[0] == "HTTP/1.0" { reusable = false }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw fail("a malformed header line") }
            let value = line[line.index(after: colon)...].trimmingOWS()
            headers.add(HTTPHeaderName(String(line[..<colon])), String(value))
        }
        if headers[.connection]?.lowercased().contains("close") == true { reusable = false }
        return (HTTPStatus(code: code, reasonPhrase: parts.count > 2 ? String(parts[2]) : ""), headers)
    }

    /// Reads exactly `count` body bytes.
    func readBytes(_ count: Int) throws(HTTPUpstreamError) -> [UInt8] {
        while buffer.count - position < count {
            guard try fill() else { throw fail("the connection closed inside the answer's body") }
        }
        defer { position += count }
        return Array(buffer[position..<(position + count)])
    }

    /// Reads to the end of the connection (an answer without length or chunks), at most `limit` bytes.
    func readToEnd(limit: Int) throws(HTTPUpstreamError) -> [UInt8] {
        reusable = false
        while try fill() {
            guard buffer.count - position <= limit else { throw fail("an answer over \(limit) bytes") }
        }
        defer { position = buffer.count }
        return Array(buffer[position...])
    }

    /// The next chunk of a chunked body (its data; trailers are read and dropped), or nil after the last one.
    func readChunk() throws(HTTPUpstreamError) -> [UInt8]? {
        let sizeLine = try readLine()
        let hex = sizeLine.split(separator: ";", maxSplits: 1).first.map { $0.trimmingOWS() } ?? ""
        guard let size = Int(hex, radix: 16), size >= 0, size <= 16 << 20 else { throw fail("a malformed chunk size") }
        if size == 0 {
            while try !readLine().isEmpty {}
            return nil
        }
        let data = try readBytes(size)
        guard try readLine().isEmpty else { throw fail("a chunk without its line end") }
        return data
    }

    private func readLine() throws(HTTPUpstreamError) -> String {
        while true {
            if let newline = buffer[position...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > position, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                defer { position = newline + 1 }
                return String(decoding: buffer[position..<end], as: UTF8.self)
            }
            guard buffer.count - position < 4096 else { throw fail("a chunk line over 4 KiB") }
            guard try fill() else { throw fail("the connection closed inside the answer's body") }
        }
    }

    private func headEnd() -> Int? {
        guard buffer.count - position >= 4 else { return nil }
        var index = position
        while index + 3 < buffer.count {
            if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 {
                return index
            }
            index += 1
        }
        return nil
    }

    /// Reads what is there (blocking up to the read timeout).
    /// - Returns: false at the end of the connection.
    private func fill() throws(HTTPUpstreamError) -> Bool {
        if position > 0, position == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            position = 0
        }
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            if count < 0 {
                throw fail(errno == EAGAIN || errno == EWOULDBLOCK ? "no answer in time" : Self.errnoText())
            }
            if count == 0 {
                reusable = false
                return false
            }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
    }

    private func fail(_ reason: String) -> HTTPUpstreamError {
        reusable = false
        return .failed(address: address, reason: reason)
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }

    private static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
