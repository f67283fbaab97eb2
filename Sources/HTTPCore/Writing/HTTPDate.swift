#if canImport(Glibc)
import Glibc
#endif

/// The IMF-fixdate of the current second (RFC 9110 §5.6.7), formatted at most once per second per event loop.
struct HTTPDate {
    private var second: time_t = -1
    private(set) var bytes: [UInt8] = Array(repeating: 0, count: 29)

    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Refreshes the cached bytes when the second changed.
    mutating func update() {
        let now = time(nil)
        guard now != second else { return }
        second = now
        bytes = Self.format(now)
    }

    /// Formats `time` as `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func format(_ time: time_t) -> [UInt8] {
        var seconds = time
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var output: [UInt8] = []
        output.reserveCapacity(29)
        output.append(contentsOf: days[Int(parts.tm_wday)].utf8)
        output.append(contentsOf: ", ".utf8)
        appendTwoDigits(Int(parts.tm_mday), to: &output)
        output.append(UInt8(ascii: " "))
        output.append(contentsOf: months[Int(parts.tm_mon)].utf8)
        output.append(UInt8(ascii: " "))
        let year = Int(parts.tm_year) + 1900
        appendTwoDigits(year / 100, to: &output)
        appendTwoDigits(year % 100, to: &output)
        output.append(UInt8(ascii: " "))
        appendTwoDigits(Int(parts.tm_hour), to: &output)
        output.append(UInt8(ascii: ":"))
        appendTwoDigits(Int(parts.tm_min), to: &output)
        output.append(UInt8(ascii: ":"))
        appendTwoDigits(Int(parts.tm_sec), to: &output)
        output.append(contentsOf: " GMT".utf8)
        return output
    }

    private static func appendTwoDigits(_ value: Int, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "0") + UInt8(value / 10 % 10))
        output.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}
