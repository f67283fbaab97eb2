import CSystemShim
import Logging
import Synchronization
import ViewHostLocking

#if canImport(Glibc)
import Glibc
#endif

/// One epoll loop on a thread of its own: it owns its listener(s), the connections it accepted, their timers
/// and its buffers. Every descriptor has exactly one owner (this loop), and only the owner closes it.
///
/// `@unchecked Sendable` invariant: only ``execute(_:)`` and ``index`` are used from other threads; every other
/// member is touched on the loop's own thread alone.
final class EventLoop: @unchecked Sendable {
    enum Slot {
        case wake
        case listener(Listener)
        case connection(Connection)
    }

    let index: Int
    let server: ServerContext
    private let epollFD: Int32
    private let wakeFD: Int32
    /// Tasks for the loop's thread; nil once the loop has stopped and runs no more.
    private let inbox = Locked<[@Sendable () -> Void]?>([])
    private var slots: [Slot?] = []
    private var generations: [UInt32] = []
    private var listeners: [Listener] = []
    private var listenerEvents = VH_EPOLLIN
    private var pausedListeners: [(listener: Listener, resume: ContinuousClock.Instant)] = []
    private var connectionCount = 0
    /// `connectionCount` plus connections handed to this loop and not yet added, readable from any loop: an
    /// accepting loop gives each new connection to the least loaded loop (see ``Listener``).
    let load = Atomic<Int>(0)
    private var thread: pthread_t?
    private var running = true
    private var nextSweep: ContinuousClock.Instant?
    private let timerGranularity: Duration
    private let onStop: @Sendable () -> Void

    /// Where received bytes land first; a connection copies out only what it cannot parse yet.
    let readBuffer: UnsafeMutableRawBufferPointer
    /// An output buffer lent to one connection at a time, so idle connections hold none.
    var sharedOutbound: [UInt8] = []
    var sharedOutboundLent = false
    var date = HTTPDate()
    /// The time at the start of this loop iteration: connections read it instead of the clock, since a
    /// sub-millisecond error does not matter to timeouts of seconds and reading the clock per event does.
    private(set) var now = ContinuousClock.now
    var requestIDs: RequestIDGenerator
    private(set) var isDraining = false
    /// The loop ended: a connection handed to it now is closed (no loop would serve it).
    private(set) var isStopped = false

    init(index: Int, server: ServerContext, onStop: @escaping @Sendable () -> Void) throws(SocketError) {
        self.index = index
        self.server = server
        self.onStop = onStop
        epollFD = vh_epoll_create()
        guard epollFD >= 0 else { throw .makeFailed("epoll_create1") }
        wakeFD = vh_eventfd()
        guard wakeFD >= 0 else {
            let error = SocketError.makeFailed("eventfd")
            Glibc.close(epollFD)
            throw error
        }
        readBuffer = .allocate(byteCount: 64 * 1024, alignment: 16)
        requestIDs = RequestIDGenerator(processPrefix: server.requestIDPrefix, loopIndex: index)
        timerGranularity = min(.milliseconds(250), server.configuration.timeouts.shortest / 4)
        sharedOutbound.reserveCapacity(16 * 1024)
        register(fd: wakeFD, slot: .wake, events: VH_EPOLLIN)
    }

    deinit {
        readBuffer.deallocate()
        Glibc.close(wakeFD)
        Glibc.close(epollFD)
    }

    /// Runs `task` on the loop's thread, soon. Safe from any thread.
    /// - Returns: false when the loop has stopped: the task will never run, and what it owns is the caller's to
    ///   release.
    @discardableResult
    func execute(_ task: @escaping @Sendable () -> Void) -> Bool {
        let queued: Bool? = inbox.withLock { queue in
            guard queue != nil else { return nil }
            queue!.append(task)
            return queue!.count == 1
        }
        guard let wasEmpty = queued else { return false }
        if wasEmpty { _ = vh_eventfd_signal(wakeFD) }
        return true
    }

    func preconditionInLoop() {
        if let thread { precondition(pthread_equal(thread, pthread_self()) != 0, "called off its event loop") }
    }

