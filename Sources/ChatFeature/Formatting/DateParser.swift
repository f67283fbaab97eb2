import Foundation
import ViewModelCore

/// Reads a `dd-MM-yyyy HH:mm` string back into a date in the session's time zone: the push path turns a
/// notification's subtitle into the message's send date this way.
///
/// Mirrors the original (seed 001, `Models/DateParser.swift`): same format, so the seconds are lost
/// (quirk kept: a pushed reply's date is the start of its minute). Anything else gives nil, and the caller
/// falls back to now, as the original does.
struct DateParser: Sendable {
    /// The zone the strings were rendered in.
    let timeZone: TimeZone

    /// The date `string` names, or nil when it is not exactly `dd-MM-yyyy HH:mm` with valid parts.
    func date(from string: String) -> Date? {
        let bytes = Array(string.utf8)
        guard bytes.count == 16, bytes[2] == UInt8(ascii: "-"), bytes[5] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: " "), bytes[13] == UInt8(ascii: ":"),
            let day = Self.number(bytes[0..<2]), let month = Self.number(bytes[3..<5]),
            let year = Self.number(bytes[6..<10]), let hour = Self.number(bytes[11..<13]),
            let minute = Self.number(bytes[14..<16])
        else { return nil }
        let civil = GregorianDate(year: year, month: month, day: day, hour: hour, minute: minute)
        guard civil.isValid else { return nil }
        let local = civil.localSeconds
        // The offset depends on the instant, which depends on the offset: one correction step settles it
        // everywhere except inside a DST gap or overlap, where either reading is acceptable.
        let guess = local - timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(local)))
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(guess)))
        return Date(timeIntervalSince1970: Double(local - offset))
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }
}
