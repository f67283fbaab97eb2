import ViewModelCore

/// One session's shared list: its items, each with who added it, and the next id.
public struct ListState: Codable, Equatable, Sendable {
    /// One item.
    public struct Item: Codable, Equatable, Sendable {
        public var id: String
        public var text: String
        public var done: Bool
        /// The participant who added it (``Participant/ownerID`` for the owner): from the credential of the request
        /// that added it, as the feature's context said, never from the body.
        public var addedBy: String

        public init(id: String, text: String, done: Bool, addedBy: String) {
            self.id = id
            self.text = text
            self.done = done
            self.addedBy = addedBy
        }
    }

    public var items: [Item] = []
    public var nextID = 1

    /// An empty list.
    public init() {}
}

/// What happens to a shared list: the participants' intents. Who sent each is not part of the event: the journal
/// keeps it beside the event, and a replay hands it to `apply` again in the context.
public enum ListEvent: Codable, Equatable, Sendable {
    case add(text: String)
    case check(id: String)
    case uncheck(id: String)
    case remove(id: String)
}
