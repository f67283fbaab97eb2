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
/// The mutex and the value share one allocation (a `ManagedBuffer`, as swift-nio's `LockStorage` does): a session
/// holds a few, and a heap object plus a separately allocated `pthread_mutex_t` cost about 90 bytes more per lock
/// than a `Mutex` inside its owner (Benchmarks/ab.sh, BENCHMARKS.md).
///
/// `@unchecked Sendable`: the value is only touched between `pthread_mutex_lock` and `pthread_mutex_unlock`.
///
/// `@inlinable`, so each caller in another module gets `withLock` specialized for its value and result: an
/// unspecialized generic call looked up the metadata of both at run time, on every lock taken (in a burst of 10,000
/// stream frames, the runtime's metadata cache was a top entry of the server's profile; Benchmarks/sse.sh).
public struct Locked<Value: ~Copyable>: @unchecked Sendable {
    @usableFromInline let storage: LockedStorage<Value>

    /// A lock around `value`.
    @inlinable
    public init(_ value: consuming sending Value) {
        storage = LockedStorage.make(value)
    }

    /// Runs `body` with the value, holding the lock; what `body` returns or throws is passed on.
    @inlinable
    public func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        let (mutex, value) = storage.pointers
        pthread_mutex_lock(mutex)
        defer {
            pthread_mutex_unlock(mutex)
            withExtendedLifetime(storage) {}  // the pointers stay valid until here
        }
        return try body(&value.pointee)
    }
}

/// The mutex (the buffer's header) and the value (its one element) in one heap object.
@usableFromInline
final class LockedStorage<Value: ~Copyable>: ManagedBuffer<pthread_mutex_t, Value> {
    @inlinable
    static func make(_ value: consuming Value) -> LockedStorage<Value> {
        let storage = unsafeDowncast(create(minimumCapacity: 1) { _ in pthread_mutex_t() }, to: LockedStorage.self)
        let (mutex, element) = storage.pointers
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
        element.initialize(to: value)
        return storage
    }

    /// The header's and the element's addresses, valid while the object lives (it never moves).
    @inlinable
    var pointers: (mutex: UnsafeMutablePointer<pthread_mutex_t>, value: UnsafeMutablePointer<Value>) {
        withUnsafeMutablePointers { ($0, $1) }
    }

    deinit {
        let (mutex, value) = pointers
        value.deinitialize(count: 1)
        pthread_mutex_destroy(mutex)
    }
}
