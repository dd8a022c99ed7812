// Placeholder entry; the typed bridge replaces it.
export {};
