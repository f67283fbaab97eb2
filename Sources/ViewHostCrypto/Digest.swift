import COpenSSL

/// ViewHostCrypto holds the one cryptographic primitive the server needs beyond TLS: SHA-256, from the system
/// OpenSSL, for the digests of session tokens (a store keeps only the digest) and the fingerprints of requests
/// that carry an idempotency key.
///
/// SHA-256 over byte strings.
public enum Digest {
    /// The SHA-256 of `parts`, one after another.
    public static func sha256(_ parts: [UInt8]...) -> [UInt8] {
        // EVP, not SHA256_Init/Update/Final: OpenSSL 3 deprecates the low-level digest calls.
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
        defer { EVP_MD_CTX_free(context) }
        var ok = EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1
        for part in parts where ok {
            ok = part.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, $0.count) } == 1
        }
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        var length: UInt32 = 0
        ok = ok && EVP_DigestFinal_ex(context, &digest, &length) == 1
        precondition(ok && Int(length) == digest.count, "SHA-256 through EVP failed")
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
