import Foundation

/// The feature types a stored session may hold, by name: what decoding a ``SessionCore`` needs to read each
/// feature's state (the core itself knows features only as names).
public struct FeatureTypes: Sendable {
    private let decoders: [String: @Sendable (any Decoder) throws -> any AnyFeatureSlot]
    /// Each feature's ``StoredShape``, probed when asked for (when a store opens), not with every registration.
    private let shapes: [String: @Sendable () -> StoredShape]

    /// The types of `features`.
    public init(_ features: [any Feature.Type]) {
        var decoders: [String: @Sendable (any Decoder) throws -> any AnyFeatureSlot] = [:]
        var schemas: [String: ClosedRange<Int>] = [:]
        var shapes: [String: @Sendable () -> StoredShape] = [:]
        for feature in features {
            decoders[Self.name(of: feature)] = Self.decoder(for: feature)
            schemas[Self.name(of: feature)] = Self.schema(of: feature)
            shapes[Self.name(of: feature)] = Self.shape(of: feature)
        }
        self.decoders = decoders
        self.schemas = schemas
        self.shapes = shapes
    }

    /// The types of every feature of `types` (a later one wins a name).
    public init(merging types: [FeatureTypes]) {
        decoders = types.reduce(into: [:]) { $0.merge($1.decoders) { $1 } }
        schemas = types.reduce(into: [:]) { $0.merge($1.schemas) { $1 } }
        shapes = types.reduce(into: [:]) { $0.merge($1.shapes) { $1 } }
    }

    /// The shape of `feature`'s stored values in this build; nil for a feature not registered.
    public func shape(of feature: String) -> StoredShape? {
        shapes[feature]?()
    }

    /// Each feature's schema versions this build reads, by name: the oldest it migrates from up to its current one.
    public let schemas: [String: ClosedRange<Int>]

    /// Refuses stored data of `feature` at schema `version` that this build cannot read.
    /// - Throws: ``SchemaError``: the feature is not registered, or the version is newer than the feature's or
    ///   older than it migrates from.
    public func check(feature: String, schema version: Int) throws(SchemaError) {
        guard let range = schemas[feature] else { throw .unknownFeature(feature) }
        if version > range.upperBound { throw .newer(feature: feature, stored: version, current: range.upperBound) }
        if version < range.lowerBound { throw .cannotMigrate(feature: feature, from: version, to: range.upperBound) }
    }

    /// A JSON decoder that reads a ``SessionCore`` (or anything holding one) with these types.
    public func jsonDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.userInfo[.featureTypes] = self
        return decoder
    }

    func decodeSlot(named name: String, from decoder: any Decoder) throws -> any AnyFeatureSlot {
        guard let decode = decoders[name] else { throw SchemaError.unknownFeature(name) }
        return try decode(decoder)
    }

    private static func schema<F: Feature>(of feature: F.Type) -> ClosedRange<Int> {
        min(F.oldestMigratableVersion, F.schemaVersion)...F.schemaVersion
    }

    private static func name<F: Feature>(of feature: F.Type) -> String { F.key.name }

    private static func shape<F: Feature>(of feature: F.Type) -> @Sendable () -> StoredShape {
        { StoredShape(of: F.self) }
    }

    private static func decoder<F: Feature>(for feature: F.Type) -> @Sendable (any Decoder) throws -> any AnyFeatureSlot
    {
        { decoder in try FeatureSlot<F>(from: decoder) }
    }
}

extension CodingUserInfoKey {
    /// The ``FeatureTypes`` a decoder of ``SessionCore`` reads feature states with.
    public static let featureTypes = CodingUserInfoKey(rawValue: "viewhost.featureTypes")!
}

/// A session's whole value as one document: settings, counters (sequence, random state, next timer number), the
/// log ring, the idempotency keys, and per feature its name, state, version and pending timers. Decoding needs
/// ``FeatureTypes`` under ``CodingUserInfoKey/featureTypes``.
extension SessionCore: Codable {
    private enum CodingKeys: String, CodingKey {
        case settings, counters, log, idempotency, features
    }

    private enum SlotKeys: String, CodingKey {
        case name, slot
    }

    /// Reads the whole value, each feature's slot with the ``FeatureTypes`` under `CodingUserInfoKey.featureTypes`
    /// (without them it throws); a feature name they do not know throws ``SchemaError/unknownFeature(_:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let types = decoder.userInfo[.featureTypes] as? FeatureTypes else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "no feature types to decode with"))
        }
        sharedSettings = SharedSettings(try container.decode(SessionSettings.self, forKey: .settings))
        counters = try container.decode(SessionCounters.self, forKey: .counters)
        log = try container.decode(EventLog.self, forKey: .log)
        idempotency = try container.decode(IdempotencyLedger.self, forKey: .idempotency)
        var features = try container.nestedUnkeyedContainer(forKey: .features)
        var slots: [any AnyFeatureSlot] = []
        while !features.isAtEnd {
            let item = try features.nestedContainer(keyedBy: SlotKeys.self)
            let name = try item.decode(String.self, forKey: .name)
            slots.append(try types.decodeSlot(named: name, from: item.superDecoder(forKey: .slot)))
        }
        self.slots = slots
        featureNames = slots.map(\.name)
        log.share(names: featureNames)
    }

    /// Writes the whole value, the features in the session's order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(settings, forKey: .settings)
        try container.encode(counters, forKey: .counters)
        try container.encode(log, forKey: .log)
        try container.encode(idempotency, forKey: .idempotency)
        var features = container.nestedUnkeyedContainer(forKey: .features)
        for slot in slots {
            var item = features.nestedContainer(keyedBy: SlotKeys.self)
            try item.encode(slot.name, forKey: .name)
            try slot.encode(to: item.superEncoder(forKey: .slot))
        }
    }
}
