// Progressive enhancement for the hand form: the six tricks add up, so once three
// players' tricks are tapped, the fourth is filled in. The server does the same
// when the form is sent without JavaScript.
document.addEventListener("change", (event) => {
  const fieldset = event.target.closest("fieldset.tricks");
  if (!fieldset) return;
  const rows = [...fieldset.querySelectorAll(".trick-row")];
  event.target.closest(".trick-row").dataset.auto = "";
  const tapped = rows.filter((row) => row.querySelector("input:checked") && !row.dataset.auto);
  if (tapped.length !== 3) return;
  const rest = rows.find((row) => !tapped.includes(row));
  const left = 6 - tapped.reduce((sum, row) => sum + Number(row.querySelector("input:checked").value), 0);
  rest.querySelectorAll("input").forEach((input) => { input.checked = false; });
  const input = rest.querySelector(`input[value="${left}"]`);
  if (input) {
    input.checked = true;
    rest.dataset.auto = "1";
  }
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
