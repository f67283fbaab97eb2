import ArgumentParser
import Foundation
import ViewHost
import ViewHostClient

/// The options every `viewhost client` command shares: where the server is, which session, how to print.
struct ClientOptions: ParsableArguments {
    @Option(help: "The server's base URL (default: $VIEWHOST_SERVER, else http://127.0.0.1:8080).")
    var server: String?

    @Option(help: "The session's id (default: $VIEWHOST_SESSION).")
    var session: String?

    @Option(help: "The session's token (default: $VIEWHOST_TOKEN).")
    var token: String?

    @Flag(help: "Print JSON for scripts instead of text for people.")
    var json = false

    @Option(help: "Seconds a request may go without receiving anything before it fails (default 60).")
    var timeout: Double = 60

    func validate() throws {
        guard timeout > 0, timeout <= 86_400 else {
            throw ValidationError("--timeout must be more than 0 and at most 86400 seconds")
        }
    }

    private static var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// The client of the chosen server.
    func client() throws -> ViewHostClient {
        let text = server ?? Self.environment["VIEWHOST_SERVER"] ?? "http://127.0.0.1:8080"
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil
        else {
            throw ClientFailure.usage("--server '\(text)' is not an http:// or https:// URL")
        }
        var configuration = ViewHostClient.Configuration()
        configuration.idleTimeout = .milliseconds(Int64((timeout * 1000).rounded()))
        return ViewHostClient(baseURL: url, configuration: configuration)
    }

    /// The chosen session, reopened from its id and token.
    func openSession() throws -> ViewHostSession {
        guard let id = session ?? Self.environment["VIEWHOST_SESSION"], !id.isEmpty else {
            throw ClientFailure.usage(
                "no session: give --session ID or set VIEWHOST_SESSION (see 'viewhost client session new')")
        }
        guard id.utf8.count == 26, id.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) })
        else {
            throw ClientFailure.usage("'\(id)' is not a session id (26 lowercase letters and digits)")
        }
        guard let token = token ?? Self.environment["VIEWHOST_TOKEN"], !token.isEmpty else {
            throw ClientFailure.usage("no token: give --token TOKEN or set VIEWHOST_TOKEN")
        }
        return try client().session(id: id, token: token)
    }

    /// `name` when it can be a feature's name (a letter, then letters, digits, `-` or `_`; at most 64), so nothing
    /// but a name ever goes into a request's path.
    static func feature(_ name: String) throws(ClientFailure) -> String {
        let bytes = Array(name.utf8)
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        guard let first = bytes.first, isLetter(first), bytes.count <= 64,
            bytes.allSatisfy({ isLetter($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x5F })
        else {
            throw .usage("'\(name)' is not a feature name (a letter, then letters, digits, '-' or '_')")
        }
        return name
    }
}
