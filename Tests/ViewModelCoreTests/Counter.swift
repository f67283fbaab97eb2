import Foundation
import ViewHostAPI
import ViewHostLocking
import ViewModelCore

/// A tiny feature for testing the session machinery: it counts, echoes later, chains follow-ups, asks for outside
/// work, and refuses to go below zero.
enum Counter: Feature {
    struct State: Codable, Equatable, Sendable {
        var count = 0
        var picks: [Int] = []
        /// Names the test, so ``builds`` can count this test's snapshot builds alone.
        var probe = ""
        /// A reading that may not be finite (a value the store cannot keep); absent until set.
        var gauge: Double?
    }

    enum Event: Codable, Equatable, Sendable {
        case increment
        case decrement
        case nothing
        case incrementLater(Duration)
        case incrementTwiceNow
        case scheduleAndCancel
        /// Cancels the timer with this id, and does nothing else.
        case cancelTimer(Int)
        case pickRandom
        case fetch(Int)
        case fetched(Int)
        /// Sets the gauge (any Double, finite or not).
        case setGauge(Double)
        /// Schedules `setGauge` a second later.
        case setGaugeLater(Double)
        /// Divides the gauge by zero: from finite events, a state that is not.
        case overflowGauge
        /// Asks for a measurement, answered with `setGauge` of one over it.
        case measure(Double)
    }

    enum Request: Codable, Equatable, Sendable {
        case multiply(Int)
        case measure(Double)
    }

    struct Snapshot: FeatureSnapshot {
        static let feature = "counter"
        var count: Int
        var picks: [Int]
        var gauge: Double?
        /// One over the gauge: infinite for a gauge of 0, which the store keeps.
        var inverse: Double?
    }

    static let key = FeatureKey<Counter>("counter")

    /// Snapshot builds per probe (tests run in parallel, each with its own probe).
    static let builds = Locked<[String: Int]>([:])

    static func check(_ event: Event, in state: State) throws(EventRefusal) {
        if case .decrement = event, state.count == 0 {
            throw EventRefusal(reason: "The count is 0.", allowed: ["increment"])
        }
    }

    static func apply(_ event: Event, to state: inout State, context: inout FeatureContext<Counter>) {
        switch event {
        case .increment:
            state.count += 1
            context.markChanged()
        case .decrement:
            state.count -= 1
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
        case .cancelTimer(let id):
            context.cancel(TimerID(value: id))
        case .pickRandom:
            state.picks.append(Int.random(in: 0...9, using: &context.random))
            context.markChanged()
        case .fetch(let value):
            context.request(.multiply(value))
        case .fetched(let value):
            state.count += value
            context.markChanged()
        case .setGauge(let value):
            state.gauge = value
            context.markChanged()
        case .setGaugeLater(let value):
            context.schedule(.setGauge(value), after: .seconds(1))
        case .overflowGauge:
            state.gauge = (state.gauge ?? 1) / 0
            context.markChanged()
        case .measure(let value):
            context.request(.measure(value))
        }
    }

    static func snapshot(of state: State, settings: SessionSettings) -> Snapshot {
        builds.withLock { $0[state.probe, default: 0] += 1 }
        return Snapshot(count: state.count, picks: state.picks, gauge: state.gauge, inverse: state.gauge.map { 1 / $0 })
    }

    /// A count past a billion is one no test reaches: refused when read from outside.
    static func validate(state: State) throws(ValueRejection) {
        try ValueRejection.check(state.count, in: -1_000_000_000...1_000_000_000, field: "count")
    }

    /// An answer past a million, or a delay past a day, is one no test makes: refused when read from outside.
    static func validate(event: Event) throws(ValueRejection) {
        switch event {
        case .fetch(let value), .fetched(let value): try ValueRejection.check(value, in: -1_000_000...1_000_000, field: "value")
        case .incrementLater(let delay) where delay > .seconds(86_400):
            throw ValueRejection(field: "incrementLater", reason: "must be at most a day")
        default: break
        }
    }

    static func describe(_ event: Event) -> EventDescription {
        switch event {
        case .increment: EventDescription(name: "increment")
        case .decrement: EventDescription(name: "decrement")
        case .nothing: EventDescription(name: "nothing")
        case .incrementLater(let delay): EventDescription(name: "incrementLater", summary: "delay=\(delay)")
        case .incrementTwiceNow: EventDescription(name: "incrementTwiceNow")
        case .scheduleAndCancel: EventDescription(name: "scheduleAndCancel")
        case .cancelTimer(let id): EventDescription(name: "cancelTimer", summary: "\(id)")
        case .pickRandom: EventDescription(name: "pickRandom")
        case .fetch(let value): EventDescription(name: "fetch", summary: "\(value)")
        case .fetched(let value): EventDescription(name: "fetched", summary: "\(value)")
        case .setGauge(let value): EventDescription(name: "setGauge", summary: "\(value)")
        case .setGaugeLater(let value): EventDescription(name: "setGaugeLater", summary: "\(value)")
        case .overflowGauge: EventDescription(name: "overflowGauge")
        case .measure(let value): EventDescription(name: "measure", summary: "\(value)")
        }
    }

    /// Runs `multiply` requests: ten times the value.
    static let runner = FeatureRequestRunner(key) { request in
        switch request {
        case .multiply(let value): .fetched(value * 10)
        case .measure(let value): .setGauge(1 / value)
        }
    }
}
