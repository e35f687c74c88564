// Links to a row, `/tables/{t}#section-S-row-R` (docs/FORMAT.md, "The HTML"),
// land as UIKit's scrollToRow(at:at: .top) lands a row: just below the
// navigation bar and its section's sticky header, whether the row is loaded
// or not (virtual-scroll.js); the row then takes the focus, for keyboards and
// screen readers, and is marked for a moment (`tv-marked`). Without
// JavaScript the rows carry the ids the links name, and the style sheet keeps
// them clear of the sticky bars (`scroll-margin-top`).

import { rowCountOf, sectionsOf } from "./dom.js";

const MARK_MS = 1600;

/** The row index path a fragment names, or null. */
function linkedRow(hash) {
  const match = /^#section-(\d+)-row-(\d+)$/.exec(hash);
  return match ? [Number(match[1]), Number(match[2])] : null;
}

export class DeepLink {
  constructor(view) {
    this.view = view;
    this.timer = 0;
    window.addEventListener("hashchange", () => this.follow(window.location.hash));
  }

  /** Scrolls to the row `hash` names, focuses it and marks it; nothing for other fragments. */
  async follow(hash) {
    const path = linkedRow(hash);
    if (!path) return;
    const tbody = sectionsOf(this.view.table)[path[0]];
    const count = tbody ? rowCountOf(tbody) : 0;
    if (!count) return;
    const cell = await this.view.scroll.rowElement(tbody, Math.min(path[1], count - 1));
    if (!cell?.isConnected) return;
    this.view.selection.makeCurrent(cell);
    cell.focus({ preventScroll: true });
    this.view.scroll.bringClear(cell);
    this.mark(cell);
  }

  mark(cell) {
    clearTimeout(this.timer);
    for (const other of this.view.table.querySelectorAll("tr.tv-marked")) other.classList.remove("tv-marked");
    cell.classList.add("tv-marked");
    this.timer = setTimeout(() => cell.classList.remove("tv-marked"), MARK_MS);
  }
}
