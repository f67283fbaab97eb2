import Foundation
import ViewModelCore

/// Renders message dates the one way the original does: `dd-MM-yyyy HH:mm`, in the session's time zone.
///
/// Mirrors the original (seed 001, `Views/DateRenderer.swift`): one fixed format, no today/yesterday/weekday
/// logic. The original used the device's time zone; a session has its own (UTC by default). It is written
/// without `DateFormatter` (which is slow to make and not thread-safe to share): the zone's offset for that
/// instant plus ``GregorianDate`` arithmetic. Like `DateFormatter`, the instant is rounded to the millisecond,
/// then seconds are cut.
///
/// ```swift
/// DateRenderer(timeZone: .gmt).string(from: Date(timeIntervalSince1970: 0))   // "01-01-1970 00:00"
/// ```
struct DateRenderer: Sendable {
    /// The zone dates are shown in.
    let timeZone: TimeZone
    /// The zone's offset when it never changes (GMT/UTC), so the common case skips the zone lookup.
    private let fixedOffset: Int?

    /// A renderer for `timeZone`.
    init(timeZone: TimeZone) {
        self.timeZone = timeZone
        let identifier = timeZone.identifier
        fixedOffset = identifier == "GMT" || identifier == "UTC" ? timeZone.secondsFromGMT() : nil
    }

    /// `date` as `dd-MM-yyyy HH:mm`.
    func string(from date: Date) -> String {
        let seconds = GregorianDate.floorDivide(GregorianDate.milliseconds(of: date), 1_000)
        let offset = fixedOffset ?? timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))
        let civil = GregorianDate(localSeconds: seconds + offset)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        Self.append(civil.day, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        Self.append(civil.month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        if (0...9_999).contains(civil.year) {
            Self.append(civil.year, width: 4, to: &bytes)
        } else {
            bytes.append(contentsOf: Array(String(civil.year).utf8))
        }
        bytes.append(UInt8(ascii: " "))
        Self.append(civil.hour, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        Self.append(civil.minute, width: 2, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func append(_ value: Int, width: Int, to bytes: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}
