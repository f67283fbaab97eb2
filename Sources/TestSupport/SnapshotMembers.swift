import Foundation

/// The rule snapshots keep across releases: a snapshot may gain members, never lose or change one.
public enum SnapshotMembers {
    /// Whether `served` keeps every member of `earlier` with its value (both as `JSONSerialization` reads them):
    /// objects may gain members, arrays keep their length and each element is compared so, any other value is equal.
    public static func keep(_ served: Any, _ earlier: Any) -> Bool {
        switch (served, earlier) {
        case (let served as [String: Any], let earlier as [String: Any]):
            return earlier.allSatisfy { key, value in served[key].map { keep($0, value) } ?? false }
        case (let served as [Any], let earlier as [Any]):
            return served.count == earlier.count && zip(served, earlier).allSatisfy { keep($0, $1) }
        default:
            return (served as? NSObject)?.isEqual(earlier) ?? false
        }
    }
}
