import Foundation
import Testing
import TestSupport
import WeatherAPI
import ViewHostAPI
import WeatherFeature

/// Open-Meteo geocoding and forecast against a local fake server replaying their documented JSON.
struct OpenMeteoProviderTests {
    private func services(
        _ server: FakeProviderServer, clock: TestClock = TestClock(), timeout: Duration? = nil,
        timers: ManualTimers? = nil
    ) throws -> WeatherServices {
        let sleep: @Sendable (Duration) async -> Void = { duration in
            if let timers { await timers.sleep(duration) } else { try? await Task.sleep(for: duration) }
        }
        return try WeatherServices.make(
            provider: "open-meteo", environment: [:], timeout: timeout ?? TestDeadline.scaled(.seconds(5)),
            retryDelay: .zero, now: { clock.now }, sleep: sleep,
            openMeteoGeocodingURL: server.url("/v1/search"), openMeteoForecastURL: server.url("/v1/forecast"))
    }

    @Test func geocodingSendsTheNameAndNamesUSPlacesWithTheStateAbbreviation() async throws {
        let server = try FakeProviderServer(["/v1/search": [.fixture("open-meteo-search-richmond")]])
        let locations = try await services(server).geocoder.locations(matching: "Richmond, VA")
        await server.stop()
        #expect(
            locations == [
                Location(
                    name: "Richmond, VA", latitude: 37.55376, longitude: -77.46026,
                    timeZoneIdentifier: "America/New_York")
            ])
        let request = try #require(server.requests.first)
        #expect(request.hasPrefix("/v1/search?"))
        #expect(request.contains("name=Richmond&"))
        #expect(request.contains("count=20") && request.contains("language=en") && request.contains("format=json"))
    }

    @Test(arguments: [
        ("Richmond", "Richmond, VA"), ("Richmond, CA", "Richmond, CA"), ("Richmond, California", "Richmond, CA"),
        ("Richmond, Canada", "Richmond, Canada"), ("richmond, british columbia", "Richmond, Canada"),
        ("Richmond, IN, USA", "Richmond, IN"),
    ])
    func qualifiersPickAmongTheMatches(text: String, name: String) async throws {
        let server = try FakeProviderServer(["/v1/search": [.fixture("open-meteo-search-richmond")]])
        let locations = try await services(server).geocoder.locations(matching: text)
        await server.stop()
        #expect(locations.first?.name == name)
    }

    @Test func foreignPlacesAreNamedWithTheirCountry() async throws {
        let server = try FakeProviderServer(["/v1/search": [.fixture("open-meteo-search-tallinn")]])
        let locations = try await services(server).geocoder.locations(matching: "Tallinn, Estonia")
        await server.stop()
        #expect(locations.map(\.name) == ["Tallinn, Estonia"])
        #expect(locations.first?.timeZoneIdentifier == "Europe/Tallinn")
    }

    @Test func noResultsIsNotFoundNotAnError() async throws {
        let server = try FakeProviderServer(["/v1/search": [.fixture("open-meteo-search-empty")]])
        let locations = try await services(server).geocoder.locations(matching: "Xyzzy")
        let blank = try await services(server).geocoder.locations(matching: "  ")
        await server.stop()
        #expect(locations.isEmpty && blank.isEmpty)
        #expect(server.requests.count == 1)  // a blank text is not sent
    }

    @Test func forecastIsReadAsFahrenheitWithTheWMOCodeAsAnIcon() async throws {
        let server = try FakeProviderServer(["/v1/forecast": [.fixture("open-meteo-forecast")]])
        let richmond = Location(name: "Richmond, VA", latitude: 37.55376, longitude: -77.46026)
        let observation = try await services(server).weather.currentWeather(at: richmond)
        await server.stop()
        #expect(
            observation
                == WeatherObservation(
                    temperatureFahrenheit: 64.5, iconName: "c03d", description: "Partly cloudy",
                    observedAt: Date(timeIntervalSince1970: 1_774_556_100),  // 2026-03-26 16:15 at UTC−4
                    timeZoneIdentifier: "America/New_York"))
        let request = try #require(server.requests.first)
        for part in [
            "latitude=37.55376", "longitude=-77.46026", "current=temperature_2m,weather_code,is_day",
            "temperature_unit=fahrenheit", "timezone=auto",
        ] {
            #expect(request.contains(part), "\(request) lacks \(part)")
        }
    }

    @Test func serverErrorIsRetriedOnce() async throws {
        let server = try FakeProviderServer(["/v1/forecast": [.status(500), .fixture("open-meteo-forecast")]])
        let observation = try await services(server).weather.currentWeather(at: .mcGaheysville)
        await server.stop()
        #expect(observation.description == "Partly cloudy")
        #expect(server.requests.count == 2)
    }

    @Test func persistentServerErrorFailsAfterOneRetry() async throws {
        let server = try FakeProviderServer(["/v1/forecast": [.status(503)]])
        let services = try services(server)
        await #expect(throws: WeatherError.badStatus(service: "Open-Meteo", status: 503)) {
            try await services.weather.currentWeather(at: .mcGaheysville)
        }
        await server.stop()
        #expect(server.requests.count == 2)
    }

    @Test func clientErrorIsNotRetried() async throws {
        let server = try FakeProviderServer(["/v1/search": [.status(400)]])
        let services = try services(server)
        await #expect(throws: WeatherError.badStatus(service: "Open-Meteo geocoding", status: 400)) {
            try await services.geocoder.locations(matching: "Paris")
        }
        await server.stop()
        #expect(server.requests.count == 1)
    }

    @Test func badJSONIsAnInvalidResponse() async throws {
        let server = try FakeProviderServer([
            "/v1/forecast": [.body(#"{"current": {"time": "#)], "/v1/search": [.body(#"{"results": 7}"#)],
        ])
        let services = try services(server)
        await #expect(throws: WeatherError.invalidResponse(service: "Open-Meteo")) {
            try await services.weather.currentWeather(at: .mcGaheysville)
        }
        await #expect(throws: WeatherError.invalidResponse(service: "Open-Meteo geocoding")) {
            try await services.geocoder.locations(matching: "Paris")
        }
        await server.stop()
        #expect(server.requests.count == 2)
    }

    @Test func slowAnswerTimesOutAfterOneRetry() async throws {
        let gate = Gate()
        let server = try FakeProviderServer(["/v1/forecast": [.held(gate, then: .fixture("open-meteo-forecast"))]])
        // Each attempt's timeout fires when the test says, once the server has the attempt's request: no bound to
        // outrun (URLSession once took more than 10 s to reach the server under ThreadSanitizer). URLSession's own
        // backstop is a minute and more.
        let timers = ManualTimers()
        let services = try services(server, timeout: .seconds(60), timers: timers)
        let outcome = Task { () -> (any Error)? in
            do {
                _ = try await services.weather.currentWeather(at: .mcGaheysville)
                return nil
            } catch {
                return error
            }
        }
        for attempt in 1...2 {
            #expect(
                await eventually { server.requests.count == attempt && timers.pending == 1 },
                "attempt \(attempt): \(server.requests.count) requests, \(timers.pending) timers pending")
            timers.fireAll()
        }
        #expect(await outcome.value as? WeatherError == .timedOut(service: "Open-Meteo"))
        #expect(server.requests.count == 2)
        gate.open()
        await server.stop()
    }

    @Test func unreachableServiceFails() async throws {
        // Port 1: nothing listens there and it is never handed out as an ephemeral port. (A stopped fake server's
        // port was: under ThreadSanitizer another test's server took it and answered 404.)
        let nowhere = URL(string: "http://127.0.0.1:1")!
        let services = try WeatherServices.make(
            provider: "open-meteo", environment: [:], timeout: TestDeadline.scaled(.seconds(5)), retryDelay: .zero,
            openMeteoGeocodingURL: nowhere.appending(path: "v1/search"),
            openMeteoForecastURL: nowhere.appending(path: "v1/forecast"))
        await #expect(throws: WeatherError.unreachable(service: "Open-Meteo")) {
            try await services.weather.currentWeather(at: .mcGaheysville)
        }
    }

    @Test func answersAreCachedPerLocationForTenMinutes() async throws {
        let clock = TestClock()
        let server = try FakeProviderServer([
            "/v1/forecast": [.fixture("open-meteo-forecast")], "/v1/search": [.fixture("open-meteo-search-tallinn")],
        ])
        let services = try services(server, clock: clock)
        _ = try await services.weather.currentWeather(at: .mcGaheysville)
        clock.advance(seconds: 599)
        _ = try await services.weather.currentWeather(at: .mcGaheysville)
        _ = try await services.geocoder.locations(matching: "Tallinn, Estonia")
        _ = try await services.geocoder.locations(matching: " tallinn, estonia ")
        #expect(server.requests.count == 2)  // one forecast, one search
        _ = try await services.weather.currentWeather(at: .tallinn)  // another place: asked
        clock.advance(seconds: 1)
        _ = try await services.weather.currentWeather(at: .mcGaheysville)  // ten minutes on: asked again
        await server.stop()
        #expect(server.requests.filter { $0.hasPrefix("/v1/forecast") }.count == 3)
    }

    @Test func concurrentRequestsForOnePlaceShareOneCall() async throws {
        let gate = Gate()
        let server = try FakeProviderServer(["/v1/forecast": [.held(gate, then: .fixture("open-meteo-forecast"))]])
        // A long timeout: a held call that timed out on a loaded machine would be retried, and counted twice.
        let services = try services(server, timeout: .seconds(60))
        async let first = services.weather.currentWeather(at: .mcGaheysville)
        async let second = services.weather.currentWeather(at: .mcGaheysville)
        let deadline = TestDeadline.after(.seconds(60))
        while server.requests.isEmpty, ContinuousClock.now < deadline { await Task.yield() }
        gate.open()
        let answers = try await [first, second]
        await server.stop()
        #expect(answers[0] == answers[1])
        #expect(server.requests.count == 1)
    }

    @Test func failuresAreNotCached() async throws {
        let server = try FakeProviderServer([
            "/v1/forecast": [.status(500), .status(500), .fixture("open-meteo-forecast")]
        ])
        let services = try services(server)
        await #expect(throws: WeatherError.self) { try await services.weather.currentWeather(at: .mcGaheysville) }
        let observation = try await services.weather.currentWeather(at: .mcGaheysville)
        await server.stop()
        #expect(observation.iconName == "c03d")
    }
}
