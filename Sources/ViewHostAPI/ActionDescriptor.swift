import Foundation

/// A closure of the original view model (`itemTapped`, `send`, `create`…) as data: the event to post, its fixed
/// fields and the placeholders the person fills in, and whether it is enabled. It is always posted with `POST`.
///
/// A feature makes it from an intent value, so the event's name and the fields' names come from the intent's own
/// `Encodable` and a misspelt one does not compile; a field the person fills in is a parameter of a closure that
/// builds the intent:
///
/// ```swift
/// ActionDescriptor(TodoIntent.toggle(item: item.id))
/// ActionDescriptor(prompt: ActionPrompt(title: "Rename", submit: "Rename")) { (title: String) in
///     TodoIntent.edit(item: item.id, title: title)
/// }
/// ```
///
/// Features say *what* to post; the app layer says *where*: encoding writes `"method":"POST"` and the `href`
/// found under `CodingUserInfoKey.actionHref` (the feature's events URL), so features never learn HTTP. A
/// decoded action keeps the `href` it was served with, so a client can post it as it is.
///
/// ```json
/// {"method":"POST","href":"/v1/sessions/ID/chat/events","body":{"type":"send","text":"{text}"},"enabled":true}
/// ```
///
/// A placeholder is the string `"{name}"` in `body`. One that takes something other than any string (an integer,
/// one of an enum's values) is listed in `inputs` with its type, as JSON Schema states it:
/// `"inputs":{"votes":{"type":"integer"}}`; a client converts what the person typed before it posts.
public struct ActionDescriptor: Codable, Equatable, Sendable {
    /// The event type, written as `body.type`.
    public var event: String
    /// Fixed fields and placeholders, written into `body` beside `type`.
    public var fields: [String: ActionValue]
    /// Whether the original view model would run it now; nil when the original never disables it.
    public var enabled: Bool?
    /// The prompt the original shows to collect the input, if any.
    public var prompt: ActionPrompt?
    /// Where it posts to, when it was decoded from a snapshot (the server writes it from the encoder's user info).
    /// The method is always `POST`.
    public var href: String?
    /// Which route it posts to: the feature's events (the default, not written on the wire), or the session's
    /// invitations (``contactInvitation(feature:enabled:)``).
    public var target: Target = .events
    /// The features an invitation names (`body.features`); empty for an action posting an event.
    public var features: [String] = []

    /// Creates an action from its wire form; a feature makes one from an intent value instead
    /// (``init(_:enabled:prompt:)``), which cannot misspell the event or a field.
    /// - Parameters:
    ///   - event: The event type.
    ///   - fields: Fixed fields and placeholders (a `"{name}"` string is read as a string placeholder).
    ///   - enabled: Whether it may run now (nil: always).
    ///   - prompt: A prompt for user input.
    public init(event: String, fields: [String: ActionValue] = [:], enabled: Bool? = nil, prompt: ActionPrompt? = nil) {
        self.event = event
        self.fields = fields.mapValues { $0.resolved(inputs: [:]) }
        self.enabled = enabled
        self.prompt = prompt
    }

    // Disfavoured: a dictionary of literals is the wire form's (`["item": "t1"]`), not this deprecated overload.
    /// Creates an action from string fields, `{param}` placeholders among them.
    @available(*, deprecated, message: "make the action from an intent value: ActionDescriptor(Intent.case(…))")
    @_disfavoredOverload
    public init(event: String, fields: [String: String], enabled: Bool? = nil, prompt: ActionPrompt? = nil) {
        self.init(event: event, fields: fields.mapValues(ActionValue.string), enabled: enabled, prompt: prompt)
    }

    /// Whether it may be posted now (`enabled` absent counts as yes).
    public var isEnabled: Bool { enabled ?? true }

    /// The placeholders the person fills in, sorted by name.
    public var placeholders: [ActionPlaceholder] {
        fields.values.compactMap { if case .placeholder(let placeholder) = $0 { placeholder } else { nil } }
            .sorted { $0.name < $1.name }
    }

