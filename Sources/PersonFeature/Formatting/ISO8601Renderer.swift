import Foundation
import ViewModelCore

/// Writes an instant as an ISO 8601 / RFC 3339 UTC date-time, `YYYY-MM-DDTHH:MM:SSZ`, with `.sss` milliseconds
/// only when they are not zero: the snapshot's `birthdate`, which ``BirthdateParser`` reads back to the same
/// instant (to the millisecond).
enum ISO8601Renderer {
    /// `date` in UTC, such as `1970-01-01T00:00:00Z` or `1990-05-17T08:30:00.250Z`.
    static func string(from date: Date) -> String {
        let milliseconds = GregorianDate.milliseconds(of: date)
        let seconds = GregorianDate.floorDivide(milliseconds, 1_000)
        let fraction = milliseconds - seconds * 1_000
        let civil = GregorianDate(localSeconds: seconds)
        let year =
            (0...9_999).contains(civil.year)
            ? BirthdateRenderer.padded(civil.year, width: 4) : (civil.year < 0 ? "" : "+") + String(civil.year)
        var text = year + "-" + two(civil.month) + "-" + two(civil.day)
        text += "T" + two(civil.hour) + ":" + two(civil.minute) + ":" + two(civil.second)
        if fraction != 0 { text += "." + BirthdateRenderer.padded(fraction, width: 3) }
        return text + "Z"
    }

    private static func two(_ value: Int) -> String {
        BirthdateRenderer.padded(value, width: 2)
    }
}
