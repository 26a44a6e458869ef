// The React window (history, run detail, diff approval) is built by the window issue.
const root = document.getElementById('root');
if (root) root.textContent = 'Relay Desk: the window is not built yet. Use the `relay` CLI.';
