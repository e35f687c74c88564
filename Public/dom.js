// Reading and numbering the server-rendered table (docs/FORMAT.md, "The HTML"):
// table.table-view > tbody.section[data-section] > tr.cell[data-section][data-row],
// with a tr.more row after the rows loaded so far. The live page loads a window
// of each section's rows: a tr.tv-spacer before them stands for the rows before
// the window (virtual-scroll.js), the tr.more row for the rows after it. Items leaving with an
// animation carry the class `tv-removing` and no index; they are never counted.
// Also: following a pointer across the page, for drags and swipes.

/** The sections of `table`, in order. */
export function sectionsOf(table) {
  return Array.from(table.querySelectorAll(":scope > tbody.section:not(.tv-removing)"));
}

/** The loaded rows of `tbody`, in order. */
export function cellsOf(tbody) {
  return Array.from(tbody.querySelectorAll(":scope > tr.cell:not(.tv-removing)"));
}

/** The `tr.more` row of `tbody` when the section has rows not loaded yet. */
export function moreRowOf(tbody) {
  return tbody.querySelector(":scope > tr.more");
}

/**
 * The spacer that stands for the rows of `tbody` before its loaded ones
 * (virtual-scroll.js), or null when the loaded rows start at row 0.
 */
export function spacerOf(tbody) {
  return tbody.querySelector(":scope > tr.tv-spacer");
}

/** The index of the first loaded row of `tbody`: how many rows its spacer stands for. */
export function firstRowOf(tbody) {
  const spacer = spacerOf(tbody);
  return spacer ? Number(spacer.dataset.rows) : 0;
}

/** Makes the spacer of `tbody` stand for its first `rows` rows (none: no spacer). */
export function setFirstRow(tbody, rows) {
  let spacer = spacerOf(tbody);
  if (rows <= 0) {
    spacer?.remove();
    return;
  }
  if (!spacer) {
    spacer = document.createElement("tr");
    spacer.className = "tv-spacer";
    spacer.setAttribute("role", "presentation");
    spacer.setAttribute("aria-hidden", "true");
    const header = tbody.querySelector(":scope > tr.section-header");
    tbody.insertBefore(spacer, header ? header.nextSibling : tbody.firstChild);
  }
  spacer.dataset.rows = String(rows);
}

/** How many rows `tbody` has, loaded or not. */
export function rowCountOf(tbody) {
  const more = moreRowOf(tbody);
  return firstRowOf(tbody) + cellsOf(tbody).length + (more ? Math.max(remainingOf(more), 0) : 0);
}

/** The row a new row goes before: the `more` row, the footer row or nothing. */
export function rowsEndOf(tbody) {
  return tbody.querySelector(":scope > tr.more, :scope > tr.section-footer");
}

/** Parses HTML of table parts (`<tbody>` or `<tr>`) into elements. */
export function parseParts(html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  return Array.from(template.content.children);
}

/** The version the page shows. */
export function versionOf(table) {
  return Number(table.dataset.version);
}

/**
 * The version the page shows as the server names it in entity tags and event
 * ids (docs/API.md, "Caching"): `life.version`, or the bare version when the
 * server's versions outlive it (no `data-life`).
 */
export function cursorOf(table, version = versionOf(table)) {
  const life = table.dataset.life;
  return life ? `${life}.${version}` : String(version);
}

/** `[section, row]` of a row element. */
export function indexPathOf(cell) {
  return [Number(cell.dataset.section), Number(cell.dataset.row)];
}

/** A number of rows as the server words it: "Show 1 more row", "Show 9,000 more rows". */
export function moreLabel(remaining) {
  if (!Number.isFinite(remaining) || remaining <= 0) return "Show more rows";
  const count = remaining.toLocaleString("en-US");
  return remaining === 1 ? "Show 1 more row" : `Show ${count} more rows`;
}

/** How many rows a `more` row says remain: its `data-remaining`, or the number in its label. */
export function remainingOf(more) {
  if (more.dataset.remaining !== undefined) return Number(more.dataset.remaining);
  const digits = (more.textContent ?? "").replace(/[^0-9]/g, "");
  return digits ? Number(digits) : NaN;
}

