// Reordering in editing mode (moveRow(at:to:)): rows whose `canMove` is true
// get a reorder handle. Drag it (mouse, pen or touch), or focus it and use the
// keyboard — Space or Enter picks the row up, the arrow keys move it, Space or
// Enter drops it, Escape puts it back; Alt+Arrow moves it one place at once.
// A drop sends one move to the API: by row id, next to a neighbour the reader
// saw there (before the row below, else after the row above, else into the
// section), so that it lands where it was dropped whatever else changed
// meanwhile. Rows without ids can only be moved by position at a version: the
// move is rebased on every change the feed brings meanwhile (move-rebase.js) and
// sent again at the newer version when the server answers that the table
// changed, so it too lands between the rows the reader saw.
// The row stays where it was dropped until the feed reports the change; if the
// move is refused (the row itself is gone), the row goes back. The row's id is
// read when it is picked up: a row deleted meanwhile (the feed reports it while
// the row is held, or as it is dropped) ends the drag with a plain message, and
// nothing is sent.

import { ApiError } from "./api.js";
import {
  cellsOf, firstRowOf, followPointer, indexPathOf, renumber, rowCountOf, rowsEndOf, rowText, sectionsOf, versionOf,
} from "./dom.js";
import { gapOf, rebaseMove, targetOf } from "./move-rebase.js";
import { isReadOnly, isView } from "./view-edits.js";

const EDGE = 48;
const SCROLL_STEP = 14;

/**
 * Adds the row's reorder handle. None in a view (view-edits.js), as UIKit
 * shows no reorder controls while a search is active: the view's order is its
 * query's (`sort`, `group`, or the table's order among the rows found), so a row
 * dropped there would not stay where it was dropped, and its neighbours in the
 * view need not be its neighbours in the table.
 */
function decorate(cell, table) {
  const body = cell.querySelector(":scope > .cell-body");
  if (!body || cell.dataset.canMove !== "true" || isView(table) || isReadOnly()) return;
  if (body.querySelector(":scope > .tv-reorder-handle")) return;
  const handle = document.createElement("button");
  handle.type = "button";
  handle.className = "tv-reorder-handle";
  handle.setAttribute("aria-label", `Reorder ${rowText(cell)}`);
  handle.setAttribute("aria-describedby", "tv-reorder-help");
  handle.setAttribute("aria-pressed", "false");
  body.append(handle);
}

/** Where a row was before it was picked up, to put it back, and its id then. */
function originOf(cell) {
  const tbody = cell.parentNode;
  return { cell, tbody, index: cellsOf(tbody).indexOf(cell), from: indexPathOf(cell), id: cell.dataset.id };
}

/** True when the row is no longer in the table (deleted, maybe still animating away). */
function gone(cell) {
  return !cell.isConnected || cell.classList.contains("tv-removing");
}

/** True when `batch` deletes the row at `[section, row]` or its section. */
function deletes(batch, [section, row]) {
  return (batch?.deleteSections ?? []).includes(section)
    || (batch?.deleteRows ?? []).some(([s, r]) => s === section && r === row);
}

function positionOf(cell) {
  const tbody = cell.parentNode;
  return [Number(tbody.dataset.section), firstRowOf(tbody) + cellsOf(tbody).indexOf(cell)];
}

/** How many times a move by position is sent again after the table changed under it. */
const MAX_REBASES = 8;
/** How long to wait for the change that made the server refuse a move by position. */
const CATCH_UP_MS = 5000;

/**
 * Where `cell` was dropped, by the ids of what the reader saw around it, most
 * precise first: before the next row, after the previous one, into the section
 * (when the section shows no other row).
 */
function anchorsOf(cell) {
  const cells = cellsOf(cell.parentNode);
  const index = cells.indexOf(cell);
  const anchors = [];
  const next = cells.slice(index + 1).find((other) => other.dataset.id);
  const previous = cells.slice(0, index).reverse().find((other) => other.dataset.id);
  if (next) anchors.push({ beforeItem: next.dataset.id });
  if (previous) anchors.push({ afterItem: previous.dataset.id });
  const sectionID = cell.parentNode.dataset.sectionId;
  if (cells.length === 1 && sectionID) anchors.push({ toSection: sectionID });
  return anchors;
}

function before(a, b) {
  return Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
}

