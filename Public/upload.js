// The index page's upload (docs/API.md, "CSV"): a CSV or JSON file, chosen or
// dropped, made into a table by `POST /api/tables?table-id=ID` with the file
// as the body (`text/csv` or `application/json`). The id comes from the file's
// name and can be edited. XMLHttpRequest shows the upload's progress; a server
// with an edit token asks for it as the table pages do (api.js); a refused
// file shows the import's problems line by line (the 422 problem document's
// `errors`); a table made opens at once. Without JavaScript the form stays hidden.

import { askForToken, storedToken, storeToken } from "./api.js";

/** A table id made of a file's name: its extension dropped, other characters than `[A-Za-z0-9_-]` as `-`. */
export function tableIDFrom(fileName) {
  const base = fileName.replace(/\.[^.]*$/, "");
  return base.replace(/[^A-Za-z0-9_-]/g, "-").slice(0, 64) || "table";
}

function isJSON(file) {
  return file.type === "application/json" || /\.json$/i.test(file.name);
}

class Upload {
  constructor(form) {
    this.form = form;
    this.file = form.querySelector('input[type="file"]');
    this.id = form.querySelector('input[name="id"]');
    this.button = form.querySelector('button[type="submit"]');
    this.progress = form.querySelector("progress");
    this.status = form.querySelector(".upload-status");
    this.errors = form.querySelector(".upload-errors");
    const zone = form.querySelector(".upload-zone");

    this.file.addEventListener("change", () => this.chose());
    zone.addEventListener("dragover", (event) => {
      event.preventDefault();
      zone.classList.add("dragging");
    });
    zone.addEventListener("dragleave", () => zone.classList.remove("dragging"));
    zone.addEventListener("drop", (event) => {
      event.preventDefault();
      zone.classList.remove("dragging");
      if (!event.dataTransfer?.files.length) return;
      this.file.files = event.dataTransfer.files;
      this.chose();
    });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.send(storedToken());
    });
    form.hidden = false;
  }

  /** A file chosen: its name proposes the table's id. */
  chose() {
    const file = this.file.files[0];
    if (file) this.id.value = tableIDFrom(file.name);
    this.show("", []);
  }

  /** Shows `text` and the problems `errors` (`{path, message}`). */
  show(text, errors) {
    this.status.textContent = text;
    this.errors.replaceChildren(...errors.map(({ path, message }) => {
      const item = document.createElement("li");
      item.textContent = path ? `${path[0].toUpperCase()}${path.slice(1)}: ${message}` : message;
      return item;
    }));
    this.errors.hidden = errors.length === 0;
  }

  send(token) {
    const file = this.file.files[0];
    if (!file) return;
    const id = this.id.value.trim();
    const request = new XMLHttpRequest();
    request.open("POST", `/api/tables?table-id=${encodeURIComponent(id)}`);
    request.setRequestHeader("Content-Type", isJSON(file) ? "application/json" : "text/csv");
    if (token) request.setRequestHeader("Authorization", `Bearer ${token}`);
    request.upload.addEventListener("progress", (event) => {
      if (!event.lengthComputable) return;
      this.progress.value = event.loaded / event.total;
      this.status.textContent = `Uploading ${file.name}: ${Math.floor((100 * event.loaded) / event.total)}%`;
    });
    request.upload.addEventListener("load", () => { this.status.textContent = `Making the table ${id}…`; });
    request.addEventListener("load", () => this.answered(request, token));
    request.addEventListener("error", () => this.finish("The server could not be reached, so no table was made.", []));
    this.button.disabled = true;
    this.progress.value = 0;
    this.progress.hidden = false;
    this.show(`Uploading ${file.name}…`, []);
    request.send(file);
  }

  answered(request, token) {
    if (request.status === 201) {
      let made = this.id.value.trim();
      try {
        made = JSON.parse(request.responseText).id ?? made;
      } catch {
        // The id asked for is the table's.
      }
      this.status.textContent = `Made the table ${made}.`;
      window.location.assign(`/tables/${encodeURIComponent(made)}`);
      return;
    }
    if (request.status === 401) {
      if (token) storeToken(null);
      const given = askForToken();
      if (given) {
        this.send(given);
        return;
      }
    }
    let problem = {};
    try {
      problem = JSON.parse(request.responseText);
    } catch {
      // No problem document: the status says enough.
    }
    const errors = Array.isArray(problem.errors) ? problem.errors : [];
    const detail = errors.length ? "No table was made: the file has these problems." : problem.detail ?? request.statusText;
    this.finish(errors.length ? detail : `No table was made: ${detail}`, errors);
  }

  finish(text, errors) {
    this.button.disabled = false;
    this.progress.hidden = true;
    this.show(text, errors);
  }
}

/** Makes the index page's upload form work, if the page has one. */
export function startUpload() {
  const form = document.querySelector("form[data-upload]");
  if (form) new Upload(form);
}
