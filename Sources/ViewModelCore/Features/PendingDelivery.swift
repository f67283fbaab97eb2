import Foundation

/// An event a feature delivered to a contact (or the introduction the library sends for it) that the receiving
/// session has not acknowledged yet: part of the sender's value, as a pending timer is, so it is journaled with the
/// event that decided it, kept in snapshots and delivered again after a restart until the receiver says it applied
/// it. Numbered per address from 1, in the order the feature delivered: the receiver applies each number once.
struct PendingDelivery<Event: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
    /// Where it goes.
    let to: ContactAddress
    /// Its number among this session's deliveries to `to`.
    let number: Int
    /// The event (nil for an introduction).
    let event: Event?
    /// For an introduction, the name this session gives itself to the contact.
    let introduction: String?
    /// The sequence number of the step that delivered it.
    let causedBy: Int
    /// When it was decided.
    let at: Date

    init(to: ContactAddress, number: Int, event: Event?, introduction: String?, causedBy: Int, at: Date) {
        self.to = to
        self.number = number
        self.event = event
        self.introduction = introduction
        self.causedBy = causedBy
        self.at = at
    }

    private enum CodingKeys: String, CodingKey {
        case to, number, event, introduction, causedBy, at
    }

    /// A delivery stored with `decodeEvent` reading its event (an older schema's event, migrated).
    init(from decoder: any Decoder, decodeEvent: (any Decoder) throws -> Event) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        to = try container.decode(ContactAddress.self, forKey: .to)
        number = try container.decode(Int.self, forKey: .number)
        if container.contains(.event), try !container.decodeNil(forKey: .event) {
            event = try decodeEvent(container.superDecoder(forKey: .event))
        } else {
            event = nil
        }
        introduction = try container.decodeIfPresent(String.self, forKey: .introduction)
        causedBy = try container.decode(Int.self, forKey: .causedBy)
        at = try container.decode(Date.self, forKey: .at)
    }
}

/// What a session knows of one contact address, for each direction: the number of the last delivery it made to it,
/// and of the last one it applied from it (a delivery numbered at or below that is a repeat, and is skipped).
struct ContactLink: Codable, Equatable, Sendable {
    /// The number of the last delivery this session made to the address.
    var sent = 0
    /// The number of the last delivery from the address this session applied.
    var received = 0
    /// The name the contact was introduced by, which the data-flow log shows beside what it delivers (nil in a
    /// value stored before the log showed it).
    var name: String?
}

/// Deliveries of one feature to one address, in a row, encoded for the receiving session: what it journals and
/// applies as one input (``SessionInput/delivery(feature:at:from:number:introduction:events:)``).
public struct DeliveryBatch: Sendable, Equatable {
    /// The feature that delivered them (and that receives them, in the other session).
    public let feature: String
    /// Where they go.
    public let to: ContactAddress
    /// The number of the first.
    public let first: Int
    /// How many there are (1 for an introduction).
    public let count: Int
    /// For an introduction, the name the sending session gives itself; nil for events.
    public let introduction: String?
    /// The events, as a journal records events (empty for an introduction).
    public let events: Data
    /// When the first was decided.
    public let at: Date

    /// The number of the last.
    public var last: Int { first + count - 1 }

    /// Creates a batch (the session core makes them; tests too).
    public init(
        feature: String, to: ContactAddress, first: Int, count: Int, introduction: String?, events: Data, at: Date
    ) {
        self.feature = feature
        self.to = to
        self.first = first
        self.count = count
        self.introduction = introduction
        self.events = events
        self.at = at
    }
}

/// A delivery batch as the receiving session takes it: the address it knows the sender by instead of the one the
/// sender used (the library looks it up; a session never names another's address).
public struct IncomingDelivery: Sendable, Equatable {
    /// The feature it goes to.
    public let feature: String
    /// The address the receiving session knows the sender by.
    public let from: ContactAddress
    /// The number of the first delivery in it.
    public let first: Int
    /// For an introduction, the sender's name; nil for events.
    public let introduction: String?
    /// The events, as a journal records events (`[]` for an introduction).
    public let events: Data

    /// Creates one.
    public init(feature: String, from: ContactAddress, first: Int, introduction: String?, events: Data) {
        self.feature = feature
        self.from = from
        self.first = first
        self.introduction = introduction
        self.events = events
    }

    /// `batch`, received from the address the receiver knows its sender by.
    public init(_ batch: DeliveryBatch, from: ContactAddress) {
        self.init(
            feature: batch.feature, from: from, first: batch.first, introduction: batch.introduction,
            events: batch.introduction == nil ? batch.events : Data("[]".utf8))
    }
}
