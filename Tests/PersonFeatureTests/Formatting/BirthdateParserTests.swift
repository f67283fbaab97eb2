import Foundation
import Testing
import PersonAPI
import ViewHostAPI

@testable import PersonFeature

/// `setPerson`'s birthdate: ISO 8601 calendar dates and RFC 3339 date-times, nothing else.
struct BirthdateParserTests {
    @Test(
        arguments: [
            ("1970-01-01", 0),
            ("2000-02-29", 951_782_400),
            ("0001-01-01", -62_135_596_800),
            ("9999-12-31", 253_402_214_400),
            ("1970-01-01T00:00:00Z", 0),
            ("1969-12-31T19:00:00-05:00", 0),
            ("1970-01-01T05:30:00+05:30", 0),
            ("1970-01-01T00:00:00-00:00", 0),
            ("1970-01-01T00:00:00+00:00", 0),
            ("1970-01-01T00:00:00.5Z", 0.5),
            ("1970-01-01T00:00:00.123456789Z", 0.123456789),
            ("1969-12-31T23:59:59.250Z", -0.75),
            ("1990-05-17T08:30:00.250+02:00", 642_925_800.25),
            ("2024-02-29T23:59:59+23:59", 1_709_164_859),
            ("9999-12-31T23:59:59Z", 253_402_300_799),
            ("0001-01-01T00:00:00+01:00", -62_135_600_400),  // the written year is checked, not the UTC one
        ] as [(String, Double)])
    func acceptsCalendarDatesAndDateTimesWithAZone(text: String, seconds: Double) throws {
        let date = try #require(BirthdateParser.parse(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 1e-6, "\(text)")
    }

    @Test(arguments: [
        "", "1970", "1970-01", "1970-1-1", "70-01-01", "1970/01/01", "19700101", "1970-01-01 ", " 1970-01-01",
        "1970-01-01\n", "0000-01-01", "+1970-01-01", "-0001-01-01", "10000-01-01", "+10000-01-01",
    ])
    func rejectsOtherDateShapesAndYearsOutside1To9999(text: String) {
        #expect(BirthdateParser.parse(text) == nil)
    }

    @Test(arguments: [
        "2023-02-30", "2023-02-29", "1900-02-29", "2023-04-31", "2023-06-31", "2023-13-01", "2023-00-10",
        "2023-01-00", "2023-01-32", "2023-02-30T00:00:00Z",
    ])
    func rejectsImpossibleDates(text: String) {
        #expect(BirthdateParser.parse(text) == nil)
    }

    @Test(arguments: [
        "1970-01-01T00:00:00", "1970-01-01T00:00Z", "1970-01-01T24:00:00Z", "1970-01-01T23:60:00Z",
        "1970-01-01T23:59:60Z", "1970-01-01t00:00:00z", "1970-01-01T00:00:00z", "1970-01-01 00:00:00Z",
        "1970-01-01T00:00:00.Z", "1970-01-01T00:00:00,5Z", "1970-01-01T00:00:00.1234567890Z",
        "1970-01-01T00:00:00+0100", "1970-01-01T00:00:00+01", "1970-01-01T00:00:00+24:00",
        "1970-01-01T00:00:00+01:60", "1970-01-01T00:00:00Z ", "1970-01-01TZ", "1970-01-01T00:00:00ZZ",
        "1970-01-01T00:00:00+01:00Z", "1970-01-01Z", "1970-01-01T", "19700101T000000Z", "1970-01-01T1:00:00Z",
    ])
    func rejectsDateTimesWithoutAZoneOrWithBadParts(text: String) {
        #expect(BirthdateParser.parse(text) == nil)
    }

    @Test(arguments: ["1970-W01-1", "1970-001", "١٩٧٠-٠١-٠١", "１９７０-０１-０１", "1970-01-01T00:00:00＋01:00", "1970‐01‐01"])
    func rejectsWeekAndOrdinalDatesAndNonASCIIDigitsOrSigns(text: String) {
        #expect(BirthdateParser.parse(text) == nil)
    }

    @Test func rejectsLongInputWithoutReadingIt() {
        #expect(BirthdateParser.parse("1970-01-01T00:00:00.000000000+00:00") != nil)
        #expect(BirthdateParser.parse("1970-01-01T00:00:00.000000000+00:000") == nil)
        #expect(BirthdateParser.parse(String(repeating: "1", count: 100_000)) == nil)
    }

    @Test func readsBridgedAndSubstringBackedTextsToo() {
        let bridged = NSString(string: "1970-01-02") as String
        #expect(BirthdateParser.parse(bridged) == Date(timeIntervalSince1970: 86_400))
        let slice = "x1970-01-02x".dropFirst().dropLast()
        #expect(BirthdateParser.parse(String(slice)) == Date(timeIntervalSince1970: 86_400))
    }

    @Test func dateOnlyIsMidnightUTCSoAZoneWestOfUTCShowsTheDayBefore() throws {
        let date = try #require(BirthdateParser.parse("1990-05-17"))
        #expect(BirthdateRenderer(timeZone: .gmt).string(from: date) == "Thursday May 17, 1990")
        #expect(BirthdateRenderer(timeZone: .named("America/Chicago")).string(from: date) == "Wednesday May 16, 1990")
    }
}
