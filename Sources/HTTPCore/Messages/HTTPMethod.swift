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

    public var description: String { rawValue }

    public static func == (lhs: HTTPMethod, rhs: HTTPMethod) -> Bool {
        lhs.code == rhs.code && (lhs.code != 0 || lhs.rawValue == rhs.rawValue)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue)
    }

    public static let get = HTTPMethod(rawValue: "GET", code: 1)
    public static let head = HTTPMethod(rawValue: "HEAD", code: 2)
    public static let post = HTTPMethod(rawValue: "POST", code: 3)
    public static let put = HTTPMethod(rawValue: "PUT", code: 4)
    public static let patch = HTTPMethod(rawValue: "PATCH", code: 5)
    public static let delete = HTTPMethod(rawValue: "DELETE", code: 6)
    public static let options = HTTPMethod(rawValue: "OPTIONS", code: 7)
    public static let trace = HTTPMethod(rawValue: "TRACE", code: 8)
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
