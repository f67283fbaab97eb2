/// The protocol version of a request or response (RFC 9112 §2.3). Only HTTP/1.0 and HTTP/1.1 are served.
public enum HTTPVersion: Sendable, Hashable, CustomStringConvertible {
    case http1_0
    case http1_1

    /// The version as on the request or status line, such as `HTTP/1.1`.
    public var description: String {
        switch self {
        case .http1_0: "HTTP/1.0"
        case .http1_1: "HTTP/1.1"
        }
    }
}