/** Points a `more` row at section `section`, offset `offset`. */
export function setMoreRow(more, tableID, section, offset, remaining) {
  more.dataset.section = String(section);
  more.dataset.nextOffset = String(offset);
  more.dataset.remaining = String(remaining);
  const link = more.querySelector("a");
  if (link) {
    const view = more.closest("table")?.dataset.view;
    link.href = `/tables/${encodeURIComponent(tableID)}/sections/${section}?offset=${offset}${view ? `&${view}` : ""}`;
    link.textContent = moreLabel(remaining);
  }
}

/** A `more` row like the server's, for a section whose loaded rows were cut short. */
export function makeMoreRow(tableID, section, offset, remaining) {
  const more = document.createElement("tr");
  more.className = "more";
  more.setAttribute("role", "presentation");
  more.setAttribute("aria-hidden", "true");
  const cell = document.createElement("td");
  cell.append(document.createElement("a"));
  more.append(cell);
  setMoreRow(more, tableID, section, offset, remaining);
  return more;
}

function setIfChanged(element, name, value) {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

/** Renumbers every section and loaded row after the DOM changed order. */
export function renumber(table) {
  const tableID = table.dataset.table;
  sectionsOf(table).forEach((tbody, s) => {
    const section = String(s);
    setIfChanged(tbody, "data-section", section);
    setIfChanged(tbody, "id", `section-${s}`);
    const first = firstRowOf(tbody);
    const cells = cellsOf(tbody);
    cells.forEach((cell, r) => {
      setIfChanged(cell, "data-section", section);
      setIfChanged(cell, "data-row", String(first + r));
      setIfChanged(cell, "id", `section-${s}-row-${first + r}`);
    });
    const more = moreRowOf(tbody);
    const next = String(first + cells.length);
    if (more && (more.dataset.section !== section || more.dataset.nextOffset !== next)) {
      setMoreRow(more, tableID, s, first + cells.length, remainingOf(more));
    }
  });
  numberGridRows(table);
}

/**
 * The grid's size and each row's place in it for assistive technology, counting
 * the rows not loaded (WAI-ARIA `aria-rowcount`, `aria-rowindex`, from 1): the
 * table header, then per section its header, all its rows, its footer, then
 * the table footer. The spacer and `more` rows stand for rows and are not rows.
 */
export function numberGridRows(table) {
  let index = 0;
  const mark = (row) => {
    index += 1;
    setIfChanged(row, "aria-rowindex", String(index));
  };
  for (const row of table.querySelectorAll(":scope > thead > tr")) mark(row);
  for (const tbody of sectionsOf(table)) {
    const header = tbody.querySelector(":scope > tr.section-header");
    if (header) mark(header);
    index += firstRowOf(tbody);
    for (const cell of cellsOf(tbody)) mark(cell);
    const more = moreRowOf(tbody);
    if (more) index += Math.max(remainingOf(more), 0) || 0;
    const footer = tbody.querySelector(":scope > tr.section-footer");
    if (footer) mark(footer);
  }
  for (const row of table.querySelectorAll(":scope > tfoot > tr")) mark(row);
  setIfChanged(table, "aria-rowcount", String(index));
}

/** Takes an item out of the page's numbering while it animates away. */
export function retire(element) {
  element.classList.add("tv-removing");
  element.setAttribute("inert", "");
  element.setAttribute("aria-hidden", "true");
  for (const name of ["data-section", "data-row", "data-id", "id"]) element.removeAttribute(name);
}

/** The text of a row, for labels and announcements. */
export function rowText(cell) {
  return cell.querySelector(".text")?.textContent?.trim() || `row ${Number(cell.dataset.row) + 1}`;
}

/**
 * Follows the pointer of `down` on the whole document until it is lifted:
 * `move(event)` on each move, then `end(released)` — true for pointerup,
 * false when the browser cancelled the gesture.
 */
export function followPointer(down, move, end) {
  const onMove = (event) => {
    if (event.pointerId === down.pointerId) move(event);
  };
  const onEnd = (event) => {
    if (event.pointerId !== down.pointerId) return;
    document.removeEventListener("pointermove", onMove);
    document.removeEventListener("pointerup", onEnd);
    document.removeEventListener("pointercancel", onEnd);
    end(event.type === "pointerup");
  };
  document.addEventListener("pointermove", onMove);
  document.addEventListener("pointerup", onEnd);
  document.addEventListener("pointercancel", onEnd);
}
