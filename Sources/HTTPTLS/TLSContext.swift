import COpenSSL
import Foundation
public import HTTPCore
import ViewHostLocking

/// The server's TLS settings and credentials as an OpenSSL `SSL_CTX`, shared by every event loop, and
/// replaceable while the server runs (``reload()``, on SIGHUP): connections already open keep the context they
/// started with (each `SSL` holds a reference), new ones get the new one.
///
/// ```swift
/// let tls = try TLSContext(configuration: .init(certificatePath: "cert.pem", keyPath: "key.pem"))
/// let server = HTTPServer(configuration: http, responder: router, logger: logger, security: tls)
/// try tls.reload()   // after the files were replaced; on failure the old pair stays in use
/// ```
public final class TLSContext: TransportSecurity {
    /// The configuration the credentials are read from.
    public let configuration: TLSConfiguration
    private let current: Locked<ContextBox>
    /// The first context's session-ticket keys (name, HMAC key, AES key), given to every context made by
    /// ``reload()``: tickets issued before a reload still decrypt after it. Kept for the process's lifetime.
    private let ticketKeys: [UInt8]
    /// The size of OpenSSL 3's ticket key block: a 16-byte key name, a 32-byte HMAC key and a 32-byte AES key.
    private static let ticketKeyLength = 80

    /// Reads the certificate and key and sets up the protocol policy.
    /// - Throws: ``TLSError`` naming the file at fault.
    public init(configuration: TLSConfiguration) throws(TLSError) {
        self.configuration = configuration
        let first = try Self.makeContext(configuration)
        var keys = [UInt8](repeating: 0, count: Self.ticketKeyLength)
        guard COpenSSL_CTX_get_ticket_keys(first.context, &keys, keys.count) == 1 else {
            throw .openSSL(OpenSSLErrorQueue.drain(fallback: "cannot read the session-ticket keys"))
        }
        ticketKeys = keys
        current = Locked(first)
    }

    /// Reads the certificate and key again. On failure the previous pair stays in use and the error says why.
    /// The session-ticket keys stay the same, so clients resume the sessions they had (a new pair is not a reason
    /// to make every client do a full handshake again).
    public func reload() throws(TLSError) {
        let fresh = try Self.makeContext(configuration)
        var keys = ticketKeys
        guard COpenSSL_CTX_set_ticket_keys(fresh.context, &keys, keys.count) == 1 else {
            throw .openSSL(OpenSSLErrorQueue.drain(fallback: "cannot set the session-ticket keys"))
        }
        let previous = current.withLock { box in
            let previous = box
            box = fresh
            return previous
        }
        _ = previous  // released here, outside the lock; connections using it keep their own reference
    }

    /// The subject and serial number of the certificate new connections get (for logs and tests).
    public var certificateSummary: String {
        current.withLock { $0.certificateSummary }
    }

    /// A TLS channel over `socket` with the certificate loaded now: a reload changes only later connections.
    public func makeChannel(socket: Int32) -> (any SecureChannel)? {
        let context = current.withLock { $0 }
        return TLSConnection(context: context, socket: socket)
    }

    // MARK: - Building a context

