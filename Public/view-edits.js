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

/** True when the page may edit `cell` of `table`: any row of a table, only a row with an id in a view. */
export function editableHere(cell, table) {
  return !isView(table) || Boolean(cell.dataset.id);
}

/** In a view, disables the controls matching `selector` of `cell` when the row has no id. */
export function disableWhenReadOnly(cell, table, selector) {
  if (editableHere(cell, table)) return;
  for (const control of cell.querySelectorAll(selector)) control.disabled = true;
}
