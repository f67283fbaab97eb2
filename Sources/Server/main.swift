import ChatFeature
import LoginFeature
import PersonFeature
import PostgresStorage
import ViewHost
import ViewHostCommandLine
import WeatherFeature

// The `viewhost` executable: the four seed features, served through the library like any app's. Its name is the
// executable's (`viewhost listening on …`); its version is the library's own; it offers PostgreSQL (`--store
// postgres`), which an app on SQLite alone need not link.
await ViewHostCommand.run(
    features: [.chat, .weather, .login, .person], version: ViewHostVersion.current, database: .postgres)
