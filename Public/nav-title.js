// The navigation bar's title as UIKit draws a long one: centred in the bar,
// clear of the back button and of the bar's buttons, and truncated in the
// middle ("The Very Long…of Tables") rather than at its end. The whole title
// stays the heading's accessible name (a visually hidden copy) and its
// tooltip. Without JavaScript a long title ends with an ellipsis.

const ELLIPSIS = "…";
/** Room kept between the title and the bar's items on either side (px). */
const GAP = 8;

/** The width of what `element` holds, not of the grid cell it fills. */
function contentWidth(element) {
  if (!element?.firstChild) return 0;
  const range = document.createRange();
  range.selectNodeContents(element);
  return range.getBoundingClientRect().width;
}

/** `characters` with all but `keep` of them taken out of the middle. */
function middleTruncated(characters, keep) {
  const head = Math.ceil(keep / 2);
  return characters.slice(0, head).join("").trimEnd() + ELLIPSIS
    + characters.slice(characters.length - (keep - head)).join("").trimStart();
}

/** Fits the title of the page's navigation bar now and whenever the bar or its buttons change. */
export function fitNavTitle(bar = document.querySelector(".nav-bar")) {
  const title = bar?.querySelector(".nav-title");
  if (!title) return;
  const full = title.textContent;
  const characters = Array.from(full);
  const spoken = document.createElement("span");
  spoken.className = "tv-visually-hidden";
  spoken.textContent = full;
  const shown = document.createElement("span");
  shown.className = "nav-title-text";
  shown.setAttribute("aria-hidden", "true");
  title.replaceChildren(spoken, shown);
  title.title = full;
  const leading = bar.querySelector(".nav-leading");
  const trailing = bar.querySelector(".nav-trailing");

  const fit = () => {
    const style = getComputedStyle(bar);
    const inner = bar.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const side = Math.max(contentWidth(leading), contentWidth(trailing));
    const room = Math.max(0, Math.floor(inner - 2 * (side + GAP)));
    title.style.maxWidth = `${room}px`;
    shown.textContent = full;
    if (shown.getBoundingClientRect().width <= room) return;
    // The most characters that fit, found by bisection.
    let low = 0;
    let high = characters.length - 1;
    while (low < high) {
      const keep = Math.ceil((low + high) / 2);
      shown.textContent = middleTruncated(characters, keep);
      if (shown.getBoundingClientRect().width <= room) low = keep;
      else high = keep - 1;
    }
    shown.textContent = middleTruncated(characters, low);
  };
  fit();
  new ResizeObserver(fit).observe(bar);
  for (const side of [leading, trailing]) {
    if (side) new MutationObserver(fit).observe(side, { childList: true, subtree: true, characterData: true });
  }
}
