import ViewHostLocking

/// A store's ``StorageHealth``, kept by its writer and told to whoever listens, once per change (the app logs each
/// change as one line and answers `/readyz` from it). `broken` is final: nothing but a restart clears it.
///
/// The SQLite and PostgreSQL stores both keep theirs in one of these, with the same rules: `failing` after a write
/// that failed, `healthy` only after a write that reached the disk (or the database), never after a batch whose
/// every write was refused before touching it.
public final class StorageHealthMonitor: Sendable {
    private struct State {
        var health = StorageHealth.healthy
        var listeners: [@Sendable (StorageHealth) -> Void] = []
    }

    private let state = Locked(State())

    /// A monitor that says healthy.
    public init() {}

    /// The health now.
    public var health: StorageHealth { state.withLock { $0.health } }

    /// Calls `listener` with every later change (on the thread that made it), and at once with the health now when
    /// it is not healthy (a fault found while the store opened is told like any other).
    public func onChange(_ listener: @escaping @Sendable (StorageHealth) -> Void) {
        let now = state.withLock { state -> StorageHealth in
            state.listeners.append(listener)
            return state.health
        }
        if !now.isHealthy { listener(now) }
    }

    /// Sets the health, unless it is `broken` already; tells the listeners when it changed.
    public func set(_ health: StorageHealth) {
        let listeners = state.withLock { state -> [@Sendable (StorageHealth) -> Void] in
            guard state.health != health, !Self.isBroken(state.health) else { return [] }
            state.health = health
            return state.listeners
        }
        for listener in listeners { listener(health) }
    }

    private static func isBroken(_ health: StorageHealth) -> Bool {
        if case .broken = health { return true }
        return false
    }
}
