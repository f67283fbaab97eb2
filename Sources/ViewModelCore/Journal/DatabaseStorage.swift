/// How a store kept in a database server is opened, handed to an app by the product that brings it: the
/// `ViewHostPostgres` product offers `DatabaseStorage.postgres` (in its module, PostgresStorage), and an app passes it to its
/// command (`ViewHostCommand.run(features:database:)`) or to `makeStorage`. So the database's client library is
/// linked only into an app that asks for it: an app that keeps its sessions on SQLite needs no libpq.
public struct DatabaseStorage: Sendable {
    /// Opens the store: the database's URL, this node's name, the features whose stored values it reads, and how
    /// many of each session's latest inputs it keeps for past versions.
    public typealias Opener =
        @Sendable (
            _ url: String, _ node: String, _ features: FeatureTypes, _ historyInputs: Int
        ) throws(StorageError) -> any SessionStorage

    /// The store's name on the command line (`--store postgres`).
    public let name: String
    private let opener: Opener

    /// - Parameters:
    ///   - name: The store's name on the command line.
    ///   - open: Opens the store (its schema brought up to date); throws ``StorageError`` when it cannot.
    public init(name: String, open: @escaping Opener) {
        self.name = name
        self.opener = open
    }

    /// Opens the store at `url` for the node `node`, reading stored values with `features`' types and keeping
    /// `historyInputs` of each session's latest inputs.
    /// - Throws: ``StorageError`` when the database cannot be reached or its schema cannot be used.
    public func open(url: String, node: String, features: FeatureTypes, historyInputs: Int) throws(StorageError)
        -> any SessionStorage
    {
        try opener(url, node, features, historyInputs)
    }
}
