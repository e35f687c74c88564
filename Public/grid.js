// Grid semantics for the live page (WAI-ARIA grid pattern): the table is a
// `grid` (`aria-multiselectable` when the table allows multiple selection),
// its rows `row`, its cells `gridcell` and section headers `rowheader`. Each row
// is one tab stop (selection.js keeps a roving tabindex); the links, buttons and
// switches inside a row are reached with the arrow keys from the row, not with Tab:
// Right enters the row's controls and moves along them, Left moves back and
// finally to the row. The grid counts every row of the table, loaded or not
// (`aria-rowcount`, `aria-rowindex`: dom.js), so that a screen reader tells the
// real size of a million-row table and where the reader is in it.

import { numberGridRows } from "./dom.js";

const CONTROLS = "a[href], button, input";

/** The controls of `cell` a keyboard user can reach now, in order. */
export function controlsOf(cell) {
  return Array.from(cell.querySelectorAll(CONTROLS)).filter((control) => control.getClientRects().length > 0
    && !control.disabled && !control.classList.contains("cell-link"));
}

/** Marks the table and every row and cell in `root` with their grid roles; controls leave the tab order. */
export function applyGridRoles(table, root) {
  if (root === table) {
    table.setAttribute("role", "grid");
    const multiple = table.dataset.allowsSelection === "true" && table.dataset.allowsMultipleSelection === "true";
    table.setAttribute("aria-multiselectable", String(multiple));
    numberGridRows(table);
  }
  const rows = root.matches("tr") ? [root] : Array.from(root.querySelectorAll("tr"));
  for (const row of rows) {
    if (row.matches("tr.tv-spacer, tr.more")) {
      // Stand-ins for rows not loaded: not rows themselves.
      row.setAttribute("role", "presentation");
      row.setAttribute("aria-hidden", "true");
      continue;
    }
    row.setAttribute("role", "row");
    for (const part of row.children) part.setAttribute("role", part.matches("th") ? "rowheader" : "gridcell");
    if (row.matches("tr.cell")) {
      for (const control of row.querySelectorAll(CONTROLS)) control.setAttribute("tabindex", "-1");
    }
  }
  for (const group of root.matches("tbody, thead, tfoot") ? [root] : root.querySelectorAll("tbody, thead, tfoot")) {
    group.setAttribute("role", "rowgroup");
  }
}

/**
 * Left and right arrows inside a row: answers the element to focus for `key`
 * pressed on `target` (the row or one of its controls), or null.
 */
export function horizontalTarget(cell, target, key) {
  const controls = controlsOf(cell);
  if (!controls.length) return null;
  if (target === cell) return key === "ArrowRight" ? controls[0] : null;
  const index = controls.indexOf(target);
  if (index < 0) return null;
  if (key === "ArrowRight") return controls[index + 1] ?? null;
  return index === 0 ? cell : controls[index - 1];
}
