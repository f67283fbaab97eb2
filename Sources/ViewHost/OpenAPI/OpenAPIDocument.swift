import Foundation

/// `GET /openapi.json`: the OpenAPI 3.1 description of every route (API.md says never to let the two drift; the
/// `OpenAPIHTTPTests` checks that every operation here is routed). The document is `Resources/openapi.json`, embedded
/// in the binary at build time (SwiftPM's `embedInCode`), so it is edited as JSON and no file ships beside the binary.
/// The one part read at run time is the `timeZone` enum: the zones this machine's database has, which are exactly
/// the ones `POST /v1/sessions` takes (``SessionOptions/timeZoneIdentifiers``).
enum OpenAPIDocument {
    static let json: String = {
        let template = String(decoding: PackageResources.openapi_json, as: UTF8.self)
        let zones = SessionOptions.timeZoneIdentifiers.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
        return template.replacingOccurrences(of: "\"__TIME_ZONES__\"", with: zones)
    }()
}
