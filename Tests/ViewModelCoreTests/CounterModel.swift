import Foundation
import ViewModelCore

/// A tiny feature for testing the session machinery: it counts, echoes later, and chains follow-ups.
/// `@unchecked Sendable` so tests can keep a reference to inspect it; it is only touched under its session's lock.
final class CounterModel: FeatureModel, @unchecked Sendable {
    enum Event: Sendable {
        case increment
        case nothing
        case incrementLater(Duration)
        case incrementTwiceNow
        case scheduleAndCancel
        case pickRandom
        case fetch(Int)
        case fetched(Int)
    }

    struct Snapshot: ViewModel {
        var count: Int
        var picks: [Int]
    }

    static let key = FeatureKey<CounterModel>("counter")
    private(set) var count = 0
    private(set) var picks: [Int] = []
    private(set) var builds = 0

    func apply(_ event: Event, context: inout FeatureContext<Event>) {
        switch event {
        case .increment:
            count += 1
            context.markChanged()
        case .nothing:
            break
        case .incrementLater(let delay):
            context.schedule(.increment, after: delay)
        case .incrementTwiceNow:
            context.route(.increment, source: .view)
            context.route(.increment, source: .view)
        case .scheduleAndCancel:
            let id = context.schedule(.increment, after: .seconds(1))
            context.cancel(id)
        case .pickRandom:
            picks.append(Int.random(in: 0...9, using: &context.random))
            context.markChanged()
        case .fetch(let value):
            context.perform { .fetched(value * 10) }
        case .fetched(let value):
            count += value
            context.markChanged()
        }
    }

    func makeViewModel() -> Snapshot {
        builds += 1
        return Snapshot(count: count, picks: picks)
    }

    static func describe(_ event: Event) -> EventDescription {
        switch event {
        case .increment: EventDescription(name: "increment")
        case .nothing: EventDescription(name: "nothing")
        case .incrementLater(let delay): EventDescription(name: "incrementLater", summary: "delay=\(delay)")
        case .incrementTwiceNow: EventDescription(name: "incrementTwiceNow")
        case .scheduleAndCancel: EventDescription(name: "scheduleAndCancel")
        case .pickRandom: EventDescription(name: "pickRandom")
        case .fetch(let value): EventDescription(name: "fetch", summary: "\(value)")
        case .fetched(let value): EventDescription(name: "fetched", summary: "\(value)")
        }
    }
}
