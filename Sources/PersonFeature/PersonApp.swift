import Foundation
import PersonAPI
import ViewHostAPI
import ViewModelCore

/// The objc.io "Introduction to MVVM" example (seed 003, `PersonViewModel`) as a pure state machine: the state is
/// the person shown, the snapshot its name and birthdate as display texts.
///
/// A new session shows the seed's test person, "Dr. first last" born "Thursday January 1, 1970". Dates are shown
/// in the session's time zone (UTC unless the session says otherwise), never the machine's.
///
/// ```swift
/// var person = Person.initial
/// var context = FeatureContext<PersonApp>(now: .now)
/// PersonApp.apply(.personChanged(Person(firstName: "Ada", lastName: "Byron", birthdate: birthdate)),
///                 to: &person, context: &context)          // "Ada Byron", "Thursday May 17, 1990"
/// ```
public enum PersonApp: Feature {
    /// The person shown: salutation, names and birthdate.
    public typealias State = Person
    /// A client's change of the person.
    public typealias Event = PersonEvent
    /// What a client may post (`setPerson`).
    public typealias Intent = PersonIntent
    /// What a client reads: the name and birthdate as texts, and the fields they are made of.
    public typealias Snapshot = PersonSnapshot

    /// The state of a new session: the seed's test person.
    public static let initialState = Person.initial

    /// A form two people may fill in together: a session's owner may invite participants to it.
    public static var isShareable: Bool { true }

    /// Replacing the person is always possible.
    public static func check(_ event: PersonEvent, in state: Person) throws(EventRefusal) {}

    /// Applies one event; setting an equal person changes no version.
    public static func apply(_ event: PersonEvent, to person: inout Person, context: inout FeatureContext<PersonApp>) {
        switch event {
        case .personChanged(let newPerson):
            guard newPerson != person else { return }
            person = newPerson
            context.markChanged()
        }
    }

    /// The snapshot of `person`, its birthdate in the session's time zone.
    public static func snapshot(of person: Person, settings: SessionSettings) -> PersonSnapshot {
        PersonViewModelBuilder.build(for: person, renderer: BirthdateRenderer(timeZone: settings.timeZone))
    }

    /// The feature's event for a client's intent.
    /// - Throws: ``IntentRejection`` when the birthdate is neither an ISO 8601 date (`1970-01-01`) nor an RFC 3339
    ///   date-time.
    public static func event(for intent: PersonIntent) throws(IntentRejection) -> PersonEvent {
        switch intent {
        case .setPerson(let salutation, let firstName, let lastName, let birthdate):
            guard let date = BirthdateParser.parse(birthdate) else {
                throw IntentRejection(
                    field: "birthdate",
                    reason: "must be an ISO 8601 date (1970-01-01) or date-time (1970-01-01T00:00:00Z)")
            }
            return .personChanged(
                Person(salutation: salutation, firstName: firstName, lastName: lastName, birthdate: date))
        }
    }

    /// The event's name and a short summary: the name as shown and the birthdate in ISO 8601.
    public static func describe(_ event: PersonEvent) -> EventDescription {
        switch event {
        case .personChanged(let person):
            let name = PersonViewModelBuilder.nameText(for: person)
            let shortName = name.utf8.count > 32 && name.count > 32 ? String(name.prefix(31)) + "…" : name
            return EventDescription(
                name: "personChanged",
                summary: "name=\"\(shortName)\" birthdate=\(ISO8601Renderer.string(from: person.birthdate))")
        }
    }
}
