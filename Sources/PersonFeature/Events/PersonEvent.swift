/// What happened to the person screen's model.
///
/// The original (seed 003) has no events: its view model is made once from an immutable `Person`. A session can
/// replace the person, so the screen can be tested with other values; the client type is `setPerson`.
public enum PersonEvent: Sendable, Equatable, Codable {
    /// The person shown is now this one.
    case personChanged(Person)
}
