// The headers of a view grouped by a number (docs/API.md, "Views"): the server
// writes each as `<data class="group-number" value="8336817">8,336,817</data>`,
// the value as its row holds it; the page shows it in the reader's locale
// (Intl.NumberFormat: "8.336.817" in German), all its digits kept.

const format = new Intl.NumberFormat(undefined, { maximumFractionDigits: 20 });

/** Writes every group number in `root` (a table, section or row) for the reader's locale. */
export function formatGroupNumbers(root) {
  for (const number of root.querySelectorAll("data.group-number")) {
    // A string keeps the literal's every digit (Intl.NumberFormat formats it as a decimal, exactly).
    const shown = format.format(number.value);
    if (shown !== "NaN") number.textContent = shown;
  }
}
