import Foundation
import HTTPCore
import HTTPTLS
import Testing
import TestSupport

/// Loading and reloading the certificate and key: every failure names the file and keeps what worked.
@Suite struct TLSContextTests {
    @Test func missingFileIsNamedWithExitCode66() async throws {
        let certificates = try await TestCertificates()
        defer { certificates.remove() }
        let missing = certificates.directory.appendingPathComponent("nope.pem").path
        #expect(throws: TLSError.unreadableFile(path: missing, reason: "no such file")) {
            _ = try TLSContext(configuration: .init(certificatePath: missing, keyPath: certificates.keyPath))
        }
        #expect(TLSError.unreadableFile(path: missing, reason: "").exitCode == 66)
        let directory = certificates.directory.path
        #expect(throws: TLSError.unreadableFile(path: directory, reason: "is a directory")) {
            _ = try TLSContext(configuration: .init(certificatePath: directory, keyPath: certificates.keyPath))
        }
    }

    @Test func mismatchedPairIsRefusedWithExitCode78() async throws {
        let first = try await TestCertificates(serial: 1)
        let second = try await TestCertificates(serial: 2)
        defer {
            first.remove()
            second.remove()
        }
        let error = #expect(throws: TLSError.self) {
            _ = try TLSContext(configuration: .init(certificatePath: first.certificatePath, keyPath: second.keyPath))
        }
        guard case .keyMismatch(let certificate, let key, let reason) = error else {
            Issue.record("expected keyMismatch, got \(String(describing: error))")
            return
        }
        #expect(certificate == first.certificatePath)
        #expect(key == second.keyPath)
        #expect(!reason.isEmpty)
        #expect(error?.exitCode == 78)
    }

    @Test func garbageCertificateIsNamed() async throws {
        let certificates = try await TestCertificates()
        defer { certificates.remove() }
        try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: certificates.certificatePath))
        let error = #expect(throws: TLSError.self) {
            _ = try TLSContext(
                configuration: .init(certificatePath: certificates.certificatePath, keyPath: certificates.keyPath))
        }
        guard case .invalidCertificate(let path, _) = error else {
            Issue.record("expected invalidCertificate, got \(String(describing: error))")
            return
        }
        #expect(path == certificates.certificatePath)
        #expect(error?.description.contains(certificates.certificatePath) == true)
    }

    @Test func reloadSwapsThePairWithoutDroppingOpenConnections() async throws {
        let server = try await TLSTestServer()
        let port = server.port
        let open = try await blocking {
            let client = try TLSTestClient(port: port)
            try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try client.readResponse()
            return client
        }
        #expect(open.peerSerial == 1)
        try await TestCertificates.make(
            serial: 2, certificate: server.certificates.certificatePath, key: server.certificates.keyPath)
        try server.tls.reload()
        let (newSerial, oldStillServes) = try await blocking {
            let fresh = try TLSTestClient(port: port)
            try open.send("GET /items/7 HTTP/1.1\r\nHost: x\r\n\r\n")
            return (fresh.peerSerial, try open.readResponse().text)
        }
        #expect(newSerial == 2)
        #expect(oldStillServes == "item 7")
        await server.stop()
    }

    @Test func badReloadKeepsTheOldPair() async throws {
        let server = try await TLSTestServer()
        let before = server.tls.certificateSummary
        let other = try await TestCertificates(serial: 9)
        defer { other.remove() }
        // A new certificate whose key is elsewhere: the pair no longer matches.
        try FileManager.default.removeItem(atPath: server.certificates.certificatePath)
        try FileManager.default.copyItem(atPath: other.certificatePath, toPath: server.certificates.certificatePath)
        #expect(throws: TLSError.self) { try server.tls.reload() }
        #expect(server.tls.certificateSummary == before)
        let port = server.port
        let serial = try await blocking { try TLSTestClient(port: port).peerSerial }
        #expect(serial == 1)
        await server.stop()
    }
}
