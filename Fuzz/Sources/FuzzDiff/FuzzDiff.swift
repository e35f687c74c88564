import FuzzSupport
import TableModel

/// Reads two tables from the input and diffs them: `SnapshotDiff` must answer
/// at most three batches, none empty, each accepted by the batch engine, which
/// together turn the first table into the second (its id and version aside).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDiff(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var reader = ByteReader(UnsafeBufferPointer(start: data, count: size))
    let old = FuzzTables.table(&reader)
    var new = FuzzTables.table(&reader)
    let batches = SnapshotDiff.batches(from: old, to: new)
    require(batches.count <= 3, "\(batches.count) batches")
    require(!batches.contains(where: \.isEmpty), "an empty batch")
    var table = old
    for (index, batch) in batches.enumerated() {
        do throws(BatchError) {
            _ = try table.apply(batch)
        } catch {
            fatalError("batch \(index) of \(batches.count) refused: \(error.detail)\n\(batches)")
        }
        FuzzTables.requireSound(table, "after batch \(index)")
    }
    new.version = old.version + batches.count
    require(table == new, "the diff replayed differs from the new table: \(batches)")
    return 0
}
