// The console's progressive enhancement (decision console-stack): every page works without it.
// A form with data-confirm asks before it is sent (closing a case, revoking a key), and a form's
// submit buttons are disabled once it is sent, so a double click posts once.
for (const form of document.querySelectorAll("form")) {
  form.addEventListener("submit", (event) => {
    const question = form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) {
      event.preventDefault();
      return;
    }
    // After the submit event, so the clicked button's name and value are still sent.
    setTimeout(() => {
      for (const button of form.querySelectorAll("button")) button.disabled = true;
    }, 0);
  });
}

// A secret shown once (a new API key, credential or webhook secret) gets a copy button: it is
// hidden in the page and shown here, where the clipboard can be reached (issue 31, item 5).
for (const button of document.querySelectorAll("button[data-copy]")) {
  const source = document.getElementById(button.getAttribute("data-copy") ?? "");
  if (!source || !navigator.clipboard) continue;
  button.hidden = false;
  button.addEventListener("click", async () => {
    const said = button.nextElementSibling;
    try {
      await navigator.clipboard.writeText(source.textContent ?? "");
      if (said) said.textContent = "Gekopieerd.";
    } catch {
      if (said) said.textContent = "Kopiëren lukte niet; selecteer de tekst en kopieer hem zelf.";
    }
  });
}
