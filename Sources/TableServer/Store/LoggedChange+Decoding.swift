import JSON
import TableModel

extension LoggedChange {
    /// The change's batch, read back from its JSON; a change that does not read
    /// is `storageInconsistent` (the log holds what no server of ours wrote).
    func decoded() throws -> (version: Int, batch: Batch, key: ChangeKey?, actor: String?) {
        do {
            let value = try RecordedDecoding.parser.parse(json[...])
            let change = try RecordedDecoding.change(from: value)
            guard change.version == version else {
                throw TableServerError.storageInconsistent("change \(version) says it is version \(change.version)")
            }
            return change
        } catch let error as TableServerError {
            throw error
        } catch {
            throw TableServerError.storageInconsistent("change \(version) does not read: \(error)")
        }
    }
}
