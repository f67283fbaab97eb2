/// How sessions make contacts and deliver to each other (issue 42), and how many take part in one (issue 43): the
/// bounds that keep one session, or a flood, from holding the others up.
extension AppConfiguration {
    /// Contacts and deliveries between sessions, and the participants of a shared session.
    public struct Contacts: Sendable, Hashable {
        /// The most contacts one session may have (`contacts.maxPerSession`): a redeem past it is refused (422).
        public var maxPerSession = 1000
        /// The most open invitations one session may hold (`contacts.maxOpenInvitations`): more are refused (429)
        /// until one is used, withdrawn or expires.
        public var maxOpenInvitations = 20
        /// The most deliveries one session may have waiting for their receivers (`deliveries.maxPending`): a
        /// client's request finding that many, or whose events would leave more, is refused (429).
        public var maxPending = 256
        /// The most delivered events one receiving session takes at once (`deliveries.maxBacklog`): a delivery that
        /// finds it full comes back to its sender as `full`.
        public var maxBacklog = 1024
        /// The most participants one shared session may have besides its owner (`participants.maxPerSession`): a
        /// join past it is refused (422). Removed participants leave their place.
        public var maxParticipants = 50
        /// The most open join invitations one session may hold (`participants.maxOpenInvitations`): more are refused
        /// (429) until one is used, withdrawn or expires.
        public var maxOpenJoinInvitations = 20

        /// The documented defaults.
        public init() {}
    }
}

extension ValueLoader {
    /// The `contacts.*`, `deliveries.*` and `participants.*` keys.
    func contactSettings() throws(ConfigurationError) -> AppConfiguration.Contacts {
        var contacts = AppConfiguration.Contacts()
        contacts.maxPerSession = try integer(
            "contacts.maxPerSession", default: contacts.maxPerSession, in: 1...1_000_000)
        contacts.maxOpenInvitations = try integer(
            "contacts.maxOpenInvitations", default: contacts.maxOpenInvitations, in: 1...10_000)
        contacts.maxPending = try integer("deliveries.maxPending", default: contacts.maxPending, in: 1...100_000)
        contacts.maxBacklog = try integer("deliveries.maxBacklog", default: contacts.maxBacklog, in: 1...1_000_000)
        contacts.maxParticipants = try integer(
            "participants.maxPerSession", default: contacts.maxParticipants, in: 1...10_000)
        contacts.maxOpenJoinInvitations = try integer(
            "participants.maxOpenInvitations", default: contacts.maxOpenJoinInvitations, in: 1...10_000)
        return contacts
    }
}
