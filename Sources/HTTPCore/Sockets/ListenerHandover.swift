import CSystemShim
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The new process's side of a take-over (as HAProxy's `-x` and Envoy's hot restart do): it connects to the
/// running server's ``ListenerHandoverPoint`` (a unix socket), receives copies of every listening socket
/// (`SCM_RIGHTS`), and, once it is ready to wait for the server's store, asks it to ``release()``. The sockets
/// stay open throughout, so connections made during the switch queue on them and are never refused.
///
/// `@unchecked Sendable`: one caller uses it, one call at a time.
public final class ListenerHandover: @unchecked Sendable {
    /// What the new process sends first. Version 2: the running server waits for the new one's word after
    /// releasing the store (``ListenerHandoverRelease``), where version 1 exited.
    static let request = "viewhost take-over 2\n"
    /// What it sends when the running server should stop and let go: `release <milliseconds>`, how long the new
    /// process may take from then on to say it serves.
    static let releasePrefix = "release "
    /// What it sends once it serves.
    static let servingWord = "serving\n"

    /// The timeout a release line gives, or nil when the line is not one.
    static func releaseTimeout(_ line: String) -> Duration? {
        guard line.hasPrefix(releasePrefix), line.hasSuffix("\n"),
            let milliseconds = Int64(line.dropFirst(releasePrefix.count).dropLast()), milliseconds > 0
        else { return nil }
        return .milliseconds(milliseconds)
    }

    /// The running server's listening sockets, checked (``ListeningSocket/adopt(_:)``); the caller owns them.
    public let sockets: [ListeningSocket]
    private let connection: Int32

    private init(connection: Int32, sockets: [ListeningSocket]) {
        self.connection = connection
        self.sockets = sockets
    }

    deinit { Glibc.close(connection) }

    /// Asks the server listening at `path` for its sockets.
    /// - Parameters:
    ///   - path: The running server's ``ListenerHandoverPoint`` path.
    ///   - timeout: How long the server may take to answer (a stopped or hung one never does).
    /// - Returns: The handover, or nil when no server listens at `path` (nothing to take over).
    /// - Throws: ``ListenerHandoverError`` when a server is there but gives no usable sockets in time.
    public static func request(path: String, timeout: Duration) throws(ListenerHandoverError) -> ListenerHandover? {
        let fd = vh_unix_connect(path)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ECONNREFUSED { return nil }
            throw .cannotConnect(path: path, reason: String(cString: strerror(code)))
        }
        _ = vh_set_io_timeout(fd, Int32(clamping: timeout.components.seconds * 1000 + 1))
        var fds = [Int32](repeating: -1, count: 64)
        var count = Int32(fds.count)
        var bytes = [UInt8](repeating: 0, count: 64)
        let received: Int
        if Self.write(request, to: fd) {
            received = vh_recv_fds(fd, &bytes, bytes.count, &fds, &count)
        } else {
            received = -1
        }
        guard received > 0 else {
            let code = errno
            Glibc.close(fd)
            if received == 0 { throw .refused }
            if code == EAGAIN || code == EWOULDBLOCK { throw .noAnswer(timeout) }
            throw .cannotConnect(path: path, reason: String(cString: strerror(code)))
        }
        let passed = Array(fds.prefix(Int(count)))
        let text = String(decoding: bytes.prefix(received), as: UTF8.self)
        guard text == "listeners \(passed.count)\n", !passed.isEmpty else {
            for descriptor in passed { Glibc.close(descriptor) }
            Glibc.close(fd)
            throw .badAnswer(String(text.prefix(40)))
        }
        var sockets: [ListeningSocket] = []
        for descriptor in passed {
            do {
                sockets.append(try ListeningSocket.adopt(descriptor))
            } catch {
                for descriptor in passed { Glibc.close(descriptor) }
                Glibc.close(fd)
                throw .badSocket(error)
            }
        }
        return ListenerHandover(connection: fd, sockets: sockets)
    }

    /// Tells the running server to stop accepting, drain and release its store. It then waits, up to `timeout`,
    /// for ``serving()``: it exits once it hears it, and serves again on its sockets if this process exits, closes
    /// the connection or says nothing in time.
    /// - Throws: ``ListenerHandoverError/refused`` when the server has gone.
    public func release(timeout: Duration) throws(ListenerHandoverError) {
        let milliseconds = max(
            timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000, 1)
        guard Self.write("\(Self.releasePrefix)\(milliseconds)\n", to: connection) else { throw .refused }
    }

    /// Tells the running server that this process serves (store open, loops started): it exits.
    /// - Returns: false when the server could not be told (it has gone already).
    @discardableResult
    public func serving() -> Bool {
        Self.write(Self.servingWord, to: connection)
    }

    static func write(_ text: String, to fd: Int32) -> Bool {
        let bytes = Array(text.utf8)
        return vh_send(fd, bytes, bytes.count) == bytes.count
    }
}

/// Why a take-over got no sockets from the running server.
public enum ListenerHandoverError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The handover socket is there but cannot be used.
    case cannotConnect(path: String, reason: String)
    /// The server did not answer within the timeout (stopped or hung).
    case noAnswer(Duration)
    /// The server closed the connection instead of answering.
    case refused
    /// The answer was not the sockets.
    case badAnswer(String)
    /// A descriptor passed is not a listening TCP socket.
    case badSocket(ListeningSocketError)

    /// One sentence for the refusal line.
    public var description: String {
        switch self {
        case .cannotConnect(let path, let reason): "cannot reach the running server at \(path): \(reason)"
        case .noAnswer(let timeout): "the running server did not hand over its sockets within \(timeout)"
        case .refused: "the running server closed the take-over connection"
        case .badAnswer(let text): "the running server answered '\(text)' instead of its sockets"
        case .badSocket(let error): "the running server passed a socket that cannot be served on: \(error)"
        }
    }
}
