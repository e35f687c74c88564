// Loading further rows as the reader nears the end of what a section shows:
// the `tr.more` row after the loaded rows is watched, and when it comes near
// the viewport it turns into a loading indicator while the next rows are
// fetched as a `<tr>` fragment (GET /tables/{t}/sections/{s}/rows), in order,
// each row once. A fragment is used only when it was drawn at the version the
// page shows, so that live updates and loading never disagree about positions.

import { versionOf } from "./dom.js";

const PAGE_SIZE = 500;
const ATTEMPTS = 8;
const CATCH_UP_MS = 5000;

// The tag names the coding a compressed answer came in ("7-gzip", "7-br").
function etagVersion(response) {
  const match = /"(\d+)(?:-[a-z]+)?"/.exec(response.headers.get("ETag") ?? "");
  return match ? Number(match[1]) : NaN;
}

export class InfiniteScroll {
  constructor(view) {
    this.view = view;
    this.loading = new WeakSet();
    this.observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) this.load(entry.target);
      }
    }, { rootMargin: "0px 0px 800px 0px" });
    view.table.addEventListener("click", (event) => {
      const link = event.target.closest("tr.more a");
      if (!link) return;
      event.preventDefault();
      this.load(link.closest("tr.more"));
    });
    view.table.addEventListener("webtableview:update", () => this.watchAll());
  }

  /** Watches the `more` rows in `root` (or `root` itself). */
  watch(root) {
    const rows = root.matches("tr.more") ? [root] : root.querySelectorAll("tr.more");
    for (const row of rows) this.observer.observe(row);
  }

  /** Watches every `more` row, including ones a live update made. */
  watchAll() {
    this.watch(this.view.table);
  }

  async load(more) {
    if (this.loading.has(more) || !more.isConnected) return;
    this.loading.add(more);
    this.showLoading(more, true);
    try {
      for (let attempt = 0; attempt < ATTEMPTS && more.isConnected; attempt += 1) {
        if (await this.loadOnce(more)) return;
      }
      if (more.isConnected) this.view.notices.alert("Could not load more rows; scroll again to retry.");
    } catch (error) {
      this.view.notices.alert(`Could not load more rows: ${error.message}`);
    } finally {
      this.loading.delete(more);
      if (more.isConnected) this.showLoading(more, false);
    }
  }

  /** One fetch of the next rows; false when it has to be tried again. */
  async loadOnce(more) {
    const { table, tableID, feed } = this.view;
    const shown = versionOf(table);
    const { section, nextOffset } = more.dataset;
    const url = `/tables/${encodeURIComponent(tableID)}/sections/${section}/rows?offset=${nextOffset}&limit=${PAGE_SIZE}`;
    const response = await fetch(url, { headers: { Accept: "text/html" } });
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    const version = etagVersion(response);
    const html = await response.text();
    if (version > versionOf(table)) await feed.waitForVersion(version, CATCH_UP_MS);
    // Used only when drawn at the version shown, for the section and offset asked.
    if (version !== shown || versionOf(table) !== shown || !more.isConnected
      || more.dataset.section !== section || more.dataset.nextOffset !== nextOffset) return false;
    const template = document.createElement("template");
    template.innerHTML = html;
    const nodes = Array.from(template.content.children);
    this.observer.unobserve(more);
    more.replaceWith(...nodes);
    for (const node of nodes) this.view.enhance(node);
    this.view.notices.announce(`${nodes.filter((node) => node.matches("tr.cell")).length} more rows loaded`);
    return true;
  }

  showLoading(more, loading) {
    more.classList.toggle("tv-loading", loading);
    more.setAttribute("aria-busy", String(loading));
    let indicator = more.querySelector(".tv-spinner");
    if (loading && !indicator) {
      indicator = document.createElement("span");
      indicator.className = "tv-spinner";
      indicator.setAttribute("role", "status");
      indicator.textContent = "Loading…";
      more.querySelector("td")?.append(indicator);
    } else if (!loading) {
      indicator?.remove();
    }
  }
}
