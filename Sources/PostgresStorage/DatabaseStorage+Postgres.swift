import ViewModelCore

extension DatabaseStorage {
    /// PostgreSQL through libpq, for several nodes: what an app passes to its command to offer `--store postgres`
    /// (`ViewHostCommand.run(features: …, database: .postgres)`).
    public static let postgres = DatabaseStorage(name: "postgres") {
        url, node, features, historyInputs throws(StorageError) in
        try PostgresSessionStorage(url: url, node: node, features: features, historyInputs: historyInputs)
    }
}
