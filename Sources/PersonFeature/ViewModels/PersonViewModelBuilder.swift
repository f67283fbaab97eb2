import PersonAPI
import ViewHostAPI
import ViewModelCore

/// Builds the person snapshot (seed 003, `PersonViewModel`): pure functions of the person and the session's
/// birthdate renderer.
enum PersonViewModelBuilder {
    /// The snapshot of `person`, with its birthdate shown by `renderer`.
    static func build(for person: Person, renderer: BirthdateRenderer) -> PersonSnapshot {
        PersonSnapshot(
            nameText: nameText(for: person),
            birthdateText: renderer.string(from: person.birthdate),
            salutation: person.salutation,
            firstName: person.firstName,
            lastName: person.lastName,
            birthdate: ISO8601Renderer.string(from: person.birthdate),
            actions: PersonSnapshot.Actions(
                setPerson: ActionDescriptor {
                    (salutation: String, firstName: String, lastName: String, birthdate: String) in
                    PersonIntent.setPerson(
                        salutation: salutation, firstName: firstName, lastName: lastName, birthdate: birthdate)
                }))
    }

    /// Mirrors the original (seed 003, `nameText`): with a salutation of length > 0,
    /// `"<salutation> <first> <last>"`, otherwise `"<first> <last>"`; nil and `""` are alike. Nothing is trimmed,
    /// as in the original: a salutation of one space is a salutation.
    static func nameText(for person: Person) -> String {
        if let salutation = person.salutation, !salutation.isEmpty {
            return "\(salutation) \(person.firstName) \(person.lastName)"
        }
        return "\(person.firstName) \(person.lastName)"
    }
}
