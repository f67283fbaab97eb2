import Foundation
import TestSupport
import Testing
import PersonAPI
import ViewHostAPI
import ViewModelCore

@testable import PersonFeature

/// Event walks through a real session: the exact snapshots emitted, in order.
struct PersonAppSessionTests {
    @Test func freshSessionShowsTheSeedsTestPersonAtVersionOne() {
        let person = PersonHarness()
        #expect(person.version == 1)
        #expect(person.snapshot.nameText == "Dr. first last")
        #expect(person.snapshot.birthdateText == "Thursday January 1, 1970")
        #expect(person.snapshot.birthdate == "1970-01-01T00:00:00Z")
    }

    @Test func setPersonEmitsOneSnapshotPerChangeAndNoneForAnEqualPerson() throws {
        let person = PersonHarness()
        let ada = Person.make(
            salutation: nil, firstName: "Ada", lastName: "Byron",
            birthdate: try #require(BirthdateParser.parse("1815-12-10")))
        let receipt = person.send(.personChanged(ada), .personChanged(ada), .personChanged(.make(salutation: "")))
        #expect(receipt == SendReceipt(version: 3, sequence: 3))
        #expect(
            person.recorder.snapshots.map { [$0.nameText, $0.birthdateText] } == [
                ["Ada Byron", "Sunday December 10, 1815"], ["first last", "Thursday January 1, 1970"],
            ])
        #expect(person.recorder.versions == [2, 3])
    }

    @Test func nilAndEmptySalutationShowTheSameNameButAreDifferentFields() {
        let person = PersonHarness()
        person.send(.personChanged(.make(salutation: nil)), .personChanged(.make(salutation: "")))
        let snapshots = person.recorder.snapshots
        #expect(snapshots.map(\.nameText) == ["first last", "first last"])
        #expect(snapshots.map(\.salutation) == [nil, ""])
    }

    @Test func usSessionZoneShowsTheEpochAsWednesdayDecember31QuirkOfTheOriginal() {
        let person = PersonHarness(timeZone: .named("America/Los_Angeles"))
        #expect(person.snapshot.birthdateText == "Wednesday December 31, 1969")
        #expect(person.snapshot.birthdate == "1970-01-01T00:00:00Z")
    }

    @Test func logNamesTheEventWithTheNameAndTheInstant() {
        let person = PersonHarness()
        person.send(.personChanged(.make(firstName: "Ada")))
        let entry = person.session.log(after: 0).entries.last
        #expect(entry?.event == "personChanged")
        #expect(entry?.summary == "name=\"Dr. Ada last\" birthdate=1970-01-01T00:00:00Z")
    }

    @Test func longNamesAreCutInTheLog() {
        let description = PersonApp.describe(.personChanged(.make(firstName: String(repeating: "x", count: 200))))
        #expect(description.summary.hasPrefix("name=\"Dr. xxxx"))
        #expect(description.summary.count < 80)
    }
}
