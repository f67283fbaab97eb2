import Foundation
import PersonAPI
import Testing
import ViewHostAPI
import ViewHostTesting
import ViewModelCore

@testable import PersonFeature

/// Event walks through a session (``TestHost``, as the server hosts the feature): the exact snapshots emitted, in
/// order.
struct PersonAppSessionTests {
    static func host(timeZone: TimeZone = .gmt) throws -> TestHost {
        try TestHost(features: [.person], session: SessionSettings(timeZone: timeZone))
    }

    @Test func freshSessionShowsTheSeedsTestPersonAtVersionOne() throws {
        let host = try Self.host()
        #expect(host.version(of: PersonApp.key) == 1)
        #expect(host.snapshot(of: PersonApp.key).nameText == "Dr. first last")
        #expect(host.snapshot(of: PersonApp.key).birthdateText == "Thursday January 1, 1970")
        #expect(host.snapshot(of: PersonApp.key).birthdate == "1970-01-01T00:00:00Z")
    }

    @Test func setPersonEmitsOneSnapshotPerChangeAndNoneForAnEqualPerson() throws {
        var host = try Self.host()
        let ada = Person.make(
            salutation: nil, firstName: "Ada", lastName: "Byron",
            birthdate: try #require(BirthdateParser.parse("1815-12-10")))
        let step = try host.send([.personChanged(ada), .personChanged(ada), .personChanged(.make(salutation: ""))], to: PersonApp.key)
        #expect(step.versions == [PersonApp.key.name: 3])
        #expect(host.state(of: PersonApp.key) == .make(salutation: ""))
        #expect(
            host.snapshots(of: PersonApp.key).map { [$0.snapshot.nameText, $0.snapshot.birthdateText] } == [
                ["Ada Byron", "Sunday December 10, 1815"], ["first last", "Thursday January 1, 1970"],
            ])
        #expect(host.snapshots(of: PersonApp.key).map(\.version) == [2, 3])
    }

    @Test func aClientsIntentIsParsedAndABadBirthdateIsRefusedNamingTheField() throws {
        var host = try Self.host()
        try host.send(
            PersonIntent.setPerson(firstName: "Grace", lastName: "Hopper", birthdate: "1906-12-09"), to: PersonApp.key)
        #expect(host.snapshot(of: PersonApp.key).nameText == "Grace Hopper")
        #expect(throws: IntentRejection(
            field: "birthdate", reason: "must be an ISO 8601 date (1970-01-01) or date-time (1970-01-01T00:00:00Z)")
        ) {
            try host.send(PersonIntent.setPerson(firstName: "A", lastName: "B", birthdate: "soon"), to: PersonApp.key)
        }
        #expect(host.version(of: PersonApp.key) == 2)
    }

    @Test func nilAndEmptySalutationShowTheSameNameButAreDifferentFields() throws {
        var host = try Self.host()
        try host.send([.personChanged(.make(salutation: nil)), .personChanged(.make(salutation: ""))], to: PersonApp.key)
        let snapshots = host.snapshots(of: PersonApp.key).map(\.snapshot)
        #expect(snapshots.map(\.nameText) == ["first last", "first last"])
        #expect(snapshots.map(\.salutation) == [nil, ""])
    }

    @Test func usSessionZoneShowsTheEpochAsWednesdayDecember31QuirkOfTheOriginal() throws {
        let host = try Self.host(timeZone: .named("America/Los_Angeles"))
        #expect(host.snapshot(of: PersonApp.key).birthdateText == "Wednesday December 31, 1969")
        #expect(host.snapshot(of: PersonApp.key).birthdate == "1970-01-01T00:00:00Z")
    }

    @Test func logNamesTheEventWithTheNameAndTheInstant() throws {
        var host = try Self.host()
        try host.send(.personChanged(.make(firstName: "Ada")), to: PersonApp.key)
        let entry = host.log.last
        #expect(entry?.event == "personChanged")
        #expect(entry?.summary == "name=\"Dr. Ada last\" birthdate=1970-01-01T00:00:00Z")
    }

    @Test func longNamesAreCutInTheLog() {
        let description = PersonApp.describe(.personChanged(.make(firstName: String(repeating: "x", count: 200))))
        #expect(description.summary.hasPrefix("name=\"Dr. xxxx"))
        #expect(description.summary.count < 80)
    }
}
