import ChatFeature
import LoginFeature
import PersonFeature
import ViewHost
import WeatherFeature

// The `viewhost` executable: the four seed features, served through the library like any app's. Its name is the
// executable's (`viewhost listening on …`); its version is the library's own.
await ViewHostCommand.run(features: [.chat, .weather, .login, .person], version: ViewHostVersion.current)
