import ViewHost
import Foundation
import Logging
import Testing

/// The two line formats: text for people (`key=value`, quoted when needed), JSON for collectors (numbers stay
/// numbers, the fixed members cannot be replaced by metadata).
struct LineLogHandlerTests {
    static let time = Date(timeIntervalSince1970: 1_795_976_436.123)  // 2026-11-29T18:20:36.123Z

    @Test func textLineHasTimeLevelLabelMessageAndSortedMetadata() {
        let line = LineLogHandler.line(
            format: .text, time: Self.time, level: .notice, label: "viewhost", message: "refused request",
            metadata: ["status": .stringConvertible(429), "reason": "too many sessions", "peer": "10.0.0.7"])
        #expect(
            line == #"2026-11-29T18:20:36.123Z notice viewhost: refused request peer=10.0.0.7 reason="too many sessions" status=429"#)
    }

    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"),
        (1_795_976_436.9996, "2026-11-29T18:20:37.000Z"),  // rounds to the next second
        (951_782_400.007, "2000-02-29T00:00:00.007Z"),
        (4_102_444_799.999, "2099-12-31T23:59:59.999Z"),
    ])
    func timestampsAreRFC3339InUTCWithMilliseconds(seconds: Double, expected: String) {
        let line = LineLogHandler.line(
            format: .text, time: Date(timeIntervalSince1970: seconds), level: .info, label: "l", message: "m",
            metadata: [:])
        #expect(line == "\(expected) info l: m")
    }

    @Test func textValuesThatNeedItAreQuoted() {
        let line = LineLogHandler.line(
            format: .text, time: Self.time, level: .info, label: "l", message: "m",
            metadata: ["empty": "", "equals": "a=b", "plain": "a-b", "count": .stringConvertible(7), "list": ["x", "y"]])
        #expect(line.hasSuffix(#" count=7 empty="" equals="a=b" list="[\"x\", \"y\"]" plain=a-b"#), "\(line)")
    }

    @Test func jsonLineKeepsNumbersAndEscapesStrings() throws {
        let line = LineLogHandler.line(
            format: .json, time: Self.time, level: .info, label: "viewhost", message: "request",
            metadata: [
                "status": .stringConvertible(200), "duration-ms": .stringConvertible(0.25), "route": "/v1/sessions",
                "message": "cannot replace the message", "note": "a \"quoted\"\nline",
            ])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["time"] as? String == "2026-11-29T18:20:36.123Z")
        #expect(object["level"] as? String == "info")
        #expect(object["logger"] as? String == "viewhost")
        #expect(object["message"] as? String == "request")
        #expect(object["status"] as? Int == 200)
        #expect(object["duration-ms"] as? Double == 0.25)
        #expect(object["note"] as? String == "a \"quoted\"\nline")
        #expect(!line.contains("\n"), "one entry, one line")
    }
}
