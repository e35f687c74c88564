// The search bar of a table's page (Templates/search.mustache; docs/API.md,
// "Views"), as UISearchController behaves. The bar is a GET form, so without
// this script Return searches; with it the table filters where it stands:
// every keystroke fetches the view's page (`?q=`; keys arriving within one
// animation frame make one request), the superseded fetch aborted and a late
// answer of one ignored, and its table takes the shown one's place (only the
// rows the server draws first; virtual-scroll.js fetches the rest as the
// reader scrolls). No page load and no history entry while typing: the URL
// follows with `history.replaceState`; Return commits the search as one history
// entry (`pushState`), and Back and Forward (`popstate`) bring back both the
// field and the rows. Cancel and Escape restore the list without a history
// entry. The number of results is announced politely once they have settled
// (ANNOUNCE_AFTER_MS), not at every keystroke. Focused and empty, the
// bar dims the list and hides the section index, as iOS does. When the server
// cannot be reached the page searches the rows it holds and says so.
// A view's page follows the view live: its parameters go with the event
// stream and row fragments (`viewSuffix`), and its updates carry the view's
// batches in order (`applyViewUpdate`).

import { animateIn, animateOut, kindFor } from "./animation.js";
import { cellsOf, retire, rowCountOf, sectionsOf } from "./dom.js";

/** How long the results stay unchanged before their count is announced: typing is not read out key by key. */
const ANNOUNCE_AFTER_MS = 500;

/** `&` and the view's parameters of the page's table (`data-view`), or "" for the table itself. */
export function viewSuffix(table) {
  const view = table.dataset.view;
  return view ? `&${view}` : "";
}

/**
 * Applies a view's `update` (`{version, since, steps}`) to a page at version
 * `current` with `applyStep` (each step is a table-like `{version, batch, html}`);
 * `reload` when the page does not hold the view the update applies to.
 * Answers false when the page stops following (it reloads).
 */
export function applyViewUpdate(update, current, applyStep, reload) {
  if (update.since > current) {
    reload();
    return false;
  }
  return update.steps.every((step) => applyStep(step));
}

