import HTTPCore

/// `GET /healthz` (200 while the process runs) and `GET /readyz` (200 once listening, 503 while draining or
/// while the durable store takes no writes).
enum HealthRoutes {
    private static let healthy = Array(#"{"status":"ok","version":"\#(ViewHostVersion.current)"}"#.utf8)
    private static let ready = Array(#"{"status":"ready"}"#.utf8)

    static func register(on router: inout MeteredRouter, registry: SessionRegistry) {
        router.get("/healthz") { _, _ in
            HTTPResponse(contentType: "application/json", bytes: healthy, headers: [.cacheControl: "no-store"])
        }
        router.get("/readyz") { _, context in
            guard !context.serverIsDraining else {
                throw HTTPError(
                    .serviceUnavailable, detail: "The server is shutting down and takes no new work.",
                    headers: [.cacheControl: "no-store", .retryAfter: "1"])
            }
            guard registry.isWritable else {
                throw HTTPError(
                    .serviceUnavailable,
                    detail: "The session store takes no writes (disk full or an I/O error); reads still work.",
                    headers: [.cacheControl: "no-store", .retryAfter: "5"])
            }
            return HTTPResponse(contentType: "application/json", bytes: ready, headers: [.cacheControl: "no-store"])
        }
    }
}
