import PersonFeature
import PersonAPI
import ViewHostAPI
import ViewModelCore

extension FeatureDefinition {
    /// The objc.io PersonViewModel (seed 003): `setPerson[salutation?,firstName,lastName,birthdate]`, decoded as a
    /// ``PersonIntent``, with the birthdate as an ISO 8601 date (`1970-01-01`) or date-time (`1970-01-01T00:00:00Z`).
    static let person = FeatureDefinition.define(
        PersonApp.key, eventTypes: PersonIntent.types, initialState: { PersonApp.initialState }
    ) { _, fields throws(EventDecodingError) in
        try fields.onlyFields(["salutation", "firstName", "lastName", "birthdate"])
        let intent = PersonIntent.setPerson(
            salutation: try fields.optionalString("salutation", limit: .short),
            firstName: try fields.string("firstName", limit: .name),
            lastName: try fields.string("lastName", limit: .name),
            birthdate: try fields.string("birthdate", limit: .short))
        guard let event = PersonApp.event(for: intent) else {
            throw .invalidValue(
                fields.path("birthdate"), reason: "must be an ISO 8601 date (1970-01-01) or date-time (1970-01-01T00:00:00Z)")
        }
        return event
    }
}
