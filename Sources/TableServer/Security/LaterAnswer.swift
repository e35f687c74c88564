import MicroHTTP

extension HTTPResponse {
    /// This answer made over by `transform`: at once, or once it is given
    /// when it is deferred (a token verified in a task, heavy work, a group
    /// commit).
    func whenGiven(_ transform: @escaping @Sendable (HTTPResponse) -> HTTPResponse) -> HTTPResponse {
        guard let later = deferral else { return transform(self) }
        let deferral = DeferredResponse()
        later.onCompletion { deferral.complete($0.whenGiven(transform)) }
        return .deferred(deferral)
    }
}
