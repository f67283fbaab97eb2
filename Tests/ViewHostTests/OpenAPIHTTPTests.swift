import Foundation
import Testing
import TestSupport
@testable import ViewHost
import LoginFeature
import PersonFeature
import ViewModelCore

/// `GET /openapi.json` describes the routes the server really has: every documented path and method answers with
/// something other than the router's "no such resource" 404 or a 405, so the document and the routes cannot drift.
@Suite struct OpenAPIHTTPTests {
    @Test func theDocumentIsServedAsJSONAndNamesOpenAPI31() async throws {
        try await TestApp.run { app in
            let response = try await app.request("GET", "/openapi.json")
            #expect(response.status == 200)
            #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
            let document = try response.json
            #expect(document["openapi"].string?.hasPrefix("3.1") == true)
            #expect(document["paths"]["/v1/sessions"]["post"].value != nil)
        }
    }

    /// An app none of whose features takes contacts or can be shared neither routes nor documents invitations,
    /// contacts and participants.
    @Test func anAppWithoutContactsNorSharingHasNoInvitationRoutes() async throws {
        let features = try HostedFeatures([.login], settings: FixedFeatureSettings())
        try await TestApp.run({ $0.features = features }) { app in
            let document = try await app.request("GET", "/openapi.json").json
            let paths = try #require(document["paths"].value as? [String: Any])
            #expect(
                !paths.keys.contains {
                    $0.hasSuffix("/invitations") || $0.hasSuffix("/contacts") || $0.contains("participants")
                        || $0.hasPrefix("/v1/invitations")
                })
            let session = try await app.createSession()
            let invited = try await app.request(
                "POST", session.path("invitations"), token: session.token,
                body: #"{"purpose":"contact","features":["login"],"name":"Alice"}"#)
            #expect(invited.status == 405, "\(invited)")
            for (path, method) in OpenAPIDocument.ownerOnlyOperations where paths[path] != nil {
                #expect(!document["paths"][path][method]["responses"].keys.contains("403"), "\(method) \(path)")
            }
        }
    }

    /// An app with a feature that can be shared documents every status of the participants' routes, and the 403 a
    /// member gets from the owner's routes (issue 43).
    @Test func theSharedSessionsStatusesAreDocumented() async throws {
        try await TestApp.run { app in
            let paths = try await app.request("GET", "/openapi.json").json["paths"]
            for (path, method, statuses) in [
                ("/v1/sessions/{id}/invitations", "post", ["201", "401", "403", "404", "410", "422", "429"]),
                ("/v1/invitations/{code}", "post", ["201", "404", "410", "422", "429"]),
                ("/v1/sessions/{id}/participants", "get", ["200", "401", "404", "410"]),
                ("/v1/sessions/{id}/participants/{participant}", "delete", ["204", "401", "403", "404", "410"]),
            ] {
                let documented = paths[path][method]["responses"].keys
                for status in statuses { #expect(documented.contains(status), "\(method) \(path) \(status)") }
            }
            for (path, method) in OpenAPIDocument.ownerOnlyOperations {
                #expect(paths[path][method]["responses"].keys.contains("403"), "\(method) \(path)")
            }
            // A member reads the log, the versions and the export of its own features: never 403.
            for path in ["/v1/sessions/{id}/log", "/v1/sessions/{id}/versions", "/v1/sessions/{id}/journal"] {
                #expect(!paths[path]["get"]["responses"].keys.contains("403"), "get \(path)")
            }
        }
    }

    /// An app with a feature that can be shared but none that takes contacts routes and documents join invitations
    /// and participants, not contacts; a contact invitation is refused naming its purpose.
    @Test func anAppThatSharesButTakesNoContactsRoutesParticipantsOnly() async throws {
        let features = try HostedFeatures([.person], settings: FixedFeatureSettings())
        try await TestApp.run({ $0.features = features }) { app in
            let document = try await app.request("GET", "/openapi.json").json
            let paths = try #require(document["paths"].value as? [String: Any])
            #expect(!paths.keys.contains { $0.hasSuffix("/contacts") })
            for path in OpenAPIDocument.participantPaths { #expect(paths.keys.contains(path), "\(path)") }
            let session = try await app.createSession()
            let invited = try await app.request(
                "POST", session.path("invitations"), token: session.token,
                body: #"{"purpose":"contact","features":["person"],"name":"Alice"}"#)
            #expect(invited.status == 422 && invited.problemFields == ["purpose"], "\(invited)")
        }
    }

    @Test func everyDocumentedOperationIsRouted() async throws {
        try await TestApp.run { app in
            let document = try await app.request("GET", "/openapi.json").json
            let paths = try #require(document["paths"].value as? [String: Any])
            // Every feature, so each feature's own paths are routed to a feature the session has.
            let session = try await app.createSession(body: #"{"features":["chat","weather","login","person"]}"#)
            var operations = 0
            for (template, item) in paths.sorted(by: { $0.key < $1.key }) {
                let methods = (item as? [String: Any])?.keys.filter { ["get", "post", "delete"].contains($0) } ?? []
                for method in methods.sorted() {
                    operations += 1
                    let path = template.replacingOccurrences(of: "{id}", with: session.id)
                        .replacingOccurrences(of: "{feature}", with: "chat")
                        .replacingOccurrences(of: "{file}", with: "index.mjs")
                    let status = try await Self.status(
                        of: method.uppercased(), path, token: session.token, app: app)
                    #expect(status != 405, "\(method.uppercased()) \(template) answered 405")
                    #expect(status != 404, "\(method.uppercased()) \(template) answered 404")
                }
            }
            #expect(operations >= 12)
        }
    }

    /// The status of one request; a stream's status is read from its head alone.
    private static func status(of method: String, _ path: String, token: String, app: TestApp) async throws -> Int {
        if path.hasSuffix("/stream") {
            let reader = try SSEReader(port: app.port, path: path, token: token)
            return try await reader.head().status
        }
        // DELETE last would end the session the other operations use; it gets a session of its own.
        if method == "DELETE" {
            let other = try await app.createQuietSession()
            return try await app.request("DELETE", other.path(), token: other.token).status
        }
        let body = method == "POST" ? (path.hasSuffix("/events") ? #"{"type":"appear"}"# : "{}") : nil
        return try await app.request(method, path, token: token, body: body).status
    }
}
