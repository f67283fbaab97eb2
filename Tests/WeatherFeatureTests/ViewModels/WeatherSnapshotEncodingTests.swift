import Foundation
import Testing
import WeatherAPI
import ViewHostAPI
import ViewModelCore
import WeatherFeature

struct WeatherSnapshotEncodingTests {
    private func json(_ snapshot: WeatherSnapshot) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.userInfo[.actionHref] = "/v1/sessions/ID/weather/events"
        return String(decoding: try encoder.encode(snapshot), as: UTF8.self)
    }

    @Test func initialSnapshotEncodesNullsAndTheChangeLocationAction() throws {
        let snapshot = WeatherSnapshot(WeatherViewModelBuilder.buildInitial(), provider: "offline")
        #expect(
            try json(snapshot) == #"""
                {"actions":{"changeLocation":{"body":{"location":"{location}","type":"changeLocation"},"href":"/v1/sessions/ID/weather/events","method":"POST","prompt":{"submit":"Submit","title":"Choose location"}}},"date":" ","error":null,"forecastSummary":" ","icon":null,"locationName":"Loading...","observedAt":null,"provider":"offline","status":"loading","summary":" "}
                """#)
    }

    @Test func readySnapshotCarriesTheOriginalsTexts() throws {
        let viewModel = WeatherViewModelBuilder.build(location: .mcGaheysville, observation: .brokenClouds)
        let text = try json(WeatherSnapshot(viewModel, provider: "weatherbit"))
        #expect(text.contains(#""locationName":"McGaheysville, VA""#))
        #expect(text.contains(#""date":"Monday, Aug 28""#))
        #expect(text.contains(#""icon":"c03d""#))
        #expect(text.contains(#""summary":"Broken clouds - 24℉""#))
        #expect(text.contains(#""forecastSummary":"\nSummary: Broken clouds""#))
        #expect(text.contains(#""status":"ready""#))
        #expect(text.contains(#""observedAt":"2017-08-28T17:00:00Z""#))
    }
}
