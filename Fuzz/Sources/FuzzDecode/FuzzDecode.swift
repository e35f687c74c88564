import FuzzSupport
import JSON
import TableModel

/// Parses the input as JSON and hands it to every model decoder. Parsing and
/// decoding may refuse, never crash; a refusal names at least one issue and no
/// more than the limit allows. What parses writes back as JSON that parses to
/// the same value; a decoded table or batch writes back as JSON that decodes to
/// the same table or normalised batch (what the server publishes and a client
/// or the journal reads back).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecode(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let json = try? JSONParser().parse(bytes) else { return 0 }
    var writer = JSONWriter()
    writer.value(json)
    let reparsed = try? JSONParser().parse(writer.bytes)
    require(
        // Numbers keep their literals (docs/FORMAT.md, "Numbers"): the same value again, exactly.
        reparsed == json,
        "JSON written back differs: \(String(decoding: writer.bytes, as: UTF8.self))")

    for limits in [ModelLimits.default, tightLimits] {
        refusalIsSound(limits) { () throws(ValidationError) in _ = try ModelDecoder.tables(from: json, limits: limits) }
        refusalIsSound(limits) { () throws(ValidationError) in _ = try ModelDecoder.section(from: json, limits: limits)
        }
        refusalIsSound(limits) { () throws(ValidationError) in _ = try ModelDecoder.row(from: json, limits: limits) }
        refusalIsSound(limits) { () throws(ValidationError) in
            _ = try ModelDecoder.properties(from: json, limits: limits)
        }
        refusalIsSound(limits) { () throws(ValidationError) in
            _ = try ModelDecoder.sectionInsert(from: json, limits: limits)
        }
        refusalIsSound(limits) { () throws(ValidationError) in
            _ = try ModelDecoder.rowInsert(from: json, inSection: 0, limits: limits)
        }
        refusalIsSound(limits) { () throws(ValidationError) in
            _ = try ModelDecoder.sectionMove(from: json, limits: limits)
        }
        refusalIsSound(limits) { () throws(ValidationError) in _ = try ModelDecoder.rowMove(from: json, limits: limits)
        }
        refusalIsSound(limits) { () throws(ValidationError) in
            let table = try ModelDecoder.table(from: json, limits: limits, defaultID: "default")
            FuzzTables.requireSound(table, "decoded table")
            require(decodeTable(table.jsonBytes) == table, "table written back decodes differently")
        }
        refusalIsSound(limits) { () throws(ValidationError) in
            let batch = try ModelDecoder.batch(from: json, limits: limits).normalised()
            require(decodeBatch(batch.jsonBytes) == batch, "normalised batch written back decodes differently")
        }
    }
    return 0
}

/// Small limits, so that inputs of a few bytes reach every limit check.
private let tightLimits = ModelLimits(
    maxFieldBytes: 8, maxIDLength: 4, maxURLBytes: 16, maxCustomFields: 2,
    maxIndentationLevel: 2, maxRowHeight: 50, maxIssues: 2)

/// Runs `decode`; when it refuses, requires one issue at least and no more
/// than `limits.maxIssues` plus the one that counts the rest.
private func refusalIsSound(_ limits: ModelLimits, _ decode: () throws(ValidationError) -> Void) {
    do throws(ValidationError) {
        try decode()
    } catch {
        require(!error.issues.isEmpty, "a refusal without an issue")
        require(
            error.issues.count <= limits.maxIssues + 1,
            "\(error.issues.count) issues over a limit of \(limits.maxIssues)")
    }
}

private func decodeTable(_ bytes: [UInt8]) -> Table? {
    guard let json = try? JSONParser().parse(bytes) else { return nil }
    return try? ModelDecoder.table(from: json)
}

private func decodeBatch(_ bytes: [UInt8]) -> Batch? {
    guard let json = try? JSONParser().parse(bytes) else { return nil }
    return try? ModelDecoder.batch(from: json)
}
