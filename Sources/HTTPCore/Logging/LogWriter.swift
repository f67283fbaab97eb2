import Dispatch
import ViewHostLocking

#if canImport(Glibc)
import Glibc
#endif

/// Writes log lines to a file descriptor on a thread of its own, so an event loop that logs never waits for a
/// disk or a pipe: ``write(_:)`` only appends to a buffer. Lines that arrive while `capacity` bytes are still
/// unwritten are dropped and counted, and a line saying how many follows the next batch (memory stays bounded
/// when the output is slower than the log).
///
/// Lines go out in batches, like nginx's buffered `access_log`: `flushInterval` after the first unwritten line,
/// or at once when `batchBytes` are waiting. Waking the writer for every line cost more than formatting it: at
/// 40,000 access lines a second, `perf` put a fifth of the server's time in the wake-ups (`sem_post`, context
/// switches). A line is written at most `flushInterval` late; ``flush()`` (at exit) writes everything at once.
///
/// ```swift
/// let writer = LogWriter(fd: STDERR_FILENO)
/// writer.write("viewhost started")
/// writer.flush()   // before the process exits
/// ```
public final class LogWriter: Sendable {
    private struct Pending {
        var bytes: [UInt8] = []
        var dropped = 0
        /// A drain is due `flushInterval` after the first line of this batch.
        var scheduled = false
        /// A drain is due now: the batch reached `batchBytes`.
        var urgent = false
    }

    /// What a write asks of the writer's queue.
    private enum Wake {
        case none
        case later
        case now
    }

    /// The descriptor lines go to (not closed by the writer).
    public let fd: Int32
    /// The most unwritten bytes held.
    public let capacity: Int
    /// How long the first line of a batch may wait for others.
    public let flushInterval: Duration
    /// The unwritten bytes that make a batch go out at once.
    public let batchBytes: Int
    private let droppedLine: @Sendable (Int) -> String
    private let queue = DispatchQueue(label: "viewhost.log-writer")
    private let pending = Locked(Pending())

    /// Creates a writer.
    /// - Parameters:
    ///   - fd: Where lines go, such as `STDERR_FILENO`.
    ///   - capacity: The most unwritten bytes held before lines are dropped.
    ///   - flushInterval: How long the first line of a batch may wait for others.
    ///   - batchBytes: The unwritten bytes that make a batch go out at once.
    ///   - droppedLine: The line that reports `n` dropped lines (in the log's own format).
    public init(
        fd: Int32, capacity: Int = 4 << 20, flushInterval: Duration = .milliseconds(50), batchBytes: Int = 64 << 10,
        droppedLine: @escaping @Sendable (Int) -> String = { "log writer: dropped \($0) lines (output too slow)" }
    ) {
        self.fd = fd
        self.capacity = capacity
        self.flushInterval = flushInterval
        self.batchBytes = batchBytes
        self.droppedLine = droppedLine
    }

    /// Queues one line (a newline is added); never blocks on I/O.
    public func write(_ line: String) {
        let wake = pending.withLock { pending -> Wake in
            guard pending.bytes.count + line.utf8.count < capacity else {
                pending.dropped += 1
                return .none
            }
            pending.bytes.append(contentsOf: line.utf8)
            pending.bytes.append(0x0A)
            if pending.bytes.count >= batchBytes, !pending.urgent {
                pending.urgent = true
                return .now
            }
            if pending.scheduled { return .none }
            pending.scheduled = true
            return .later
        }
        switch wake {
        case .none:
            break
        case .later:
            let (seconds, attoseconds) = flushInterval.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { self.drain() }
        case .now:
            queue.async { self.drain() }
        }
    }

    /// Writes everything queued so far, and returns once it is written.
    public func flush() {
        queue.sync { drain() }
    }

    /// Lines dropped and not yet reported.
    public var droppedCount: Int { pending.withLock { $0.dropped } }

    private func drain() {
        var (bytes, dropped) = pending.withLock { pending -> ([UInt8], Int) in
            defer {
                pending.bytes = []
                pending.dropped = 0
                pending.scheduled = false
                pending.urgent = false
            }
            return (pending.bytes, pending.dropped)
        }
        if dropped > 0 { bytes += Array((droppedLine(dropped) + "\n").utf8) }
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return  // the log cannot be written (closed pipe, full disk): nothing better to do than go on
                }
            }
        }
    }
}
