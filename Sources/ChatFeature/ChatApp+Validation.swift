import ChatAPI
import Foundation
import ViewHostAPI
import ViewModelCore

/// What a chat read from outside (a journal export) is held to: what the chat's own events could have made.
extension ChatApp {
    /// The largest limits a chat may have: a new session's (``ChatConfiguration/init()``). An export that raised
    /// one would grow past the window that bounds every other session's memory.
    static let largestConfiguration = ChatConfiguration()

    /// Refuses a chat state the chat never makes: limits above ``largestConfiguration``, more chats, messages,
    /// screens or push banners than its limits keep, texts past the intents' limits, numbering and ring positions
    /// out of place, bot comments that are not the bot's.
    public static func validate(state: ChatState) throws(ValueRejection) {
        let configuration = state.configuration
        let largest = largestConfiguration
        for (name, value, bound) in [
            ("maxContactLength", configuration.maxContactLength, largest.maxContactLength),
            ("maxMessagesPerChat", configuration.maxMessagesPerChat, largest.maxMessagesPerChat),
            ("maxChats", configuration.maxChats, largest.maxChats),
            ("maxNotifications", configuration.maxNotifications, largest.maxNotifications),
            ("maxScreens", configuration.maxScreens, largest.maxScreens),
        ] {
            try ValueRejection.check(value, in: 1...bound, field: "model.configuration.\(name)")
        }
        try ValueRejection.inside("model") { try validate(model: state.model) }
        if case .loaded(let ends) = state.chatList {
            try ValueRejection.check(
                count: ends.count, atMost: configuration.maxChats, field: "chatList.loaded.messageEnds")
            for end in ends {
                try ValueRejection.check(end, in: 0...SessionCore.maxCounter, field: "chatList.loaded.messageEnds")
            }
        }
        try ValueRejection.check(count: state.screens.count, atMost: configuration.maxScreens, field: "screens")
        guard state.screens.first == .chatList, !state.screens.dropFirst().contains(.chatList) else {
            throw ValueRejection(field: "screens", reason: "must start with the Chats screen, and hold it only there")
        }
        for (index, screen) in state.screens.enumerated() {
            try ValueRejection.inside("screens[\(index)]") {
                try validate(screen: screen, limit: configuration.maxMessagesPerChat)
            }
        }
        try ValueRejection.inside("simulation") {
            try validate(simulation: state.simulation, chats: configuration.maxChats)
        }
        try ValueRejection.inside("people") { try validate(people: state.people, model: state.model) }
        let notifications = state.notifications
        try ValueRejection.check(
            count: notifications.delivered.count, atMost: configuration.maxNotifications,
            field: "notifications.delivered")
        try ValueRejection.check(
            notifications.lastNotificationID, in: 0...SessionCore.maxCounter, field: "notifications.lastNotificationID")
        for (index, delivered) in notifications.delivered.enumerated() {
            try ValueRejection.check(
                delivered.id, in: 1...max(1, notifications.lastNotificationID),
                field: "notifications.delivered[\(index)].id")
            try ValueRejection.inside("notifications.delivered[\(index)].content") {
                try validate(notification: delivered.content)
            }
        }
    }

    /// Refuses an event the chat never makes: a client intent past its fields' limits, chats or messages the chat
    /// could not hold, texts past their limits.
    public static func validate(event: ChatAppEvent) throws(ValueRejection) {
        let limit = largestConfiguration.maxMessagesPerChat
        switch event {
        case .intent(let intent):
            try ValueRejection.inside("intent") { try validate(intent: intent) }
        case .chat(.loaded(let chats)):
            try ValueRejection.check(
                count: chats.count, atMost: largestConfiguration.maxChats, field: "chat.loaded.chats")
            for (index, chat) in chats.enumerated() {
                try ValueRejection.inside("chat.loaded.chats[\(index)]") {
                    try chat.validate(keepingAtMost: limit, lastMessageID: SessionCore.maxCounter)
                }
            }
        case .chat(.created(let chat)):
            try ValueRejection.inside("chat.created.chat") {
                try chat.validate(keepingAtMost: limit, lastMessageID: SessionCore.maxCounter)
            }
        case .chat(.creatingChat(let contact)):
            try ValueRejection.check(contact, within: ChatIntent.contactLimit, field: "chat.creatingChat.contact")
        case .chat(.createChatFailed(let reason)):
            try ValueRejection.check(reason, within: ChatIntent.messageLimit, field: "chat.createChatFailed.reason")
        case .chat(.applicationInitialized):
            break
        case .message(let event):
            try ValueRejection.inside("message") { try validate(message: event, limit: limit) }
        case .simulator(let event):
            try ValueRejection.inside("simulator") { try validate(simulator: event) }
        case .person(let event):
            try ValueRejection.inside("person") { try validate(person: event) }
        }
    }

