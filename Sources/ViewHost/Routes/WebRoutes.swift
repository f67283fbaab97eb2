import HTTPCore
import ViewModelCore

/// The thin web front-end (`/`, `/app.js`, `/app.css`) and `/openapi.json`, embedded in the binary. A strict Content-Security-Policy
/// (no inline code, same-origin only) and validators so a reload costs a 304.
enum WebRoutes {
    private struct Asset: Sendable {
        let bytes: [UInt8]
        let contentType: String
        let cacheControl: String
        let etag: String

        init(_ text: String, contentType: String, cacheControl: String) {
            bytes = Array(text.utf8)
            self.contentType = contentType
            self.cacheControl = cacheControl
            // FNV-1a of the content: changes whenever the asset does.
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            etag = "\"\(String(hash, radix: 36))\""
        }
    }

    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// The routes, their assets made once for `features`: the page's sections, the library's script and style
    /// followed by each feature's renderer, and (on a background thread) the OpenAPI document of every route and
    /// feature.
    static func register(on router: inout MeteredRouter, features: HostedFeatures) {
        let page = Asset(
            WebPage.html(features: features.names), contentType: "text/html; charset=utf-8", cacheControl: "no-cache")
        let renderers = features.definitions.compactMap(\.page)
        let script = Asset(
            ([WebScript.javascript] + renderers.map(\.script)).joined(separator: "\n"),
            contentType: "text/javascript; charset=utf-8", cacheControl: "public, max-age=300")
        let style = Asset(
            ([WebStyle.css] + renderers.map(\.style)).joined(separator: "\n"),
            contentType: "text/css; charset=utf-8", cacheControl: "public, max-age=300")
        // Made off the start's path: the first request for it waits for it.
        let openAPI = Prepared {
            Asset(OpenAPIDocument.json(features: features), contentType: "application/json", cacheControl: "public, max-age=300")
        }
        router.on(.get, "/openapi.json") { request, _ in
            .later { answer in openAPI.whenReady { answer(.success(response($0, request))) } }
        }
        router.get("/") { request, _ in response(page, request) }
        router.get("/app.js") { request, _ in response(script, request) }
        router.get("/app.css") { request, _ in response(style, request) }
    }

    private static func response(_ asset: Asset, _ request: HTTPRequest) -> HTTPResponse {
        var headers: HTTPHeaders = [
            .cacheControl: asset.cacheControl, .etag: asset.etag, .xContentTypeOptions: "nosniff",
            .contentSecurityPolicy: contentSecurityPolicy, "Referrer-Policy": "no-referrer",
        ]
        if ConditionalRequest.noneMatchFails(request, etag: asset.etag) {
            var response = HTTPResponse(status: .notModified, headers: headers)
            response.notModifiedRepresentation = NotModifiedRepresentation(
                contentType: asset.contentType, length: asset.bytes.count)
            return response
        }
        headers.add(.contentType, asset.contentType)
        return HTTPResponse(headers: headers, body: .bytes(asset.bytes))
    }
}