    /// The body to post: `type` and the fields, with each placeholder replaced from `parameters`, converted to the
    /// placeholder's type (`"3"` posts `3` for an integer placeholder).
    /// - Parameter parameters: Values for the placeholders, by name (`["text": "Hi"]` for `{text}`).
    /// - Returns: The body, or the first placeholder without a value or with a value it does not take.
    public func body(filling parameters: [String: ActionValue] = [:]) -> Result<[String: ActionValue], ParameterError> {
        var body: [String: ActionValue] = ["type": .string(event)]
        for name in fields.keys.sorted() {
            guard let value = fields[name] else { continue }
            guard case .placeholder(let placeholder) = value else {
                body[name] = value
                continue
            }
            guard let given = parameters[placeholder.name] else {
                return .failure(ParameterError(name: placeholder.name, expected: nil))
            }
            do {
                body[name] = try placeholder.value(for: given)
            } catch {
                return .failure(error)
            }
        }
        return .success(body)
    }

    /// The body to post, the placeholders filled from strings (a text field's, a command line's).
    public func body(filling parameters: [String: String]) -> Result<[String: ActionValue], ParameterError> {
        body(filling: parameters.mapValues(ActionValue.string))
    }

    /// A placeholder of an action that ``body(filling:)-([String:ActionValue])`` got no value for, or a value it does
    /// not take.
    public struct ParameterError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The placeholder's name, such as `text`.
        public let name: String
        /// What the placeholder takes, when it was given a value it does not take; nil when it was given none.
        public let expected: ActionInputType?

        /// A problem with the placeholder `name`: no value (`expected` nil), or not one of `expected`.
        public init(name: String, expected: ActionInputType?) {
            self.name = name
            self.expected = expected
        }

        /// What is wrong, after the placeholder's name: "needs a value", "must be an integer".
        public var reason: String { expected.map { "must be \($0.phrase)" } ?? "needs a value" }

        /// `{votes} must be an integer`.
        public var description: String { "{\(name)} \(reason)" }
    }

    /// The old name of ``ParameterError``.
    @available(*, deprecated, renamed: "ParameterError")
    public typealias MissingParameter = ParameterError

    enum CodingKeys: String, CodingKey {
        case method, target, href, body, inputs, enabled, prompt
    }

    /// Reads an action as served: `body.type` is the event, the other body members its fields, and `href` is kept;
    /// for `"target":"invitations"`, `body.purpose` is the event and `body.features` the features.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if try container.decodeIfPresent(Target.self, forKey: .target) == .invitations {
            self = try ActionDescriptor(invitationFrom: container)
            return
        }
        var body = try container.decode([String: ActionValue].self, forKey: .body)
        guard case .string(let event)? = body.removeValue(forKey: "type") else {
            throw DecodingError.dataCorruptedError(
                forKey: .body, in: container, debugDescription: "an action's body has no type, or not as a string")
        }
        let inputs = try container.decodeIfPresent([String: ActionInputType].self, forKey: .inputs) ?? [:]
        self.event = event
        fields = body.mapValues { $0.resolved(inputs: inputs) }
        enabled = try container.decodeIfPresent(Bool.self, forKey: .enabled)
        prompt = try container.decodeIfPresent(ActionPrompt.self, forKey: .prompt)
        href = try container.decodeIfPresent(String.self, forKey: .href)
    }

    /// Writes `"method":"POST"`, the `href` under `CodingUserInfoKey.actionHref` (or the one decoded), and `body`
    /// with `type` beside the fields; an invitation action as `encodeInvitation(to:)` says.
    public func encode(to encoder: any Encoder) throws {
        if target == .invitations {
            try encodeInvitation(to: encoder)
            return
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("POST", forKey: .method)
        if let href = encoder.userInfo[.actionHref] as? String ?? href {
            try container.encode(href, forKey: .href)
        }
        // The body's members straight into its container (each field writes its wire value; `type` is the event's,
        // whatever a field of that name says): no dictionary made and encoded again per snapshot.
        var body = container.nestedContainer(keyedBy: IntentCodingKeys.self, forKey: .body)
        try body.encode(event, forKey: IntentCodingKeys("type"))
        for (name, value) in fields where name != "type" { try body.encode(value, forKey: IntentCodingKeys(name)) }
        // Only placeholders that take something other than any string: an action of string placeholders is
        // written as it always was.
        var inputs: [String: ActionInputType] = [:]
        for case .placeholder(let placeholder) in fields.values where placeholder.type != .string {
            inputs[placeholder.name] = placeholder.type
        }
        if !inputs.isEmpty { try container.encode(inputs, forKey: .inputs) }
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
    /// The URL of the session's invitations, which invitation actions post to while a snapshot is encoded (a
    /// `String`, `/v1/sessions/{id}/invitations`).
    public static let invitationsHref = CodingUserInfoKey(rawValue: "viewhost.invitationsHref")!
}
