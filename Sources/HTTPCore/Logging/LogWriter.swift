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
/// ```swift
/// let writer = LogWriter(fd: STDERR_FILENO)
/// writer.write("viewhost started")
/// writer.flush()   // before the process exits
/// ```
public final class LogWriter: Sendable {
    private struct Pending {
        var bytes: [UInt8] = []
        var dropped = 0
        var scheduled = false
    }

    /// The descriptor lines go to (not closed by the writer).
    public let fd: Int32
    /// The most unwritten bytes held.
    public let capacity: Int
    private let droppedLine: @Sendable (Int) -> String
    private let queue = DispatchQueue(label: "viewhost.log-writer")
    private let pending = Locked(Pending())

    /// Creates a writer.
    /// - Parameters:
    ///   - fd: Where lines go, such as `STDERR_FILENO`.
    ///   - capacity: The most unwritten bytes held before lines are dropped.
    ///   - droppedLine: The line that reports `n` dropped lines (in the log's own format).
    public init(
        fd: Int32, capacity: Int = 4 << 20,
        droppedLine: @escaping @Sendable (Int) -> String = { "log writer: dropped \($0) lines (output too slow)" }
    ) {
        self.fd = fd
        self.capacity = capacity
        self.droppedLine = droppedLine
    }

    /// Queues one line (a newline is added); never blocks on I/O.
    public func write(_ line: String) {
        let schedule = pending.withLock { pending -> Bool in
            guard pending.bytes.count + line.utf8.count < capacity else {
                pending.dropped += 1
                return false
            }
            pending.bytes.append(contentsOf: line.utf8)
            pending.bytes.append(0x0A)
            defer { pending.scheduled = true }
            return !pending.scheduled
        }
        if schedule { queue.async { self.drain() } }
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