export class Reorder {
  constructor(view) {
    this.view = view;
    this.drag = null;
    this.lifted = null;
    this.pending = null;
    /** A move by position on its way: `{from, gap, version}`, rebased on each update (move-rebase.js). */
    this.move = null;
    this.stepping = false;
    view.enhancers.push((cell) => decorate(cell, view.table));
    const help = document.createElement("p");
    help.id = "tv-reorder-help";
    help.className = "tv-visually-hidden";
    help.textContent = "Space picks the row up, arrow keys move it, Space drops it, Escape cancels.";
    view.container.append(help);

    const { table } = view;
    table.addEventListener("pointerdown", (event) => this.pointerDown(event));
    table.addEventListener("keydown", (event) => this.keyDown(event));
    table.addEventListener("focusout", (event) => {
      if (this.lifted && !this.stepping && event.target === this.lifted.handle) this.cancelLift();
    });
    table.addEventListener("webtableview:editing", (event) => {
      if (!event.detail.editing && this.lifted) this.cancelLift();
    });
    view.beforeUpdate.push((update) => {
      const drawn = this.revertPending();
      this.rebase(update);
      return drawn;
    });
    table.addEventListener("webtableview:update", () => this.placeAhead());
    table.addEventListener("webtableview:held", (event) => this.heldUpdate(event.detail));
  }

  get editing() {
    return this.view.table.classList.contains("editing");
  }

  // MARK: Dragging

  pointerDown(event) {
    const handle = event.target.closest?.(".tv-reorder-handle");
    if (!handle || !this.editing || event.button !== 0 || this.drag || this.pending || this.lifted) return;
    event.preventDefault();
    const cell = handle.closest("tr.cell");
    const top = cell.getBoundingClientRect().top + window.scrollY;
    const drag = { cell, origin: originOf(cell), startY: event.clientY + window.scrollY, startTop: top, shift: 0 };
    this.drag = drag;
    this.view.feed.hold();
    cell.classList.add("tv-dragging");
    this.view.table.classList.add("tv-reordering");
    // Moving the row in the page ends the handle's pointer capture: follow the
    // pointer on the document instead. A drag ended early (its row deleted) ignores the rest.
    followPointer(event, (moveEvent) => {
      if (this.drag === drag) this.pointerMove(moveEvent);
    }, (released) => {
      if (this.drag === drag) this.endDrag(released);
    });
  }

  pointerMove(event) {
    const { cell } = this.drag;
    const y = event.clientY;
    if (y < EDGE * 2) window.scrollBy(0, -SCROLL_STEP);
    else if (y > window.innerHeight - EDGE) window.scrollBy(0, SCROLL_STEP);
    const bounds = this.view.table.getBoundingClientRect();
    const over = document.elementsFromPoint(bounds.left + bounds.width / 2, y)
      .map((element) => element.closest("tr"))
      .find((row) => row && row !== cell);
    if (over && this.view.table.contains(over) && !over.closest(".tv-removing")) {
      this.relocate(cell, over, y);
    }
    const naturalTop = cell.getBoundingClientRect().top + window.scrollY - this.drag.shift;
    this.drag.shift = y + window.scrollY - this.drag.startY - (naturalTop - this.drag.startTop);
    cell.style.transform = `translateY(${this.drag.shift}px)`;
  }

  /** Moves the dragged row next to the row under the pointer once the pointer passes its middle. */
  relocate(cell, over, y) {
    const tbody = over.parentNode;
    if (over.matches("tr.cell")) {
      const box = over.getBoundingClientRect();
      const upper = y < box.top + box.height / 2;
      if (upper && before(over, cell)) tbody.insertBefore(cell, over);
      else if (!upper && before(cell, over)) tbody.insertBefore(cell, over.nextSibling);
    } else if (over.matches("tr.section-header")) {
      if (cellsOf(tbody)[0] !== cell) tbody.insertBefore(cell, over.nextSibling);
    } else if (over.matches("tr.section-footer, tr.more")) {
      const cells = cellsOf(tbody);
      if (cells[cells.length - 1] !== cell) tbody.insertBefore(cell, rowsEndOf(tbody));
    }
  }

  endDrag(drop) {
    const { cell, origin } = this.drag;
    this.drag = null;
    cell.classList.remove("tv-dragging");
    cell.style.removeProperty("transform");
    this.view.table.classList.remove("tv-reordering");
    if (drop) this.commit(origin);
    else {
      this.restore(origin);
      this.view.feed.release();
    }
  }

  /**
   * An update held back while a row is dragged or lifted: when it deletes that
   * row (the first update held, whose positions are those the page shows), the
   * drag ends now. Later ones are checked as the row is dropped (`commit`).
   */
  heldUpdate(update) {
    const held = this.drag ?? this.lifted;
    if (!held || update.version !== versionOf(this.view.table) + 1 || !deletes(update.batch, held.origin.from)) return;
    const { cell, origin } = held;
    if (this.drag) {
      this.drag = null;
      cell.classList.remove("tv-dragging");
      cell.style.removeProperty("transform");
      this.view.table.classList.remove("tv-reordering");
    } else {
      this.lifted = null;
      cell.classList.remove("tv-lifted");
      held.handle.setAttribute("aria-pressed", "false");
    }
    const hadFocus = cell.contains(document.activeElement);
    this.restore(origin);
    this.view.feed.release();
    this.lost(cell, hadFocus ? this.focusNeighbour(origin) : null);
  }

