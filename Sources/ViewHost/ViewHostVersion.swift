/// The version `viewhost --version` prints, `/healthz` reports and `/openapi.json` states: the top release heading
/// of CHANGELOG.md (`ReleaseVersionTests` holds them together). 0.2.0: the Swift API and the stored formats changed
/// since 0.1.0.
public enum ViewHostVersion {
    /// The semantic version of this build.
    public static let current = "0.2.0"
}
