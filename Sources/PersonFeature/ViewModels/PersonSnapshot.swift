import ViewModelCore

/// The person screen's whole view-model snapshot for one session (seed 003 §5(c), plus the person's fields so a
/// client can fill a form). The app layer adds `feature` and `version`, and the action's `method` and `href`.
///
/// ```json
/// {"nameText":"Dr. first last","birthdateText":"Thursday January 1, 1970","salutation":"Dr.",
///  "firstName":"first","lastName":"last","birthdate":"1970-01-01T00:00:00Z","actions":{"setPerson":{…}}}
/// ```
public struct PersonSnapshot: ViewModel {
    /// The screen's actions.
    public struct Actions: Encodable, Equatable, Sendable {
        /// Posts `setPerson` with `{salutation}`, `{firstName}`, `{lastName}` and `{birthdate}` placeholders
        /// (the salutation may be left out; the birthdate is `YYYY-MM-DD` or an RFC 3339 date-time).
        public let setPerson: ActionDescriptor
    }

    /// The name as shown: `"<salutation> <first> <last>"`, or `"<first> <last>"` without a salutation.
    public let nameText: String
    /// The birthdate as shown: `"EEEE MMMM d, yyyy"` in English, in the session's time zone.
    public let birthdateText: String
    /// The salutation as set, or null.
    public let salutation: String?
    /// The first name.
    public let firstName: String
    /// The last name.
    public let lastName: String
    /// The birth instant as an ISO 8601 UTC date-time, such as `1970-01-01T00:00:00Z`.
    public let birthdate: String
    /// The screen's actions.
    public let actions: Actions

    private enum CodingKeys: String, CodingKey {
        case nameText, birthdateText, salutation, firstName, lastName, birthdate, actions
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(nameText, forKey: .nameText)
        try container.encode(birthdateText, forKey: .birthdateText)
        try container.encode(salutation, forKey: .salutation)  // null, not absent
        try container.encode(firstName, forKey: .firstName)
        try container.encode(lastName, forKey: .lastName)
        try container.encode(birthdate, forKey: .birthdate)
        try container.encode(actions, forKey: .actions)
    }
}
