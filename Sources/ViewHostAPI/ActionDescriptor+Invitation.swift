/// Actions that create an invitation instead of posting an event: the library's contact invitation, offered by a
/// feature that takes contacts (a chat list's "invite someone").
///
/// On the wire such an action says `"target":"invitations"`; its `href` is the session's invitations route (the
/// server writes it from `CodingUserInfoKey.invitationsHref`) and its body is the invitation's, with no `type`:
///
/// ```json
/// {"method":"POST","target":"invitations","href":"/v1/sessions/ID/invitations",
///  "body":{"purpose":"contact","features":["chat"],"name":"{name}"}}
/// ```
///
/// The answer is the invitation's (`201` with its `id`, `code`, `expiresAt` and `uses`), not an event's `202`.
extension ActionDescriptor {
    /// Which route an action posts to.
    public enum Target: String, Codable, Sendable, CaseIterable {
        /// The feature's events route (`/v1/sessions/{id}/{feature}/events`); the body has `type`.
        case events
        /// The session's invitations route (`/v1/sessions/{id}/invitations`); the body is an invitation's.
        case invitations
    }

    /// The action that creates a contact invitation for `feature`, under the name the person fills in (`{name}`,
    /// which a page prefills from what the person logged in as).
    /// - Parameters:
    ///   - feature: The feature the contact is for, which must take contacts (`Feature.takesContacts`).
    ///   - enabled: Whether it may run now (nil: always).
    /// - Returns: The action, its body `{"purpose":"contact","features":[feature],"name":"{name}"}`.
    public static func contactInvitation(feature: String, enabled: Bool? = nil) -> ActionDescriptor {
        var action = ActionDescriptor(event: "contact", fields: ["name": .input("name")], enabled: enabled)
        action.target = .invitations
        action.features = [feature]
        return action
    }

    /// Reads an invitation action: `body.purpose` is its event, `body.features` its features, the other members its
    /// fields.
    init(invitationFrom container: KeyedDecodingContainer<CodingKeys>) throws {
        let body = try container.nestedContainer(keyedBy: IntentCodingKeys.self, forKey: .body)
        let inputs = try container.decodeIfPresent([String: ActionInputType].self, forKey: .inputs) ?? [:]
        var fields: [String: ActionValue] = [:]
        var features: [String] = []
        for key in body.allKeys {
            if key.stringValue == "features" {
                features = try body.decode([String].self, forKey: key)
            } else {
                fields[key.stringValue] = try body.decode(ActionValue.self, forKey: key).resolved(inputs: inputs)
            }
        }
        guard case .string(let purpose)? = fields.removeValue(forKey: "purpose") else {
            throw DecodingError.dataCorruptedError(
                forKey: .body, in: container, debugDescription: "an invitation action's body has no purpose")
        }
        self.init(
            event: purpose, fields: fields, enabled: try container.decodeIfPresent(Bool.self, forKey: .enabled),
            prompt: try container.decodeIfPresent(ActionPrompt.self, forKey: .prompt))
        self.target = .invitations
        self.features = features
        href = try container.decodeIfPresent(String.self, forKey: .href)
    }

    /// Writes `"method":"POST"`, `"target":"invitations"`, the `href` under `CodingUserInfoKey.invitationsHref` (or
    /// the one decoded), and the body: `purpose` (the event), `features` and the fields.
    func encodeInvitation(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("POST", forKey: .method)
        try container.encode(target, forKey: .target)
        if let href = encoder.userInfo[.invitationsHref] as? String ?? href {
            try container.encode(href, forKey: .href)
        }
        var body = container.nestedContainer(keyedBy: IntentCodingKeys.self, forKey: .body)
        try body.encode(event, forKey: IntentCodingKeys("purpose"))
        try body.encode(features, forKey: IntentCodingKeys("features"))
        for name in fields.keys.sorted() {
            try body.encode(fields[name] ?? .null, forKey: IntentCodingKeys(name))
        }
        try container.encodeIfPresent(enabled, forKey: .enabled)
        try container.encodeIfPresent(prompt, forKey: .prompt)
    }

    /// The invitation's body to post, its placeholders filled from `parameters`: `purpose`, the fields, and
    /// `features` (a list, so it is a value of its own).
    public func invitationBody(filling parameters: [String: ActionValue]) -> Result<InvitationBody, ParameterError> {
        body(filling: parameters).map { body in
            var fields = body
            fields.removeValue(forKey: "type")
            fields["purpose"] = .string(event)
            return InvitationBody(fields: fields, features: features)
        }
    }

    /// What an invitation action posts: its fields (`purpose`, `name`…) and `features`.
    public struct InvitationBody: Encodable, Equatable, Sendable {
        /// `purpose` and the filled fields.
        public let fields: [String: ActionValue]
        /// The features the invitation names.
        public let features: [String]

        /// Writes the fields and `features` as one object.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: IntentCodingKeys.self)
            for (name, value) in fields { try container.encode(value, forKey: IntentCodingKeys(name)) }
            try container.encode(features, forKey: IntentCodingKeys("features"))
        }
    }
}
