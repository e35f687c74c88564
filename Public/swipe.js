// Swipe to delete (UIKit's trailing swipe action): outside editing mode, a
// row whose editing style is delete follows a finger, pen or mouse dragged to
// the left and reveals its delete button (`deleteTitle`); released past half
// the row's width it deletes at once (a full swipe). Tapping elsewhere closes
// it. Keyboard users delete through editing mode (editing.js).

import { followPointer } from "./dom.js";

const DECIDE = 10;
const OPEN_AT = 40;
const FULL_SWIPE = 0.5;

function swipeable(cell) {
  return cell?.matches?.("tr.cell[data-can-edit='true'][data-editing-style='delete']")
    && !cell.classList.contains("tv-removing") && cell.querySelector(".tv-delete-confirm");
}

export class Swipe {
  constructor(view) {
    this.view = view;
    this.gesture = null;
    this.open = null;
    this.swallowClick = false;
    const { table } = view;
    table.addEventListener("pointerdown", (event) => this.pointerDown(event));
    document.addEventListener("pointerdown", (event) => {
      if (this.open && !this.open.contains(event.target)) this.close();
    });
    // The click that ends a swipe is not a tap on the row.
    table.addEventListener("click", (event) => {
      if (this.swallowClick) {
        this.swallowClick = false;
        if (!event.target.closest(".tv-delete-confirm")) {
          event.preventDefault();
          event.stopImmediatePropagation();
        }
      }
    }, true);
    table.addEventListener("webtableview:editing", () => this.close());
  }

  get editing() {
    return this.view.table.classList.contains("editing");
  }

  pointerDown(event) {
    this.swallowClick = false;
    const cell = event.target.closest?.("tr.cell");
    if (this.editing || event.button !== 0 || !swipeable(cell) || event.target.closest(".tv-delete-confirm")) return;
    const start = this.open === cell ? this.offsetOf(cell) : 0;
    this.gesture = { cell, id: event.pointerId, x: event.clientX, y: event.clientY, start, swiping: false };
    followPointer(event, (moveEvent) => this.pointerMove(moveEvent), (released) => this.pointerUp(released));
  }

  pointerMove(event) {
    const gesture = this.gesture;
    if (!gesture) return;
    const dx = event.clientX - gesture.x;
    const dy = event.clientY - gesture.y;
    if (!gesture.swiping) {
      if (Math.abs(dy) > DECIDE && Math.abs(dy) > Math.abs(dx)) {
        this.gesture = null;
        return;
      }
      if (Math.abs(dx) <= DECIDE) return;
      gesture.swiping = true;
      if (this.open && this.open !== gesture.cell) this.close();
      gesture.cell.classList.add("tv-swiping");
    }
    event.preventDefault();
    this.setOffset(gesture.cell, Math.min(0, gesture.start + dx));
  }

  pointerUp(released) {
    const gesture = this.gesture;
    this.gesture = null;
    if (!gesture?.swiping) return;
    this.swallowClick = true;
    const { cell } = gesture;
    cell.classList.remove("tv-swiping");
    const offset = -this.offsetOf(cell);
    if (released && offset > cell.offsetWidth * FULL_SWIPE) {
      this.setOffset(cell, -cell.offsetWidth);
      this.fullSwipe(cell);
    } else if (released && offset > OPEN_AT) {
      this.reveal(cell);
    } else {
      this.close(cell);
    }
  }

  /** Deletes the row; if the server refuses, the row slides back. */
  async fullSwipe(cell) {
    await this.view.editing.commitDelete(cell, cell.querySelector(".tv-delete-confirm"));
    if (cell.isConnected && !cell.classList.contains("tv-removing")) this.close(cell);
  }

  /**
   * Shows the row's delete button, the row's content moved aside by its width.
   * The focus stays where it was: a swipe is a pointer's gesture, and a
   * button focused by it would wear a keyboard's focus ring.
   */
  reveal(cell) {
    const confirm = cell.querySelector(".tv-delete-confirm");
    cell.classList.add("tv-swiped");
    this.setOffset(cell, 0);
    this.setOffset(cell, -confirm.offsetWidth);
    this.open = cell;
  }

  close(cell = this.open) {
    if (!cell) return;
    cell.classList.remove("tv-swiped", "tv-swiping");
    cell.style.removeProperty("--tv-swipe");
    if (this.open === cell) this.open = null;
  }

  offsetOf(cell) {
    return parseFloat(cell.style.getPropertyValue("--tv-swipe")) || 0;
  }

  setOffset(cell, offset) {
    cell.style.setProperty("--tv-swipe", `${offset}px`);
  }
}
