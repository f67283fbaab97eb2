import Foundation

/// Self-signed certificates made at test time with the `openssl` command (never committed): each call makes a
/// fresh key pair in a new temporary folder, with the serial number given so tests can tell pairs apart.
public struct TestCertificates: Sendable {
    /// The temporary folder holding `cert.pem` and `key.pem`; ``remove()`` deletes it.
    public let directory: URL
    /// The path of the PEM certificate.
    public var certificatePath: String { directory.appendingPathComponent("cert.pem").path }
    /// The path of the PEM private key.
    public var keyPath: String { directory.appendingPathComponent("key.pem").path }

    /// A new folder with `cert.pem` and `key.pem` for `CN=localhost`.
    public init(serial: Int = 1) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try await Self.make(serial: serial, certificate: certificatePath, key: keyPath)
    }

    /// Writes a new pair to the given paths (replacing what is there).
    public static func make(serial: Int, certificate: String, key: String) async throws {
        let result = try await ServerProcess.run(
            executable: "openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-subj", "/CN=localhost", "-days", "2", "-set_serial", "\(serial)",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                "-keyout", key, "-out", certificate,
            ])
        guard result.status == 0 else { throw FixtureError.openSSLFailed(result.stderr) }
    }

    /// Deletes the folder and both files.
    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Why the certificates could not be made: `openssl` failed, with what it wrote to standard error.
    public enum FixtureError: Error {
        case openSSLFailed(String)
    }
}
