import HTTPCore
import ViewModelCore

/// `GET /healthz` (200 while the process runs) and `GET /readyz` (200 once listening, 503 while draining or
/// while the durable store is not healthy, with its reason).
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
            switch registry.storageHealth {
            case .healthy:
                break
            case .failing(let reason):
                throw HTTPError(
                    .serviceUnavailable,
                    detail: "The session store takes no writes for now; reads still work. \(reason).",
                    headers: [.cacheControl: "no-store", .retryAfter: "5"])
            case .broken(let reason):
                throw HTTPError(
                    .serviceUnavailable,
                    detail:
                        "The session store cannot be used safely: \(reason). An operator must act (docs/OPERATIONS.md).",
                    headers: [.cacheControl: "no-store"])
            }
            return HTTPResponse(contentType: "application/json", bytes: ready, headers: [.cacheControl: "no-store"])
        }
    }
}
