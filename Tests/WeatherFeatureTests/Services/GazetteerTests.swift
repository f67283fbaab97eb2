import TestSupport
import Testing
import WeatherAPI
import ViewHostAPI
import WeatherFeature

struct GazetteerTests {
    let gazetteer = Gazetteer.shared

    private func first(_ text: String) -> GazetteerPlace? {
        gazetteer.places(matching: text).first
    }

    @Test(arguments: [
        ("McGaheysville, VA", "McGaheysville, VA", 38.3715, -78.7447),
        ("Richmond, VA", "Richmond, VA", 37.5538, -77.4603),
        ("Paris", "Paris, France", 48.8534, 2.3488),
        ("Tallinn, Estonia", "Tallinn, Estonia", 59.4370, 24.7535),
    ])
    func requiredPlacesResolveNearTheirCoordinates(text: String, name: String, latitude: Double, longitude: Double)
        throws
    {
        let place = try #require(first(text))
        #expect(place.displayName == name)
        #expect(abs(place.latitude - latitude) < 0.05)
        #expect(abs(place.longitude - longitude) < 0.05)
    }

    @Test func lookupIgnoresCaseAndAccents() {
        #expect(first("tallinn, ESTONIA")?.displayName == "Tallinn, Estonia")
        #expect(first("São Paulo")?.displayName == "São Paulo, Brazil")
        #expect(first("Sao Paulo")?.displayName == "São Paulo, Brazil")
        #expect(first("SAO PAULO")?.displayName == "São Paulo, Brazil")
        #expect(first("Sa\u{0303}o Paulo")?.displayName == "São Paulo, Brazil")  // decomposed accent
        #expect(first("  richmond ,  va ")?.displayName == "Richmond, VA")
    }

    @Test func stateCodesAndStateNamesNarrowUSPlaces() {
        #expect(first("Richmond, Virginia")?.displayName == "Richmond, VA")
        #expect(first("Paris, TX")?.displayName == "Paris, TX")
        #expect(first("Springfield, IL")?.displayName == "Springfield, IL")
        #expect(first("Springfield, IL, USA")?.displayName == "Springfield, IL")
        // A two-letter qualifier is a US state before it is a country: CA is California, then Canada.
        #expect(first("Richmond, CA")?.displayName == "Richmond, CA")
    }

    @Test func countryNamesCodesAndAliasesNarrowPlaces() {
        #expect(first("Paris, France")?.countryCode == "FR")
        #expect(first("Paris, United States")?.countryCode == "US")
        #expect(first("Paris, USA")?.countryCode == "US")
        #expect(first("Tallinn, EE")?.displayName == "Tallinn, Estonia")
        #expect(first("London, UK")?.countryCode == "GB")
        #expect(first("Richmond, Canada")?.displayName == "Richmond, Canada")
    }

    @Test func theMostPopulousMatchWins() {
        #expect(first("Springfield")?.displayName == "Springfield, MO")
        #expect(first("Paris")?.countryCode == "FR")
        #expect(first("Richmond")?.displayName == "Richmond, VA")
        let springfields = gazetteer.places(matching: "Springfield", limit: 50)
        #expect(springfields.count > 10)
        #expect(springfields.map(\.population) == springfields.map(\.population).sorted(by: >))
    }

    @Test func unknownPlacesAndContradictionsFindNothing() {
        #expect(gazetteer.places(matching: "Xyzzyville").isEmpty)
        #expect(gazetteer.places(matching: "").isEmpty)
        #expect(gazetteer.places(matching: " , VA").isEmpty)
        #expect(gazetteer.places(matching: "Tallinn, Brazil").isEmpty)
    }

    @Test func anUnknownQualifierIsIgnored() {
        #expect(first("Paris, Île-de-France")?.countryCode == "FR")
    }

    @Test func withoutACommaTheLastWordsMayBeAKnownQualifier() {
        #expect(first("Richmond VA")?.displayName == "Richmond, VA")
        #expect(first("Tallinn Estonia")?.displayName == "Tallinn, Estonia")
        #expect(first("Paris United States")?.countryCode == "US")
        #expect(gazetteer.places(matching: "Springfield Narnia").isEmpty)
    }

    @Test func commonSpellingsFindThePlace() {
        #expect(first("St. Louis, MO")?.displayName == "St. Louis, MO")
        #expect(first("Saint Louis, MO")?.displayName == "St. Louis, MO")
        #expect(first("Ft Worth")?.displayName == "Fort Worth, TX")
        #expect(first("New York")?.displayName == "New York City, NY")
        #expect(first("Mc Gaheysville, VA")?.displayName == "McGaheysville, VA")  // Apple's spelling in the seed test
        #expect(first("Cologne")?.displayName == "Köln, Germany")
        #expect(first("Koeln")?.displayName == "Köln, Germany")
        #expect(first("Kiev")?.displayName == "Kyiv, Ukraine")
    }

    @Test func placesCarryTheirTimeZone() {
        #expect(first("Tallinn")?.timeZoneIdentifier == "Europe/Tallinn")
        #expect(first("McGaheysville, VA")?.timeZoneIdentifier == "America/New_York")
        #expect(first("Paris")?.location.timeZoneIdentifier == "Europe/Paris")
    }

    /// Half a second of CPU in a debug build: on a thread of its own, off the cooperative pool that parallel
    /// tests' in-process servers need.
    @Test func everyStoredPlaceIsFoundUnderItsOwnNamesKey() async throws {
        // The Swift folding must agree with the generator's for every name, or a place could never be found.
        let gazetteer = gazetteer
        let mismatches = try await OffThread.run(stackSize: nil) { () -> [String] in
            var mismatches: [String] = []
            for key in gazetteer.keys() {
                let range = gazetteer.placeIndices(forKey: key)!
                for index in range {
                    let place = gazetteer.place(at: index)
                    let own = gazetteer.searchKey(place.name)
                    if own == key { continue }
                    // An alias key (New York → New York City): the place must also sit under its own name's key.
                    let found =
                        gazetteer.placeIndices(forKey: own).map { ownRange in
                            ownRange.contains { gazetteer.place(at: $0) == place }
                        } ?? false
                    if !found { mismatches.append(place.name) }
                }
            }
            return mismatches
        }
        #expect(mismatches.isEmpty, "names that do not fold to their key: \(mismatches.prefix(20))")
        #expect(gazetteer.placeCount > 50_000)
    }

    @Test func foldingDropsCaseAccentsAndPunctuation() {
        #expect(String(decoding: gazetteer.searchKey("  São-Tomé,  d'Ávila "), as: UTF8.self) == "sao tome davila")
        #expect(String(decoding: gazetteer.searchKey("Łódź"), as: UTF8.self) == "lodz")
        #expect(String(decoding: gazetteer.searchKey("Straße"), as: UTF8.self) == "strasse")
        #expect(String(decoding: gazetteer.searchKey("Mount St. Helens"), as: UTF8.self) == "mt st helens")
    }

    @Test func aBlobThatIsNotAGazetteerIsRefused() {
        #expect(throws: Gazetteer.FormatError.truncated) { try Gazetteer(copying: [1, 2, 3]) }
        #expect(throws: Gazetteer.FormatError.unsupported) {
            try Gazetteer(copying: Array("XXXX".utf8) + [UInt8](repeating: 0, count: 100))
        }
    }
}
