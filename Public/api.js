// Edits through the JSON API (docs/API.md): an edit by position names the
// version the page shows (`If-Match`), so that an edit made on a stale view is
// refused (412) rather than applied to the wrong row; a move by row id needs no
// version, as ids stay right whatever else changed; a server with an edit token gets it
// once from the reader (kept in sessionStorage) as `Authorization: Bearer`.

import { cursorOf } from "./dom.js";

const TOKEN_KEY = "webtableview-token";

/** A refused or failed request: its status and the problem document's `detail`. */
export class ApiError extends Error {
  constructor(status, type, detail) {
    super(detail);
    this.status = status;
    this.type = type;
  }

  /**
   * What to tell the reader, in plain words: what happened and that nothing
   * changed. The server's own detail is kept only where it speaks of rows and
   * sections (UIKit's messages), never of headers or versions.
   */
  get userMessage() {
    switch (this.status) {
      case 412: return "Someone changed this table just before your edit arrived, so nothing was changed. The table now shows the latest rows; please try again.";
      case 401:
      case 403: return "This server needs a valid edit token to change tables, so nothing was changed.";
      case 404: return "That row or table is no longer there, so nothing was changed.";
      case 409: return this.type === "unknown-id"
        ? "That row is no longer in the table, so nothing was changed."
        : `Nothing was changed: ${this.message}`;
      case 413: return "This edit is too large for the server, so nothing was changed.";
      case 429:
      case 503: return "The server is busy right now, so nothing was changed. Please try again in a moment.";
      default:
        if (this.status >= 500) return "Something went wrong on the server, so nothing was changed. Please try again.";
        return `Nothing was changed: ${this.message}`;
    }
  }
}

/** Reads a problem document (RFC 9457) from a failed response. */
async function problemOf(response) {
  let problem = {};
  try {
    problem = await response.json();
  } catch {
    // A non-JSON error body: the status line says enough.
  }
  const detail = problem.detail || problem.title || `${response.status} ${response.statusText}`;
  return new ApiError(response.status, problem.type ?? "", detail);
}

/** The edit token the reader gave in this tab, or null. */
export function storedToken() {
  try {
    return sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

/** Keeps `token` for this tab; null forgets it (the server refused it). */
export function storeToken(token) {
  try {
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    else sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    // Storage may be disabled; the token then lasts for this request only.
  }
}

/**
 * Asks the reader for the server's edit token (the server answered 401) and
 * keeps it for this tab; null when none is given.
 */
export function askForToken() {
  const token = window.prompt("This server needs an edit token to change tables. Token:")?.trim();
  if (!token) return null;
  storeToken(token);
  return token;
}

/** Mutating requests for one table. */
export class TableAPI {
  /**
   * @param {string} tableID
   * @param {() => number} version the version the page shows, sent as `If-Match`.
   */
  constructor(tableID, version) {
    this.base = `/api/tables/${encodeURIComponent(tableID)}`;
    this.table = document.querySelector(`table.table-view[data-table="${CSS.escape(tableID)}"]`);
    this.version = version;
    this.token = storedToken();
  }

  /**
   * Sends `method path` (relative to the table) with `body` as JSON and answers
   * the parsed change `{version, batch}`. Throws `ApiError` when refused.
   * `expected` is the version the request's positions were read at; null
   * sends no `If-Match` (an edit by ids). `type`: the body's media type.
   */
  async edit(method, path, body, expected = this.version(), type = "application/json") {
    let response = await this.send(method, path, body, expected, type);
    if (response.status === 401) {
      const token = askForToken();
      if (!token) throw await problemOf(response);
      this.token = token;
      response = await this.send(method, path, body, expected, type);
      if (response.status === 401) {
        this.token = null;
        storeToken(null);
      }
    }
    if (!response.ok) throw await problemOf(response);
    return response.json();
  }

  /**
   * The view's parameters of the page's table (search.js changes them in place).
   * On a view's page they go with every edit: the server refuses (409) an edit
   * by index path, whose positions are the view's, not the table's.
   */
  get view() {
    return this.table?.dataset.view ?? "";
  }

  send(method, path, body, expected, type = "application/json") {
    // The tag names the server's life, so that an edit read in an earlier life is refused (412).
    const headers = expected === null || !this.table ? {} : { "If-Match": `"${cursorOf(this.table, expected)}"` };
    if (body !== undefined) headers["Content-Type"] = type;
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    const view = this.view ? `${path.includes("?") ? "&" : "?"}${this.view}` : "";
    return fetch(this.base + path + view, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  }

  deleteRow(section, row) {
    return this.edit("DELETE", `/sections/${section}/rows/${row}`);
  }

  insertRow(section, at, row) {
    return this.edit("POST", `/sections/${section}/rows`, { at, row });
  }

  /** Deletes the row `id`, whatever the version (an edit in a view, view-edits.js). */
  deleteItem(id) {
    return this.edit("DELETE", `/items/${encodeURIComponent(id)}`, undefined, null);
  }

  /**
   * Changes the row `id` by a JSON Merge Patch (RFC 7396), e.g.
   * `{fields: {population: 8336817}}`, whatever the version.
   */
  patchItem(id, patch) {
    return this.edit("PATCH", `/items/${encodeURIComponent(id)}`, patch, null, "application/merge-patch+json");
  }

  /** Inserts `row` right after the row `id`, whatever the version. */
  insertItem(row, afterItem) {
    return this.edit("POST", "/items", { row, afterItem }, null);
  }

  /** `version`: the version the page showed when the row was picked up. */
  moveRow(from, to, version) {
    return this.edit("POST", `/sections/${from[0]}/rows/${from[1]}/move`, { to }, version);
  }

  /**
   * Moves the row `id` next to the rows the reader saw: `anchor` is one of
   * `{beforeItem}`, `{afterItem}` or `{toSection}` (ids), whatever the version.
   */
  moveItem(id, anchor) {
    return this.edit("POST", `/items/${encodeURIComponent(id)}/move`, anchor, null);
  }

  /** Sets the switch of the row at `[section, row]` (the version the page shows). */
  setSwitch(section, row, on) {
    return this.edit("POST", `/sections/${section}/rows/${row}/switch`, { on });
  }

  /** Sets the switch of the row `id`, whatever the version. */
  setItemSwitch(id, on) {
    return this.edit("POST", `/items/${encodeURIComponent(id)}/switch`, { on }, null);
  }

  /** Presses the accessory button of the row at `[section, row]` (the version the page shows). */
  press(section, row) {
    return this.edit("POST", `/sections/${section}/rows/${row}/press`);
  }

  /** Presses the accessory button of the row `id`, whatever the version. */
  pressItem(id) {
    return this.edit("POST", `/items/${encodeURIComponent(id)}/press`, undefined, null);
  }

  select(section, row, selected) {
    return this.edit("POST", `/sections/${section}/rows/${row}/${selected ? "select" : "deselect"}`);
  }

  /** Selects or deselects the row `id`, whatever the version. */
  selectItem(id, selected) {
    return this.edit("POST", `/items/${encodeURIComponent(id)}/${selected ? "select" : "deselect"}`, undefined, null);
  }
}
