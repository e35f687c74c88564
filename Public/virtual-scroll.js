// Virtual scrolling: the page holds only the rows near the viewport, whatever
// the size of the table (docs/PERFORMANCE.md, "The live page at a million rows").
//
// Strategy: each section keeps ONE contiguous window of loaded rows, between a
// spacer row (`tr.tv-spacer`, standing for the rows before the window) and the
// server's `tr.more` row (standing for the rows after it). Spacers in the flow,
// rather than absolutely positioned rows, because everything else on the page
// works on the document order of real rows: sticky section headers, the grid
// navigation and roving tab stop, reorder by drag, swipe, the animations of
// live updates, and the page without JavaScript (where `tr.more` is the "Show N
// more rows" link). A live update then only has to know each section's window
// start and row count (apply-update.js): a change outside the window changes
// the number of rows a spacer stands for, nothing else.
//
// Heights: a spacer is `rows × unit` pixels, `unit` being the measured average
// row height, scaled down when the whole table would pass MAX_HEIGHT (browsers
// cannot lay out taller pages; a 1,000,000-row table at 44 px a row is 44 Mpx).
// Loaded rows have their real heights. Whenever rows are loaded, unloaded or
// the unit changes, the row at the top of the viewport is kept where it was
// (the browser's own scroll anchoring is off: it would pick spacers), so
// corrections from estimate to measured height never move what the reader sees.
//
// On each animation frame after a scroll: for each section near the viewport,
// the rows one viewport above and below it are wanted; missing ones are fetched
// as a `<tr>` fragment (GET /tables/{t}/sections/{s}/rows?offset=&limit=) —
// next to the window when they adjoin it, else in place of it (a jump: the
// scrollbar dragged, the section index, a link) — and rows more than
// KEEP_VIEWPORTS away are unloaded. A fragment is used only when drawn at the
// version the page shows and when the window did not change meanwhile.

import {
  cellsOf, firstRowOf, makeMoreRow, moreRowOf, parseParts, remainingOf, renumber, rowCountOf, rowsEndOf,
  sectionsOf, setFirstRow, setMoreRow, spacerOf, versionOf,
} from "./dom.js";
import { viewSuffix } from "./search.js";

const LOAD_VIEWPORTS = 1;
const KEEP_VIEWPORTS = 3;
/** Rows fetched at least, so that slow scrolling does not ask row by row. */
const CHUNK = 60;
/** The server's largest page of rows. */
const MOST_ROWS = 1000;
/** Rows unloaded at least at once, so that the window does not churn. */
const SLACK = 30;
const MAX_HEIGHT = 15_000_000;
const ATTEMPTS = 8;
const CATCH_UP_MS = 5000;

/** The version of a fragment's ETag; NaN when it is not of the life the page shows. */
function etagVersion(response, table) {
  // `"7"`, `"7-gzip"`, a view's `"7-v3f2a…"` (docs/API.md, "Views"), each after the server's life (`"k3f9a2c1.7"`).
  const match = /"(?:([a-z0-9]+)\.)?(\d+)(?:-[a-z0-9]+)*"/.exec(response.headers.get("ETag") ?? "");
  return match && (match[1] ?? "") === (table.dataset.life ?? "") ? Number(match[2]) : NaN;
}

const clamp = (value, low, high) => Math.min(Math.max(value, low), high);

export class VirtualScroll {
  constructor(view) {
    this.view = view;
    this.pending = new Set();
    this.frame = 0;
    this.rowHeight = 44;
    this.measured = 0;
    this.unit = 44;
    const { table } = view;
    document.documentElement.classList.add("tv-virtual");
    this.measure(table.querySelectorAll("tbody.section > tr.cell"));
    window.addEventListener("scroll", () => this.schedule(), { passive: true });
    window.addEventListener("resize", () => this.schedule());
    table.addEventListener("webtableview:update", () => {
      this.resize();
      this.schedule();
    });
    this.resize();
    this.schedule();
  }

  /**
   * Scrolls so that `cell` sits just below everything that sticks to the top
   * of the viewport: the navigation bar and its section's header (plain style).
   */
  bringClear(cell) {
    const header = cell.parentNode.querySelector(":scope > tr.section-header");
    const sticky = header && getComputedStyle(header).position === "sticky" ? header.offsetHeight : 0;
    const shift = cell.getBoundingClientRect().top - (this.viewportTop() + sticky);
    if (Math.abs(shift) >= 0.5) window.scrollBy(0, shift);
  }

