import HTTPCore
import Testing

/// Header lists: case-insensitive names, every value in order, and values that cannot split a response.
struct HTTPHeadersTests {
    @Test func lookupIgnoresCase() {
        let headers: HTTPHeaders = ["Content-Type": "text/plain", "X-Request-Id": "abc"]
        #expect(headers["content-type"] == "text/plain")
        #expect(headers[.contentType] == "text/plain")
        #expect(headers["X-REQUEST-ID"] == "abc")
        #expect(headers["Accept"] == nil)
        #expect(headers.contains("x-request-id"))
        #expect(!headers.contains(.accept))
    }

    @Test func namesCompareAndHashIgnoringCase() {
        #expect(HTTPHeaderName("ETag") == HTTPHeaderName("etag"))
        #expect(Set<HTTPHeaderName>(["ETag", "etag", "ETAG"]).count == 1)
        #expect(HTTPHeaderName("ETag").rawName == "ETag", "the spelling is kept for writing")
    }

    @Test func valuesForReturnsEveryFieldInOrder() {
        var headers = HTTPHeaders()
        headers.add("Set-Cookie", "a=1")
        headers.add("Vary", "Accept")
        headers.add("set-cookie", "b=2, c=3")
        #expect(headers.values(for: .setCookie) == ["a=1", "b=2, c=3"], "lists are not split")
        #expect(headers[.setCookie] == "a=1", "the subscript gives the first")
        #expect(headers.values(for: "Missing").isEmpty)
    }

    @Test func iterationKeepsOrderAndSpelling() {
        let headers: HTTPHeaders = ["B": "2", "a": "1", "C": "3"]
        #expect(headers.map(\.name) == ["B", "a", "C"])
        #expect(headers.map(\.value) == ["2", "1", "3"])
    }

    @Test func setReplacesEveryField() {
        var headers: HTTPHeaders = ["Vary": "Accept", "X-A": "1", "vary": "Origin"]
        headers.set("VARY", "Accept-Encoding")
        #expect(headers.values(for: .vary) == ["Accept-Encoding"])
        #expect(headers["X-A"] == "1")
    }

    @Test func setAddsAMissingField() {
        var headers = HTTPHeaders()
        headers.set(.cacheControl, "no-store")
        #expect(headers[.cacheControl] == "no-store")
    }

    @Test func removeDropsEveryFieldOfThatName() {
        var headers: HTTPHeaders = ["Vary": "Accept", "X-A": "1", "vary": "Origin"]
        headers.remove("VARY")
        #expect(!headers.contains(.vary))
        #expect(headers.map(\.name) == ["X-A"])
        headers.remove("X-A")
        #expect(headers.isEmpty)
        headers.remove("Absent")
        #expect(headers.isEmpty)
    }

    /// Response splitting: a value with CR or LF must not start a field or end the head.
    @Test(arguments: [
        ("a\r\nSet-Cookie: evil=1", "a  Set-Cookie: evil=1"),
        ("a\nb", "a b"),
        ("a\rb", "a b"),
        ("a\u{0}b", "a b"),
        ("\r\n\r\n<html>", "<html>"),
    ])
    func addReplacesLineBreaksInValues(value: String, stored: String) {
        var headers = HTTPHeaders()
        headers.add("X-Echo", value)
        #expect(headers.values(for: "X-Echo") == [stored], "surrounding whitespace is trimmed on lookup")
        #expect(headers.map(\.name) == ["X-Echo"], "no field was injected")
        #expect(!headers.contains(.setCookie))
    }

    @Test func nameDropsNonTokenCharacters() {
        var headers = HTTPHeaders()
        headers.add(HTTPHeaderName("X-Bad\r\nName: x"), "v")
        #expect(headers.map(\.name) == ["X-BadNamex"])
    }

    @Test func descriptionListsFields() {
        let headers: HTTPHeaders = ["A": "1", "B": "2"]
        #expect(headers.description == "A: 1\nB: 2")
    }
}
