import Foundation

/// A slot's stored shape: its state, version, last change and pending work, and the feature's schema version
/// when it is not 1 (so a store written before schema versions existed reads as version 1). A slot of an older
/// schema is brought up to date on decoding by the feature's migrations; a newer one is refused. Its deliveries
/// (`outbox`) and contact numbers (`links`, by address) are written only when it has any, so the value of a session
/// that never made a contact is what earlier releases wrote.
extension FeatureSlot: Codable {
    private enum CodingKeys: String, CodingKey {
        case schema, state, version, lastChangeSequence, timers, requests, outbox, links
    }

    /// - Throws: ``SchemaError`` for a schema version the feature does not read; ``StoredFeatureError`` naming the
    ///   member that does not decode.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let schema = try container.decodeIfPresent(Int.self, forKey: .schema) ?? 1
        do {
            try self.init(container, schema: schema)
        } catch {
            throw StoredFeatureError(error, of: F.self, storedVersion: schema, base: decoder.codingPath) ?? error
        }
    }

    private init(_ container: KeyedDecodingContainer<CodingKeys>, schema: Int) throws {
        version = try container.decode(Int.self, forKey: .version)
        lastChangeSequence = try container.decode(Int.self, forKey: .lastChangeSequence)
        requests = try container.decodeIfPresent([PendingWork<F.Request>].self, forKey: .requests) ?? []
        links = Dictionary(
            uniqueKeysWithValues: (try container.decodeIfPresent([String: ContactLink].self, forKey: .links) ?? [:])
                .map { (ContactAddress($0.key), $0.value) })
        if schema == F.schemaVersion {
            state = try container.decode(F.State.self, forKey: .state)
            timers = TimerTable(
                try container.decodeIfPresent([Int: PendingTimer<F.Event>].self, forKey: .timers) ?? [:])
            outbox = try container.decodeIfPresent([PendingDelivery<F.Event>].self, forKey: .outbox) ?? []
            return
        }
        try F.checkStored(schema: schema)
        state = try F.migrate(state: container.superDecoder(forKey: .state), from: schema)
        timers = TimerTable()
        if container.contains(.outbox) {
            var stored = try container.nestedUnkeyedContainer(forKey: .outbox)
            while !stored.isAtEnd {
                outbox.append(
                    try PendingDelivery(from: stored.superDecoder()) { decoder in
                        try F.migrate(event: decoder, from: schema)
                    })
            }
        }
        guard container.contains(.timers) else { return }
        let stored = try container.nestedContainer(keyedBy: SlotTimerKey.self, forKey: .timers)
        var migrated: [Int: PendingTimer<F.Event>] = [:]
        for key in stored.allKeys {
            guard let id = key.intValue ?? Int(key.stringValue) else { continue }
            migrated[id] = try PendingTimer(from: stored.superDecoder(forKey: key)) { decoder in
                try F.migrate(event: decoder, from: schema)
            }
        }
        timers = TimerTable(migrated)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if F.schemaVersion != 1 { try container.encode(F.schemaVersion, forKey: .schema) }
        try container.encode(state, forKey: .state)
        try container.encode(version, forKey: .version)
        try container.encode(lastChangeSequence, forKey: .lastChangeSequence)
        try container.encode(timers.byID, forKey: .timers)
        try container.encode(requests, forKey: .requests)
        if !outbox.isEmpty { try container.encode(outbox, forKey: .outbox) }
        if !links.isEmpty {
            try container.encode(
                Dictionary(uniqueKeysWithValues: links.map { ($0.key.rawValue, $0.value) }), forKey: .links)
        }
    }
}

/// A pending timer's number as a key of the stored table.
private struct SlotTimerKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init?(stringValue: String) {
        self.stringValue = stringValue
        intValue = Int(stringValue)
    }

    init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
