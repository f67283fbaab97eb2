#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a lock: small shared state (a session's shell, a writer's queue, an event loop's
/// inbox, the client's ETag cache), read and changed only inside ``withLock(_:)``.
///
/// ```swift
/// let counts = Locked([String: Int]())
/// counts.withLock { $0["chat", default: 0] += 1 }
/// ```
///
/// A `pthread_mutex_t`, not `Synchronization.Mutex`: on Linux `Mutex` locks with its own futex calls, which
/// ThreadSanitizer cannot see, so every access it guards was reported as a race and a TSan run of the suite stopped at
/// the first of them (`scripts/sanitize.sh thread`, 2026-11-25); ThreadSanitizer intercepts `pthread_mutex_*`. Its
/// API is `Mutex`'s (`withLock`, `sending` in and out), so a value that is not `Sendable` still cannot leak.
///
/// `@unchecked Sendable`: `value` is only touched between `pthread_mutex_lock` and `pthread_mutex_unlock`.
public final class Locked<Value: ~Copyable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// A lock around `value`.
    public init(_ value: consuming sending Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock; what `body` returns or throws is passed on.
    public func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
