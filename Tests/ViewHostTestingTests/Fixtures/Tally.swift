import ViewHostAPI
import ViewModelCore

/// A feature no login export holds.
enum Tally: Feature {
    struct Snapshot: FeatureSnapshot {
        static let feature = "tally"
        let count: Int
    }

    static func check(_ event: Int, in state: Int) throws(EventRefusal) {}

    static func apply(_ event: Int, to state: inout Int, context: inout FeatureContext<Tally>) { state += event }

    static func snapshot(of state: Int, settings: SessionSettings) -> Snapshot { Snapshot(count: state) }

    static func describe(_ event: Int) -> EventDescription { EventDescription(name: "add") }
}
