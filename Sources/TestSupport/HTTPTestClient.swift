import CSystemShim
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A raw-socket HTTP/1.1 client for tests: it sends exactly the bytes given (malformed ones included) and parses
/// what comes back, with a deadline on every read, so a test fails instead of hanging.
///
/// Waiting happens on a thread of its own, never on the test's own task, so blocked tests cannot starve the
/// small cooperative pool that the server's deferred handlers run on.
///
/// `@unchecked Sendable`: one test uses one client, one call at a time.
public final class HTTPTestClient: @unchecked Sendable {
    /// Why a test client call failed.
    public enum ClientError: Error, CustomStringConvertible {
        case connectFailed(Int32)
        case sendFailed(Int32)
        case timedOut
        case closedBeforeResponse(received: Int)
        case malformedResponse(String)

        /// One line for a test's failure message, with the errno or what was received.
        public var description: String {
            switch self {
            case .connectFailed(let code): "connect failed (errno \(code))"
            case .sendFailed(let code): "send failed (errno \(code))"
            case .timedOut: "timed out waiting for the server"
            case .closedBeforeResponse(let received):
                "the server closed after \(received) bytes, before a full response"
            case .malformedResponse(let reason): "malformed response: \(reason)"
            }
        }
    }

    /// The connected socket's file descriptor, for tests that shut down or half-close it themselves.
    public let fd: Int32
    private var buffer: [UInt8] = []
    private var sawEOF = false

    /// Connects to `host:port` (blocking connect, then reads with deadlines).
    /// - Parameters:
    ///   - port: The server's port.
    ///   - host: The server's address.
    ///   - source: The local address to connect from, such as `127.0.0.2` (any of 127.0.0.0/8 works on Linux), so
    ///     one test can be two clients; nil lets the kernel choose.
    /// - Throws: ``ClientError/connectFailed(_:)`` with the errno.
    public init(port: Int, host: String = "127.0.0.1", source: String? = nil) throws {
        fd = try Self.connectedSocket(port: port, host: host, source: source)
    }

