// Applies one `update` event of the change feed (docs/API.md, "The change feed and the live stream") to the page with
// UIKit's batch semantics: deletes, reloads and move sources name positions
// before the batch; inserts and move targets name positions after it. The new
// order of sections, and of rows in each section, is worked out first; then
// existing elements are reused for kept and moved items, the server's HTML is
// used for inserted and reloaded ones, and everything is renumbered.
//
// A section may be loaded in part (virtual-scroll.js): its loaded rows are a
// window of it, rows before and after are not in the page. A change to rows
// outside the window changes only the counts that the spacer before the
// window and the `more` row after it stand for.

import { arrange, rowCountChanges, rowsBySection, windowStart } from "./batch-order.js";
import { animateIn, animateMoves, animateOut, kindFor } from "./animation.js";
import {
  cellsOf, firstRowOf, makeMoreRow, moreRowOf, parseParts, remainingOf, renumber, retire, rowsEndOf, sectionsOf,
  setFirstRow, setMoreRow, spacerOf,
} from "./dom.js";
import { summarise } from "./change-summary.js";

/** Moves animated with a slide at most; more moves at once just land. */
const MAX_SLIDING_MOVES = 30;

/** Puts `nodes` into `parent` in this order, between `first` and `end`, leaving departing items where they are. */
function placeInOrder(parent, nodes, first, end) {
  let cursor = first;
  for (const node of nodes) {
    while (cursor && cursor !== end && cursor !== node
      && (cursor.nodeType !== Node.ELEMENT_NODE || cursor.classList.contains("tv-removing"))) {
      cursor = cursor.nextSibling;
    }
    if (cursor === node) cursor = cursor.nextSibling;
    else parent.insertBefore(node, cursor);
  }
}

function firstRowSlot(tbody) {
  const before = spacerOf(tbody) ?? tbody.querySelector(":scope > tr.section-header");
  return before ? before.nextSibling : tbody.firstChild;
}

function firstSectionSlot(table) {
  const head = table.querySelector(":scope > thead");
  return head ? head.nextSibling : table.firstChild;
}

/** The page cannot follow this update (missing HTML): it reloads instead. */
export class UpdateMismatch extends Error {}

/** The new order of sections: one entry per final section, `old` its index before (null when inserted). */
function planSections(table, batch, html) {
  const oldSections = sectionsOf(table);
  const deleted = new Set(batch.deleteSections ?? []);
  const moved = new Set((batch.moveSections ?? []).map(({ from }) => from));
  const reloaded = new Map((batch.reloadSections ?? []).map(({ at, section }) => [at, section]));
  const kept = [];
  oldSections.forEach((_, s) => {
    if (deleted.has(s) || moved.has(s)) return;
    kept.push(reloaded.has(s) ? { old: s, fresh: "reload", json: reloaded.get(s) } : { old: s });
  });
  const placed = new Map();
  for (const { at, section } of batch.insertSections ?? []) placed.set(at, { old: null, fresh: "insert", json: section });
  for (const { from, to } of batch.moveSections ?? []) placed.set(to, { old: from });
  const sections = arrange(kept, placed, false).items;

  const sourceOf = new Map((html.sections ?? []).map(({ at, html: source }) => [at, source]));
  sections.forEach((item, f) => {
    if (!item.fresh) {
      item.node = oldSections[item.old];
      return;
    }
    const node = parseParts(sourceOf.get(f) ?? "").find((element) => element.matches("tbody.section"));
    if (!node) throw new UpdateMismatch(`no HTML for section ${f}`);
    if (!node.hasAttribute("data-index-title")) node.dataset.indexTitle = item.json?.indexTitle ?? "";
    item.node = node;
  });
  return { oldSections, sections, deleted };
}

