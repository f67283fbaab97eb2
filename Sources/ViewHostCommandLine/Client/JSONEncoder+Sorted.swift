import Foundation
import ViewHost

extension JSONEncoder {
    /// Sorted keys, slashes as they are: stable output for scripts.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
