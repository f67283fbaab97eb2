/// The rows of a query (values as text, nil for NULL) and how many rows it touched.
struct PostgresResult {
    let rows: [[String?]]
    let affected: Int
}
