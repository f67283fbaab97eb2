/// A value given once, and what waits for it: each waiting callback is called once with it, on the thread that
/// gives it, or at once (on the caller's thread) when it was given already.
public final class OneShot<Value: Sendable>: Sendable {
    private enum State {
        case waiting([@Sendable (Value) -> Void])
        case given(Value)
    }

    private let state = Locked(State.waiting([]))

    /// Nothing given yet.
    public init() {}

    /// Calls `body` with the value once it is given.
    public func whenGiven(_ body: @escaping @Sendable (Value) -> Void) {
        let given = state.withLock { state -> Value? in
            switch state {
            case .given(let value): return value
            case .waiting(var waiters):
                waiters.append(body)
                state = .waiting(waiters)
                return nil
            }
        }
        if let given { body(given) }
    }

    /// Gives the value and calls whatever waits for it; only the first call gives one.
    /// - Returns: Whether this call gave it.
    @discardableResult
    public func give(_ value: Value) -> Bool {
        let waiters = state.withLock { state -> [@Sendable (Value) -> Void]? in
            guard case .waiting(let waiters) = state else { return nil }
            state = .given(value)
            return waiters
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter(value) }
        return true
    }
}