    private static func validate(model: ChatModel) throws(ValueRejection) {
        try ValueRejection.check(count: model.chats.count, atMost: model.configuration.maxChats, field: "chats")
        try ValueRejection.check(model.lastMessageID, in: 0...SessionCore.maxCounter, field: "lastMessageID")
        var contacts = Set<String>()
        for (index, chat) in model.chats.enumerated() {
            try ValueRejection.inside("chats[\(index)]") {
                try chat.validate(
                    keepingAtMost: model.configuration.maxMessagesPerChat, lastMessageID: model.lastMessageID)
            }
            guard contacts.insert(chat.contact).inserted else {
                throw ValueRejection(field: "chats[\(index)].contact", reason: "names a contact of an earlier chat")
            }
        }
    }

    private static func validate(screen: ChatScreenEntry, limit: Int) throws(ValueRejection) {
        switch screen {
        case .chatList:
            break
        case .createChat(let inputs):
            if let error = inputs.error {
                try ValueRejection.check(error, within: ChatIntent.messageLimit, field: "createChat.error")
            }
        case .chat(let display):
            try ValueRejection.check(display.contact, within: ChatIntent.contactLimit, field: "chat.contact")
            switch display.content {
            case .live(.chat(_, _, let error, let window)):
                if let error {
                    try ValueRejection.check(error, within: ChatIntent.messageLimit, field: "chat.content.error")
                }
                try ValueRejection.inside("chat.content.previousMessages") {
                    try validate(window: window, limit: limit)
                }
            case .live(.failed(let reason)):
                try ValueRejection.check(reason, within: ChatIntent.messageLimit, field: "chat.content.reason")
            case .frozen(let viewModel):
                try ValueRejection.inside("chat.content.frozen") { try validate(frozen: viewModel, limit: limit) }
            }
        }
    }

    private static func validate(window: MessageWindow, limit: Int) throws(ValueRejection) {
        try ValueRejection.check(window.start, in: 0...SessionCore.maxCounter, field: "start")
        try ValueRejection.check(
            window.end, in: window.start...min(SessionCore.maxCounter, window.start + limit), field: "end")
    }

    /// A chat screen's view model as it was when the screen was covered: bounded like the chat it was built from.
    private static func validate(frozen viewModel: ChatViewModel, limit: Int) throws(ValueRejection) {
        try ValueRejection.check(count: viewModel.messages.count, atMost: limit, field: "messages")
        for text in [
            viewModel.title, viewModel.contact, viewModel.placeholder, viewModel.sendTitle, viewModel.error ?? "",
        ] {
            try ValueRejection.check(text, within: ChatIntent.messageLimit, field: "text")
        }
        for (index, message) in viewModel.messages.enumerated() {
            for text in [message.id, message.message, message.sendStatus] {
                try ValueRejection.check(text, within: ChatIntent.messageLimit, field: "messages[\(index)]")
            }
        }
        let differences = viewModel.tableViewDifferences
        for rows in [differences.rowsToDelete, differences.rowsToUpdate, differences.rowsToInsert] {
            try ValueRejection.check(count: rows.count, atMost: 2 * limit, field: "tableViewDifferences")
        }
    }

