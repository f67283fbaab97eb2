import Testing
import ViewModelCore

/// Settings given in code read integers and numbers as the server does: text that does not read, or a value out of
/// range, names the key and says why; without a value, the key's default, else the range's lower bound.
struct FixedFeatureSettingsTests {
    let count = ConfigurationKey(path: "demo.count", kind: .integer, defaultJSON: "5", summary: "A count.")
    let ratio = ConfigurationKey(path: "demo.ratio", kind: .number, defaultJSON: "0.5", summary: "A ratio.")
    let unset = ConfigurationKey(path: "demo.unset", kind: .integer, defaultJSON: "null", summary: "No default.")

    @Test func integersAndNumbersAreReadWithinTheirRange() throws {
        let settings = FixedFeatureSettings(["demo.count": "7", "demo.ratio": "0.25"])
        #expect(try settings.integer(count, in: 1...10) == 7)
        #expect(try settings.number(ratio, in: 0...1) == 0.25)
    }

    @Test func withoutAValueTheDefaultElseTheLowerBound() throws {
        let settings = FixedFeatureSettings()
        #expect(try settings.integer(count, in: 1...10) == 5)
        #expect(try settings.number(ratio, in: 0...1) == 0.5)
        #expect(try settings.integer(unset, in: 3...10) == 3)
    }

    @Test func textThatDoesNotReadSaysWhatWasExpected() {
        let settings = FixedFeatureSettings(["demo.count": "many", "demo.ratio": "half"])
        #expect(throws: SettingError(key: "demo.count", reason: "expected an integer")) {
            try settings.integer(count, in: 1...10)
        }
        #expect(throws: SettingError(key: "demo.ratio", reason: "expected a number")) {
            try settings.number(ratio, in: 0...1)
        }
    }

    @Test func aValueOutOfRangeNamesTheRange() {
        let settings = FixedFeatureSettings(["demo.count": "11", "demo.ratio": "1.5"])
        #expect(throws: SettingError(key: "demo.count", reason: "11 is outside 1...10")) {
            try settings.integer(count, in: 1...10)
        }
        #expect(throws: SettingError(key: "demo.ratio", reason: "1.5 is outside 0.0...1.0")) {
            try settings.number(ratio, in: 0...1)
        }
    }
}
