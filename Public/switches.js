// Switches (docs/FORMAT.md, "Accessory views"): a row's accessory view may be a
// UISwitch, drawn as `<input type="checkbox" role="switch">`. Flipping it (a
// click, or Space on the focused switch) sends the flip to the server
// (docs/API.md, "Switches"), by the row's id when it has one; in a view a row
// without an id is read-only (view-edits.js). The change comes back to every
// window through the live feed like any other. A refused flip is undone on the
// page and explained.

import { indexPathOf } from "./dom.js";
import { disableWhenReadOnly } from "./view-edits.js";

export class Switches {
  constructor(view) {
    this.view = view;
    view.enhancers.push((cell) => disableWhenReadOnly(cell, view.table, "input.switch"));
    view.table.addEventListener("change", (event) => {
      const input = event.target;
      if (input.matches?.("input.switch")) this.flip(input);
    });
  }

  async flip(input) {
    const cell = input.closest("tr.cell");
    if (!cell) return;
    const on = input.checked;
    input.setAttribute("aria-busy", "true");
    try {
      const id = cell.dataset.id;
      if (id) await this.view.api.setItemSwitch(id, on);
      else await this.view.api.setSwitch(...indexPathOf(cell), on);
    } catch (error) {
      if (input.isConnected) input.checked = !on;
      this.view.notices.refused(error);
    } finally {
      input.removeAttribute("aria-busy");
    }
  }
}
