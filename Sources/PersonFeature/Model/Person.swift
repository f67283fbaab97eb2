import Foundation

/// A person as the objc.io example models it (seed 003, `Person`): an immutable value with an optional
/// salutation.
public struct Person: Sendable, Equatable, Codable {
    /// A title such as "Dr.", or nil; an empty string counts as none when the name is shown.
    public var salutation: String?
    /// The first name.
    public var firstName: String
    /// The last name.
    public var lastName: String
    /// The birth instant.
    public var birthdate: Date

    /// Creates a person.
    /// - Parameters:
    ///   - salutation: A title such as "Dr.", or nil.
    ///   - firstName: The first name.
    ///   - lastName: The last name.
    ///   - birthdate: The birth instant.
    public init(salutation: String? = nil, firstName: String, lastName: String, birthdate: Date) {
        self.salutation = salutation
        self.firstName = firstName
        self.lastName = lastName
        self.birthdate = birthdate
    }

    /// The seed's test person (seed 003): "Dr." "first" "last", born at the epoch. A new session shows it.
    public static let initial = Person(
        salutation: "Dr.", firstName: "first", lastName: "last", birthdate: Date(timeIntervalSince1970: 0))
}
