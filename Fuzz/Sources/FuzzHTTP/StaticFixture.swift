import Glibc

/// A folder for `StaticFiles` with traps around it, made once per run:
///
///     base/root/a.txt, base/root/sub/b.css, base/root/.hidden,
///     base/root/in -> a.txt, base/root/out -> ../secret.txt, base/root/up -> ..
///     base/secret.txt, base/root-secret/x.txt
///
/// Nothing outside `base/root` may ever be served; it is removed at exit.
enum StaticFixture {
    static let base: String = {
        var template = Array("/tmp/wtv-fuzz-http-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { fatalError("mkdtemp failed") }
        let base = String(cString: made)
        for folder in folders { mkdir(base + "/" + folder, 0o755) }
        for file in files { write(base + "/" + file) }
        for (name, target) in links { symlink(target, base + "/" + name) }
        atexit(removeFixture)
        return base
    }()

    static var root: String { base + "/root" }

    private static let folders = ["root", "root/sub", "root-secret"]
    private static let files = ["root/a.txt", "root/sub/b.css", "root/.hidden", "secret.txt", "root-secret/x.txt"]
    private static let links = [("root/in", "a.txt"), ("root/out", "../secret.txt"), ("root/up", "..")]

    private static func write(_ path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = "content".withCString { Glibc.write(descriptor, $0, 7) }
        close(descriptor)
    }

    /// Files and links first, then folders, deepest first.
    private static let removeFixture: @convention(c) () -> Void = {
        for entry in files + links.map(\.0) { unlink(base + "/" + entry) }
        for folder in folders.reversed() { rmdir(base + "/" + folder) }
        rmdir(base)
    }
}
