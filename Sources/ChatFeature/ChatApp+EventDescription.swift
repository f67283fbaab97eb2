import ChatAPI
import ViewHostAPI
import ViewModelCore

/// How the data-flow log names chat events: client intents by their client names, internal events by the
/// original's names (`applicationInitialized`, `sending`, `otherRead`…), simulator steps by what is due.
extension ChatApp {
    /// The event's name and a short payload summary, such as `contact=John text="Hi"`.
    public static func describe(_ event: ChatAppEvent) -> EventDescription {
        switch event {
        case .intent(let intent): describe(intent)
        case .chat(let event): describe(event)
        case .message(let event): describe(event)
        case .simulator(let event): describe(event)
        case .person(let event): describe(event)
        }
    }

    private static func describe(_ event: PersonEvent) -> EventDescription {
        switch event {
        case .introduced(let name, _): EventDescription(name: "introduced", summary: "name=\(quoted(name))")
        case .message(let text, _, let id):
            EventDescription(name: "personMessage", summary: "id=\(id) text=\(quoted(text))")
        case .read(let upTo): EventDescription(name: "personRead", summary: "upTo=\(upTo)")
        case .undelivered(let id, _, let reason):
            EventDescription(name: "undelivered", summary: "id=\(id) reason=\(reason.rawValue)")
        }
    }

    private static func describe(_ intent: ChatIntent) -> EventDescription {
        switch intent {
        case .create(let contact): EventDescription(name: "create", summary: "contact=\(quoted(contact))")
        case .openChat(let contact): EventDescription(name: "openChat", summary: "contact=\(short(contact))")
        case .send(let text, let contact):
            EventDescription(
                name: "send", summary: (contact.map { "contact=\(short($0)) " } ?? "") + "text=\(quoted(text))")
        case .userRead(let contact):
            EventDescription(name: "userRead", summary: contact.map { "contact=\(short($0))" } ?? "")
        case .notificationTap(let contact), .removeContact(let contact), .blockContact(let contact),
            .unblockContact(let contact):
            EventDescription(name: intent.type, summary: "contact=\(short(contact))")
        case .appear, .addChat, .back, .appResignActive, .appBecomeActive:
            EventDescription(name: intent.type)
        }
    }

    private static func describe(_ event: ChatEvent) -> EventDescription {
        switch event {
        case .applicationInitialized: EventDescription(name: "applicationInitialized")
        case .loaded(let chats): EventDescription(name: "loaded", summary: "chats=\(chats.count)")
        case .creatingChat(let contact): EventDescription(name: "creatingChat", summary: "contact=\(short(contact))")
        case .created(let chat): EventDescription(name: "created", summary: "contact=\(short(chat.contact))")
        case .createChatFailed(let reason):
            EventDescription(name: "createChatFailed", summary: "reason=\(quoted(reason))")
        }
    }

    private static func describe(_ event: MessageEvent) -> EventDescription {
        switch event {
        case .sending(let message, let contact, _):
            EventDescription(
                name: "sending", summary: "contact=\(short(contact)) id=\(message.id) text=\(quoted(message.message))")
        case .sent(let message, let contact):
            EventDescription(name: "sent", summary: "contact=\(short(contact)) id=\(message.id)")
        case .failedSending(_, let contact, let reason):
            EventDescription(name: "failedSending", summary: "contact=\(short(contact)) reason=\(quoted(reason))")
        case .received(let message, let contact):
            EventDescription(
                name: "received", summary: "contact=\(short(contact)) id=\(message.id) text=\(quoted(message.message))")
        case .userRead(let contact): EventDescription(name: "userRead", summary: "contact=\(short(contact))")
        case .otherRead(let message, let reader):
            EventDescription(name: "otherRead", summary: "contact=\(short(reader)) id=\(message.id)")
        }
    }

    private static func describe(_ event: SimulatorEvent) -> EventDescription {
        switch event {
        case .readReceiptDue(let message, let contact, _):
            EventDescription(name: "readReceiptDue", summary: "contact=\(short(contact)) id=\(message.id)")
        case .replyDue(let contact, let responsesGiven):
            EventDescription(name: "replyDue", summary: "contact=\(short(contact)) reply=\(responsesGiven + 1)")
        case .pushDelivered(let notification):
            EventDescription(
                name: "pushDelivered", summary: "contact=\(short(notification.title)) text=\(quoted(notification.body))"
            )
        case .goodbyeDue(let notification):
            EventDescription(
                name: "goodbyeDue", summary: "contact=\(short(notification.title)) text=\(quoted(notification.body))")
        }
    }

    /// At most 32 UTF-8 bytes of `value` (cut on a code point), so a summary never grows with its payload.
    private static func short(_ value: String) -> String {
        EventDescription.shortened(value, maxBytes: 32)
    }

    private static func quoted(_ value: String) -> String {
        "\"\(short(value))\""
    }
}
