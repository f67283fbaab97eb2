/// A method, a path pattern and the handler that answers them.
public struct Route: Sendable {
    /// The method this route answers (`GET` routes answer `HEAD` too).
    public let method: HTTPMethod
    /// The path pattern.
    public let pattern: RoutePattern
    let handler: HTTPHandler

    /// Creates a route.
    public init(method: HTTPMethod, pattern: RoutePattern, handler: @escaping HTTPHandler) {
        self.method = method
        self.pattern = pattern
        self.handler = handler
    }
}
