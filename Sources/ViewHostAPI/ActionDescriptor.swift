import Foundation

/// A closure of the original view model (`itemTapped`, `send`, `create`…) as data: the event to post, its fixed
/// fields and `{param}` placeholders for user input, and whether it is enabled. It is always posted with `POST`.
///
/// Features say *what* to post; the app layer says *where*: encoding writes `"method":"POST"` and the `href`
/// found under `CodingUserInfoKey.actionHref` (the feature's events URL), so features never learn HTTP. A
/// decoded action keeps the `href` it was served with, so a client can post it as it is.
///
/// ```json
/// {"method":"POST","href":"/v1/sessions/ID/chat/events","body":{"type":"send","text":"{text}"},"enabled":true}
/// ```
public struct ActionDescriptor: Codable, Equatable, Sendable {
    /// The event type, written as `body.type`.
    public var event: String
    /// Fixed fields and `{param}` placeholders, written into `body` beside `type`.
    public var fields: [String: String]
    /// Whether the original view model would run it now; nil when the original never disables it.
    public var enabled: Bool?
    /// The prompt the original shows to collect the input, if any.
    public var prompt: ActionPrompt?
    /// Where it posts to, when it was decoded from a snapshot (the server writes it from the encoder's user info).
    /// The method is always `POST`.
    public var href: String?

    /// Creates an action.
    /// - Parameters:
    ///   - event: The event type.
    ///   - fields: Fixed fields and `{param}` placeholders.
    ///   - enabled: Whether it may run now (nil: always).
    ///   - prompt: A prompt for user input.
    public init(event: String, fields: [String: String] = [:], enabled: Bool? = nil, prompt: ActionPrompt? = nil) {
        self.event = event
        self.fields = fields
        self.enabled = enabled
        self.prompt = prompt
    }

    /// Whether it may be posted now (`enabled` absent counts as yes).
    public var isEnabled: Bool { enabled ?? true }

    /// The body to post: `type` and the fields, with each `{param}` placeholder replaced from `parameters`.
    /// - Parameter parameters: Values for the placeholders, by name (`["text": "Hi"]` for `{text}`).
    /// - Returns: The body, or the name of the first placeholder without a value.
    public func body(filling parameters: [String: String] = [:]) -> Result<[String: String], MissingParameter> {
        var body: [String: String] = ["type": event]
        for (name, value) in fields {
            if value.count > 2, value.hasPrefix("{"), value.hasSuffix("}") {
                let parameter = String(value.dropFirst().dropLast())
                guard let given = parameters[parameter] else { return .failure(MissingParameter(name: parameter)) }
                body[name] = given
            } else {
                body[name] = value
            }
        }
        return .success(body)
    }

    /// A placeholder of an action that ``body(filling:)`` got no value for.
    public struct MissingParameter: Error, Equatable, Sendable {
        /// The placeholder's name, such as `text`.
        public let name: String
    }

    private enum CodingKeys: String, CodingKey {
        case method, href, body, enabled, prompt
    }

    /// Reads an action as served: `body.type` is the event, the other body members its fields, and `href` is kept.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var body = try container.decode([String: String].self, forKey: .body)
        guard let event = body.removeValue(forKey: "type") else {
            throw DecodingError.dataCorruptedError(
                forKey: .body, in: container, debugDescription: "an action's body has no type")
        }
        self.event = event
        fields = body
        enabled = try container.decodeIfPresent(Bool.self, forKey: .enabled)
        prompt = try container.decodeIfPresent(ActionPrompt.self, forKey: .prompt)
        href = try container.decodeIfPresent(String.self, forKey: .href)
    }

    /// Writes `"method":"POST"`, the `href` under `CodingUserInfoKey.actionHref` (or the one decoded), and `body`
    /// with `type` beside the fields.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("POST", forKey: .method)
        if let href = encoder.userInfo[.actionHref] as? String ?? href {
            try container.encode(href, forKey: .href)
        }
        var body = fields
        body["type"] = event
        try container.encode(body, forKey: .body)
        try container.encodeIfPresent(enabled, forKey: .enabled)
        try container.encodeIfPresent(prompt, forKey: .prompt)
    }
}

/// The prompt an action shows to collect its input (the original's alert or screen texts).
public struct ActionPrompt: Codable, Equatable, Sendable {
    /// The prompt's title, such as "Choose location".
    public var title: String
    /// The label of the button that posts it, such as "Submit".
    public var submit: String

    /// Creates a prompt.
    public init(title: String, submit: String) {
        self.title = title
        self.submit = submit
    }
}

extension CodingUserInfoKey {
    /// The URL actions post to while one feature's snapshot is encoded (a `String`).
    public static let actionHref = CodingUserInfoKey(rawValue: "viewhost.actionHref")!
}
