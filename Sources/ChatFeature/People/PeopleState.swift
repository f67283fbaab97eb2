import ViewModelCore

/// The persons one session's chat knows (contacts made through invitations), in the order they were made.
struct PeopleState: Codable, Equatable, Sendable {
    /// The contacts, oldest first.
    var contacts: [PersonContact] = []
    /// The number of the last id given (`p3` after three contacts), so a removed contact's id is never reused.
    var lastContactID = 0

    /// No contact yet.
    init() {}

    /// The contact whose chat is `displayName`'s, if that chat is a person's.
    func contact(named displayName: String) -> PersonContact? {
        contacts.first { $0.displayName == displayName }
    }

    /// The contact reached at `address`, if it is still kept.
    func contact(at address: ContactAddress) -> PersonContact? {
        contacts.first { $0.address == address }
    }

    /// Changes the contact named `displayName` in place; nothing when there is none.
    mutating func update(_ displayName: String, _ change: (inout PersonContact) -> Void) {
        guard let index = contacts.firstIndex(where: { $0.displayName == displayName }) else { return }
        change(&contacts[index])
    }

    /// A name no chat, bot or person has: `name` itself, else `name (2)`, `name (3)`…, cut so that the whole fits
    /// `maxLength` characters (what ``ContactName`` keeps of a name a client posts, so `openChat` finds it).
    /// - Parameters:
    ///   - name: The name the person gave, already normalised.
    ///   - maxLength: The longest contact name of the session.
    ///   - isTaken: Whether a chat (or a seeded bot) has a name.
    /// - Returns: The first name `isTaken` says no to.
    static func uniqueName(for name: String, maxLength: Int, isTaken: (String) -> Bool) -> String {
        var number = 1
        while true {
            let suffix = number == 1 ? "" : " (\(number))"
            let base = ContactName.normalize(name, maxLength: max(1, maxLength - suffix.count))
            let candidate = base + suffix
            if !isTaken(candidate) { return candidate }
            number += 1
        }
    }
}
