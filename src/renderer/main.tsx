// The React window (history, run detail, diff approval) is built by the window issue. This
// placeholder already gets `window.relay`, so the page works the same in Electron and in a
// browser opened by `relay ui`.
import { installRelay } from './transport/install';

const relay = installRelay();
const root = document.getElementById('root');
if (root) {
  root.textContent = 'Relay Desk: the window is not built yet. Use the `relay` CLI.';
  void relay.listProjects({}).then((reply) => {
    if (reply.ok) root.dataset.projects = String(reply.value.length);
  });
}
