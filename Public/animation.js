// UITableView.RowAnimation drawn with CSS classes (tableview-live.css): an
// inserted item slides in from the named side, a deleted one slides out to it,
// while the space it takes opens or closes. Classes are applied, then removed
// when the animation ends. With prefers-reduced-motion nothing moves.

const DURATION = 300;
const KINDS = new Set(["fade", "right", "left", "top", "bottom", "middle", "none"]);
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

/**
 * The animation to draw for a batch whose `animation` is `name`; "automatic"
 * fades, as UIKit does for most changes.
 */
export function kindFor(name) {
  if (reducedMotion.matches) return "none";
  return KINDS.has(name) ? name : "fade";
}

/** Removes the classes and variables of `node`'s animation once it has run. */
function afterAnimation(node, classes, done) {
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    node.removeEventListener("animationend", onEnd);
    node.classList.remove(...classes);
    node.style.removeProperty("--tv-height");
    node.style.removeProperty("--tv-from");
    done?.();
  };
  const onEnd = (event) => {
    if (event.target === node) finish();
  };
  node.addEventListener("animationend", onEnd);
  // animationend does not come when the node leaves the page or is hidden.
  setTimeout(finish, DURATION + 200);
}

/**
 * Animates items that were just put in the page. `grow` opens their space
 * from nothing (inserts); reloads only fade or slide in place.
 * @param {{node: HTMLElement, kind: string, phase: string}[]} items
 */
export function animateIn(items) {
  const moving = items.filter((item) => item.kind !== "none");
  // Read every height first, then write: one layout for the whole batch.
  const heights = moving.map((item) => (item.phase === "insert" ? item.node.offsetHeight : 0));
  moving.forEach((item, index) => {
    const classes = ["tv-animating", `tv-${item.phase}`, `tv-anim-${item.kind}`];
    if (item.phase === "insert") item.node.style.setProperty("--tv-height", `${heights[index]}px`);
    item.node.classList.add(...classes);
    afterAnimation(item.node, classes);
  });
}

/**
 * Animates items leaving the page, then removes them. `heights` were read
 * before the page changed.
 * @param {{node: HTMLElement, kind: string, height: number}[]} items
 */
export function animateOut(items) {
  for (const { node, kind, height } of items) {
    if (kind === "none") {
      node.remove();
      continue;
    }
    const classes = ["tv-animating", "tv-delete", `tv-anim-${kind}`];
    node.style.setProperty("--tv-height", `${height}px`);
    node.classList.add(...classes);
    afterAnimation(node, classes, () => node.remove());
  }
}

/**
 * Slides moved rows from where they were drawn (`top` read before the change)
 * to where they are now.
 * @param {{node: HTMLElement, top: number}[]} items
 */
export function animateMoves(items) {
  if (reducedMotion.matches) return;
  const offsets = items.map(({ node, top }) => top - node.getBoundingClientRect().top);
  items.forEach(({ node }, index) => {
    if (Math.abs(offsets[index]) < 1) return;
    const classes = ["tv-animating", "tv-move"];
    node.style.setProperty("--tv-from", `${offsets[index]}px`);
    node.classList.add(...classes);
    afterAnimation(node, classes);
  });
}
