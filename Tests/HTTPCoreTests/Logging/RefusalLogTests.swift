import HTTPCore
import Logging
import Testing
import TestSupport
import ViewHostLocking

/// Refusals are logged with their reason, at a bounded rate, and the lines left out are counted on the next one.
struct RefusalLogTests {
    @Test func floodIsCutToTheBurstThenTheRateAndSkippedLinesAreCounted() throws {
        let clock = ManualClock()
        let lines = LogLines()
        let log = RefusalLog(logger: lines.logger, linesPerSecond: 2, burst: 3, clock: clock)
        var written = 0
        for index in 0..<1000 {
            if log.record(status: 429, reason: "too many", requestID: "r\(index)", peer: "10.0.0.7") { written += 1 }
        }
        #expect(written == 3, "a flood writes the burst only")
        clock.advance(by: .milliseconds(500))
        #expect(log.record(status: 413, reason: "body too large", requestID: "next", peer: nil))
        let entries = lines.entries
        #expect(entries.count == 4)
        let last = try #require(entries.last)
        #expect(last.message == "refused request")
        #expect(last.level == .notice)
        #expect(last.metadata["status"] == "413")
        #expect(last.metadata["reason"] == "body too large")
        #expect(last.metadata["request-id"] == "next")
        #expect(last.metadata["suppressed"] == "997", "the lines left out are counted")
        #expect(entries[0].metadata["peer"] == "10.0.0.7")
        #expect(entries[0].metadata["suppressed"] == nil)
    }
}

/// A logger whose entries are kept in memory.
final class LogLines: Sendable {
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private let stored = Locked<[Entry]>([])

    var entries: [Entry] { stored.withLock { $0 } }

    var logger: Logger {
        Logger(label: "test") { _ in Handler(lines: self) }
    }

    fileprivate func append(_ entry: Entry) {
        stored.withLock { $0.append(entry) }
    }

    private struct Handler: LogHandler {
        let lines: LogLines
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]
        var metadataProvider: Logger.MetadataProvider?

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
            lines.append(
                Entry(level: event.level, message: event.message.description, metadata: merged.mapValues { "\($0)" }))
        }
    }
}
