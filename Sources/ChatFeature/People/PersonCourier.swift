import ChatAPI
import Foundation
import ViewModelCore

/// The other side made real: what the chat does with a person (a contact made through an invitation) instead of
/// the bot. The user's messages go to the person's session as deliveries, durable from the step that sends them (so
/// they are `sent` at once, with no simulated delay); the person's messages arrive through the same `received`
/// path as the bot's replies (a banner when their chat is not on top, as the bot's push); reading them delivers a
/// read receipt back, which the sender applies as `otherRead` (the "✓").
enum PersonCourier {
    /// Applies one event between the user's chat and a person's.
    static func handle(_ event: PersonEvent, state: inout ChatState, context: inout FeatureContext<ChatApp>) {
        switch event {
        case .introduced(let name, let address):
            introduced(name: name, address: address, state: &state, context: &context)
        case .message(let text, let sendDate, let id):
            guard let sender = context.sender, let person = state.people.contact(at: sender) else { return }
            received(text: text, sendDate: sendDate, id: id, from: person, state: &state, context: &context)
        case .read(let upTo):
            guard let sender = context.sender, let person = state.people.contact(at: sender) else { return }
            for message in state.model.sentMessages(to: person.displayName, upTo: upTo) {
                context.route(
                    .message(.otherRead(yourMessage: message, reader: person.displayName)), source: context.source)
            }
        case .undelivered(let id, let address, let reason):
            guard let person = state.people.contact(at: address),
                state.model.undelivered(id, to: person.displayName, reason: reason)
            else { return }
            context.markChanged()
            refresh(person.displayName, state: &state, context: &context)
        }
    }

    /// A contact made: kept under a new id and a unique display name, with an empty chat (none when the session
    /// has as many chats as it may, or knows that address already).
    static func introduced(
        name: String, address: ContactAddress, state: inout ChatState, context: inout FeatureContext<ChatApp>
    ) {
        guard state.people.contact(at: address) == nil, state.model.canCreateChat else { return }
        let given = ContactName.normalize(name, maxLength: state.configuration.maxContactLength)
        let model = state.model
        let people = state.people
        let displayName = PeopleState.uniqueName(
            for: given.isEmpty ? "Contact" : given, maxLength: state.configuration.maxContactLength
        ) { candidate in
            ChatEndpoint.seededContacts.contains(candidate) || model.hasChat(with: candidate)
                || people.contact(named: candidate) != nil
        }
        state.people.lastContactID += 1
        state.people.contacts.append(
            PersonContact(
                id: "p\(state.people.lastContactID)", name: given, displayName: displayName, address: address))
        state.model.create(chatWith: displayName)
        context.markChanged()
        refreshLists(state: &state, context: &context)
    }

    /// The user's message to `person`, appended as sending by the endpoint: delivered, and sent in the same step
    /// (the delivery is durable from the commit that decided it).
    static func send(
        _ message: Message, to person: PersonContact, state: inout ChatState, context: inout FeatureContext<ChatApp>
    ) {
        context.deliver(
            .person(.message(text: message.message, sendDate: message.sendDate, id: message.id)), to: person.address)
        context.route(.message(.sent(message: message, contact: person.displayName)), source: context.source)
    }

    /// The user read `contact`'s messages: when `contact` is a person, a read receipt for every message received
    /// from them goes back.
    static func userRead(_ contact: String, state: ChatState, context: inout FeatureContext<ChatApp>) {
        guard let person = state.people.contact(named: contact), person.lastReceived != .none else { return }
        context.deliver(.person(.read(upTo: person.lastReceived)), to: person.address)
    }

    /// A person's message arrived: through `received` at once while their chat is on top (the bot's web socket),
    /// else as a banner (the bot's push, without its delay).
    private static func received(
        text: String, sendDate: Date, id: MessageID, from person: PersonContact, state: inout ChatState,
        context: inout FeatureContext<ChatApp>
    ) {
        state.people.update(person.displayName) { $0.lastReceived = max($0.lastReceived, id) }
        if MessageEventHandler.canHandleMessage(for: person.displayName, in: state) {
            let message = state.model.makeMessage(
                sender: .other(name: person.displayName), message: text, state: .sent, sendDate: sendDate)
            context.route(.message(.received(message: message, contact: person.displayName)), source: context.source)
        } else {
            let notification = PushNotification(
                title: person.displayName, subtitle: DateRenderer(timeZone: context.timeZone).string(from: sendDate),
                body: text, badge: state.model.unreadMessageCount())
            PushNotificationController.received(notification, source: context.source, state: &state, context: &context)
        }
        context.markChanged()
    }

    /// The chat screen of `contact` and the lists show a message's new state.
    private static func refresh(_ contact: String, state: inout ChatState, context: inout FeatureContext<ChatApp>) {
        MessageEventHandler.changed(contact, state: &state, context: &context)
        refreshLists(state: &state, context: &context)
    }

    /// The Chats screen shows the chats as they are now, once it has loaded (before, it keeps its spinner).
    static func refreshLists(state: inout ChatState, context: inout FeatureContext<ChatApp>) {
        guard case .loaded = state.chatList else { return }
        ChatEventHandler.updateAllChatLists(state: &state, context: &context)
    }
}
