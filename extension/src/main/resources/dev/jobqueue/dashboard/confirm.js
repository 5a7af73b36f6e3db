// The confirmation dialog asked before an action that changes jobs or puts one.

const dialog = document.getElementById('confirm');
const message = document.getElementById('confirm-message');
const ok = document.getElementById('confirm-ok');
const cancel = document.getElementById('confirm-cancel');

ok.addEventListener('click', () => dialog.close('ok'));
cancel.addEventListener('click', () => dialog.close('cancel'));
window.addEventListener('hashchange', () => dialog.close('cancel')); // Back while asking: the question is moot

/** Whether the dialog is showing (live refresh waits while it is). */
export function confirmOpen() {
  return dialog.open;
}

/** Asks the question in a modal dialog; resolves true when the user presses okLabel, false on Cancel or Escape. */
export async function confirmAction(text, okLabel) {
  message.textContent = text;
  ok.textContent = okLabel;
  dialog.returnValue = '';
  dialog.showModal();
  cancel.focus();
  return new Promise(resolve => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true });
  });
}
