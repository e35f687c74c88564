// The section index strip (sectionIndexTitles, plain style only): a click on a
// title, or a drag along the strip (a thumb scrubbing it), scrolls its section
// to the top. As in UIKit the strip fits the window below the navigation bar
// at every height: when its titles do not fit, runs of them fold into "•",
// each bullet standing for the titles between its neighbours. Titles never
// shrink below a 24 px line: each entry is a 24×24 px target (WCAG 2.2, 2.5.8
// Target Size (Minimum)), so a strip folds where UIKit's would shrink. A drag maps the whole strip, end to end, onto every title, shown
// or folded. The strip is rebuilt when sections are inserted, deleted or moved,
// and laid out again when the window is resized.

import { sectionsOf } from "./dom.js";

/** A title's line, shown or folded (px): the height of a 24×24 px target (WCAG 2.5.8). */
const LINE = 24;
/** The narrowest strip (px), as Public/tableview.css draws it without JavaScript. */
const NARROWEST = 28;
/** Room kept between the strip and the navigation bar above, the window's edge below, and its padding (px). */
const MARGIN = 8;
const PADDING = 8;

/**
 * The entries of a strip of `slots` lines for `titles` (more than fit): titles
 * evenly spread, first and last included, with a bullet for each run of
 * titles between two of them.
 */
function fold(titles, slots) {
  const shown = Math.max(2, Math.floor((Math.max(slots, 3) + 1) / 2));
  const picks = Array.from({ length: shown }, (_, k) => Math.round((k * (titles.length - 1)) / (shown - 1)));
  const entries = [];
  picks.forEach((pick, k) => {
    entries.push({ ...titles[pick], label: titles[pick].title });
    const next = picks[k + 1];
    if (next === undefined || next - pick < 2) return;
    const middle = titles[Math.floor((pick + 1 + next - 1) / 2)];
    entries.push({ ...middle, label: "•", run: `${titles[pick + 1].title} to ${titles[next - 1].title}` });
  });
  return entries;
}

export class SectionIndex {
  constructor(view) {
    this.view = view;
    this.strip = view.container.querySelector("nav.section-index");
    this.plain = view.table.classList.contains("plain");
    /** Every index title and its section, a title equal to the one before shown once. */
    this.titles = [];
    if (!this.strip) return;
    this.learnTitles();
    this.listen();
    this.rebuild();
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
    window.addEventListener("resize", () => this.layOut());
    this.strip.addEventListener("click", (event) => {
      const link = event.target.closest("a");
      if (!link) return;
      event.preventDefault();
      this.jump(Number(link.dataset.section), link.getAttribute("aria-label") ?? link.textContent);
    });
    this.strip.addEventListener("pointerdown", (event) => {
      if (event.button !== 0) return;
      event.preventDefault();
      this.strip.setPointerCapture(event.pointerId);
      this.strip.classList.add("tv-scrubbing");
      this.current = null;
      this.scrubTo(event.clientY);
      const move = (moveEvent) => this.scrubTo(moveEvent.clientY);
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

  /** Jumps to the title at `y` along the strip, the strip standing for every title from end to end. */
  scrubTo(y) {
    const links = this.strip.querySelectorAll("a");
    if (!links.length || !this.titles.length) return;
    const top = links[0].getBoundingClientRect().top;
    const bottom = links[links.length - 1].getBoundingClientRect().bottom;
    const fraction = Math.min(Math.max((y - top) / Math.max(bottom - top, 1), 0), 1);
    const title = this.titles[Math.min(Math.floor(fraction * this.titles.length), this.titles.length - 1)];
    if (title === this.current) return;
    this.current = title;
    this.jump(title.section, title.title);
  }

  jump(index, title) {
    const section = sectionsOf(this.view.table)[index];
    if (!section) return;
    section.scrollIntoView({ block: "start", behavior: "instant" });
    this.view.notices.announce(title);
  }

  /**
   * The table's sections were put in place from a page read afresh (search.js):
   * its strip, `fresh` (none while searching), gives their index titles.
   */
  adopt(fresh) {
    if (!fresh) {
      this.titles = [];
      this.layOut();
      return;
    }
    if (!this.strip) {
      this.strip = fresh;
      this.view.table.after(fresh);
      this.listen();
    } else {
      this.strip.replaceChildren(...Array.from(fresh.childNodes));
    }
    this.learnTitles();
    this.rebuild();
  }

  /** Reads the sections' index titles afresh and redraws the strip. */
  rebuild() {
    if (!this.plain) return;
    if (!this.strip) {
      this.strip = document.createElement("nav");
      this.strip.className = "section-index";
      this.strip.setAttribute("aria-label", "Section index");
      this.view.table.after(this.strip);
      this.listen();
    }
    this.titles = [];
    let previous = null;
    sectionsOf(this.view.table).forEach((section, index) => {
      const title = section.dataset.indexTitle;
      if (!title || title === previous) return;
      previous = title;
      this.titles.push({ title, section: index });
    });
    this.layOut();
  }

  /** Draws the titles that fit below the navigation bar: all of them, or folded. */
  layOut() {
    if (!this.strip) return;
    const { titles } = this;
    this.strip.hidden = titles.length === 0;
    this.view.container.style.removeProperty("--index-width");
    if (!titles.length) return;
    const bar = Math.max(document.querySelector(".nav-bar")?.getBoundingClientRect().bottom ?? 0, 0);
    const room = window.innerHeight - bar - 2 * MARGIN - PADDING;
    const entries = titles.length * LINE <= room
      ? titles.map((title) => ({ ...title, label: title.title }))
      : fold(titles, Math.floor(room / LINE));
    this.strip.replaceChildren(...entries.map((entry) => {
      const link = document.createElement("a");
      link.href = `#section-${entry.section}`;
      link.dataset.section = String(entry.section);
      link.textContent = entry.label;
      if (entry.run) link.setAttribute("aria-label", entry.run);
      return link;
    }));
    this.fitTitles();
  }

  /** Widens the strip, and the room the rows leave for it, to its longest title (a range's "900K"). */
  fitTitles() {
    const widest = Math.max(...Array.from(this.strip.children, (link) => link.getBoundingClientRect().width));
    if (widest > NARROWEST) this.view.container.style.setProperty("--index-width", `${Math.ceil(widest)}px`);
  }
}
