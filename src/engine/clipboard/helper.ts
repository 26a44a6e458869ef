// Event-driven clipboard sources built on one long-lived helper process that prints a line
// whenever the clipboard changes: `wl-paste --watch` on Wayland, and on macOS and Windows a
// small script that watches the system's clipboard change counter in-process. Either way no
// process is started per poll; the text is read only after a change.
import { spawn } from 'node:child_process';
import type { ClipboardListener, ClipboardSource } from '../patch/watcher.js';

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
      let closing = false;
      let stderr = '';
      const child = spawn(helper.command, [...helper.args], { env: helper.env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        // Several changes in one chunk need one read: the watcher reads the latest text anyway.
        if (chunk.includes('\n')) listener.onChange();
      });
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => {
        if (stderr.length < 2_000) stderr += chunk;
      });
      child.on('error', (error) => {
        if (!closing) listener.onFailure(new Error(`${helper.label} could not be started: ${error.message}`));
      });
      child.on('exit', (code, signal) => {
        if (closing) return;
        const said = stderr.trim().split('\n').pop();
        listener.onFailure(new Error(`${helper.label} stopped (${signal ?? `exit ${code}`})${said ? `: ${said}` : ''}`));
      });
      return {
        close() {
          closing = true;
          child.kill();
        },
      };
    },
  };
}
