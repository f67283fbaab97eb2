import ViewHostAPI

/// The Chat screen (seed 001, `ViewModels/Chat/ChatViewModel.swift`), with its fixed texts from `ChatView` and
/// the `send` and `afterShowingMessages` closures as actions.
public struct ChatViewModel: ViewModel {
    /// The closures of the original, as actions.
    public struct Actions: Codable, Equatable, Sendable {
        /// Send and the return key: posts `send` with this contact and the typed text. While a message is on its
        /// way the button shows the spinner (``ChatViewModel/shouldBeBusy``), but the return key still sends
        /// (quirk kept), so the action stays enabled; only a chat that could not be opened disables it.
        public let send: ActionDescriptor
        /// Posted by a client that shows the messages: `userRead` for this contact. The server already routes it
        /// whenever the chat on top gets a view model, as the original view does.
        public let afterShowingMessages: ActionDescriptor

        /// Creates the actions.
        public init(send: ActionDescriptor, afterShowingMessages: ActionDescriptor) {
            self.send = send
            self.afterShowingMessages = afterShowingMessages
        }
    }

    /// The screen title: the contact ("" for a chat that could not be opened).
    public let title: String
    /// The contact ("" for a chat that could not be opened).
    public let contact: String
    /// The message field's placeholder.
    public let placeholder: String
    /// The send button's title.
    public let sendTitle: String
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
    @Nullable public private(set) var error: String?
    /// The bubbles, oldest first.
    public let messages: [MessageViewModel]
    /// How the rows changed since the previous view model of this screen.
    public let tableViewDifferences: TableViewDataDifferences
    /// What the screen can post.
    public let actions: Actions

    /// Creates a view model with the original's texts.
    public init(
        title: String, contact: String, placeholder: String = "Type your message", sendTitle: String = "Send",
        shouldAnimateChanges: Bool, shouldWipeMessage: Bool, shouldBeBusy: Bool, shouldShowEmpty: Bool,
        shouldShowError: Bool, error: String?, messages: [MessageViewModel],
        tableViewDifferences: TableViewDataDifferences, actions: Actions
    ) {
        self.title = title
        self.contact = contact
        self.placeholder = placeholder
        self.sendTitle = sendTitle
        self.shouldAnimateChanges = shouldAnimateChanges
        self.shouldWipeMessage = shouldWipeMessage
        self.shouldBeBusy = shouldBeBusy
        self.shouldShowEmpty = shouldShowEmpty
        self.shouldShowError = shouldShowError
        self.error = error
        self.messages = messages
        self.tableViewDifferences = tableViewDifferences
        self.actions = actions
    }
}
