import ArgumentParser

/// The option every command on the SQLite store shares (`check`, `repair`, `backup`): which store, named by the
/// directory `serve` was given.
struct StoreDirectoryOptions: ParsableArguments {
    /// The store's directory (`--data-dir`), `data` as for `serve`.
    @Option(help: "The store's directory (as given to serve).")
    var dataDir = "data"
}
