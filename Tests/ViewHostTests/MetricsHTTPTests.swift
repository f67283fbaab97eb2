import Foundation
import Testing
import TestSupport

/// `GET /metrics` follows Prometheus' conventions (issue 14, findings 7 and 8): gauges do not end in `_count`
/// (kept for histograms and summaries), and a `405` counts under the route its path matched.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct MetricsHTTPTests {
    @Test func gaugesAreNamedWithoutACountSuffix() async throws {
        try await TestApp.run { app in
            _ = try await app.createQuietSession()
            let text = try await app.request("GET", "/metrics").text
            for gauge in ["viewhost_http_connections_open", "viewhost_sessions_live", "viewhost_streams_open"] {
                #expect(text.contains("# TYPE \(gauge) gauge\n"), "\(gauge)")
            }
            #expect(text.contains("viewhost_sessions_live 1"))
            #expect(!text.contains("_open_count"))
            #expect(!text.contains("_live_count"))
        }
    }

    @Test func a405CountsUnderTheMatchedRouteTemplate() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            let response = try await app.request("PUT", session.path("chat"), token: session.token, body: "{}")
            #expect(response.status == 405)
            _ = try await app.request("BREW", "/healthz")
            let text = try await app.request("GET", "/metrics").text
            #expect(
                text.contains(#"viewhost_http_requests_total{route="/v1/sessions/:id/:feature",method="PUT",status="405"} 1"#),
                "\(text.split(separator: "\n").filter { $0.contains("405") })")
            #expect(text.contains(#"viewhost_http_requests_total{route="/healthz",method="other",status="405"} 1"#))
            #expect(!text.contains(#"route="unmatched",method="any",status="405""#))
        }
    }
}
