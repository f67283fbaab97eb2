import ViewModelCore

extension WeatherApp {
    /// How the page draws the weather: the Grados card, its icon as SVG (an emoji showed as an empty box on machines
    /// without an emoji font), and the "Choose location" prompt from the action's own texts. The script is
    /// `Resources/weather-page.js`, compiled from `Clients/TypeScript/renderers/weather.ts` (typed with the feature's
    /// generated types); both files are embedded in the code.
    public static let page = PageRenderer(
        script: PackageResources.weather_page_js, style: PackageResources.weather_page_css)
}
