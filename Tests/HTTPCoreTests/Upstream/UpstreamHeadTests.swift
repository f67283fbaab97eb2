@testable import HTTPCore
import Testing

/// An upstream answer's head, read from its bytes: the status, what frames the body, and the fields passed on
/// (never the connection's, the framing's, or those each server writes itself).
struct UpstreamHeadTests {
    private func head(_ text: String) -> UpstreamHead? {
        Array(text.utf8).withUnsafeBytes { UpstreamHead($0) }
    }

    @Test func theStatusFramingAndPassedFieldsAreRead() throws {
        let read = try #require(head(
            "HTTP/1.1 200 OK\r\nDate: x\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: Chunked\r\n"
                + "Connection: keep-alive\r\nKeep-Alive: timeout=5\r\nX-Request-Id: abc\r\nETag:  \"4\" \r\n"))
        #expect(read.status.code == 200 && read.status.reasonPhrase == "OK")
        #expect(read.chunked && read.length == nil && !read.closes)
        #expect(read.headers.map { "\($0.name)=\($0.value)" } == ["Content-Type=text/event-stream", "ETag=\"4\""])
    }

    @Test func aLengthAndAClosingConnectionAreSeen() throws {
        let read = try #require(head("HTTP/1.1 404 Not Found\r\nContent-Length: 12\r\nConnection: close\r\n"))
        #expect(read.status.code == 404 && read.length == 12 && read.closes && !read.chunked)
        #expect(read.headers.isEmpty)
        #expect(try #require(head("HTTP/1.0 204 \r\n")).closes, "HTTP/1.0 closes after its answer")
    }

    @Test(arguments: ["HTTP/2 200 OK\r\n", "HTTP/1.1 2000 OK\r\n", "HTTP/1.1 099 x\r\n", "garbage\r\n", "HTTP/1.1 20x\r\n", ""])
    func aMalformedStatusLineIsRefused(_ text: String) {
        #expect(head(text) == nil)
    }

    @Test func aFieldWithBytesNoFieldMayHoldIsLeftOut() throws {
        let read = try #require(head("HTTP/1.1 200 OK\r\nGood: yes\r\nBad Name: x\r\nEvil: a\u{1}b\r\n"))
        #expect(read.headers.map(\.name) == ["Good"])
    }
}
