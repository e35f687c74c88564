// What the page tells its reader besides the table itself: a polite live region
// that announces changes to screen readers, a visible toast for refused edits,
// a line while the live connection is down and a banner for a table that no
// longer exists.

const TOAST_SECONDS = 8;

/** The notices of one page: `announce`, `alert` and `banner`. */
export class Notices {
  /** @param {HTMLElement} host the element the notices are added to (the table's container). */
  constructor(host) {
    this.live = document.createElement("div");
    this.live.className = "tv-announcer";
    this.live.setAttribute("aria-live", "polite");
    this.live.setAttribute("aria-atomic", "true");

    this.toast = document.createElement("div");
    this.toast.className = "tv-toast";
    this.toast.setAttribute("role", "alert");
    this.toast.hidden = true;
    this.message = document.createElement("p");
    this.message.className = "tv-toast-message";
    const close = document.createElement("button");
    close.type = "button";
    close.className = "tv-toast-close";
    close.setAttribute("aria-label", "Dismiss");
    close.addEventListener("click", () => this.dismiss());
    this.toast.append(this.message, close);

    host.append(this.live, this.toast);
    this.host = host;
    this.offline = null;
    this.timer = 0;
  }

  /** Says `text` to assistive technology without moving focus. */
  announce(text) {
    if (!text) return;
    // Clearing first makes a repeated message be announced again.
    this.live.textContent = "";
    requestAnimationFrame(() => { this.live.textContent = text; });
  }

  /** Shows `text` in the toast (role alert) for a few seconds. */
  alert(text) {
    clearTimeout(this.timer);
    this.message.textContent = text;
    this.toast.hidden = false;
    this.toast.classList.remove("tv-toast-hiding");
    this.timer = setTimeout(() => this.dismiss(), TOAST_SECONDS * 1000);
  }

  /** Shows why an edit failed: a refusal's message, or that the server could not be reached. */
  refused(error) {
    this.alert(error.userMessage ?? "The server could not be reached, so nothing was changed. Check the connection and try again.");
  }

  /**
   * Says, in a small line above the table, that the live connection is down
   * (`up` false) until it is back (`up` true); changes made meanwhile show
   * when it returns.
   */
  connection(up) {
    if (!this.offline) {
      this.offline = document.createElement("p");
      this.offline.className = "tv-connection";
      this.offline.setAttribute("role", "status");
      this.host.prepend(this.offline);
    }
    this.offline.textContent = up ? "" : "Not connected. Changes will show when the connection is back.";
  }

  dismiss() {
    clearTimeout(this.timer);
    this.toast.hidden = true;
  }

  /** A lasting notice above the table, e.g. when the table was deleted. */
  banner(text, link) {
    let banner = document.querySelector(".tv-banner");
    if (!banner) {
      banner = document.createElement("div");
      banner.className = "tv-banner";
      banner.setAttribute("role", "status");
      const main = document.querySelector("main") ?? document.body;
      main.prepend(banner);
    }
    banner.textContent = text + " ";
    if (link) {
      const anchor = document.createElement("a");
      anchor.href = link.href;
      anchor.textContent = link.text;
      banner.append(anchor);
    }
  }
}
