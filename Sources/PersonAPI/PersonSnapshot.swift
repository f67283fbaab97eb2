import ViewHostAPI

/// The person screen's whole view-model snapshot for one session (seed 003 §5(c), plus the person's fields so a
/// client can fill a form).
///
/// ```json
/// {"nameText":"Dr. first last","birthdateText":"Thursday January 1, 1970","salutation":"Dr.",
///  "firstName":"first","lastName":"last","birthdate":"1970-01-01T00:00:00Z","actions":{"setPerson":{…}}}
/// ```
public struct PersonSnapshot: FeatureSnapshot {
    /// The screen's actions.
    public struct Actions: Codable, Equatable, Sendable {
        /// Posts `setPerson` with `{salutation}`, `{firstName}`, `{lastName}` and `{birthdate}` placeholders
        /// (the salutation may be left out; the birthdate is `YYYY-MM-DD` or an RFC 3339 date-time).
        public let setPerson: ActionDescriptor

        /// Creates the actions.
        public init(setPerson: ActionDescriptor) {
            self.setPerson = setPerson
        }
    }

    /// `person`.
    public static let feature = "person"

    /// The name as shown: `"<salutation> <first> <last>"`, or `"<first> <last>"` without a salutation.
    public let nameText: String
    /// The birthdate as shown: `"EEEE MMMM d, yyyy"` in English, in the session's time zone.
    public let birthdateText: String
    /// The salutation as set, or null.
    @Nullable public private(set) var salutation: String?
    /// The first name.
    public let firstName: String
    /// The last name.
    public let lastName: String
    /// The birth instant as an ISO 8601 UTC date-time, such as `1970-01-01T00:00:00Z`.
    public let birthdate: String
    /// The screen's actions.
    public let actions: Actions

    /// Creates a snapshot.
    public init(
        nameText: String, birthdateText: String, salutation: String?, firstName: String, lastName: String,
        birthdate: String, actions: Actions
    ) {
        self.nameText = nameText
        self.birthdateText = birthdateText
        self.salutation = salutation
        self.firstName = firstName
        self.lastName = lastName
        self.birthdate = birthdate
        self.actions = actions
    }
}

extension PersonSnapshot {
    /// The name and birthdate as shown: `Dr. first last, born Thursday January 1, 1970`.
    public var summaryLine: String { "\(nameText), born \(birthdateText)" }
}
