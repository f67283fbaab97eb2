import Foundation
import ViewModelCore

/// Renders a birthdate the way the original does, `"EEEE MMMM d, yyyy"` (seed 003, `birthdateText`), with
/// `en_US_POSIX` names, in the session's time zone.
///
/// The original's `DateFormatter` used the device's locale and time zone, so its own test, epoch 0 →
/// "Thursday January 1, 1970", only passed in UTC or east of it; a US zone gives "Wednesday December 31, 1969"
/// (quirk fixed: the session's zone is used, UTC by default, and the names are always English). It is written
/// without `DateFormatter`, which is slow to make, not `Sendable`, and Julian before 1582 (see ``GregorianDate``).
///
/// ```swift
/// BirthdateRenderer(timeZone: .gmt).string(from: Date(timeIntervalSince1970: 0))   // "Thursday January 1, 1970"
/// ```
struct BirthdateRenderer: Sendable {
    private static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// The zone dates are shown in.
    let timeZone: TimeZone

    /// `date` as `EEEE MMMM d, yyyy`: the weekday and month in full, the day without padding, the year with at
    /// least four digits (years outside 1…9999, which the parser never gives, print signed and unpadded).
    func string(from date: Date) -> String {
        let milliseconds = GregorianDate.milliseconds(of: date)
        let seconds = GregorianDate.floorDivide(milliseconds, 1_000)
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))
        let civil = GregorianDate(localSeconds: seconds + offset)
        let year = (1...9_999).contains(civil.year) ? Self.padded(civil.year, width: 4) : String(civil.year)
        return "\(Self.weekdays[civil.weekday]) \(Self.months[civil.month - 1]) \(civil.day), \(year)"
    }

    /// `value` (non-negative) with leading zeros up to `width` digits.
    static func padded(_ value: Int, width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
