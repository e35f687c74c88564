// A row's detail page, `/tables/{t}/rows/{id}` (docs/API.md, "Pages"): the
// server draws the record; this script keeps it live and edits it. It follows
// the table's event stream and, after each change, reads the page afresh (the
// row may have changed, moved or gone); a row deleted says so and offers the
// way back to the table. In editing mode (the Edit button, as on the table's
// page) each value is a text field; a changed value is sent as a JSON Merge
// Patch (RFC 7396) of the row's fields, `{"fields": {"name": value}}`, with the
// page's edit token (api.js). A string field stays a string; any other kind is
// read as JSON when it parses as JSON, and sent as a string otherwise; a value
// emptied is sent as null, which removes the field (as a CSV file's empty cell
// is no field). The change itself arrives through the stream.

import { TableAPI } from "./api.js";
import { editButton, showEditing } from "./editing.js";
import { fitNavTitle } from "./nav-title.js";
import { Notices } from "./notices.js";

const RECONNECT_MS = 2000;

/** The JSON value a field's text stands for, kept of its kind (`data-kind`); null (no field) for none. */
function fieldValue(text, kind) {
  if (text === "") return null;
  if (kind === "string") return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

class RowDetail {
  constructor(record) {
    this.record = record;
    this.tableID = record.dataset.recordTable;
    this.rowID = record.dataset.rowId;
    this.api = new TableAPI(this.tableID, () => Number(this.record.dataset.version));
    this.notices = new Notices(record.parentElement);
    this.editing = false;
    this.gone = false;
    this.refreshing = null;
    this.pending = false;

    this.toggle = editButton(record, () => this.setEditing(!this.editing));
    this.toggle.hidden = !record.querySelector(".record-field");

    window.addEventListener("pagehide", () => this.source?.close());
    window.addEventListener("pageshow", (event) => { if (event.persisted && !this.gone) this.follow(); });
    this.follow();
  }

  /** Opens the table's event stream from the version the page shows. */
  follow() {
    const url = `/api/tables/${encodeURIComponent(this.tableID)}/events?since=${this.record.dataset.version}`;
    const source = new EventSource(url);
    this.source = source;
    for (const name of ["update", "reset"]) source.addEventListener(name, () => this.refresh());
    source.addEventListener("deleted", () => this.showGone("This table has been deleted.", "/", "All tables"));
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED && !this.gone) {
        setTimeout(() => { if (this.source === source && !this.gone) this.follow(); }, RECONNECT_MS);
      }
    });
  }

  /** Reads the page afresh and shows it; one read at a time, and none while a value is being typed. */
  async refresh() {
    if (this.record.contains(document.activeElement) && document.activeElement.matches("input")) {
      this.pending = true;
      return;
    }
    if (this.refreshing) {
      this.pending = true;
      return;
    }
    this.pending = false;
    this.refreshing = this.load().finally(() => {
      this.refreshing = null;
      if (this.pending) this.refresh();
    });
  }

  async load() {
    let response;
    try {
      response = await fetch(window.location.pathname, { headers: { Accept: "text/html" }, cache: "no-store" });
    } catch {
      return;
    }
    if (response.status === 404) {
      const back = document.querySelector(".nav-back");
      this.showGone("This row has been deleted.", back?.getAttribute("href") ?? "/", `Back to ${back?.textContent ?? "the table"}`);
      return;
    }
    if (!response.ok) return;
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = page.querySelector(".record[data-record-table]");
    if (!fresh || Number(fresh.dataset.version) < Number(this.record.dataset.version)) return;
    this.record.dataset.version = fresh.dataset.version;
    this.record.replaceChildren(...Array.from(fresh.childNodes));
    const back = page.querySelector(".nav-back");
    if (back) document.querySelector(".nav-back")?.replaceWith(document.adoptNode(back));
    const title = document.querySelector(".nav-title");
    const text = page.querySelector(".nav-title")?.textContent;
    if (title && text !== undefined && text !== title.title) {
      title.textContent = text;
      fitNavTitle();
    }
    this.toggle.hidden = !this.record.querySelector(".record-field");
    if (this.editing) this.addFields();
    this.notices.announce("Updated");
  }

  /** The row (or its table) is no more: says so, offers the way back, follows no more. */
  showGone(text, href, label) {
    this.gone = true;
    this.source?.close();
    this.setEditing(false);
    this.toggle.hidden = true;
    this.record.classList.add("tv-deleted");
    this.notices.banner(text, { href, text: label });
  }

  setEditing(editing) {
    if (this.editing === editing) return;
    this.editing = editing;
    this.record.classList.toggle("editing", editing);
    showEditing(this.toggle, editing);
    if (editing) {
      this.addFields();
      this.record.querySelector(".record-value input")?.focus();
    } else {
      for (const input of this.record.querySelectorAll(".record-value input")) {
        input.parentElement.textContent = input.defaultValue;
      }
      if (this.pending) this.refresh();
    }
    this.notices.announce(editing ? "Editing" : "Done editing");
  }

  /** Puts a text field, labelled with the field's name, in place of each value. */
  addFields() {
    for (const field of this.record.querySelectorAll(".record-field")) {
      const value = field.querySelector(".record-value");
      if (!value || value.querySelector("input")) continue;
      const input = document.createElement("input");
      input.type = "text";
      input.value = input.defaultValue = value.textContent;
      input.setAttribute("aria-label", field.querySelector(".record-name")?.textContent ?? "");
      input.addEventListener("change", () => this.send(field, input));
      input.addEventListener("blur", () => { if (this.pending) this.refresh(); });
      input.addEventListener("keydown", (event) => {
        if (event.key === "Enter") input.blur();
        if (event.key === "Escape") {
          input.value = input.defaultValue;
          input.blur();
        }
      });
      value.replaceChildren(input);
    }
  }

  /** Sends the field's new value; a refusal puts the old one back and says why. */
  async send(field, input) {
    const name = field.dataset.field;
    const text = input.value;
    if (text === input.defaultValue) return;
    try {
      await this.api.patchItem(this.rowID, { fields: { [name]: fieldValue(text, field.dataset.kind) } });
      input.defaultValue = text;
    } catch (error) {
      input.value = input.defaultValue;
      this.notices.refused(error);
    }
  }
}

/** Makes the record on this page, if it shows one, live and editable. */
export function startRowDetail() {
  const record = document.querySelector(".record[data-record-table]");
  if (record) new RowDetail(record);
}
