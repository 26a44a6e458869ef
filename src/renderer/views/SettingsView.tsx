// Settings of Relay Desk itself (not of one project): the clipboard watcher, notifications,
// start at login, and where the agent programs are. They take effect in the desktop app;
// under `relay ui` they are stored for it.
import { useId, useState, type FormEvent } from 'react';
import type { AppSettings } from '../../shared/schemas.js';
import { SettingSwitch } from '../components/controls';
import { ErrorBox, Loading } from '../components/ui';
import { useAppSettings, useUpdateAppSettings } from '../data/hooks';

const AGENTS = ['claude', 'codex', 'gemini'] as const;

function Toggle(props: { readonly label: string; readonly hint: string; readonly checked: boolean; readonly onChange: (checked: boolean) => Promise<unknown> }) {
  // The mutation's error is shown by the view; either way the stored value is the truth again.
  return (
    <SettingSwitch label={props.label} checked={props.checked} onChange={props.onChange}>
      <p className="muted small">{props.hint}</p>
    </SettingSwitch>
  );
}

function AgentPaths(props: { readonly settings: AppSettings }) {
  const update = useUpdateAppSettings();
  const [paths, setPaths] = useState(props.settings.agentPaths);
  const ids = { claude: useId(), codex: useId(), gemini: useId() };
  const dirty = AGENTS.some((a) => paths[a] !== props.settings.agentPaths[a]);
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    update.mutate({ agentPaths: { claude: paths.claude.trim(), codex: paths.codex.trim(), gemini: paths.gemini.trim() } });
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="agents-heading">
      <h2 id="agents-heading">Agent programs</h2>
      <p className="muted small">Absolute paths of the agent CLIs; empty: found on your login shell’s PATH.</p>
      {AGENTS.map((agent) => (
        <div key={agent} className="form-row">
          <label htmlFor={ids[agent]}>{agent}</label>
          <input id={ids[agent]} type="text" value={paths[agent]} onChange={(e) => setPaths({ ...paths, [agent]: e.target.value })} placeholder={`/usr/local/bin/${agent}`} spellCheck={false} />
        </div>
      ))}
      <div className="button-row">
        <button type="submit" className="button primary" disabled={!dirty || update.isPending}>
          {update.isPending ? 'Saving…' : 'Save paths'}
        </button>
        {update.isSuccess && !dirty ? (
          <span className="success-line" role="status">
            Saved.
          </span>
        ) : null}
      </div>
      {update.isError ? <ErrorBox error={update.error} title="The paths were not saved" /> : null}
    </form>
  );
}

function PollInterval(props: { readonly settings: AppSettings }) {
  const update = useUpdateAppSettings();
  const [value, setValue] = useState(String(props.settings.clipboardPollIntervalMs));
  const id = useId();
  return (
    <form
      className="setting inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        update.mutate({ clipboardPollIntervalMs: Number(value) });
      }}
    >
      <label htmlFor={id}>Check the clipboard every</label>
      <input id={id} type="number" min={100} max={60000} step={50} value={value} onChange={(e) => setValue(e.target.value)} className="number-input" /> ms
      <button type="submit" className="button small" disabled={update.isPending || Number(value) === props.settings.clipboardPollIntervalMs}>
        Save
      </button>
      {update.isError ? <ErrorBox error={update.error} title="The interval was not saved" /> : null}
    </form>
  );
}

export function SettingsView() {
  const settings = useAppSettings();
  const update = useUpdateAppSettings();
  return (
    <div className="view view-settings">
      <header className="view-header">
        <h1 tabIndex={-1}>Settings</h1>
      </header>
      {settings.isPending ? <Loading label="Loading settings…" /> : null}
      {settings.isError ? <ErrorBox error={settings.error} title="The settings could not be loaded" /> : null}
      {settings.data ? (
        <>
          <section className="card" aria-labelledby="desktop-heading">
            <h2 id="desktop-heading">Desktop app</h2>
            <Toggle
              label="Watch the clipboard for answers"
              hint="The master switch; each project can also stop watching on its own. Takes effect in the desktop app."
              checked={settings.data.watchClipboard}
              onChange={(watchClipboard) => update.mutateAsync({ watchClipboard })}
            />
            <PollInterval key={settings.data.clipboardPollIntervalMs} settings={settings.data} />
            <Toggle label="Desktop notifications" hint="Patches waiting for approval, applied or rolled back, tick verdicts, failures." checked={settings.data.notifications} onChange={(notifications) => update.mutateAsync({ notifications })} />
            <Toggle label="Start Relay Desk when I log in" hint="In the tray, without opening the window." checked={settings.data.autoStart} onChange={(autoStart) => update.mutateAsync({ autoStart })} />
            {update.isError ? <ErrorBox error={update.error} title="The setting was not changed" /> : null}
          </section>
          <AgentPaths settings={settings.data} />
        </>
      ) : null}
    </div>
  );
}
