// The section index strip (sectionIndexTitles, plain style only): a click on a
// title, or a drag along the strip, scrolls its section to the top. The strip
// is rebuilt when sections are inserted, deleted or moved.

import { sectionsOf } from "./dom.js";

export class SectionIndex {
  constructor(view) {
    this.view = view;
    this.strip = view.container.querySelector("nav.section-index");
    this.plain = view.table.classList.contains("plain");
    if (!this.strip) return;
    this.learnTitles();
    this.listen();
  }

  /** Index titles of the sections drawn by the server, when the markup does not carry them. */
  learnTitles() {
    const sections = sectionsOf(this.view.table);
    for (const link of this.strip.querySelectorAll("a[href^='#section-']")) {
      const section = sections[Number(link.getAttribute("href").slice("#section-".length))];
      if (section && !section.hasAttribute("data-index-title")) section.dataset.indexTitle = link.textContent;
    }
  }

  listen() {
    this.strip.addEventListener("click", (event) => {
      const link = event.target.closest("a");
      if (!link) return;
      event.preventDefault();
      this.jump(link);
    });
    this.strip.addEventListener("pointerdown", (event) => {
      if (event.button !== 0) return;
      event.preventDefault();
      this.strip.setPointerCapture(event.pointerId);
      this.strip.classList.add("tv-scrubbing");
      this.jumpTo(event.clientY);
      const move = (moveEvent) => this.jumpTo(moveEvent.clientY);
      const end = () => {
        this.strip.classList.remove("tv-scrubbing");
        this.strip.removeEventListener("pointermove", move);
        this.strip.removeEventListener("pointerup", end);
        this.strip.removeEventListener("pointercancel", end);
      };
      this.strip.addEventListener("pointermove", move);
      this.strip.addEventListener("pointerup", end);
      this.strip.addEventListener("pointercancel", end);
    });
  }

  /** Jumps to the title nearest to `y` on the strip. */
  jumpTo(y) {
    const links = Array.from(this.strip.querySelectorAll("a"));
    let nearest = null;
    let distance = Infinity;
    for (const link of links) {
      const box = link.getBoundingClientRect();
      const d = y < box.top ? box.top - y : y > box.bottom ? y - box.bottom : 0;
      if (d < distance) {
        nearest = link;
        distance = d;
      }
    }
    if (nearest && nearest !== this.current) this.jump(nearest);
  }

  jump(link) {
    this.current = link;
    const section = document.getElementById(link.getAttribute("href").slice(1));
    if (!section) return;
    section.scrollIntoView({ block: "start", behavior: "instant" });
    this.view.notices.announce(link.textContent);
  }

  /** Redraws the strip from the sections' index titles (a title equal to the one before is shown once). */
  rebuild() {
    if (!this.plain) return;
    if (!this.strip) {
      this.strip = document.createElement("nav");
      this.strip.className = "section-index";
      this.strip.setAttribute("aria-label", "Section index");
      this.view.table.after(this.strip);
      this.listen();
    }
    const links = [];
    let previous = null;
    sectionsOf(this.view.table).forEach((section, index) => {
      const title = section.dataset.indexTitle;
      if (!title || title === previous) return;
      previous = title;
      const link = document.createElement("a");
      link.href = `#section-${index}`;
      link.textContent = title;
      links.push(link);
    });
    this.strip.replaceChildren(...links);
    this.strip.hidden = links.length === 0;
  }
}
