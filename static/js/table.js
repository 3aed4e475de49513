// Progressive enhancement for the hand form: the tricks add up to the hand's six
// (data-tricks), so the rows that sum decides are filled in as the others are tapped,
// exactly as the engine's fill_tricks does on the server when the form is sent without
// JavaScript: once the tapped rows make six, the others are 0; with one row left, it is
// what the others leave. A test checks that the two agree.
function fillTricks(counts, total) {
  const given = counts.reduce((sum, count) => sum + (count ?? 0), 0);
  const blanks = counts.filter((count) => count === null).length;
  if (given >= total) return counts.map((count) => count ?? 0);
  if (blanks === 1) return counts.map((count) => count ?? total - given);
  return counts;
}

document.addEventListener("change", (event) => {
  const fieldset = event.target.closest("fieldset.tricks");
  if (!fieldset) return;
  const rows = [...fieldset.querySelectorAll(".trick-row")];
  event.target.closest(".trick-row").dataset.auto = "";
  const tapped = (row) => !row.dataset.auto && row.querySelector("input:checked");
  const counts = rows.map((row) => (tapped(row) ? Number(tapped(row).value) : null));
  const filled = fillTricks(counts, Number(fieldset.dataset.tricks));
  rows.forEach((row, seat) => {
    if (counts[seat] !== null) return;
    row.querySelectorAll("input").forEach((input) => { input.checked = false; });
    const input = filled[seat] === null ? null : row.querySelector(`input[value="${filled[seat]}"]`);
    if (input) input.checked = true;
    row.dataset.auto = input ? "1" : "";
  });
});

// New game: the first-dealer choices take the names as they are typed.
document.addEventListener("input", (event) => {
  const match = /^id_player_(\d)$/.exec(event.target.id);
  const choice = match && document.querySelector(`input[name="first_dealer"][value="${match[1]}"] + span`);
  if (!choice) return;
  choice.dataset.seat ??= choice.textContent;
  choice.textContent = event.target.value.trim() || choice.dataset.seat;
});

// The settlement sheet's Print button.
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-print]")) window.print();
});
