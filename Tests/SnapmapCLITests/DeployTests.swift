import Foundation
import ServerTestSupport
import Testing

/// `deploy/` as an operator's tools see it: every manifest valid against the Kubernetes schemas
/// (`kubernetes-validate`, strict) and clean under checkov's Kubernetes checks, save those its README says do
/// not apply. Both tools are PyPI packages the set-up installs into `.build/python`.
@Suite("deploy/ manifests")
struct DeployTests {
    static let deploy = CLITests.packageRoot.appendingPathComponent("deploy")
    static let tools = CLITests.packageRoot.appendingPathComponent(".build/python/bin")
    /// The oldest Kubernetes the manifests are written for, and the newest the validator knows.
    static let kubernetesVersions = ["1.30.0", "1.37.0"]

    static var manifests: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: deploy.path)) ?? [])
            .filter { $0.hasSuffix(".yaml") && $0 != "checkov.yaml" }.sorted().map { deploy.appendingPathComponent($0).path }
    }

    /// Runs one of the virtual environment's tools: exit status and everything it printed.
    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let executable = tools.appendingPathComponent(tool)
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            Issue.record("\(executable.path) is missing: run `make setup` (scripts/python-packages.txt lists it)")
            return (-1, "")
        }
        let result = try TestProcess.run(executable, arguments, directory: Snapmap.packageRoot)
        return (result.status, result.output + result.errorOutput)
    }

    @Test func everyManifestValidatesAgainstTheKubernetesSchemas() throws {
        #expect(Self.manifests.count >= 3, "live.yaml, redis-cluster.yaml and tiles-job.yaml: \(Self.manifests)")
        for version in Self.kubernetesVersions {
            let result = try Self.run("kubernetes-validate", ["--strict", "--quiet", "-k", version] + Self.manifests)
            #expect(result.status == 0, "Kubernetes \(version): \(result.output.suffix(2000))")
        }
    }

    @Test func checkovFindsNothingTheReadmeDoesNotExplain() throws {
        let result = try Self.run("checkov", ["--config-file", Self.deploy.appendingPathComponent("checkov.yaml").path, "-d", Self.deploy.path, "-o", "json"])
        let json = try JSONSerialization.jsonObject(with: Data(result.output.utf8))
        let report = try #require((json as? [String: Any]) ?? (json as? [[String: Any]])?.first, "checkov printed \(result.output.prefix(500))")
        let summary = try #require(report["summary"] as? [String: Any])
        let failed = ((report["results"] as? [String: Any])?["failed_checks"] as? [[String: Any]]) ?? []
        let failures = failed.map { "\($0["check_id"] ?? "") on \($0["resource"] ?? "")" }
        #expect(result.status == 0 && summary["failed"] as? Int == 0, "checkov: \(failures)")
        #expect((summary["passed"] as? Int ?? 0) >= 400, "checkov ran its Kubernetes checks on every resource: \(summary)")
        let settings = try String(contentsOf: Self.deploy.appendingPathComponent("checkov.yaml"), encoding: .utf8)
        let skipped = settings.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("- CKV") }.map { String($0.dropFirst(2)) }
        let readme = try String(contentsOf: Self.deploy.appendingPathComponent("README.md"), encoding: .utf8)
        for check in skipped {
            #expect(readme.contains(check), "deploy/README.md says why \(check) does not apply")
        }
    }

    /// What the fault analysis asks of the deployment: a shard keeps a replica when one node is lost, the server
    /// answers privately only under its host names, and the probes ask the health answers.
    @Test func theManifestsKeepTwoReplicasPerMasterAllowedHostsAndTheHealthProbes() throws {
        let live = try String(contentsOf: Self.deploy.appendingPathComponent("live.yaml"), encoding: .utf8)
        let redis = try String(contentsOf: Self.deploy.appendingPathComponent("redis-cluster.yaml"), encoding: .utf8)
        #expect(redis.contains("--cluster-replicas 2") && redis.contains("replicas: 9"), "three masters with two replicas each")
        #expect(redis.contains("min-replicas-to-write 1") && redis.contains("cluster-require-full-coverage no"))
        #expect(live.contains("\"--allowed-hosts\""), "serve runs with --allowed-hosts")
        #expect(live.contains("path: /healthz/ready") && live.contains("path: /healthz/live"))
    }
}
