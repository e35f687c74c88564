// Pull to refresh (UIRefreshControl): on a touch screen, pulling the page down
// while it is scrolled to the top opens a space above the table with a
// spinner; released far enough, the page resynchronises the table from the
// server — it closes its event stream, reads the table page afresh, puts its
// sections in place and follows the stream again from that version — and the
// spinner ends (endRefreshing).

/** How far the finger pulls for each pixel the space opens (rubber band). */
const RESISTANCE = 2;
const TRIGGER = 60;
const MOST = 110;

export class RefreshControl {
  constructor(view) {
    this.view = view;
    this.pull = null;
    this.refreshing = false;
    this.element = document.createElement("div");
    this.element.className = "tv-refresh-control";
    this.status = document.createElement("span");
    this.status.className = "tv-spinner";
    this.status.setAttribute("role", "status");
    this.element.append(this.status);
    view.container.prepend(this.element);
    document.addEventListener("touchstart", (event) => this.touchStart(event), { passive: true });
    document.addEventListener("touchmove", (event) => this.touchMove(event), { passive: true });
    document.addEventListener("touchend", () => this.touchEnd(true));
    document.addEventListener("touchcancel", () => this.touchEnd(false));
  }

  touchStart(event) {
    if (this.refreshing || event.touches.length !== 1 || window.scrollY > 0) return;
    if (event.target.closest?.(".tv-reorder-handle, .section-index, .tv-swiping")) return;
    this.pull = { y: event.touches[0].clientY, space: 0 };
  }

  touchMove(event) {
    if (!this.pull) return;
    const pulled = event.touches[0].clientY - this.pull.y;
    this.pull.space = window.scrollY > 0 ? 0 : Math.min(Math.max(pulled / RESISTANCE, 0), MOST);
    this.open(this.pull.space);
  }

  touchEnd(released) {
    const pull = this.pull;
    this.pull = null;
    if (!pull) return;
    if (released && pull.space >= TRIGGER) this.refresh();
    else this.open(0);
  }

  /** Opens the space above the table to `height` px; the spinner turns as it opens. */
  open(height) {
    this.element.style.height = `${height}px`;
    this.element.style.setProperty("--tv-pull-turn", `${(height / TRIGGER) * 270}deg`);
    this.element.classList.toggle("tv-pulling", height > 0);
  }

  async refresh() {
    this.refreshing = true;
    this.element.classList.add("tv-refreshing");
    this.open(TRIGGER);
    this.status.textContent = "Refreshing…";
    const { feed, notices } = this.view;
    feed.pause();
    try {
      await this.view.resynchronise();
      notices.announce("Table refreshed");
    } catch (error) {
      notices.alert(`The table could not be refreshed: ${error.message}`);
    } finally {
      feed.resume();
      this.refreshing = false;
      this.element.classList.remove("tv-refreshing");
      this.status.textContent = "";
      this.open(0);
    }
  }
}
