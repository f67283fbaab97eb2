import ViewHostAPI
import WeatherAPI

extension WeatherSnapshot {
    /// The snapshot of `viewModel` as served by `provider`.
    package init(_ viewModel: WeatherViewModel, provider: String) {
        self.init(
            locationName: viewModel.locationName, date: viewModel.date, icon: viewModel.icon,
            summary: viewModel.summary, forecastSummary: viewModel.forecastSummary, status: viewModel.status,
            provider: provider, observedAt: viewModel.observedAt, error: viewModel.error)
    }
}
