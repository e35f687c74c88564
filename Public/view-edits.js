// Editing while a view is shown (docs/API.md, "Views", edits through a view):
// the page of a view (`data-view` on the table: `q`, `filter[…]`, `sort`,
// `group`) shows rows at the view's index paths, not the table's, and the
// server refuses an edit by index path sent with a view (409
// `edit-through-view`). There the page edits rows by id — delete, insert
// after, select, switch, press — and a row without an id is read-only: no
// editing controls, its switch and button disabled. Reordering is off in a
// view (reorder.js). Outside a view nothing changes: edits go by index path.

/** True when `table` shows a view of its table rather than the table itself. */
export function isView(table) {
  return Boolean(table.dataset.view);
}

/**
 * True when the server offers this reader no edits of the page's table
 * (docs/ACCESS.md: a share link or token without the edit right): the page
 * is read-only, `data-read-only` on its `<body>`.
 */
export function isReadOnly() {
  return document.body.dataset.readOnly === "true";
}

/**
 * True when the page may edit `cell` of `table`: none on a read-only page,
 * any row of a table, only a row with an id in a view.
 */
export function editableHere(cell, table) {
  return !isReadOnly() && (!isView(table) || Boolean(cell.dataset.id));
}

/** Disables the controls matching `selector` of `cell` where the page may not edit it (``editableHere``). */
export function disableWhenReadOnly(cell, table, selector) {
  if (editableHere(cell, table)) return;
  for (const control of cell.querySelectorAll(selector)) control.disabled = true;
}
