import ChatFeature
import LoginFeature
import PersonFeature
import ViewHost
import WeatherFeature

// The `viewhost` executable: the four seed features, served through the library like any app's.
await ViewHostCommand.run(features: [.chat, .weather, .login, .person])
