import Foundation
import ViewModelCore

/// Reads the birthdate a client posts with `setPerson`: an ISO 8601 calendar date or an RFC 3339 date-time.
/// The app layer answers `422` naming the `birthdate` field when this gives nil.
///
/// Accepted, and nothing else (no surrounding spaces, ASCII digits only, upper-case `T` and `Z`):
/// - `YYYY-MM-DD`, as midnight UTC (so a session zone west of UTC shows the day before, as it should for that
///   instant);
/// - `YYYY-MM-DDTHH:MM:SS` followed by `Z` or an offset `±HH:MM`, optionally with a fraction `.F` of one to nine
///   digits before the zone.
///
/// Rejected: years outside 0001…9999, impossible dates (`2023-02-30`, `2023-02-29`), hours over 23 (also
/// `24:00:00`), minutes or seconds over 59 (also the leap second `:60`), offsets over 23:59, a date-time without
/// a zone (a birthdate needs an instant), week and ordinal dates, basic (compact) forms, a comma as the decimal
/// sign, and anything longer than 35 bytes, which is checked first so a long input costs nothing.
///
/// ```swift
/// BirthdateParser.parse("1970-01-01")                  // 0
/// BirthdateParser.parse("1969-12-31T19:00:00-05:00")   // 0
/// BirthdateParser.parse("2023-02-30")                  // nil
/// ```
public enum BirthdateParser {
    /// The longest accepted text: `YYYY-MM-DDTHH:MM:SS.FFFFFFFFF+HH:MM`.
    private static let maximumLength = 35

    /// The instant `text` names, or nil when it is not one of the accepted forms with valid parts.
    /// - Parameter text: The posted birthdate.
    /// - Returns: The instant, or nil.
    public static func parse(_ text: String) -> Date? {
        let count = text.utf8.count
        guard count == 10 || (20...maximumLength).contains(count) else { return nil }
        var text = text
        return text.withUTF8 { bytes in
            var reader = Reader(bytes: bytes)
            return parse(&reader)
        }
    }

    private static func parse(_ reader: inout Reader) -> Date? {
        guard let year = reader.number(digits: 4), reader.skip("-"), let month = reader.number(digits: 2),
            reader.skip("-"), let day = reader.number(digits: 2), year >= 1
        else { return nil }
        var civil = GregorianDate(year: year, month: month, day: day)
        guard reader.skip("T") else {
            guard reader.atEnd, civil.isValid else { return nil }
            return Date(timeIntervalSince1970: Double(civil.localSeconds))
        }
        guard let hour = reader.number(digits: 2), reader.skip(":"), let minute = reader.number(digits: 2),
            reader.skip(":"), let second = reader.number(digits: 2)
        else { return nil }
        civil.hour = hour
        civil.minute = minute
        civil.second = second
        guard civil.isValid else { return nil }
        var nanoseconds = 0
        if reader.peek == UInt8(ascii: ".") {
            reader.advance()
            guard let fraction = reader.fraction() else { return nil }
            nanoseconds = fraction
        }
        guard let offset = reader.zoneOffset(), reader.atEnd else { return nil }
        return Date(timeIntervalSince1970: Double(civil.localSeconds - offset) + Double(nanoseconds) / 1e9)
    }
}

/// A one-pass reader over the UTF-8 bytes of a short text (valid only inside `withUTF8`).
private struct Reader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The next byte, or nil at the end.
    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    var atEnd: Bool { index >= bytes.count }

    mutating func advance() {
        index += 1
    }

    /// Consumes `character` if it comes next.
    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard peek == UInt8(ascii: character) else { return false }
        advance()
        return true
    }

    /// Exactly `digits` ASCII digits as a number.
    mutating func number(digits: Int) -> Int? {
        var value = 0
        for _ in 0..<digits {
            guard let digit = digitValue() else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    /// One to nine digits after the decimal point, as nanoseconds.
    mutating func fraction() -> Int? {
        var value = 0
        var count = 0
        while let digit = digitValue() {
            count += 1
            guard count <= 9 else { return nil }
            value = value * 10 + digit
        }
        guard count > 0 else { return nil }
        for _ in count..<9 { value *= 10 }
        return value
    }

    /// `Z` (0) or `±HH:MM` as seconds east of UTC.
    mutating func zoneOffset() -> Int? {
        if skip("Z") { return 0 }
        let sign: Int
        if skip("+") {
            sign = 1
        } else if skip("-") {
            sign = -1
        } else {
            return nil
        }
        guard let hours = number(digits: 2), skip(":"), let minutes = number(digits: 2), hours <= 23, minutes <= 59
        else { return nil }
        return sign * (hours * 3_600 + minutes * 60)
    }

    private mutating func digitValue() -> Int? {
        guard let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        advance()
        return Int(byte - UInt8(ascii: "0"))
    }
}