/** The new order of the loaded rows of every section that exists before and after the batch. */
function planRows(plan, batch, html, tableID) {
  const oldCells = plan.oldSections.map(cellsOf);
  const oldFirst = plan.oldSections.map(firstRowOf);
  const cellAt = ([s, r]) => oldCells[s]?.[r - oldFirst[s]];
  const finalOf = new Map();
  plan.sections.forEach((item, f) => { if (item.old !== null && !item.fresh) finalOf.set(item.old, f); });
  const deletes = rowsBySection(batch.deleteRows ?? []);
  const reloads = rowsBySection((batch.reloadRows ?? []).map(({ at }) => at));
  const movesOut = rowsBySection((batch.moveRows ?? []).map(({ from }) => from));
  const placedBySection = new Map();
  const place = ([s, r], item) => {
    if (!placedBySection.has(s)) placedBySection.set(s, new Map());
    placedBySection.get(s).set(r, item);
  };
  for (const { at } of batch.insertRows ?? []) place(at, { fresh: "insert" });
  for (const { from, to } of batch.moveRows ?? []) {
    const node = cellAt(from);
    place(to, node ? { node, moved: true } : null);
  }
  const sourceOf = new Map((html.rows ?? []).map(({ at, html: source }) => [`${at[0]},${at[1]}`, source]));
  const counts = rowCountChanges(batch, (s) => finalOf.get(s));

  const layouts = [];
  plan.sections.forEach((item, f) => {
    if (item.fresh) return;
    const s = item.old;
    const more = moreRowOf(item.node);
    const first = oldFirst[s];
    const kept = [];
    oldCells[s].forEach((node, i) => {
      const r = first + i;
      if (deletes.get(s)?.has(r) || movesOut.get(s)?.has(r)) return;
      kept.push(reloads.get(s)?.has(r) ? { node, fresh: "reload" } : { node });
    });
    const placed = placedBySection.get(f) ?? new Map();
    const leaving = new Set([...(deletes.get(s) ?? []), ...(movesOut.get(s) ?? [])]);
    const start = windowStart(first, leaving, placed.keys());
    const { items, complete } = arrange(kept, placed, more !== null, start);
    const rows = [];
    const entering = [];
    const replaced = [];
    const moved = [];
    let known = complete;
    for (const [i, entry] of items.entries()) {
      const r = start + i;
      if (entry.fresh) {
        const node = parseParts(sourceOf.get(`${f},${r}`) ?? "").find((element) => element.matches("tr.cell"));
        if (!node) {
          // The page lacks this row's HTML: the loaded rows end before it.
          known = false;
          break;
        }
        if (entry.fresh === "reload") replaced.push([entry.node, node]);
        entering.push({ node, phase: entry.fresh });
        rows.push(node);
      } else {
        rows.push(entry.node);
        if (entry.moved) moved.push(entry.node);
      }
    }
    const oldTotal = first + oldCells[s].length + (more ? remainingOf(more) : 0);
    const total = oldTotal + (counts.get(f) ?? 0);
    layouts.push({
      tbody: item.node, section: f, first: start, rows, known, remaining: total - start - rows.length,
      entering, replaced, moved,
    });
  });
  return { oldCells, cellAt, deletes, layouts, tableID };
}

/** What leaves the page: deleted sections and the deleted rows of sections that stay. */
function departures(plan, rowPlan) {
  const leaving = [];
  for (const s of plan.deleted) {
    const node = plan.oldSections[s];
    if (node) leaving.push(node);
  }
  for (const [s, rows] of rowPlan.deletes) {
    if (plan.deleted.has(s)) continue;
    for (const r of rows) {
      const node = rowPlan.cellAt([s, r]);
      if (node) leaving.push(node);
    }
  }
  return leaving;
}

/** Makes the loaded rows of one section what `layout` says, with a `more` row when rows remain. */
function layOutRows({ tbody, section, first, rows, known, remaining }, tableID) {
  setFirstRow(tbody, first);
  placeInOrder(tbody, rows, firstRowSlot(tbody), rowsEndOf(tbody));
  let more = moreRowOf(tbody);
  if (known) {
    more?.remove();
    return;
  }
  if (!more) {
    more = makeMoreRow(tableID, section, first + rows.length, remaining);
    tbody.insertBefore(more, tbody.querySelector(":scope > tr.section-footer"));
  }
  setMoreRow(more, tableID, section, first + rows.length, Math.max(remaining, 0));
}

/**
 * Applies `update` (`{version, batch, html}`) to `view.table`. `drawn` maps
 * rows to the top they were drawn at when that differs from where they are
 * (a row put back just before the update); moved rows slide from there.
 * @returns {{reload: boolean}} reload true when the page must be reloaded to follow
 *   (a change of style, row height or selectability).
 */
