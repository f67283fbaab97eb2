import ViewHostAPI

/// The shared list as `GET /v1/sessions/{id}/list` serves it: its items, each with who added it and its own actions,
/// how many are left to buy, the list's actions, and how many of the items the one looking added (the one field that
/// differs between participants: the feature is a `ViewerDependentFeature`).
///
/// Who added an item is a participant's id (`owner` for the session's owner): the feature knows who posted an event
/// from the credential, never a name. Names are the session's participants' (`GET /v1/sessions/{id}/participants`),
/// which the page maps the ids to.
public struct ListSnapshot: FeatureSnapshot {
    /// One item of the list.
    public struct Item: Codable, Equatable, Sendable {
        /// What an item offers.
        public struct Actions: Codable, Equatable, Sendable {
            /// `check` while the item is not bought, else `uncheck`.
            public let toggle: ActionDescriptor
            public let remove: ActionDescriptor

            public init(toggle: ActionDescriptor, remove: ActionDescriptor) {
                self.toggle = toggle
                self.remove = remove
            }
        }

        public let id: String
        public let text: String
        public let done: Bool
        /// The id of the participant who added it: `owner`, or a member's id.
        public let addedBy: String
        public let actions: Actions

        public init(id: String, text: String, done: Bool, addedBy: String, actions: Actions) {
            self.id = id
            self.text = text
            self.done = done
            self.addedBy = addedBy
            self.actions = actions
        }
    }

    /// What the list offers.
    public struct Actions: Codable, Equatable, Sendable {
        /// Disabled once the list holds ``ListIntent/maxItems``.
        public let add: ActionDescriptor

        public init(add: ActionDescriptor) {
            self.add = add
        }
    }

    /// `list`.
    public static let feature = "list"

    public let items: [Item]
    /// Items not bought yet.
    public let remaining: Int
    public let actions: Actions
    /// How many of the items the participant looking added (the owner's own count in an export).
    public let addedByYou: Int

    public init(items: [Item], remaining: Int, actions: Actions, addedByYou: Int) {
        self.items = items
        self.remaining = remaining
        self.actions = actions
        self.addedByYou = addedByYou
    }

    /// `3 items, 2 left`.
    public var summaryLine: String { "\(items.count) item\(items.count == 1 ? "" : "s"), \(remaining) left" }
}
