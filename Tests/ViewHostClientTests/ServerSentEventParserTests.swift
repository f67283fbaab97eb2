import Testing

@testable import ViewHostClient

/// The event-stream parser against the HTML standard's rules, fed in every split.
struct ServerSentEventParserTests {
    private static let stream = Array(
        "retry: 2000\n\nid: 7\nevent: chat\ndata: {\"version\":3}\n\n: keepalive\n\nevent: ended\ndata: {\"reason\":\"deleted\"}\n\n"
            .utf8)

    @Test func parsesFramesCommentsAndRetry() {
        var parser = ServerSentEventParser()
        let events = parser.feed(Self.stream)
        #expect(
            events == [
                ServerSentEvent(event: "chat", data: #"{"version":3}"#, id: "7"),
                ServerSentEvent(event: "ended", data: #"{"reason":"deleted"}"#, id: "7"),
            ])
        #expect(parser.retry == 2000)
        #expect(parser.lastEventID == "7")
    }

    @Test func anySplitGivesTheSameEvents() {
        var whole = ServerSentEventParser()
        let expected = whole.feed(Self.stream)
        for split in 1..<Self.stream.count {
            var parser = ServerSentEventParser()
            let events = parser.feed(Self.stream[..<split]) + parser.feed(Self.stream[split...])
            #expect(events == expected, "split at \(split)")
        }
    }

    @Test func crlfAndCRLineEndsAndMultiLineData() {
        var parser = ServerSentEventParser()
        let events = parser.feed(Array("event: a\r\ndata: one\r\ndata: two\r\n\r\ndata:x\r\r".utf8))
        #expect(
            events == [
                ServerSentEvent(event: "a", data: "one\ntwo", id: nil), ServerSentEvent(event: nil, data: "x", id: nil),
            ])
    }

    @Test func anEventWithoutDataIsNotDispatched() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Array("event: chat\n\nid: 3\n\n".utf8)).isEmpty)
        #expect(parser.lastEventID == "3")
    }
}

/// The backoff: exponential, capped, half of it jitter.
struct BackoffTests {
    @Test func growsToTheCapWithHalfJitter() {
        let backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(1))
        #expect(backoff.delay(afterFailures: 1, random: 0) == .milliseconds(50))
        #expect(backoff.delay(afterFailures: 1, random: 1) == .milliseconds(100))
        #expect(backoff.delay(afterFailures: 3, random: 0.5) == .milliseconds(300))
        #expect(backoff.delay(afterFailures: 10, random: 1) == .seconds(1))
        #expect(backoff.delay(afterFailures: 1000, random: 0) == .milliseconds(500))
    }
}
