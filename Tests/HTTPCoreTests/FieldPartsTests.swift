import HTTPCore
import Testing

/// Header lists split on bytes: a combining mark after a separator must not hide it (found by HeaderValuesFuzzer:
/// `If-None-Match: "v7",\u{6D6}…` lost its listed tag, because `,\u{6D6}` is one Character).
struct FieldPartsTests {
    @Test func aCombiningMarkAfterACommaDoesNotHideIt() {
        let value = "\"v7-0123abcd\",\u{6D6}x, W/\"v8\""
        #expect(value.split(separator: ",").count == 2, "a Character split misses the first comma")
        #expect(value.fieldParts(separatedBy: UInt8(ascii: ",")).map { String($0.trimmingOWS()) }
            == ["\"v7-0123abcd\"", "\u{6D6}x", "W/\"v8\""])
    }

    @Test func emptyPartsAreKeptOnlyWhenAsked() {
        #expect("a,,b".fieldParts(separatedBy: UInt8(ascii: ",")) == ["a", "b"])
        #expect("a,,b".fieldParts(separatedBy: UInt8(ascii: ","), omittingEmpty: false) == ["a", "", "b"])
        #expect("k=v; \u{301}m=n".fieldParts(separatedBy: UInt8(ascii: ";")).count == 2)
    }
}
