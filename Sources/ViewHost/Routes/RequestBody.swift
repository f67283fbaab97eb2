import Foundation
import HTTPCore
import ViewHostJSON

/// Reading JSON request bodies: the media type is checked first (415), then the JSON (400).
enum RequestBody {
    /// Whether `Content-Type` is `application/json` or `application/*+json`, in UTF-8 if a charset is given.
    static func isJSON(_ request: HTTPRequest) -> Bool {
        // The usual case, read in place: exactly `application/json` (any case).
        let plain = request.headers.withFirstValue(of: .contentType) { value in
            value.count == 16 && zip(value, "application/json".utf8).allSatisfy { $0 | 0x20 == $1 | 0x20 }
        }
        if plain == true { return true }
        guard let contentType = request.headers[.contentType] else { return false }
        let parts = contentType.fieldParts(separatedBy: UInt8(ascii: ";")).map { $0.trimmingOWS().lowercased() }
        guard let mediaType = parts.first else { return false }
        guard mediaType == "application/json" || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json"))
        else { return false }
        for parameter in parts.dropFirst() where parameter.hasPrefix("charset=") {
            let charset = parameter.dropFirst("charset=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            guard charset == "utf-8" || charset == "utf8" else { return false }
        }
        return true
    }

    /// The body parsed as JSON.
    /// - Throws: `unsupportedMediaType` (415) or `invalidJSON` (400).
    static func json(_ request: HTTPRequest) throws(AppError) -> JSONValue {
        guard isJSON(request) else { throw .unsupportedMediaType(request.headers[.contentType]) }
        do {
            return try JSONParser.parse(request.body)
        } catch {
            throw .invalidJSON(request.body.isEmpty ? "the body is empty" : error.description)
        }
    }
}