export function applyUpdate(view, update, drawn = new Map()) {
  const { table, tableID } = view;
  const batch = update.batch ?? {};
  const html = update.html ?? {};
  if (batch.properties && !view.properties.apply(batch.properties)) return { reload: true };

  const plan = planSections(table, batch, html);
  const rowPlan = planRows(plan, batch, html, tableID);
  const kind = kindFor(batch.animation ?? "automatic");
  const focused = document.activeElement?.closest?.("tr.cell, tbody.section") ?? null;
  const control = focusedControl(focused);

  // Read what the animations need before changing anything: one layout.
  const leaving = departures(plan, rowPlan).map((node) => ({ node, kind, height: node.offsetHeight }));
  const movedNodes = [...rowPlan.layouts.flatMap((layout) => layout.moved), ...shiftedSections(plan, batch)];
  const sliding = kind === "none" || movedNodes.length > MAX_SLIDING_MOVES ? []
    : movedNodes.map((node) => ({ node, top: drawn.get(node) ?? node.getBoundingClientRect().top }));

  const successor = successorOf(focused, new Set(leaving.map(({ node }) => node)));
  for (const { node } of leaving) retire(node);
  const replaced = rowPlan.layouts.flatMap((layout) => layout.replaced);
  for (const item of plan.sections) {
    if (item.fresh === "reload") replaced.push([plan.oldSections[item.old], item.node]);
  }
  for (const [old, node] of replaced) old.replaceWith(node);

  const placedRows = new Set(rowPlan.layouts.flatMap((layout) => layout.rows));
  rowPlan.oldCells.forEach((cells, s) => {
    if (plan.deleted.has(s)) return;
    for (const cell of cells) {
      if (!placedRows.has(cell) && cell.isConnected && !cell.classList.contains("tv-removing")) cell.remove();
    }
  });

  placeInOrder(table, plan.sections.map((item) => item.node), firstSectionSlot(table),
    table.querySelector(":scope > tfoot"));
  for (const layout of rowPlan.layouts) layOutRows(layout, tableID);
  renumber(table);
  table.dataset.version = String(update.version);

  const entering = rowPlan.layouts.flatMap((layout) => layout.entering);
  for (const item of plan.sections) {
    if (item.fresh) entering.push({ node: item.node, phase: item.fresh });
  }
  for (const { node } of entering) view.enhance(node);
  const sectionLists = ["deleteSections", "insertSections", "reloadSections", "moveSections"];
  if (sectionLists.some((list) => batch[list]?.length)) view.sectionIndex?.rebuild();

  // Items above what the reader sees change at once: an animation there would move what they read.
  const top = view.scroll.viewportTop();
  const seen = ({ node }) => window.scrollY <= 0 || node.getBoundingClientRect().bottom > top;
  for (const { node } of leaving.filter((item) => !seen(item))) node.remove();
  animateOut(leaving.filter(seen));
  animateIn(entering.filter(seen).map(({ node, phase }) => ({ node, phase, kind })));
  animateMoves(sliding);
  restoreFocus(focused, control, replaced, successor);
  view.notices.announce(summarise(batch));
  return { reload: false };
}

/**
 * Sections a section move slides, as UIKit slides them: each moved section and
 * every kept section between where one left and where it arrived.
 */
function shiftedSections(plan, batch) {
  const moves = batch.moveSections ?? [];
  if (!moves.length) return [];
  const low = Math.min(...moves.flatMap(({ from, to }) => [from, to]));
  const high = Math.max(...moves.flatMap(({ from, to }) => [from, to]));
  return plan.sections.filter((item, f) => !item.fresh && item.old !== null
    && ((item.old >= low && item.old <= high) || (f >= low && f <= high))).map((item) => item.node);
}

/** The row that takes focus when the focused row is deleted: the next one left, else the one before. */
function successorOf(focused, leaving) {
  if (!focused?.matches("tr.cell") || !leaving.has(focused)) return null;
  for (const step of ["nextElementSibling", "previousElementSibling"]) {
    for (let row = focused[step]; row; row = row[step]) {
      if (row.matches("tr.cell") && !leaving.has(row)) return row;
    }
  }
  return null;
}

const CONTROLS = "a[href], button, input";

/** Which control of the focused row has the focus: its place among the row's controls, or -1. */
function focusedControl(focused) {
  if (!focused?.matches("tr.cell") || document.activeElement === focused) return -1;
  return Array.from(focused.querySelectorAll(CONTROLS)).indexOf(document.activeElement);
}

/**
 * Keeps focus on a row or section that was redrawn (on the same control of a
 * redrawn row), or moves it to the deleted row's successor.
 */
function restoreFocus(focused, control, replaced, successor) {
  if (!focused) return;
  if (successor?.isConnected) {
    successor.focus({ preventScroll: true });
    return;
  }
  if (focused.isConnected) return;
  const pair = replaced.find(([old]) => old === focused);
  if (!pair) return;
  const target = pair[1].matches("tr.cell") ? pair[1] : pair[1].querySelector("tr.cell");
  const same = control >= 0 && target === pair[1] ? target.querySelectorAll(CONTROLS)[control] : null;
  (same ?? target)?.focus({ preventScroll: true });
}
