import CSystemShim

#if canImport(Glibc)
import Glibc
#endif

/// One non-blocking TCP connection to an upstream HTTP/1.1 server, and the parsing of its answers: ``HTTPUpstream``
/// sends on it and reads what has come (``receive()``), waiting with its ``UpstreamPoller`` in between, and takes
/// the answer's parts (head, bytes, chunks) out of what was read as soon as they are whole.
///
/// Used by one task at a time (its pool or the relay of one streamed body hands it on); the descriptor closes with
/// the object. `@unchecked Sendable` for that hand-over.
final class UpstreamConnection: @unchecked Sendable {
    let address: String
    let fd: Int32
    private var buffer: [UInt8] = []
    private var position = 0
    /// Whether the connection can carry another request once the current answer is read.
    private(set) var reusable = true
    /// Whether the upstream closed its side.
    private(set) var ended = false
    /// How many bytes were read on the connection so far (whether an answer had begun when it broke).
    private(set) var bytesRead = 0

    /// The longest answer head read.
    static let maxHeadBytes = 64 * 1024

    /// Opens a socket to `target` and starts connecting.
    /// - Returns: The connection, and whether the connect is still in progress (wait until it is writable, then
    ///   call ``finishConnect()``).
    /// - Throws: ``HTTPUpstreamError/unreachable(address:reason:)``.
    static func open(_ target: SocketAddress, address: String) throws(HTTPUpstreamError) -> (UpstreamConnection, Bool) {
        let fd = vh_stream_socket(target.family)
        guard fd >= 0 else { throw .unreachable(address: address, reason: errnoText()) }
        let connection = UpstreamConnection(fd: fd, address: address)
        _ = vh_set_nodelay(fd)
        guard target.withSockAddr({ connect(fd, $0, $1) }) != 0 else { return (connection, false) }
        guard errno == EINPROGRESS else { throw .unreachable(address: address, reason: errnoText()) }
        return (connection, true)
    }

    private init(fd: Int32, address: String) {
        self.fd = fd
        self.address = address
    }

    deinit {
        close(fd)
    }

