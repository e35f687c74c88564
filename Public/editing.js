// Editing mode (setEditing(_:animated:)): an Edit/Done button; in editing mode
// each row shows the control its `editingStyle` and `canEdit` ask for. The red
// delete control reveals a swipe-style confirmation button titled with the
// row's `deleteTitle`, which deletes the row through the API; the green insert
// control inserts a row after it. The change itself arrives through the feed.
// In a view these edits go by row id (view-edits.js).

import { indexPathOf, rowText } from "./dom.js";
import { editableHere, isReadOnly, isView } from "./view-edits.js";

const NEW_ROW = { text: "New row" };

function button(className, label) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = className;
  element.setAttribute("aria-label", label);
  return element;
}

/**
 * Adds the editing controls a row asks for (hidden until editing mode); none
 * in a view for a row without an id (view-edits.js).
 */
function decorate(cell, table) {
  const body = cell.querySelector(":scope > .cell-body");
  if (!body || body.querySelector(":scope > .tv-edit-control")) return;
  if (cell.dataset.canEdit !== "true" || !editableHere(cell, table)) return;
  const text = rowText(cell);
  if (cell.dataset.editingStyle === "delete") {
    const title = cell.dataset.deleteTitle || "Delete";
    const control = button("tv-edit-control tv-delete-control", `Delete ${text}`);
    control.setAttribute("aria-expanded", "false");
    const confirm = button("tv-delete-confirm", `${title}: ${text}`);
    confirm.textContent = title;
    body.prepend(control);
    body.append(confirm);
  } else if (cell.dataset.editingStyle === "insert") {
    body.prepend(button("tv-edit-control tv-insert-control", `Insert a row after ${text}`));
  }
}

/**
 * The Edit/Done button, in the navigation bar (at the start of `fallback` on a
 * page without one); `toggled` is called on each click.
 */
export function editButton(fallback, toggled) {
  const toggle = document.createElement("button");
  toggle.type = "button";
  toggle.className = "tv-edit-button";
  showEditing(toggle, false);
  toggle.addEventListener("click", toggled);
  const actions = document.querySelector("[data-nav-actions]");
  if (actions) actions.append(toggle);
  else fallback.prepend(toggle);
  return toggle;
}

/** Titles the Edit/Done button for editing mode on or off. */
export function showEditing(toggle, editing) {
  toggle.textContent = editing ? "Done" : "Edit";
  toggle.setAttribute("aria-pressed", String(editing));
}

export class Editing {
  constructor(view) {
    this.view = view;
    this.editing = false;
    view.enhancers.push((cell) => decorate(cell, view.table));

    this.toggle = editButton(view.container, () => this.setEditing(!this.editing));
    // The Edit button shows only while some row has an editing control:
    // in a view, rows without ids have none; on a read-only page, no row has.
    if (isView(view.table) || isReadOnly()) {
      view.structure.push(() => this.showToggleIfEditable());
      view.table.addEventListener("webtableview:update", () => this.showToggleIfEditable());
    }

    view.table.addEventListener("click", (event) => this.click(event));
    document.addEventListener("pointerdown", (event) => {
      const confirming = this.view.table.querySelector("tr.tv-confirming");
      if (confirming && !event.target.closest?.(".tv-delete-confirm, .tv-delete-control")) this.cancelConfirmation();
    });
    view.table.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.view.table.querySelector("tr.tv-confirming")) {
        const cell = this.cancelConfirmation();
        cell?.querySelector(".tv-delete-control")?.focus();
      }
    });
  }

  setEditing(editing) {
    this.editing = editing;
    this.view.table.classList.toggle("editing", editing);
    showEditing(this.toggle, editing);
    if (!editing) this.cancelConfirmation();
    this.view.table.dispatchEvent(new CustomEvent("webtableview:editing", { detail: { editing } }));
    this.view.notices.announce(editing ? "Editing" : "Done editing");
  }

  /**
   * In a view, the Edit button shows only while a row of the view has an
   * editing control (rows without ids have none); reordering is off there.
   */
  showToggleIfEditable() {
    const editable = Boolean(this.view.table.querySelector("tr.cell:not(.tv-removing) .tv-edit-control"));
    this.toggle.hidden = !editable;
    if (!editable && this.editing) this.setEditing(false);
  }

  /** Hides the confirmation button; answers the row that showed it. */
  cancelConfirmation() {
    const cell = this.view.table.querySelector("tr.tv-confirming");
    if (!cell) return null;
    cell.classList.remove("tv-confirming");
    cell.querySelector(".tv-delete-control")?.setAttribute("aria-expanded", "false");
    return cell;
  }

  click(event) {
    const target = event.target.closest?.(".tv-delete-control, .tv-delete-confirm, .tv-insert-control");
    // Outside editing mode only a swiped row's delete button is shown (swipe.js).
    if (!target || (!this.editing && !target.closest("tr.tv-swiped"))) return;
    event.preventDefault();
    event.stopPropagation();
    const cell = target.closest("tr.cell");
    if (target.classList.contains("tv-delete-control")) this.reveal(cell);
    else if (target.classList.contains("tv-delete-confirm")) this.commitDelete(cell, target);
    else this.commitInsert(cell);
  }

  reveal(cell) {
    const shown = cell.classList.contains("tv-confirming");
    this.cancelConfirmation();
    if (shown) return;
    cell.classList.add("tv-confirming");
    cell.querySelector(".tv-delete-control").setAttribute("aria-expanded", "true");
    cell.querySelector(".tv-delete-confirm").focus({ preventScroll: true });
  }

  async commitDelete(cell, confirm) {
    if (cell.classList.contains("tv-pending")) return;
    const [section, row] = indexPathOf(cell);
    cell.classList.add("tv-pending");
    // Not `disabled`: a disabled button drops the focus to <body>; the row keeps
    // it until the feed deletes the row and the focus moves to the next one.
    confirm.setAttribute("aria-disabled", "true");
    try {
      if (isView(this.view.table)) await this.view.api.deleteItem(cell.dataset.id);
      else await this.view.api.deleteRow(section, row);
    } catch (error) {
      this.view.notices.refused(error);
      cell.classList.remove("tv-pending", "tv-confirming");
      confirm.removeAttribute("aria-disabled");
    }
  }

  /** Inserts a new row after `cell`; in a view by its id, shown there when the view's query takes it. */
  async commitInsert(cell) {
    const [section, row] = indexPathOf(cell);
    try {
      if (isView(this.view.table)) await this.view.api.insertItem(NEW_ROW, cell.dataset.id);
      else await this.view.api.insertRow(section, row + 1, NEW_ROW);
    } catch (error) {
      this.view.notices.refused(error);
    }
  }
}
