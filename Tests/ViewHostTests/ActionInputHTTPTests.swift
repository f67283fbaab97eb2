import Foundation
import Testing
import TestSupport
import ViewHost
import ViewHostAPI
import ViewModelCore

/// A snapshot offers actions whose inputs are an enum's value or an integer (`RetroBoard`'s): the served action
/// says what each input takes, and a client that fills it from text, as a form or a command line does, posts a
/// value the feature takes.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(2))))
struct ActionInputHTTPTests {
    static let features: HostedFeatures = {
        do {
            return try HostedFeatures(TestApp.seedFeatures + [RetroBoard.registration], settings: FixedFeatureSettings())
        } catch {
            preconditionFailure("the retro board does not register: \(error)")
        }
    }()

    /// The served action, decoded as a client reads it.
    static func action(_ name: String, of snapshot: TestResponse) throws -> ActionDescriptor {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(snapshot.body)) as? [String: Any])
        let actions = try #require(object["actions"] as? [String: Any])
        let action = try #require(actions[name], "\(name) in \(actions.keys.sorted())")
        return try JSONDecoder().decode(ActionDescriptor.self, from: JSONSerialization.data(withJSONObject: action))
    }

    static func post(_ action: ActionDescriptor, filling parameters: [String: String], in app: TestApp, _ session: TestSession)
        async throws -> TestResponse
    {
        let body = try action.body(filling: parameters).get()
        let href = try #require(action.href)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try await app.request(
            "POST", href, token: session.token, body: String(decoding: try encoder.encode(body), as: UTF8.self))
    }

    @Test func anEnumAndAnIntegerInputAreOfferedTypedAndPostedAsTheFeatureTakesThem() async throws {
        try await TestApp.run({ $0.features = Self.features }) { app in
            let session = try await app.createSession(body: #"{"features":["retro"]}"#)
            let empty = try await app.request("GET", session.path("retro"), token: session.token)
            #expect(
                empty.text.contains(
                    #""addCard":{"body":{"column":"{column}","text":"{text}","type":"addCard"},"href":"/v1/sessions/"#
                        + session.id
                        + #"/retro/events","inputs":{"column":{"enum":["wentWell","toImprove","actions"],"type":"string"}},"method":"POST","prompt":{"submit":"Add","title":"New card"}}"#
                ), "\(empty.text)")

            let addCard = try Self.action("addCard", of: empty)
            #expect(addCard.placeholders.map(\.type) == [.oneOf(["wentWell", "toImprove", "actions"]), .string])
            #expect(try await Self.post(addCard, filling: ["text": "Cake", "column": "toImprove"], in: app, session).status == 202)
            #expect(
                addCard.body(filling: ["text": "Tea", "column": "later"])
                    == .failure(.init(name: "column", expected: .oneOf(["wentWell", "toImprove", "actions"]))))

            let carded = try await app.request("GET", session.path("retro"), token: session.token)
            #expect(carded.text.contains(#""cards":{"toImprove":["Cake"]}"#), "\(carded.text)")
            let vote = try Self.action("vote Cake", of: carded)
            #expect(vote.placeholders == [ActionPlaceholder(name: "votes", type: .integer)])
            #expect(carded.text.contains(#""inputs":{"votes":{"type":"integer"}}"#))
            #expect(try await Self.post(vote, filling: ["votes": "3"], in: app, session).status == 202)
            #expect(try await app.snapshot(session, "retro")["votes"]["Cake"].int == 3)

            // The data-flow log names the events by their kinds, from the feature's default description.
            let log = try await app.log(session)
            #expect(log.compactMap { $0["event"].string } == ["addCard", "vote"])
            #expect(log.compactMap { $0["summary"].string } == [#"text="Cake" column="toImprove""#, #"card="Cake" votes=3"#])
        }
    }
}
