/// JSON Patch (RFC 6902): the operations that turn one JSON document into another, made from the two documents
/// (``diff(from:to:)``) and applied to the first (``apply(_:to:)``). Paths are JSON Pointers (RFC 6901).
///
/// The server sends a client the patch from the version it holds to the newest one instead of the whole snapshot;
/// the client applies it and checks the result's version. Numbers are IEEE doubles here, as in JavaScript: an
/// integer past 2^53 in magnitude would not come through a patch exactly.
public enum JSONPatch {
    /// One operation.
    public enum Operation: Equatable, Sendable {
        case add(path: String, value: JSONValue)
        case remove(path: String)
        case replace(path: String, value: JSONValue)
        case move(from: String, path: String)
        case copy(from: String, path: String)
        case test(path: String, value: JSONValue)
    }

    /// Why a patch could not be read or applied; `index` is the operation's place in the patch.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The operation's place in the patch, from 0.
        public let index: Int
        /// What is wrong with the operation.
        public let reason: String

        /// The operation's index and the reason.
        public var description: String { "operation \(index): \(reason)" }
    }

    // MARK: - Making a patch

    /// The operations that turn `old` into `new`: nothing when they are equivalent; members added, removed or
    /// changed (recursively) in objects; in arrays, the elements before and after a changed stretch are kept, and
    /// the stretch is changed element by element where its elements line up (the longest common subsequence,
    /// when it is small enough to find cheaply), else replaced.
    public static func diff(from old: JSONValue, to new: JSONValue) -> [Operation] {
        // Written out, both are valid JSON: the text diff cannot fail on them.
        (try? diff(from: old.json, to: new.json)) ?? [.replace(path: "", value: new)]
    }

    /// ``diff(from:to:)-(JSONValue,JSONValue)`` of two JSON texts, comparing their parts byte for byte before
    /// parsing any: only what changed is read into values. For two snapshots, whose text is canonical (keys
    /// sorted, one encoding per value), equal parts are equal bytes, so the patch is as small as the tree diff's,
    /// for the cost of a scan over both texts.
    /// - Throws: ``JSONParser/Failure`` when either is not JSON.
    public static func diff(from old: [UInt8], to new: [UInt8]) throws(JSONParser.Failure) -> [Operation] {
        let before = try IndexedJSON(old)
        return try diff(from: before, to: IndexedJSON(new, after: before))
    }

    /// ``diff(from:to:)-([UInt8],[UInt8])`` of two texts read already (each is read once however many patches it
    /// is a side of).
    /// - Throws: ``JSONParser/Failure`` when a part that changed is not JSON.
    public static func diff(from before: IndexedJSON, to after: IndexedJSON) throws(JSONParser.Failure) -> [Operation] {
        var operations: [Operation] = []
        try diff(before, before.root, after, after.root, path: "", into: &operations)
        return operations
    }

    /// The longest stretch of changed array elements, old times new, matched element by element (beyond it a
    /// stretch is replaced by its new elements).
    static let matchingBudget = 40_000

    private static func diff(
        _ old: IndexedJSON, _ oldNode: Int, _ new: IndexedJSON, _ newNode: Int, path: String,
        into operations: inout [Operation]
    ) throws(JSONParser.Failure) {
        if old.same(oldNode, as: newNode, in: new) { return }
        let oldKind = old.kind(oldNode)
        let newKind = new.kind(newNode)
        let containers = oldKind == newKind && (oldKind == UInt8(ascii: "{") || oldKind == UInt8(ascii: "["))
        let oldFolded = containers && old.isFolded(oldNode)
        let newFolded = containers && new.isFolded(newNode)
        if oldFolded || newFolded {
            // A small container whose children were not listed: they are read now, for this diff only.
            let olderPart = oldFolded ? try old.unfolded(oldNode) : old
            let newerPart = newFolded ? try new.unfolded(newNode) : new
            try diff(
                olderPart, oldFolded ? 0 : oldNode, newerPart, newFolded ? 0 : newNode, path: path, into: &operations)
        } else if oldKind == UInt8(ascii: "{"), newKind == UInt8(ascii: "{") {
            try diffObjects(old, oldNode, new, newNode, path: path, into: &operations)
        } else if oldKind == UInt8(ascii: "["), newKind == UInt8(ascii: "[") {
            // The elements both start with are walked without being listed.
            var oldElement = old.firstChild(oldNode)
            var newElement = new.firstChild(newNode)
            var prefix = 0
            while oldElement >= 0, newElement >= 0, old.same(oldElement, as: newElement, in: new) {
                oldElement = old.nextSibling(oldElement)
                newElement = new.nextSibling(newElement)
                prefix += 1
            }
            try diffArrays(
                old, old.siblings(from: oldElement), new, new.siblings(from: newElement), from: prefix, path: path,
                into: &operations)
        } else {
            let value = try new.value(newNode)
            if !(try old.value(oldNode)).isEquivalent(to: value) {
                operations.append(.replace(path: path, value: value))
            }
        }
    }

    /// Two objects' members paired by name (in canonical texts both are sorted, so the next old member is tried
    /// first): members only the old one has are removed, members only the new one has are added, and the others
    /// diffed. Names become strings only for the operations written.
    private static func diffObjects(
        _ old: IndexedJSON, _ oldNode: Int, _ new: IndexedJSON, _ newNode: Int, path: String,
        into operations: inout [Operation]
    ) throws(JSONParser.Failure) {
        // Most often both have the same members in the same order: diffed as they come, nothing listed.
        let mark = operations.count
        var oldMember = old.firstChild(oldNode)
        var newMember = new.firstChild(newNode)
        while oldMember >= 0, newMember >= 0, old.sameName(oldMember, as: newMember, in: new) {
            try diffMember(old, oldMember, new, newMember, path: path, into: &operations)
            oldMember = old.nextSibling(oldMember)
            newMember = new.nextSibling(newMember)
        }
        if oldMember < 0, newMember < 0 { return }
        try diffMembers(
            old, old.siblings(from: oldMember), new, new.siblings(from: newMember), path: path, removalsAt: mark,
            into: &operations)
    }

    /// The rest of two objects' members paired by name (the next old member tried first: in canonical texts both
    /// are sorted): members only the old one has are removed (those operations go at `removalsAt`, before the
    /// object's others), members only the new one has are added, and the others diffed.
    private static func diffMembers(
        _ old: IndexedJSON, _ before: [Int], _ new: IndexedJSON, _ after: [Int], path: String, removalsAt mark: Int,
        into operations: inout [Operation]
    ) throws(JSONParser.Failure) {
        var pairs = [Int](repeating: -1, count: after.count)
        var paired = [Bool](repeating: false, count: before.count)
        var next = 0
        for (index, member) in after.enumerated() {
            var match = -1
            if next < before.count, !paired[next], old.sameName(before[next], as: member, in: new) {
                match = next
            } else if let found = before.indices.first(where: {
                !paired[$0] && old.sameName(before[$0], as: member, in: new)
            }) {
                match = found
            }
            guard match >= 0 else { continue }
            pairs[index] = match
            paired[match] = true
            next = match + 1
        }
        var removals: [Operation] = []
        for (index, member) in before.enumerated() where !paired[index] {
            removals.append(.remove(path: path + "/" + escaped(try old.name(of: member))))
        }
        operations.insert(contentsOf: removals, at: mark)
        for (index, member) in after.enumerated() {
            if pairs[index] >= 0 {
                try diffMember(old, before[pairs[index]], new, member, path: path, into: &operations)
            } else {
                operations.append(
                    .add(path: path + "/" + escaped(try new.name(of: member)), value: try new.value(member)))
            }
        }
    }

    /// Two members of the same name, diffed (its path made only when they differ).
    private static func diffMember(
        _ old: IndexedJSON, _ oldMember: Int, _ new: IndexedJSON, _ newMember: Int, path: String,
        into operations: inout [Operation]
    ) throws(JSONParser.Failure) {
        guard !old.same(oldMember, as: newMember, in: new) else { return }
        try diff(
            old, oldMember, new, newMember, path: path + "/" + escaped(try new.name(of: newMember)), into: &operations)
    }

    /// Two arrays' elements after the `prefix` they start with.
    private static func diffArrays(
        _ old: IndexedJSON, _ oldElements: [Int], _ new: IndexedJSON, _ newElements: [Int], from prefix: Int,
        path: String,
        into operations: inout [Operation]
    ) throws(JSONParser.Failure) {
        func same(_ i: Int, _ j: Int) -> Bool { old.same(oldElements[i], as: newElements[j], in: new) }
        var suffix = 0
        while suffix < oldElements.count, suffix < newElements.count,
            same(oldElements.count - 1 - suffix, newElements.count - 1 - suffix)
        {
            suffix += 1
        }
        let oldMiddle = Array(oldElements[0..<(oldElements.count - suffix)])
        let newMiddle = Array(newElements[0..<(newElements.count - suffix)])
        guard !oldMiddle.isEmpty || !newMiddle.isEmpty else { return }
        let steps: [ArrayStep]
        if let moved = shifted(
            oldMiddle.count, newMiddle.count, same: { old.same(oldMiddle[$0], as: newMiddle[$1], in: new) })
        {
            steps = moved
        } else if oldMiddle.isEmpty || newMiddle.isEmpty || oldMiddle.count * newMiddle.count > matchingBudget {
            steps = pairedOff(oldMiddle.count, newMiddle.count)
        } else {
            steps = alignment(oldMiddle.map { old.bytes[old.range($0)] }, newMiddle.map { new.bytes[new.range($0)] })
        }
        // Applied left to right, the array is the new elements so far followed by the old ones not yet visited.
        var position = prefix
        var oldIndex = 0
        var newIndex = 0
        for step in steps {
            switch step {
            case .keep:
                position += 1
                oldIndex += 1
                newIndex += 1
            case .change:
                try diff(
                    old, oldMiddle[oldIndex], new, newMiddle[newIndex], path: path + "/\(position)", into: &operations)
                position += 1
                oldIndex += 1
                newIndex += 1
            case .remove:
                operations.append(.remove(path: path + "/\(position)"))
                oldIndex += 1
            case .insert:
                operations.append(.add(path: path + "/\(position)", value: try new.value(newMiddle[newIndex])))
                position += 1
                newIndex += 1
            }
        }
    }

    private enum ArrayStep {
        case keep, change, remove, insert
    }

    /// Steps for `oldCount` old and `newCount` new elements taken in pairs: each pair changed in place, then the
    /// old ones left over removed or the new ones added.
    private static func pairedOff(_ oldCount: Int, _ newCount: Int) -> [ArrayStep] {
        Array(repeating: .change, count: min(oldCount, newCount))
            + Array(repeating: oldCount > newCount ? .remove : .insert, count: abs(oldCount - newCount))
    }

    /// How many elements at the start of a changed stretch ``shifted(_:_:same:)`` looks past.
    static let shiftSearch = 64

    /// Steps for a stretch that moved as a window does: the old one's first `k` elements removed (or `k` new ones
    /// inserted before them), then the rest of one is the start of the other, then what is left is added (or
    /// removed). Found by looking at most ``shiftSearch`` elements in, so that a long list that moved on by a few
    /// elements is a few removals and additions, whatever its length; nil when the stretch is not such a move.
    /// `same(i, j)`: whether old element `i` and new element `j` are the same.
    private static func shifted(_ oldCount: Int, _ newCount: Int, same: (Int, Int) -> Bool) -> [ArrayStep]? {
        guard oldCount > 0, newCount > 0 else { return nil }
        // `skipped` elements of the old stretch (or of the new one) first, then a run of the same elements up to the
        // end of one of the two.
        func moved(by skipped: Int, dropsOld: Bool) -> [ArrayStep]? {
            let rest = dropsOld ? min(oldCount - skipped, newCount) : min(newCount - skipped, oldCount)
            guard rest > 0 else { return nil }
            var run = 0
            while run < rest, dropsOld ? same(skipped + run, run) : same(run, skipped + run) { run += 1 }
            guard run == rest else { return nil }
            let leftOld = oldCount - (dropsOld ? skipped : 0) - run
            let leftNew = newCount - (dropsOld ? 0 : skipped) - run
            return Array(repeating: dropsOld ? .remove : .insert, count: skipped) + Array(repeating: .keep, count: run)
                + pairedOff(leftOld, leftNew)
        }
        for skipped in 1..<max(1, min(shiftSearch, max(oldCount, newCount))) {
            if let steps = moved(by: skipped, dropsOld: true) ?? moved(by: skipped, dropsOld: false) { return steps }
        }
        return nil
    }

    /// Steps from `old` to `new` (elements' texts) along their longest common subsequence; a removal next to an
    /// insertion becomes a change (the element changed in place, diffed member by member).
    private static func alignment(_ old: [ArraySlice<UInt8>], _ new: [ArraySlice<UInt8>]) -> [ArrayStep] {
        let columns = new.count + 1
        // Elements are compared by a hash of their text first: most pairs differ.
        let oldHashes = old.map(hash)
        let newHashes = new.map(hash)
        func same(_ i: Int, _ j: Int) -> Bool { oldHashes[i] == newHashes[j] && old[i].elementsEqual(new[j]) }
        var lengths = [Int](repeating: 0, count: (old.count + 1) * columns)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                lengths[i * columns + j] =
                    same(i, j)
                    ? lengths[(i + 1) * columns + j + 1] + 1
                    : max(lengths[(i + 1) * columns + j], lengths[i * columns + j + 1])
            }
        }
        var steps: [ArrayStep] = []
        var removals = 0
        var insertions = 0
        func flush() {
            let changes = min(removals, insertions)
            steps += Array(repeating: .change, count: changes)
            steps += Array(repeating: .remove, count: removals - changes)
            steps += Array(repeating: .insert, count: insertions - changes)
            removals = 0
            insertions = 0
        }
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, same(i, j) {
                flush()
                steps.append(.keep)
                i += 1
                j += 1
            } else if j < new.count, i == old.count || lengths[i * columns + j + 1] >= lengths[(i + 1) * columns + j] {
                insertions += 1
                j += 1
            } else {
                removals += 1
                i += 1
            }
        }
        flush()
        return steps
    }

    private static func hash(_ bytes: ArraySlice<UInt8>) -> Int {
        var hasher = Hasher()
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        return hasher.finalize()
    }

    // MARK: - As JSON

    /// The patch as a JSON array of operation objects (members sorted: `from`, `op`, `path`, `value`).
    public static func json(_ operations: [Operation]) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginArray()
        for operation in operations {
            writer.beginObject()
            switch operation {
            case .add(let path, let value), .replace(let path, let value), .test(let path, let value):
                writer.key("op")
                writer.string(operation.name)
                writer.key("path")
                writer.string(path)
                writer.key("value")
                writer.value(value)
            case .remove(let path):
                writer.key("op")
                writer.string(operation.name)
                writer.key("path")
                writer.string(path)
            case .move(let from, let path), .copy(let from, let path):
                writer.key("from")
                writer.string(from)
                writer.key("op")
                writer.string(operation.name)
                writer.key("path")
                writer.string(path)
            }
            writer.endObject()
        }
        writer.endArray()
        return writer.bytes
    }

    /// The operations of a patch document (a JSON array of operation objects).
    /// - Throws: ``Failure`` naming the first operation that is not one.
    public static func operations(_ document: JSONValue) throws(Failure) -> [Operation] {
        guard case .array(let items) = document else { throw Failure(index: 0, reason: "a patch is a JSON array") }
        var operations: [Operation] = []
        for (index, item) in items.enumerated() {
            func string(_ name: String) throws(Failure) -> String {
                guard case .string(let text)? = item[name] else {
                    throw Failure(index: index, reason: "'\(name)' must be a string")
                }
                return text
            }
            func value() throws(Failure) -> JSONValue {
                guard let value = item["value"] else { throw Failure(index: index, reason: "'value' is missing") }
                return value
            }
            switch try string("op") {
            case "add": operations.append(.add(path: try string("path"), value: try value()))
            case "remove": operations.append(.remove(path: try string("path")))
            case "replace": operations.append(.replace(path: try string("path"), value: try value()))
            case "move": operations.append(.move(from: try string("from"), path: try string("path")))
            case "copy": operations.append(.copy(from: try string("from"), path: try string("path")))
            case "test": operations.append(.test(path: try string("path"), value: try value()))
            case let other: throw Failure(index: index, reason: "'\(other)' is not an operation")
            }
        }
        return operations
    }
}

extension JSONPatch.Operation {
    /// The operation's `op`.
    public var name: String {
        switch self {
        case .add: "add"
        case .remove: "remove"
        case .replace: "replace"
        case .move: "move"
        case .copy: "copy"
        case .test: "test"
        }
    }
}
