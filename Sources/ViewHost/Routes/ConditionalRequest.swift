import Foundation
import HTTPCore

/// `If-None-Match` evaluation (RFC 9110 §13.1.2): weak comparison, lists, and `*`.
enum ConditionalRequest {
    /// Whether the request's `If-None-Match` matches `etag` (so the answer is `304`).
    static func noneMatchFails(_ request: HTTPRequest, etag: String) -> Bool {
        guard let header = request.headers[.ifNoneMatch] else { return false }
        let wanted = opaque(etag)
        for candidate in header.fieldParts(separatedBy: UInt8(ascii: ",")) {
            let tag = candidate.trimmingOWS()
            if tag == "*" || opaque(tag) == wanted { return true }
        }
        return false
    }

    /// The opaque part of an entity tag, without `W/` (weak comparison ignores it).
    private static func opaque(_ tag: some StringProtocol) -> Substring {
        let whole = Substring(tag)
        return whole.hasPrefix("W/") ? whole.dropFirst(2) : whole
    }
}
