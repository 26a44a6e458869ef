// The contextBridge surface (one typed function per contract channel) is built with the
// runtime/contract issue. Nothing is exposed yet.
export {};
