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
