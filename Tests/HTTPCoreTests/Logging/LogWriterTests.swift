import Foundation
import HTTPCore
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The log writer over a pipe: lines go out in batches (after the flush interval, or at once when a batch is
/// large), `flush()` writes everything, and a full buffer drops lines and says so.
struct LogWriterTests {
    /// A pipe whose read end is non-blocking; closed at the end.
    final class Pipe: Sendable {
        let read: Int32
        let write: Int32

        init() throws {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
            (read, write) = (ends[0], ends[1])
            _ = fcntl(read, F_SETFL, fcntl(read, F_GETFL) | O_NONBLOCK)
        }

        deinit {
            close(read)
            close(write)
        }

        /// What arrived so far.
        func available() -> String {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while case let count = Glibc.read(read, &chunk, chunk.count), count > 0 {
                bytes += chunk[0..<count]
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    @Test func flushWritesEveryLineInOrder() throws {
        let pipe = try Pipe()
        let writer = LogWriter(fd: pipe.write, flushInterval: .seconds(3600))
        for index in 0..<100 { writer.write("line \(index)") }
        writer.flush()
        #expect(pipe.available() == (0..<100).map { "line \($0)\n" }.joined())
    }

    @Test func aBatchGoesOutAfterTheFlushIntervalWithoutAFlush() async throws {
        let pipe = try Pipe()
        let writer = LogWriter(fd: pipe.write, flushInterval: .milliseconds(20))
        writer.write("first")
        writer.write("second")
        var received = ""
        #expect(await eventually { received += pipe.available(); return received == "first\nsecond\n" })
    }

    @Test func aLargeBatchGoesOutAtOnce() async throws {
        let pipe = try Pipe()
        // An hour's interval: only the size can make these lines go out.
        let writer = LogWriter(fd: pipe.write, flushInterval: .seconds(3600), batchBytes: 1024)
        let line = String(repeating: "x", count: 99)  // 100 bytes with its newline
        for _ in 0..<11 { writer.write(line) }
        var received = ""
        #expect(await eventually { received += pipe.available(); return received.utf8.count == 1100 })
        writer.write("after")  // a new batch: waits for its interval
        writer.flush()
        #expect(pipe.available() == "after\n")
    }

    @Test func linesOverTheCapacityAreDroppedAndCounted() throws {
        let pipe = try Pipe()
        let writer = LogWriter(
            fd: pipe.write, capacity: 64, flushInterval: .seconds(3600), batchBytes: 1 << 20,
            droppedLine: { "dropped \($0)" })
        for index in 0..<10 { writer.write("line \(index)") }  // 7 bytes each: 9 fit under 64
        #expect(writer.droppedCount == 1)
        writer.flush()
        #expect(pipe.available() == (0..<9).map { "line \($0)\n" }.joined() + "dropped 1\n")
    }
}
