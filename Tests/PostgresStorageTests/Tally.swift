import ViewHostAPI
import ViewModelCore

/// A one-number feature for the store's tests: `add(n)` adds n.
enum Tally: Feature {
    struct State: Codable, Equatable, Sendable {
        var total = 0
    }

    enum Event: Codable, Equatable, Sendable {
        case add(Int)
    }

    struct Snapshot: FeatureSnapshot {
        static let feature = "tally"
        var total: Int
    }

    static let key = FeatureKey<Tally>("tally")

    static func check(_ event: Event, in state: State) throws(EventRefusal) {}

    static func apply(_ event: Event, to state: inout State, context: inout FeatureContext<Tally>) {
        switch event {
        case .add(let amount):
            state.total += amount
            context.markChanged()
        }
    }

    static func snapshot(of state: State, settings: SessionSettings) -> Snapshot {
        Snapshot(total: state.total)
    }

    static func describe(_ event: Event) -> EventDescription {
        EventDescription(name: "add")
    }
}
