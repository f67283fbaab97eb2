import ArgumentParser

/// `viewhost`: the command-line front end. `serve` is the default subcommand.
public struct ViewHostCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "viewhost",
        abstract: "Hosts per-session MVVM view models over HTTP/1.1 and serves their snapshots as JSON.",
        version: "viewhost \(ViewHostVersion.current)",
        subcommands: [Serve.self, Backup.self, Check.self, ClientCommand.self],
        defaultSubcommand: Serve.self
    )

    /// Creates the command (argument-parser needs it).
    public init() {}
}

extension ViewHostCommand {
    /// Parses the process's arguments and runs the subcommand they name: what an app's `main` calls.
    public static func run() async {
        await main()
    }
}
