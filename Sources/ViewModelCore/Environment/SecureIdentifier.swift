/// Unguessable identifiers from the system CSPRNG (`getrandom` on Linux), written in lower-case base32
/// (Crockford's alphabet without ambiguous letters), so they are safe in URLs, cookies and headers.
public enum SecureIdentifier {
    private static let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)

    /// `bits` random bits (a multiple of 5 is exact; others round up) as base32 text.
    /// - Parameter bits: At least 128 for ids, 256 for secrets.
    /// - Returns: `(bits + 4) / 5` base32 characters.
    public static func make(bits: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let characters = (bits + 4) / 5
        var output: [UInt8] = []
        output.reserveCapacity(characters)
        var pool: UInt64 = 0
        var available = 0
        for _ in 0..<characters {
            if available < 5 {
                pool = generator.next()
                available = 64
            }
            output.append(alphabet[Int(pool & 31)])
            pool >>= 5
            available -= 5
        }
        return String(decoding: output, as: UTF8.self)
    }
}
