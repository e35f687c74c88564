extension OpenAPIDocument {
    /// What every edit endpoint answers: the change it made, or why it refused.
    static let editResponses = #"""
        {"200":{"description":"The change made: the new version and the normalised batch (for a no-op, the current version and an empty batch)","headers":{"ETag":{"$ref":"#/components/headers/ETag"}},"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Change"}}}},
        "400":{"$ref":"#/components/responses/BadRequest"},"401":{"$ref":"#/components/responses/Unauthorized"},"403":{"$ref":"#/components/responses/CrossSite"},"404":{"$ref":"#/components/responses/NotFound"},"409":{"$ref":"#/components/responses/Conflict"},"412":{"$ref":"#/components/responses/PreconditionFailed"},"413":{"$ref":"#/components/responses/TooLarge"},"415":{"$ref":"#/components/responses/UnsupportedMediaType"},"422":{"$ref":"#/components/responses/Invalid"}}
        """#

    /// `paths`: every route of docs/API.md.
    static let paths = #"""
        {
        "/api/tables":{
          "get":{"operationId":"listTables","summary":"The tables on the server","responses":{"200":{"description":"The list","content":{"application/json":{"schema":{"$ref":"#/components/schemas/TableList"}}}}}},
          "post":{"operationId":"createTable","summary":"Create a table from a Table document","requestBody":{"$ref":"#/components/requestBodies/Table"},
            "responses":{"201":{"description":"Created","headers":{"Location":{"schema":{"type":"string"}},"ETag":{"$ref":"#/components/headers/ETag"}},"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Table"}}}},
              "400":{"$ref":"#/components/responses/BadRequest"},"401":{"$ref":"#/components/responses/Unauthorized"},"403":{"$ref":"#/components/responses/CrossSite"},"409":{"$ref":"#/components/responses/Conflict"},"413":{"$ref":"#/components/responses/TooLarge"},"415":{"$ref":"#/components/responses/UnsupportedMediaType"},"422":{"$ref":"#/components/responses/Invalid"}}}},
        "/api/tables/{t}":{
          "parameters":[{"$ref":"#/components/parameters/t"}],
          "get":{"operationId":"getTable","summary":"The whole data source","parameters":[{"$ref":"#/components/parameters/IfNoneMatch"}],
            "responses":{"200":{"description":"The Table document","headers":{"ETag":{"$ref":"#/components/headers/ETag"}},"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Table"}}}},"304":{"description":"Not modified"},"404":{"$ref":"#/components/responses/NotFound"}}},
          "put":{"operationId":"replaceTable","summary":"Apply a snapshot: the server diffs by id and applies UIKit-valid batches","parameters":[{"$ref":"#/components/parameters/IfMatch"}],"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/TableSnapshot"}}}},
            "responses":{"200":{"description":"The changes made","headers":{"ETag":{"$ref":"#/components/headers/ETag"}},"content":{"application/json":{"schema":{"$ref":"#/components/schemas/ChangeList"}}}},
              "400":{"$ref":"#/components/responses/BadRequest"},"401":{"$ref":"#/components/responses/Unauthorized"},"403":{"$ref":"#/components/responses/CrossSite"},"404":{"$ref":"#/components/responses/NotFound"},"409":{"$ref":"#/components/responses/Conflict"},"412":{"$ref":"#/components/responses/PreconditionFailed"},"413":{"$ref":"#/components/responses/TooLarge"},"415":{"$ref":"#/components/responses/UnsupportedMediaType"},"422":{"$ref":"#/components/responses/Invalid"}}},
          "patch":{"operationId":"patchTable","summary":"Change table properties","parameters":[{"$ref":"#/components/parameters/IfMatch"}],
            "requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/TableProperties"}}}},
            "responses":{"200":{"description":"The Table document","headers":{"ETag":{"$ref":"#/components/headers/ETag"}},"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Table"}}}},
              "400":{"$ref":"#/components/responses/BadRequest"},"401":{"$ref":"#/components/responses/Unauthorized"},"403":{"$ref":"#/components/responses/CrossSite"},"404":{"$ref":"#/components/responses/NotFound"},"412":{"$ref":"#/components/responses/PreconditionFailed"},"413":{"$ref":"#/components/responses/TooLarge"},"415":{"$ref":"#/components/responses/UnsupportedMediaType"},"422":{"$ref":"#/components/responses/Invalid"}}},
          "delete":{"operationId":"deleteTable","summary":"Delete the table","parameters":[{"$ref":"#/components/parameters/IfMatch"}],
            "responses":{"204":{"description":"Deleted"},"401":{"$ref":"#/components/responses/Unauthorized"},"403":{"$ref":"#/components/responses/CrossSite"},"404":{"$ref":"#/components/responses/NotFound"},"412":{"$ref":"#/components/responses/PreconditionFailed"}}}},
        "/api/tables/{t}/sections":{
          "parameters":[{"$ref":"#/components/parameters/t"}],
          "get":{"operationId":"listSections","summary":"numberOfSections, titleForHeader/FooterInSection, numberOfRowsInSection",
            "responses":{"200":{"description":"Each section without its rows, plus rowCount","headers":{"ETag":{"$ref":"#/components/headers/ETag"}},"content":{"application/json":{"schema":{"$ref":"#/components/schemas/SectionList"}}}},"304":{"description":"Not modified"},"404":{"$ref":"#/components/responses/NotFound"}}},
          "post":{"operationId":"insertSection","summary":"insertSections","parameters":[{"$ref":"#/components/parameters/IfMatch"},{"$ref":"#/components/parameters/animation"}],
            "requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/SectionInsert"}}}},
            "responses":\#(editResponses)}},
        "/api/tables/{t}/sections/{s}":{
          "parameters":[{"$ref":"#/components/parameters/t"},{"$ref":"#/components/parameters/s"}],
          "put":{"operationId":"reloadSection","summary":"reloadSections","parameters":[{"$ref":"#/components/parameters/IfMatch"},{"$ref":"#/components/parameters/animation"}],
            "requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Section"}}}},
            "responses":\#(editResponses)},
          "delete":{"operationId":"deleteSection","summary":"deleteSections","parameters":[{"$ref":"#/components/parameters/IfMatch"},{"$ref":"#/components/parameters/animation"}],"responses":\#(editResponses)}},
        "/api/tables/{t}/sections/{s}/move":{
          "parameters":[{"$ref":"#/components/parameters/t"},{"$ref":"#/components/parameters/s"}],
          "post":{"operationId":"moveSection","summary":"moveSection(_:toSection:)","parameters":[{"$ref":"#/components/parameters/IfMatch"},{"$ref":"#/components/parameters/animation"}],
            "requestBody":{"required":true,"content":{"application/json":{"schema":{"type":"object","required":["to"],"additionalProperties":false,"properties":{"to":{"$ref":"#/components/schemas/Position"}}}}}},
            "responses":\#(editResponses)}},
        "/api/tables/{t}/sections/{s}/rows":{
          "parameters":[{"$ref":"#/components/parameters/t"},{"$ref":"#/components/parameters/s"}],
          "get":{"operationId":"listRows","summary":"cellForRowAt, paged","parameters":[{"$ref":"#/components/parameters/offset"},{"$ref":"#/components/parameters/limit"}],
            "responses":{"200":{"description":"A page of rows","headers":{"ETag":{"$ref":"#/components/headers/ETag"},"Link":{"description":"While rows are left after this page: <…/rows?offset=N&limit=L>; rel=\"next\"","schema":{"type":"string"}}},"content":{"application/json":{"schema":{"$ref":"#/components/schemas/RowPage"}}}},"304":{"description":"Not modified"},"400":{"$ref":"#/components/responses/BadRequest"},"404":{"$ref":"#/components/responses/NotFound"}}},
          "post":{"operationId":"insertRows","summary":"insertRows","parameters":[{"$ref":"#/components/parameters/IfMatch"},{"$ref":"#/components/parameters/animation"}],
            "requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/RowInsert"}}}},
            "responses":\#(editResponses)}},
        "/api/tables/{t}/sections/{s}/rows/{r}":{
          "parameters":[{"$ref":"#/components/parameters/t"},{"$ref":"#/components/parameters/s"},{"$ref":"#/components/parameters/r"}],
          "get":{"operationId":"getRow","summary":"cellForRowAt",
            "responses":{"200":{"description":"The Row","headers":{"ETag":{"$ref":"#/components/headers/ETag"}},"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Row"}}}},"304":{"description":"Not modified"},"400":{"$ref":"#/components/responses/BadRequest"},"404":{"$ref":"#/components/responses/NotFound"}}},
          "put":{"operationId":"reloadRow","summary":"reloadRows","parameters":[{"$ref":"#/components/parameters/IfMatch"},{"$ref":"#/components/parameters/animation"}],
            "requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Row"}}}},
            "responses":\#(editResponses)},
          "delete":{"operationId":"deleteRow","summary":"deleteRows (commit editingStyle .delete)","parameters":[{"$ref":"#/components/parameters/IfMatch"},{"$ref":"#/components/parameters/animation"}],"responses":\#(editResponses)}},
        "/api/tables/{t}/sections/{s}/rows/{r}/move":{
          "parameters":[{"$ref":"#/components/parameters/t"},{"$ref":"#/components/parameters/s"},{"$ref":"#/components/parameters/r"}],
          "post":{"operationId":"moveRow","summary":"moveRow(at:to:)","parameters":[{"$ref":"#/components/parameters/IfMatch"},{"$ref":"#/components/parameters/animation"}],
            "requestBody":{"required":true,"content":{"application/json":{"schema":{"type":"object","required":["to"],"additionalProperties":false,"properties":{"to":{"$ref":"#/components/schemas/IndexPath"}}}}}},
            "responses":\#(editResponses)}},
        "/api/tables/{t}/sections/{s}/rows/{r}/select":{
          "parameters":[{"$ref":"#/components/parameters/t"},{"$ref":"#/components/parameters/s"},{"$ref":"#/components/parameters/r"}],
          "post":{"operationId":"selectRow","summary":"selectRow","parameters":[{"$ref":"#/components/parameters/IfMatch"}],"responses":\#(editResponses)}},
        "/api/tables/{t}/sections/{s}/rows/{r}/deselect":{
          "parameters":[{"$ref":"#/components/parameters/t"},{"$ref":"#/components/parameters/s"},{"$ref":"#/components/parameters/r"}],
          "post":{"operationId":"deselectRow","summary":"deselectRow","parameters":[{"$ref":"#/components/parameters/IfMatch"}],"responses":\#(editResponses)}},
        "/api/tables/{t}/sections/{s}/rows/{r}/switch":{
          "parameters":[{"$ref":"#/components/parameters/t"},{"$ref":"#/components/parameters/s"},{"$ref":"#/components/parameters/r"}],
          "post":{"operationId":"setSwitchOn","summary":"UISwitch setOn(_:animated:) of the row's accessoryView: a reloadRows with animation none; 409 not-a-switch or switch-disabled","parameters":[{"$ref":"#/components/parameters/IfMatch"},{"$ref":"#/components/parameters/animation"}],
            "requestBody":{"required":true,"content":{"application/json":{"schema":{"type":"object","required":["on"],"additionalProperties":false,"properties":{"on":{"type":"boolean"}}}}}},
            "responses":\#(editResponses)}},
        "/api/tables/{t}/batch":{
          "parameters":[{"$ref":"#/components/parameters/t"}],
          "post":{"operationId":"performBatchUpdates","summary":"performBatchUpdates","parameters":[{"$ref":"#/components/parameters/IfMatch"}],
            "requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Batch"}}}},
            "responses":\#(editResponses)}},
        "/api/tables/{t}/batch-by-id":{
          "parameters":[{"$ref":"#/components/parameters/t"}],
          "post":{"operationId":"applyEditsByID","summary":"Edits by id, the diffable data source way: applied in order, published as one index batch","parameters":[{"$ref":"#/components/parameters/IfMatch"}],
            "requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/IdentifiedBatch"}}}},
            "responses":\#(editResponses)}},
        "/api/tables/{t}/items":{
          "parameters":[{"$ref":"#/components/parameters/t"}],
          "post":{"operationId":"insertItems","summary":"insertItems(_:beforeItem:) / insertItems(_:afterItem:) / appendItems(_:toSection:)","parameters":[{"$ref":"#/components/parameters/IfMatch"},{"$ref":"#/components/parameters/animation"}],
            "requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/ItemInsert"}}}},
            "responses":\#(editResponses)}},
        "/api/tables/{t}/items/{rowID}":{
          "parameters":[{"$ref":"#/components/parameters/t"},{"$ref":"#/components/parameters/rowID"}],
          "put":{"operationId":"reloadItem","summary":"reloadItems: the body is the new Row (its id, when given, is the path's)","parameters":[{"$ref":"#/components/parameters/IfMatch"},{"$ref":"#/components/parameters/animation"}],
            "requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Row"}}}},
            "responses":\#(editResponses)},
          "delete":{"operationId":"deleteItem","summary":"deleteItems","parameters":[{"$ref":"#/components/parameters/IfMatch"},{"$ref":"#/components/parameters/animation"}],"responses":\#(editResponses)}},
        "/api/tables/{t}/items/{rowID}/reconfigure":{
          "parameters":[{"$ref":"#/components/parameters/t"},{"$ref":"#/components/parameters/rowID"}],
          "post":{"operationId":"reconfigureItem","summary":"reconfigureItems: a reload published with animation none unless ?animation= says otherwise","parameters":[{"$ref":"#/components/parameters/IfMatch"},{"$ref":"#/components/parameters/animation"}],
            "requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Row"}}}},
            "responses":\#(editResponses)}},
        "/api/tables/{t}/items/{rowID}/move":{
          "parameters":[{"$ref":"#/components/parameters/t"},{"$ref":"#/components/parameters/rowID"}],
          "post":{"operationId":"moveItem","summary":"moveItem(_:beforeItem:) / moveItem(_:afterItem:), or to the end of a section","parameters":[{"$ref":"#/components/parameters/IfMatch"},{"$ref":"#/components/parameters/animation"}],
            "requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/ItemPlace"}}}},
            "responses":\#(editResponses)}},
        "/api/tables/{t}/items/{rowID}/switch":{
          "parameters":[{"$ref":"#/components/parameters/t"},{"$ref":"#/components/parameters/rowID"}],
          "post":{"operationId":"setItemSwitchOn","summary":"UISwitch setOn(_:animated:) of the item's accessoryView: a reloadRows with animation none; 409 unknown-id, not-a-switch or switch-disabled","parameters":[{"$ref":"#/components/parameters/IfMatch"},{"$ref":"#/components/parameters/animation"}],
            "requestBody":{"required":true,"content":{"application/json":{"schema":{"type":"object","required":["on"],"additionalProperties":false,"properties":{"on":{"type":"boolean"}}}}}},
            "responses":\#(editResponses)}},
        "/api/tables/{t}/section-ids":{
          "parameters":[{"$ref":"#/components/parameters/t"}],
          "post":{"operationId":"insertSectionsByID","summary":"insertSections(_:beforeSection:) / insertSections(_:afterSection:) / appendSections","parameters":[{"$ref":"#/components/parameters/IfMatch"},{"$ref":"#/components/parameters/animation"}],
            "requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/SectionInsertByID"}}}},
            "responses":\#(editResponses)}},
        "/api/tables/{t}/section-ids/{sectionID}":{
          "parameters":[{"$ref":"#/components/parameters/t"},{"$ref":"#/components/parameters/sectionID"}],
          "put":{"operationId":"reloadSectionByID","summary":"reloadSections: new header, footer and index title; the rows stay","parameters":[{"$ref":"#/components/parameters/IfMatch"},{"$ref":"#/components/parameters/animation"}],
            "requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/SectionReloadByID"}}}},
            "responses":\#(editResponses)},
          "delete":{"operationId":"deleteSectionByID","summary":"deleteSections, with their rows","parameters":[{"$ref":"#/components/parameters/IfMatch"},{"$ref":"#/components/parameters/animation"}],"responses":\#(editResponses)}},
        "/api/tables/{t}/section-ids/{sectionID}/move":{
          "parameters":[{"$ref":"#/components/parameters/t"},{"$ref":"#/components/parameters/sectionID"}],
          "post":{"operationId":"moveSectionByID","summary":"moveSection(_:beforeSection:) / moveSection(_:afterSection:)","parameters":[{"$ref":"#/components/parameters/IfMatch"},{"$ref":"#/components/parameters/animation"}],
            "requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/SectionPlace"}}}},
            "responses":\#(editResponses)}},
        "/api/tables/{t}/changes":{
          "parameters":[{"$ref":"#/components/parameters/t"}],
          "get":{"operationId":"listChanges","summary":"The changes after a version, up to another",
            "parameters":[{"name":"since","in":"query","allowEmptyValue":true,"description":"A version; empty is the same as 0","schema":{"$ref":"#/components/schemas/Position"}},
              {"name":"until","in":"query","description":"The last version wanted (below since: none); a range the table has passed is answered immutable","schema":{"$ref":"#/components/schemas/Position"}}],
            "responses":{"200":{"description":"The changes, in order","headers":{"ETag":{"$ref":"#/components/headers/ETag"}},"content":{"application/json":{"schema":{"$ref":"#/components/schemas/ChangeList"}}}},"304":{"description":"Not modified"},
              "400":{"$ref":"#/components/responses/BadRequest"},"404":{"$ref":"#/components/responses/NotFound"},"410":{"$ref":"#/components/responses/Gone"}}}},
        "/api/tables/{t}/events":{
          "parameters":[{"$ref":"#/components/parameters/t"}],
          "get":{"operationId":"streamEvents","summary":"Server-Sent Events: update, reset, deleted",
            "parameters":[{"name":"since","in":"query","allowEmptyValue":true,"description":"A version; empty is the same as 0","schema":{"$ref":"#/components/schemas/Position"}},{"name":"Last-Event-ID","in":"header","schema":{"type":"string"}}],
            "responses":{"200":{"description":"An event stream","content":{"text/event-stream":{"schema":{"type":"string"}}}},"400":{"$ref":"#/components/responses/BadRequest"},"404":{"$ref":"#/components/responses/NotFound"}}}},
        "/":{"get":{"operationId":"indexPage","summary":"HTML list of tables","responses":{"200":{"$ref":"#/components/responses/HTML"}}}},
        "/tables/{t}":{
          "parameters":[{"$ref":"#/components/parameters/t"}],
          "get":{"operationId":"tablePage","summary":"The table view as an HTML page",
            "parameters":[{"name":"style","in":"query","schema":{"$ref":"#/components/schemas/TableStyle"}}],
            "responses":{"200":{"$ref":"#/components/responses/HTML"},"304":{"description":"Not modified"},"400":{"$ref":"#/components/responses/HTMLError"},"404":{"$ref":"#/components/responses/HTMLError"}}}},
        "/tables/{t}/sections/{s}":{
          "parameters":[{"$ref":"#/components/parameters/t"},{"$ref":"#/components/parameters/s"}],
          "get":{"operationId":"sectionPage","summary":"HTML page of a section's rows from offset on (where \"Show N more rows\" leads without JavaScript)",
            "parameters":[{"$ref":"#/components/parameters/offset"},{"name":"limit","in":"query","allowEmptyValue":true,"description":"Rows at most; empty is the default","schema":{"type":"integer","minimum":0,"maximum":1000,"default":1000}}],
            "responses":{"200":{"$ref":"#/components/responses/HTML"},"400":{"$ref":"#/components/responses/HTMLError"},"404":{"$ref":"#/components/responses/HTMLError"}}}},
        "/tables/{t}/sections/{s}/rows":{
          "parameters":[{"$ref":"#/components/parameters/t"},{"$ref":"#/components/parameters/s"}],
          "get":{"operationId":"rowFragment","summary":"HTML <tr> fragment, for scrolling further",
            "parameters":[{"$ref":"#/components/parameters/offset"},{"$ref":"#/components/parameters/limit"}],
            "responses":{"200":{"$ref":"#/components/responses/HTML"},"400":{"$ref":"#/components/responses/HTMLError"},"404":{"$ref":"#/components/responses/HTMLError"}}}},
        "/public/{path}":{
          "get":{"operationId":"staticFile","summary":"Static files from Public/",
            "parameters":[{"name":"path","in":"path","required":true,"schema":{"type":"string"}}],
            "responses":{"200":{"description":"The file","content":{"*/*":{"schema":{"type":"string","format":"binary"}}}},"304":{"description":"Not modified"},"404":{"$ref":"#/components/responses/NotFound"}}}},
        "/assets/{version}/{path}":{
          "get":{"operationId":"versionedStaticFile","summary":"The files of Public/ under the hash of their contents (what pages link), cached immutable",
            "parameters":[{"name":"version","in":"path","required":true,"schema":{"type":"string"}},{"name":"path","in":"path","required":true,"schema":{"type":"string"}}],
            "responses":{"200":{"description":"The file","content":{"*/*":{"schema":{"type":"string","format":"binary"}}}},"304":{"description":"Not modified"},"404":{"$ref":"#/components/responses/NotFound"}}}},
        "/favicon.ico":{
          "get":{"operationId":"favicon","summary":"The site's icon (Public/favicon.ico)",
            "responses":{"200":{"description":"The icon","content":{"image/x-icon":{"schema":{"type":"string","format":"binary"}}}},"304":{"description":"Not modified"}}}},
        "/healthz":{"get":{"operationId":"health","summary":"Liveness","responses":{"200":{"description":"Alive","content":{"application/json":{"schema":{"type":"object","properties":{"status":{"type":"string"}}}}}}}}},
        "/readyz":{"get":{"operationId":"readiness","summary":"Readiness: whether edits can be taken (with --database, whether PostgreSQL is in reach)","responses":{"200":{"description":"Ready","content":{"application/json":{"schema":{"type":"object","properties":{"status":{"type":"string"}}}}}},"503":{"description":"Not ready: edits answer 503 until the replica has reconnected","content":{"application/json":{"schema":{"type":"object","properties":{"status":{"type":"string"},"detail":{"type":"string"}}}}}}}}},
        "/metrics":{"get":{"operationId":"metrics","summary":"Prometheus metrics","responses":{"200":{"description":"Prometheus text format","content":{"text/plain":{"schema":{"type":"string"}}}}}}},
        "/api/openapi.json":{"get":{"operationId":"openAPI","summary":"This document","responses":{"200":{"description":"OpenAPI 3.1","content":{"application/json":{"schema":{"type":"object"}}}}}}}
        }
        """#
}
