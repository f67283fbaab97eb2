/// The server's answer to posted events: `202 {"accepted":N,"version":V}`.
public struct SendReceipt: Codable, Sendable, Equatable {
    /// How many events were applied.
    public let accepted: Int
    /// The feature's version after the events' synchronous part.
    public let version: Int
    /// Whether the server answered a repeat of an `Idempotency-Key` with its first answer (nothing applied again).
    public var replayed: Bool = false

    private enum CodingKeys: String, CodingKey {
        case accepted, version
    }
}
