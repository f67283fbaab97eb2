import Foundation
import Testing
import PersonAPI
import ViewHostAPI

@testable import PersonFeature

/// The snapshot's `birthdate`: RFC 3339 in UTC, read back by the parser to the same instant.
struct ISO8601RendererTests {
    @Test(
        arguments: [
            (0, "1970-01-01T00:00:00Z"),
            (-1, "1969-12-31T23:59:59Z"),
            (0.25, "1970-01-01T00:00:00.250Z"),
            (-0.75, "1969-12-31T23:59:59.250Z"),
            (0.123, "1970-01-01T00:00:00.123Z"),
            (642_925_800.25, "1990-05-17T06:30:00.250Z"),
            (-62_135_596_800, "0001-01-01T00:00:00Z"),
            (253_402_300_799, "9999-12-31T23:59:59Z"),
        ] as [(Double, String)])
    func writesUTCWithMillisecondsOnlyWhenThereAreAny(seconds: Double, text: String) {
        #expect(ISO8601Renderer.string(from: Date(timeIntervalSince1970: seconds)) == text)
    }

    @Test func roundTripsThroughTheParser() throws {
        for seconds in stride(from: -62_135_596_800, through: 253_402_300_799, by: 997_331_717) {
            let date = Date(timeIntervalSince1970: Double(seconds))
            #expect(BirthdateParser.parse(ISO8601Renderer.string(from: date)) == date)
        }
    }

    @Test func yearsTheParserNeverGivesStillRender() {
        #expect(ISO8601Renderer.string(from: Date(timeIntervalSince1970: -62_135_596_801)) == "0000-12-31T23:59:59Z")
        #expect(ISO8601Renderer.string(from: Date(timeIntervalSince1970: 253_402_300_800)) == "+10000-01-01T00:00:00Z")
        #expect(ISO8601Renderer.string(from: .distantPast).hasPrefix("0000-12-30"))
        #expect(ISO8601Renderer.string(from: Date(timeIntervalSince1970: .infinity)) == "1970-01-01T00:00:00Z")
    }
}
