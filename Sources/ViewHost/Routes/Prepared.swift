import Dispatch
import ViewHostLocking

/// A value made once on a background thread, started at once: what needs it waits for it (`whenReady`), and what
/// does not (the server's start) does not. The OpenAPI document of every route and feature took a fifth of a
/// start's time on a store of 100,000 sessions, though few starts are ever asked for it.
final class Prepared<Value: Sendable>: Sendable {
    private let made = OneShot<Value>()

    /// Starts making the value with `make` on a background thread.
    init(_ make: @escaping @Sendable () -> Value) {
        DispatchQueue.global(qos: .utility).async { [made] in made.give(make()) }
    }

    /// Calls `body` with the value once it is made (at once, on this thread, when it is).
    func whenReady(_ body: @escaping @Sendable (Value) -> Void) {
        made.whenGiven(body)
    }
}
