import ViewModelCore

/// The Chat screen (seed 001, `ViewModels/Chat/ChatViewModel.swift`), with its fixed texts from `ChatView` and
/// the `send` and `afterShowingMessages` closures as actions.
public struct ChatViewModel: ViewModel {
    /// The closures of the original, as actions.
    public struct Actions: Encodable, Equatable, Sendable {
        /// Send and the return key: posts `send` with this contact and the typed text; disabled while busy
        /// (the return key still sends, quirk kept).
        public let send: ActionDescriptor
        /// Posted by a client that shows the messages: `userRead` for this contact. The server already routes it
        /// whenever the chat on top gets a view model, as the original view does.
        public let afterShowingMessages: ActionDescriptor
    }

    /// The screen title: the contact ("" for a chat that could not be opened).
    public let title: String
    /// The contact ("" for a chat that could not be opened).
    public let contact: String
    /// The message field's placeholder.
    public let placeholder = "Type your message"
    /// The send button's title.
    public let sendTitle = "Send"
    /// Whether row changes animate (quirk kept: only the first load animates).
    public let shouldAnimateChanges: Bool
    /// Whether the message field is cleared (a send started).
    public let shouldWipeMessage: Bool
    /// Whether the spinner replaces the send button.
    public let shouldBeBusy: Bool
    /// Whether there are no messages.
    public let shouldShowEmpty: Bool
    /// Whether ``error`` is shown (quirk fixed: the MVVM original never showed it).
    public let shouldShowError: Bool
    /// The error text, or null.
    public let error: String?
    /// The bubbles, oldest first.
    public let messages: [MessageViewModel]
    /// How the rows changed since the previous view model of this screen.
    public let tableViewDifferences: TableViewDataDifferences
    /// What the screen can post.
    public let actions: Actions

    private enum CodingKeys: String, CodingKey {
        case title, contact, placeholder, sendTitle, shouldAnimateChanges, shouldWipeMessage, shouldBeBusy
        case shouldShowEmpty, shouldShowError, error, messages, tableViewDifferences, actions
    }

    /// Encodes the view model as API.md shows it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(contact, forKey: .contact)
        try container.encode(placeholder, forKey: .placeholder)
        try container.encode(sendTitle, forKey: .sendTitle)
        try container.encode(shouldAnimateChanges, forKey: .shouldAnimateChanges)
        try container.encode(shouldWipeMessage, forKey: .shouldWipeMessage)
        try container.encode(shouldBeBusy, forKey: .shouldBeBusy)
        try container.encode(shouldShowEmpty, forKey: .shouldShowEmpty)
        try container.encode(shouldShowError, forKey: .shouldShowError)
        try container.encode(error, forKey: .error)  // null, not absent, as API.md shows
        try container.encode(messages, forKey: .messages)
        try container.encode(tableViewDifferences, forKey: .tableViewDifferences)
        try container.encode(actions, forKey: .actions)
    }
}
