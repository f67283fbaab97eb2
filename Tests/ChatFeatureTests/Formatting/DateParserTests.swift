import Foundation
import Testing
import ViewHostAPI

import ChatAPI
@testable import ChatFeature

struct DateParserTests {
    @Test func parsesRenderedDateBackToTheStartOfItsMinuteQuirkKept() {
        let date = Date.fixture.addingTimeInterval(42.7)
        let string = DateRenderer(timeZone: .gmt).string(from: date)
        #expect(DateParser(timeZone: .gmt).date(from: string) == .fixture)
    }

    @Test(arguments: ["Europe/Tallinn", "America/New_York", "Asia/Kathmandu", "Australia/Lord_Howe"])
    func roundTripsInTheSessionsTimeZone(zoneIdentifier: String) throws {
        let zone = try #require(TimeZone(identifier: zoneIdentifier))
        let renderer = DateRenderer(timeZone: zone)
        let parser = DateParser(timeZone: zone)
        for step in 0..<500 {
            let minute = Date(timeIntervalSince1970: 1_774_224_000 + Double(step) * 86_400 * 0.73).timeIntervalSince1970
            let date = Date(timeIntervalSince1970: (minute / 60).rounded(.down) * 60)
            let parsed = try #require(parser.date(from: renderer.string(from: date)))
            // Inside a DST overlap either instant renders the same; both are acceptable readings.
            #expect(renderer.string(from: parsed) == renderer.string(from: date))
        }
    }

    @Test(arguments: [
        "", "23-11-2026", "23-11-2026 14:00:00", "2026-11-23 14:00", "32-11-2026 14:00", "29-02-2025 14:00",
        "23-13-2026 14:00", "23-11-2026 24:00", "23-11-2026 14:60", "ab-11-2026 14:00", "23/11/2026 14:00",
    ])
    func refusesAnythingButTheFixedFormat(string: String) {
        #expect(DateParser(timeZone: .gmt).date(from: string) == nil)
    }
}
