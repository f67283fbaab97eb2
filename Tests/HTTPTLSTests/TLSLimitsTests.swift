import COpenSSL
import Foundation
import HTTPCore
import HTTPTLS
import Testing
import TestSupport

/// TLS under the server's limits and across reloads: a connection over the limit is told `503` (after its
/// handshake, so it can read it), and sessions resume across a reload of the certificate (SIGHUP).
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct TLSLimitsTests {
    @Test func connectionOverTheLimitGets503AfterItsHandshake() async throws {
        let server = try await TLSTestServer(maxConnections: 1)
        let port = server.port
        let holder = try await blocking {
            let client = try TLSTestClient(port: port)
            try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try client.readResponse()
            return client
        }
        #expect(await server.waitForOpenConnections(1))
        let refused = try await blocking {
            let client = try TLSTestClient(port: port)
            return try client.readResponse()
        }
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "1")
        #expect(refused.header("Content-Type") == "application/problem+json")
        #expect(refused.header("Connection") == "close")
        let stillServed = try await blocking {
            try holder.send("GET /items/3 HTTP/1.1\r\nHost: x\r\n\r\n")
            return try holder.readResponse().text
        }
        #expect(stillServed == "item 3", "the connection under the limit is not disturbed")
        await server.stop()
    }

    @Test(arguments: [TLS1_2_VERSION, TLS1_3_VERSION])
    func sessionsResumeAcrossAReload(version: Int32) async throws {
        let server = try await TLSTestServer()
        let port = server.port
        // The first connection stays open until the second has resumed: a client that frees a connection without
        // a TLS shutdown marks its session not resumable, which would test the client, not the server.
        let (first, saved) = try await blocking { () throws -> (TLSTestClient, SessionBox?) in
            let first = try TLSTestClient(port: port, versions: version...version)
            try first.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try first.readResponse()  // TLS 1.3 tickets arrive after the handshake, with the first data
            return (first, first.session().map(SessionBox.init))
        }
        let box = try #require(saved)
        defer { SSL_SESSION_free(box.session) }
        try await TestCertificates.make(
            serial: 2, certificate: server.certificates.certificatePath, key: server.certificates.keyPath)
        try server.tls.reload()
        let (resumed, serial) = try await blocking {
            let second = try TLSTestClient(port: port, versions: version...version, session: box.session)
            try second.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try second.readResponse()
            return (second.resumed, second.peerSerial)
        }
        #expect(resumed, "the ticket from before the reload is accepted after it")
        #expect(serial == 1, "a resumed session keeps the certificate it was made with")
        withExtendedLifetime(first) {}
        let fresh = try await blocking { try TLSTestClient(port: port, versions: version...version).peerSerial }
        #expect(fresh == 2, "a full handshake gets the new certificate")
        await server.stop()
    }
}

/// Carries an `SSL_SESSION` pointer into a blocking closure (the test owns it and frees it after).
private final class SessionBox: @unchecked Sendable {
    let session: OpaquePointer
    init(_ session: OpaquePointer) { self.session = session }
}
