import ViewHostAPI

/// The to-do list as `GET /v1/sessions/{id}/todo` serves it: its items, each with its own actions, how many are
/// left, the undo window's message while it is open, and the list's actions.
public struct TodoSnapshot: FeatureSnapshot {
    /// One item of the list.
    public struct Item: Codable, Equatable, Sendable {
        /// What an item offers.
        public struct Actions: Codable, Equatable, Sendable {
            public let toggle: ActionDescriptor
            public let edit: ActionDescriptor
            public let remove: ActionDescriptor

            public init(toggle: ActionDescriptor, edit: ActionDescriptor, remove: ActionDescriptor) {
                self.toggle = toggle
                self.edit = edit
                self.remove = remove
            }
        }

        public let id: String
        public let title: String
        public let done: Bool
        public let actions: Actions

        public init(id: String, title: String, done: Bool, actions: Actions) {
            self.id = id
            self.title = title
            self.done = done
            self.actions = actions
        }
    }

    /// What the list offers.
    public struct Actions: Codable, Equatable, Sendable {
        public let add: ActionDescriptor
        public let clearCompleted: ActionDescriptor
        public let undo: ActionDescriptor

        public init(add: ActionDescriptor, clearCompleted: ActionDescriptor, undo: ActionDescriptor) {
            self.add = add
            self.clearCompleted = clearCompleted
            self.undo = undo
        }
    }

    /// `todo`.
    public static let feature = "todo"

    public let items: [Item]
    /// Items not done yet.
    public let remaining: Int
    /// "Removed “Milk”" while the undo window is open, else null.
    @Nullable public private(set) var undoMessage: String?
    public let actions: Actions

    public init(items: [Item], remaining: Int, undoMessage: String?, actions: Actions) {
        self.items = items
        self.remaining = remaining
        self.undoMessage = undoMessage
        self.actions = actions
    }

    /// `3 items, 2 left`.
    public var summaryLine: String { "\(items.count) item\(items.count == 1 ? "" : "s"), \(remaining) left" }
}