    /// Starts the loop's thread.
    func start() {
        let box = Unmanaged.passRetained(self)
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, 1 << 20)
        var handle = pthread_t()
        let result = pthread_create(
            &handle, &attributes,
            { raw in
                let loop = Unmanaged<EventLoop>.fromOpaque(raw!).takeRetainedValue()
                loop.thread = pthread_self()
                loop.run()
                return nil
            }, box.toOpaque())
        pthread_attr_destroy(&attributes)
        precondition(result == 0, "pthread_create failed: \(result)")
        pthread_detach(handle)
    }

    /// Adds a listening socket (on the loop's thread, or before it starts).
    /// - Parameters:
    ///   - listener: The listener.
    ///   - shared: Whether other loops watch the same socket; then only one of them is woken per connection.
    func add(listener: Listener, shared: Bool) {
        listeners.append(listener)
        listenerEvents = shared ? VH_EPOLLIN | VH_EPOLLEXCLUSIVE : VH_EPOLLIN
        register(fd: listener.fd, slot: .listener(listener), events: listenerEvents)
    }

    /// Adds an accepted connection; returns the generation its events carry.
    func add(connectionFD fd: Int32, make: (UInt32) -> Connection) {
        let generation = nextGeneration(for: fd)
        let connection = make(generation)
        connectionCount += 1
        load.wrappingAdd(1, ordering: .relaxed)
        register(
            fd: fd, slot: .connection(connection), events: VH_EPOLLIN | VH_EPOLLOUT | VH_EPOLLRDHUP | VH_EPOLLET,
            generation: generation)
        connection.start()
        // Accepted just as the drain began: served like the connections the drain found (its first request is
        // answered), not closed unanswered.
        if isDraining, !connection.isClosed { connection.drain() }
    }

    /// Forgets a connection and closes its descriptor (closing removes it from epoll).
    func remove(connection: Connection) {
        let fd = Int(connection.fd)
        if fd < slots.count, case .connection(let registered) = slots[fd], registered === connection {
            slots[fd] = nil
        }
        Glibc.close(connection.fd)
        connectionCount -= 1
        load.wrappingSubtract(1, ordering: .relaxed)
        stopIfDrained()
    }

    /// Makes sure timers are checked by `deadline`.
    func scheduleTimerCheck(at deadline: ContinuousClock.Instant) {
        if let nextSweep, nextSweep <= deadline { return }
        nextSweep = deadline
    }

    /// Stops accepting, closes idle connections and lets busy ones finish; the loop ends when none are left.
    func beginDrain() {
        guard !isDraining else { return }
        isDraining = true
        for listener in listeners {
            if Int(listener.fd) < slots.count { slots[Int(listener.fd)] = nil }
            _ = vh_epoll_remove(epollFD, listener.fd)
            listener.close()
        }
        listeners.removeAll()
        pausedListeners.removeAll()
        forEachConnection { $0.drain() }
        stopIfDrained()
    }

    /// Ends the loop once draining and nothing is left: no connection, and none handed to it on its way
    /// (``load`` counts those), which it serves when it comes.
    private func stopIfDrained() {
        if isDraining, connectionCount == 0, load.load(ordering: .relaxed) == 0 { running = false }
    }

    /// Stops watching a listener for a while: the process is out of descriptors or memory, and a
    /// level-triggered listener would otherwise wake the loop in a busy spin.
    func pauseAccepting(_ listener: Listener, reason: SocketError) {
        guard Int(listener.fd) < slots.count, slots[Int(listener.fd)] != nil else { return }
        slots[Int(listener.fd)] = nil
        _ = vh_epoll_remove(epollFD, listener.fd)
        let resume = now.advanced(by: .milliseconds(100))
        pausedListeners.append((listener, resume))
        scheduleTimerCheck(at: resume)
        server.logger.warning("accept paused for 100 ms", metadata: ["error": "\(reason)"])
    }

    /// Closes every connection at once (the drain timeout passed).
    func forceClose() {
        forEachConnection { $0.close() }
        running = false
    }

    // MARK: - Loop

    private func run() {
        let capacity = 256
        let events = UnsafeMutablePointer<vh_epoll_event>.allocate(capacity: capacity)
        defer { events.deallocate() }
        while running {
            let count = vh_epoll_wait(epollFD, events, Int32(capacity), waitTimeout())
            if count < 0 {
                server.logger.critical(
                    "epoll_wait failed", metadata: ["error": "\(SocketError.makeFailed("epoll_wait"))"])
                break
            }
            now = .now
            for index in 0..<Int(count) {
                dispatch(events[index])
            }
            runInbox()
            stopIfDrained()  // a connection handed to it while draining was closed unserved (a failed TLS start)
            if let nextSweep, now >= nextSweep { sweepTimers() }
            // Give way to whatever else is runnable on this core before the next batch. A loop that always has
            // ready connections otherwise keeps its core for a whole scheduler slice while a client or another
            // process queued on the same core waits: with wrk on this 2-core machine, GET latency was bimodal
            // (p50 0.4 ms, p90 4 ms, p99 7.9 ms) and became p90 0.8 / p99 1.1 ms with this. Alone on a core it
            // returns at once; it runs once per batch of events, not per request.
            if count > 0 { sched_yield() }
        }
        for listener in listeners { listener.close() }
        listeners.removeAll()
        // Refuse tasks from now on, and run those already queued: a connection handed over now is adopted by a
        // stopped loop, which closes it (see ``Listener/handOff(_:peer:to:from:)``).
        isDraining = true
        isStopped = true
        let leftover = inbox.withLock { queue -> [@Sendable () -> Void] in
            defer { queue = nil }
            return queue ?? []
        }
        for task in leftover { task() }
        onStop()
    }

    private func dispatch(_ event: vh_epoll_event) {
        let fd = Int(truncatingIfNeeded: event.data & 0xFFFF_FFFF)
        let generation = UInt32(truncatingIfNeeded: event.data >> 32)
        guard fd < slots.count, let slot = slots[fd] else { return }
        switch slot {
        case .wake:
            _ = vh_eventfd_drain(wakeFD)
        case .listener(let listener):
            listener.acceptConnections(on: self)
        case .connection(let connection):
            // A stale event for a descriptor number that was closed and reused in the same batch.
            guard connection.generation == generation else { return }
            connection.handle(events: event.events)
        }
    }

    private func runInbox() {
        let tasks = inbox.withLock { queue -> [@Sendable () -> Void] in
            guard let pending = queue, !pending.isEmpty else { return [] }
            queue!.removeAll(keepingCapacity: true)
            return pending
        }
        for task in tasks { task() }
    }

    private func waitTimeout() -> Int32 {
        guard let nextSweep else { return -1 }
        let remaining = ContinuousClock.now.duration(to: nextSweep)
        if remaining <= .zero { return 0 }
        let milliseconds =
            remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
        return Int32(clamping: milliseconds + 1)
    }

    /// Checks every connection's deadline; wakes again at the earliest one, but not sooner than the
    /// granularity, so ten thousand connections with spread deadlines cost a few scans a second, not thousands.
    private func sweepTimers() {
        nextSweep = nil
        var earliest: ContinuousClock.Instant?
        resumePausedListeners(now: now, earliest: &earliest)
        forEachConnection { connection in
            guard let deadline = connection.checkTimers(at: now) else { return }
            if earliest == nil || deadline < earliest! { earliest = deadline }
        }
        if let earliest { nextSweep = max(earliest, now.advanced(by: timerGranularity)) }
    }

    private func resumePausedListeners(now: ContinuousClock.Instant, earliest: inout ContinuousClock.Instant?) {
        var stillPaused: [(listener: Listener, resume: ContinuousClock.Instant)] = []
        for entry in pausedListeners {
            if entry.resume <= now, !isDraining {
                register(fd: entry.listener.fd, slot: .listener(entry.listener), events: listenerEvents)
            } else if !isDraining {
                stillPaused.append(entry)
                if earliest == nil || entry.resume < earliest! { earliest = entry.resume }
            }
        }
        pausedListeners = stillPaused
    }

    private func forEachConnection(_ body: (Connection) -> Void) {
        var connections: [Connection] = []
        connections.reserveCapacity(connectionCount)
        for slot in slots {
            if case .connection(let connection) = slot { connections.append(connection) }
        }
        for connection in connections { body(connection) }
    }

    private func nextGeneration(for fd: Int32) -> UInt32 {
        let index = Int(fd)
        if index >= generations.count {
            generations.append(contentsOf: repeatElement(0, count: index - generations.count + 1))
        }
        generations[index] &+= 1
        return generations[index]
    }

    private func register(fd: Int32, slot: Slot, events: UInt32, generation: UInt32 = 0) {
        let index = Int(fd)
        if index >= slots.count { slots.append(contentsOf: repeatElement(nil, count: index - slots.count + 1)) }
        slots[index] = slot
        let data = UInt64(UInt32(bitPattern: fd)) | UInt64(generation) << 32
        if vh_epoll_add(epollFD, fd, events, data) != 0 {
            server.logger.error("epoll_ctl(ADD) failed", metadata: ["error": "\(SocketError.makeFailed("epoll_ctl"))"])
        }
    }
}
