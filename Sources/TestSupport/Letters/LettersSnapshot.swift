import ViewHostAPI

/// The test feature `letters` as a snapshot: its contacts, the letters it received (oldest first), how many it
/// wrote, and the letters that did not arrive.
public struct LettersSnapshot: FeatureSnapshot {
    /// A contact, as the feature shows it.
    public struct Contact: Codable, Equatable, Sendable {
        public let name: String
        public let blocked: Bool

        public init(name: String, blocked: Bool) {
            self.name = name
            self.blocked = blocked
        }
    }

    /// A letter received.
    public struct Letter: Codable, Equatable, Sendable {
        public let from: String
        public let text: String

        public init(from: String, text: String) {
            self.from = from
            self.text = text
        }
    }

    /// `letters`.
    public static let feature = "letters"

    public let contacts: [Contact]
    public let received: [Letter]
    public let written: Int
    /// "TEXT to NAME: REASON", for each letter that did not arrive.
    public let undelivered: [String]

    public init(contacts: [Contact], received: [Letter], written: Int, undelivered: [String]) {
        self.contacts = contacts
        self.received = received
        self.written = written
        self.undelivered = undelivered
    }
}
