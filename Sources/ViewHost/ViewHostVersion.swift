/// The version `viewhost --version` prints and `/healthz` reports.
public enum ViewHostVersion {
    /// The semantic version of this build.
    public static let current = "0.1.0"
}
