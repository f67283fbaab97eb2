import Foundation

/// A proleptic-Gregorian calendar date and time of day, converted to and from seconds since 1970-01-01 with
/// Howard Hinnant's `days_from_civil` / `civil_from_days` arithmetic (exact for every day count, no tables).
///
/// It is the pure core of the features' date parsers and renderers (chat's message dates, person's birthdates),
/// so none of them needs a `DateFormatter` (slow to make, not safe to share) and all agree on every date: ISO 8601
/// is proleptic Gregorian, whereas `DateFormatter`'s Gregorian calendar switches to Julian before 15 October 1582.
public struct GregorianDate: Equatable, Sendable {
    /// The year, astronomical numbering: 0 is 1 BC, negative years before it.
    public var year: Int
    /// The month, 1 to 12.
    public var month: Int
    /// The day of the month, from 1.
    public var day: Int
    /// The hour, 0 to 23.
    public var hour: Int
    /// The minute, 0 to 59.
    public var minute: Int
    /// The second, 0 to 59 (no leap seconds: time since 1970 has none).
    public var second: Int

    /// A date from its parts (not validated; see ``isValid``).
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The civil date of `seconds` local seconds since 1970-01-01 00:00:00 (negative before it).
    public init(localSeconds seconds: Int) {
        let days = Self.floorDivide(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let shifted = days + 719_468
        let era = Self.floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        hour = secondOfDay / 3_600
        minute = secondOfDay % 3_600 / 60
        second = secondOfDay % 60
    }

    /// Whether every part is in range (hours 0…23, no leap second).
    public var isValid: Bool {
        (1...12).contains(month) && (1...Self.daysInMonth(month, of: year)).contains(day)
            && (0...23).contains(hour) && (0...59).contains(minute) && (0...59).contains(second)
    }

    /// Days since 1970-01-01 of this date.
    public var daysSince1970: Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = Self.floorDivide(shiftedYear, 400)
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Local seconds since 1970-01-01 00:00:00 of this date and time.
    public var localSeconds: Int {
        daysSince1970 * 86_400 + hour * 3_600 + minute * 60 + second
    }

    /// The day of the week: 0 is Sunday, 6 Saturday (1970-01-01 was a Thursday).
    public var weekday: Int {
        let remainder = (daysSince1970 + 4) % 7
        return remainder < 0 ? remainder + 7 : remainder
    }

    /// The number of days of `month` in `year` (leap years: every 4th, not every 100th, every 400th).
    public static func daysInMonth(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Whole milliseconds since 1970 of `date`, rounded to the nearest as `DateFormatter` does (so 02:14:59.9996
    /// shows as 02:15); dates beyond ±285,000 years are clamped so the arithmetic never traps.
    public static func milliseconds(of date: Date) -> Int {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite else { return 0 }
        return Int((max(min(interval, 9e12), -9e12) * 1_000).rounded())
    }

    /// `value / divisor` rounded towards minus infinity.
    public static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }
}
