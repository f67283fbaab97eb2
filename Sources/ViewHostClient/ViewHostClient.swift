import Foundation
import ViewHostAPI

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client of one ViewHost server: creates sessions, or reopens one from its id and token.
///
/// ```swift
/// let client = ViewHostClient(baseURL: URL(string: "http://127.0.0.1:8080")!)
/// let session = try await client.createSession()
/// try await session.send(ChatIntent.addChat)
/// let chat = try await session.snapshot(ChatSnapshot.self)
/// for try await change in session.changes() { print(change.feature, change.version) }
/// ```
///
/// Built on `URLSession` alone (`FoundationNetworking` on Linux), so it runs wherever Foundation does. Its calls
/// are `@concurrent`: they never run on the caller's actor, and cancelling the calling task cancels them.
public struct ViewHostClient: Sendable {
    /// The server's base URL, such as `http://127.0.0.1:8080`.
    public let baseURL: URL
    let transport: HTTPTransport

    /// A client of the server at `baseURL`.
    public init(baseURL: URL, configuration: Configuration = Configuration()) {
        self.baseURL = baseURL
        transport = HTTPTransport(baseURL: baseURL, configuration: configuration)
    }

    /// The answer to `POST /v1/sessions`.
    private struct Created: Decodable {
        let id: String
        let token: String
        let expiresAt: String
    }

    /// Creates a session (`POST /v1/sessions`).
    /// - Parameters:
    ///   - features: The features it hosts (nil: all of the server's).
    ///   - timeZone: Its IANA time zone, such as `Europe/Tallinn` (nil: UTC).
    ///   - locale: Its locale, such as `en_US` (nil: the server's default).
    /// - Returns: The session, holding its id and token (keep both to reopen it later).
    /// - Throws: ``ViewHostError``: `422` for an unknown feature or time zone, `503` when the server is full.
    @concurrent
    public func createSession(
        features: [String]? = nil, timeZone: String? = nil, locale: String? = nil
    ) async throws(ViewHostError) -> ViewHostSession {
        var options: [String: JSONValue] = [:]
        if let features { options["features"] = .strings(features) }
        if let timeZone { options["timeZone"] = .string(timeZone) }
        if let locale { options["locale"] = .string(locale) }
        let body = options.isEmpty ? nil : try JSONValue.encode(options)
        let request = transport.request("POST", try transport.url("/v1/sessions"), token: nil, body: body)
        let (data, _) = try await transport.expecting([201], request)
        let created = try transport.decode(Created.self, from: data, status: 201)
        return ViewHostSession(id: created.id, token: created.token, expiresAt: created.expiresAt, transport: transport)
    }

    /// Reopens a session from its id and token (no request is made until the first call).
    public func session(id: String, token: String) -> ViewHostSession {
        ViewHostSession(id: id, token: token, expiresAt: nil, transport: transport)
    }
}

/// The few JSON shapes a request body needs: strings and arrays of strings, keys sorted.
enum JSONValue: Encodable {
    case string(String)
    case strings([String])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .strings(let values): try container.encode(values)
        }
    }

    /// Encodes `value` with sorted keys (stable bytes, so a retried request has the same fingerprint).
    static func encode(_ value: some Encodable) throws(ViewHostError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(value)
        } catch {
            throw ViewHostError(
                kind: .invalidRequest, title: "invalid request", detail: "the body does not encode: \(error)")
        }
    }
}
