import Foundation
import TestSupport

/// One request on its own connection to a server process, for tests that restart or starve the server: the
/// connection closes after the answer, so a killed server costs the test nothing but a thrown error.
enum ProcessHTTP {
    static func request(
        _ port: Int, _ method: String, _ path: String, token: String? = nil, body: String? = nil,
        headers: [String: String] = [:], timeout: Duration = .seconds(60)
    ) async throws -> TestResponse {
        let client = try HTTPTestClient(port: port)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body {
            head += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        } else {
            head += "\r\n"
        }
        try client.send(head)
        return try await client.readResponse(timeout: timeout)
    }

    /// A new session with `features`: its id and token.
    static func createSession(_ port: Int, features: [String]) async throws -> (id: String, token: String) {
        let list = features.map { "\"\($0)\"" }.joined(separator: ",")
        let response = try await request(port, "POST", "/v1/sessions", body: "{\"features\":[\(list)]}")
        guard response.status == 201, let json = json(response), let id = json["id"] as? String,
            let token = json["token"] as? String
        else { throw HTTPTestClient.ClientError.malformedResponse("no session made: \(response)") }
        return (id, token)
    }

    /// The body as a JSON object.
    static func json(_ response: TestResponse) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
    }
}
