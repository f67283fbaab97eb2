import Foundation
import Testing
import WeatherAPI
import ViewHostAPI
import WeatherFeature

/// One test per rule of the original view model (seed 004, `WeatherViewModel.swift`).
struct WeatherViewModelBuilderTests {
    @Test func initialViewModelIsTheTutorialsBoxesNotTheForks() {
        let initial = WeatherViewModelBuilder.buildInitial()
        #expect(initial.locationName == "Loading...")
        #expect(initial.date == " ")
        #expect(initial.icon == nil)
        #expect(initial.summary == " ")
        #expect(initial.forecastSummary == " ")
        #expect(initial.status == .loading)
    }

    @Test(arguments: [
        (24.19, "24"), (24.5, "24"), (25.5, "26"), (23.5, "24"), (-2.5, "-2"), (-3.5, "-4"), (99.5, "100"),
        (1234.6, "1235"), (0.5, "0"), (1.5, "2"),
    ])
    func temperatureIsRoundedHalfToEvenLikeNumberFormatterStyleNone(value: Double, text: String) {
        #expect(WeatherViewModelBuilder.temperatureText(value) == text)
    }

    @Test func smallNegativeTemperatureIsZeroWithoutSign() {
        // quirk fixed: NumberFormatter writes "-0" for -0.4.
        #expect(WeatherViewModelBuilder.temperatureText(-0.4) == "0")
    }

    @Test func summaryIsDescriptionDashTemperatureWithTheTutorialsFahrenheitSign() {
        #expect(
            WeatherViewModelBuilder.summary(description: "Broken clouds", temperature: 24.19) == "Broken clouds - 24℉")
    }

    @Test func forecastSummaryStartsWithANewline() {
        #expect(WeatherViewModelBuilder.forecastSummary(description: "Broken clouds") == "\nSummary: Broken clouds")
    }

    @Test func dateIsWeekdayShortMonthAndDayInTheGivenZone() {
        let date = Date(timeIntervalSince1970: 1_503_939_600)  // 2017-08-28 17:00 UTC
        #expect(WeatherViewModelBuilder.dateText(date, timeZone: .gmt) == "Monday, Aug 28")
        let lateEvening = Date(timeIntervalSince1970: 1_503_968_400)  // 2017-08-29 01:00 UTC
        #expect(WeatherViewModelBuilder.dateText(lateEvening, timeZone: .gmt) == "Tuesday, Aug 29")
        #expect(
            WeatherViewModelBuilder.dateText(lateEvening, timeZone: TimeZone(identifier: "America/New_York")!)
                == "Monday, Aug 28")
    }

    @Test func weatherShowsDateIconSummariesAndReadyStatus() {
        let viewModel = WeatherViewModelBuilder.build(location: .mcGaheysville, observation: .brokenClouds)
        #expect(
            viewModel
                == WeatherViewModel(
                    locationName: "McGaheysville, VA", date: "Monday, Aug 28", icon: "c03d",
                    summary: "Broken clouds - 24℉",
                    forecastSummary: "\nSummary: Broken clouds", status: .ready, observedAt: "2017-08-28T17:00:00Z"))
    }

    @Test func dateUsesTheObservationsZoneThenTheLocationsThenUTC() {
        let at = Date(timeIntervalSince1970: 1_503_968_400)  // Tuesday 01:00 UTC, Monday evening in New York
        let inNewYork = Location.make(timeZoneIdentifier: "America/New_York")
        let nowhere = Location.make(timeZoneIdentifier: nil)
        #expect(
            WeatherViewModelBuilder.build(location: inNewYork, observation: .make(observedAt: at)).date
                == "Monday, Aug 28")
        #expect(
            WeatherViewModelBuilder.build(location: nowhere, observation: .make(observedAt: at)).date
                == "Tuesday, Aug 29")
        let tokyo = WeatherObservation.make(observedAt: at, timeZoneIdentifier: "Asia/Tokyo")
        #expect(WeatherViewModelBuilder.build(location: inNewYork, observation: tokyo).date == "Tuesday, Aug 29")
    }

    @Test func iconKeepsTheProvidersDayOrNightSuffix() {
        #expect(WeatherViewModelBuilder.build(location: .tallinn, observation: .snowyTallinn).icon == "s01n")
        #expect(WeatherViewModelBuilder.build(location: .make(), observation: .make(iconName: "c01d")).icon == "c01d")
    }

    @Test func notFoundEmptiesEveryOtherField() {
        #expect(
            WeatherViewModelBuilder.buildNotFound()
                == WeatherViewModel(
                    locationName: "Not found", date: "", icon: nil, summary: "", forecastSummary: "", status: .notFound)
        )
    }

    @Test func loadingKeepsTheOtherFieldsOfThePreviousPlace() {
        let shown = WeatherViewModelBuilder.build(location: .mcGaheysville, observation: .brokenClouds)
        let loading = WeatherViewModelBuilder.buildLoading(keeping: shown)
        var expected = shown
        expected.locationName = "Loading..."
        expected.status = .loading
        #expect(loading == expected)
    }

    @Test func locatedShowsTheNewNameAndKeepsTheRest() {
        let loading = WeatherViewModelBuilder.buildLoading(keeping: WeatherViewModelBuilder.buildInitial())
        let located = WeatherViewModelBuilder.buildLocated(.tallinn, keeping: loading)
        #expect(located.locationName == "Tallinn, Estonia")
        #expect(located.date == " " && located.summary == " " && located.status == .loading)
    }

    @Test func failureShowsTheReasonAndNoWeather() {
        let failed = WeatherViewModelBuilder.buildFailed(
            locationName: "Tallinn, Estonia", error: .badStatus(service: "Weatherbit", status: 500))
        #expect(
            failed
                == WeatherViewModel(
                    locationName: "Tallinn, Estonia", date: "", icon: nil, summary: "", forecastSummary: "",
                    status: .failed,
                    error: "Weatherbit answered with status 500."))
    }
}
