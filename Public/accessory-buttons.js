// Accessory buttons (docs/FORMAT.md, "Accessory views"): a row's accessory view
// may be a UIButton, drawn as `<button class="accessory-button">`. Pressing it
// (a click, or Enter or Space on the focused button) sends the press to the
// server (docs/API.md, "Accessory buttons"), by the row's id when it has one;
// in a view a row without an id is read-only (view-edits.js). It comes back to
// every window through the live feed as a `press` event, which a page script
// hears as a `webtableview:press` DOM event on the table. A refused press is
// explained.

import { indexPathOf } from "./dom.js";
import { disableWhenReadOnly } from "./view-edits.js";

export class AccessoryButtons {
  constructor(view) {
    this.view = view;
    view.enhancers.push((cell) => disableWhenReadOnly(cell, view.table, "button.accessory-button"));
    view.table.addEventListener("click", (event) => {
      const button = event.target.closest?.("button.accessory-button");
      if (button && view.table.contains(button)) this.press(button);
    });
  }

  async press(button) {
    const cell = button.closest("tr.cell");
    if (!cell || button.getAttribute("aria-busy") === "true") return;
    button.setAttribute("aria-busy", "true");
    try {
      const id = cell.dataset.id;
      if (id) await this.view.api.pressItem(id);
      else await this.view.api.press(...indexPathOf(cell));
    } catch (error) {
      this.view.notices.refused(error);
    } finally {
      button.removeAttribute("aria-busy");
    }
  }
}
