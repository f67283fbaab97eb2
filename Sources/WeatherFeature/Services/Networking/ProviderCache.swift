import Foundation
import ViewHostLocking

/// A bounded, process-wide cache of provider answers with a time to live, shared by every session.
///
/// - An answer younger than `ttl` (by the injected `now`) is served without asking the provider again (10 min by
///   default: weather changes slowly, and Open-Meteo and Weatherbit ask for fair use).
/// - Concurrent requests for one key share one provider call (100,000 sessions starting at once ask for
///   McGaheysville, VA once, not 100,000 times).
/// - Only successes are kept; a failure is retried by the next request.
/// - At `capacity` entries, expired ones go first, then the oldest.
final class ProviderCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        let value: Value
        let storedAt: Date
    }

    private enum Lookup {
        case hit(Value)
        case wait(Task<Value, any Error>, owner: Bool)
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var inFlight: [Key: Task<Value, any Error>] = [:]
    }

    let ttl: Duration
    let capacity: Int
    private let now: @Sendable () -> Date
    private let state = Locked(State())

    init(ttl: Duration, capacity: Int = 4096, now: @escaping @Sendable () -> Date) {
        self.ttl = ttl
        self.capacity = max(1, capacity)
        self.now = now
    }

    /// The cached value for `key`, or the one `load` produces (then cached).
    func value(
        for key: Key, load: @escaping @Sendable () async throws(WeatherError) -> Value
    ) async throws(WeatherError) -> Value {
        let current = now()
        let lookup = state.withLock { state -> Lookup in
            if let entry = state.entries[key], current.timeIntervalSince(entry.storedAt) < ttl.seconds {
                return .hit(entry.value)
            }
            if let running = state.inFlight[key] { return .wait(running, owner: false) }
            let task = Task<Value, any Error> { try await load() }
            state.inFlight[key] = task
            return .wait(task, owner: true)
        }
        switch lookup {
        case .hit(let value):
            return value
        case .wait(let task, let owner):
            do {
                let value = try await task.value
                if owner { store(value, for: key) }
                return value
            } catch {
                if owner { state.withLock { _ = $0.inFlight.removeValue(forKey: key) } }
                throw error as? WeatherError ?? .unreachable(service: "The provider")
            }
        }
    }

    /// The number of cached answers.
    var count: Int { state.withLock { $0.entries.count } }

    private func store(_ value: Value, for key: Key) {
        let storedAt = now()
        state.withLock { state in
            state.inFlight[key] = nil
            if state.entries[key] == nil, state.entries.count >= capacity {
                state.entries = state.entries.filter { storedAt.timeIntervalSince($0.value.storedAt) < ttl.seconds }
                if state.entries.count >= capacity,
                    let oldest = state.entries.min(by: { $0.value.storedAt < $1.value.storedAt })?.key
                {
                    state.entries[oldest] = nil
                }
            }
            state.entries[key] = Entry(value: value, storedAt: storedAt)
        }
    }
}
