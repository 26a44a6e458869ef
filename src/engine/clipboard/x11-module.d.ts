// The part of the `x11` package (a pure-JavaScript X11 client without type declarations) that
// the clipboard source uses.
declare module 'x11' {
  interface XEvent {
    readonly name?: string;
  }
  interface XFixes {
    QueryVersion(major: number, minor: number, callback: (error: Error | null, version: [number, number]) => void): void;
    SelectSelectionInput(window: number, selection: number, eventMask: number): void;
    readonly SelectionEventMask: { readonly SetSelectionOwner: number; readonly SelectionWindowDestroy: number; readonly SelectionClientClose: number };
  }
  interface XClient {
    AllocID(): number;
    CreateWindow(id: number, parent: number, x: number, y: number, width: number, height: number, border: number, depth: number, windowClass: number, visual: number, values: Record<string, unknown>): void;
    InternAtom(onlyIfExists: boolean, name: string, callback: (error: Error | null, atom: number) => void): void;
    require(extension: 'fixes', callback: (error: Error | null, fixes: XFixes) => void): void;
    on(event: 'event', listener: (event: XEvent) => void): this;
    on(event: 'error' | 'end' | 'close', listener: (error?: Error) => void): this;
    terminate(): void;
  }
  interface XDisplay {
    readonly client: XClient;
    readonly screen: ReadonlyArray<{ readonly root: number }>;
  }
  export function createClient(options: { display?: string }, callback: (error: Error | null, display: XDisplay) => void): XClient;
}
