/// A closure of the original view model (`itemTapped`, `send`, `create`…) as data: the event to post, its fixed
/// fields and `{param}` placeholders for user input, and whether it is enabled.
///
/// Features say *what* to post; the app layer says *where*: encoding writes `"method":"POST"` and the `href`
/// found under ``CodingUserInfoKey/actionHref`` (the feature's events URL), so features never learn HTTP.
///
/// ```json
/// {"method":"POST","href":"/v1/sessions/ID/chat/events","body":{"type":"send","text":"{text}"},"enabled":true}
/// ```
public struct ActionDescriptor: Encodable, Equatable, Sendable {
    /// The event type, written as `body.type`.
    public var event: String
    /// Fixed fields and `{param}` placeholders, written into `body` beside `type`.
    public var fields: [String: String]
    /// Whether the original view model would run it now; nil when the original never disables it.
    public var enabled: Bool?
    /// The prompt the original shows to collect the input, if any.
    public var prompt: ActionPrompt?

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

    private enum CodingKeys: String, CodingKey {
        case method, href, body, enabled, prompt
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("POST", forKey: .method)
        if let href = encoder.userInfo[.actionHref] as? String {
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
public struct ActionPrompt: Encodable, Equatable, Sendable {
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
