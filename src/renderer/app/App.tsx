// The window: sidebar, the routed view, the approval dialog and notices.
import { useEffect, useRef } from 'react';
import { EventBridge } from '../data/EventBridge';
import { assertNever } from '../lib/badges';
import { ApprovalHost } from '../views/ApprovalDialog';
import { AskView } from '../views/AskView';
import { HandoffView } from '../views/HandoffView';
import { HistoryView } from '../views/HistoryView';
import { PasteView } from '../views/PasteView';
import { ProjectsView } from '../views/ProjectsView';
import { RunDetailView } from '../views/RunDetailView';
import { SettingsView } from '../views/SettingsView';
import { Empty } from '../components/ui';
import { ConnectionBanner } from './ConnectionBanner';
import { HandoffPrompts } from './HandoffPrompts';
import { ProjectChoices } from './ProjectChoices';
import { Notices } from './Notices';
import { useRoute } from './router';
import { href, type Route } from './routes';
import { Sidebar } from './Sidebar';

function RouteView(props: { readonly route: Route }) {
  const { route } = props;
  switch (route.name) {
    case 'history':
      return <HistoryView filter={route.filter} />;
    case 'run':
      return <RunDetailView key={route.runId} runId={route.runId} />;
    case 'projects':
      return <ProjectsView />;
    case 'settings':
      return <SettingsView />;
    case 'paste':
      return <PasteView key={route.projectId ?? ''} projectId={route.projectId} />;
    case 'ask':
      return <AskView key={`${route.projectId}/${route.mode}/${route.runId ?? ''}`} projectId={route.projectId} runId={route.runId} mode={route.mode} />;
    case 'handoff':
      return <HandoffView key={route.projectId} projectId={route.projectId} />;
    case 'not-found':
      return (
        <div className="view">
          <h1 tabIndex={-1}>Nothing here</h1>
          <Empty title={`There is no page at ${route.path}.`}>
            <a href={href.history()}>Go to History</a>
          </Empty>
        </div>
      );
    default:
      return assertNever(route);
  }
}

export function App() {
  const route = useRoute();
  const mainRef = useRef<HTMLElement>(null);
  const routeKey = route.name === 'history' ? 'history' : JSON.stringify(route);
  useEffect(() => {
    // Move focus to the new view's title, as a page load would, so screen readers announce it.
    const heading = mainRef.current?.querySelector<HTMLElement>('h1[tabindex="-1"]');
    if (heading && document.activeElement === document.body) heading.focus({ preventScroll: true });
  }, [routeKey]);
  return (
    <div className="app">
      <EventBridge />
      <a href="#main" className="skip-link" onClick={(e) => { e.preventDefault(); mainRef.current?.focus(); }}>
        Skip to content
      </a>
      <Sidebar route={route} />
      <main id="main" ref={mainRef} tabIndex={-1}>
        <ConnectionBanner />
        <HandoffPrompts />
        <ProjectChoices />
        <RouteView route={route} />
      </main>
      <ApprovalHost />
      <Notices />
    </div>
  );
}
