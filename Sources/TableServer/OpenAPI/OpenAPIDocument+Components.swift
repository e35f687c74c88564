extension OpenAPIDocument {
    /// `components`: the documents of SPEC §1–§3 and the shared parameters and answers.
    static let components = #"""
        {
        "parameters":{
          "t":{"name":"t","in":"path","required":true,"description":"Table id","schema":{"type":"string","pattern":"^[A-Za-z0-9_-]{1,64}$"}},
          "s":{"name":"s","in":"path","required":true,"description":"Section index","schema":{"type":"integer","minimum":0}},
          "r":{"name":"r","in":"path","required":true,"description":"Row index within the section","schema":{"type":"integer","minimum":0}},
          "offset":{"name":"offset","in":"query","schema":{"type":"integer","minimum":0,"default":0}},
          "limit":{"name":"limit","in":"query","schema":{"type":"integer","minimum":0,"maximum":1000,"default":100}},
          "animation":{"name":"animation","in":"query","description":"UITableView.RowAnimation of this single operation; default automatic","schema":{"$ref":"#/components/schemas/Animation"}},
          "IfMatch":{"name":"If-Match","in":"header","description":"Apply only to this version, e.g. \"7\"","schema":{"type":"string"}},
          "IfNoneMatch":{"name":"If-None-Match","in":"header","schema":{"type":"string"}}},
        "headers":{"ETag":{"description":"The table's version, quoted","schema":{"type":"string"}}},
        "requestBodies":{"Table":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Table"}}}}},
        "responses":{
          "HTML":{"description":"An HTML page or fragment","content":{"text/html":{"schema":{"type":"string"}}}},
          "HTMLError":{"description":"An HTML error page","content":{"text/html":{"schema":{"type":"string"}}}},
          "BadRequest":{"description":"Malformed JSON or parameters","content":{"application/problem+json":{"schema":{"$ref":"#/components/schemas/Problem"}}}},
          "Unauthorized":{"description":"An edit without the configured bearer token","headers":{"WWW-Authenticate":{"schema":{"type":"string"}}},"content":{"application/problem+json":{"schema":{"$ref":"#/components/schemas/Problem"}}}},
          "NotFound":{"description":"Unknown table, section or row","content":{"application/problem+json":{"schema":{"$ref":"#/components/schemas/Problem"}}}},
          "Conflict":{"description":"An edit UIKit would refuse (type names the rule; detail is UIKit's message)","content":{"application/problem+json":{"schema":{"$ref":"#/components/schemas/Problem"}}}},
          "Gone":{"description":"The changes asked for are no longer kept; reload the table","content":{"application/problem+json":{"schema":{"$ref":"#/components/schemas/Problem"}}}},
          "PreconditionFailed":{"description":"If-Match names an older version","content":{"application/problem+json":{"schema":{"$ref":"#/components/schemas/Problem"}}}},
          "TooLarge":{"description":"The body is over the limit","content":{"application/problem+json":{"schema":{"$ref":"#/components/schemas/Problem"}}}},
          "UnsupportedMediaType":{"description":"The body is not declared as JSON","content":{"application/problem+json":{"schema":{"$ref":"#/components/schemas/Problem"}}}},
          "Invalid":{"description":"Valid JSON that is not a valid document; every error with its JSON path","content":{"application/problem+json":{"schema":{"$ref":"#/components/schemas/Problem"}}}}},
        "schemas":{
          "Problem":{"type":"object","required":["type","title","status"],"properties":{"type":{"type":"string"},"title":{"type":"string"},"status":{"type":"integer"},"detail":{"type":"string"},
            "errors":{"type":"array","items":{"type":"object","required":["path","message"],"properties":{"path":{"type":"string"},"message":{"type":"string"}}}}}},
          "Id":{"type":"string","pattern":"^[A-Za-z0-9_-]{1,64}$"},
          "IndexPath":{"type":"array","items":{"type":"integer","minimum":0},"minItems":2,"maxItems":2,"description":"[section, row]"},
          "TableStyle":{"type":"string","enum":["plain","grouped","insetGrouped"]},
          "Animation":{"type":"string","enum":["fade","right","left","top","bottom","middle","none","automatic"]},
          "Text":{"type":["string","null"]},
          "Url":{"type":["string","null"],"description":"http, https or a path"},
          "Row":{"type":"object","additionalProperties":false,"properties":{
            "id":{"$ref":"#/components/schemas/Id"},
            "style":{"type":"string","enum":["default","subtitle","value1","value2","custom"],"default":"default"},
            "text":{"type":"string","default":""},"detail":{"$ref":"#/components/schemas/Text"},"image":{"$ref":"#/components/schemas/Url"},
            "accessory":{"type":"string","enum":["none","disclosureIndicator","detailDisclosureButton","checkmark","detailButton"],"default":"none"},
            "selectionStyle":{"type":"string","enum":["default","none"],"default":"default"},
            "editingStyle":{"type":"string","enum":["delete","insert","none"],"default":"delete"},
            "canEdit":{"type":"boolean","default":true},"canMove":{"type":"boolean","default":true},
            "deleteTitle":{"type":"string","default":"Delete"},"indentationLevel":{"type":"integer","minimum":0,"maximum":16,"default":0},
            "height":{"type":["number","null"],"exclusiveMinimum":0,"maximum":10000},"selected":{"type":"boolean","default":false},
            "template":{"type":["string","null"],"pattern":"^[A-Za-z0-9_-]{1,64}$"},"fields":{"type":"object","default":{}},
            "link":{"$ref":"#/components/schemas/Url"},"detailLink":{"$ref":"#/components/schemas/Url"}}},
          "Section":{"type":"object","additionalProperties":false,"properties":{
            "id":{"$ref":"#/components/schemas/Id"},"header":{"$ref":"#/components/schemas/Text"},"footer":{"$ref":"#/components/schemas/Text"},
            "indexTitle":{"$ref":"#/components/schemas/Text"},"rows":{"type":"array","items":{"$ref":"#/components/schemas/Row"}}}},
          "SectionSummary":{"type":"object","properties":{
            "id":{"type":["string","null"]},"header":{"$ref":"#/components/schemas/Text"},"footer":{"$ref":"#/components/schemas/Text"},
            "indexTitle":{"$ref":"#/components/schemas/Text"},"rowCount":{"type":"integer","minimum":0}}},
          "SectionList":{"type":"object","required":["sections"],"properties":{"version":{"type":"integer"},"sections":{"type":"array","items":{"$ref":"#/components/schemas/SectionSummary"}}}},
          "Table":{"type":"object","required":["id"],"additionalProperties":false,"properties":{
            "id":{"$ref":"#/components/schemas/Id"},"title":{"$ref":"#/components/schemas/Text"},"style":{"$ref":"#/components/schemas/TableStyle"},
            "header":{"$ref":"#/components/schemas/Text"},"footer":{"$ref":"#/components/schemas/Text"},
            "rowHeight":{"type":"number","exclusiveMinimum":0,"maximum":10000,"default":44},
            "allowsSelection":{"type":"boolean","default":true},"allowsMultipleSelection":{"type":"boolean","default":false},
            "version":{"type":"integer","minimum":0,"description":"Output only; ignored on input"},
            "sections":{"type":"array","items":{"$ref":"#/components/schemas/Section"}}}},
          "TableSummary":{"type":"object","required":["id","style","sectionCount","rowCount","version"],"properties":{
            "id":{"type":"string"},"title":{"$ref":"#/components/schemas/Text"},"style":{"$ref":"#/components/schemas/TableStyle"},
            "sectionCount":{"type":"integer"},"rowCount":{"type":"integer"},"version":{"type":"integer"}}},
          "TableList":{"type":"object","required":["tables"],"properties":{"tables":{"type":"array","items":{"$ref":"#/components/schemas/TableSummary"}}}},
          "TableProperties":{"type":"object","additionalProperties":false,"properties":{
            "title":{"$ref":"#/components/schemas/Text"},"style":{"$ref":"#/components/schemas/TableStyle"},
            "header":{"$ref":"#/components/schemas/Text"},"footer":{"$ref":"#/components/schemas/Text"},
            "rowHeight":{"type":"number","exclusiveMinimum":0,"maximum":10000},
            "allowsSelection":{"type":"boolean"},"allowsMultipleSelection":{"type":"boolean"}}},
          "RowPage":{"type":"object","required":["total","offset","rows"],"properties":{"total":{"type":"integer"},"offset":{"type":"integer"},"rows":{"type":"array","items":{"$ref":"#/components/schemas/Row"}}}},
          "SectionInsert":{"type":"object","required":["section"],"additionalProperties":false,"properties":{"at":{"type":"integer","minimum":0},"section":{"$ref":"#/components/schemas/Section"}}},
          "RowInsert":{"type":"object","additionalProperties":false,"properties":{"at":{"type":"integer","minimum":0},"row":{"$ref":"#/components/schemas/Row"},"rows":{"type":"array","items":{"$ref":"#/components/schemas/Row"}}},
            "oneOf":[{"required":["row"]},{"required":["rows"]}]},
          "Batch":{"type":"object","additionalProperties":false,"properties":{
            "deleteSections":{"type":"array","items":{"type":"integer","minimum":0}},
            "insertSections":{"type":"array","items":{"type":"object","required":["at","section"],"additionalProperties":false,"properties":{"at":{"type":"integer","minimum":0},"section":{"$ref":"#/components/schemas/Section"}}}},
            "reloadSections":{"type":"array","items":{"type":"object","required":["at","section"],"additionalProperties":false,"properties":{"at":{"type":"integer","minimum":0},"section":{"$ref":"#/components/schemas/Section"}}}},
            "moveSections":{"type":"array","items":{"type":"object","required":["from","to"],"additionalProperties":false,"properties":{"from":{"type":"integer","minimum":0},"to":{"type":"integer","minimum":0}}}},
            "deleteRows":{"type":"array","items":{"$ref":"#/components/schemas/IndexPath"}},
            "insertRows":{"type":"array","items":{"type":"object","required":["at","row"],"additionalProperties":false,"properties":{"at":{"$ref":"#/components/schemas/IndexPath"},"row":{"$ref":"#/components/schemas/Row"}}}},
            "reloadRows":{"type":"array","items":{"type":"object","required":["at","row"],"additionalProperties":false,"properties":{"at":{"$ref":"#/components/schemas/IndexPath"},"row":{"$ref":"#/components/schemas/Row"}}}},
            "moveRows":{"type":"array","items":{"type":"object","required":["from","to"],"additionalProperties":false,"properties":{"from":{"$ref":"#/components/schemas/IndexPath"},"to":{"$ref":"#/components/schemas/IndexPath"}}}},
            "properties":{"$ref":"#/components/schemas/TableProperties"},
            "animation":{"$ref":"#/components/schemas/Animation"},
            "expect":{"type":"object","additionalProperties":false,"properties":{"sections":{"type":"integer","minimum":0},"rows":{"type":"array","items":{"type":"integer","minimum":0}}}}}},
          "Change":{"type":"object","required":["version","batch"],"properties":{"version":{"type":"integer"},"batch":{"$ref":"#/components/schemas/Batch"}}},
          "ChangeList":{"type":"object","required":["version","changes"],"properties":{"version":{"type":"integer"},"changes":{"type":"array","items":{"$ref":"#/components/schemas/Change"}}}}
        }}
        """#
}
