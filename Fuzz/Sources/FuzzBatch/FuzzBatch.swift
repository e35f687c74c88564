import FuzzSupport
import JSON
import TableModel

/// Applies a batch to `FuzzTables.fixed`: the input is a batch document when
/// it starts with `{`, otherwise bytes that `BatchFromBytes` turns into one.
/// A refused batch must leave the table exactly as it was; an accepted one must
/// do what it says (see `requireAccepted`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBatch(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let original = FuzzTables.fixed
    let batch: Batch
    if bytes.first == UInt8(ascii: "{") {
        guard let json = try? JSONParser().parse(bytes), let decoded = try? ModelDecoder.batch(from: json) else {
            return 0
        }
        batch = decoded
    } else {
        var reading = BatchFromBytes(bytes, for: original)
        batch = reading.batch()
    }
    var table = original
    do throws(BatchError) {
        let published = try table.apply(batch)
        requireAccepted(batch, published: published, before: original, after: table)
    } catch {
        require(table == original, "refused batch (\(error.detail)) changed the table")
        require(error.rule != nil, "refused with an unknown rule \(error.type)")
    }
    return 0
}

/// What an accepted batch must have done: published its normalised form, moved
/// the version on by one unless it was empty, left the counts UIKit checks
/// consistent, put every inserted, moved and reloaded item where it said, kept
/// the table sound — and the published batch, replayed on the table as it was,
/// directly or through its JSON, rebuilds the same table.
private func requireAccepted(_ batch: Batch, published: Batch, before: Table, after: Table) {
    var expected = batch.normalised()
    expected.properties = published.properties
    require(published == expected, "published batch is not the normalised batch")
    guard !published.isEmpty else {
        require(after == before, "an empty batch changed the table")
        return
    }
    require(after.version == before.version + 1, "version \(before.version) became \(after.version)")
    requireCounts(published, before: before, after: after)
    requireLanding(published, before: before, after: after)
    FuzzTables.requireSound(after, "after \(published)")
    if let sections = batch.expect?.sections { require(after.sections.count == sections, "expect.sections not met") }
    if let rows = batch.expect?.rows { require(after.sections.map(\.rows.count) == rows, "expect.rows not met") }

    var replayed = before
    let again = try? replayed.apply(published)
    require(again == published && replayed == after, "replaying the published batch differs")
    var fromJSON = before
    let decoded = (try? JSONParser().parse(published.jsonBytes)).flatMap { try? ModelDecoder.batch(from: $0) }
    require(decoded.map { (try? fromJSON.apply($0)) != nil } ?? false, "the published JSON is refused")
    require(fromJSON == after, "replaying the published JSON differs")
}

/// Section and row counts, overall and per section that survives (UIKit's
/// "number of rows … after the update must be equal to …" check).
private func requireCounts(_ batch: Batch, before: Table, after: Table) {
    require(
        after.sections.count == before.sections.count - batch.deleteSections.count + batch.insertSections.count,
        "section count \(after.sections.count)")
    let replaced = Set(batch.deleteSections + batch.reloadSections.map(\.at))
    let rowsOut = batch.deleteRows.count + replaced.reduce(0) { $0 + before.sections[$1].rows.count }
    let rowsIn =
        batch.insertRows.count
        + (batch.insertSections + batch.reloadSections).reduce(0) { $0 + $1.section.rows.count }
    require(after.rowCount == before.rowCount - rowsOut + rowsIn, "row count \(after.rowCount)")
    let positions = FinalPositions(batch)
    for old in before.sections.indices where !replaced.contains(old) {
        let new = positions.section(old)
        let count =
            before.sections[old].rows.count
            - batch.deleteRows.count { $0.section == old } - batch.moveRows.count { $0.from.section == old }
            + batch.insertRows.count { $0.at.section == new } + batch.moveRows.count { $0.to.section == new }
        require(
            after.sections[new].rows.count == count,
            "section \(old) → \(new) holds \(after.sections[new].rows.count) rows, not \(count)")
    }
}

/// Every inserted, moved and reloaded section and row is where the batch put it.
private func requireLanding(_ batch: Batch, before: Table, after: Table) {
    let positions = FinalPositions(batch)
    for item in batch.insertSections {
        require(after.sections[item.at] == item.section, "inserted section not at \(item.at)")
    }
    for item in batch.reloadSections {
        require(after.sections[positions.section(item.at)] == item.section, "reloaded section \(item.at) not found")
    }
    for move in batch.moveSections {
        require(
            after.sections[move.to].id == before.sections[move.from].id, "section \(move.from) not moved to \(move.to)")
    }
    for item in batch.insertRows {
        require(after.row(at: item.at) == item.row, "inserted row not at \(item.at)")
    }
    for item in batch.reloadRows {
        require(after.row(at: positions.row(item.at)) == item.row, "reloaded row \(item.at) not found")
    }
    for move in batch.moveRows {
        require(after.row(at: move.to) == before.row(at: move.from), "row \(move.from) not moved to \(move.to)")
    }
}
