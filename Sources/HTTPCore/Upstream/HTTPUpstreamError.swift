/// Why a request to an upstream server got no answer.
public enum HTTPUpstreamError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No connection could be made (refused, unreachable, or no answer to the connect in time): nothing was sent,
    /// so the request had no effect there.
    case unreachable(address: String, reason: String)
    /// The request was sent (it may have had its effect) but no complete answer came back: the connection broke,
    /// the answer was malformed or too large, or the upstream did not answer in time.
    case failed(address: String, reason: String)

    /// The address and the reason in a line; whether the request may have had its effect follows from the case.
    public var description: String {
        switch self {
        case .unreachable(let address, let reason): "\(address) cannot be reached: \(reason)"
        case .failed(let address, let reason): "\(address) did not answer: \(reason)"
        }
    }
}