  /**
   * The row picked up with the focus is gone: its nearest neighbour (the row
   * that took its place, else the one before it) takes the focus, on its
   * reorder handle when it has one. Answers that row, or null.
   */
  focusNeighbour(origin) {
    const cells = origin.tbody.isConnected ? cellsOf(origin.tbody) : [];
    const neighbour = cells[Math.min(origin.index, cells.length - 1)]
      ?? cellsOf(this.view.table.querySelector(":scope > tbody.section:not(.tv-removing):has(> tr.cell)") ?? this.view.table)[0];
    if (!neighbour) {
      // No row left: the Edit/Done button, never <body>.
      this.view.editing.toggle.focus({ preventScroll: true });
      return null;
    }
    const target = neighbour.querySelector(".tv-reorder-handle") ?? neighbour;
    target.focus({ preventScroll: true });
    return neighbour;
  }

  /** Says that the row picked up was deleted meanwhile, so nothing moved, and where the focus went. */
  lost(cell, neighbour = null) {
    const focus = neighbour ? ` The focus is now on “${rowText(neighbour)}”.` : "";
    this.view.notices.alert(
      `That row is no longer in the table, so nothing was changed. “${rowText(cell)}” was deleted while you were moving it.${focus}`);
  }

  // MARK: Keyboard

  keyDown(event) {
    const handle = event.target.closest?.(".tv-reorder-handle");
    if (!handle || !this.editing || this.drag || this.pending) return;
    const cell = handle.closest("tr.cell");
    const arrow = event.key === "ArrowUp" ? -1 : event.key === "ArrowDown" ? 1 : 0;
    if (arrow && event.altKey && !this.lifted) {
      event.preventDefault();
      const origin = originOf(cell);
      this.view.feed.hold();
      this.step(cell, handle, arrow);
      this.commit(origin);
    } else if (arrow && this.lifted) {
      event.preventDefault();
      this.step(cell, handle, arrow);
    } else if (event.key === " " || event.key === "Enter") {
      event.preventDefault();
      if (this.lifted) this.drop();
      else this.lift(cell, handle);
    } else if (event.key === "Escape" && this.lifted) {
      event.preventDefault();
      this.cancelLift();
      handle.focus();
    }
  }

  lift(cell, handle) {
    this.lifted = { cell, handle, origin: originOf(cell) };
    this.view.feed.hold();
    cell.classList.add("tv-lifted");
    handle.setAttribute("aria-pressed", "true");
    this.view.notices.announce(`Picked up ${rowText(cell)}. ${this.describe(cell)}.`);
  }

  drop() {
    const { cell, handle, origin } = this.lifted;
    this.lifted = null;
    cell.classList.remove("tv-lifted");
    handle.setAttribute("aria-pressed", "false");
    this.commit(origin);
  }

  cancelLift() {
    const { cell, handle, origin } = this.lifted;
    this.lifted = null;
    cell.classList.remove("tv-lifted");
    handle.setAttribute("aria-pressed", "false");
    this.restore(origin);
    this.view.feed.release();
    this.view.notices.announce(`${rowText(cell)} put back`);
  }

  /** Moves `cell` one place up (-1) or down (1), into the next section at either end. */
  step(cell, handle, direction) {
    const tbody = cell.parentNode;
    const cells = cellsOf(tbody);
    const index = cells.indexOf(cell);
    const neighbour = cells[index + direction];
    this.stepping = true;
    if (neighbour) {
      tbody.insertBefore(cell, direction < 0 ? neighbour : neighbour.nextSibling);
    } else {
      const sections = sectionsOf(this.view.table);
      const next = sections[sections.indexOf(tbody) + direction];
      if (next) {
        const rows = cellsOf(next);
        if (direction < 0) next.insertBefore(cell, rowsEndOf(next));
        else next.insertBefore(cell, rows[0] ?? rowsEndOf(next));
      }
    }
    handle.focus({ preventScroll: true });
    handle.scrollIntoView({ block: "nearest" });
    this.stepping = false;
    this.view.notices.announce(this.describe(cell));
  }

  describe(cell) {
    const [section, row] = positionOf(cell);
    return `Row ${row + 1} of section ${section + 1}`;
  }

  // MARK: Sending the move

