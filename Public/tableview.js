// WebTableView in the browser: enhances the server-rendered table view (docs/FORMAT.md, "The HTML")
// with live animated updates, editing mode, swipe to delete, reordering,
// selection, the section index strip, virtual scrolling and pull to refresh; keeps a row's detail page live
// (row-detail.js) and makes the index page's upload work (upload.js). The page is complete without this script.

import { AccessoryButtons } from "./accessory-buttons.js";
import { TableAPI } from "./api.js";
import { DeepLink } from "./deep-link.js";
import { versionOf } from "./dom.js";
import { Editing } from "./editing.js";
import { formatGroupNumbers } from "./group-numbers.js";
import { LiveFeed } from "./live-feed.js";
import { fitNavTitle } from "./nav-title.js";
import { Notices } from "./notices.js";
import { RefreshControl } from "./refresh.js";
import { startRowDetail } from "./row-detail.js";
import { Reorder } from "./reorder.js";
import { SearchBar } from "./search.js";
import { SectionIndex } from "./section-index.js";
import { Selection } from "./selection.js";
import { Swipe } from "./swipe.js";
import { Switches } from "./switches.js";
import { TableProperties } from "./table-properties.js";
import { startUpload } from "./upload.js";
import { VirtualScroll } from "./virtual-scroll.js";

/** One table view on the page and the parts that work on it. */
class TableView {
  constructor(table) {
    this.table = table;
    this.tableID = table.dataset.table;
    this.container = table.closest(".table-container") ?? table.parentElement;
    /** Called with every row element put in the page: adds controls, tab stops. */
    this.enhancers = [];
    /** Called with every table, section or row put in the page, after the enhancers: roles. */
    this.structure = [formatGroupNumbers];
    /** Called before each update from the feed is applied; each answers [row, drawn top] pairs. */
    this.beforeUpdate = [];
    this.notices = new Notices(this.container);
    this.api = new TableAPI(this.tableID, () => versionOf(table));
    this.properties = new TableProperties(this);
    this.feed = new LiveFeed(this);
    this.editing = new Editing(this);
    this.reorder = new Reorder(this);
    this.swipe = new Swipe(this);
    this.selection = new Selection(this);
    this.switches = new Switches(this);
    this.accessoryButtons = new AccessoryButtons(this);
    this.sectionIndex = new SectionIndex(this);
    this.scroll = new VirtualScroll(this);
    this.refreshControl = new RefreshControl(this);
    this.deepLink = new DeepLink(this);
    this.search = SearchBar.attach(this);
    this.enhance(table);
    this.selection.start();
    table.classList.add("tv-live");
    this.feed.start();
    // Editing, selection and live updates work from here on (docs/PERFORMANCE.md).
    performance.mark("webtableview:interactive");
    this.deepLink.follow(window.location.hash);
  }

  /** Enhances every row in `root` (a table, section or row). */
  enhance(root) {
    const cells = root.matches("tr.cell") ? [root] : root.querySelectorAll("tr.cell");
    for (const cell of cells) {
      for (const enhancer of this.enhancers) enhancer(cell);
    }
    for (const describe of this.structure) describe(root);
  }

  /**
   * Reads the table page afresh and puts its sections and version in place of
   * the ones shown (pull to refresh); the feed then follows from that version.
   */
  async resynchronise() {
    const response = await fetch(window.location.href, { headers: { Accept: "text/html" }, cache: "no-store" });
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = Array.from(page.querySelectorAll("table.table-view[data-table]"))
      .find((table) => table.dataset.table === this.tableID);
    if (!fresh) throw new Error("the page no longer shows this table");
    this.adopt(fresh);
    this.sectionIndex.adopt(page.querySelector("nav.section-index"));
  }

  /**
   * Puts the sections, version and view of `fresh` (the table of a page read
   * afresh) in place of the ones shown; the feed follows the view shown from
   * its version, opened again when the view changed.
   */
  adopt(fresh) {
    const view = this.table.dataset.view ?? "";
    for (const name of ["data-version", "data-life", "data-view", "data-allows-selection", "data-allows-multiple-selection", "aria-label"]) {
      this.table.setAttribute(name, fresh.getAttribute(name) ?? "");
    }
    this.table.replaceChildren(...Array.from(fresh.childNodes));
    this.enhance(this.table);
    this.scroll.resize();
    this.scroll.schedule();
    this.selection.keepOneTabStop();
    if ((this.table.dataset.view ?? "") !== view) {
      this.feed.follow();
      // The share button exports what the page shows: the view's rows.
      const share = document.querySelector("a.nav-export");
      if (share) {
        const shown = this.table.dataset.view;
        share.setAttribute("href", share.getAttribute("href").split("&")[0] + (shown ? `&${shown}` : ""));
      }
    }
  }

  /** The table was deleted on the server: nothing more to edit or follow. */
  tableDeleted() {
    this.table.classList.remove("editing");
    this.table.classList.add("tv-deleted");
    this.editing.toggle.disabled = true;
    this.notices.banner("This table has been deleted.", { href: "/", text: "All tables" });
  }
}

document.documentElement.classList.add("tv-js");
fitNavTitle();
startRowDetail();
startUpload();
for (const table of document.querySelectorAll("table.table-view[data-table]")) {
  new TableView(table);
}
