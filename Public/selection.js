// Selection (selectRow/deselectRow): a click or Enter/Space on a row selects it
// through the API — or deselects it when it is selected and the table allows
// multiple selection. The highlight and checkmarks then follow `selected` as
// the feed reports it; in a view by the row's id, a row without one not at all
// (view-edits.js). Rows with a `link` open it instead. Rows take focus one
// at a time (a roving tabindex): Tab enters the table, arrow keys move along it,
// Left and Right along the controls of a row (grid.js), Up and Down from a row
// or a control in it; Home and End (or
// Ctrl+Home and Ctrl+End) go to the first and last row of the whole table,
// loading them first when they are not in the page (virtual-scroll.js).

import { cellsOf, indexPathOf, rowCountOf, sectionsOf } from "./dom.js";
import { applyGridRoles, horizontalTarget } from "./grid.js";
import { editableHere, isView } from "./view-edits.js";

const CONTROLS = "a, button, input, select, textarea, .tv-reorder-handle";
/** How long a tapped row's highlight lasts before it clears (tableview-live.css, tv-flash). */
const FLASH_MS = 600;
/** Controls that take the arrow and Home/End keys themselves. */
const TEXT_ENTRY = "input:not([type=checkbox], [type=radio], [type=button]), select, textarea, [contenteditable]";

function isRow(element) {
  return element?.matches?.("tr.cell") && !element.classList.contains("tv-removing");
}

export class Selection {
  constructor(view) {
    this.view = view;
    const { table } = view;
    view.enhancers.push((cell) => {
      if (!cell.hasAttribute("tabindex")) cell.setAttribute("tabindex", "-1");
    });
    view.structure.push((root) => applyGridRoles(table, root));
    table.addEventListener("click", (event) => {
      if (table.classList.contains("editing")) return;
      const cell = event.target.closest("tr.cell");
      if (!isRow(cell)) return;
      if (event.target.closest("a.cell-link")) this.flash(cell);
      else if (!event.target.closest(CONTROLS)) this.choose(cell);
    });
    // Back from the row's link (the page kept in the back/forward cache): no row stays highlighted.
    window.addEventListener("pageshow", () => {
      for (const cell of table.querySelectorAll("tr.tv-flash")) cell.classList.remove("tv-flash");
    });
    table.addEventListener("keydown", (event) => this.keyDown(event));
    table.addEventListener("focusin", (event) => {
      const cell = event.target.closest("tr.cell");
      if (isRow(cell)) this.makeCurrent(cell);
    });
    table.addEventListener("webtableview:update", () => this.keepOneTabStop());
  }

  /** After the page was enhanced: the first row is where Tab enters the table. */
  start() {
    this.keepOneTabStop();
  }

  keepOneTabStop() {
    const current = this.view.table.querySelector("tr.cell[tabindex='0']:not(.tv-removing)");
    if (current) return;
    const first = this.view.table.querySelector("tbody.section:not(.tv-removing) > tr.cell:not(.tv-removing)");
    first?.setAttribute("tabindex", "0");
  }

  makeCurrent(cell) {
    for (const other of this.view.table.querySelectorAll("tr.cell[tabindex='0']")) {
      if (other !== cell) other.setAttribute("tabindex", "-1");
    }
    cell.setAttribute("tabindex", "0");
  }

  /**
   * A row whose tap opens its link: the highlight flashes and clears, as
   * UIKit's deselectRow(animated:) after a segue; the table keeps no selection
   * (docs/FORMAT.md, "Row"). Not for `selectionStyle` none.
   */
  flash(cell) {
    if (cell.classList.contains("selection-none")) return;
    clearTimeout(this.flashTimer);
    cell.classList.remove("tv-flash");
    // Read the layout so that a flash started again runs from its start.
    void cell.offsetWidth;
    cell.classList.add("tv-flash");
    this.flashTimer = setTimeout(() => cell.classList.remove("tv-flash"), FLASH_MS);
  }

  async choose(cell) {
    const link = cell.querySelector("a.cell-link");
    if (link) {
      link.click();
      return;
    }
    const { table, api, notices } = this.view;
    if (table.dataset.allowsSelection !== "true") return;
    const selected = cell.classList.contains("selected");
    const multiple = table.dataset.allowsMultipleSelection === "true";
    if ((selected && !multiple) || !editableHere(cell, table)) return;
    cell.classList.add("tv-highlighted");
    try {
      if (isView(table)) await api.selectItem(cell.dataset.id, !selected);
      else await api.select(...indexPathOf(cell), !selected);
    } catch (error) {
      notices.refused(error);
    } finally {
      cell.classList.remove("tv-highlighted");
    }
  }

  keyDown(event) {
    // Another part of the page used the key (a lifted row moving), or a text field wants it.
    if (event.defaultPrevented || event.target.matches?.(TEXT_ENTRY)) return;
    const inRow = isRow(event.target.closest?.("tr.cell"));
    if ((event.key === "Home" || event.key === "End") && !event.altKey && !event.metaKey && inRow) {
      event.preventDefault();
      this.goToEnd(event.key === "Home" ? -1 : 1);
      return;
    }
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      const row = event.target.closest?.("tr.cell");
      const target = isRow(row) ? horizontalTarget(row, event.target, event.key) : null;
      if (target) {
        event.preventDefault();
        target.focus();
      }
      return;
    }
    const cell = event.target.closest?.("tr.cell");
    if (!isRow(cell)) return;
    // From a control inside a row, Up and Down go to the rows around it; Enter and Space are the control's.
    if (cell !== event.target && (event.key === "Enter" || event.key === " ")) return;
    let target = null;
    switch (event.key) {
      case "ArrowDown": target = this.neighbour(cell, 1); break;
      case "ArrowUp": target = this.neighbour(cell, -1); break;
      case "Enter":
      case " ":
        event.preventDefault();
        if (!this.view.table.classList.contains("editing")) this.choose(cell);
        return;
      default:
        return;
    }
    event.preventDefault();
    if (target) {
      this.makeCurrent(target);
      target.focus();
    }
  }

  /** Focuses the first (-1) or last (1) row of the table, loaded or not. */
  async goToEnd(direction) {
    const sections = sectionsOf(this.view.table).filter((tbody) => rowCountOf(tbody) > 0);
    const tbody = direction < 0 ? sections[0] : sections[sections.length - 1];
    if (!tbody) return;
    const target = await this.view.scroll.rowElement(tbody, direction < 0 ? 0 : rowCountOf(tbody) - 1);
    if (!target) return;
    this.makeCurrent(target);
    target.focus({ preventScroll: true });
    target.scrollIntoView({ block: "nearest" });
  }

  /** The row after (1) or before (-1) `cell`, across sections. */
  neighbour(cell, direction) {
    let sibling = direction > 0 ? cell.nextElementSibling : cell.previousElementSibling;
    while (sibling && !isRow(sibling) && sibling.matches("tr.cell")) {
      sibling = direction > 0 ? sibling.nextElementSibling : sibling.previousElementSibling;
    }
    if (isRow(sibling)) return sibling;
    const sections = sectionsOf(this.view.table);
    for (let s = sections.indexOf(cell.parentNode) + direction; s >= 0 && s < sections.length; s += direction) {
      const cells = cellsOf(sections[s]);
      if (cells.length) return direction > 0 ? cells[0] : cells[cells.length - 1];
    }
    return null;
  }
}
