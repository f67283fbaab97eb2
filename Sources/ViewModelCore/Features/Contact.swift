import Foundation

/// Where a feature sends events for another session it was introduced to: an opaque, unguessable value the library
/// maps, in its store, to that session and feature. A feature keeps it in its state (it is `Codable`), passes it to
/// ``FeatureContext/deliver(_:to:)``, and compares it with ``FeatureContext/sender`` to know who sent an event; it
/// never learns the other session's id or token, and neither does a client.
///
/// An address works only for the session it was made for: the same value held by another session (an imported copy
/// of a conversation, a value written into a journal export by hand) reaches no one, and what is delivered to it
/// comes back as ``DeliveryFailure/unknownAddress``.
public struct ContactAddress: Hashable, Codable, Sendable, CustomStringConvertible, Comparable {
    /// The address's text: `c` and 26 base32 characters (130 random bits) when the library made it.
    public let rawValue: String

    /// The most bytes an address has (one read from outside, such as a journal export, is refused past it).
    public static let maxBytes = 64

    /// Wraps `rawValue` (tests make addresses of their own; the library makes random ones).
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// A new address from the system's secure random source.
    public static func random() -> ContactAddress {
        ContactAddress("c" + SecureIdentifier.make(bits: 130))
    }

    /// Whether `text` could be an address: 1 to ``maxBytes`` visible ASCII characters.
    public static func isValid(_ text: String) -> Bool {
        (1...maxBytes).contains(text.utf8.count) && text.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// Reads an address stored as a string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Writes the address as a string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The address as it is stored.
    public var description: String { rawValue }

    /// Orders addresses by their text (for stable orders of tables).
    public static func < (lhs: ContactAddress, rhs: ContactAddress) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A contact made: the name the other person gave and the address to deliver to them. The library hands it to
/// ``Feature/introduced(to:)`` once on each side, and the feature decides what to keep.
public struct Contact: Equatable, Sendable {
    /// The name the other side gave (1 to ``maxNameCharacters`` characters).
    public let name: String
    /// Where to deliver events for them.
    public let address: ContactAddress

    /// The longest name, in characters.
    public static let maxNameCharacters = 64

    /// Whether `name` can name a contact: 1 to ``maxNameCharacters`` characters (at most 4 bytes each), not only
    /// white space, and no control characters.
    public static func isValidName(_ name: String) -> Bool {
        guard name.utf8.count <= maxNameCharacters * 4, (1...maxNameCharacters).contains(name.count) else {
            return false
        }
        return !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
            && name.unicodeScalars.contains { !$0.properties.isWhitespace }
    }

    /// Creates a contact (the library makes them; tests too).
    public init(name: String, address: ContactAddress) {
        self.name = name
        self.address = address
    }
}

/// Why a delivery did not arrive; it comes back to the sending feature through ``Feature/undelivered(_:to:because:)``.
public enum DeliveryFailure: String, Codable, Sendable, Equatable, CaseIterable {
    /// The receiving session has ended (deleted or expired).
    case ended
    /// The receiving session has too many deliveries waiting to be applied (its backlog is full).
    case full
    /// The address leads nowhere from this session (never made for it, or the session is a copy of another).
    case unknownAddress
}
