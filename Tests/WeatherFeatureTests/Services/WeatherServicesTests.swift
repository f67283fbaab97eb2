import Testing
import WeatherAPI
import ViewHostAPI
import WeatherFeature

struct WeatherServicesTests {
    @Test(arguments: ["offline", "open-meteo"])
    func keylessProvidersNeedNoEnvironment(name: String) throws {
        #expect(try WeatherServices.make(provider: name, environment: [:]).providerName == name)
    }

    @Test func weatherbitNeedsItsKeyVariable() {
        #expect(throws: WeatherConfigurationError.missingAPIKey(variable: "VIEWHOST_WEATHERBIT_KEY")) {
            try WeatherServices.make(provider: "weatherbit", environment: [:])
        }
        #expect(throws: WeatherConfigurationError.missingAPIKey(variable: "VIEWHOST_WEATHERBIT_KEY")) {
            try WeatherServices.make(provider: "weatherbit", environment: ["VIEWHOST_WEATHERBIT_KEY": ""])
        }
        #expect(
            WeatherConfigurationError.missingAPIKey(variable: "VIEWHOST_WEATHERBIT_KEY").description
                == "The weatherbit provider needs an API key in the environment variable VIEWHOST_WEATHERBIT_KEY.")
    }

    @Test func unknownProviderIsRefusedWithTheChoices() {
        #expect(throws: WeatherConfigurationError.unknownProvider("yahoo")) {
            try WeatherServices.make(provider: "yahoo", environment: [:])
        }
        #expect(
            WeatherConfigurationError.unknownProvider("yahoo").description
                == #"The weather provider "yahoo" is unknown; set weather-provider to offline, open-meteo or weatherbit."#
        )
    }

    @Test func offlineIsOneSharedValue() {
        #expect(WeatherServices.offline.providerName == "offline")
        #expect(WeatherServices.providerNames == ["offline", "open-meteo", "weatherbit"])
    }
}
