import Foundation
import Testing
import WeatherAPI
import ViewHostAPI
import WeatherFeature

struct OfflineWeatherTests {
    /// 2026-01-15 12:00 UTC and 2026-07-15 12:00 UTC.
    static let january = Date(timeIntervalSince1970: 1_768_478_400)
    static let july = Date(timeIntervalSince1970: 1_784_116_800)

    private func place(_ text: String) -> Location {
        Gazetteer.shared.places(matching: text)[0].location
    }

    @Test func samePlaceAndHourGiveTheSameWeather() {
        let location = place("Richmond, VA")
        let first = OfflineClimate.observation(at: location, date: Self.january)
        let laterInTheHour = OfflineClimate.observation(at: location, date: Self.january.addingTimeInterval(3599))
        #expect(first == laterInTheHour)
        #expect(first.observedAt == Self.january)
    }

    @Test func weatherChangesWithThePlaceAndTheHour() {
        let richmond = place("Richmond, VA")
        let hours = (0..<48).map { OfflineClimate.observation(at: richmond, date: Self.january + Double($0) * 3600) }
        #expect(Set(hours.map(\.description)).count > 2)
        #expect(Set(hours.map(\.temperatureFahrenheit)).count > 10)
        let elsewhere = OfflineClimate.observation(at: place("Paris"), date: Self.january)
        #expect(elsewhere != hours[0])
    }

    @Test func temperaturesArePlausibleEverywhereAllYear() {
        let places = [
            "McGaheysville, VA", "Richmond, VA", "Paris", "Tallinn, Estonia", "Singapore", "Anchorage, AK",
            "Sydney, Australia", "Cairo",
        ].map(place)
        for location in places {
            for day in stride(from: 0, to: 365, by: 7) {
                for hour in [0, 6, 12, 18] {
                    let date = Self.january + Double(day * 86_400 + hour * 3600)
                    let observation = OfflineClimate.observation(at: location, date: date)
                    #expect((-60...125).contains(observation.temperatureFahrenheit), "\(location.name) \(date)")
                }
            }
        }
    }

    @Test func seasonsAndLatitudeShapeTheTemperature() {
        let tallinn = place("Tallinn, Estonia")
        let sydney = place("Sydney, Australia")
        let singapore = place("Singapore")
        func mean(_ location: Location, _ date: Date) -> Double {
            OfflineClimate.temperatureCelsius(latitude: location.latitude, longitude: location.longitude, date: date)
        }
        #expect(mean(tallinn, Self.january) < mean(tallinn, Self.july) - 15)
        #expect(mean(sydney, Self.january) > mean(sydney, Self.july))  // southern summer in January
        #expect(abs(mean(singapore, Self.january) - mean(singapore, Self.july)) < 2)
        #expect(mean(singapore, Self.january) > mean(tallinn, Self.july))
        #expect(mean(tallinn, Self.january) < 0)
    }

    @Test func iconSuffixFollowsTheSunAtThePlace() {
        let richmond = place("Richmond, VA")  // UTC−5 in January
        let noon = OfflineClimate.observation(at: richmond, date: Self.january.addingTimeInterval(5 * 3600))
        let midnight = OfflineClimate.observation(at: richmond, date: Self.january.addingTimeInterval(-7 * 3600))
        #expect(noon.iconName.hasSuffix("d"))
        #expect(midnight.iconName.hasSuffix("n"))
        let tallinn = place("Tallinn, Estonia")  // northern winter: dark at 20:00 local (18:00 UTC)
        #expect(
            OfflineClimate.observation(at: tallinn, date: Self.january.addingTimeInterval(6 * 3600)).iconName
                .hasSuffix("n"))
    }

    @Test(arguments: stride(from: 0.0, to: 1.0, by: 0.01).map { $0 })
    func conditionsUseWeatherbitIconsAndPrecipitationFreezesBelow32(draw: Double) {
        let warm = OfflineClimate.condition(draw: draw, fahrenheit: 70)
        let cold = OfflineClimate.condition(draw: draw, fahrenheit: 20)
        for condition in [warm, cold] {
            #expect(condition.icon.range(of: #"^[acdfrstu]0[0-6]$"#, options: .regularExpression) != nil)
        }
        #expect(!["r", "d", "t"].contains(cold.icon.prefix(1)))
    }

    @Test func offlineProviderIsLabelledOfflineAndUsesItsClock() async throws {
        let at = Self.july.addingTimeInterval(1234)
        let services = WeatherServices.offline(now: { at })
        #expect(services.providerName == "offline")
        let location = try #require(try await services.geocoder.locations(matching: "Paris").first)
        let observation = try await services.weather.currentWeather(at: location)
        #expect(observation == OfflineClimate.observation(at: location, date: Self.july))
    }
}
