/// The parts of the README whose `console` blocks a test of `ReadmeExamplesTests` pastes. Every block belongs to
/// exactly one part (`everyConsoleBlockIsPastedByATest`), so a block added to the README is either in a part a test
/// pastes in full (a new block of "Try it" runs with the others) or fails that test until a test pastes it.
enum ReadmeExample: CaseIterable {
    /// "Try it", from Basics to ending a session: one shell, in order, against one server started as the README
    /// starts it. The `--port 0` block, which starts a second server, is a part of its own.
    case tryIt
    /// `viewhost serve --port 0` and its readiness line.
    case portZero
    /// CORS, against a server started with the allowed origin the README names.
    case cors
    /// HTTPS: a certificate, a server with it, requests to it, two reloads, and what the server's shell shows.
    case https
    /// The command-line client, pasted in one go.
    case client
    /// The process contract's failures and their exit statuses.
    case processContract
    /// Backup and restore of the durable store.
    case backup

    /// This part's blocks, in order.
    func blocks(in readme: ReadmeDocument) -> [ReadmeConsoleBlock] {
        switch self {
        case .tryIt: readme.blocks(from: "## Try it", upTo: "### CORS").filter { !Self.startsAServerOnPortZero($0) }
        case .portZero: readme.blocks(from: "## Try it", upTo: "### CORS").filter(Self.startsAServerOnPortZero)
        case .cors: readme.blocks(under: "### CORS")
        case .https: readme.blocks(under: "### HTTPS")
        case .client: readme.blocks(under: "## Swift client and command-line client")
        case .processContract: readme.blocks(under: "## Process contract")
        case .backup: readme.blocks(under: "## Durable sessions")
        }
    }

    private static func startsAServerOnPortZero(_ block: ReadmeConsoleBlock) -> Bool {
        block.commands == [".build/debug/viewhost serve --port 0"]
    }
}