  /** Sends the move from `origin` to where the row is now, unless it is back where it was. */
  async commit(origin) {
    const { cell, from, id } = origin;
    if (gone(cell)) {
      this.view.feed.release();
      this.lost(cell);
      return;
    }
    const to = positionOf(cell);
    if (to[0] === from[0] && to[1] === from[1]) {
      this.view.feed.release();
      return;
    }
    // Read at the version shown; updates held back during the drag come after it.
    const version = versionOf(this.view.table);
    const anchors = id ? anchorsOf(cell) : [];
    renumber(this.view.table);
    this.pending = origin;
    if (!anchors.length) this.move = { from, gap: gapOf(from, to), version };
    // Updates held back during the drag are applied now: one may delete the row.
    this.view.feed.release();
    if (gone(cell)) {
      this.pending = null;
      this.move = null;
      this.lost(cell);
      return;
    }
    try {
      if (anchors.length) await this.moveByID(id, anchors);
      else await this.moveByPosition();
    } catch (error) {
      this.move = null;
      this.revertPending();
      this.view.notices.refused(error);
    }
  }

  /**
   * Sends the move by position at the latest version the page has rebased it
   * on; when the server answers that the table changed meanwhile, waits for
   * that change on the feed (which rebases the move) and sends it again.
   */
  async moveByPosition() {
    for (let attempt = 0; ; attempt += 1) {
      const { move } = this;
      if (move.gone) throw new ApiError(409, "unknown-id", "the moved row was deleted meanwhile");
      const to = targetOf(move.from, move.gap);
      if (to[0] === move.from[0] && to[1] === move.from[1]) {
        this.move = null;
        return null;
      }
      this.placeAhead();
      try {
        const answer = await this.view.api.moveRow(move.from, to, move.version);
        this.move = null;
        return answer;
      } catch (error) {
        if (error.status !== 412 || attempt >= MAX_REBASES) throw error;
        await this.view.feed.waitForVersion(move.version + 1, CATCH_UP_MS);
      }
    }
  }

  /** Carries the move by position on its way through `update`, the next version of the table. */
  rebase(update) {
    const { move } = this;
    if (!move || move.gone || update.version !== move.version + 1) return;
    const sections = sectionsOf(this.view.table);
    const counts = { sections: sections.length, rows: (s) => (sections[s] ? rowCountOf(sections[s]) : 0) };
    const rebased = update.batch?.press ? move : rebaseMove(move, update.batch ?? {}, counts);
    this.move = rebased ? { ...rebased, version: update.version } : { ...move, gone: true };
  }

  /**
   * Shows the move by position on its way where it will land at the version
   * shown, when both ends are loaded; the feed's report of it then changes
   * nothing that the reader sees.
   */
  placeAhead() {
    const { move } = this;
    if (!move || move.gone || this.pending || move.version !== versionOf(this.view.table)) return;
    const sections = sectionsOf(this.view.table);
    const source = sections[move.from[0]];
    const to = targetOf(move.from, move.gap);
    const target = sections[to[0]];
    if (!source || !target) return;
    const cell = cellsOf(source)[move.from[1] - firstRowOf(source)];
    if (!cell) return;
    const others = cellsOf(target).filter((other) => other !== cell);
    const index = to[1] - firstRowOf(target);
    if (index < 0 || index > others.length) return;
    this.pending = originOf(cell);
    target.insertBefore(cell, others[index] ?? rowsEndOf(target));
    renumber(this.view.table);
  }

  /** Tries each anchor in turn while the server answers that the anchor (not the row) is gone. */
  async moveByID(id, anchors) {
    for (const anchor of anchors.slice(0, -1)) {
      try {
        return await this.view.api.moveItem(id, anchor);
      } catch (error) {
        if (error.type !== "unknown-id" || error.message.includes(`"${id}"`)) throw error;
      }
    }
    return this.view.api.moveItem(id, anchors[anchors.length - 1]);
  }

  /**
   * Puts a row moved ahead of the server back, before the feed says what
   * happened. Answers where the row was drawn, so that the update slides it
   * from there (not at all when the server put it where it was dropped).
   */
  revertPending() {
    if (!this.pending) return [];
    const origin = this.pending;
    this.pending = null;
    const top = origin.cell.getBoundingClientRect().top;
    this.restore(origin);
    return [[origin.cell, top]];
  }

  restore({ cell, tbody, index }) {
    if (!cell.isConnected || !tbody.isConnected) return;
    const others = cellsOf(tbody).filter((other) => other !== cell);
    tbody.insertBefore(cell, others[index] ?? rowsEndOf(tbody));
    renumber(this.view.table);
  }
}
