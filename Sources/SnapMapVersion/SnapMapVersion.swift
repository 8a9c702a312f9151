/// The one version of this release: `snapmap --version` prints it, `/healthz` reports it and `SnapMapClient` sends it.
public enum SnapMapVersion {
    /// Semantic versioning; the API contract's own version is `info.version` of `Data/api/openapi.json`.
    public static let current = "0.32.0"
}