/** Text folded as the server's search folds it: no case, no diacritics. */
function folded(text) {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** The search bar of the page and the table it filters in place. */
export class SearchBar {
  /** The page's search bar for `view` (the page's first table), or null when the page has none. */
  static attach(view) {
    const form = document.querySelector("form.search-bar");
    const field = form?.querySelector("input[name=q]");
    const first = document.querySelector("table.table-view[data-table]") === view.table;
    return form && field && first ? new SearchBar(view, form, field) : null;
  }

  constructor(view, form, field) {
    this.view = view;
    this.form = form;
    this.field = field;
    /** The animation frame that will search for the keys typed in it (0: none pending). */
    this.frame = 0;
    /** The pending announcement of the count. */
    this.announcement = 0;
    this.request = null;
    /** The URL of the history entry as last committed (load, Return, Back or Forward). */
    this.committed = this.here();
    /** The URL whose rows the table shows. */
    this.shown = this.here();
    this.status = document.createElement("p");
    this.status.className = "search-status";
    this.status.setAttribute("role", "status");
    view.container.append(this.status);
    field.addEventListener("focus", () => this.activate());
    field.addEventListener("input", () => {
      this.activate();
      this.hush();
      if (!this.frame) this.frame = requestAnimationFrame(() => this.search());
    });
    field.addEventListener("keydown", (event) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      this.cancel(this.field);
    });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.commit();
    });
    this.cancelButton().addEventListener("click", (event) => {
      event.preventDefault();
      this.cancel(this.successorOfCancel());
    });
    window.addEventListener("popstate", () => this.restore());
  }

  here() {
    return window.location.pathname + window.location.search;
  }

  cancelButton() {
    return this.form.querySelector(".search-cancel");
  }

  /** The URL of the form's search: the view's other parameters kept, an empty `q` left out. */
  urlOf() {
    const parameters = new URLSearchParams(new FormData(this.form));
    if (!parameters.get("q")?.trim()) parameters.delete("q");
    const query = parameters.toString();
    return `${this.form.getAttribute("action")}${query ? `?${query}` : ""}`;
  }

  /** The bar is in use: Cancel shows, and an empty search dims the list and hides the index. */
  activate() {
    this.form.classList.add("active");
    this.view.container.classList.add("tv-search-active");
    this.view.container.classList.toggle("tv-search-dimmed", !this.field.value.trim());
  }

  deactivate() {
    this.form.classList.remove("active");
    this.view.container.classList.remove("tv-search-active", "tv-search-dimmed");
  }

  /** Drops a search waiting for the next frame and a count not yet announced. */
  hush() {
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    clearTimeout(this.announcement);
  }

  /** Shows the rows of the field's search; the URL follows without a history entry. */
  async search() {
    this.frame = 0;
    const url = this.urlOf();
    if (url !== this.here()) window.history.replaceState(window.history.state, "", url);
    await this.show(url);
  }

  /** Return: the search becomes one history entry, the one before it left as it was committed. */
  commit() {
    this.hush();
    const url = this.urlOf();
    if (url !== this.committed) {
      window.history.replaceState(window.history.state, "", this.committed);
      window.history.pushState(null, "", url);
      this.committed = url;
    }
    this.show(url);
  }

  /** Cancel or Escape: the whole list again, no history entry; focus goes to `focus`, never to `<body>`. */
  cancel(focus) {
    this.hush();
    this.field.value = "";
    const url = this.urlOf();
    window.history.replaceState(window.history.state, "", url);
    this.committed = url;
    this.deactivate();
    if (document.activeElement !== focus) focus.focus();
    this.show(url);
  }

  /** What takes focus after Cancel, which hides: the next control after it, else the field. */
  successorOfCancel() {
    const controls = Array.from(document.querySelectorAll("a[href], button, input:not([type=hidden]), [tabindex='0']"));
    const after = controls.slice(controls.indexOf(this.cancelButton()) + 1);
    return after.find((control) => control.getClientRects().length > 0) ?? this.field;
  }

  /** Back or Forward: the field and the rows of the entry's URL. */
  restore() {
    const url = this.here();
    this.committed = url;
    const query = new URLSearchParams(window.location.search).get("q") ?? "";
    if (url === this.shown && this.field.value.trim() === query.trim()) return;
    this.hush();
    this.field.value = query;
    if (!query) this.deactivate();
    this.show(url);
  }

  /** Fetches the page of `url` and puts its table in place; offline, searches the rows held. */
  async show(url) {
    this.request?.abort();
    const request = new AbortController();
    this.request = request;
    let page;
    try {
      const response = await fetch(url, { headers: { Accept: "text/html" }, cache: "no-store", signal: request.signal });
      // A server that cannot answer (5xx: restarting, overloaded) is as good as out of reach.
      if (response.status >= 500) throw new Error(`${response.status} ${response.statusText}`);
      page = new DOMParser().parseFromString(await response.text(), "text/html");
    } catch {
      if (this.superseded(request)) return;
      this.searchHeldRows();
      return;
    }
    if (this.superseded(request)) return;
    this.request = null;
    const fresh = Array.from(page.querySelectorAll("table.table-view[data-table]"))
      .find((table) => table.dataset.table === this.view.tableID);
    if (!fresh) return;
    this.shown = url;
    this.adopt(page, fresh);
    this.announceLater(() => this.resultCount());
  }

  /** A later search took `request`'s place: its answer, however late, is not shown. */
  superseded(request) {
    return request.signal.aborted || this.request !== request;
  }

  /** Announces what `message` answers (nothing when null) once the results have stayed unchanged for ANNOUNCE_AFTER_MS. */
  announceLater(message) {
    clearTimeout(this.announcement);
    this.announcement = setTimeout(() => {
      const text = message();
      if (text) this.view.notices.announce(text);
    }, ANNOUNCE_AFTER_MS);
  }

  /**
   * Puts the fetched page's table, "No Results", style links and bar state in
   * place of the shown ones. Rows that enter the view fade in and rows in
   * sight that leave it fade out where they were, as a live update's do.
   */
  adopt(page, fresh) {
    const { view } = this;
    const shown = Array.from(view.table.querySelectorAll(":scope > tbody.section > tr.cell[data-id]"), (cell) => {
      const box = cell.getBoundingClientRect();
      return {
        cell, id: cell.dataset.id, section: cell.parentNode.dataset.sectionId,
        height: cell.offsetHeight, seen: box.bottom > 0 && box.top < window.innerHeight,
      };
    });
    const before = new Set(shown.map((item) => item.id));
    const form = page.querySelector("form.search-bar");
    if (form) {
      this.form.classList.toggle("searching", form.classList.contains("searching"));
      this.cancelButton().setAttribute("href", form.querySelector(".search-cancel").getAttribute("href"));
    }
    // The style links keep the view's parameters; changed in place, so that one may keep the focus.
    const links = Array.from(page.querySelectorAll("nav.style-picker a"));
    document.querySelectorAll("nav.style-picker a").forEach((link, index) => {
      if (links[index]) link.setAttribute("href", links[index].getAttribute("href"));
    });
    view.container.querySelector(".search-no-results")?.remove();
    const none = page.querySelector(".search-no-results");
    if (none) view.table.after(none);
    this.status.textContent = "";
    view.adopt(fresh);
    view.sectionIndex.adopt(page.querySelector("nav.section-index"));
    const entering = Array.from(view.table.querySelectorAll("tr.cell[data-id]"))
      .filter((cell) => !before.has(cell.dataset.id));
    animateOut(this.leaving(shown));
    animateIn(entering.map((node) => ({ node, phase: "insert", kind: kindFor("fade") })));
  }

  /**
   * The rows in sight that left the view, put back retired (`tv-removing`: no
   * longer counted) after the row before them that stayed, in their section,
   * for `animateOut`. Rows of a section that left the view go at once.
   */
  leaving(shown) {
    const { table } = this.view;
    const items = [];
    let place = null;
    let section;
    for (const { cell, id, section: sectionID, height, seen } of shown) {
      if (sectionID !== section) {
        section = sectionID;
        place = null;
      }
      const tbody = sectionID && table.querySelector(`:scope > tbody.section[data-section-id="${CSS.escape(sectionID)}"]`);
      if (!tbody) continue;
      const stayed = tbody.querySelector(`:scope > tr.cell[data-id="${CSS.escape(id)}"]`);
      if (stayed) {
        place = stayed;
        continue;
      }
      if (!seen) continue;
      retire(cell);
      const slot = place ? place.nextSibling : tbody.querySelector(":scope > tr.cell, :scope > tr.more, :scope > tr.section-footer");
      tbody.insertBefore(cell, slot);
      place = cell;
      items.push({ node: cell, kind: kindFor("fade"), height });
    }
    return items;
  }

  /** How many rows the view shows, to be announced; null when the bar is not searching. */
  resultCount() {
    if (!this.form.classList.contains("searching")) return null;
    const count = sectionsOf(this.view.table).reduce((sum, tbody) => sum + rowCountOf(tbody), 0);
    return count === 0 ? "No Results" : `${count} ${count === 1 ? "result" : "results"}`;
  }

  /**
   * The server cannot be reached: hides the rows held that do not match every
   * word of the field, and says that rows not held may be missing.
   */
  searchHeldRows() {
    const words = folded(this.field.value).split(/\s+/).filter(Boolean);
    let count = 0;
    for (const tbody of sectionsOf(this.view.table)) {
      let shown = 0;
      for (const cell of cellsOf(tbody)) {
        const text = folded(cell.querySelector(".cell-body")?.textContent ?? "");
        cell.hidden = !words.every((word) => text.includes(word));
        if (!cell.hidden) shown += 1;
      }
      tbody.hidden = shown === 0 && words.length > 0;
      count += shown;
    }
    this.view.container.querySelector(".search-no-results")?.remove();
    const incomplete = "The server can’t be reached: results may be incomplete.";
    this.status.textContent = count === 0 ? `No Results. ${incomplete}` : incomplete;
    this.announceLater(() => `${count} ${count === 1 ? "result" : "results"} on this page`);
  }
}
