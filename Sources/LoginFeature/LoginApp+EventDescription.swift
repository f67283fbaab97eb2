import ViewModelCore

/// How the data-flow log shows login events: the original's names, and never the password.
extension LoginApp {
    /// The event's name and a short payload summary: `value="maruko"` for the username, only `length=4` for the
    /// password (the log is readable by the session's holder and kept in memory; a password stays out of it).
    public static func describe(_ event: LoginEvent) -> EventDescription {
        switch event {
        case .usernameDidChange(let text):
            EventDescription(name: "usernameDidChange", summary: "value=\"\(short(text))\"")
        case .passwordDidChange(let length):
            EventDescription(name: "passwordDidChange", summary: "length=\(length.units)")
        case .loginTouched:
            EventDescription(name: "loginTouched")
        }
    }

    /// At most 32 UTF-8 bytes of `value` (cut on a code point), so a summary never grows with its payload.
    private static func short(_ value: String) -> String {
        EventDescription.shortened(value, maxBytes: 32)
    }
}
