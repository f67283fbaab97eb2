/// A session-wide sequence number as a client sends it back (`?since=`, `Last-Event-ID`): 1 to 18 ASCII digits,
/// so every value fits an `Int` and the OpenAPI document can state the bounds exactly (`0...999999999999999999`).
enum SequenceNumber {
    static let maxDigits = 18

    /// The number, or nil for anything but 1 to 18 digits (no sign, no spaces).
    static func parse(_ text: String) -> Int? {
        let bytes = text.utf8
        guard (1...maxDigits).contains(bytes.count), bytes.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        return Int(text)
    }
}
