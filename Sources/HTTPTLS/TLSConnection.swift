import COpenSSL
import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

/// One server-side TLS session over a non-blocking socket, used only on the event loop that owns the socket.
/// It keeps its context alive while it lives; the socket stays the server's to close.
final class TLSConnection: SecureChannel {
    private let ssl: OpaquePointer
    private let context: ContextBox

    init?(context: ContextBox, socket: Int32) {
        OpenSSLErrorQueue.clear()
        guard let ssl = SSL_new(context.context) else {
            _ = OpenSSLErrorQueue.drain()
            return nil
        }
        guard SSL_set_fd(ssl, socket) == 1 else {
            _ = OpenSSLErrorQueue.drain()
            SSL_free(ssl)
            return nil
        }
        SSL_set_accept_state(ssl)
        self.ssl = ssl
        self.context = context
    }

    deinit {
        SSL_free(ssl)
    }

    func handshake() -> SecureChannelResult {
        OpenSSLErrorQueue.clear()
        let result = SSL_do_handshake(ssl)
        return result == 1 ? .done(0) : outcome(of: result)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> SecureChannelResult {
        OpenSSLErrorQueue.clear()
        let result = SSL_read(ssl, buffer.baseAddress, Int32(clamping: buffer.count))
        return result > 0 ? .done(Int(result)) : outcome(of: result)
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> SecureChannelResult {
        guard !bytes.isEmpty else { return .done(0) }
        OpenSSLErrorQueue.clear()
        let result = SSL_write(ssl, bytes.baseAddress, Int32(clamping: bytes.count))
        return result > 0 ? .done(Int(result)) : outcome(of: result)
    }

    func shutdown() {
        OpenSSLErrorQueue.clear()
        _ = SSL_shutdown(ssl)
        OpenSSLErrorQueue.clear()
    }

    var negotiatedProtocol: String? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// Whether the handshake resumed an earlier session (ticket or session id).
    var resumedSession: Bool { COpenSSL_session_reused(ssl) == 1 }

    /// Maps a failed call to what the connection should do, draining OpenSSL's error queue into the reason.
    private func outcome(of result: Int32) -> SecureChannelResult {
        let code = errno
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ:
            return .wantRead
        case SSL_ERROR_WANT_WRITE:
            return .wantWrite
        case SSL_ERROR_ZERO_RETURN:
            return .closed
        case SSL_ERROR_SYSCALL:
            let queued = OpenSSLErrorQueue.drain(fallback: "")
            if queued.isEmpty, code == 0 || code == ECONNRESET || code == EPIPE { return .closed }
            return .failed(queued.isEmpty ? "socket error \(code) (\(String(cString: strerror(code))))" : queued)
        case let other:
            return .failed(OpenSSLErrorQueue.drain(fallback: "SSL error \(other)"))
        }
    }
}
