import Foundation
import TestSupport
import Testing
import WeatherAPI
import ViewHostAPI
import WeatherFeature

/// Weatherbit's `current` endpoint against a local fake server replaying its documented JSON.
struct WeatherbitProviderTests {
    private func services(_ server: FakeProviderServer, clock: TestClock = TestClock()) throws -> WeatherServices {
        try WeatherServices.make(
            provider: "weatherbit", environment: ["VIEWHOST_WEATHERBIT_KEY": "test-key"],
            timeout: TestDeadline.scaled(.seconds(5)), retryDelay: .zero,
            now: { clock.now }, openMeteoGeocodingURL: server.url("/v1/search"),
            weatherbitURL: server.url("/v2.0/current"))
    }

    @Test func currentWeatherReadsTheOriginalsFields() async throws {
        let server = try FakeProviderServer(["/v2.0/current": [.fixture("weatherbit-current")]])
        let observation = try await services(server).weather.currentWeather(at: .mcGaheysville)
        await server.stop()
        #expect(
            observation
                == WeatherObservation(
                    temperatureFahrenheit: 24.19, iconName: "c03d", description: "Broken clouds",
                    observedAt: Date(timeIntervalSince1970: 1_503_939_600),  // the cycle hour 2017-08-28:17, UTC
                    timeZoneIdentifier: "America/New_York"))
        let request = try #require(server.requests.first)
        for part in ["key=test-key", "units=I", "lat=38.3715", "lon=-78.7447"] {
            #expect(request.contains(part), "\(request) lacks \(part)")
        }
    }

    @Test func emptyDataIsAFailureNotACrash() async throws {
        // quirk fixed: the original read observation[0] of an empty array.
        let server = try FakeProviderServer(["/v2.0/current": [.fixture("weatherbit-empty")]])
        let services = try services(server)
        await #expect(throws: WeatherError.invalidResponse(service: "Weatherbit")) {
            try await services.weather.currentWeather(at: .mcGaheysville)
        }
        await server.stop()
    }

    @Test func rejectedKeyIsAFailureWithItsStatus() async throws {
        let server = try FakeProviderServer(["/v2.0/current": [.status(403)]])
        let services = try services(server)
        await #expect(throws: WeatherError.badStatus(service: "Weatherbit", status: 403)) {
            try await services.weather.currentWeather(at: .mcGaheysville)
        }
        await server.stop()
        #expect(server.requests.count == 1)
    }

    @Test func unreadableCycleHourFallsBackToTheObservationTime() async throws {
        let body =
            #"{"data":[{"temp":50,"datetime":"soon","ts":1503938700,"weather":{"icon":"r01n","description":"Light rain"}}],"count":1}"#
        let server = try FakeProviderServer(["/v2.0/current": [.body(body)]])
        let observation = try await services(server).weather.currentWeather(at: .make())
        await server.stop()
        #expect(observation.observedAt == Date(timeIntervalSince1970: 1_503_938_700))
        #expect(observation.timeZoneIdentifier == "America/New_York")  // the location's, as Weatherbit gave none
    }

    @Test func sessionShowsWeatherbitWeatherEndToEnd() async throws {
        let server = try FakeProviderServer([
            "/v1/search": [.fixture("open-meteo-search-richmond")], "/v2.0/current": [.fixture("weatherbit-current")],
        ])
        let harness = WeatherHarness(services: try services(server))
        harness.send(.changeLocation("Richmond, VA"))
        await harness.effects.runAll()
        await server.stop()
        let snapshot = harness.snapshot
        #expect(snapshot.locationName == "Richmond, VA")
        #expect(snapshot.date == "Monday, Aug 28")
        #expect(snapshot.summary == "Broken clouds - 24℉")
        #expect(snapshot.forecastSummary == "\nSummary: Broken clouds")
        #expect(snapshot.icon == "c03d")
        #expect(snapshot.provider == "weatherbit")
        #expect(snapshot.status == .ready)
    }

    @Test func sessionShowsFailedWhenWeatherbitIsDown() async throws {
        let server = try FakeProviderServer([
            "/v1/search": [.fixture("open-meteo-search-tallinn")], "/v2.0/current": [.status(500)],
        ])
        let harness = WeatherHarness(services: try services(server))
        harness.send(.changeLocation("Tallinn, Estonia"))
        await harness.effects.runAll()
        await server.stop()
        #expect(harness.snapshot.locationName == "Tallinn, Estonia")
        #expect(harness.snapshot.status == .failed)
        #expect(harness.snapshot.error == "Weatherbit answered with status 500.")
        #expect(harness.snapshot.summary == "" && harness.snapshot.icon == nil)
    }
}
