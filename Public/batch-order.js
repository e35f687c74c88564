// UIKit's batch rule for one list (docs/API.md, "A batch"), without the DOM: every inserted or
// moved item lands exactly at its position after the batch, and the items that
// stay keep their relative order and fill the other positions.

/**
 * Orders the items of a list after a batch.
 *
 * @param {Array} kept the items that stay, in their order before the batch.
 * @param {Map<number, any>} placed final position → inserted or moved item;
 *   `null` stands for an item whose content the page does not have.
 * @param {boolean} open true when `kept` continues with items not loaded
 *   (a section shown in part): the answer then stops at the first position
 *   that such an item fills.
 * @param {number} start the final position of the first item answered (a
 *   window of a list whose items before it are not loaded); items placed
 *   before it are not answered.
 * @returns {{items: Array, complete: boolean}} the known items from position
 *   `start` on; `complete` is false when the list continues beyond them.
 */
export function arrange(kept, placed, open, start = 0) {
  const items = [];
  const targets = Array.from(placed.keys()).filter((position) => position >= start).sort((a, b) => a - b);
  let next = 0;
  let t = 0;
  for (let position = start; ; position += 1) {
    if (t < targets.length && targets[t] === position) {
      const item = placed.get(position);
      t += 1;
      if (item === null) return { items, complete: false };
      items.push(item);
    } else if (next < kept.length) {
      items.push(kept[next]);
      next += 1;
    } else if (open) {
      return { items, complete: false };
    } else if (t < targets.length) {
      // Not reachable with a batch the server accepted; keep the order anyway.
      position = targets[t] - 1;
    } else {
      return { items, complete: true };
    }
  }
}

/**
 * Where a window of a list starts after a batch: `first` is the position of
 * its first item before the batch, `deleted` the positions before the batch
 * that leave, `placed` the positions after it that are inserted or moved in.
 * A window at the top stays at the top; otherwise it starts with its first
 * item that stays, and items inserted just before that are not in it.
 */
export function windowStart(first, deleted, placed) {
  if (first === 0) return 0;
  let position = first - Array.from(deleted).filter((old) => old < first).length;
  for (const target of Array.from(placed).sort((a, b) => a - b)) {
    if (target <= position) position += 1;
    else break;
  }
  return position;
}

/** Groups index paths `[s, r]` by section: s → Set of r. */
export function rowsBySection(indexPaths) {
  const groups = new Map();
  for (const [section, row] of indexPaths) {
    if (!groups.has(section)) groups.set(section, new Set());
    groups.get(section).add(row);
  }
  return groups;
}

/**
 * How many rows each section gains (or loses) through a batch, counting rows
 * not loaded too: final section → change in row count. Only sections that
 * exist on both sides of the batch are counted.
 *
 * @param {object} batch the normalised batch.
 * @param {(old: number) => number|undefined} finalIndex where an old section ends up.
 */
export function rowCountChanges(batch, finalIndex) {
  const changes = new Map();
  const add = (section, amount) => {
    if (section === undefined) return;
    changes.set(section, (changes.get(section) ?? 0) + amount);
  };
  for (const [s] of batch.deleteRows ?? []) add(finalIndex(s), -1);
  for (const { at } of batch.insertRows ?? []) add(at[0], 1);
  for (const { from, to } of batch.moveRows ?? []) {
    add(finalIndex(from[0]), -1);
    add(to[0], 1);
  }
  return changes;
}
