import Foundation
import Testing
import PersonAPI
import ViewHostAPI
import ViewModelCore

@testable import PersonFeature

/// Seed 003's `PersonViewModel` rules and its three tests.
struct PersonViewModelBuilderTests {
    private let utc = BirthdateRenderer(timeZone: .gmt)

    @Test func seedTestSalutationGivesDrFirstLast() {
        #expect(PersonViewModelBuilder.nameText(for: .make()) == "Dr. first last")
    }

    @Test func seedTestNoSalutationGivesFirstLast() {
        #expect(PersonViewModelBuilder.nameText(for: .make(salutation: nil)) == "first last")
    }

    @Test func emptySalutationIsLikeNil() {
        #expect(PersonViewModelBuilder.nameText(for: .make(salutation: "")) == "first last")
    }

    @Test func salutationIsNotTrimmedAsInTheOriginal() {
        #expect(PersonViewModelBuilder.nameText(for: .make(salutation: " ")) == "  first last")
    }

    @Test func seedTestEpochZeroIsThursdayJanuaryFirst1970() {
        #expect(utc.string(from: Date(timeIntervalSince1970: 0)) == "Thursday January 1, 1970")
    }

    @Test func usTimeZoneGivesTheDayBeforeSoUTCIsTheDefaultQuirkFixed() {
        let newYork = BirthdateRenderer(timeZone: .named("America/New_York"))
        #expect(newYork.string(from: Date(timeIntervalSince1970: 0)) == "Wednesday December 31, 1969")
        #expect(
            PersonApp.snapshot(of: PersonApp.initialState, settings: SessionSettings()).birthdateText
                == "Thursday January 1, 1970")
    }

    @Test func sessionZoneEastOfUTCIsHonoured() {
        let tokyo = BirthdateRenderer(timeZone: .named("Asia/Tokyo"))
        // 1969-12-31T20:00:00Z is already 1 January in Tokyo (+09:00).
        #expect(tokyo.string(from: Date(timeIntervalSince1970: -4 * 3_600)) == "Thursday January 1, 1970")
        #expect(utc.string(from: Date(timeIntervalSince1970: -4 * 3_600)) == "Wednesday December 31, 1969")
    }

    @Test func daylightSavingTimeIsTheZonesRuleForThatInstant() {
        let tallinn = BirthdateRenderer(timeZone: .named("Europe/Tallinn"))
        // 2024-06-30T21:30:00Z is 00:30 on 1 July in Tallinn's summer time (+03:00), 23:30 in its winter time.
        #expect(tallinn.string(from: Date(timeIntervalSince1970: 1_719_783_000)) == "Monday July 1, 2024")
        // 2024-01-31T21:30:00Z is 23:30 on 31 January in winter (+02:00).
        #expect(tallinn.string(from: Date(timeIntervalSince1970: 1_706_736_600)) == "Wednesday January 31, 2024")
    }

    @Test(arguments: [
        ("1990-05-17", "Thursday May 17, 1990"),
        ("2000-02-29", "Tuesday February 29, 2000"),
        ("0987-03-05", "Monday March 5, 0987"),
        ("0001-01-01", "Monday January 1, 0001"),
        ("9999-12-31", "Friday December 31, 9999"),
        ("1582-10-04", "Monday October 4, 1582"),
    ])
    func dayIsUnpaddedYearHasFourDigitsAndTheCalendarIsProlepticGregorian(iso: String, text: String) throws {
        let date = try #require(BirthdateParser.parse(iso))
        #expect(utc.string(from: date) == text)
    }

    @Test(arguments: ["GMT", "America/Los_Angeles", "Asia/Kolkata", "Australia/Adelaide", "Pacific/Kiritimati"])
    func agreesWithAPOSIXDateFormatterAfter1582(zone: String) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = .named(zone)
        formatter.dateFormat = "EEEE MMMM d, yyyy"
        let renderer = BirthdateRenderer(timeZone: .named(zone))
        // About 300 instants from 1600-01-01 to 9999-12-31 (an odd step, so every time of day and weekday
        // comes up), plus fixed edges around the epoch.
        let spread = stride(from: -11_676_096_000, through: 253_402_300_799, by: 883_747_373)
        for seconds in [0, -1, 1, 86_399, 86_400, -86_400, 951_782_400] + Array(spread) {
            let date = Date(timeIntervalSince1970: Double(seconds))
            #expect(renderer.string(from: date) == formatter.string(from: date), "at \(seconds) in \(zone)")
        }
    }

    @Test func snapshotCarriesTheFieldsAndTheSetPersonAction() {
        let snapshot = PersonViewModelBuilder.build(for: .make(), renderer: utc)
        #expect(
            snapshot
                == PersonSnapshot(
                    nameText: "Dr. first last", birthdateText: "Thursday January 1, 1970", salutation: "Dr.",
                    firstName: "first", lastName: "last", birthdate: "1970-01-01T00:00:00Z",
                    actions: PersonSnapshot.Actions(
                        setPerson: ActionDescriptor(
                            event: "setPerson",
                            fields: [
                                "salutation": "{salutation}", "firstName": "{firstName}", "lastName": "{lastName}",
                                "birthdate": "{birthdate}",
                            ]))))
    }
}
