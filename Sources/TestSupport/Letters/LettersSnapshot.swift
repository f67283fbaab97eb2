import ViewHostAPI

/// The test feature `letters` as a snapshot: its contacts, the letters it received (oldest first), how many it
/// wrote, and the letters that did not arrive.
public struct LettersSnapshot: FeatureSnapshot {
    /// A contact, as the feature shows it.
    public struct Contact: Codable, Equatable, Sendable {
        /// The name the contact gave.
        public let name: String
        /// Whether its letters are dropped.
        public let blocked: Bool

        /// A contact of this name.
        public init(name: String, blocked: Bool) {
            self.name = name
            self.blocked = blocked
        }
    }

    /// A letter received.
    public struct Letter: Codable, Equatable, Sendable {
        /// The sender's name.
        public let from: String
        /// What it says.
        public let text: String

        /// A letter from `from`.
        public init(from: String, text: String) {
            self.from = from
            self.text = text
        }
    }

    /// `letters`.
    public static let feature = "letters"

    /// The contacts.
    public let contacts: [Contact]
    /// The letters received.
    public let received: [Letter]
    /// How many letters were written.
    public let written: Int
    /// "TEXT to NAME: REASON", for each letter that did not arrive.
    public let undelivered: [String]

    /// A snapshot of these parts.
    public init(contacts: [Contact], received: [Letter], written: Int, undelivered: [String]) {
        self.contacts = contacts
        self.received = received
        self.written = written
        self.undelivered = undelivered
    }
}
