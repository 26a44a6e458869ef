// The first window: with no project registered there is no history to show, so the window says
// what Relay Desk does, in two sentences, and offers to add a project right there.
import { AddProjectForm } from './AddProject';

export function Welcome() {
  return (
    <div className="view view-welcome">
      <header className="view-header">
        <h1 tabIndex={-1}>Welcome to Relay Desk</h1>
      </header>
      <section className="welcome card" aria-label="What Relay Desk does">
        <p className="welcome-lead">
          Relay Desk applies the code your chat assistant writes to your project as one change you approve and can undo, and runs agent ticks, second opinions and handoffs
          within budgets you set.
        </p>
        <p className="welcome-lead">Everything it does stays in one history, so your work is never lost and nothing touches a project you have not added.</p>
      </section>
      <AddProjectForm />
      <p className="muted small">
        A project set up in a terminal (<code>relay init</code> or <code>relais init</code>) is added here once, or opened by starting <code>relay ui</code> inside it.
      </p>
    </div>
  );
}
