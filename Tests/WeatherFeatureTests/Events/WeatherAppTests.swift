import Foundation
import TestSupport
import Testing
import WeatherAPI
import ViewHostAPI
import ViewModelCore
import WeatherFeature

/// Presentation tests: route events through a session and expect the exact snapshots, in order.
struct WeatherAppTests {
    private static let mcGaheysvilleWeather = WeatherViewModelBuilder.build(
        location: .mcGaheysville, observation: .brokenClouds)

    @Test func startShowsLoadingThenTheDefaultPlaceThenItsWeather() async {
        let harness = WeatherHarness()
        #expect(harness.snapshot == WeatherSnapshot(WeatherViewModelBuilder.buildInitial(), provider: "fixed"))
        harness.send(.start)
        // "Loading..." again over the initial "Loading...": nothing changed, so no version (the original's Box
        // would have re-notified an equal value).
        #expect(harness.recorder.snapshots.isEmpty)
        #expect(harness.effects.pendingCount == 1)

        await harness.effects.runNext()
        var located = WeatherViewModelBuilder.buildInitial()
        located.locationName = "McGaheysville, VA"
        #expect(harness.recorder.versions == [2])
        #expect(harness.recorder.drain() == [WeatherSnapshot(located, provider: "fixed")])

        await harness.effects.runNext()
        #expect(harness.recorder.versions == [3])
        #expect(harness.recorder.drain() == [WeatherSnapshot(Self.mcGaheysvilleWeather, provider: "fixed")])
        #expect(harness.effects.pendingCount == 0)
    }

    @Test func startIsLoggedAsTheOriginalsChangeLocationAndItsProviderAnswers() async {
        let harness = WeatherHarness()
        harness.send(.start)
        await harness.effects.runAll()
        let log = harness.log
        #expect(log.map(\.event) == ["start", "changeLocation", "geocoded", "weatherLoaded"])
        #expect(log.map(\.source) == [.client, .client, .provider, .provider])
        #expect(log[1].summary == #"location="McGaheysville, VA""#)
        #expect(log[1].causedBy == log[0].seq)
        #expect(log[2].causedBy == log[1].seq)
        #expect(log[3].causedBy == log[2].seq)
        #expect(log[2].summary == #"request=1 count=1 first="McGaheysville, VA""#)
    }

