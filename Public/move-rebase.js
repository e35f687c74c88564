// Rebasing a move of a row without an id (reorder.js) on changes made by others
// meanwhile, without the DOM. Such a row can only be moved by position at a
// version; the reader dropped it at version V between the rows they saw, and
// the table may be at V + n by the time the move arrives. Each batch of the
// change feed (UIKit's batch rule, docs/API.md "A batch") carries the moved row
// and the place it was dropped from one version to the next:
//
// - the row itself is followed like any item: a delete (of it or of its
//   section) means it is gone, a move takes it along, a reload keeps it;
// - the place it was dropped is a gap between two rows: it stays just before
//   the row that followed it (else just after the row that preceded it), so
//   that rows inserted, deleted or moved elsewhere do not shift it.

import { arrange } from "./batch-order.js";

/** Where each old section ends up after `batch`: old index → final index (absent when deleted). */
function sectionMap(batch, sectionCount) {
  const deleted = new Set(batch.deleteSections ?? []);
  const moved = new Set((batch.moveSections ?? []).map(({ from }) => from));
  const kept = [];
  for (let s = 0; s < sectionCount; s += 1) if (!deleted.has(s) && !moved.has(s)) kept.push({ old: s });
  const placed = new Map();
  for (const { at } of batch.insertSections ?? []) placed.set(at, { old: null });
  for (const { from, to } of batch.moveSections ?? []) placed.set(to, { old: from });
  const finalOf = new Map();
  arrange(kept, placed, false).items.forEach(({ old }, position) => { if (old !== null) finalOf.set(old, position); });
  return finalOf;
}

/** The sections a batch replaces whole (their rows are not followed through it). */
function replacedSections(batch) {
  return new Set([...(batch.deleteSections ?? []), ...(batch.reloadSections ?? []).map(({ at }) => at)]);
}

/**
 * The final positions of the rows of old section `s` that stay in it, in
 * order: old row index → final row index in its final section `f`.
 */
function rowMap(batch, s, f, oldRows) {
  const leaving = new Set([
    ...(batch.deleteRows ?? []).filter(([section]) => section === s).map(([, r]) => r),
    ...(batch.moveRows ?? []).filter(({ from }) => from[0] === s).map(({ from }) => from[1]),
  ]);
  const kept = [];
  for (let r = 0; r < oldRows; r += 1) if (!leaving.has(r)) kept.push(r);
  const placed = new Map();
  for (const { at } of batch.insertRows ?? []) if (at[0] === f) placed.set(at[1], "placed");
  for (const { to } of batch.moveRows ?? []) if (to[0] === f) placed.set(to[1], "placed");
  const { items } = arrange(kept.map((r) => ({ r })), placed, false);
  const finalOf = new Map();
  items.forEach((item, position) => { if (item !== "placed") finalOf.set(item.r, position); });
  return finalOf;
}

/**
 * Carries a pending move through one batch of the change feed.
 *
 * @param {{from: number[], gap: number[]}} move `from`: the moved row's
 *   `[section, row]`; `gap`: where it was dropped, `[section, g]` meaning just
 *   before row g of that section as it is with the moved row still in it.
 * @param {object} batch the batch, as the change feed publishes it.
 * @param {{sections: number, rows: (section: number) => number}} counts the
 *   table's shape before the batch.
 * @returns {{from: number[], gap: number[]} | null} the move after the batch,
 *   or null when the moved row or the section it was dropped in is gone.
 */
export function rebaseMove(move, batch, counts) {
  const sections = sectionMap(batch, counts.sections);
  const replaced = replacedSections(batch);
  const from = followRow(move.from, batch, sections, replaced, counts);
  if (!from) return null;
  const [gs, g] = move.gap;
  if (replaced.has(gs) || !sections.has(gs)) return null;
  const f = sections.get(gs);
  const rows = rowMap(batch, gs, f, counts.rows(gs));
  const after = Array.from(rows.keys()).filter((r) => r >= g).sort((a, b) => a - b)[0];
  const before = Array.from(rows.keys()).filter((r) => r < g).sort((a, b) => b - a)[0];
  let gap = 0;
  if (after !== undefined) gap = rows.get(after);
  else if (before !== undefined) gap = rows.get(before) + 1;
  return { from, gap: [f, gap] };
}

function followRow([s, r], batch, sections, replaced, counts) {
  if (replaced.has(s) || !sections.has(s)) return null;
  if ((batch.deleteRows ?? []).some(([ds, dr]) => ds === s && dr === r)) return null;
  const move = (batch.moveRows ?? []).find(({ from }) => from[0] === s && from[1] === r);
  if (move) return [...move.to];
  const f = sections.get(s);
  return [f, rowMap(batch, s, f, counts.rows(s)).get(r)];
}

/** The gap where a row at `from` dropped at `to` (UIKit's moveRow(at:to:) positions) lands. */
export function gapOf(from, to) {
  return to[0] === from[0] && to[1] > from[1] ? [to[0], to[1] + 1] : [...to];
}

/** The `to` of moveRow(at:to:) that puts the row at `from` into `gap`. */
export function targetOf(from, gap) {
  return gap[0] === from[0] && gap[1] > from[1] ? [gap[0], gap[1] - 1] : [...gap];
}
