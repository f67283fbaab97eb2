/// The bot's lines, exactly as the original's `StubMessageSender` has them (seed 001, "Reply texts" and
/// "Goodbye"). Immutable; the comment pool that draws from ``comments`` lives in each session's sender.
enum BotReplies {
    /// Reply 0 of a session.
    static let greetings = ["Hi!", "Hey", "Long time no see", "Hello", "So you're here too? 😎"]
    /// Said when ``greetings`` is empty.
    static let greetingFallback = "Hi"
    /// Reply 1 of a session.
    static let questions = [
        "What have you been up to lately?",
        "I haven't seen you in a while, are you still working for TopTal?",
        "So how's that colleague of you? 🙃",
        "Still going out like last year?",
    ]
    /// Said when ``questions`` is empty.
    static let questionFallback = "How are you?"
    /// Replies 2 and later, without repeats until all are used.
    static let comments = [
        "I'm working on my thesis now",
        "I was hoping all is fine with you",
        "Some day I should get into the game again as well",
        "I can't remember the last time we had a beer, it's about time 🍻",
        "Programming some stuff, fueled by 🍕",
    ]
    /// Said when the comment pool is empty even after a refill.
    static let commentFallback = "It's great to see you here"
    /// Goodbyes sent through push when the app resigns active.
    static let salutes = ["OK, bye", "Sure, see ya 👍", "ttyl 😎", "Nice talking to you again"]
    /// Said when ``salutes`` is empty.
    static let saluteFallback = "See you!"
}