    /// A connected socket, or an error with nothing left open. Closing happens here, before `self` exists: a
    /// throwing init of a fully initialised object still runs `deinit`, and closing twice closed whatever socket
    /// another test had been given the same number in between (seen as "the server closed after 0 bytes").
    public static func connectedSocket(port: Int, host: String = "127.0.0.1", source: String? = nil) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ClientError.connectFailed(errno) }
        // Bound to `source` first when given, then connected; on a failure nothing stays open.
        let steps: [((Int32, UnsafePointer<sockaddr>?, socklen_t) -> Int32, String?, Int)] = [
            (bind, source, 0), (connect, host, port),
        ]
        for (call, host, port) in steps {
            guard let host else { continue }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, host, &address.sin_addr)
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    call(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard result == 0 else {
                let code = errno
                Glibc.close(fd)
                throw ClientError.connectFailed(code)
            }
        }
        _ = vh_set_nodelay(fd)
        return fd
    }

    deinit {
        Glibc.close(fd)
    }

    /// Sends `text` as UTF-8, as is.
    public func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Sends `bytes`, as is, within `timeout` (the server must take them by then).
    ///
    /// Never a send that may block for ever: the caller is usually a test's task on the cooperative pool (two
    /// threads here), and a server that stops reading until its handler runs on that same pool would then never
    /// read again. Each send takes what the socket has room for and waits for room with a deadline.
    public func send(_ bytes: [UInt8], timeout: Duration = .seconds(60)) throws {
        let deadline = TestDeadline.after(timeout)
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                sent += count
                continue
            }
            let code = errno
            guard count < 0, code == EAGAIN || code == EWOULDBLOCK || code == EINTR else {
                throw ClientError.sendFailed(code)
            }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { throw ClientError.sendFailed(ETIMEDOUT) }
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&poller, 1, Int32(min(remaining.components.seconds * 1000 + 1, 1000)))
        }
    }

    /// Closes the sending side (the server sees end of input).
    public func shutdownWrite() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Makes `close` send a reset instead of a FIN, as a crashing client would.
    public func closeWithReset() {
        _ = vh_set_linger_zero(fd)
        shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Sets a small receive buffer, so a client that stops reading fills the window quickly.
    public func setReceiveBufferSize(_ bytes: Int32) {
        _ = vh_set_int_option(fd, SOL_SOCKET, SO_RCVBUF, bytes)
    }

    /// Reads one response (by Content-Length, chunked framing, or until close).
    /// - Parameters:
    ///   - timeout: How long to wait for all of it.
    ///   - headRequest: Whether it answers a HEAD request (no body follows).
    /// - Returns: The response.
    /// - Throws: ``ClientError`` when the deadline passes, the server closes first, or the answer is malformed.
    public func readResponse(timeout: Duration = .seconds(60), headRequest: Bool = false) async throws -> TestResponse {
        try await offThread { try self.readResponseBlocking(timeout: timeout, headRequest: headRequest) }
    }

    /// Reads until the server closes the connection; returns what arrived (after any buffered bytes).
    public func readUntilClosed(timeout: Duration = .seconds(60)) async throws -> [UInt8] {
        try await offThread { try self.readUntilClosedBlocking(timeout: timeout) }
    }

    /// Reads until the bytes received (and not yet taken) contain `text`; returns them all, up to the end of
    /// `text`, and keeps the rest buffered. For watching a streamed body arrive piece by piece.
    public func read(untilContaining text: String, timeout: Duration = .seconds(60)) async throws -> [UInt8] {
        try await offThread { try self.readUntilContainingBlocking(Array(text.utf8), timeout: timeout) }
    }

    /// Whether the server closes the connection (EOF or reset) within `timeout`, discarding data.
    public func waitForClose(timeout: Duration = .seconds(60)) async -> Bool {
        (try? await offThread { self.waitForCloseBlocking(timeout: timeout) }) ?? false
    }

    /// Runs a blocking wait on a thread of its own: the global Dispatch queues are capped near the core count on
    /// Linux, so parallel tests blocking there would starve each other.
    private func offThread<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await OffThread.run(work)
    }

    private func readResponseBlocking(timeout: Duration, headRequest: Bool) throws -> TestResponse {
        let deadline = TestDeadline.after(timeout)
        while true {
            if let (response, used) = try TestResponse.parse(buffer, complete: sawEOF, headRequest: headRequest) {
                buffer.removeFirst(used)
                return response
            }
            if sawEOF { throw ClientError.closedBeforeResponse(received: buffer.count) }
            try fill(until: deadline)
        }
    }

    private func readUntilClosedBlocking(timeout: Duration) throws -> [UInt8] {
        let deadline = TestDeadline.after(timeout)
        while !sawEOF { try fill(until: deadline) }
        defer { buffer.removeAll() }
        return buffer
    }

    private func readUntilContainingBlocking(_ pattern: [UInt8], timeout: Duration) throws -> [UInt8] {
        let deadline = TestDeadline.after(timeout)
        while true {
            if let start = TestResponse.find(pattern, in: buffer, from: 0) {
                let taken = Array(buffer[..<(start + pattern.count)])
                buffer.removeFirst(taken.count)
                return taken
            }
            if sawEOF { throw ClientError.closedBeforeResponse(received: buffer.count) }
            try fill(until: deadline)
        }
    }

    private func waitForCloseBlocking(timeout: Duration) -> Bool {
        let deadline = TestDeadline.after(timeout)
        while !sawEOF {
            do { try fill(until: deadline) } catch ClientError.timedOut { return false } catch { return true }
        }
        return true
    }

    /// Bytes received but not yet parsed into a response.
    public var pendingBytes: [UInt8] { buffer }

    private func fill(until deadline: ContinuousClock.Instant) throws {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { throw ClientError.timedOut }
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(
            remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
        let ready = poll(&poller, 1, milliseconds)
        guard ready > 0 else {
            if ready < 0, errno == EINTR { return }
            throw ClientError.timedOut
        }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            buffer.append(contentsOf: chunk[0..<count])
        } else if count == 0 || errno == ECONNRESET {
            sawEOF = true
        } else if errno != EINTR && errno != EAGAIN {
            sawEOF = true
        }
    }
}
