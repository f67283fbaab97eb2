import AppServer
import ArgumentParser

/// `viewhost`: the command-line entry point. `serve` is the default subcommand.
@main
struct ViewHostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "viewhost",
        abstract: "Hosts per-session MVVM view models over HTTP/1.1 and serves their snapshots as JSON.",
        version: "viewhost \(ViewHostVersion.current)",
        subcommands: [Serve.self, Backup.self, Check.self, ClientCommand.self],
        defaultSubcommand: Serve.self
    )
}
