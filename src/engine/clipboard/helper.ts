// Event-driven clipboard sources built on one long-lived helper process that prints a line
// whenever the clipboard changes: `wl-paste --watch` on Wayland, and on macOS and Windows a
// small script that watches the system's clipboard change counter in-process. Either way no
// process is started per poll; the text is read only after a change.
import type { ClipboardListener, ClipboardSource } from '../patch/watcher.js';
import { buildChildEnv } from '../secrets/index.js';

/** A helper command: argv only (never a shell), with the environment it runs in. */
export interface HelperCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** What the helper is, for messages ("wl-paste --watch"). */
  readonly label: string;
}

/** `wl-paste --watch` runs its command after every change of the Wayland clipboard. */
export function waylandWatchCommand(env: NodeJS.ProcessEnv): HelperCommand {
  return { command: 'wl-paste', args: ['--type', 'text', '--watch', 'echo', 'changed'], env, label: 'wl-paste --watch' };
}

/** macOS: JavaScript for Automation polls NSPasteboard's changeCount (a counter, no copy of the text) twice a second. */
export function macosWatchCommand(env: NodeJS.ProcessEnv): HelperCommand {
  const script = [
    "ObjC.import('AppKit');",
    'const board = $.NSPasteboard.generalPasteboard;',
    'const out = $.NSFileHandle.fileHandleWithStandardOutput;',
    'let seen = board.changeCount;',
    'for (;;) {',
    '  delay(0.5);',
    '  const now = board.changeCount;',
    "  if (now !== seen) { seen = now; out.writeData($('changed\\n').dataUsingEncoding($.NSUTF8StringEncoding)); }",
    '}',
  ].join('\n');
  return { command: 'osascript', args: ['-l', 'JavaScript', '-e', script], env, label: 'osascript (NSPasteboard.changeCount)' };
}

/** Windows: PowerShell polls GetClipboardSequenceNumber (a counter, no copy of the text) twice a second. */
export function windowsWatchCommand(env: NodeJS.ProcessEnv): HelperCommand {
  const script = [
    "Add-Type -Namespace RelayDesk -Name Clip -MemberDefinition '[DllImport(\"user32.dll\")] public static extern uint GetClipboardSequenceNumber();'",
    '$seen = [RelayDesk.Clip]::GetClipboardSequenceNumber()',
    'while ($true) {',
    '  Start-Sleep -Milliseconds 500',
    '  $now = [RelayDesk.Clip]::GetClipboardSequenceNumber()',
    '  if ($now -ne $seen) { $seen = $now; [Console]::Out.WriteLine("changed"); [Console]::Out.Flush() }',
    '}',
  ].join('\n');
  return { command: 'powershell.exe', args: ['-NoProfile', '-NonInteractive', '-Command', script], env, label: 'powershell (GetClipboardSequenceNumber)' };
}

/**
 * A clipboard source whose changes come from a helper's output lines. The helper starts when
 * the watcher subscribes and is ended when it closes; if it exits on its own, or cannot be
 * started, the watcher is told once (onFailure) with what the helper said.
 */
export function helperSource(helper: HelperCommand, read: () => Promise<string>): ClipboardSource {
  return {
    read,
    subscribe(listener: ClipboardListener) {
      // Through engine/proc like every other child: its own process group, the desktop
      // allow-list environment (the display, not the user's credentials), no timeout (it runs
      // for as long as the watcher does), ended by aborting.
      const stop = new AbortController();
      void import('../proc/run.js')
        .then(({ runProcess }) =>
          runProcess({
            command: helper.command,
            args: helper.args,
            cwd: process.cwd(),
            env: buildChildEnv({ from: helper.env, profile: 'desktop' }),
            timeoutMs: 0,
            signal: stop.signal,
            maxOutputBytes: 2_000,
            // Several changes in one chunk need one read: the watcher reads the latest text anyway.
            onStdout: (chunk) => {
              if (chunk.includes('\n')) listener.onChange();
            },
          }),
        )
        .then((outcome) => {
          if (stop.signal.aborted) return;
          if (outcome.kind === 'spawn-failed') {
            listener.onFailure(new Error(`${helper.label} could not be started: ${outcome.message}`));
            return;
          }
          const said = outcome.stderr.trim().split('\n').pop();
          const how = outcome.kind === 'exited' ? `exit ${outcome.exitCode}` : (outcome.signal ?? outcome.kind);
          listener.onFailure(new Error(`${helper.label} stopped (${how})${said ? `: ${said}` : ''}`));
        });
      return {
        close() {
          stop.abort();
        },
      };
    },
  };
}
