import Foundation
import ViewHostAPI
import ViewModelCore

/// A small feature that takes contacts, for the library's tests of deliveries between sessions: it writes letters
/// to its contacts by name, keeps the letters it receives, blocks contacts, and notes letters that did not arrive.
public enum LettersApp: Feature {
    /// What clients post.
    public typealias Intent = LettersIntent
    /// What clients read.
    public typealias Snapshot = LettersSnapshot

    /// The feature's state.
    public struct State: Codable, Equatable, Sendable {
        /// A contact made, under the name the other side gave.
        public struct Contact: Codable, Equatable, Sendable {
            /// The name the contact gave.
            public var name: String
            /// Where its letters go.
            public var address: ContactAddress
            /// Whether its letters are dropped.
            public var blocked = false
        }

        /// A letter received.
        public struct Letter: Codable, Equatable, Sendable {
            /// The sender's name.
            public var from: String
            /// What it says.
            public var text: String
        }

        /// The contacts, in the order they were made.
        public var contacts: [Contact] = []
        /// The letters received, oldest first.
        public var received: [Letter] = []
        /// How many letters were written.
        public var written = 0
        /// "TEXT to NAME: REASON", for each letter that did not arrive.
        public var undelivered: [String] = []

        /// No contact, no letter.
        public init() {}
    }

    /// The feature's events: a client's (`write`, `block`, `unblock`) and the library's (`met`, `letter`,
    /// `bounced`).
    public enum Event: Codable, Equatable, Sendable {
        /// A letter to a contact by name.
        case write(to: String, text: String)
        /// A contact's letters dropped from now on.
        case block(String)
        /// A contact's letters taken again.
        case unblock(String)
        /// A contact made (``Feature/introduced(to:)``).
        case met(name: String, address: ContactAddress)
        /// A letter delivered by a contact.
        case letter(text: String)
        /// A letter that did not arrive.
        case bounced(text: String, to: ContactAddress, reason: DeliveryFailure)
    }

    /// Letters go between contacts.
    public static var takesContacts: Bool { true }

    /// The event an intent asks for.
    public static func event(for intent: LettersIntent) throws(IntentRejection) -> Event {
        switch intent {
        case .write(let to, let text): .write(to: to, text: text)
        case .block(let contact): .block(contact)
        case .unblock(let contact): .unblock(contact)
        }
    }

    /// Refuses an event naming no contact.
    public static func check(_ event: Event, in state: State) throws(EventRefusal) {
        switch event {
        case .write(let name, _), .block(let name), .unblock(let name):
            guard state.contacts.contains(where: { $0.name == name }) else {
                throw EventRefusal(reason: "There is no contact '\(name)'.", allowed: ["write", "block", "unblock"])
            }
        default:
            break
        }
    }

    /// Applies an event.
    public static func apply(_ event: Event, to state: inout State, context: inout FeatureContext<LettersApp>) {
        switch event {
        case .write(let name, let text):
            guard let contact = state.contacts.first(where: { $0.name == name }) else { return }
            context.deliver(.letter(text: text), to: contact.address)
            state.written += 1
        case .block(let name), .unblock(let name):
            guard let index = state.contacts.firstIndex(where: { $0.name == name }) else { return }
            if case .block = event {
                state.contacts[index].blocked = true
            } else {
                state.contacts[index].blocked = false
            }
        case .met(let name, let address):
            guard !state.contacts.contains(where: { $0.address == address }) else { return }
            state.contacts.append(State.Contact(name: name, address: address))
        case .letter(let text):
            let name = state.contacts.first { $0.address == context.sender }?.name ?? "?"
            state.received.append(State.Letter(from: name, text: text))
        case .bounced(let text, let address, let reason):
            let name = state.contacts.first { $0.address == address }?.name ?? "?"
            state.undelivered.append("\(text) to \(name): \(reason.rawValue)")
        }
        context.markChanged()
    }

    /// A contact made becomes ``Event/met(name:address:)``.
    public static func introduced(to contact: ViewModelCore.Contact) -> Event? {
        .met(name: contact.name, address: contact.address)
    }

    /// Drops the letters of a blocked contact.
    public static func accepts(_ event: Event, from address: ContactAddress, in state: State) -> Bool {
        !(state.contacts.first { $0.address == address }?.blocked ?? false)
    }

    /// A letter that did not arrive becomes ``Event/bounced(text:to:reason:)``.
    public static func undelivered(_ event: Event, to address: ContactAddress, because reason: DeliveryFailure)
        -> Event?
    {
        guard case .letter(let text) = event else { return nil }
        return .bounced(text: text, to: address, reason: reason)
    }

    /// The contacts and letters.
    public static func snapshot(of state: State, settings: SessionSettings) -> LettersSnapshot {
        LettersSnapshot(
            contacts: state.contacts.map { LettersSnapshot.Contact(name: $0.name, blocked: $0.blocked) },
            received: state.received.map { LettersSnapshot.Letter(from: $0.from, text: $0.text) },
            written: state.written, undelivered: state.undelivered)
    }

    /// The data-flow log's line for an event.
    public static func describe(_ event: Event) -> EventDescription {
        switch event {
        case .write(let to, let text): EventDescription(name: "write", summary: "to=\(to) text=\"\(text)\"")
        case .block(let name): EventDescription(name: "block", summary: name)
        case .unblock(let name): EventDescription(name: "unblock", summary: name)
        case .met(let name, _): EventDescription(name: "met", summary: name)
        case .letter(let text): EventDescription(name: "letter", summary: "text=\"\(text)\"")
        case .bounced(let text, _, let reason):
            EventDescription(name: "bounced", summary: "\(reason.rawValue) text=\"\(text)\"")
        }
    }
}

extension FeatureRegistration {
    /// The test feature `letters`: a new session has no contact.
    public static let letters = FeatureRegistration.feature(
        LettersApp.self, FeatureHosting(initialState: { _ in LettersApp.State() }))
}
