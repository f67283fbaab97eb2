import Dispatch
import ViewHostLocking

/// A value made once on a background thread, started at once: what needs it waits for it (`whenReady`), and what
/// does not (the server's start) does not. The OpenAPI document of every route and feature took a fifth of a
/// start's time on a store of 100,000 sessions, though few starts are ever asked for it.
final class Prepared<Value: Sendable>: Sendable {
    private enum State {
        case making([@Sendable (Value) -> Void])
        case made(Value)
    }

    private let state = Locked(State.making([]))

    /// Starts making the value with `make` on a background thread.
    init(_ make: @escaping @Sendable () -> Value) {
        DispatchQueue.global(qos: .utility).async { [self] in
            let value = make()
            let waiters = state.withLock { state -> [@Sendable (Value) -> Void] in
                guard case .making(let waiters) = state else { return [] }
                state = .made(value)
                return waiters
            }
            for waiter in waiters { waiter(value) }
        }
    }

    /// Calls `body` with the value once it is made (at once, on this thread, when it is).
    func whenReady(_ body: @escaping @Sendable (Value) -> Void) {
        let made = state.withLock { state -> Value? in
            switch state {
            case .made(let value): return value
            case .making(var waiters):
                waiters.append(body)
                state = .making(waiters)
                return nil
            }
        }
        if let made { body(made) }
    }
}
