/// An encoder that takes a value's JSON text as it is. A type whose encoding is hot (a session's data-flow log, in
/// every snapshot) writes its own text with a ``JSONWriter`` in the ``JSONWriter/Form/encoder`` form and hands it
/// over, instead of going through containers value by value; any other encoder (Foundation's `JSONEncoder`) gets
/// its `encode(to:)` as before.
///
/// ``SortedJSONEncoder``'s encoder is one.
public protocol JSONTextEncoder: Encoder {
    /// Encodes `text` as the value: it must be one JSON value, and exactly the bytes the value's `encode(to:)` makes
    /// through ``SortedJSONEncoder`` (members sorted by their UTF-8 bytes, a `nil` optional left out), since stored
    /// values are compared and digested byte for byte.
    func encodeJSONText(_ text: [UInt8])
}
