import ChatAPI
import ViewModelCore

/// The chat takes contacts: a person who redeemed the user's invitation (or whose invitation the user redeemed)
/// becomes a chat like the bots' (``PersonCourier``), with the messages between them delivered by the library.
extension ChatApp {
    /// A person can be a contact of the chat (an invitation of purpose `contact` for `chat`).
    public static var takesContacts: Bool { true }

    /// The schema of ``ChatState`` and ``ChatAppEvent``: 2 since the chat keeps persons (`people`) and a message
    /// may be `notDelivered`; 1 before.
    public static var schemaVersion: Int { 2 }

    /// Version 1 (before persons) is migrated.
    public static var oldestMigratableVersion: Int { 1 }

    /// A contact made becomes ``PersonEvent/introduced(name:address:)``.
    public static func introduced(to contact: Contact) -> ChatAppEvent? {
        .person(.introduced(name: contact.name, address: contact.address))
    }

    /// Drops what a blocked or removed person delivers (silently: they are told it arrived, and never see it read).
    public static func accepts(_ event: ChatAppEvent, from address: ContactAddress, in state: ChatState) -> Bool {
        guard let person = state.people.contact(at: address) else { return false }
        return !person.blocked
    }

    /// A message to a person that did not arrive becomes ``PersonEvent/undelivered(id:to:reason:)``; a read
    /// receipt that did not arrive is let go.
    public static func undelivered(_ event: ChatAppEvent, to address: ContactAddress, because reason: DeliveryFailure)
        -> ChatAppEvent?
    {
        guard case .person(.message(_, _, let id)) = event else { return nil }
        return .person(.undelivered(id: id, to: address, reason: reason))
    }

    /// A state of schema version 1 (which had no `people`) with no persons.
    public static func migrate(state decoder: any Decoder, from version: Int) throws -> ChatState {
        guard version == 1 else { throw SchemaError.cannotMigrate(feature: key.name, from: version, to: schemaVersion) }
        return try ChatStateVersion1(from: decoder).migrated()
    }

    /// An event of schema version 1 reads as it is: version 2 only added cases.
    public static func migrate(event decoder: any Decoder, from version: Int) throws -> ChatAppEvent {
        guard version == 1 else { throw SchemaError.cannotMigrate(feature: key.name, from: version, to: schemaVersion) }
        return try ChatAppEvent(from: decoder)
    }

    /// `removeContact`: the person, their chat, its screens and their banners go; what they deliver later is
    /// dropped (``accepts(_:from:in:)``).
    static func removeContact(_ contact: String, state: inout ChatState, context: inout FeatureContext<ChatApp>) {
        guard state.people.contact(named: contact) != nil else { return }
        ChatNavigator.navigate(.close(contact: contact), state: &state, context: &context)
        state.people.contacts.removeAll { $0.displayName == contact }
        state.model.removeChat(with: contact)
        PushNotificationController.removeNotifications(from: contact, state: &state, context: &context)
        context.markChanged()
        PersonCourier.refreshLists(state: &state, context: &context)
    }
}

/// ``ChatState`` as schema version 1 stored it: everything but `people`.
private struct ChatStateVersion1: Decodable {
    let model: ChatModel
    let hasAppeared: Bool
    let chatList: ChatListViewModelInputs
    let screens: [ChatScreenEntry]
    let simulation: SimulationState
    let notifications: NotificationState

    /// The same state with no persons.
    func migrated() -> ChatState {
        var state = ChatState(configuration: model.configuration)
        state.model = model
        state.hasAppeared = hasAppeared
        state.chatList = chatList
        state.screens = screens
        state.simulation = simulation
        state.notifications = notifications
        return state
    }
}
