import CSystemShim

#if canImport(Glibc)
import Glibc
#endif

/// The running server's side of a take-over once the new process asked it to release: the handover connection
/// and copies of the listening sockets it passed. The server drains and closes its store, then waits here for the
/// new process's word (``awaitWord()``): it exits when the new one serves, and serves again on these same sockets
/// (nothing queued on them is lost) when the new one fails, closes the connection or says nothing in time.
///
/// `@unchecked Sendable`: made on the handover point's thread, then used by one caller, one call at a time.
public final class ListenerHandoverRelease: @unchecked Sendable {
    /// What the new process told the running one.
    public enum Word: Sendable, Equatable, CustomStringConvertible {
        /// It opened the store and serves: the running process may exit.
        case serving
        /// It did not take over; why, in a few words.
        case failed(String)

        /// The words for the log line.
        public var description: String {
            switch self {
            case .serving: "the new process serves"
            case .failed(let why): why
            }
        }
    }

    /// Copies of the listening sockets handed over (the server's own are closed by its drain); the caller owns them.
    public let sockets: [ListeningSocket]
    /// How long the new process may take to open the store and start serving, once this one has released it.
    public let timeout: Duration
    private let connection: Int32

    init(connection: Int32, sockets: [ListeningSocket], timeout: Duration) {
        self.connection = connection
        self.sockets = sockets
        self.timeout = timeout
    }

    deinit { Glibc.close(connection) }

    /// Blocks until the new process says it serves, or fails (a word other than `serving`, the connection closed,
    /// nothing within ``timeout``). Call it once the store is released.
    public func awaitWord() -> Word {
        let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        _ = vh_set_io_timeout(connection, Int32(clamping: max(milliseconds, 1)))
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count < 64, byte != UInt8(ascii: "\n") {
            let received = vh_recv(connection, &byte, 1)
            if received == 1 {
                line.append(byte)
                continue
            }
            if received < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                return .failed("the new process did not say it serves within \(timeout)")
            }
            if received < 0, errno == EINTR { continue }
            return .failed("the new process ended the take-over without serving")
        }
        let text = String(decoding: line, as: UTF8.self)
        if text == ListenerHandover.servingWord { return .serving }
        let said = text.hasSuffix("\n") ? String(text.dropLast()) : text
        return .failed("the new process said '\(said.prefix(40))' instead of serving")
    }

    /// Closes the copies of the sockets (the new process serves on its own).
    public func closeSockets() {
        for socket in sockets { Glibc.close(socket.fd) }
    }
}
