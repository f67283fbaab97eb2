import Foundation
import Testing
import PersonAPI
import ViewHostAPI
import ViewModelCore

@testable import PersonFeature

/// The snapshot's JSON: every key, the salutation as null when there is none.
struct PersonSnapshotEncodingTests {
    private func json(_ person: Person) throws -> [String: Any] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.userInfo[.actionHref] = "/v1/sessions/ID/person/events"
        let data = try encoder.encode(
            PersonViewModelBuilder.build(for: person, renderer: BirthdateRenderer(timeZone: .gmt)))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func hasEveryKeyAndThePostableAction() throws {
        let object = try json(.make())
        #expect(
            Set(object.keys) == [
                "nameText", "birthdateText", "salutation", "firstName", "lastName", "birthdate", "actions",
            ])
        #expect(object["nameText"] as? String == "Dr. first last")
        #expect(object["birthdate"] as? String == "1970-01-01T00:00:00Z")
        let setPerson = try #require((object["actions"] as? [String: [String: Any]])?["setPerson"])
        #expect(setPerson["href"] as? String == "/v1/sessions/ID/person/events")
        #expect(
            (setPerson["body"] as? [String: String]) == [
                "type": "setPerson", "salutation": "{salutation}", "firstName": "{firstName}", "lastName": "{lastName}",
                "birthdate": "{birthdate}",
            ])
    }

    @Test func missingSalutationIsNull() throws {
        #expect(try json(.make(salutation: nil))["salutation"] is NSNull)
        #expect(try json(.make(salutation: ""))["salutation"] as? String == "")
    }
}
