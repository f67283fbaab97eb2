import Foundation
import ViewModelCore

/// The objc.io "Introduction to MVVM" example (seed 003, `PersonViewModel`) for one session: a person's name and
/// birthdate as display texts.
///
/// A new session shows the seed's test person, "Dr. first last" born "Thursday January 1, 1970". Dates are shown
/// in the session's time zone (UTC unless the session says otherwise), never the machine's.
///
/// ```swift
/// let session = Session(id: .random(), token: .random(), environment: environment,
///                       features: [SessionFeature(PersonApp.key, model: PersonApp(timeZone: .gmt))])
/// let birthdate = BirthdateParser.parse("1990-05-17")!
/// session.send([.personChanged(Person(firstName: "Ada", lastName: "Byron", birthdate: birthdate))],
///              to: PersonApp.key)                           // "Ada Byron", "Thursday May 17, 1990"
/// ```
public final class PersonApp: FeatureModel {
    public typealias Event = PersonEvent
    public typealias Snapshot = PersonSnapshot

    /// The feature's key: `person`.
    public static let key = FeatureKey<PersonApp>("person")

    private let renderer: BirthdateRenderer
    private var person = Person.initial

    /// Creates the person screen of one session, showing the seed's test person.
    /// - Parameter timeZone: The session's time zone, in which the birthdate is shown (default UTC).
    public init(timeZone: TimeZone = .gmt) {
        renderer = BirthdateRenderer(timeZone: timeZone)
    }

    /// Applies one event; setting an equal person changes no version.
    public func apply(_ event: PersonEvent, context: inout FeatureContext<PersonEvent>) {
        switch event {
        case .personChanged(let newPerson):
            guard newPerson != person else { return }
            person = newPerson
            context.markChanged()
        }
    }

    /// The snapshot of the current person.
    public func makeViewModel() -> PersonSnapshot {
        PersonViewModelBuilder.build(for: person, renderer: renderer)
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
