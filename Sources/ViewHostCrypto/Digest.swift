import COpenSSL

/// ViewHostCrypto holds the one cryptographic primitive the server needs beyond TLS: SHA-256, from the system
/// OpenSSL, for the digests of session tokens (a store keeps only the digest) and the fingerprints of requests
/// that carry an idempotency key.
///
/// SHA-256 over byte strings.
public enum Digest {
    /// The SHA-256 of `parts`, one after another.
    public static func sha256(_ parts: [UInt8]...) -> [UInt8] {
        var context = SHA256_CTX()
        SHA256_Init(&context)
        for part in parts {
            part.withUnsafeBytes { _ = SHA256_Update(&context, $0.baseAddress, $0.count) }
        }
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        SHA256_Final(&digest, &context)
        return digest
    }

    /// `bytes` in lower-case hexadecimal.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
