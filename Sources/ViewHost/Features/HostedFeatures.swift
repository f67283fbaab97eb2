import ViewModelCore

/// The features an app serves, checked and configured once at start: the library's view of the app's
/// registrations (`FeatureRegistration`), in the order they were listed (the order snapshots, links and the page
/// list them). The library knows no feature but through this.
public struct HostedFeatures: Sendable {
    /// The registrations, as the app listed them.
    public let registrations: [FeatureRegistration]
    let definitions: [FeatureDefinition]

    /// Route segments a feature's name would shadow under `/v1/sessions/{id}/`.
    static let reservedNames: Set<String> = [
        "log", "stream", "journal", "versions", "events", "history", "invitations", "contacts",
        "participants",
    ]

    /// No features (an app made in code that hosts none).
    public init() {
        registrations = []
        definitions = []
    }

    /// `registrations`, each hosted as its settings say.
    /// - Throws: ``ConfigurationError/invalidFeatures(reason:)`` for registrations that cannot be served together
    ///   (see ``check(_:serverKeys:)``); ``ConfigurationError/invalidValue(key:source:reason:)`` for a setting a
    ///   feature cannot use.
    public init(
        _ registrations: [FeatureRegistration], settings: any FeatureSettings,
        source: (String) -> String = { _ in "default" }
    ) throws(ConfigurationError) {
        try Self.check(registrations, serverKeys: ConfigurationKey.server)
        var definitions: [FeatureDefinition] = []
        for registration in registrations {
            let definition: FeatureDefinition
            do throws(SettingError) {
                definition = FeatureDefinition(try registration.hosting(with: settings))
            } catch {
                throw .invalidValue(key: error.key, source: source(error.key), reason: error.reason)
            }
            // Every event may carry an `id` of its own (a retry of it is acknowledged, not applied again): an intent's
            // field of that name would be taken for it.
            for (type, fields) in definition.fieldsByType.sorted(by: { $0.key < $1.key }) where fields.contains("id") {
                throw .invalidFeatures(
                    reason: "feature '\(definition.name)' reads a field 'id' in event '\(type)'; every event's 'id' is "
                        + "its client event id, so name the field otherwise (such as 'item')")
            }
            definitions.append(definition)
        }
        self.registrations = registrations
        self.definitions = definitions
    }

    /// The features' names, in order.
    public var names: [String] { registrations.map(\.name) }

    /// The features' types, for decoding stored sessions.
    public var types: FeatureTypes { FeatureTypes(merging: registrations.map(\.types)) }

    /// The settings every feature declares, in order.
    public var settingKeys: [ConfigurationKey] { registrations.flatMap(\.settings) }

    /// The definition of feature `name`, if the app hosts it.
    func definition(named name: String) -> FeatureDefinition? {
        definitions.first { $0.name == name }
    }

    /// The viewer `member` reads `feature` as, when it gets a view of its own: a member (nil: the owner) of a
    /// feature whose snapshot depends on its viewer. Nil for every other reader, who shares the one snapshot of each
    /// version (the owner's), its cache and its `ETag`.
    func ownViewer(of feature: String, for member: Participant?) -> Viewer? {
        guard let member, definition(named: feature)?.dependsOnViewer == true else { return nil }
        return Viewer(participant: member.id)
    }

    /// Refuses registrations that cannot be served together: a name listed twice, a name that is not a plain
    /// path segment (a letter, then letters, digits, `-` or `_`; at most 64), a name a route of its own takes
    /// (`log`, `stream`, `journal`…), or a setting that is not named under its feature or that another key has.
    /// - Throws: ``ConfigurationError/invalidFeatures(reason:)`` saying which.
    public static func check(_ registrations: [FeatureRegistration], serverKeys: [ConfigurationKey])
        throws(ConfigurationError)
    {
        var names: Set<String> = []
        var keys = Set(serverKeys.map(\.path))
        for registration in registrations {
            let name = registration.name
            guard isPlainName(name) else {
                throw .invalidFeatures(
                    reason: "feature name '\(name)' must be a letter, then letters, digits, '-' or '_' (at most 64)")
            }
            guard !reservedNames.contains(name) else {
                throw .invalidFeatures(reason: "feature name '\(name)' is taken by the route /v1/sessions/{id}/\(name)")
            }
            guard names.insert(name).inserted else {
                throw .invalidFeatures(reason: "feature '\(name)' is registered twice")
            }
            for key in registration.settings {
                guard key.path.hasPrefix(name + ".") else {
                    throw .invalidFeatures(
                        reason: "feature '\(name)' declares setting '\(key.path)', not under '\(name).'")
                }
                guard keys.insert(key.path).inserted else {
                    throw .invalidFeatures(reason: "setting '\(key.path)' of feature '\(name)' is declared twice")
                }
            }
        }
    }

    private static func isPlainName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= 64, (first | 0x20) >= UInt8(ascii: "a"),
            (first | 0x20) <= UInt8(ascii: "z")
        else { return false }
        return bytes.allSatisfy { byte in
            let lower = byte | 0x20
            return (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }
}
