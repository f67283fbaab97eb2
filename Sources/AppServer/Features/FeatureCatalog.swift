/// The features a session can host, in the order snapshots and links list them.
enum FeatureCatalog {
    static func all(configuration: AppConfiguration) -> [FeatureDefinition] {
        [.chat, .weather(configuration: configuration.weather), .login, .person]
    }
}
