/// Why the schema could not be brought up to date.
enum PostgresSchemaError: Error {
    /// The database was migrated by a newer ViewHost (its version).
    case newer(Int)
    /// A statement failed.
    case failed(PostgresError)
}
