// Vite's client types: CSS imports, import.meta.env.
/// <reference types="vite/client" />
