import Foundation
import ViewHostAPI
import ViewModelCore

/// A tiny feature for the store's tests: it counts, and schedules an increment later.
enum Tally: Feature {
    struct State: Codable, Equatable, Sendable {
        var count = 0
    }

    enum Event: Codable, Equatable, Sendable {
        case add(Int)
        case addLater(Int, Duration)
    }

    struct Snapshot: FeatureSnapshot {
        static let feature = "tally"
        var count: Int
    }

    static let key = FeatureKey<Tally>("tally")
    static let types = FeatureTypes([Tally.self])

    static func check(_ event: Event, in state: State) throws(EventRefusal) {}

    static func apply(_ event: Event, to state: inout State, context: inout FeatureContext<Tally>) {
        switch event {
        case .add(let amount):
            state.count += amount
            context.markChanged()
        case .addLater(let amount, let delay):
            context.schedule(.add(amount), after: delay)
        }
    }

    static func snapshot(of state: State, settings: SessionSettings) -> Snapshot { Snapshot(count: state.count) }

    static func describe(_ event: Event) -> EventDescription { EventDescription(name: "\(event)") }
}