    private static func validate(simulation: SimulationState, chats: Int) throws(ValueRejection) {
        try ValueRejection.check(count: simulation.conversations.count, atMost: chats, field: "conversations")
        try ValueRejection.check(count: simulation.contactsInOrder.count, atMost: chats, field: "contactsInOrder")
        try ValueRejection.check(
            count: simulation.activeConversations.count, atMost: chats, field: "activeConversations")
        for contact in simulation.contactsInOrder + simulation.activeConversations
            + Array(simulation.conversations.keys)
        {
            try ValueRejection.check(contact, within: ChatIntent.contactLimit, field: "contacts")
        }
        for conversation in simulation.conversations.values {
            try ValueRejection.check(conversation.lastReceivedMessage, field: "conversations.lastReceivedMessage")
        }
        // The bot's comments are numbers of its replies, each once in one list or the other.
        let comments = simulation.comments + simulation.usedComments
        guard comments.allSatisfy(BotReplies.comments.indices.contains), Set(comments).count == comments.count else {
            throw ValueRejection(field: "comments", reason: "must number the bot's comments, each once")
        }
    }

    private static func validate(notification: PushNotification) throws(ValueRejection) {
        try ValueRejection.check(notification.title, within: ChatIntent.contactLimit, field: "title")
        try ValueRejection.check(notification.subtitle, within: ChatIntent.contactLimit, field: "subtitle")
        try ValueRejection.check(notification.body, within: ChatIntent.messageLimit, field: "body")
        try ValueRejection.check(notification.badge, in: 0...SessionCore.maxCounter, field: "badge")
    }

    private static func validate(intent: ChatIntent) throws(ValueRejection) {
        switch intent {
        case .create(let contact), .openChat(let contact), .notificationTap(let contact), .removeContact(let contact),
            .blockContact(let contact), .unblockContact(let contact):
            try ValueRejection.check(contact, within: ChatIntent.contactLimit, field: "contact")
        case .send(let text, let contact):
            try ValueRejection.check(text, within: ChatIntent.messageLimit, field: "text")
            if let contact { try ValueRejection.check(contact, within: ChatIntent.contactLimit, field: "contact") }
        case .userRead(let contact):
            if let contact { try ValueRejection.check(contact, within: ChatIntent.contactLimit, field: "contact") }
        case .appear, .addChat, .back, .appResignActive, .appBecomeActive:
            break
        }
    }

    private static func validate(message event: MessageEvent, limit: Int) throws(ValueRejection) {
        let most = SessionCore.maxCounter
        switch event {
        case .sending(let message, let contact, let window):
            try ValueRejection.inside("sending.message") { try message.validate(lastMessageID: most) }
            try ValueRejection.check(contact, within: ChatIntent.contactLimit, field: "sending.contact")
            try ValueRejection.inside("sending.previousMessages") { try validate(window: window, limit: limit) }
        case .sent(let message, let contact), .received(let message, let contact):
            try ValueRejection.inside("message") { try message.validate(lastMessageID: most) }
            try ValueRejection.check(contact, within: ChatIntent.contactLimit, field: "contact")
        case .failedSending(let message, let contact, let reason):
            try ValueRejection.inside("failedSending.message") { try message.validate(lastMessageID: most) }
            try ValueRejection.check(contact, within: ChatIntent.contactLimit, field: "failedSending.contact")
            try ValueRejection.check(reason, within: ChatIntent.messageLimit, field: "failedSending.reason")
        case .userRead(let contact):
            try ValueRejection.check(contact, within: ChatIntent.contactLimit, field: "userRead.messagesSentBy")
        case .otherRead(let message, let reader):
            try ValueRejection.inside("otherRead.yourMessage") { try message.validate(lastMessageID: most) }
            try ValueRejection.check(reader, within: ChatIntent.contactLimit, field: "otherRead.reader")
        }
    }

    private static func validate(simulator event: SimulatorEvent) throws(ValueRejection) {
        switch event {
        case .readReceiptDue(let message, let contact, _):
            try ValueRejection.inside("readReceiptDue.message") {
                try message.validate(lastMessageID: SessionCore.maxCounter)
            }
            try ValueRejection.check(contact, within: ChatIntent.contactLimit, field: "readReceiptDue.contact")
        case .replyDue(let contact, let responses):
            try ValueRejection.check(contact, within: ChatIntent.contactLimit, field: "replyDue.contact")
            try ValueRejection.check(responses, in: 0...SessionCore.maxCounter, field: "replyDue.responsesGiven")
        case .pushDelivered(let notification), .goodbyeDue(let notification):
            try ValueRejection.inside("notification") { try validate(notification: notification) }
        }
    }
}
