import Foundation

extension Gazetteer {
    /// The places `text` names, most populous first.
    ///
    /// `text` is read as the original's users type it: `Richmond, VA`, `Tallinn, Estonia`, `paris`,
    /// `Springfield, IL, USA`. The name must match a place's name (or alias) exactly after folding (case,
    /// accents, punctuation: `tallinn, ESTONIA`, `Sao Paulo`). Each qualifier narrows the matches: a US state code
    /// or name first (`CA` is California), else a country code, name or alias (`CA` is Canada when no
    /// California place matches); an unknown qualifier (`Paris, Île-de-France`) is ignored. Without a comma, a
    /// text that names no place is retried with its last words as a known qualifier (`Richmond VA`).
    /// - Parameters:
    ///   - text: What the user typed.
    ///   - limit: The most places to return.
    /// - Returns: The matches, most populous first; empty when none.
    package func places(matching text: String, limit: Int = 10) -> [GazetteerPlace] {
        // Folding drops the spaces around the parts, so splitting needs no Foundation trimming.
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let name = parts.first.map { searchKey($0) } ?? []
        let qualifiers = parts.dropFirst().map { searchKey($0) }.filter { !$0.isEmpty }
        if let found = matches(name: name, qualifiers: qualifiers, strict: false) {
            return found.prefix(limit).map(place(at:))
        }
        guard qualifiers.isEmpty else { return [] }
        let words = name.split(separator: 0x20)
        for count in 1..<max(1, min(4, words.count)) {
            let head = Array(words.dropLast(count).joined(separator: [0x20]))
            let tail = Array(words.suffix(count).joined(separator: [0x20]))
            if let found = matches(name: head, qualifiers: [tail], strict: true) {
                return found.prefix(limit).map(place(at:))
            }
        }
        return []
    }

    /// The place record at `index`.
    package func place(at index: Int) -> GazetteerPlace {
        precondition(index >= 0 && index < placeCount, "gazetteer place index out of range")
        let record = placeOffset + index * Self.placeSize
        let state = u8(record + 14)
        let country = countryOffset + (u8(record + 13) - 1) * Self.countrySize
        let zone = u16(record + 15)
        return GazetteerPlace(
            name: string(u24(record)),
            stateCode: state == 0 ? nil : code(at: stateOffset + (state - 1) * Self.stateSize),
            countryCode: code(at: country),
            countryName: string(u24(country + 2)),
            latitude: Double(i24(record + 3)) / 10_000,
            longitude: Double(i24(record + 6)) / 10_000,
            population: u32(record + 9),
            timeZoneIdentifier: zone == 0 ? nil : string(u24(zoneOffset + (zone - 1) * Self.zoneSize)))
    }

    /// The places stored under search key `key` (an index range), or nil when no place has it.
    package func placeIndices(forKey key: [UInt8]) -> Range<Int>? {
        let index = lowerBound(count: keyCount) { compare(reference: u24(keyOffset + $0 * Self.keySize), with: key) }
        guard index < keyCount, compare(reference: u24(keyOffset + index * Self.keySize), with: key) == 0 else {
            return nil
        }
        let first = u24(keyOffset + index * Self.keySize + 3)
        let end = index + 1 < keyCount ? u24(keyOffset + (index + 1) * Self.keySize + 3) : placeCount
        return first..<end
    }

    /// Every search key, in stored (byte) order.
    package func keys() -> [[UInt8]] {
        (0..<keyCount).map { Array(bytes(u24(keyOffset + $0 * Self.keySize))) }
    }

    /// Narrows the places under `name` by `qualifiers`; nil when nothing is left. `strict`: an unknown qualifier
    /// rejects instead of being ignored.
    private func matches(name: [UInt8], qualifiers: [[UInt8]], strict: Bool) -> [Int]? {
        guard !name.isEmpty, let range = placeIndices(forKey: name) else { return nil }
        var candidates = Array(range)
        for qualifier in qualifiers {
            let meanings = qualifierMeanings(of: qualifier)
            if meanings.isEmpty {
                if strict { return nil }
                continue
            }
            let inState = candidates.filter {
                meanings.contains(.init(kind: 1, index: u8(placeOffset + $0 * Self.placeSize + 14)))
            }
            candidates =
                inState.isEmpty
                ? candidates.filter {
                    meanings.contains(.init(kind: 2, index: u8(placeOffset + $0 * Self.placeSize + 13)))
                }
                : inState
            if candidates.isEmpty { return nil }
        }
        return candidates
    }

    /// What a qualifier word can mean: a US state (kind 1) or a country (kind 2), by table index.
    private struct Meaning: Hashable {
        let kind: Int
        let index: Int
    }

    private func qualifierMeanings(of key: [UInt8]) -> Set<Meaning> {
        var row = lowerBound(count: qualifierCount) {
            compare(reference: u24(qualifierOffset + $0 * Self.qualifierSize), with: key)
        }
        var meanings: Set<Meaning> = []
        while row < qualifierCount {
            let offset = qualifierOffset + row * Self.qualifierSize
            guard compare(reference: u24(offset), with: key) == 0 else { break }
            meanings.insert(Meaning(kind: u8(offset + 3), index: u8(offset + 4)))
            row += 1
        }
        return meanings
    }

    /// The first index in `0..<count` whose row does not compare below the key (`order` < 0 means below).
    private func lowerBound(count: Int, order: (Int) -> Int) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if order(middle) < 0 { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Byte order of the pool string at `reference` against `key` (negative: the string sorts first).
    private func compare(reference: Int, with key: [UInt8]) -> Int {
        let stored = bytes(reference)
        let common = min(stored.count, key.count)
        if common > 0 {
            let order = key.withUnsafeBytes { memcmp(stored.baseAddress!, $0.baseAddress!, common) }
            if order != 0 { return Int(order) }
        }
        return stored.count - key.count
    }

    private func code(at offset: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(start: base + offset, count: 2), as: UTF8.self)
    }
}
