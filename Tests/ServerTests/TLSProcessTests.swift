import Foundation
import Testing
import TestSupport

/// HTTPS on the real `viewhost` binary: the readiness line, curl over TLS, SIGHUP reloads, and the exit codes
/// of certificate mistakes.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct TLSProcessTests {
    /// How long a signal's effect may take to show (it is handled asynchronously, and CI machines are busy).
    static let signalTimeout: Duration = .seconds(20)

    @Test func httpsReadinessLineAndCurl() async throws {
        let certificates = try await TestCertificates()
        defer { certificates.remove() }
        let server = try await ServerProcess(arguments: [
            "serve", "--port", "0", "--tls-cert", certificates.certificatePath, "--tls-key", certificates.keyPath,
        ])
        #expect(server.readinessLine == "viewhost listening on https://127.0.0.1:\(server.port)")
        let result = try await ServerProcess.run(
            executable: "curl", ["-sS", "--insecure", "https://127.0.0.1:\(server.port)/healthz"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""status":"ok""#))
        let plain = try HTTPTestClient(port: server.port)
        try plain.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await plain.readResponse().status == 400)
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }

    @Test func sighupReloadsThePairAndABadPairKeepsTheOld() async throws {
        let certificates = try await TestCertificates(serial: 1)
        defer { certificates.remove() }
        let server = try await ServerProcess(arguments: [
            "serve", "--port", "0", "--tls-cert", certificates.certificatePath, "--tls-key", certificates.keyPath,
        ])
        #expect(try await servedSerial(port: server.port) == "01")
        try await TestCertificates.make(serial: 2, certificate: certificates.certificatePath, key: certificates.keyPath)
        server.send(signal: SIGHUP)
        #expect(try await eventually(timeout: Self.signalTimeout, interval: .milliseconds(100)) {
            try await servedSerial(port: server.port) == "02"
        })
        #expect(await eventually(timeout: Self.signalTimeout) {
            server.standardErrorText().contains("reloaded the TLS certificate")
        })

        let other = try await TestCertificates(serial: 3)
        defer { other.remove() }
        try FileManager.default.removeItem(atPath: certificates.certificatePath)
        try FileManager.default.copyItem(atPath: other.certificatePath, toPath: certificates.certificatePath)
        server.send(signal: SIGHUP)
        #expect(await eventually(timeout: Self.signalTimeout) {
            server.standardErrorText().contains("TLS reload failed")
        })
        #expect(try await servedSerial(port: server.port) == "02")
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }

    @Test func missingCertificateExits66NamingTheFile() async throws {
        let certificates = try await TestCertificates()
        defer { certificates.remove() }
        let missing = certificates.directory.appendingPathComponent("missing.pem").path
        let result = try await ServerProcess.run([
            "serve", "--port", "0", "--tls-cert", missing, "--tls-key", certificates.keyPath,
        ])
        #expect(result.status == 66)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains(missing))
    }

    @Test func mismatchedKeyExits78AndOneTLSFlagAloneToo() async throws {
        let first = try await TestCertificates(serial: 1)
        let second = try await TestCertificates(serial: 2)
        defer {
            first.remove()
            second.remove()
        }
        let mismatched = try await ServerProcess.run([
            "serve", "--port", "0", "--tls-cert", first.certificatePath, "--tls-key", second.keyPath,
        ])
        #expect(mismatched.status == 78)
        #expect(mismatched.stderr.contains(second.keyPath))
        let alone = try await ServerProcess.run(["serve", "--port", "0", "--tls-cert", first.certificatePath])
        #expect(alone.status == 78)
        #expect(alone.stderr.contains("tls.keyPath"))
    }

    /// The serial number (hex) of the certificate the server presents, read with `openssl s_client` and
    /// `openssl x509`.
    private func servedSerial(port: Int) async throws -> String {
        let handshake = try await ServerProcess.run(
            executable: "openssl", ["s_client", "-connect", "127.0.0.1:\(port)", "-no_ign_eof"])
        guard let start = handshake.stdout.range(of: "-----BEGIN CERTIFICATE-----"),
            let end = handshake.stdout.range(of: "-----END CERTIFICATE-----")
        else { return "none" }
        let pem = String(handshake.stdout[start.lowerBound..<end.upperBound]) + "\n"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("served-\(UUID()).pem")
        try Data(pem.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let serial = try await ServerProcess.run(executable: "openssl", ["x509", "-in", file.path, "-noout", "-serial"])
        return serial.stdout.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "serial=", with: "")
    }
}
