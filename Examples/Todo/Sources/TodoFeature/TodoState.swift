import ViewModelCore

/// One session's to-do list: its items, the next id, and what the last removal took while its undo window is open.
public struct TodoState: Codable, Equatable, Sendable {
    /// One item.
    public struct Item: Codable, Equatable, Sendable {
        public var id: String
        public var title: String
        public var done: Bool

        public init(id: String, title: String, done: Bool) {
            self.id = id
            self.title = title
            self.done = done
        }
    }

    /// What the last `remove` or `clearCompleted` took, where each item stood, and the timer that closes the window.
    public struct Undo: Codable, Equatable, Sendable {
        public var removed: [Removed]
        public var timer: TimerID
    }

    /// A removed item and the index it stood at.
    public struct Removed: Codable, Equatable, Sendable {
        public var item: Item
        public var index: Int
    }

    public var items: [Item] = []
    public var nextID = 1
    public var undo: Undo?

    /// An empty list.
    public init() {}
}

/// What happens to a to-do list: the client's intents, and the undo window closing.
public enum TodoEvent: Codable, Equatable, Sendable {
    case add(title: String)
    case toggle(id: String)
    case edit(id: String, title: String)
    case remove(id: String)
    case clearCompleted
    case undo
    /// The undo window closed (the timer `remove` and `clearCompleted` start).
    case undoExpired
}
