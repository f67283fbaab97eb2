/// Makes the `X-Request-Id` of requests that arrive without one: 15 characters (a small string, so no heap
/// allocation): a random per-process prefix, the event loop's index, and a per-loop counter.
struct RequestIDGenerator {
    private static let alphabet = Array("0123456789abcdefghijklmnopqrstuv".utf8)
    private let prefix: [UInt8]
    private var counter: UInt64 = 0

    /// - Parameters:
    ///   - processPrefix: Random bits shared by the loops of one process.
    ///   - loopIndex: The loop's index, so two loops never make the same id.
    init(processPrefix: UInt64, loopIndex: Int) {
        var prefix: [UInt8] = []
        var bits = processPrefix
        for _ in 0..<6 {
            prefix.append(Self.alphabet[Int(bits & 31)])
            bits >>= 5
        }
        prefix.append(Self.alphabet[loopIndex & 31])
        self.prefix = prefix
    }

    mutating func next() -> String {
        counter &+= 1
        let value = counter
        return String(unsafeUninitializedCapacity: 15) { buffer in
            for index in 0..<7 { buffer[index] = prefix[index] }
            var rest = value
            for index in stride(from: 14, through: 7, by: -1) {
                buffer[index] = Self.alphabet[Int(rest & 31)]
                rest >>= 5
            }
            return 15
        }
    }

    /// Whether a client-sent id is safe to echo: 1 to 200 visible ASCII characters.
    static func isAcceptable(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard (1...200).contains(bytes.count) else { return false }
        return bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }
}
