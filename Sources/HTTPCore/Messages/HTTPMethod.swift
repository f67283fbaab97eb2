/// An HTTP request method (RFC 9110 §9), an open set with the standard methods as static members.
///
/// Methods are case-sensitive tokens (RFC 9110 §9.1): `get` is not `GET`.
public struct HTTPMethod: Hashable, Sendable, CustomStringConvertible {
    /// The method token exactly as sent.
    public let rawValue: String
    /// A small number for the standard methods (0 for others), so routing compares integers, not strings.
    private let code: UInt8

    private static let standard = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"]

    /// Creates a method from its token.
    /// - Parameter rawValue: The method token, for example `"PATCH"`.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
        self.code = Self.standard.firstIndex(of: rawValue).map { UInt8($0 + 1) } ?? 0
    }

    private init(rawValue: String, code: UInt8) {
        self.rawValue = rawValue
        self.code = code
    }

    /// The method token, as sent on the request line.
    public var description: String { rawValue }

    /// Methods are equal when their tokens are, case-sensitively; standard methods compare by their code.
    public static func == (lhs: HTTPMethod, rhs: HTTPMethod) -> Bool {
        lhs.code == rhs.code && (lhs.code != 0 || lhs.rawValue == rhs.rawValue)
    }

    /// Hashes the token, so methods that are equal hash alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue)
    }

    /// `GET`: reads the target's current representation.
    public static let get = HTTPMethod(rawValue: "GET", code: 1)
    /// `HEAD`: as `GET`, without the content.
    public static let head = HTTPMethod(rawValue: "HEAD", code: 2)
    /// `POST`: sends content for the target to process.
    public static let post = HTTPMethod(rawValue: "POST", code: 3)
    /// `PUT`: replaces the target's state with the content.
    public static let put = HTTPMethod(rawValue: "PUT", code: 4)
    /// `PATCH` (RFC 5789): changes part of the target's state.
    public static let patch = HTTPMethod(rawValue: "PATCH", code: 5)
    /// `DELETE`: removes the target.
    public static let delete = HTTPMethod(rawValue: "DELETE", code: 6)
    /// `OPTIONS`: asks what the target allows (a CORS preflight, or `*` for the server).
    public static let options = HTTPMethod(rawValue: "OPTIONS", code: 7)
    /// `TRACE`: asks the server to echo the request back.
    public static let trace = HTTPMethod(rawValue: "TRACE", code: 8)
    /// `CONNECT`: asks for a tunnel; the parser refuses it, as this server is no proxy.
    public static let connect = HTTPMethod(rawValue: "CONNECT", code: 9)

    /// Parses a method token without allocating for the standard methods.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> HTTPMethod {
        switch bytes.count {
        case 3:
            if bytes.elementsEqual("GET".utf8) { return .get }
            if bytes.elementsEqual("PUT".utf8) { return .put }
        case 4:
            if bytes.elementsEqual("POST".utf8) { return .post }
            if bytes.elementsEqual("HEAD".utf8) { return .head }
        case 5:
            if bytes.elementsEqual("PATCH".utf8) { return .patch }
            if bytes.elementsEqual("TRACE".utf8) { return .trace }
        case 6:
            if bytes.elementsEqual("DELETE".utf8) { return .delete }
        case 7:
            if bytes.elementsEqual("OPTIONS".utf8) { return .options }
            if bytes.elementsEqual("CONNECT".utf8) { return .connect }
        default:
            break
        }
        return HTTPMethod(String(decoding: bytes, as: UTF8.self))
    }
}
