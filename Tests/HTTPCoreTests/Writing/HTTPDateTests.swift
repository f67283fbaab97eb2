import Testing

@testable import HTTPCore

/// The IMF-fixdate of RFC 9110 §5.6.7; `HTTPDate` is internal to the writer, hence `@testable`.
struct HTTPDateTests {
    @Test(arguments: [
        (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),  // the example of RFC 9110 §5.6.7
        (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
        (1_735_689_599, "Tue, 31 Dec 2024 23:59:59 GMT"),
        (4_102_444_800, "Fri, 01 Jan 2100 00:00:00 GMT"),
    ])
    func knownTimeIsFormatted(time: Int, expected: String) {
        let bytes = HTTPDate.format(time)
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        #expect(bytes.count == 29)
    }

    @Test func updateFillsTheCurrentDate() {
        var date = HTTPDate()
        date.update()
        let text = String(decoding: date.bytes, as: UTF8.self)
        #expect(text.count == 29)
        #expect(text.hasSuffix(" GMT"))
        #expect(text.dropFirst(3).hasPrefix(", "))
    }
}
