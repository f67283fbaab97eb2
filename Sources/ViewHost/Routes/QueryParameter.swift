import HTTPCore

/// Reading a route's query parameters: each is taken once, and one given twice (`?version=2&version=3`) is refused
/// rather than one of its values picked quietly.
enum QueryParameter {
    /// The decoded value of `name`, or nil when absent.
    /// - Throws: `AppError.invalidField` (400) when the request gives `name` more than once.
    static func single(_ name: String, of request: HTTPRequest) throws(AppError) -> String? {
        let values = request.queryValues(name, atMost: 2)
        guard values.count < 2 else { throw .invalidField(name, reason: "must be given once", status: .badRequest) }
        return values.first
    }
}
