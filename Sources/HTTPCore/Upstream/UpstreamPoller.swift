import CSystemShim
import Foundation
import Synchronization
import ViewHostLocking

#if canImport(Glibc)
import Glibc
#endif

/// Waits for upstream sockets to be ready, for every relay at once: one thread and one epoll set, so a relayed
/// event stream or long poll that waits for its upstream's next bytes holds a registration, never a thread.
///
/// A socket is in the set only while someone waits on it; each wait ends when the socket is ready (or hung up or
/// shut down, which a read then reports) or at its deadline. The thread ends once the poller is gone.
final class UpstreamPoller: Sendable {
    private struct Waiter {
        let fd: Int32
        let deadline: ContinuousClock.Instant
        let continuation: CheckedContinuation<Bool, Never>
    }

    private let epollFD: Int32
    private let waiters = Locked<[UInt64: Waiter]>([:])
    private let tokens = Atomic<UInt64>(0)

    init() {
        epollFD = vh_epoll_create()
        let epollFD = epollFD
        let thread = Thread { [weak self] in Self.run(epollFD: epollFD, poller: { self }) }
        thread.name = "viewhost.upstream.poll"
        thread.start()
    }

    /// Waits until `fd` is ready for `events` (`VH_EPOLLIN` or `VH_EPOLLOUT`).
    /// - Returns: false when `deadline` passed first.
    func wait(_ fd: Int32, for events: UInt32, until deadline: ContinuousClock.Instant) async -> Bool {
        await withCheckedContinuation { continuation in
            let token = tokens.wrappingAdd(1, ordering: .relaxed).newValue
            waiters.withLock { $0[token] = Waiter(fd: fd, deadline: deadline, continuation: continuation) }
            if vh_epoll_add(epollFD, fd, events | VH_EPOLLRDHUP, token) != 0 {
                // Not watchable (an fd already shut): let the caller try its call and see why.
                if let waiter = waiters.withLock({ $0.removeValue(forKey: token) }) {
                    waiter.continuation.resume(returning: true)
                }
            }
        }
    }

    private static func run(epollFD: Int32, poller: @escaping () -> UpstreamPoller?) {
        let capacity = 64
        let events = UnsafeMutablePointer<vh_epoll_event>.allocate(capacity: capacity)
        defer {
            events.deallocate()
            close(epollFD)
        }
        while let poller = poller() {
            let count = vh_epoll_wait(epollFD, events, Int32(capacity), 500)
            for index in 0..<max(0, Int(count)) {
                poller.wake(token: events[index].data, ready: true)
            }
            let now = ContinuousClock.now
            let expired = poller.waiters.withLock { waiters in waiters.filter { $0.value.deadline <= now }.map(\.key) }
            for token in expired { poller.wake(token: token, ready: false) }
        }
        // The poller is gone: nobody can wait any more, and nobody is waiting (a waiter holds the poller).
    }

    private func wake(token: UInt64, ready: Bool) {
        guard let waiter = waiters.withLock({ $0.removeValue(forKey: token) }) else { return }
        _ = vh_epoll_remove(epollFD, waiter.fd)
        waiter.continuation.resume(returning: ready)
    }
}
