@testable import ViewHost
import Foundation
import LoginAPI
import LoginFeature
import Testing
import TestSupport
import ViewModelCore

/// New sessions share their features' initial states (made once per feature list and settings): the cache makes
/// each once, stays bounded, and a session that changes its state changes no other.
struct InitialFeatureCacheTests {
    let features: HostedFeatures

    init() throws {
        features = try HostedFeatures(TestApp.seedFeatures, settings: FixedFeatureSettings())
    }

    @Test func eachListAndSettingsIsMadeOnceAndTheCacheStaysBounded() {
        let cache = InitialFeatureCache(limit: 3)
        var made = 0
        func features(_ zone: String, _ definitions: [FeatureDefinition]) -> InitialFeatures {
            let settings = SessionSettings(timeZone: TimeZone(identifier: zone)!)
            return cache.features(of: definitions, settings: settings) {
                made += 1
                return InitialFeatures(definitions.map { $0.initialFeature(settings) })
            }
        }
        let all = self.features.definitions
        let login = all.filter { $0.name == "login" }
        #expect(features("UTC", all).names == all.map(\.name))
        #expect(features("UTC", all).names == all.map(\.name))
        #expect(made == 1)
        #expect(features("UTC", login).names == ["login"])
        #expect(features("Europe/Berlin", login).names == ["login"])
        #expect(made == 3)
        // Past its limit the cache starts again: still the right features, made once more each.
        #expect(features("Asia/Tokyo", all).names == all.map(\.name))
        #expect(features("UTC", all).names == all.map(\.name))
        #expect(made == 5)
        #expect(features("Asia/Tokyo", all).names == all.map(\.name))
        #expect(made == 5)
    }

    @Test func sessionsMadeFromSharedStatesChangeOnlyTheirOwn() throws {
        let registry = SessionRegistry(
            settings: SessionRegistry.Settings(seed: 7), scheduler: ManualScheduler(), features: features)
        let first = try registry.create(features: ["login"], timeZone: .gmt, locale: "en_US").session
        let second = try registry.create(features: ["login"], timeZone: .gmt, locale: "en_US").session
        try first.send([LoginApp.event(for: .setUsername(value: "ada"))], to: LoginApp.key)
        let changed = try #require(first.core.state(of: LoginApp.key))
        let untouched = try #require(second.core.state(of: LoginApp.key))
        #expect(changed != untouched && untouched == LoginApp.initialState)
        #expect(first.core.version(of: "login") == 2 && second.core.version(of: "login") == 1)
        let third = try registry.create(features: ["login"], timeZone: .gmt, locale: "en_US").session
        #expect(third.core.state(of: LoginApp.key) == LoginApp.initialState)
    }
}