    @Test func changeLocationShowsLoadingOverThePreviousWeather() async {
        let harness = WeatherHarness()
        harness.send(.start)
        await harness.effects.runAll()
        _ = harness.recorder.drain()

        harness.send(.changeLocation("Tallinn, Estonia"))
        #expect(
            harness.recorder.drain() == [
                WeatherSnapshot(
                    WeatherViewModelBuilder.buildLoading(keeping: Self.mcGaheysvilleWeather), provider: "fixed")
            ])
        await harness.effects.runAll()
        let snapshots = harness.recorder.drain()
        #expect(snapshots.map(\.locationName) == ["Tallinn, Estonia", "Tallinn, Estonia"])
        #expect(snapshots[0].summary == "Broken clouds - 24℉")  // still the old weather while loading
        #expect(snapshots[1].summary == "Light snow - 28℉")
        #expect(snapshots[1].icon == "s01n")
        #expect(snapshots[1].status == .ready)
    }

    @Test func unknownPlaceShowsNotFoundWithTheOtherFieldsEmptied() async {
        let harness = WeatherHarness()
        harness.send(.start)
        await harness.effects.runAll()
        harness.send(.changeLocation(""))
        await harness.effects.runAll()
        #expect(harness.snapshot == WeatherSnapshot(WeatherViewModelBuilder.buildNotFound(), provider: "fixed"))
        #expect(harness.effects.pendingCount == 0)  // no weather fetch for nothing
    }

    @Test func staleGeocodeAnswerNeverOverwritesTheNewerRequest() async {
        // quirk fixed: the original let a slow earlier reply overwrite a later location.
        let harness = WeatherHarness()
        harness.send(.changeLocation("McGaheysville, VA"), .changeLocation("Tallinn, Estonia"))
        #expect(harness.effects.pendingCount == 2)
        await harness.effects.runLast()  // Tallinn's lookup answers first
        await harness.effects.runLast()  // then Tallinn's weather
        #expect(harness.snapshot.locationName == "Tallinn, Estonia")
        #expect(harness.snapshot.status == .ready)
        let versionBefore = harness.version

        await harness.effects.runAll()  // McGaheysville's late lookup: ignored, and no weather fetch follows
        #expect(harness.snapshot.locationName == "Tallinn, Estonia")
        #expect(harness.snapshot.summary == "Light snow - 28℉")
        #expect(harness.version == versionBefore)
        #expect(harness.log.map(\.event).suffix(1) == ["geocoded"])
    }

    @Test func staleWeatherAnswerNeverOverwritesTheNewerRequest() async {
        let harness = WeatherHarness()
        harness.send(.changeLocation("McGaheysville, VA"))
        await harness.effects.runNext()  // McGaheysville geocoded; its weather fetch waits
        harness.send(.changeLocation("Tallinn, Estonia"))
        await harness.effects.runLast()  // Tallinn geocoded
        await harness.effects.runLast()  // Tallinn's weather
        await harness.effects.runAll()  // McGaheysville's weather arrives late
        #expect(harness.snapshot.locationName == "Tallinn, Estonia")
        #expect(harness.snapshot.icon == "s01n")
        #expect(harness.log.map(\.event).last == "weatherLoaded")
    }

    @Test func failedWeatherFetchShowsFailedWithTheReasonInsteadOfTheOldWeather() async {
        // quirk fixed: the original ignored the failure and kept the previous place's weather.
        var weather = FixedWeatherProvider()
        weather.observations["Tallinn, Estonia"] = nil
        weather.failure = .timedOut(service: "Weatherbit")
        let harness = WeatherHarness(services: .fixed(weather: weather))
        harness.send(.start)
        await harness.effects.runAll()
        harness.send(.changeLocation("Tallinn, Estonia"))
        await harness.effects.runAll()
        #expect(
            harness.snapshot
                == WeatherSnapshot(
                    WeatherViewModel(
                        locationName: "Tallinn, Estonia", date: "", icon: nil, summary: "", forecastSummary: "",
                        status: .failed, error: "Weatherbit did not answer in time."),
                    provider: "fixed"))
        #expect(harness.log.last?.event == "weatherFailed")
    }

    @Test func failedLookupShowsFailedWithWhatWasTypedNotNotFound() async {
        let geocoder = FixedGeocoder(failing: ["Paris": .unreachable(service: "Open-Meteo geocoding")])
        let harness = WeatherHarness(services: .fixed(geocoder: geocoder))
        harness.send(.changeLocation("Paris"))
        await harness.effects.runAll()
        #expect(harness.snapshot.locationName == "Paris")
        #expect(harness.snapshot.status == .failed)
        #expect(harness.snapshot.error == "Open-Meteo geocoding could not be reached.")
        #expect(harness.log.last?.event == "geocodingFailed")
    }

    @Test func nextRequestAfterAFailureClearsTheError() async {
        let geocoder = FixedGeocoder(failing: ["Paris": .unreachable(service: "Open-Meteo geocoding")])
        let harness = WeatherHarness(services: .fixed(geocoder: geocoder))
        harness.send(.changeLocation("Paris"))
        await harness.effects.runAll()
        harness.send(.changeLocation("Tallinn, Estonia"))
        #expect(harness.snapshot.status == .loading)
        #expect(harness.snapshot.error == nil)
    }

    @Test func describeNamesEventsAsTheSeedDoes() {
        #expect(
            WeatherApp.describe(.changeLocation("Paris"))
                == EventDescription(
                    name: "changeLocation", summary: #"location="Paris""#))
        #expect(WeatherApp.describe(.start).name == "start")
        #expect(
            WeatherApp.describe(.weather(.weatherLoaded(request: 2, observation: .brokenClouds))).name
                == "weatherLoaded")
        #expect(
            WeatherApp.describe(.weather(.weatherFailed(request: 2, error: .unreachable(service: "X")))).name
                == "weatherFailed")
        #expect(
            WeatherApp.describe(.weather(.geocoded(request: 1, locations: [])))
                == EventDescription(
                    name: "geocoded", summary: "request=1 count=0"))
    }

    @Test func offlineSessionResolvesTheDefaultPlaceAndShowsOfflineWeather() async {
        let at = Date(timeIntervalSince1970: 1_795_442_400)  // 2026-11-23 14:00 UTC, 09:00 in Virginia
        let harness = WeatherHarness(services: .offline(now: { at }))
        harness.send(.start)
        await harness.effects.runAll()
        let snapshot = harness.snapshot
        #expect(snapshot.locationName == "McGaheysville, VA")
        #expect(snapshot.status == .ready)
        #expect(snapshot.provider == "offline")
        #expect(snapshot.date == "Monday, Nov 23")
        #expect(snapshot.observedAt == "2026-11-23T14:00:00Z")
        #expect(snapshot.icon?.hasSuffix("d") == true)
        #expect(snapshot.summary.hasSuffix("℉"))
    }
}
