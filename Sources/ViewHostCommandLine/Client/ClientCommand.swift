import ArgumentParser
import ViewHost

/// `viewhost client …`: a command-line client of a running server, built on the ViewHostClient library.
struct ClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client",
        abstract: "Talk to a running ViewHost server: create a session, read snapshots, send events, watch changes.",
        discussion: """
            The server, session and token come from --server, --session and --token, or from VIEWHOST_SERVER, \
            VIEWHOST_SESSION and VIEWHOST_TOKEN. Output is for people unless --json is given. Exit codes follow \
            sysexits(3): 64 usage, 65 the server refused the input (400, 413, 415, 422, and 409: not in this \
            state), 67 no such session (404, 410), 69 the server is unreachable or failed (5xx), 75 try again \
            later (429, 503, a 409 with Retry-After), 76 an answer the client does not understand (not the \
            API's, or larger than 16 MiB), 77 not allowed (401, 403).
            """,
        subcommands: [ClientSessionCommand.self, ClientGet.self, ClientSend.self, ClientActions.self, ClientWatch.self]
    )

    /// Without a subcommand: the help, on stderr, as a usage error.
    func run() async throws {
        try ClientFailure.helpAsUsageError(Self.self)
    }
}
