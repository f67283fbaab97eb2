import Foundation

/// A value behind a lock, for the little state a client shares between tasks (the ETag cache).
///
/// `NSLock` rather than `Synchronization.Mutex`: the client targets iOS 17 and macOS 14, where `Mutex` is not
/// available. `@unchecked Sendable`: every access goes through ``withLock(_:)``.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
