import Testing
import WeatherAPI
import ViewHostAPI
import WeatherFeature

/// The seed's proposed WMO → Weatherbit icon table (seed 004 §2(b)).
struct WMOWeatherCodeTests {
    @Test(arguments: [
        (0, "c01"), (1, "c02"), (2, "c03"), (3, "c04"), (45, "a05"), (48, "a06"), (51, "d01"), (53, "d02"),
        (55, "d03"), (56, "f01"), (57, "f01"), (61, "r01"), (63, "r02"), (65, "r03"), (66, "f01"), (67, "f01"),
        (71, "s01"), (73, "s02"), (75, "s03"), (77, "s06"), (80, "r04"), (81, "r05"), (82, "r06"), (85, "s01"),
        (86, "s02"), (95, "t01"), (96, "t05"), (99, "t05"), (42, "u00"),
    ])
    func codeMapsToTheProposedIcon(code: Int, stem: String) {
        #expect(WMOWeatherCode.iconName(code, isDay: true) == stem + "d")
        #expect(WMOWeatherCode.iconName(code, isDay: false) == stem + "n")
    }

    @Test(arguments: [
        (0, "Clear sky"), (2, "Partly cloudy"), (45, "Fog"), (65, "Heavy rain"), (99, "Thunderstorm with heavy hail"),
    ])
    func descriptionIsTheWMOText(code: Int, text: String) {
        #expect(WMOWeatherCode.condition(code).description == text)
    }
}
