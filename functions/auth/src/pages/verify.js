// The verification page: nothing is confirmed until the button is pressed (a mail
// scanner that opens the link spends nothing).
const button = document.getElementById('confirm');
if (!token) button.hidden = true;

button.addEventListener('click', async () => {
  button.disabled = true;
  const r = await call('auth/verify-email', { token });
  if (r.ok) {
    button.hidden = true;
    show('verified', 'Your e-mail address is confirmed.');
  } else if (tokenRefused(r)) {
    button.hidden = true;
    show('expired', 'This link has expired, was used already, or the account has another address now. Ask for a new one from the app.');
  } else {
    button.disabled = false;
    show('error', failure(r));
  }
});