    /// Whether the connect that was in progress succeeded.
    func finishConnect() throws(HTTPUpstreamError) {
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length)
        guard failure == 0 else { throw .unreachable(address: address, reason: String(cString: strerror(failure))) }
    }

    /// Whether the connection is between answers, with nothing unread, and may carry another request.
    var isBetweenAnswers: Bool { reusable && !ended && position == buffer.count }

    /// Whether an idle connection is still open with nothing unread: an upstream that closed it (its idle
    /// timeout) makes it readable, and such a connection must not carry a request.
    var isIdleAndOpen: Bool {
        guard isBetweenAnswers else { return false }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 0
    }

    /// Ends the connection in both directions (a waiter on it wakes, and its next read sees the end).
    func shutDown() {
        reusable = false
        shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Sends what the socket takes now of `bytes` from `offset`.
    /// - Returns: How many bytes were sent (0: none now; wait until writable).
    func send(_ bytes: [UInt8], from offset: Int) throws(HTTPUpstreamError) -> Int {
        while true {
            let count = bytes.withUnsafeBytes { raw in vh_send(fd, raw.baseAddress! + offset, raw.count - offset) }
            if count >= 0 { return count }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return 0 }
            throw fail(Self.errnoText())
        }
    }

    /// Reads what has come.
    /// - Returns: false when nothing was there (wait until readable); true when bytes came or the upstream
    ///   closed (``ended``).
    func receive() throws(HTTPUpstreamError) -> Bool {
        if position > 0, position == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            position = 0
        }
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { vh_recv(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                bytesRead += count
                buffer.append(contentsOf: chunk[0..<count])
                return true
            }
            if count == 0 {
                ended = true
                reusable = false
                return true
            }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return false }
            throw fail(Self.errnoText())
        }
    }

    /// The answer's head, once all of it was read.
    func takeHead() throws(HTTPUpstreamError) -> UpstreamHead? {
        guard let end = headEnd() else {
            guard buffer.count - position < Self.maxHeadBytes else { throw fail("an answer head over 64 KiB") }
            if ended { throw fail("the connection closed before an answer") }
            return nil
        }
        let head = buffer.withUnsafeBytes { UpstreamHead(UnsafeRawBufferPointer(rebasing: $0[position..<(end + 2)])) }
        position = end + 4
        guard let head else { throw fail("a malformed status line") }
        if head.closes { reusable = false }
        return head
    }

    /// `count` body bytes, once all were read.
    func takeBytes(_ count: Int) throws(HTTPUpstreamError) -> [UInt8]? {
        guard buffer.count - position >= count else {
            if ended { throw fail("the connection closed inside the answer's body") }
            return nil
        }
        defer { position += count }
        return Array(buffer[position..<(position + count)])
    }

    /// Everything up to the end of the connection (an answer without length or chunks), at most `limit` bytes,
    /// once the upstream closed it.
    func takeToEnd(limit: Int) throws(HTTPUpstreamError) -> [UInt8]? {
        reusable = false
        guard buffer.count - position <= limit else { throw fail("an answer over \(limit) bytes") }
        guard ended else { return nil }
        defer { position = buffer.count }
        return Array(buffer[position...])
    }

    /// One part of a chunked body, once it was read whole.
    enum Chunk {
        /// A chunk's data.
        case data([UInt8])
        /// The last chunk and the trailers after it (dropped).
        case end
    }

    /// The next part of a chunked body, once it was read whole; nothing is taken while it is not.
    func takeChunk() throws(HTTPUpstreamError) -> Chunk? {
        var cursor = position
        guard let sizeLine = try line(from: &cursor) else { return try notYet() }
        let hex = sizeLine.split(separator: ";", maxSplits: 1).first.map { $0.trimmingOWS() } ?? ""
        guard let size = Int(hex, radix: 16), size >= 0, size <= 16 << 20 else { throw fail("a malformed chunk size") }
        if size == 0 {
            // Trailers, up to the empty line.
            while true {
                guard let trailer = try line(from: &cursor) else { return try notYet() }
                if trailer.isEmpty { break }
            }
            position = cursor
            return .end
        }
        guard buffer.count - cursor >= size + 2 else { return try notYet() }
        let data = Array(buffer[cursor..<(cursor + size)])
        cursor += size
        guard let end = try line(from: &cursor), end.isEmpty else { throw fail("a chunk without its line end") }
        position = cursor
        return .data(data)
    }

    private func notYet<T>() throws(HTTPUpstreamError) -> T? {
        if ended { throw fail("the connection closed inside the answer's body") }
        return nil
    }

    /// The line at `cursor` (without its CRLF or LF), moving `cursor` past it; nil when it is not all there.
    private func line(from cursor: inout Int) throws(HTTPUpstreamError) -> String? {
        guard let newline = buffer[cursor...].firstIndex(of: UInt8(ascii: "\n")) else {
            guard buffer.count - cursor < 4096 else { throw fail("a chunk line over 4 KiB") }
            return nil
        }
        var end = newline
        if end > cursor, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        defer { cursor = newline + 1 }
        return String(decoding: buffer[cursor..<end], as: UTF8.self)
    }

    private func headEnd() -> Int? {
        guard buffer.count - position >= 4 else { return nil }
        return buffer.withUnsafeBufferPointer { bytes in
            var index = position
            while index + 3 < bytes.count {
                if bytes[index + 3] != 10 {
                    index += bytes[index + 3] == 13 ? 1 : 4
                    continue
                }
                if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13 { return index }
                index += 1
            }
            return nil
        }
    }

    private func fail(_ reason: String) -> HTTPUpstreamError {
        reusable = false
        return .failed(address: address, reason: reason)
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
