"""Schemathesis hooks for scripts/test-schemathesis.sh (loaded through SCHEMATHESIS_HOOKS).

`positive_data_acceptance` is replaced by the same check with one narrow
exception: a 422 whose every error is one of the rules that span several
fields of a document, which JSON Schema cannot state and so a schema-valid
document can break:

- ids must be unique within a table (sections) and within a table (rows),
- the `id` in the body of `PUT /api/tables/{t}` must be `{t}` when given, and
  so must the `id` of a row or section put by id (`PUT …/items/{rowID}`,
  `…/items/{rowID}/reconfigure`, `PUT …/section-ids/{sectionID}`).

`negative_data_rejection` is replaced too, for one case: a `text/csv` body
that schemathesis drew as another type (the number `0`) is the same bytes as
the text `0`, a valid one-column file, so its 201 is no accepted bad data; and
a merge patch may hold null at any depth, which the row's schema cannot say.

Any other 4xx answer to schema-valid data is still a failure, and so is a 422
that names any other error alongside those.

A CSV body (`Content-Type: text/csv`, docs/API.md "CSV") is a string to the
schema: whether its records make a table, and whether the columns the query
names are in it, no schema can state; nor that `table-id` is required with it.
So for a CSV body a 422 and the 400 naming `table-id` are accepted too.

A JSON array of records is imported as a CSV body is, so the same holds for
it. A view that names a field no row of the table has is 400 (docs/API.md,
"Views"): which fields the rows have is the table's state, as a 404's row is.
A table's `source` names columns from its own `columns`, and a merge patch may
repeat an id but never change the one in the path: rules across fields. A
table's `access` rule with `rows` holds view query parameters, whose syntax no
pattern states, and gives `read` or `edit` only.

An `Idempotency-Key` (docs/API.md) names one request: the same key sent again
with another request is 422 `idempotency-key-reused`. Schemathesis draws keys
from a small space ("0" comes up often), so a schema-valid request may carry a
key an earlier case used: that state no schema can describe, like a 409, and
that one 422 is accepted for a request that sent a key.
"""

import schemathesis
from schemathesis.openapi.checks import RejectedPositiveData
from schemathesis.specs.openapi.checks import AcceptedNegativeData
from schemathesis.specs.openapi.checks import negative_data_rejection as builtin_negative_data_rejection
from schemathesis.specs.openapi.checks import positive_data_acceptance as builtin_positive_data_acceptance

CROSS_FIELD_RULES = (
    # A table's `source` names its columns from its own `columns` (docs/FORMAT.md).
    " among the ",
    # A merge patch may repeat a row's or a section's id, never change it (the path's).
    "a patch cannot change or remove",
    # A custom cell names its template: style and template together, as a patch may leave them.
    "needs a template",
    "duplicate table id ",
    "duplicate section id ",
    "duplicate row id ",
    "does not match the table in the path",
    "does not match the row in the path",
    "does not match the section in the path",
    # A table's own access rule: its `rows` are view query parameters, which no
    # pattern states, and a rule with them never gives admin (docs/FORMAT.md).
    "]: rows: ",
    "never admin",
)


def _only_cross_field_errors(response) -> bool:
    try:
        errors = response.json().get("errors")
    except Exception:
        return False
    if not isinstance(errors, list) or not errors:
        return False
    return all(
        isinstance(error, dict) and any(rule in str(error.get("message", "")) for rule in CROSS_FIELD_RULES)
        for error in errors
    )


def _refused_records_file(response, case) -> bool:
    """A CSV body, or a JSON array of records (imported as a CSV file is): its
    422s, and the 400 that says table-id is required."""
    media_type = getattr(case, "media_type", None)
    is_records = media_type == "application/json" and isinstance(getattr(case, "body", None), list)
    if media_type != "text/csv" and not is_records:
        return False
    if response.status_code == 422:
        return True
    try:
        detail = str(response.json().get("detail", ""))
    except Exception:
        return False
    return response.status_code == 400 and "table-id" in detail


def _field_no_row_has(response) -> bool:
    """A view naming a field no row of the table has is 400 (docs/API.md, "Views"): the table's state, like a 404."""
    return response.status_code == 400 and "no row of the table has fields." in response.text


def _reused_idempotency_key(response, case) -> bool:
    headers = {name.lower() for name in (getattr(case, "headers", None) or {})}
    if response.status_code != 422 or "idempotency-key" not in headers:
        return False
    try:
        return response.json().get("type") == "idempotency-key-reused"
    except Exception:
        return False


@schemathesis.check
def positive_data_acceptance_but_cross_field_rules(ctx, response, case):
    try:
        return builtin_positive_data_acceptance(ctx, response, case)
    except RejectedPositiveData:
        if response.status_code == 422 and _only_cross_field_errors(response):
            return None
        if _refused_records_file(response, case):
            return None
        if _field_no_row_has(response):
            return None
        if _reused_idempotency_key(response, case):
            return None
        raise


@schemathesis.check
def negative_data_rejection_but_csv_text(ctx, response, case):
    """A CSV body is text on the wire whatever type schemathesis drew for it (`0` is
    the one-column file `0`): a body of another type is not wrong for text/csv."""
    try:
        return builtin_negative_data_rejection(ctx, response, case)
    except AcceptedNegativeData:
        if getattr(case, "media_type", None) == "text/csv":
            return None
        if _merge_patch_found_valid(response, case):
            return None
        raise


def _merge_patch_found_valid(response, case) -> bool:
    """A JSON Merge Patch (RFC 7396) may hold null at any depth, each removing a
    member, so a patch the schema of a row refuses (`"enabled": null` in an
    accessory view) can merge into a valid row: the server checks the merged row
    first, and a 412 says it got past that to the table's version."""
    operation = case.operation
    return (
        operation.method.upper() == "PATCH"
        and ("/items/" in operation.path or "/section-ids/" in operation.path)
        and response.status_code == 412
    )
