import ArgumentParser
import Dispatch
import Foundation
import Synchronization
import AccessTokens
import TableAccess

/// `serve`'s access options (docs/ACCESS.md): the policy file, and the keys
/// bearer JWTs are verified with. Without `--access-policy` the server is as
/// before: every table readable, edits guarded by the edit token if one is set.
struct AccessOptions: ParsableArguments {
    @Option(
        name: .customLong("access-policy"),
        help: "JSON file of who may read, edit and administer each table (docs/FORMAT.md, \"Access policy\").")
    var policyFile: String?

    @Option(
        name: .customLong("jwt-secret-file"),
        help:
            "File holding the HS256 secret of bearer JWTs (32 bytes or more); share links are signed with a key derived from it."
    )
    var secretFile: String?

    @Option(name: .customLong("jwks"), help: "JWKS file of the RS256, ES256 or EdDSA keys of bearer JWTs.")
    var jwksFile: String?

    @Option(name: .customLong("jwt-issuer"), help: "The iss bearer JWTs must carry.")
    var issuer: String?

    @Option(name: .customLong("jwt-audience"), help: "The aud bearer JWTs must name.")
    var audience: String?

    func validate() throws {
        let hasKeys = secretFile != nil || jwksFile != nil
        guard policyFile != nil || (!hasKeys && issuer == nil && audience == nil) else {
            throw ValidationError("--jwt-secret-file, --jwks, --jwt-issuer and --jwt-audience need --access-policy")
        }
    }

    /// The policy, the verifier and the share links' signer these options
    /// name: all nil without a policy; share links need the HS256 secret.
    func load() throws -> (AccessPolicy?, TokenVerifier?, ShareLinks?) {
        guard let policyFile else { return (nil, nil, nil) }
        let policy = try AccessPolicy(json: Self.text(of: policyFile))
        guard secretFile != nil || jwksFile != nil else { return (policy, nil, nil) }
        let secret = try secretFile.map { try Self.text(of: $0).trimmingCharacters(in: .whitespacesAndNewlines) }
        let jwks = try jwksFile.map(Self.text(of:))
        let (issuer, audience) = (issuer, audience)
        let verifier = try Self.waitFor {
            try await TokenVerifier(secret: secret, jwks: jwks, issuer: issuer, audience: audience)
        }
        return (policy, verifier, secret.map(ShareLinks.init(secret:)))
    }

    private static func text(of path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else {
            throw AccessFileError(file: path, reason: "cannot be read as UTF-8 text")
        }
        return text
    }

    /// Runs `work` in a task and waits for it: at start-up, on the main
    /// thread, before any worker thread exists.
    private static func waitFor<Value: Sendable>(
        _ work: @escaping @Sendable () async throws -> Value
    ) throws -> Value {
        let outcome = Mutex<Result<Value, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let result: Result<Value, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }
}
