// Copying text from the window. navigator.clipboard needs a secure context and, in some
// browsers, focus or a permission; the hidden-textarea fallback covers the rest.

/** Copies `text`; resolves true on success. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the fallback
  }
  return copyWithTextarea(text);
}

function copyWithTextarea(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  area.style.pointerEvents = 'none';
  const focused = document.activeElement as HTMLElement | null;
  document.body.append(area);
  area.select();
  let done = false;
  try {
    // Deprecated, but the only way left when the async clipboard is refused.
    done = document.execCommand('copy');
  } catch {
    done = false;
  }
  area.remove();
  focused?.focus();
  return done;
}
