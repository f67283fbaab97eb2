import HTTPCore
import ViewModelCore

/// The thin web front-end (`/`, `/app.js` and the modules it imports under `/client/` and `/page/`, `/app.css`) and
/// `/openapi.json`, embedded in the binary (``WebAssets``). A strict Content-Security-Policy (no inline code,
/// same-origin only), and validators with `no-cache`, so a reload costs a 304 per file and never mixes the modules of
/// two releases.
enum WebRoutes {
    private struct Asset: Sendable {
        let bytes: [UInt8]
        let contentType: String
        let cacheControl: String
        let etag: String

        init(_ text: String, contentType: String, cacheControl: String) {
            self.init(Array(text.utf8), contentType: contentType, cacheControl: cacheControl)
        }

        init(_ bytes: [UInt8], contentType: String, cacheControl: String) {
            self.bytes = bytes
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
    /// followed by each feature's renderer, the script's modules, and (on a background thread) the OpenAPI document
    /// of every route and feature.
    static func register(on router: inout MeteredRouter, features: HostedFeatures) {
        let javascript = "text/javascript; charset=utf-8"
        let page = Asset(
            WebPage.html(
                features: features.names, contacts: features.definitions.filter(\.takesContacts).map(\.name),
                shared: features.definitions.filter(\.isShareable).map(\.name)),
            contentType: "text/html; charset=utf-8", cacheControl: "no-cache")
        let renderers = features.definitions.compactMap(\.page)
        let script = Asset(
            ([String(decoding: WebAssets.script, as: UTF8.self)] + renderers.map(\.script)).joined(separator: "\n"),
            contentType: javascript, cacheControl: "no-cache")
        let style = Asset(
            ([String(decoding: WebAssets.style, as: UTF8.self)] + renderers.map(\.style)).joined(separator: "\n"),
            contentType: "text/css; charset=utf-8", cacheControl: "no-cache")
        let modules = WebAssets.modules.mapValues { Asset($0, contentType: javascript, cacheControl: "no-cache") }
        // Made off the start's path: the first request for it waits for it.
        let openAPI = Prepared {
            Asset(
                OpenAPIDocument.json(features: features), contentType: "application/json",
                cacheControl: "public, max-age=300")
        }
        router.on(.get, "/openapi.json") { request, _ in
            .later { answer in openAPI.whenReady { answer(.success(response($0, request))) } }
        }
        router.get("/") { request, _ in response(page, request) }
        router.get("/app.js") { request, _ in response(script, request) }
        router.get("/app.css") { request, _ in response(style, request) }
        for directory in ["client", "page"] {
            router.get("/\(directory)/:file") { request, context in
                guard let module = modules["/\(directory)/\(context.parameters["file"] ?? "")"] else {
                    throw HTTPError(.notFound, detail: "No resource exists at \(request.path).")
                }
                return response(module, request)
            }
        }
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
