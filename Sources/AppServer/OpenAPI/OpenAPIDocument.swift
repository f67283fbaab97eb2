/// `GET /openapi.json`: the OpenAPI 3.1 description of every route (API.md says never to let the two drift; the
/// `OpenAPIHTTPTests` checks that every operation here is routed). The document is `Resources/openapi.json`, embedded
/// in the binary at build time (SwiftPM's `embedInCode`), so it is edited as JSON and no file ships beside the binary.
enum OpenAPIDocument {
    static let json = String(decoding: PackageResources.openapi_json, as: UTF8.self)
}
