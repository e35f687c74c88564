// The search bar of a table's page (Templates/search.mustache; docs/API.md,
// "Views"), as UISearchController behaves: the page filters as the reader
// types. The bar is a GET form, so without this script Return searches; with
// it, a pause in typing (DEBOUNCE_MS) loads the page of the view, `?q=` in
// the URL so that it can be shared. The first search of a visit adds a history
// entry and later keystrokes replace it, so Back leaves the search in one step.
// Escape is Cancel. A view's page follows the view live: its parameters go
// with the event stream and row fragments (`viewSuffix`), and its updates carry
// the view's batches in order (`applyViewUpdate`).

const DEBOUNCE_MS = 300;
/** sessionStorage key: the search field had the focus when the page was left. */
const TYPING = "webtableview.search.typing";

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

/** Wires the search bar of the page, if it has one. */
export function startSearchBar() {
  const form = document.querySelector("form.search-bar");
  const field = form?.querySelector("input[name=q]");
  if (!form || !field) return;
  let timer = 0;
  const go = () => {
    const parameters = new URLSearchParams(new FormData(form));
    if (!parameters.get("q")?.trim()) parameters.delete("q");
    const query = parameters.toString();
    const url = `${form.getAttribute("action")}${query ? `?${query}` : ""}`;
    if (url === window.location.pathname + window.location.search) return;
    sessionStorage.setItem(TYPING, "1");
    if (form.classList.contains("searching")) window.location.replace(url);
    else window.location.assign(url);
  };
  field.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(go, DEBOUNCE_MS);
  });
  field.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    const cancel = form.querySelector(".search-cancel");
    if (cancel) window.location.assign(cancel.href);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    clearTimeout(timer);
    go();
  });
  if (sessionStorage.getItem(TYPING)) {
    sessionStorage.removeItem(TYPING);
    field.focus();
    field.setSelectionRange(field.value.length, field.value.length);
  }
}
