import ArgumentParser
import Foundation
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

    private static var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// The client of the chosen server.
    func client() throws -> ViewHostClient {
        let text = server ?? Self.environment["VIEWHOST_SERVER"] ?? "http://127.0.0.1:8080"
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil
        else {
            throw ClientFailure.usage("--server '\(text)' is not an http:// or https:// URL")
        }
        return ViewHostClient(baseURL: url)
    }

    /// The chosen session, reopened from its id and token.
    func openSession() throws -> ViewHostSession {
        guard let id = session ?? Self.environment["VIEWHOST_SESSION"], !id.isEmpty else {
            throw ClientFailure.usage(
                "no session: give --session ID or set VIEWHOST_SESSION (see 'viewhost client session new')")
        }
        guard let token = token ?? Self.environment["VIEWHOST_TOKEN"], !token.isEmpty else {
            throw ClientFailure.usage("no token: give --token TOKEN or set VIEWHOST_TOKEN")
        }
        return try client().session(id: id, token: token)
    }
}
