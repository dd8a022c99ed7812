// Placeholder entry; the secure shell replaces it.
export {};