    private static func makeContext(_ configuration: TLSConfiguration) throws(TLSError) -> ContextBox {
        for path in [configuration.certificatePath, configuration.keyPath] {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw .unreadableFile(path: path, reason: "no such file")
            }
            guard !isDirectory.boolValue else { throw .unreadableFile(path: path, reason: "is a directory") }
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw .unreadableFile(path: path, reason: "permission denied")
            }
        }
        OpenSSLErrorQueue.clear()
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            throw .openSSL(OpenSSLErrorQueue.drain())
        }
        let box = ContextBox(context)
        try applyPolicy(to: context)
        guard SSL_CTX_use_certificate_chain_file(context, configuration.certificatePath) == 1 else {
            throw .invalidCertificate(path: configuration.certificatePath, reason: OpenSSLErrorQueue.drain())
        }
        let key = try readKey(configuration.keyPath)
        defer { EVP_PKEY_free(key) }
        guard SSL_CTX_use_PrivateKey(context, key) == 1, SSL_CTX_check_private_key(context) == 1 else {
            throw .keyMismatch(
                certificatePath: configuration.certificatePath, keyPath: configuration.keyPath,
                reason: OpenSSLErrorQueue.drain())
        }
        box.certificateSummary = Self.summary(of: SSL_CTX_get0_certificate(context))
        return box
    }

    /// The private key in a PEM file (read apart from the certificate, so a key that does not parse and a key
    /// that does not match are told apart).
    private static func readKey(_ path: String) throws(TLSError) -> OpaquePointer {
        guard let file = BIO_new_file(path, "r") else {
            throw .unreadableFile(path: path, reason: OpenSSLErrorQueue.drain())
        }
        defer { BIO_free(file) }
        guard let key = PEM_read_bio_PrivateKey(file, nil, nil, nil) else {
            throw .invalidKey(path: path, reason: OpenSSLErrorQueue.drain())
        }
        return key
    }

    /// TLS 1.2–1.3, server cipher order, no compression or renegotiation, partial writes from a moving
    /// buffer (the connection's output grows between retries), idle buffers released, tickets and a session
    /// cache for resumption, and ALPN `http/1.1`.
    private static func applyPolicy(to context: OpaquePointer) throws(TLSError) {
        guard COpenSSL_CTX_set_min_proto_version(context, TLS1_2_VERSION) == 1,
            COpenSSL_CTX_set_max_proto_version(context, TLS1_3_VERSION) == 1
        else { throw .openSSL(OpenSSLErrorQueue.drain()) }
        _ = COpenSSL_CTX_set_options(
            context,
            COpenSSL_OP_NO_COMPRESSION() | COpenSSL_OP_NO_RENEGOTIATION() | COpenSSL_OP_CIPHER_SERVER_PREFERENCE()
                | COpenSSL_OP_IGNORE_UNEXPECTED_EOF())
        _ = COpenSSL_CTX_set_mode(
            context,
            COpenSSL_MODE_ENABLE_PARTIAL_WRITE() | COpenSSL_MODE_ACCEPT_MOVING_WRITE_BUFFER()
                | COpenSSL_MODE_RELEASE_BUFFERS())
        // One read() per record instead of one for its 5-byte header and another for the rest: the connection
        // reads until OpenSSL wants more, so bytes read ahead are never left waiting for an epoll edge.
        COpenSSL_CTX_set_read_ahead(context, 1)
        guard SSL_CTX_set_cipher_list(context, TLSConfiguration.tls12Ciphers) == 1,
            SSL_CTX_set_ciphersuites(context, TLSConfiguration.tls13Ciphersuites) == 1
        else {
            throw .openSSL(OpenSSLErrorQueue.drain())
        }
        _ = COpenSSL_CTX_set_session_cache_mode(context, Int(SSL_SESS_CACHE_SERVER))
        let sessionContext = Array("viewhost".utf8)
        _ = SSL_CTX_set_session_id_context(context, sessionContext, UInt32(sessionContext.count))
        SSL_CTX_set_alpn_select_cb(context, selectApplicationProtocol, nil)
    }

    private static func summary(of certificate: OpaquePointer?) -> String {
        guard let certificate, let name = X509_get_subject_name(certificate) else { return "none" }
        var text = [CChar](repeating: 0, count: 256)
        X509_NAME_oneline(name, &text, Int32(text.count))
        let subject = string(fromTerminated: text)
        var serial = "?"
        if let number = ASN1_INTEGER_to_BN(X509_get_serialNumber(certificate), nil) {
            if let hex = BN_bn2hex(number) {
                serial = String(cString: hex)
                CRYPTO_free(hex, #fileID, #line)
            }
            BN_free(number)
        }
        return "\(subject) serial \(serial)"
    }
}

/// Owns one `SSL_CTX` reference.
final class ContextBox: @unchecked Sendable {
    let context: OpaquePointer
    /// Set once while building, before the box is shared.
    var certificateSummary = "none"

    init(_ context: OpaquePointer) {
        self.context = context
    }

    deinit {
        SSL_CTX_free(context)
    }
}

/// ALPN (RFC 7301): picks `http/1.1` when the client offers it; otherwise the handshake goes on without ALPN
/// (curl and browsers always offer it; a client offering only `h2` then speaks HTTP/1.1 or gives up).
private func selectApplicationProtocol(
    _ ssl: OpaquePointer?, _ selected: UnsafeMutablePointer<UnsafePointer<UInt8>?>?,
    _ selectedLength: UnsafeMutablePointer<UInt8>?, _ offered: UnsafePointer<UInt8>?, _ offeredLength: UInt32,
    _ argument: UnsafeMutableRawPointer?
) -> Int32 {
    guard let offered, let selected, let selectedLength else { return SSL_TLSEXT_ERR_NOACK }
    let wanted = Array(TLSConfiguration.applicationProtocol.utf8)
    var index = 0
    let end = Int(offeredLength)
    while index < end {
        let length = Int(offered[index])
        let start = index + 1
        guard start + length <= end else { break }
        if length == wanted.count, (0..<length).allSatisfy({ offered[start + $0] == wanted[$0] }) {
            selected.pointee = offered + start
            selectedLength.pointee = UInt8(length)
            return SSL_TLSEXT_ERR_OK
        }
        index = start + length
    }
    return SSL_TLSEXT_ERR_NOACK
}
