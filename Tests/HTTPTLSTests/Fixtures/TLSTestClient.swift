import COpenSSL
import CSystemShim
import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A blocking TLS client for tests, on OpenSSL's client side: it connects, shakes hands with the versions
/// asked for, sends exactly the bytes given and parses the answers. It trusts any certificate (the tests make
/// self-signed ones) and reads with a 15 s socket timeout, so a test fails instead of hanging.
///
/// `@unchecked Sendable`: one test uses one client, one call at a time, off the cooperative pool (``blocking``).
final class TLSTestClient: @unchecked Sendable {
    enum ClientError: Error, CustomStringConvertible {
        case handshakeFailed(String)
        case writeFailed(String)
        case closedBeforeResponse(received: Int, how: String)
        case readTimedOut(received: Int)

        var description: String {
            switch self {
            case .handshakeFailed(let reason): "handshake failed: \(reason)"
            case .writeFailed(let reason): "write failed: \(reason)"
            case .closedBeforeResponse(let received, let how):
                "closed after \(received) bytes, before a full response (\(how))"
            case .readTimedOut(let received): "no byte for the socket's read timeout, after \(received) bytes"
            }
        }
    }

    let fd: Int32
    private let context: OpaquePointer
    private let ssl: OpaquePointer
    private var buffer: [UInt8] = []
    private var sawEOF = false
    /// How the input ended: OpenSSL's error code, errno and error queue (a clean close, a reset, a TLS failure).
    private var endOfInput = ""

    /// Connects to 127.0.0.1:`port` and completes the handshake.
    /// - Parameters:
    ///   - versions: The TLS versions to offer (`TLS1_2_VERSION`…).
    ///   - session: A session of an earlier connection to resume (`SSL_SESSION`, owned by the caller).
    ///   - alpn: The application protocols to offer.
    init(
        port: Int, versions: ClosedRange<Int32> = TLS1_2_VERSION...TLS1_3_VERSION, session: OpaquePointer? = nil,
        alpn: [String] = ["http/1.1"]
    ) throws {
        fd = try Self.connectedSocket(port: port)
        context = SSL_CTX_new(TLS_client_method())!
        _ = COpenSSL_CTX_set_min_proto_version(context, versions.lowerBound)
        _ = COpenSSL_CTX_set_max_proto_version(context, versions.upperBound)
        ssl = SSL_new(context)!
        SSL_set_fd(ssl, fd)
        if let session { SSL_set_session(ssl, session) }
        var protocols: [UInt8] = []
        for name in alpn { protocols += [UInt8(name.utf8.count)] + Array(name.utf8) }
        if !protocols.isEmpty { _ = SSL_set_alpn_protos(ssl, protocols, UInt32(protocols.count)) }
        let (result, _) = Self.interruptible(ssl) { SSL_connect($0) }
        guard result == 1 else { throw ClientError.handshakeFailed(Self.drainErrors()) }
    }

    deinit {
        SSL_free(ssl)
        SSL_CTX_free(context)
        Glibc.close(fd)
    }

    /// "TLSv1.2" or "TLSv1.3".
    var version: String { String(cString: SSL_get_version(ssl)) }

    /// The protocol the server picked in ALPN.
    var negotiatedProtocol: String? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// Whether this handshake resumed the session given to `init`.
    var resumed: Bool { COpenSSL_session_reused(ssl) == 1 }

    /// The session to resume later (the caller frees it with `SSL_SESSION_free`).
    func session() -> OpaquePointer? { SSL_get1_session(ssl) }

    /// The serial number of the server's certificate.
    var peerSerial: Int {
        guard let certificate = SSL_get1_peer_certificate(ssl) else { return -1 }
        defer { X509_free(certificate) }
        return ASN1_INTEGER_get(X509_get_serialNumber(certificate))
    }

