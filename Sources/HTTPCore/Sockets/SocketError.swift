#if canImport(Glibc)
import Glibc
#endif

/// A failed socket call, with the `errno` captured where it failed.
public enum SocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `operation` failed with `errno`.
    case failed(operation: String, errno: Int32, message: String)
    /// A host name or address could not be resolved.
    case unresolvableHost(String)

    /// Captures `errno` now (call it right after the failing call).
    /// - Parameter operation: What failed, such as `bind(127.0.0.1:8080)`.
    /// - Returns: ``failed(operation:errno:message:)`` with `errno` and its message.
    static func makeFailed(_ operation: String) -> SocketError {
        let code = errno
        return .failed(operation: operation, errno: code, message: String(cString: strerror(code)))
    }

    /// Whether the failure is "address already in use".
    public var isAddressInUse: Bool {
        if case .failed(_, let code, _) = self { return code == EADDRINUSE }
        return false
    }

    /// One sentence for the log line and the exit message: the operation, the system's message and `errno`.
    public var description: String {
        switch self {
        case .failed(let operation, let code, let message): "\(operation) failed: \(message) (errno \(code))."
        case .unresolvableHost(let host): "The host '\(host)' could not be resolved to an address."
        }
    }
}
