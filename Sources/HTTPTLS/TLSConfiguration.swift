/// Where the server's certificate and key are, and the protocol policy. The policy is fixed on purpose: TLS 1.2
/// and 1.3 only, forward-secret AEAD ciphers in the server's order, no compression, no renegotiation.
public struct TLSConfiguration: Sendable, Hashable {
    /// A PEM file with the certificate first, then any intermediates (a chain).
    public var certificatePath: String
    /// A PEM file with the private key (unencrypted).
    public var keyPath: String

    /// TLS 1.3 suites in Mozilla's "intermediate" order: AES-128-GCM first (OpenSSL's default puts AES-256 first,
    /// which costs both ends about a third more per byte for no practical gain), then AES-256-GCM and ChaCha20.
    public static let tls13Ciphersuites = "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256"

    /// TLS 1.2 ciphers (Mozilla's "intermediate" list: ECDHE key exchange, AES-GCM or ChaCha20-Poly1305).
    public static let tls12Ciphers =
        "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
        + "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305"

    /// The one application protocol offered in ALPN.
    public static let applicationProtocol = "http/1.1"

    /// Creates a configuration.
    public init(certificatePath: String, keyPath: String) {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
    }
}