    /// Asks for a TLS 1.2 renegotiation and runs it; true only if the server went along.
    func renegotiate() -> Bool {
        ERR_clear_error()
        guard SSL_renegotiate(ssl) == 1 else { return false }
        for _ in 0..<10 {
            if SSL_do_handshake(ssl) == 1, SSL_renegotiate_pending(ssl) == 0 { return true }
            var byte: UInt8 = 0
            if SSL_peek(ssl, &byte, 1) <= 0 { return false }
        }
        return false
    }

    /// Sends `text` as is.
    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let (count, _) = Self.interruptible(ssl) { ssl in
                bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress! + sent, Int32(bytes.count - sent)) }
            }
            guard count > 0 else { throw ClientError.writeFailed(Self.drainErrors()) }
            sent += Int(count)
        }
    }

    /// Reads one response.
    func readResponse() throws -> TestResponse {
        while true {
            if let (response, used) = try TestResponse.parse(buffer, complete: sawEOF) {
                buffer.removeFirst(used)
                return response
            }
            if sawEOF { throw ClientError.closedBeforeResponse(received: buffer.count, how: endOfInput) }
            try fill()
        }
    }

    /// Reads at least one more byte, or notes the end of input (the server's close, clean or not).
    /// - Throws: ``ClientError/readTimedOut(received:)`` when the socket's read timeout ran out: a slow server is
    ///   not a closed one.
    func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let (count, error) = Self.interruptible(ssl) { ssl in
            chunk.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
        }
        let code = errno
        if count > 0 {
            buffer.append(contentsOf: chunk[0..<Int(count)])
        } else if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE {
            throw ClientError.readTimedOut(received: buffer.count)  // EAGAIN from SO_RCVTIMEO on a blocking socket
        } else {
            sawEOF = true
            endOfInput = "SSL error \(error), errno \(code)" + (error == SSL_ERROR_SSL ? ": \(Self.drainErrors())" : "")
        }
    }

    /// Runs an OpenSSL call on the blocking socket again while a signal interrupted it (EINTR: the call returns
    /// WANT_READ or WANT_WRITE, or SYSCALL, with nothing done), so only a real outcome reaches the caller. A read
    /// that took any failure for the end of input could not say which it was: in a ThreadSanitizer run of the whole
    /// suite a 4 MiB body was reported "closed" after 112 KiB (an interrupted read, a read timeout or a real close).
    /// - Returns: The call's result and, when it is not positive, `SSL_get_error`'s code for it.
    private static func interruptible(_ ssl: OpaquePointer, _ call: (OpaquePointer) -> Int32) -> (Int32, Int32) {
        while true {
            ERR_clear_error()
            errno = 0
            let result = call(ssl)
            if result > 0 { return (result, SSL_ERROR_NONE) }
            let error = SSL_get_error(ssl, result)
            let interrupted = errno == EINTR
            if interrupted, [SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE, SSL_ERROR_SYSCALL].contains(error) { continue }
            return (result, error)
        }
    }

    /// Bytes read so far and not parsed.
    var pendingCount: Int { buffer.count }

    /// Closes with a TCP reset, as a crashing client would.
    func reset() {
        _ = vh_set_linger_zero(fd)
        shutdown(fd, Int32(SHUT_RDWR))
    }

    /// A connected socket (``HTTPTestClient``'s) whose reads time out after 5 s.
    private static func connectedSocket(port: Int) throws -> Int32 {
        let fd = try HTTPTestClient.connectedSocket(port: port)
        // 15 s: long enough for a loaded CI machine running the whole suite at once (a 5 s read once ran out
        // there, before the response to /big), short enough that a real hang still fails. Stretched under a
        // sanitizer (TestDeadline): under TSan a handshake's read ran out, and SSL_connect failed with no error.
        var timeout = timeval(tv_sec: 15 * TestDeadline.scale, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    private static func drainErrors() -> String {
        var parts: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            var text = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &text, text.count)
            parts.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return parts.joined(separator: "; ")
    }
}

/// Runs blocking client work on a thread of its own, so it never holds one of the few cooperative threads the
/// server's deferred handlers and other tests need.
func blocking<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await OffThread.run(stackSize: nil, work)
}
