import COpenSSL
import Foundation
import HTTPCore
import HTTPTLS
import Testing
import TestSupport

/// Handshakes: which versions and options the server accepts, checked with our own OpenSSL client and with the
/// `openssl s_client` and `curl` commands users judge servers by.
@Suite struct TLSHandshakeTests {
    @Test(arguments: [(TLS1_2_VERSION, "TLSv1.2"), (TLS1_3_VERSION, "TLSv1.3")])
    func versionHandshakesAndServesWithALPN(version: Int32, name: String) async throws {
        let server = try await TLSTestServer()
        let port = server.port
        let (negotiated, alpn, status, text) = try await blocking {
            let client = try TLSTestClient(port: port, versions: version...version)
            try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try client.readResponse()
            return (client.version, client.negotiatedProtocol, response.status, response.text)
        }
        #expect(negotiated == name)
        #expect(alpn == "http/1.1")
        #expect(status == 200)
        #expect(text == "hello")
        await server.stop()
    }

    @Test func clientOfferingOnlyH2GetsNoALPNButIsServed() async throws {
        let server = try await TLSTestServer()
        let port = server.port
        let (alpn, status) = try await blocking {
            let client = try TLSTestClient(port: port, alpn: ["h2"])
            try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            return (client.negotiatedProtocol, try client.readResponse().status)
        }
        #expect(alpn == nil)
        #expect(status == 200)
        await server.stop()
    }

    @Test(arguments: ["-tls1_2", "-tls1_3"])
    func opensslClientHandshakes(flag: String) async throws {
        let server = try await TLSTestServer()
        let result = try await sClient([flag, "-alpn", "http/1.1"], port: server.port)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("ALPN protocol: http/1.1"), "\(result.stdout)")
        #expect(result.stdout.contains("Compression: NONE"))
        // The server's order (Mozilla "intermediate"): AES-128-GCM first in both versions.
        #expect(
            result.stdout.contains(
                flag == "-tls1_2" ? "New, TLSv1.2, Cipher is ECDHE-ECDSA-AES128-GCM-SHA256" : "New, TLSv1.3, Cipher is TLS_AES_128_GCM_SHA256"),
            "\(result.stdout)")
        await server.stop()
    }

    /// TLS 1.1 and 1.0 are refused by the server (the client's own security level is lowered, so the refusal
    /// is the server's).
    @Test(arguments: ["-tls1_1", "-tls1"])
    func oldVersionsAreRefused(flag: String) async throws {
        let server = try await TLSTestServer()
        let result = try await sClient([flag, "-cipher", "DEFAULT@SECLEVEL=0"], port: server.port)
        #expect(result.status != 0)
        #expect(
            result.stderr.contains("protocol version") || result.stderr.contains("unsupported protocol")
                || result.stdout.contains("Cipher is (NONE)"),
            "\(result.stderr)")
        await server.stop()
    }

    @Test func renegotiationIsRefused() async throws {
        let server = try await TLSTestServer()
        let port = server.port
        let (renegotiated, status) = try await blocking {
            let client = try TLSTestClient(port: port, versions: TLS1_2_VERSION...TLS1_2_VERSION)
            let renegotiated = client.renegotiate()
            let status = try? { () throws -> Int in
                try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                return try client.readResponse().status
            }()
            return (renegotiated, status)
        }
        #expect(!renegotiated)
        #expect(status != 200 || status == nil || !renegotiated)
        await server.stop()
    }

    @Test func curlWithTLS12AndTLS13() async throws {
        let server = try await TLSTestServer()
        for flags in [["--tlsv1.2", "--tls-max", "1.2"], ["--tlsv1.3"]] {
            let result = try await ServerProcess.run(
                executable: "curl",
                ["-sS", "-v", "--insecure"] + flags + ["https://127.0.0.1:\(server.port)/hello"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "hello")
            #expect(result.stderr.contains("ALPN: server accepted http/1.1") || result.stderr.contains("ALPN, server accepted to use http/1.1"), "\(result.stderr)")
        }
        await server.stop()
    }

    @Test(arguments: [TLS1_2_VERSION, TLS1_3_VERSION])
    func sessionsResume(version: Int32) async throws {
        let server = try await TLSTestServer()
        let port = server.port
        let resumed = try await blocking {
            let first = try TLSTestClient(port: port, versions: version...version)
            try first.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try first.readResponse()  // TLS 1.3 tickets arrive after the handshake, with the first data
            guard let session = first.session() else { return false }
            defer { SSL_SESSION_free(session) }
            let second = try TLSTestClient(port: port, versions: version...version, session: session)
            try second.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try second.readResponse()
            return second.resumed
        }
        #expect(resumed)
        await server.stop()
    }

    private func sClient(_ flags: [String], port: Int) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ServerProcess.run(
            executable: "openssl", ["s_client", "-connect", "127.0.0.1:\(port)", "-no_ign_eof"] + flags)
    }
}
