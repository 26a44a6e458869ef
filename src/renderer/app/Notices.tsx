// Outcomes of tasks and the runtime's warnings and errors, as dismissible notices in a live
// region. Successes fade after a while; problems stay until the person closes them.
import { useEffect } from 'react';
import { CopyButton } from '../components/CopyButton';
import { Badge } from '../components/ui';
import { useLive } from '../data/hooks';
import type { Notice } from '../data/live';
import { liveStore } from '../data/live-store';

const FADE_MS = 8000;

function NoticeItem(props: { readonly notice: Notice }) {
  const { notice } = props;
  useEffect(() => {
    if (notice.tone !== 'success' && notice.tone !== 'info') return;
    const timer = setTimeout(() => liveStore.dismiss(notice.id), FADE_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  return (
    <li className={`notice tone-${notice.tone}`}>
      <div className="notice-text">
        <strong>{notice.title}</strong> {notice.code ? <Badge tone={notice.tone === 'danger' ? 'danger' : 'neutral'}>{notice.code}</Badge> : null}
        <div className="notice-message">{notice.message}</div>
        {notice.reply ? <CopyButton label="Copy reply for the assistant" className="button subtle" getText={() => notice.reply ?? ''} /> : null}
      </div>
      <button type="button" className="icon-button" aria-label={`Dismiss: ${notice.title}`} onClick={() => liveStore.dismiss(notice.id)}>
        ×
      </button>
    </li>
  );
}

export function Notices() {
  const notices = useLive((state) => state.notices);
  return (
    <div className="notices" role="region" aria-label="Notifications">
      <ul aria-live="polite">
        {notices.map((n) => (
          <NoticeItem key={n.id} notice={n} />
        ))}
      </ul>
    </div>
  );
}
