// The table's change feed (docs/API.md, "The change feed and the live stream") over EventSource: `update` events are
// applied in version order, `reset` reads the page afresh in place (editing
// mode and scroll position kept; a reload when that fails), `deleted` shows a
// notice. The stream is opened from the version the page shows in the server's
// life (`cursorOf`): a server restarted without its journal, a new life, answers
// `reset`. While the stream is down the page says so, unobtrusively, and when
// it comes back it catches up.
// A `press` event (a row's accessory button pressed, in this window or another)
// changes no row: the page takes its version and dispatches `webtableview:press`
// on the table, with `{version, at, id}` as its detail, for page scripts.
// The browser reconnects by itself with Last-Event-ID; when the stream is
// closed for good it is opened again from the version the page shows.
// A page left for another one (`pagehide`) closes its stream, so that pages
// kept in the back/forward cache hold no connection; shown again (`pageshow`),
// it opens the stream from the version it shows and catches up.
// While the reader drags a row, updates wait (`hold`) and are applied on release.

import { applyUpdate } from "./apply-update.js";
import { cursorOf, versionOf } from "./dom.js";
import { applyViewUpdate, viewSuffix } from "./search.js";

const RECONNECT_MS = 2000;

export class LiveFeed {
  constructor(view) {
    this.view = view;
    this.holds = 0;
    this.queue = [];
    this.waiters = [];
    this.source = null;
    this.stopped = false;
    this.hidden = false;
    window.addEventListener("pagehide", () => this.pause());
    window.addEventListener("pageshow", (event) => { if (event.persisted) this.resume(); });
  }

  start() {
    const { table, tableID } = this.view;
    const url = `/api/tables/${encodeURIComponent(tableID)}/events?since=${cursorOf(table)}${viewSuffix(table)}`;
    const source = new EventSource(url);
    this.source = source;
    source.addEventListener("open", () => this.connected(true));
    source.addEventListener("update", (event) => this.receive(JSON.parse(event.data)));
    source.addEventListener("press", (event) => this.receive(JSON.parse(event.data)));
    source.addEventListener("reset", () => this.refresh());
    source.addEventListener("deleted", () => {
      this.stop();
      this.view.tableDeleted();
    });
    source.addEventListener("error", () => {
      if (this.source === source && !this.stopped && !this.hidden) this.connected(false);
      if (source.readyState === EventSource.CLOSED && !this.stopped) {
        setTimeout(() => { if (this.source === source && !this.stopped && !this.hidden) this.start(); }, RECONNECT_MS);
      }
    });
  }

  stop() {
    this.stopped = true;
    this.source?.close();
  }

  /** Follows the table again from the version and view the page shows now (search.js changed them). */
  follow() {
    this.source?.close();
    this.source = null;
    this.queue = [];
    if (this.stopped || this.hidden) return;
    this.start();
  }

  /** The page is hidden (maybe kept in the back/forward cache): no connection meanwhile. */
  pause() {
    this.hidden = true;
    this.source?.close();
    this.source = null;
  }

  /** The page is shown again: follow the table from the version shown. */
  resume() {
    if (!this.hidden) return;
    this.hidden = false;
    if (!this.stopped) this.start();
  }

  reload() {
    this.stop();
    window.location.reload();
  }

  /**
   * The page no longer holds what the stream follows (`reset`: changes no
   * longer kept, or a new life of the server): the table is read afresh in
   * place and followed from there; reloaded when that fails.
   */
  async refresh() {
    this.source?.close();
    this.source = null;
    try {
      await this.view.resynchronise();
    } catch {
      this.reload();
      return;
    }
    this.follow();
  }

  /** Shows, on the table's container, whether the live stream is up (`tv-disconnected` while it is not). */
  connected(up) {
    const { container, notices } = this.view;
    if (container.classList.contains("tv-disconnected") === !up) return;
    container.classList.toggle("tv-disconnected", !up);
    notices.connection(up);
  }

  /** Applies `update`, or keeps it while held and tells the page (`webtableview:held`) it waits. */
  receive(update) {
    if (this.holds > 0) {
      this.queue.push(update);
      this.view.table.dispatchEvent(new CustomEvent("webtableview:held", { detail: update }));
    } else {
      this.apply(update);
    }
  }

  apply(update) {
    const { table } = this.view;
    const current = versionOf(table);
    if (update.version <= current) return;
    if (update.steps) {
      // A view's update (docs/API.md, "Views"): its batches, in order.
      if (!applyViewUpdate(update, current, (step) => this.applyChange(step), () => this.reload())) return;
    } else if (update.version !== current + 1) {
      // A change went missing: the page can no longer follow step by step.
      this.reload();
      return;
    } else if (update.batch?.press) {
      table.dataset.version = String(update.version);
      const detail = { version: update.version, ...update.batch.press };
      table.dispatchEvent(new CustomEvent("webtableview:press", { detail }));
    } else if (!this.applyChange(update)) {
      return;
    }
    this.waiters = this.waiters.filter(({ version, resolve }) => {
      if (version > update.version) return true;
      resolve(true);
      return false;
    });
  }

  /** Applies an `update` event to the table; false when the page reloads instead. */
  applyChange(update) {
    const { table } = this.view;
    // Rows moved in the page lose the focus (a move is a removal, then an insertion): it goes back below.
    const focused = table.contains(document.activeElement) ? document.activeElement : null;
    const drawn = new Map(this.view.beforeUpdate.flatMap((hook) => hook(update)));
    // What the reader is looking at stays in place, whatever changed above it.
    const anchor = this.view.scroll.readingAnchor();
    let result;
    try {
      result = applyUpdate(this.view, update, drawn);
    } catch (error) {
      console.error("webtableview: could not apply version", update.version, error);
      this.reload();
      return false;
    }
    if (result.reload) {
      this.reload();
      return false;
    }
    table.dispatchEvent(new CustomEvent("webtableview:update", { detail: update }));
    this.view.scroll.keepReading(anchor);
    if (focused?.isConnected && !focused.closest(".tv-removing")
      && (!document.activeElement || document.activeElement === document.body)) {
      focused.focus({ preventScroll: true });
    }
    return true;
  }

  /** Keeps updates back until `release`, e.g. while a row is being dragged. */
  hold() {
    this.holds += 1;
  }

  release() {
    this.holds = Math.max(0, this.holds - 1);
    while (this.holds === 0 && this.queue.length) this.apply(this.queue.shift());
  }

  /** Resolves true once the page shows `version`, false after `timeout` ms. */
  waitForVersion(version, timeout) {
    if (versionOf(this.view.table) >= version) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = { version, resolve };
      this.waiters.push(waiter);
      setTimeout(() => {
        this.waiters = this.waiters.filter((other) => other !== waiter);
        resolve(false);
      }, timeout);
    });
  }
}
