// Outcomes of tasks and the runtime's warnings and errors, as notices in a live region. The same
// notice again counts up instead of stacking; successes fade after a few seconds, problems stay
// until closed; at most three show at once (data/notices.ts holds the rules).
import { useEffect } from 'react';
import { CopyButton } from '../components/CopyButton';
import { Badge } from '../components/ui';
import { useLive } from '../data/hooks';
import { liveStore } from '../data/live-store';
import { FADE_MS, fades, visibleNotices, type Notice } from '../data/notices';

function NoticeItem(props: { readonly notice: Notice }) {
  const { notice } = props;
  return (
    <li className={`notice tone-${notice.tone}`} data-notice-tone={notice.tone}>
      <div className="notice-text">
        <strong className="notice-title">{notice.title}</strong>
        {notice.count > 1 ? (
          <span className="notice-count" aria-label={`${notice.count} times`}>
            ×{notice.count}
          </span>
        ) : null}{' '}
        {notice.code ? <Badge tone={notice.tone === 'danger' ? 'danger' : 'neutral'}>{notice.code}</Badge> : null}
        {notice.message ? <div className="notice-message">{notice.message}</div> : null}
        {notice.reply ? <CopyButton label="Copy reply for the assistant" className="button subtle" getText={() => notice.reply ?? ''} /> : null}
      </div>
      <button type="button" className="icon-button" aria-label={`Dismiss: ${notice.title}`} onClick={() => liveStore.dismiss(notice.id)}>
        <span aria-hidden="true">×</span>
      </button>
    </li>
  );
}

/** Dismisses fading notices when their time is up, whether or not they are on screen. */
function useFading(notices: readonly Notice[]): void {
  useEffect(() => {
    const timers = notices.filter(fades).map((notice) => setTimeout(() => liveStore.dismiss(notice.id), Math.max(0, notice.ts + FADE_MS - Date.now())));
    return () => timers.forEach(clearTimeout);
  }, [notices]);
}

export function Notices() {
  const notices = useLive((state) => state.notices);
  useFading(notices);
  const { shown, hidden } = visibleNotices(notices);
  return (
    <div className="notices" role="region" aria-label="Notifications">
      <ul aria-live="polite">
        {hidden > 0 ? (
          <li className="notice-more">
            <span>
              {hidden} earlier notice{hidden === 1 ? '' : 's'}
            </span>
            <button type="button" className="button small subtle" onClick={() => notices.slice(0, hidden).forEach((n) => liveStore.dismiss(n.id))}>
              Dismiss {hidden === 1 ? 'it' : 'them'}
            </button>
          </li>
        ) : null}
        {shown.map((n) => (
          <NoticeItem key={n.id} notice={n} />
        ))}
      </ul>
    </div>
  );
}
