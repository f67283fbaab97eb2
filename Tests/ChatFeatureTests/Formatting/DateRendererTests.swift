import Foundation
import Testing

import ChatAPI
@testable import ChatFeature
import ViewHostAPI
import ViewModelCore

struct DateRendererTests {
    private static let zones = [
        "GMT", "UTC", "Europe/Tallinn", "America/New_York", "America/St_Johns", "Asia/Kolkata", "Asia/Kathmandu",
        "Australia/Lord_Howe", "Pacific/Chatham", "Pacific/Kiritimati", "America/Sao_Paulo", "Africa/Casablanca",
    ]

    @Test func rendersTheOriginalsOneFixedFormat() {
        #expect(DateRenderer(timeZone: .gmt).string(from: Date(timeIntervalSince1970: 0)) == "01-01-1970 00:00")
        #expect(DateRenderer(timeZone: .gmt).string(from: .fixture) == "23-11-2026 14:00")
    }

    @Test func cutsSecondsInsteadOfRounding() {
        let date = Date.fixture.addingTimeInterval(59.999)
        #expect(DateRenderer(timeZone: .gmt).string(from: date) == "23-11-2026 14:00")
    }

    @Test func rendersInTheSessionsTimeZone() throws {
        let tallinn = try #require(TimeZone(identifier: "Europe/Tallinn"))
        #expect(DateRenderer(timeZone: tallinn).string(from: .fixture) == "23-11-2026 16:00")
        let summer = Date(timeIntervalSince1970: 1_782_907_200)  // 2026-07-01 12:00 UTC
        #expect(DateRenderer(timeZone: tallinn).string(from: summer) == "01-07-2026 15:00")
    }

    @Test func rendersDatesBeforeTheEpochAndLeapDays() {
        let renderer = DateRenderer(timeZone: .gmt)
        #expect(renderer.string(from: Date(timeIntervalSince1970: -1)) == "31-12-1969 23:59")
        #expect(renderer.string(from: Date(timeIntervalSince1970: 951_782_400)) == "29-02-2000 00:00")
    }

    /// A flaky failure once: 02:14:59.9996 is 02:15:00.000 to the millisecond, and DateFormatter shows 02:15.
    @Test func roundsToTheMillisecondBeforeCuttingSecondsAsDateFormatterDoes() {
        let renderer = DateRenderer(timeZone: .gmt)
        #expect(renderer.string(from: Date(timeIntervalSince1970: 59.9996)) == "01-01-1970 00:01")
        #expect(renderer.string(from: Date(timeIntervalSince1970: 59.9994)) == "01-01-1970 00:00")
        #expect(renderer.string(from: Date(timeIntervalSince1970: -0.0004)) == "01-01-1970 00:00")
        #expect(renderer.string(from: Date(timeIntervalSince1970: -0.0006)) == "31-12-1969 23:59")
    }

    @Test(arguments: zones)
    func matchesDateFormatterForManyDates(zoneIdentifier: String) throws {
        let zone = try #require(TimeZone(identifier: zoneIdentifier))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = zone
        formatter.dateFormat = "dd-MM-yyyy HH:mm"
        let renderer = DateRenderer(timeZone: zone)
        // Seeded, so a failure names dates that fail again: 1900…2100 at random instants (fractions of a second
        // included, which DateFormatter rounds to the millisecond), plus the hours around this year's DST changes.
        var random = RandomSource.seeded(2_026)
        var dates = (0..<2_000).map { _ in
            Date(timeIntervalSince1970: Double.random(in: -2_208_988_800...4_102_444_800, using: &random))
        }
        dates += stride(from: 1_774_224_000.0, to: 1_774_224_000 + 86_400 * 370, by: 1_799.5).map {
            Date(timeIntervalSince1970: $0)
        }
        for date in dates {
            #expect(renderer.string(from: date) == formatter.string(from: date), "\(date) in \(zoneIdentifier)")
        }
    }
}
