// A change in words, for the page's polite live region.

const PHRASES = [
  ["insertSections", "section inserted", "sections inserted"],
  ["deleteSections", "section deleted", "sections deleted"],
  ["moveSections", "section moved", "sections moved"],
  ["reloadSections", "section updated", "sections updated"],
  ["insertRows", "row inserted", "rows inserted"],
  ["deleteRows", "row deleted", "rows deleted"],
  ["moveRows", "row moved", "rows moved"],
  ["reloadRows", "row updated", "rows updated"],
];

/**
 * "2 rows inserted, 1 row deleted" for a batch; empty for a change that only
 * redraws rows without animation (a selection, which aria-selected conveys).
 */
export function summarise(batch) {
  if (batch.animation === "none" && !PHRASES.some(([list]) => list !== "reloadRows" && batch[list]?.length)) {
    return batch.properties ? "Table updated" : "";
  }
  const parts = [];
  for (const [list, one, many] of PHRASES) {
    const count = batch[list]?.length ?? 0;
    if (count) parts.push(count === 1 ? `1 ${one}` : `${count} ${many}`);
  }
  if (batch.properties) parts.push("table updated");
  const text = parts.join(", ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
