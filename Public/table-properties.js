// A PATCH of the table's properties, as the change feed reports it: title,
// header, footer and multiple selection are redrawn in place; a new style, row
// height or selectability changes every row's markup, so the page reloads.

const RELOADING = ["rowHeight", "allowsSelection"];

/** Text of an optional table header or footer (`thead`/`tfoot`). */
function setBand(table, tag, className, text) {
  let band = table.querySelector(`:scope > ${tag}`);
  if (text === null || text === undefined) {
    band?.remove();
    return;
  }
  if (!band) {
    band = document.createElement(tag);
    const row = document.createElement("tr");
    row.className = className;
    row.append(document.createElement("td"));
    band.append(row);
    if (tag === "thead") table.prepend(band);
    else table.append(band);
  }
  band.querySelector("td").textContent = text;
}

export class TableProperties {
  constructor(view) {
    this.view = view;
    // With ?style= the reader chose the style; the table's own style does not apply.
    this.styleChosen = new URLSearchParams(window.location.search).has("style");
  }

  /**
   * Applies `properties` to the page.
   * @returns {boolean} false when the page must reload to show them.
   */
  apply(properties) {
    if (RELOADING.some((name) => name in properties)) return false;
    if ("style" in properties && !this.styleChosen) return false;
    const { table, tableID } = this.view;
    if ("title" in properties) {
      const title = properties.title ?? tableID;
      document.title = `${title} · WebTableView`;
      const heading = document.querySelector(".nav-title");
      if (heading) heading.textContent = title;
      table.setAttribute("aria-label", title);
    }
    if ("header" in properties) setBand(table, "thead", "table-header", properties.header);
    if ("footer" in properties) setBand(table, "tfoot", "table-footer", properties.footer);
    if ("allowsMultipleSelection" in properties) {
      table.dataset.allowsMultipleSelection = String(properties.allowsMultipleSelection);
    }
    return true;
  }
}
