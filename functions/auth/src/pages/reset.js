// The reset page: the new password twice, sent with the link's token on submit.
const form = document.getElementById('reset');
const button = document.getElementById('submit');
if (!token) form.hidden = true;

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  button.disabled = true;
  const r = await call('auth/password-reset/confirm', {
    token,
    password: form.elements.password.value,
    confirmPassword: form.elements.confirmPassword.value,
  });
  button.disabled = false;
  if (r.ok) {
    form.hidden = true;
    show('done', 'Your new password is set. Every earlier session has ended: log in with the new password.');
  } else if (tokenRefused(r)) {
    form.hidden = true;
    show('expired', 'This link has expired or was used already. Ask for a new one with "Forgot password".');
  } else if (r.status === 400) {
    show('refused', `The password was refused: ${r.problem.detail || 'invalid input'}.`, r.problem.errors);
  } else {
    show('error', failure(r));
  }
});
