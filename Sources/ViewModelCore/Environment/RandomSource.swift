/// The random numbers a session draws (bot reply choices and delays): a small generator whose whole state is a
/// value, so a seeded session repeats exactly (xoshiro256**, seeded through SplitMix64).
///
/// ```swift
/// var random = RandomSource.seeded(42)
/// let delay = 5 + Int.random(in: 0...9, using: &random)   // the same every run
/// ```
public struct RandomSource: RandomNumberGenerator, Sendable, Equatable, Codable {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    private init(state: (UInt64, UInt64, UInt64, UInt64)) {
        self.state = state
    }

    /// A generator that repeats the same sequence for the same seed.
    public static func seeded(_ seed: UInt64) -> RandomSource {
        var mixer = seed
        func next() -> UInt64 {
            mixer &+= 0x9E37_79B9_7F4A_7C15
            var value = mixer
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
        return RandomSource(state: (next(), next(), next(), next()))
    }

    /// A generator seeded from the system's CSPRNG.
    public static func system() -> RandomSource {
        var system = SystemRandomNumberGenerator()
        return seeded(system.next())
    }

    /// The next 64 random bits (xoshiro256**); the state moves on, so the same state gives the same sequence.
    public mutating func next() -> UInt64 {
        let result = rotate(state.1 &* 5, 7) &* 9
        let shifted = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= shifted
        state.3 = rotate(state.3, 45)
        return result
    }

    private func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }

    /// Generators are equal when their states are, so they draw the same numbers from now on.
    public static func == (lhs: RandomSource, rhs: RandomSource) -> Bool {
        lhs.state == rhs.state
    }

    /// Reads the generator's four state words.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        state = (
            try container.decode(UInt64.self), try container.decode(UInt64.self), try container.decode(UInt64.self),
            try container.decode(UInt64.self)
        )
    }

    /// Writes the generator's four state words, so a restored session draws on where it left off.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(state.0)
        try container.encode(state.1)
        try container.encode(state.2)
        try container.encode(state.3)
    }
}
