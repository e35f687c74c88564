/// Stops the run as a crash, which libFuzzer records with its input, when an
/// invariant does not hold.
public func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        fatalError("invariant broken: \(message())")
    }
}
