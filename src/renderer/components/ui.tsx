// Small building blocks every view uses: badges, error/loading/empty states, relative times.
import { useEffect, useState, type ReactNode } from 'react';
import type { Tone } from '../lib/badges';
import { exactTime, relativeTime } from '../lib/time';
import { errorInfo } from '../data/client';

export function Badge(props: { readonly tone: Tone; readonly children: ReactNode; readonly title?: string }) {
  return (
    <span className={`badge tone-${props.tone}`} title={props.title}>
      {props.children}
    </span>
  );
}

/** An error as the engine reported it: its code, then its message. */
export function ErrorBox(props: { readonly error: unknown; readonly title?: string; readonly children?: ReactNode }) {
  const { code, message } = errorInfo(props.error);
  return (
    <div className="error-box" role="alert">
      {props.title ? <div className="error-title">{props.title}</div> : null}
      <div>
        <code className="error-code">{code}</code> <span className="error-message">{message}</span>
      </div>
      {props.children}
    </div>
  );
}

/** A failure carried as data (a task's error, a run's error): code and message. */
export function FailureBox(props: { readonly code: string; readonly message: string; readonly title?: string }) {
  return (
    <div className="error-box" role="alert">
      {props.title ? <div className="error-title">{props.title}</div> : null}
      <div>
        <code className="error-code">{props.code}</code> <span className="error-message">{props.message}</span>
      </div>
    </div>
  );
}

export function Loading(props: { readonly label?: string }) {
  return (
    <div className="state-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {props.label ?? 'Loading…'}
    </div>
  );
}

export function Empty(props: { readonly title: string; readonly children?: ReactNode }) {
  return (
    <div className="state-empty">
      <p className="state-empty-title">{props.title}</p>
      {props.children ? <div className="state-empty-hint">{props.children}</div> : null}
    </div>
  );
}

/** The current time, ticking every `everyMs`, for relative times that stay true. */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

export function RelativeTime(props: { readonly iso: string; readonly now: number }) {
  return (
    <time dateTime={props.iso} title={exactTime(props.iso)}>
      {relativeTime(props.iso, props.now)}
    </time>
  );
}

export function Kbd(props: { readonly children: ReactNode }) {
  return <kbd className="kbd">{props.children}</kbd>;
}