  /**
   * The element of row `r` of `tbody`: at once when loaded, else after
   * scrolling to where it is and loading it (null when it never came).
   */
  rowElement(tbody, r) {
    const find = () => {
      if (!tbody.isConnected) return null;
      const first = firstRowOf(tbody);
      return r >= first ? (cellsOf(tbody)[r - first] ?? null) : null;
    };
    const loaded = find();
    if (loaded) return Promise.resolve(loaded);
    window.scrollBy(0, this.rowTop(tbody, r) - this.viewportTop());
    this.schedule();
    const { table } = this.view;
    return new Promise((resolve) => {
      const done = (cell) => {
        table.removeEventListener("webtableview:rows", check);
        clearTimeout(timer);
        resolve(cell);
      };
      const check = () => {
        const cell = find();
        if (cell) done(cell);
      };
      table.addEventListener("webtableview:rows", check);
      const timer = setTimeout(() => done(find()), CATCH_UP_MS * 2);
    });
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.update();
    });
  }

  /** Learns the row height from rows just put in the page. */
  measure(cells) {
    let sum = 0;
    let count = 0;
    for (const cell of cells) {
      sum += cell.offsetHeight;
      count += 1;
    }
    if (!count) return;
    const weight = Math.min(this.measured, 1000);
    this.rowHeight = (this.rowHeight * weight + sum) / (weight + count);
    this.measured = weight + count;
  }

  /** Sizes every spacer for the row height and the table's row count. */
  resize() {
    const sections = sectionsOf(this.view.table);
    const total = sections.reduce((sum, tbody) => sum + rowCountOf(tbody), 0);
    this.unit = Math.max(1, Math.min(this.rowHeight, MAX_HEIGHT / Math.max(total, 1)));
    for (const tbody of sections) {
      const spacer = spacerOf(tbody);
      if (spacer) setHeight(spacer, firstRowOf(tbody) * this.unit);
      const more = moreRowOf(tbody);
      if (!more) continue;
      // With JavaScript the `more` row is only a spacer: its link to the next page goes.
      if (more.firstChild) more.replaceChildren();
      setHeight(more, Math.max(remainingOf(more), 0) * this.unit);
    }
  }

  /** The top of the part of the viewport not under the sticky navigation bar. */
  viewportTop() {
    const bar = document.querySelector(".nav-bar");
    return Math.max(0, bar ? bar.getBoundingClientRect().bottom : 0);
  }

  /** The first section whose bottom is below `y` (client coordinates), by bisection. */
  sectionIndexAt(sections, y) {
    let low = 0;
    let high = sections.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (sections[middle].getBoundingClientRect().bottom > y) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  /** The index of the row of `tbody` at `y` (client coordinates), loaded or not, clamped to the section. */
  rowAt(tbody, y) {
    const first = firstRowOf(tbody);
    const cells = cellsOf(tbody);
    const spacer = spacerOf(tbody);
    if (spacer) {
      const box = spacer.getBoundingClientRect();
      if (y < box.bottom) return clamp(Math.floor((y - box.top) / this.unit), 0, first);
    }
    if (cells.length && y < cells[cells.length - 1].getBoundingClientRect().bottom) {
      let low = 0;
      let high = cells.length - 1;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (cells[middle].getBoundingClientRect().bottom > y) high = middle;
        else low = middle + 1;
      }
      return first + low;
    }
    const end = first + cells.length;
    const more = moreRowOf(tbody);
    if (!more) return end;
    const box = more.getBoundingClientRect();
    return end + clamp(Math.floor((y - box.top) / this.unit), 0, Math.max(remainingOf(more), 0));
  }

  /** The top of row `r` of `tbody` (client coordinates), loaded or not. */
  rowTop(tbody, r) {
    const first = firstRowOf(tbody);
    const cells = cellsOf(tbody);
    if (r < first) return spacerOf(tbody).getBoundingClientRect().top + r * this.unit;
    if (r < first + cells.length) return cells[r - first].getBoundingClientRect().top;
    const more = moreRowOf(tbody);
    const top = more ? more.getBoundingClientRect().top
      : (cells.length ? cells[cells.length - 1].getBoundingClientRect().bottom : tbody.getBoundingClientRect().bottom);
    return top + (r - first - cells.length) * this.unit;
  }

  /**
   * Where the reader is: the row at the top of the viewport and its top; null
   * at the top of the page; `end` at the bottom of the page (the last rows stay in view).
   */
  anchor() {
    if (window.scrollY <= 0) return null;
    const page = document.scrollingElement ?? document.documentElement;
    if (window.scrollY + window.innerHeight >= page.scrollHeight - 1) return { end: true };
    const y = this.viewportTop() + 1;
    const sections = sectionsOf(this.view.table);
    const s = this.sectionIndexAt(sections, y);
    if (s >= sections.length) return null;
    const tbody = sections[s];
    const row = this.rowAt(tbody, y);
    return { tbody, row, top: this.rowTop(tbody, row) };
  }

  /** Scrolls so that the anchor's row is where it was. */
  restore(anchor) {
    if (anchor?.end) {
      window.scrollTo(0, (document.scrollingElement ?? document.documentElement).scrollHeight);
      return;
    }
    if (!anchor || !anchor.tbody.isConnected) return;
    const shift = this.rowTop(anchor.tbody, anchor.row) - anchor.top;
    if (Math.abs(shift) >= 0.5) window.scrollBy(0, shift);
  }

  /** The first loaded row the reader sees and its top, for a live update to keep in place; null at the top. */
  readingAnchor() {
    if (window.scrollY <= 0) return null;
    const y = this.viewportTop() + 1;
    const sections = sectionsOf(this.view.table);
    for (let s = this.sectionIndexAt(sections, y); s < sections.length; s += 1) {
      if (sections[s].getBoundingClientRect().top >= window.innerHeight) break;
      const node = cellsOf(sections[s]).find((cell) => cell.getBoundingClientRect().bottom > y);
      if (node) return { node, top: node.getBoundingClientRect().top };
    }
    return null;
  }

  /** Scrolls so that the anchor's row is where it was, when it is still in the page. */
  keepReading(anchor) {
    if (!anchor?.node.isConnected || anchor.node.classList.contains("tv-removing")) return;
    const shift = anchor.node.getBoundingClientRect().top - anchor.top;
    if (Math.abs(shift) >= 0.5) window.scrollBy(0, shift);
  }

  /** Loads the rows near the viewport and unloads those far from it. */
  update() {
    const { table } = this.view;
    const height = window.innerHeight;
    const load = [-LOAD_VIEWPORTS * height, (1 + LOAD_VIEWPORTS) * height];
    const keep = [-KEEP_VIEWPORTS * height, (1 + KEEP_VIEWPORTS) * height];
    const sections = sectionsOf(table);
    const holding = this.view.feed.holds > 0;
    const anchor = this.anchor();
    let changed = false;
    for (let s = this.sectionIndexAt(sections, keep[0]); s < sections.length; s += 1) {
      const tbody = sections[s];
      const box = tbody.getBoundingClientRect();
      if (box.top >= keep[1]) break;
      if (!holding) changed = this.trim(tbody, this.rowAt(tbody, keep[0]), this.rowAt(tbody, keep[1]) + 1) || changed;
      if (box.top < load[1] && box.bottom > load[0]) this.fill(tbody, this.rowAt(tbody, load[0]), this.rowAt(tbody, load[1]) + 1);
    }
    if (!holding) {
      // Sections scrolled far away keep no rows.
      for (const tbody of table.querySelectorAll(":scope > tbody.section:not(.tv-removing):has(> tr.cell)")) {
        const box = tbody.getBoundingClientRect();
        if (box.bottom <= keep[0] || box.top >= keep[1]) changed = this.trim(tbody, 0, 0) || changed;
      }
    }
    if (changed) this.settle(anchor);
  }

  /** After rows came or went: numbering, spacer sizes, and the reader's row kept in place. */
  settle(anchor) {
    renumber(this.view.table);
    this.resize();
    this.restore(anchor);
    this.view.selection.keepOneTabStop();
  }

  /** Unloads the rows of `tbody` outside `from..<to`, unless one of them is in use. True when rows left. */
  trim(tbody, from, to) {
    const first = firstRowOf(tbody);
    const cells = cellsOf(tbody);
    const end = first + cells.length;
    const before = clamp(from - first, 0, cells.length);
    const after = clamp(end - to, 0, cells.length - before);
    const empty = from >= to;
    let changed = false;
    if (after >= SLACK || (empty && after > 0)) {
      const gone = cells.slice(cells.length - after);
      if (!gone.some(inUse)) {
        for (const cell of gone) cell.remove();
        this.growMore(tbody, end - after, after);
        changed = true;
      }
    }
    if (before >= SLACK || (empty && before > 0)) {
      const gone = cells.slice(0, before);
      if (!gone.some(inUse)) {
        for (const cell of gone) cell.remove();
        setFirstRow(tbody, first + before);
        changed = true;
      }
    }
    return changed;
  }

  /** Makes the `more` row of `tbody` (made when missing) stand for `added` more rows, after row `offset`. */
  growMore(tbody, offset, added) {
    const { tableID } = this.view;
    let more = moreRowOf(tbody);
    if (!more) {
      more = makeMoreRow(tableID, Number(tbody.dataset.section), offset, 0);
      tbody.insertBefore(more, tbody.querySelector(":scope > tr.section-footer"));
    }
    setMoreRow(more, tableID, Number(tbody.dataset.section), offset, Math.max(remainingOf(more), 0) + added);
  }

  /** Fetches the rows of `tbody` in `from..<to` that are not loaded. */
  fill(tbody, from, to) {
    const total = rowCountOf(tbody);
    to = Math.min(to, total);
    if (from >= to || this.pending.has(tbody)) return;
    const first = firstRowOf(tbody);
    const end = first + cellsOf(tbody).length;
    if (from >= first && to <= end) return;
    if (end > first && from <= end && to >= first) {
      if (from < first) this.fetch(tbody, Math.max(0, Math.min(from, first - CHUNK)), first, "before");
      else this.fetch(tbody, end, Math.min(total, Math.max(to, end + CHUNK), end + MOST_ROWS), "after");
      return;
    }
    const start = Math.max(0, from - CHUNK / 2);
    this.fetch(tbody, start, Math.min(total, to + CHUNK / 2, start + MOST_ROWS), "instead");
  }

  async fetch(tbody, from, to, where) {
    this.pending.add(tbody);
    try {
      for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
        if (await this.fetchOnce(tbody, from, to, where)) return;
      }
    } catch (error) {
      this.view.notices.alert(`Could not load rows: ${error.message}`);
    } finally {
      this.pending.delete(tbody);
      this.schedule();
    }
  }

  /** One fetch; false when it has to be tried again, true when done (or no longer wanted). */
  async fetchOnce(tbody, from, to, where) {
    const { table, tableID, feed } = this.view;
    const shown = versionOf(table);
    const section = tbody.dataset.section;
    const shape = `${firstRowOf(tbody)},${cellsOf(tbody).length}`;
    const url = `/tables/${encodeURIComponent(tableID)}/sections/${section}/rows?offset=${from}&limit=${to - from}${viewSuffix(table)}`;
    const response = await fetch(url, { headers: { Accept: "text/html" } });
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    const version = etagVersion(response, table);
    const html = await response.text();
    const arrived = performance.now();
    if (version > versionOf(table)) await feed.waitForVersion(version, CATCH_UP_MS);
    if (!tbody.isConnected || tbody.dataset.section !== section
      || `${firstRowOf(tbody)},${cellsOf(tbody).length}` !== shape) return true;
    if (version !== shown || versionOf(table) !== shown) return false;
    const rows = parseParts(html).filter((node) => node.matches("tr.cell"));
    const anchor = this.anchor();
    this.place(tbody, rows, from, where);
    for (const row of rows) this.view.enhance(row);
    this.measure(rows);
    this.settle(anchor);
    // How long from the fragment's arrival to its rows in the page (docs/PERFORMANCE.md).
    table.dispatchEvent(new CustomEvent("webtableview:rows", {
      detail: { section: Number(section), offset: from, rows: rows.length, milliseconds: performance.now() - arrived },
    }));
    return true;
  }

  /** Puts fetched `rows` (rows `from`… of `tbody`) before, after or instead of its window. */
  place(tbody, rows, from, where) {
    const first = firstRowOf(tbody);
    const cells = cellsOf(tbody);
    if (where === "before") {
      setFirstRow(tbody, first - rows.length);
      const spacer = spacerOf(tbody);
      const slot = spacer ? spacer.nextSibling : firstSlot(tbody);
      for (const row of rows) tbody.insertBefore(row, slot);
      return;
    }
    const total = rowCountOf(tbody);
    if (where === "instead") {
      if (cells.some(busy)) return;
      // The reader jumped away from the focused row (scrollbar, index, End): it goes with the others.
      if (cells.some((cell) => cell.contains(document.activeElement))) document.activeElement.blur();
      for (const cell of cells) cell.remove();
      setFirstRow(tbody, from);
    }
    const end = rowsEndOf(tbody);
    for (const row of rows) tbody.insertBefore(row, end);
    const remaining = total - from - rows.length;
    const more = moreRowOf(tbody);
    if (remaining > 0) {
      if (!more) this.growMore(tbody, from + rows.length, remaining);
      else setMoreRow(more, this.view.tableID, Number(tbody.dataset.section), from + rows.length, remaining);
    } else {
      more?.remove();
    }
  }
}

function setHeight(element, height) {
  const value = `${height}px`;
  if (element.style.height !== value) element.style.height = value;
}

function firstSlot(tbody) {
  const header = tbody.querySelector(":scope > tr.section-header");
  return header ? header.nextSibling : tbody.firstChild;
}

/** A row the reader is working on (swiped open, being deleted or dragged): never unloaded. */
function busy(cell) {
  return cell.matches(".tv-swiped, .tv-swiping, .tv-confirming, .tv-pending, .tv-dragging");
}

/** A busy or focused row: not unloaded while the reader scrolls near it. */
function inUse(cell) {
  return cell.contains(document.activeElement) || busy(cell);
}
